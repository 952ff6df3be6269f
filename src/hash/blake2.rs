//! BLAKE2b and BLAKE2s (RFC 7693) in portable scalar code, and the choice between it and the
//! `blake2b_simd`/`blake2s_simd` crates.
//!
//! Measured on the x86-64 machines this was developed on (MB/s, large inputs):
//!
//! | | `blake2b_simd` (AVX2) | BLAKE2b here (scalar) | OpenSSL (node) | `blake2s_simd` (SSE4.1) | BLAKE2s here |
//! |---|---:|---:|---:|---:|---:|
//! | Xeon, Sapphire Rapids | 1,116 | not measured | 961 | 660 | not measured |
//! | AMD EPYC, Zen 4 (2026-11-22) | 660-720 | 1,250-1,290 | 1,314 | 355-383 | 740-750 |
//! | AMD EPYC, Zen 4 (2026-11-26) | 1,190-1,200 | 1,000-1,015 | 1,012 | 636-639 | 610-620 |
//!
//! A single BLAKE2 message is one serial chain of rounds, and which form of it runs faster
//! turned on more than the CPU model: the two Zen 4 rows are the same family and model (25, 17) on
//! two VMs, and the faster backend is not the same. So the choice is measured: the first hash of
//! each variant times both backends over the same 8 KiB a few times (38-80 µs, once per process)
//! and keeps the faster ([`Blake2Backend::measured`]). Both produce the same bytes (tested against
//! each other for every parameter combination); `cpuPaths()` says which one runs.
//! Non-x86 targets get this file without measuring (the crates are portable code there).

use std::sync::OnceLock;

use zeroize::Zeroize;

use super::core::{check_len, check_max, first_is_faster, HashCore, HashParams};
use crate::error::CryptoResult;

/// The implementation a BLAKE2 variant runs in this process.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Blake2Backend {
  /// `blake2b_simd` / `blake2s_simd` (their own run-time AVX2 / SSE4.1 choice).
  Simd,
  /// The scalar code of this file.
  Scalar,
}

impl Blake2Backend {
  /// The faster of the two for hashing with `simd` and `scalar` on this CPU (on x86-64 timed
  /// once over 8 KiB each; elsewhere the scalar code).
  fn measured(simd: impl Fn(&[u8]), scalar: impl Fn(&[u8])) -> Blake2Backend {
    if !cfg!(target_arch = "x86_64") {
      return Blake2Backend::Scalar;
    }
    let data = [0x5a_u8; 8 * 1024];
    let sample = std::hint::black_box(&data[..]);
    if first_is_faster(&|| scalar(sample), &|| simd(sample)) {
      Blake2Backend::Scalar
    } else {
      Blake2Backend::Simd
    }
  }

  /// Its name in `cpuPaths()`.
  pub fn name(self) -> &'static str {
    match self {
      Blake2Backend::Simd => "simd",
      Blake2Backend::Scalar => "scalar",
    }
  }
}

/// Message schedule (RFC 7693 §2.7); round `r` uses row `r % 10`.
const SIGMA: [[usize; 16]; 10] = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
  [14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3],
  [11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4],
  [7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8],
  [9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13],
  [2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9],
  [12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11],
  [13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10],
  [6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5],
  [10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0],
];

