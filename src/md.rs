//! The little-endian Merkle–Damgård hashes written here for speed (MD4, RIPEMD-160): one
//! buffering and padding layer, [`Md`], over each one's compression function ([`LeBlockFn`]).
//! Why they are not the RustCrypto crates is in `docs/backends.md`.

use crate::algorithms::HashCore;

pub const BLOCK: usize = 64;

/// A compression function over 64-byte blocks with a state of little-endian 32-bit words.
pub trait LeBlockFn: Clone {
  const OUTPUT_LEN: usize;
  fn iv() -> Self;
  fn compress(&mut self, block: &[u8; BLOCK]);
  /// The state words; the digest is their first `OUTPUT_LEN` bytes, little-endian.
  fn words(&self) -> &[u32];
}

/// Buffering, MD padding (0x80, zeros, 64-bit little-endian bit length) and output.
#[derive(Clone)]
pub struct Md<F> {
  f: F,
  buf: [u8; BLOCK],
  /// Bytes in `buf`.
  used: usize,
  /// Bytes hashed so far, `buf` included.
  total: u64,
}

impl<F: LeBlockFn> Default for Md<F> {
  fn default() -> Self {
    Md {
      f: F::iv(),
      buf: [0; BLOCK],
      used: 0,
      total: 0,
    }
  }
}

impl<F: LeBlockFn> HashCore for Md<F> {
  fn update(&mut self, mut data: &[u8]) {
    self.total = self.total.wrapping_add(data.len() as u64);
    if self.used > 0 {
      let take = (BLOCK - self.used).min(data.len());
      self.buf[self.used..self.used + take].copy_from_slice(&data[..take]);
      self.used += take;
      data = &data[take..];
      if self.used < BLOCK {
        return;
      }
      let block = self.buf;
      self.f.compress(&block);
      self.used = 0;
    }
    let mut blocks = data.chunks_exact(BLOCK);
    for block in &mut blocks {
      if let Ok(b) = <&[u8; BLOCK]>::try_from(block) {
        self.f.compress(b);
      }
    }
    let rest = blocks.remainder();
    self.buf[..rest.len()].copy_from_slice(rest);
    self.used = rest.len();
  }

  fn finalize_into(mut self, out: &mut [u8]) {
    let bits = self.total.wrapping_mul(8);
    let mut pad = [0u8; 2 * BLOCK];
    pad[0] = 0x80;
    // Pad to 56 mod 64, then the 8 length bytes.
    let n = if self.used < 56 {
      56 - self.used
    } else {
      120 - self.used
    };
    pad[n..n + 8].copy_from_slice(&bits.to_le_bytes());
    self.update(&pad[..n + 8]);
    for (chunk, w) in out.chunks_mut(4).zip(self.f.words()) {
      chunk.copy_from_slice(&w.to_le_bytes()[..chunk.len()]);
    }
  }

  fn output_len(&self) -> usize {
    F::OUTPUT_LEN
  }

  fn block_len(&self) -> usize {
    BLOCK
  }
}

// ---- MD4 (RFC 1320) ------------------------------------------------------------------------

/// MD4's state. The `md4` crate is close; this one shortens each step's dependency chain: the
/// message word and constant are added to `a` while the boolean function waits for the `b`
/// just computed, and that function is arranged so `b` enters it last.
#[derive(Clone, Copy)]
pub struct Md4State([u32; 4]);

pub type Md4 = Md<Md4State>;

impl LeBlockFn for Md4State {
  const OUTPUT_LEN: usize = 16;
  fn iv() -> Self {
    Md4State([0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476])
  }

