//! RIPEMD-160 (Dobbertin, Bosselaers, Preneel 1996), written here for speed.
//!
//! The `ripemd` crate computes the left line's 80 steps, then the right line's: two serial
//! dependency chains one after the other, too long for the CPU to overlap them. Here the two
//! lines advance together, step by step, so each step of one line fills the other's latency
//! (the same scheduling the fast C implementations use). Measured in `docs/backends.md`;
//! checked against the designers' vectors (`__test__/vectors/rfc/ripemd160_bosselaers.json`),
//! node:crypto, and the `ripemd` crate (the tests below).

use super::md::{BlockFn, Endian, Md};

// Message word order (r, r') and rotations (s, s') of the left and right lines, per step.
const R: [usize; 80] = [
  0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, //
  7, 4, 13, 1, 10, 6, 15, 3, 12, 0, 9, 5, 2, 14, 11, 8, //
  3, 10, 14, 4, 9, 15, 8, 1, 2, 7, 0, 6, 13, 11, 5, 12, //
  1, 9, 11, 10, 0, 8, 12, 4, 13, 3, 7, 15, 14, 5, 6, 2, //
  4, 0, 5, 9, 7, 12, 2, 10, 14, 1, 3, 8, 11, 6, 15, 13,
];
const RP: [usize; 80] = [
  5, 14, 7, 0, 9, 2, 11, 4, 13, 6, 15, 8, 1, 10, 3, 12, //
  6, 11, 3, 7, 0, 13, 5, 10, 14, 15, 8, 12, 4, 9, 1, 2, //
  15, 5, 1, 3, 7, 14, 6, 9, 11, 8, 12, 2, 10, 0, 4, 13, //
  8, 6, 4, 1, 3, 11, 15, 0, 5, 12, 2, 13, 9, 7, 10, 14, //
  12, 15, 10, 4, 1, 5, 8, 7, 6, 2, 13, 14, 0, 3, 9, 11,
];
const S: [u32; 80] = [
  11, 14, 15, 12, 5, 8, 7, 9, 11, 13, 14, 15, 6, 7, 9, 8, //
  7, 6, 8, 13, 11, 9, 7, 15, 7, 12, 15, 9, 11, 7, 13, 12, //
  11, 13, 6, 7, 14, 9, 13, 15, 14, 8, 13, 6, 5, 12, 7, 5, //
  11, 12, 14, 15, 14, 15, 9, 8, 9, 14, 5, 6, 8, 6, 5, 12, //
  9, 15, 5, 11, 6, 8, 13, 12, 5, 12, 13, 14, 11, 8, 5, 6,
];
const SP: [u32; 80] = [
  8, 9, 9, 11, 13, 15, 15, 5, 7, 7, 8, 11, 14, 14, 12, 6, //
  9, 13, 15, 7, 12, 8, 9, 11, 7, 7, 12, 7, 6, 15, 13, 11, //
  9, 7, 15, 11, 8, 6, 6, 14, 12, 13, 5, 14, 13, 13, 7, 5, //
  15, 5, 8, 11, 14, 14, 6, 14, 6, 9, 12, 9, 12, 5, 15, 8, //
  8, 5, 12, 9, 12, 5, 14, 6, 8, 13, 6, 5, 15, 13, 11, 11,
];
const K: [u32; 5] = [
  0x0000_0000,
  0x5a82_7999,
  0x6ed9_eba1,
  0x8f1b_bcdc,
  0xa953_fd4e,
];
const KP: [u32; 5] = [
  0x50a2_8be6,
  0x5c4d_d124,
  0x6d70_3ef3,
  0x7a6d_76e9,
  0x0000_0000,
];

/// The five boolean functions; round `i` of the left line uses `f(i)`, of the right `f(4 - i)`.
#[inline(always)]
fn f(i: usize, x: u32, y: u32, z: u32) -> u32 {
  match i {
    0 => x ^ y ^ z,
    1 => (x & y) | (!x & z),
    2 => (x | !y) ^ z,
    3 => (x & z) | (y & !z),
    _ => x ^ (y | !z),
  }
}

#[inline(always)]
fn compress(h: &mut [u32; 5], block: &[u8; 64]) {
  let mut x = [0u32; 16];
  for (w, b) in x.iter_mut().zip(block.chunks_exact(4)) {
    *w = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
  }
  let [mut al, mut bl, mut cl, mut dl, mut el] = *h;
  let [mut ar, mut br, mut cr, mut dr, mut er] = *h;
  // One step of each line. Unrolled with constant `j`, so every table lookup and the choice of
  // function fold away and the register rotation costs nothing.
  macro_rules! step {
    ($($j:literal)*) => {$(
      let t = al
        .wrapping_add(f($j / 16, bl, cl, dl))
        .wrapping_add(x[R[$j]])
        .wrapping_add(K[$j / 16])
        .rotate_left(S[$j])
        .wrapping_add(el);
      (al, el, dl, cl, bl) = (el, dl, cl.rotate_left(10), bl, t);
      let t = ar
        .wrapping_add(f(4 - $j / 16, br, cr, dr))
        .wrapping_add(x[RP[$j]])
        .wrapping_add(KP[$j / 16])
        .rotate_left(SP[$j])
        .wrapping_add(er);
      (ar, er, dr, cr, br) = (er, dr, cr.rotate_left(10), br, t);
    )*};
  }
  step!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15);
  step!(16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31);
  step!(32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47);
  step!(48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63);
  step!(64 65 66 67 68 69 70 71 72 73 74 75 76 77 78 79);
  let t = h[1].wrapping_add(cl).wrapping_add(dr);
  h[1] = h[2].wrapping_add(dl).wrapping_add(er);
  h[2] = h[3].wrapping_add(el).wrapping_add(ar);
  h[3] = h[4].wrapping_add(al).wrapping_add(br);
  h[4] = h[0].wrapping_add(bl).wrapping_add(cr);
  h[0] = t;
}

/// RIPEMD-160's block function, for [`Md`].
#[derive(Clone, Copy)]
pub enum Ripemd160Compress {}

impl BlockFn for Ripemd160Compress {
  type Word = u32;
  type State = [u32; 5];
  const ENDIAN: Endian = Endian::Little;
  const IV: [u32; 5] = [
    0x6745_2301,
    0xefcd_ab89,
    0x98ba_dcfe,
    0x1032_5476,
    0xc3d2_e1f0,
  ];
  const OUTPUT_LEN: usize = 20;
  fn compress(state: &mut [u32; 5], blocks: &[[u8; 64]]) {
    for block in blocks {
      compress(state, block);
    }
  }
}

/// Incremental RIPEMD-160.
pub type Ripemd160 = Md<Ripemd160Compress>;

#[cfg(test)]
mod tests {
  use super::Ripemd160Compress;
  use crate::hash::md::tests::{check_data, equals_crate};

  /// Every length across several blocks, with split updates, equals the `ripemd` crate.
  #[test]
  fn equals_rustcrypto() {
    equals_crate::<Ripemd160Compress, ::ripemd::Ripemd160>("ripemd160", &check_data());
  }
}