/// One BLAKE2 variant: `name, word, block bytes, G rotations, initial values, rounds`.
macro_rules! blake2 {
  ($name:ident, $w:ty, $block:literal, [$r1:literal, $r2:literal, $r3:literal, $r4:literal],
   $iv:expr, rounds: $($round:literal)*) => {
    /// Incremental state with the parameter block applied (key, salt, personalization, length).
    #[derive(Clone)]
    pub struct $name {
      h: [$w; 8],
      /// Bytes compressed so far, the block being compressed included (the counter `t`).
      t: u128,
      /// The last block is held back until more data arrives: it must be compressed with the
      /// final flag if it turns out to be the last.
      buf: [u8; $block],
      used: usize,
      out_len: usize,
    }

    impl $name {
      const W: usize = std::mem::size_of::<$w>();
      const IV: [$w; 8] = $iv;

      /// `out_len` in 1..=8 words' bytes; `key`, `salt`, `personal` no longer than their
      /// limits (checked by the caller: the key one block's half, salt and personal 2 words).
      pub fn new(out_len: usize, key: &[u8], salt: &[u8], personal: &[u8]) -> Self {
        let mut h = Self::IV;
        h[0] ^= 0x0101_0000 ^ ((key.len() as $w) << 8) ^ out_len as $w;
        for (i, field) in [(4, salt), (6, personal)] {
          let mut b = [0u8; 2 * std::mem::size_of::<$w>()];
          b[..field.len()].copy_from_slice(field);
          let (lo, hi) = b.split_at(Self::W);
          h[i] ^= <$w>::from_le_bytes(lo.try_into().unwrap_or_default());
          h[i + 1] ^= <$w>::from_le_bytes(hi.try_into().unwrap_or_default());
        }
        let mut state = $name { h, t: 0, buf: [0; $block], used: 0, out_len };
        if !key.is_empty() {
          let mut block = [0u8; $block];
          block[..key.len()].copy_from_slice(key);
          state.update(&block);
          block.zeroize();
        }
        state
      }

      pub fn output_len(&self) -> usize {
        self.out_len
      }

      // Not inlined: as a function of its own the 16 state words get registers, which made it
      // 1.4x faster than inlined into `update` (880 → 1,270 MB/s for BLAKE2b on Zen 4).
      #[inline(never)]
      fn compress(h: &mut [$w; 8], block: &[u8; $block], t: u128, last: bool) {
        let mut m = [0 as $w; 16];
        for (w, b) in m.iter_mut().zip(block.chunks_exact(Self::W)) {
          *w = <$w>::from_le_bytes(b.try_into().unwrap_or_default());
        }
        let mut v = [0 as $w; 16];
        v[..8].copy_from_slice(h);
        v[8..].copy_from_slice(&Self::IV);
        v[12] ^= t as $w;
        v[13] ^= (t >> (8 * Self::W)) as $w;
        if last {
          v[14] = !v[14];
        }
        macro_rules! g {
          ($a:literal, $b:literal, $c:literal, $d:literal, $x:expr, $y:expr) => {
            v[$a] = v[$a].wrapping_add(v[$b]).wrapping_add($x);
            v[$d] = (v[$d] ^ v[$a]).rotate_right($r1);
            v[$c] = v[$c].wrapping_add(v[$d]);
            v[$b] = (v[$b] ^ v[$c]).rotate_right($r2);
            v[$a] = v[$a].wrapping_add(v[$b]).wrapping_add($y);
            v[$d] = (v[$d] ^ v[$a]).rotate_right($r3);
            v[$c] = v[$c].wrapping_add(v[$d]);
            v[$b] = (v[$b] ^ v[$c]).rotate_right($r4);
          };
        }
        // Unrolled with constant rounds, so every `m[s[i]]` is a fixed register or load.
        $(
          let s = &SIGMA[$round % 10];
          g!(0, 4, 8, 12, m[s[0]], m[s[1]]);
          g!(1, 5, 9, 13, m[s[2]], m[s[3]]);
          g!(2, 6, 10, 14, m[s[4]], m[s[5]]);
          g!(3, 7, 11, 15, m[s[6]], m[s[7]]);
          g!(0, 5, 10, 15, m[s[8]], m[s[9]]);
          g!(1, 6, 11, 12, m[s[10]], m[s[11]]);
          g!(2, 7, 8, 13, m[s[12]], m[s[13]]);
          g!(3, 4, 9, 14, m[s[14]], m[s[15]]);
        )*
        for i in 0..8 {
          h[i] ^= v[i] ^ v[i + 8];
        }
      }

      pub fn update(&mut self, mut data: &[u8]) {
        let fill = $block - self.used;
        if data.len() > fill {
          // The buffered block is not the last one: compress it, then every whole block that
          // is certainly followed by more data, straight from the input.
          self.buf[self.used..].copy_from_slice(&data[..fill]);
          data = &data[fill..];
          self.t += $block;
          Self::compress(&mut self.h, &self.buf, self.t, false);
          self.used = 0;
          while data.len() > $block {
            let (block, rest) = data.split_at($block);
            self.t += $block;
            if let Ok(b) = <&[u8; $block]>::try_from(block) {
              Self::compress(&mut self.h, b, self.t, false);
            }
            data = rest;
          }
        }
        self.buf[self.used..self.used + data.len()].copy_from_slice(data);
        self.used += data.len();
      }

      pub fn finalize_into(mut self, out: &mut [u8]) {
        self.t += self.used as u128;
        self.buf[self.used..].fill(0);
        Self::compress(&mut self.h, &self.buf, self.t, true);
        let mut bytes = [0u8; 8 * std::mem::size_of::<$w>()];
        for (chunk, w) in bytes.chunks_mut(Self::W).zip(self.h) {
          chunk.copy_from_slice(&w.to_le_bytes());
        }
        out.copy_from_slice(&bytes[..self.out_len]);
        bytes.zeroize();
      }
    }

    impl Drop for $name {
      fn drop(&mut self) {
        // The buffer may hold the key block; the chaining value is keyed too.
        self.buf.zeroize();
        self.h.zeroize();
      }
    }
  };
}

