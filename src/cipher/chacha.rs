//! ChaCha20-Poly1305 (RFC 8439 §2.8) on CPUs with AVX-512 IFMA: ChaCha20 16 blocks at a time
//! and Poly1305 8 blocks at a time (`arch::ChaChaIfma`), stitched [`STITCH`] bytes at a time so
//! Poly1305 reads the ciphertext while it is still in L1. Poly1305 is in radix 2^44 (limbs of
//! 44, 44 and 42 bits, poly1305-donna-64's representation), the same in the vector loop and in
//! the scalar code here, which takes the blocks the vector loop does not (fewer than 8, and the
//! padded last one). Elsewhere, and for messages below [`MIN_LEN`], `ring`'s ChaCha20-Poly1305.

use zeroize::Zeroize;

use super::modes::{decrypt_failed, too_long};
use crate::arch::{ChaChaIfma, PolyPowers};
use crate::error::CryptoResult;

/// Below this many bytes `ring` is faster: the kernel's fixed costs (eight Poly1305 powers, and
/// a last ChaCha20 step of 16 blocks however few are left) weigh on short messages. Sealing on
/// AMD EPYC Zen 4 (`cargo test --release --lib benches::ciphers::chacha20_poly1305_speed --
/// --ignored --nocapture`, quiet machine): 0.90× ring at 4 KiB, 1.06× at 8 KiB, 1.26× at
/// 64 KiB, 1.31× at 1 MiB (3.36 against 2.56 GB/s).
pub const MIN_LEN: usize = 8192;

/// Bytes encrypted before Poly1305 reads them (a multiple of 1 KiB, ChaCha20's step here).
const STITCH: usize = 8 * 1024;

/// Bytes encrypted with the keystream of the step that gives the Poly1305 key (blocks 1-15).
const FIRST: usize = 15 * 64;

/// The most bytes one message may have: ChaCha20's 32-bit block counter starts at 1.
const MAX_LEN: u64 = ((1 << 32) - 1) * 64;

const M44: u64 = (1 << 44) - 1;
const M42: u64 = (1 << 42) - 1;

/// The AVX-512 IFMA kernel when this CPU has it.
pub fn kernel() -> Option<ChaChaIfma> {
  static KERNEL: std::sync::OnceLock<Option<ChaChaIfma>> = std::sync::OnceLock::new();
  *KERNEL.get_or_init(ChaChaIfma::detect)
}

/// Little-endian 32-bit words.
fn words<const N: usize>(bytes: &[u8]) -> [u32; N] {
  std::array::from_fn(|i| {
    u32::from_le_bytes([
      bytes[4 * i],
      bytes[4 * i + 1],
      bytes[4 * i + 2],
      bytes[4 * i + 3],
    ])
  })
}

/// `a · b mod 2^130 - 5` in radix 2^44, carried: limbs below 2^44, 2^44 + 2^20 and 2^42 for
/// inputs with limbs below 2^50 and `b` clamped.
fn mul(a: [u64; 3], b: [u64; 3]) -> [u64; 3] {
  let m = |x: u64, y: u64| u128::from(x) * u128::from(y);
  // 2^132 ≡ 20: the parts of the product at or above 2^132 come back multiplied by 20.
  let (s1, s2) = (b[1] * 20, b[2] * 20);
  let d0 = m(a[0], b[0]) + m(a[1], s2) + m(a[2], s1);
  let d1 = m(a[0], b[1]) + m(a[1], b[0]) + m(a[2], s2) + (d0 >> 44);
  let d2 = m(a[0], b[2]) + m(a[1], b[1]) + m(a[2], b[0]) + (d1 >> 44);
  let h0 = (d0 as u64 & M44) + (d2 >> 42) as u64 * 5;
  [h0 & M44, (d1 as u64 & M44) + (h0 >> 44), d2 as u64 & M42]
}

/// One Poly1305 computation over 16-byte blocks, each with the 2^128 bit (RFC 8439's AEAD input
/// is padded to whole blocks).
struct Poly1305 {
  kernel: ChaChaIfma,
  r: [u64; 3],
  s: u128,
  h: [u64; 3],
  powers: PolyPowers,
}

