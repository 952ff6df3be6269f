//! The native speed measurements, one module per family. Each prints its figures and asserts
//! nothing about them (a shared machine's timings are noise, not a failure); where one compares
//! backends, it interleaves their rounds and reports medians. They are `#[ignore]`d, so
//! `cargo test` builds them and runs none. Run them optimised on an otherwise idle machine:
//!
//! ```text
//! npm run bench:native
//! cargo test --release --lib benches::kdfs::scrypt_speed -- --ignored --nocapture
//! ```
//!
//! The first runs all of them, one at a time; the second one (or the ones under a path prefix).

mod hashes {
  use std::time::Instant;

  use digest::Digest;

  use crate::arch::KeccakBmi;
  use crate::hash::backends::contexts::{AwsLc, Ring};
  use crate::hash::backends::RustCrypto;
  use crate::hash::blake2::{Blake2b, Blake2bScalar, Blake2s, Blake2sScalar};
  use crate::hash::core::{oneshot, HashCore};
  use crate::hash::keccak::Permutation;
  use crate::hash::md::tests::ours;
  use crate::hash::md::{self, hash_lanes, BlockFn, Md, Md4Compress, Md5Compress, Sha256Compress};
  use crate::hash::rmd160::Ripemd160Compress;

  /// MB/s of ours and of the crate `D` over `data`, with equal digests.
  fn speed<F: BlockFn, D: Digest>(data: &[u8]) -> (f64, f64) {
    let mb = data.len() as f64 / 1e6;
    let t = std::time::Instant::now();
    let mut out = [0u8; 64];
    ours::<Md<F>>(data, &mut out[..F::OUTPUT_LEN]);
    let a = mb / t.elapsed().as_secs_f64();
    let t = std::time::Instant::now();
    let want = D::digest(data);
    let b = mb / t.elapsed().as_secs_f64();
    assert_eq!(out[..F::OUTPUT_LEN], want[..]);
    (a, b)
  }

  /// Bytes per microsecond (MB/s) of one-shot hashing `data` with fresh states from `make`.
  fn rate<H: HashCore>(make: &dyn Fn() -> H, data: &[u8]) -> f64 {
    let reps = ((64usize << 20) / data.len().max(64)).clamp(8, 1 << 20);
    let mut out = vec![0u8; make().output_len()];
    let t = Instant::now();
    for _ in 0..reps {
      oneshot(make(), std::hint::black_box(data), &mut out);
    }
    (reps * data.len()) as f64 / t.elapsed().as_secs_f64() / 1e6
  }

  /// Ns per message of
  /// `hash_lanes` over four SHA-256 messages of 0..3 blocks (the slope is the kernel's cost per
  /// block and lane, the intercept the bookkeeping's).
  #[test]
  #[ignore]
  fn lanes_speed() {
    let data = [7u8; 192];
    let mut outs = [[0u8; 32]; 4];
    for len in [0, 64, 128, 192] {
      let m = &data[..len];
      let mut best = f64::MAX;
      for _ in 0..50 {
        let t = std::time::Instant::now();
        for _ in 0..4096 {
          let outs = outs.each_mut().map(|o| &mut o[..]);
          hash_lanes::<Sha256Compress, 4>(&Sha256Compress::IV, 0, [m; 4], outs);
        }
        best = best.min(t.elapsed().as_nanos() as f64 / 4096.0 / 4.0);
      }
      println!("{len} bytes: {best:.1} ns per message");
    }
  }

  /// MB/s against the crates, 16 MiB
  /// (RIPEMD-160: `rmd160_speed`).
  #[test]
  #[ignore]
  fn md_speed() {
    let data = vec![7u8; 16 << 20];
    for _ in 0..3 {
      let (a, b) = speed::<Md4Compress, md4::Md4>(&data);
      let (e, f) = speed::<Md5Compress, md5::Md5>(&data);
      println!("md4 ours {a:.0} crate {b:.0} MB/s; md5 ours {e:.0} crate {f:.0} MB/s");
    }
  }