blake2!(
  Blake2bScalar, u64, 128, [32, 24, 16, 63],
  [
    0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b, 0xa54ff53a5f1d36f1,
    0x510e527fade682d1, 0x9b05688c2b3e6c1f, 0x1f83d9abfb41bd6b, 0x5be0cd19137e2179,
  ],
  rounds: 0 1 2 3 4 5 6 7 8 9 10 11
);

blake2!(
  Blake2sScalar, u32, 64, [16, 12, 8, 7],
  [
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab,
    0x5be0cd19,
  ],
  rounds: 0 1 2 3 4 5 6 7 8 9
);

/// BLAKE2b/BLAKE2s as the hash list drives them: the `*_simd` crates (run-time AVX2/SSE4.1) or
/// the scalar code above, whichever measured faster on this CPU ([`Blake2Backend`]).
#[derive(Clone)]
pub enum Blake2b {
  Simd {
    state: blake2b_simd::State,
    output_len: usize,
  },
  Scalar(Blake2bScalar),
}
#[derive(Clone)]
pub enum Blake2s {
  Simd {
    state: blake2s_simd::State,
    output_len: usize,
  },
  Scalar(Blake2sScalar),
}

/// `$block`: block size, `$max`: longest output and key, `$salt`: salt and personalization
/// length (all in bytes).
macro_rules! blake2_core {
  ($t:ident, $simd:ident, $scalar:ident, block: $block:expr, max: $max:expr, salt: $salt:expr) => {
    impl $t {
      /// The backend this process runs (measured on first use: [`Blake2Backend::measured`]).
      pub fn backend() -> Blake2Backend {
        static PICK: OnceLock<Blake2Backend> = OnceLock::new();
        *PICK.get_or_init(|| {
          Blake2Backend::measured(
            |d| {
              std::hint::black_box($simd::Params::new().hash(d));
            },
            |d| {
              std::hint::black_box(Self::digest_scalar(d));
            },
          )
        })
      }

      /// Output length, key, salt and personalization already checked against the limits.
      fn with(len: usize, key: &[u8], salt: &[u8], personal: &[u8]) -> Self {
        if Self::backend() == Blake2Backend::Scalar {
          $t::Scalar($scalar::new(len, key, salt, personal))
        } else {
          let mut params = $simd::Params::new();
          params
            .hash_length(len)
            .key(key)
            .salt(salt)
            .personal(personal);
          $t::Simd {
            state: params.to_state(),
            output_len: len,
          }
        }
      }

      pub fn fresh() -> Self {
        Self::with($max, &[], &[], &[])
      }

      /// The unkeyed hash of `data` with the scalar code (the backend measurement's sample).
      fn digest_scalar(data: &[u8]) -> [u8; $max] {
        let mut h = $scalar::new($max, &[], &[], &[]);
        h.update(data);
        let mut out = [0u8; $max];
        h.finalize_into(&mut out);
        out
      }

      pub fn from_params(p: &HashParams) -> CryptoResult<Self> {
        let len = check_len("outputLength", p.output_len, 1, $max as u32, $max as u32)?;
        Ok(Self::with(
          len,
          check_max("key", p.key, $max)?,
          check_max("salt", p.salt, $salt)?,
          check_max("personalization", p.personalization, $salt)?,
        ))
      }
    }

    impl HashCore for $t {
      #[inline]
      fn update(&mut self, data: &[u8]) {
        match self {
          $t::Simd { state, .. } => {
            state.update(data);
          }
          $t::Scalar(s) => s.update(data),
        }
      }
      #[inline]
      fn finalize_into(self, out: &mut [u8]) {
        match self {
          $t::Simd { state, .. } => out.copy_from_slice(state.finalize().as_bytes()),
          $t::Scalar(s) => s.finalize_into(out),
        }
      }
      fn output_len(&self) -> usize {
        match self {
          $t::Simd { output_len, .. } => *output_len,
          $t::Scalar(s) => s.output_len(),
        }
      }
      fn block_len(&self) -> usize {
        $block
      }
    }
  };
}
blake2_core!(Blake2b, blake2b_simd, Blake2bScalar, block: 128, max: 64, salt: 16);
blake2_core!(Blake2s, blake2s_simd, Blake2sScalar, block: 64, max: 32, salt: 8);