impl Poly1305 {
  fn new(kernel: ChaChaIfma, key: &[u8]) -> Self {
    let t0 = u64::from_le_bytes(key[..8].try_into().expect("8 bytes"));
    let t1 = u64::from_le_bytes(key[8..16].try_into().expect("8 bytes"));
    // r clamped (RFC 8439 §2.5), split into 44/44/42-bit limbs.
    let r = [
      t0 & 0xffc_0fff_ffff,
      ((t0 >> 44) | (t1 << 20)) & 0xfff_ffc0_ffff,
      (t1 >> 24) & 0x00f_ffff_fc0f,
    ];
    let s = u128::from_le_bytes(key[16..32].try_into().expect("16 bytes"));
    // r^1 ..= r^8.
    let mut pow = [r; 8];
    for k in 1..8 {
      pow[k] = mul(pow[k - 1], r);
    }
    let with_s = |p: [u64; 3]| [p[0], p[1], p[2], p[1] * 20, p[2] * 20];
    let r8 = with_s(pow[7]);
    let mut last = [[0u64; 8]; 5];
    for j in 0..8 {
      for (k, limb) in with_s(pow[7 - j]).into_iter().enumerate() {
        last[k][j] = limb;
      }
    }
    pow.zeroize();
    Poly1305 {
      kernel,
      r,
      s,
      h: [0; 3],
      powers: PolyPowers { r8, last },
    }
  }

  /// Absorbs `data` zero-padded to whole blocks.
  fn update_padded(&mut self, data: &[u8]) {
    let whole = data.len() / 128 * 128;
    if whole > 0 {
      self
        .kernel
        .poly1305_blocks(&mut self.h, &self.powers, &data[..whole]);
    }
    for chunk in data[whole..].chunks(16) {
      let mut block = [0u8; 16];
      block[..chunk.len()].copy_from_slice(chunk);
      self.block(&block);
    }
  }

  fn block(&mut self, block: &[u8; 16]) {
    let t0 = u64::from_le_bytes(block[..8].try_into().expect("8 bytes"));
    let t1 = u64::from_le_bytes(block[8..].try_into().expect("8 bytes"));
    let h = [
      self.h[0] + (t0 & M44),
      self.h[1] + (((t0 >> 44) | (t1 << 20)) & M44),
      self.h[2] + ((t1 >> 24) | 1 << 40),
    ];
    self.h = mul(h, self.r);
  }

  /// The tag: h fully reduced mod 2^130 - 5, plus s mod 2^128.
  fn finish(mut self) -> [u8; 16] {
    let [mut h0, mut h1, mut h2] = self.h;
    // Two carry passes leave h below 2^130 + small, limbs within their widths.
    for _ in 0..2 {
      h1 += h0 >> 44;
      h0 &= M44;
      h2 += h1 >> 44;
      h1 &= M44;
      h0 += (h2 >> 42) * 5;
      h2 &= M42;
    }
    h1 += h0 >> 44;
    h0 &= M44;
    // g = h + 5 - 2^130; h ≥ p exactly when g does not borrow. Chosen without a branch.
    let g0 = h0 + 5;
    let g1 = h1 + (g0 >> 44);
    let g2 = (h2 + (g1 >> 44)).wrapping_sub(1 << 42);
    let use_g = (g2 >> 63).wrapping_sub(1);
    let h0 = (h0 & !use_g) | (g0 & M44 & use_g);
    let h1 = (h1 & !use_g) | (g1 & M44 & use_g);
    let h2 = (h2 & !use_g) | (g2 & M42 & use_g);
    // Added, not OR-ed: h1 may be 2^44 after the last carry (h itself is below 2p).
    let h = u128::from(h0)
      .wrapping_add(u128::from(h1) << 44)
      .wrapping_add(u128::from(h2) << 88);
    let tag = h.wrapping_add(self.s).to_le_bytes();
    self.h = [0; 3];
    tag
  }
}