  /// MB/s against the crate, 16 MiB.
  #[test]
  #[ignore]
  fn rmd160_speed() {
    let data = vec![7u8; 16 << 20];
    for _ in 0..3 {
      let (c, d) = speed::<Ripemd160Compress, ::ripemd::Ripemd160>(&data);
      println!("ripemd160 ours {c:.0} crate {d:.0} MB/s");
    }
  }

  /// MB/s of both backends.
  #[test]
  #[ignore]
  fn blake2_speed() {
    let data = vec![7u8; 16 << 20];
    let mb = data.len() as f64 / 1e6;
    for _ in 0..3 {
      let t = std::time::Instant::now();
      let a = blake2b_simd::blake2b(&data);
      let simd = mb / t.elapsed().as_secs_f64();
      let t = std::time::Instant::now();
      let mut h = Blake2bScalar::new(64, &[], &[], &[]);
      h.update(&data);
      let mut out = [0u8; 64];
      h.finalize_into(&mut out);
      let scalar = mb / t.elapsed().as_secs_f64();
      assert_eq!(out[..], a.as_bytes()[..]);
      let t = std::time::Instant::now();
      let a = blake2s_simd::blake2s(&data);
      let simd_s = mb / t.elapsed().as_secs_f64();
      let t = std::time::Instant::now();
      let mut h = Blake2sScalar::new(32, &[], &[], &[]);
      h.update(&data);
      let mut out = [0u8; 32];
      h.finalize_into(&mut out);
      let scalar_s = mb / t.elapsed().as_secs_f64();
      assert_eq!(out[..], a.as_bytes()[..]);
      println!(
        "blake2b simd {simd:.0} scalar {scalar:.0} | blake2s simd {simd_s:.0} scalar {scalar_s:.0} MB/s (measured picks: {:?}, {:?})",
        Blake2b::backend(),
        Blake2s::backend()
      );
    }
  }

  /// Ns per 136-byte block
  /// absorbed (SHA3-256's rate) with each permutation, medians of interleaved rounds, and the
  /// process's pick.
  #[test]
  #[ignore]
  fn permutation_speed() {
    let Some(own) = KeccakBmi::detect() else {
      eprintln!("no BMI1/BMI2 on this CPU: only AWS-LC's permutation runs here");
      return;
    };
    let data = vec![7u8; 136 * 2000];
    let time = |p: Permutation| {
      let mut state = [0u64; 25];
      let start = std::time::Instant::now();
      p.absorb(&mut state, &data, 136);
      std::hint::black_box(state);
      start.elapsed().as_nanos() as f64 / 2000.0
    };
    let median = |mut v: Vec<f64>| {
      v.sort_by(f64::total_cmp);
      v[v.len() / 2]
    };
    let (mut aws, mut ours, mut ratio) = (vec![], vec![], vec![]);
    for _ in 0..31 {
      let (a, o) = (time(Permutation::AwsLc), time(Permutation::Bmi(own)));
      aws.push(a);
      ours.push(o);
      ratio.push(a / o);
    }
    println!(
      "ns per 136-byte block, medians of 31 interleaved rounds: AWS-LC {:.1}, own {:.1}; AWS-LC / own {:.3} (picked: {})",
      median(aws),
      median(ours),
      median(ratio),
      if Permutation::get().is_own() { "own" } else { "AWS-LC" }
    );
  }