  #[inline(always)]
  fn compress(&mut self, block: &[u8; BLOCK]) {
    let mut x = [0u32; 16];
    for (w, b) in x.iter_mut().zip(block.chunks_exact(4)) {
      *w = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
    }
    let [mut a, mut b, mut c, mut d] = self.0;
    // `$f(b, c, d)` with `b` the newest value: F = d ^ (b & (c ^ d)), G = majority written as
    // (c & d) | (b & (c | d)), H = b ^ c ^ d.
    macro_rules! step {
      ($f:ident, $a:ident, $b:ident, $c:ident, $d:ident, $k:expr, $s:literal) => {
        $a = $a
          .wrapping_add($k)
          .wrapping_add($f($b, $c, $d))
          .rotate_left($s);
      };
    }
    #[inline(always)]
    fn ff(b: u32, c: u32, d: u32) -> u32 {
      d ^ (b & (c ^ d))
    }
    #[inline(always)]
    fn gg(b: u32, c: u32, d: u32) -> u32 {
      (c & d) | (b & (c | d))
    }
    #[inline(always)]
    fn hh(b: u32, c: u32, d: u32) -> u32 {
      b ^ c ^ d
    }
    const K1: u32 = 0x5a82_7999;
    const K2: u32 = 0x6ed9_eba1;
    macro_rules! round1 {
      ($($i:literal)*) => {$(
        step!(ff, a, b, c, d, x[$i], 3);
        step!(ff, d, a, b, c, x[$i + 1], 7);
        step!(ff, c, d, a, b, x[$i + 2], 11);
        step!(ff, b, c, d, a, x[$i + 3], 19);
      )*};
    }
    macro_rules! round2 {
      ($($i:literal)*) => {$(
        step!(gg, a, b, c, d, x[$i].wrapping_add(K1), 3);
        step!(gg, d, a, b, c, x[$i + 4].wrapping_add(K1), 5);
        step!(gg, c, d, a, b, x[$i + 8].wrapping_add(K1), 9);
        step!(gg, b, c, d, a, x[$i + 12].wrapping_add(K1), 13);
      )*};
    }
    macro_rules! round3 {
      ($($i:literal)*) => {$(
        step!(hh, a, b, c, d, x[$i].wrapping_add(K2), 3);
        step!(hh, d, a, b, c, x[$i + 8].wrapping_add(K2), 9);
        step!(hh, c, d, a, b, x[$i + 4].wrapping_add(K2), 11);
        step!(hh, b, c, d, a, x[$i + 12].wrapping_add(K2), 15);
      )*};
    }
    round1!(0 4 8 12);
    round2!(0 1 2 3);
    round3!(0 2 1 3);
    for (h, v) in self.0.iter_mut().zip([a, b, c, d]) {
      *h = h.wrapping_add(v);
    }
  }

  fn words(&self) -> &[u32] {
    &self.0
  }
}

#[cfg(test)]
mod tests {
  use super::*;
  use digest::Digest;

  fn ours<H: HashCore + Default>(msg: &[u8], out: &mut [u8]) {
    let mut h = H::default();
    let (a, b) = msg.split_at(msg.len() / 3);
    h.update(a);
    h.update(b);
    h.finalize_into(out);
  }

  /// Every length across several blocks, with split updates, equals the RustCrypto crates.
  #[test]
  fn equals_rustcrypto() {
    let data: Vec<u8> = (0..300u32).map(|i| (i * 7 + 3) as u8).collect();
    for len in 0..data.len() {
      let msg = &data[..len];
      let mut out = [0u8; 20];
      ours::<Md4>(msg, &mut out[..16]);
      assert_eq!(out[..16], md4::Md4::digest(msg)[..], "md4 len {len}");
      ours::<crate::rmd160::Ripemd160>(msg, &mut out);
      assert_eq!(
        out[..],
        ::ripemd::Ripemd160::digest(msg)[..],
        "ripemd160 len {len}"
      );
    }
  }

  /// `cargo test --release md_speed -- --ignored --nocapture`: MB/s against the crates, 16 MiB.
  #[test]
  #[ignore]
  fn md_speed() {
    let data = vec![7u8; 16 << 20];
    let mb = data.len() as f64 / 1e6;
    let time = |f: &dyn Fn() -> Vec<u8>| {
      let t = std::time::Instant::now();
      let out = f();
      (mb / t.elapsed().as_secs_f64(), out)
    };
    for _ in 0..3 {
      let (a, x) = time(&|| {
        let mut o = [0u8; 16];
        ours::<Md4>(&data, &mut o);
        o.to_vec()
      });
      let (b, y) = time(&|| md4::Md4::digest(&data).to_vec());
      assert_eq!(x, y);
      let (c, x) = time(&|| {
        let mut o = [0u8; 20];
        ours::<crate::rmd160::Ripemd160>(&data, &mut o);
        o.to_vec()
      });
      let (d, y) = time(&|| ::ripemd::Ripemd160::digest(&data).to_vec());
      assert_eq!(x, y);
      println!("md4 ours {a:.0} crate {b:.0} MB/s; ripemd160 ours {c:.0} crate {d:.0} MB/s");
    }
  }
}