impl Drop for Poly1305 {
  fn drop(&mut self) {
    self.r.zeroize();
    self.s.zeroize();
    self.h.zeroize();
    self.powers.r8.zeroize();
    self.powers.last.iter_mut().for_each(Zeroize::zeroize);
  }
}

/// ChaCha20-Poly1305 with a 96-bit nonce on the AVX-512 IFMA kernel, for one message.
pub struct Stitched<'a> {
  kernel: ChaChaIfma,
  key: &'a [u8; 32],
  nonce: &'a [u8],
}

impl<'a> Stitched<'a> {
  /// The kernel for a message of `len` bytes under a 12-byte nonce, when this CPU has it and
  /// the message is long enough to gain from it.
  pub fn new(key: &'a [u8; 32], nonce: &'a [u8], len: usize) -> Option<Self> {
    if nonce.len() != 12 || len < MIN_LEN {
      return None;
    }
    kernel().map(|kernel| Stitched { kernel, key, nonce })
  }

  /// The kernel for a message of any length (the speed measurements' entry).
  #[cfg(test)]
  pub fn with_kernel(kernel: ChaChaIfma, key: &'a [u8; 32], nonce: &'a [u8; 12]) -> Self {
    Stitched { kernel, key, nonce }
  }

  /// Encrypts (`seal`) or decrypts `input` into `out` (same length), or `out` in place when
  /// `input` is `None`, and returns the tag of the ciphertext (to append, or to compare).
  fn crypt(
    self,
    seal: bool,
    aad: &[u8],
    input: Option<&[u8]>,
    out: &mut [u8],
  ) -> CryptoResult<[u8; 16]> {
    let len = out.len();
    if len as u64 > MAX_LEN || input.is_some_and(|i| i.len() != len) {
      return Err(if seal { too_long() } else { decrypt_failed() });
    }
    let (mut key, nonce) = (words::<8>(self.key), words::<3>(self.nonce));
    // One 16-block step gives block 0, the Poly1305 key (§2.6), and the keystream of the first
    // FIRST bytes (blocks 1-15).
    let n = len.min(FIRST);
    let mut first = [0u8; 64 + FIRST];
    first[64..64 + n].copy_from_slice(&input.unwrap_or(out)[..n]);
    self.kernel.xor(&key, &nonce, 0, None, &mut first[..64 + n]);
    let mut poly = Poly1305::new(self.kernel, &first[..32]);
    poly.update_padded(aad);
    if !seal {
      // The ciphertext, which `out` still holds when opening in place.
      poly.update_padded(&input.unwrap_or(out)[..n]);
    }
    out[..n].copy_from_slice(&first[64..64 + n]);
    first.zeroize();
    if seal {
      poly.update_padded(&out[..n]);
    }
    // Then STITCH bytes at a time: Poly1305 reads each piece of ciphertext while it is in L1.
    let mut counter = (1 + FIRST / 64) as u32;
    let mut at = n;
    while at < len {
      let end = (at + STITCH).min(len);
      let piece = input.map(|i| &i[at..end]);
      if !seal {
        poly.update_padded(piece.unwrap_or(&out[at..end]));
      }
      self
        .kernel
        .xor(&key, &nonce, counter, piece, &mut out[at..end]);
      if seal {
        poly.update_padded(&out[at..end]);
      }
      counter = counter.wrapping_add((STITCH / 64) as u32);
      at = end;
    }
    key.zeroize();
    let mut lengths = [0u8; 16];
    lengths[..8].copy_from_slice(&(aad.len() as u64).to_le_bytes());
    lengths[8..].copy_from_slice(&(len as u64).to_le_bytes());
    poly.block(&lengths);
    Ok(poly.finish())
  }

  /// Encrypts `input` into `out` (same length); returns the tag.
  pub fn seal(self, aad: &[u8], input: &[u8], out: &mut [u8]) -> CryptoResult<[u8; 16]> {
    self.crypt(true, aad, Some(input), out)
  }