  /// MB/s of the candidate
  /// backends per algorithm, interleaved rounds, at 64 B, 1 KiB, 64 KiB and 1 MiB.
  /// `BACKEND_SPEED=sha512` keeps the rows whose name contains `sha512`.
  #[test]
  #[ignore]
  fn backend_speed() {
    use aws_lc_rs::digest as a;
    use ring::digest as r;
    type Row<'a> = (&'a str, Box<dyn Fn(&[u8]) -> f64>);
    let rows: Vec<Row> = vec![
      (
        "sha512 ring",
        Box::new(|d| rate(&|| Ring::new(&r::SHA512), d)),
      ),
      (
        "sha512 aws-lc",
        Box::new(|d| rate(&|| AwsLc::new(&a::SHA512), d)),
      ),
      (
        "sha512 sha2",
        Box::new(|d| rate(&RustCrypto::<sha2::Sha512>::default, d)),
      ),
      (
        "sha512 ours",
        Box::new(|d| rate(&md::Md::<md::Sha512Compress>::default, d)),
      ),
      (
        "sha384 ring",
        Box::new(|d| rate(&|| Ring::new(&r::SHA384), d)),
      ),
      (
        "sha384 aws-lc",
        Box::new(|d| rate(&|| AwsLc::new(&a::SHA384), d)),
      ),
      (
        "sha384 sha2",
        Box::new(|d| rate(&RustCrypto::<sha2::Sha384>::default, d)),
      ),
      (
        "sha384 ours",
        Box::new(|d| rate(&md::Md::<md::Sha384Compress>::default, d)),
      ),
      (
        "sha256 aws-lc",
        Box::new(|d| rate(&|| AwsLc::new(&a::SHA256), d)),
      ),
      (
        "sha256 sha2",
        Box::new(|d| rate(&RustCrypto::<sha2::Sha256>::default, d)),
      ),
      (
        "sha3_256 aws-lc",
        Box::new(|d| rate(&|| AwsLc::new(&a::SHA3_256), d)),
      ),
      (
        "sha3_256 sha3",
        Box::new(|d| rate(&RustCrypto::<sha3::Sha3_256>::default, d)),
      ),
      (
        "sha3_512 aws-lc",
        Box::new(|d| rate(&|| AwsLc::new(&a::SHA3_512), d)),
      ),
      (
        "sha3_256 ours",
        Box::new(|d| rate(&|| crate::hash::keccak::Keccak::sha3(256), d)),
      ),
      (
        "sha3_512 ours",
        Box::new(|d| rate(&|| crate::hash::keccak::Keccak::sha3(512), d)),
      ),
      (
        "sha3_512 sha3",
        Box::new(|d| rate(&RustCrypto::<sha3::Sha3_512>::default, d)),
      ),
    ];
    let only = std::env::var("BACKEND_SPEED").unwrap_or_default();
    let rows: Vec<Row> = rows
      .into_iter()
      .filter(|(name, _)| name.contains(only.as_str()))
      .collect();
    for size in [64usize, 1024, 64 << 10, 1 << 20] {
      let data = vec![7u8; size];
      let mut runs = vec![Vec::new(); rows.len()];
      for _ in 0..5 {
        for (i, (_, f)) in rows.iter().enumerate() {
          runs[i].push(f(&data));
        }
      }
      for (i, (name, _)) in rows.iter().enumerate() {
        runs[i].sort_by(f64::total_cmp);
        println!("{size:>8} B {name:<16} median {:>7.0} MB/s", runs[i][2]);
      }
    }
  }
}

mod kdfs {
  use crate::hash::list::Alg;
  use crate::kdf::pbkdf2::derive as pbkdf2;
  use crate::kdf::scrypt::{derive, ScryptParams};
  use crate::task::Cancel;

  /// Ms for N = 2^14, r = 8, p = 1.
  #[test]
  #[ignore]
  fn scrypt_speed() {
    let p = ScryptParams::new(16384.0, 8, 1, 64, 64.0 * 1048576.0).unwrap();
    let mut out = [0u8; 64];
    for _ in 0..5 {
      let t = std::time::Instant::now();
      derive(b"pw", b"salt", p, &mut out, &Cancel::NEVER).unwrap();
      println!(
        "scrypt 2^14, 8, 1: {:.1} ms",
        t.elapsed().as_secs_f64() * 1e3
      );
    }
  }

