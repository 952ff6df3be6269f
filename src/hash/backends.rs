//! The hash backends from other crates, each behind [`HashCore`]: RustCrypto digests and BLAKE3
//! (on every core for large inputs); AWS-LC's and `ring`'s digests only in tests, measured
//! against. The own implementations they compete with are `md.rs` (MD4, MD5, the SHA block
//! functions), `rmd160.rs`, `blake2.rs` and `keccak.rs` (the SHA-3 family's sponge); why each
//! backend was chosen is in `docs/backends.md`.

use digest::{common::BlockSizeUser, Digest};
use zeroize::Zeroizing;

use super::core::HashCore;

/// Any RustCrypto fixed-output `Digest`.
#[derive(Clone, Default)]
pub struct RustCrypto<D>(D);

impl<D: Digest + BlockSizeUser + Clone> HashCore for RustCrypto<D> {
  #[inline]
  fn update(&mut self, data: &[u8]) {
    Digest::update(&mut self.0, data);
  }
  #[inline]
  fn finalize_into(self, out: &mut [u8]) {
    out.copy_from_slice(&self.0.finalize());
  }
  #[inline]
  fn output_len(&self) -> usize {
    <D as Digest>::output_size()
  }
  #[inline]
  fn block_len(&self) -> usize {
    <D as BlockSizeUser>::block_size()
  }
}

// The digest contexts of `ring` and AWS-LC, now only measured against (`backend_speed` below):
// every hash runs on its own or a RustCrypto backend (`docs/backends.md`).
#[cfg(test)]
mod contexts {
  use super::HashCore;

  /// A `ring`-shaped digest context: `ring::digest::Context` and `aws_lc_rs::digest::Context` have
  /// the same API, so one adapter ([`Ctx`]) serves both.
  pub trait DigestContext: Clone {
    type Algorithm: 'static;
    fn new(alg: &'static Self::Algorithm) -> Self;
    fn update(&mut self, data: &[u8]);
    fn finish_into(self, out: &mut [u8]);
    fn output_len(&self) -> usize;
    fn block_len(&self) -> usize;
  }

  macro_rules! digest_context {
    ($($krate:ident)*) => {$(
      impl DigestContext for $krate::digest::Context {
        type Algorithm = $krate::digest::Algorithm;
        #[inline]
        fn new(alg: &'static Self::Algorithm) -> Self {
          $krate::digest::Context::new(alg)
        }
        #[inline]
        fn update(&mut self, data: &[u8]) {
          $krate::digest::Context::update(self, data);
        }
        #[inline]
        fn finish_into(self, out: &mut [u8]) {
          out.copy_from_slice(self.finish().as_ref());
        }
        fn output_len(&self) -> usize {
          self.algorithm().output_len()
        }
        fn block_len(&self) -> usize {
          self.algorithm().block_len()
        }
      }
    )*};
  }
  digest_context!(ring aws_lc_rs);

  /// A digest of `ring` or AWS-LC (`aws-lc-rs`), behind [`HashCore`]. Both pick their assembly
  /// at run time from CPUID (AVX on Intel, scalar elsewhere; SHA extensions where present).
  #[derive(Clone)]
  pub struct Ctx<C>(C);

  impl<C: DigestContext> Ctx<C> {
    pub fn new(alg: &'static C::Algorithm) -> Self {
      Ctx(C::new(alg))
    }
  }

  /// `ring`'s digests (the SHA-512 family moved to the own block function, `md.rs`).
  pub type Ring = Ctx<ring::digest::Context>;
  /// AWS-LC's digests (SHA-3 moved to the own sponge over AWS-LC's permutation, `keccak.rs`).
  pub type AwsLc = Ctx<aws_lc_rs::digest::Context>;

  impl<C: DigestContext> HashCore for Ctx<C> {
    #[inline]
    fn update(&mut self, data: &[u8]) {
      self.0.update(data);
    }
    #[inline]
    fn finalize_into(self, out: &mut [u8]) {
      self.0.finish_into(out);
    }
    fn output_len(&self) -> usize {
      self.0.output_len()
    }
    fn block_len(&self) -> usize {
      self.0.block_len()
    }
  }
}
#[cfg(test)]
use contexts::{AwsLc, Ring};

/// BLAKE3 (any output length). Inputs from 1 MiB up are hashed on the rayon pool, on every core.
/// So are streams: once a hasher has taken 1 MiB in smaller pieces (a stream's 64 KiB chunks), it
/// gathers further pieces into 1 MiB runs and hashes each run on the pool; hashing them one by
/// one as they come would use one core.
#[derive(Clone)]
pub struct Blake3 {
  hasher: Box<blake3::Hasher>,
  output_len: usize,
  /// Pieces gathered for the next parallel run (empty until the hasher has seen 1 MiB).
  run: Zeroizing<Vec<u8>>,
}

impl Blake3 {
  pub fn new(hasher: blake3::Hasher, output_len: usize) -> Self {
    Blake3 {
      hasher: Box::new(hasher),
      output_len,
      run: Zeroizing::new(Vec::new()),
    }
  }

  fn flush(&mut self) {
    if !self.run.is_empty() {
      self.hasher.update_rayon(&self.run);
      self.run.clear();
    }
  }
}

/// The input size from which hashing on every core pays (the blake3 crate says 128 KiB; 1 MiB
/// measured better here, where the pool's start-up is paid per call).
const BLAKE3_RAYON_MIN: usize = 1 << 20;

impl HashCore for Blake3 {
  #[inline]
  fn update(&mut self, data: &[u8]) {
    if data.len() >= BLAKE3_RAYON_MIN {
      self.flush();
      self.hasher.update_rayon(data);
    } else if self.hasher.count() < BLAKE3_RAYON_MIN as u64 {
      self.hasher.update(data);
    } else {
      // Filled to exactly its capacity, never beyond: a reallocation would leave a copy unwiped.
      if self.run.capacity() == 0 {
        self.run.reserve_exact(BLAKE3_RAYON_MIN);
      }
      let mut data = data;
      while !data.is_empty() {
        let take = (BLAKE3_RAYON_MIN - self.run.len()).min(data.len());
        self.run.extend_from_slice(&data[..take]);
        data = &data[take..];
        if self.run.len() == BLAKE3_RAYON_MIN {
          self.flush();
        }
      }
    }
  }
  #[inline]
  fn finalize_into(mut self, out: &mut [u8]) {
    self.flush();
    self.hasher.finalize_xof().fill(out);
  }
  fn output_len(&self) -> usize {
    self.output_len
  }
  fn block_len(&self) -> usize {
    0
  }
}

#[cfg(test)]
mod tests {
  use super::*;
  use crate::hash::core::oneshot;
  use crate::hash::md;
  use std::time::Instant;

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

  /// `cargo test --release backend_speed -- --ignored --nocapture`: MB/s of the candidate
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