  /// [`Stitched::seal`] with the ciphertext written over `data`.
  pub fn seal_in_place(self, aad: &[u8], data: &mut [u8]) -> CryptoResult<[u8; 16]> {
    self.crypt(true, aad, None, data)
  }

  /// Decrypts `input` into `out` (same length) and returns the tag it should have come with:
  /// the caller compares, and wipes `out` when they differ.
  pub fn open(self, aad: &[u8], input: &[u8], out: &mut [u8]) -> CryptoResult<[u8; 16]> {
    self.crypt(false, aad, Some(input), out)
  }

  /// [`Stitched::open`] with the plaintext written over `data`.
  pub fn open_in_place(self, aad: &[u8], data: &mut [u8]) -> CryptoResult<[u8; 16]> {
    self.crypt(false, aad, None, data)
  }
}

#[cfg(test)]
mod tests {
  use super::*;
  use chacha20poly1305::aead::{Aead, KeyInit, Payload};

  /// Deterministic bytes (xorshift), different per seed.
  fn bytes(n: usize, seed: u64) -> Vec<u8> {
    let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    (0..n)
      .map(|_| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x as u8
      })
      .collect()
  }

  fn seal(kernel: ChaChaIfma, key: &[u8; 32], nonce: &[u8], aad: &[u8], msg: &[u8]) -> Vec<u8> {
    let mut out = vec![0u8; msg.len()];
    let tag = Stitched { kernel, key, nonce }
      .seal(aad, msg, &mut out)
      .unwrap();
    out.extend_from_slice(&tag);
    out
  }

  fn reference(key: &[u8; 32], nonce: &[u8], aad: &[u8], msg: &[u8]) -> Vec<u8> {
    chacha20poly1305::ChaCha20Poly1305::new_from_slice(key)
      .unwrap()
      .encrypt(nonce.try_into().unwrap(), Payload { msg, aad })
      .unwrap()
  }

  fn ring_seal(key: &[u8; 32], nonce: &[u8], aad: &[u8], msg: &[u8]) -> Vec<u8> {
    let k = super::super::keys::chacha_key(key).unwrap();
    let mut out = msg.to_vec();
    let n = ring::aead::Nonce::try_assume_unique_for_key(nonce).unwrap();
    k.seal_in_place_append_tag(n, ring::aead::Aad::from(aad), &mut out)
      .unwrap();
    out
  }

  /// Lengths around every step of the kernel: Poly1305's 16 and 128 bytes, ChaCha20's 64 and
  /// 1024, the first 960 bytes and the 8 KiB stitches after them.
  fn lengths() -> Vec<usize> {
    let mut v: Vec<usize> = (0..=300).collect();
    for step in [128usize, 1024, STITCH] {
      for k in 1..=3 {
        v.extend([
          step * k - 17,
          step * k - 1,
          step * k,
          step * k + 1,
          step * k + 16,
          step * k + 113,
        ]);
      }
    }
    for edge in [FIRST, FIRST + STITCH, FIRST + 2 * STITCH] {
      v.extend([edge - 16, edge - 1, edge, edge + 1, edge + 16]);
    }
    v.extend([4096, 65536 + 7, 200_000]);
    v
  }

  #[test]
  fn rfc8439_aead_vector() {
    let Some(kernel) = ChaChaIfma::detect() else {
      eprintln!("not checked: this CPU has no AVX-512 IFMA");
      return;
    };
    // RFC 8439 §2.8.2.
    let key: [u8; 32] = std::array::from_fn(|i| 0x80 + i as u8);
    let nonce = [
      0x07, 0, 0, 0, 0x40, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47,
    ];
    let aad = [
      0x50, 0x51, 0x52, 0x53, 0xc0, 0xc1, 0xc2, 0xc3, 0xc4, 0xc5, 0xc6, 0xc7,
    ];
    let msg = b"Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it.";
    let sealed = seal(kernel, &key, &nonce, &aad, msg);
    let hex: String = sealed.iter().map(|b| format!("{b:02x}")).collect();
    assert_eq!(
      hex,
      "d31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fea9e2b5a736ee62d63dbea45e8ca9671282fafb69da92728b1a71de0a9e060b2905d6a5b67ecd3b3692ddbd7f2d778b8c9803aee328091b58fab324e4fad675945585808b4831d7bc3ff4def08e4b7a9de576d26586cec64b6116\
       1ae10b594f09e26a7e902ecbd0600691"
        .replace(' ', "")
    );
  }

  #[test]
  fn matches_rustcrypto_and_ring_at_every_boundary() {
    let Some(kernel) = ChaChaIfma::detect() else {
      eprintln!("not checked: this CPU has no AVX-512 IFMA");
      return;
    };
    for (i, &n) in lengths().iter().enumerate() {
      let key: [u8; 32] = bytes(32, i as u64).try_into().unwrap();
      let nonce = bytes(12, 1000 + i as u64);
      let aad = bytes(
        [0, 1, 15, 16, 17, 127, 128, 129, 300, 2000][i % 10],
        2000 + i as u64,
      );
      let msg = bytes(n, 3000 + i as u64);
      let ours = seal(kernel, &key, &nonce, &aad, &msg);
      assert_eq!(
        ours,
        reference(&key, &nonce, &aad, &msg),
        "{n} bytes, aad {}",
        aad.len()
      );
      if n % 7 == 0 || n > 1000 {
        assert_eq!(ours, ring_seal(&key, &nonce, &aad, &msg), "ring, {n} bytes");
      }
      // Open: the plaintext and the tag it came with; one flipped bit changes the tag.
      let (ct, tag) = ours.split_at(n);
      let stitched = || Stitched {
        kernel,
        key: &key,
        nonce: &nonce,
      };
      let mut out = vec![0u8; n];
      let want = stitched().open(&aad, ct, &mut out).unwrap();
      assert_eq!((&out, &want[..]), (&msg, tag));
      let mut buf = msg.clone();
      let t = stitched().seal_in_place(&aad, &mut buf).unwrap();
      assert_eq!((&buf[..], &t[..]), (ct, tag), "in place, {n} bytes");
      let t = stitched().open_in_place(&aad, &mut buf).unwrap();
      assert_eq!((&buf, &t[..]), (&msg, tag), "opened in place, {n} bytes");
      if n > 0 {
        let mut bad = ct.to_vec();
        bad[n / 2] ^= 4;
        let other = stitched().open(&aad, &bad, &mut out).unwrap();
        assert_ne!(&other[..], tag);
      }
    }
  }

  /// Keys and messages of all-ones bytes push every limb to its largest value (r clamped to its
  /// maximum, s = 2^128 - 1, message blocks 2^129 - 1): the carries and the final reduction.
  #[test]
  fn extreme_limbs_match_rustcrypto() {
    let Some(kernel) = ChaChaIfma::detect() else {
      eprintln!("not checked: this CPU has no AVX-512 IFMA");
      return;
    };
    for fill in [0x00u8, 0xff] {
      for n in [16, 128, 1024, 4096, 8192 + 16, 50_000] {
        let msg = vec![fill; n];
        let aad = vec![0xffu8; 129];
        // Poly1305's r and s are ChaCha20 output: eight keys give eight of them.
        for seed in 0..8u64 {
          let key: [u8; 32] = bytes(32, 77 + seed).try_into().unwrap();
          let nonce = bytes(12, 99 + seed);
          assert_eq!(
            seal(kernel, &key, &nonce, &aad, &msg),
            reference(&key, &nonce, &aad, &msg)
          );
        }
      }
    }
    // The scalar and vector Poly1305 paths on the same blocks, with r and s all ones.
    let mut a = Poly1305::new(kernel, &[0xff; 32]);
    let mut b = Poly1305::new(kernel, &[0xff; 32]);
    let data = vec![0xffu8; 128 * 5];
    a.update_padded(&data);
    for block in data.chunks(16) {
      b.block(block.try_into().unwrap());
    }
    assert_eq!(a.finish(), b.finish());
  }
}