  /// Best of 5 at
  /// 100,000 iterations (SHA-512 also against ring's PBKDF2).
  #[test]
  #[ignore]
  fn pbkdf2_speed() {
    let best_of_5 = |f: &mut dyn FnMut()| {
      (0..5)
        .map(|_| {
          let t = std::time::Instant::now();
          f();
          t.elapsed().as_secs_f64() * 1e3
        })
        .fold(f64::MAX, f64::min)
    };
    for alg in [Alg::Sha1, Alg::Sha256, Alg::Sha512] {
      let mut out = [0u8; 32];
      let ours = best_of_5(&mut || {
        pbkdf2(
          alg,
          b"password",
          b"saltsaltsaltsalt",
          100_000,
          &mut out,
          &Cancel::NEVER,
        )
        .unwrap()
      });
      if alg != Alg::Sha512 {
        eprintln!("{alg:?}: {ours:.1} ms");
        continue;
      }
      let ring = best_of_5(&mut || {
        ring::pbkdf2::derive(
          ring::pbkdf2::PBKDF2_HMAC_SHA512,
          std::num::NonZeroU32::new(100_000).unwrap(),
          b"saltsaltsaltsalt",
          b"password",
          &mut out,
        )
      });
      eprintln!("{alg:?}: {ours:.1} ms (ring {ring:.1} ms)");
    }
  }
}

mod ciphers {
  use crate::cipher::dispatch::run;
  use crate::cipher::keys::ModeKey;
  use crate::cipher::modes::Mode;
  use crate::cipher::tests::{bytes, unpadded, Reference, CTR_CRATE, OFB_CRATE};

  /// MB/s of CBC encryption at 64 KiB,
  /// the own loop (through `run`) against the `cbc` crate and AWS-LC's `AES_cbc_encrypt` (OpenSSL's
  /// `aesni_cbc_encrypt`, what node runs), interleaved rounds, medians.
  #[test]
  #[ignore]
  fn cbc_speed() {
    use cipher::{BlockModeEncrypt, KeyIvInit};
    use std::time::Instant;
    let data = bytes(65536, 3);
    let iv = bytes(16, 9);
    for klen in [16usize, 24, 32] {
      let key = bytes(klen, 1);
      let mut out = vec![0u8; data.len() + 16];
      let mut ours = || {
        let op = unpadded(Mode::Cbc, Some(&iv));
        let mut e = ModeKey::new(Mode::Cbc, &key).unwrap();
        run(&mut e, &op, &data, &mut out).unwrap();
      };
      let mut buf = data.clone();
      let mut crate_cbc = || {
        let (input, _) = cipher::array::Array::slice_as_chunks(&data);
        let out = cipher_blocks(&mut buf);
        match klen {
          16 => cbc::Encryptor::<aes::Aes128>::new_from_slices(&key, &iv)
            .unwrap()
            .encrypt_blocks_b2b(input, out),
          24 => cbc::Encryptor::<aes::Aes192>::new_from_slices(&key, &iv)
            .unwrap()
            .encrypt_blocks_b2b(input, out),
          _ => cbc::Encryptor::<aes::Aes256>::new_from_slices(&key, &iv)
            .unwrap()
            .encrypt_blocks_b2b(input, out),
        }
        .unwrap()
      };
      let mut out2 = vec![0u8; data.len()];
      let iv16: [u8; 16] = iv[..].try_into().unwrap();
      let mut awslc = || crate::awslc::aes_cbc_encrypt_reference(&key, &iv16, &data, &mut out2);
      let mut t = [vec![], vec![], vec![]];
      for _ in 0..15 {
        for (i, f) in [&mut ours as &mut dyn FnMut(), &mut crate_cbc, &mut awslc]
          .into_iter()
          .enumerate()
        {
          let s = Instant::now();
          for _ in 0..50 {
            f();
          }
          t[i].push(50.0 * 65536.0 / s.elapsed().as_secs_f64() / 1e6);
        }
      }
      let med = |v: &mut Vec<f64>| {
        v.sort_by(|a, b| a.partial_cmp(b).unwrap());
        v[v.len() / 2]
      };
      println!(
        "AES-{} CBC encrypt 64 KiB MB/s: ours {:.0}, cbc crate {:.0}, AWS-LC {:.0}",
        klen * 8,
        med(&mut t[0]),
        med(&mut t[1]),
        med(&mut t[2])
      );
    }
    fn cipher_blocks(b: &mut [u8]) -> &mut [cipher::Block<aes::Aes128>] {
      let (blocks, rest) = cipher::array::Array::slice_as_chunks_mut(b);
      assert!(rest.is_empty());
      blocks
    }
  }