#[cfg(test)]
mod tests {
  use super::*;

  fn bytes(n: usize, seed: u8) -> Vec<u8> {
    (0..n)
      .map(|i| (i as u8).wrapping_mul(29).wrapping_add(seed))
      .collect()
  }

  /// Every parameter combination and many lengths with split updates equal the SIMD crates
  /// (the published vectors run through whichever backend the test machine picks, in ava).
  #[test]
  fn scalar_equals_simd_crates() {
    let data = bytes(700, 1);
    for (klen, slen, plen, out) in [
      (0, 0, 0, 64),
      (64, 16, 16, 64),
      (1, 3, 0, 20),
      (32, 0, 7, 1),
    ] {
      let (key, salt, pers) = (bytes(klen, 2), bytes(slen, 3), bytes(plen, 4));
      for len in [0, 1, 63, 64, 65, 127, 128, 129, 255, 256, 257, 700] {
        let msg = &data[..len];
        let want = blake2b_simd::Params::new()
          .hash_length(out)
          .key(&key)
          .salt(&salt)
          .personal(&pers)
          .hash(msg);
        let mut h = Blake2bScalar::new(out, &key, &salt, &pers);
        let (a, b) = msg.split_at(len / 2);
        h.update(a);
        h.update(b);
        let mut got = vec![0u8; out];
        h.finalize_into(&mut got);
        assert_eq!(
          got,
          want.as_bytes(),
          "b k{klen} s{slen} p{plen} out{out} len{len}"
        );

        let out_s = out.min(32);
        let (key_s, salt_s, pers_s) = (
          &key[..klen.min(32)],
          &salt[..slen.min(8)],
          &pers[..plen.min(8)],
        );
        let want = blake2s_simd::Params::new()
          .hash_length(out_s)
          .key(key_s)
          .salt(salt_s)
          .personal(pers_s)
          .hash(msg);
        let mut h = Blake2sScalar::new(out_s, key_s, salt_s, pers_s);
        for chunk in msg.chunks(63) {
          h.update(chunk);
        }
        let mut got = vec![0u8; out_s];
        h.finalize_into(&mut got);
        assert_eq!(
          got,
          want.as_bytes(),
          "s k{klen} s{slen} p{plen} out{out_s} len{len}"
        );
      }
    }
  }
}