  /// MB/s at 64 KiB of the own
  /// CTR and OFB (through `run`) against the `ctr` and `ofb` crates, and ECB (the cipher without a
  /// mode) for scale; interleaved rounds, medians.
  #[test]
  #[ignore]
  fn stream_mode_speed() {
    use std::time::Instant;
    let data = bytes(65536, 3);
    let iv = bytes(16, 9);
    for (klen, at) in [(16usize, 0usize), (32, 2)] {
      let key = bytes(klen, 1);
      let ours = |mode: Mode, out: &mut [u8]| {
        let op = unpadded(mode, (mode != Mode::Ecb).then_some(&iv[..]));
        let mut e = ModeKey::new(mode, &key).unwrap();
        run(&mut e, &op, &data, out).unwrap();
      };
      let crates = |refs: [Reference; 3], out: &mut [u8]| refs[at](&key, &iv, &data, out);
      type Contestant<'a> = (&'a str, Box<dyn Fn(&mut [u8]) + 'a>);
      let mut rows: [Contestant; 5] = [
        ("own CTR", Box::new(|o| ours(Mode::Ctr, o))),
        ("ctr crate", Box::new(|o| crates(CTR_CRATE, o))),
        ("own OFB", Box::new(|o| ours(Mode::Ofb, o))),
        ("ofb crate", Box::new(|o| crates(OFB_CRATE, o))),
        ("ECB", Box::new(|o| ours(Mode::Ecb, o))),
      ];
      let mut out = vec![0u8; data.len()];
      let mut t = vec![vec![]; rows.len()];
      for _ in 0..15 {
        for (i, (_, f)) in rows.iter_mut().enumerate() {
          let s = Instant::now();
          for _ in 0..50 {
            f(&mut out);
          }
          t[i].push(50.0 * 65536.0 / s.elapsed().as_secs_f64() / 1e6);
        }
      }
      let line: Vec<String> = rows
        .iter()
        .zip(&mut t)
        .map(|((name, _), v)| {
          v.sort_by(|a, b| a.partial_cmp(b).unwrap());
          format!("{name} {:.0}", v[v.len() / 2])
        })
        .collect();
      println!("AES-{} 64 KiB MB/s: {}", klen * 8, line.join(", "));
    }
  }

  /// MB/s of ChaCha20-Poly1305 sealing, the AVX-512 IFMA kernel against `ring` (BoringSSL's
  /// AVX2 code, this library's other backend), interleaved rounds, medians, from 1 KiB (where
  /// the kernel's setup shows) to 1 MiB.
  #[test]
  #[ignore]
  fn chacha20_poly1305_speed() {
    use crate::cipher::chacha::Stitched;
    use std::time::Instant;
    let Some(kernel) = crate::arch::ChaChaIfma::detect() else {
      println!("this CPU has no AVX-512 IFMA: nothing to compare");
      return;
    };
    let key: [u8; 32] = bytes(32, 1).try_into().unwrap();
    let nonce: [u8; 12] = bytes(12, 2).try_into().unwrap();
    let ring_key = crate::cipher::keys::chacha_key(&key).unwrap();
    for size in [1024usize, 2048, 4096, 8192, 16384, 65536, 1 << 20] {
      let data = bytes(size, 3);
      let mut out = vec![0u8; size];
      let reps = ((16usize << 20) / size).max(4);
      let mut t = [vec![], vec![]];
      for _ in 0..11 {
        let s = Instant::now();
        for _ in 0..reps {
          std::hint::black_box(
            Stitched::with_kernel(kernel, &key, &nonce)
              .seal(b"", &data, &mut out)
              .unwrap(),
          );
        }
        t[0].push((reps * size) as f64 / s.elapsed().as_secs_f64() / 1e6);
        let s = Instant::now();
        for _ in 0..reps {
          out.copy_from_slice(&data);
          let n = ring::aead::Nonce::assume_unique_for_key(nonce);
          let tag = ring_key
            .seal_in_place_separate_tag(n, ring::aead::Aad::empty(), &mut out)
            .unwrap();
          std::hint::black_box(tag.as_ref());
        }
        t[1].push((reps * size) as f64 / s.elapsed().as_secs_f64() / 1e6);
      }
      let med = |v: &mut Vec<f64>| {
        v.sort_by(|a, b| a.partial_cmp(b).unwrap());
        v[v.len() / 2]
      };
      let (a, b) = (med(&mut t[0]), med(&mut t[1]));
      println!(
        "ChaCha20-Poly1305 seal {size} B MB/s: AVX-512 IFMA {a:.0}, ring {b:.0} ({:.2}x)",
        a / b
      );
    }
  }
}

mod pk {
  use std::hint::black_box;
  use std::time::Instant;

  use elliptic_curve::ff::PrimeField;
  use elliptic_curve::FieldBytes;
  use zeroize::Zeroizing;

  use crate::hash::list::Alg;
  use crate::pk::ec::{public_point, random_scalar, sign, EcAwsLc, EcBackend};
  use crate::pk::rfc6979::Nonces;

  /// µs per call of each part of a P-256 signature (medians of 11 rounds of 2000 calls, the parts
  /// interleaved).
  #[test]
  #[ignore]
  fn sign_parts_speed() {
    type C = p256::NistP256;
    type Part<'a> = (&'static str, Box<dyn Fn() + 'a>);
    let d = random_scalar::<C>().unwrap();
    let q = public_point::<C>(&<EcAwsLc as EcBackend<C>>::public(&d).unwrap(), "q").unwrap();
    let z = [7u8; 32];
    let parts: Vec<Part> = vec![
      (
        "sign (whole)",
        Box::new(|| {
          black_box(sign::<C, EcAwsLc>(&d, &z, Alg::Sha256, true).unwrap());
        }),
      ),
      (
        "k·G (AWS-LC, x only)",
        Box::new(|| {
          black_box(<EcAwsLc as EcBackend<C>>::base_x(&d).unwrap());
        }),
      ),
      (
        "k·G (aws-lc-rs key import)",
        Box::new(|| {
          let k = Zeroizing::new(d.to_repr());
          let key = aws_lc_rs::agreement::PrivateKey::from_private_key(
            &aws_lc_rs::agreement::ECDH_P256,
            &k,
          )
          .unwrap();
          drop(key.compute_public_key().unwrap());
        }),
      ),
      (
        "ECDH (AWS-LC)",
        Box::new(|| drop(<EcAwsLc as EcBackend<C>>::ecdh(&d, &q).unwrap())),
      ),
      (
        "RFC 6979 nonce",
        Box::new(|| {
          let mut n = Nonces::new(Alg::Sha256, &d.to_repr(), &z, 256).unwrap();
          let mut k = FieldBytes::<C>::default();
          n.next(&mut k).unwrap();
        }),
      ),
      (
        "random scalar (blind)",
        Box::new(|| drop(random_scalar::<C>().unwrap())),
      ),
      (
        "invert_vartime",
        Box::new(|| {
          black_box(d.as_ref().invert_vartime());
        }),
      ),
      (
        "invert (constant time)",
        Box::new(|| {
          black_box(d.as_ref().invert());
        }),
      ),
    ];
    let mut runs = vec![Vec::new(); parts.len()];
    for _ in 0..11 {
      for (i, (_, f)) in parts.iter().enumerate() {
        let t = Instant::now();
        for _ in 0..2000 {
          f();
        }
        runs[i].push(t.elapsed().as_secs_f64() / 2000.0 * 1e6);
      }
    }
    for (i, (name, _)) in parts.iter().enumerate() {
      runs[i].sort_by(f64::total_cmp);
      println!("{name:<28} {:>7.2} µs", runs[i][5]);
    }
  }
}
