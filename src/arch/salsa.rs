//! The Salsa20/8 cores scrypt's ROMix runs, and the entry point that compiles ROMix for the
//! fastest one.

use super::Baseline;

/// A Salsa20/8 core over a block in the scrypt module's `LAYOUT` order. Implemented by
/// [`Baseline`] and by [`Avx512Vl`], whose value is the proof that the CPU can run it.
pub trait Salsa20Core: Copy {
  fn salsa20_8(self, b: &mut [u32; 16]);
}

impl Salsa20Core for Baseline {
  #[inline(always)]
  fn salsa20_8(self, b: &mut [u32; 16]) {
    // SAFETY: without `AVX512` the core needs only the target's baseline (SSE2 on x86-64).
    unsafe { salsa20_8_simd::<false>(b) }
  }
}

/// The AVX-512VL core; a value exists only on a CPU with AVX-512F and AVX-512VL.
#[derive(Clone, Copy)]
pub struct Avx512Vl(());

impl Avx512Vl {
  pub fn detect() -> Option<Self> {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx512f")
      && std::arch::is_x86_feature_detected!("avx512vl")
    {
      return Some(Avx512Vl(()));
    }
    None
  }
}

impl Salsa20Core for Avx512Vl {
  #[inline(always)]
  fn salsa20_8(self, b: &mut [u32; 16]) {
    // SAFETY: `self` exists, so `detect` found AVX-512F and AVX-512VL.
    unsafe { salsa20_8_simd::<true>(b) }
  }
}

/// Work over a Salsa20/8 core (scrypt's ROMix), run by [`with_salsa20_core`].
pub trait Salsa20Work {
  type Output;
  /// The work with `core`. Mark it `#[inline(always)]`: it is compiled into the caller's frame,
  /// which has the core's features enabled.
  fn run<C: Salsa20Core>(self, core: C) -> Self::Output;
}

/// Runs `work` with the fastest core this CPU has, compiled with that core's features enabled so
/// its intrinsics inline.
pub fn with_salsa20_core<W: Salsa20Work>(work: W) -> W::Output {
  #[cfg(target_arch = "x86_64")]
  if let Some(core) = Avx512Vl::detect() {
    // SAFETY: `core` proves the CPU has the features `run_avx512` is compiled for.
    return unsafe { run_avx512(work, core) };
  }
  work.run(Baseline)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vl")]
fn run_avx512<W: Salsa20Work>(work: W, core: Avx512Vl) -> W::Output {
  work.run(core)
}

/// Salsa20/8 on a block in the scrypt module's `LAYOUT` order: SSE2 (part of the x86-64
/// baseline), or with `AVX512` each rotation is one `vprold` instead of two shifts and an extra
/// XOR (AVX-512VL, on 128-bit vectors). Measured for N = 2^14, r = 8 on Zen 4: 47 ms with SSE2
/// (the same as portable scalar code), 37 ms with AVX-512VL (node: 37 ms).
///
/// # Safety
/// With `AVX512`, the CPU must have AVX-512F and AVX-512VL.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn salsa20_8_simd<const AVX512: bool>(b: &mut [u32; 16]) {
  use std::arch::x86_64::*;
  // SAFETY: SSE2 is always available on x86-64, AVX-512F/VL by this function's contract when
  // `AVX512`; loads and stores are unaligned and stay within the 64-byte array.
  unsafe {
    let p = b.as_mut_ptr().cast::<__m128i>();
    let (b0, b1, b2, b3) = (
      _mm_loadu_si128(p),
      _mm_loadu_si128(p.add(1)),
      _mm_loadu_si128(p.add(2)),
      _mm_loadu_si128(p.add(3)),
    );
    let (mut x0, mut x1, mut x2, mut x3) = (b0, b1, b2, b3);
    macro_rules! step {
      ($dst:ident, $a:ident, $b:ident, $l:literal, $r:literal) => {
        let t = _mm_add_epi32($a, $b);
        if AVX512 {
          $dst = _mm_xor_si128($dst, _mm_rol_epi32::<$l>(t));
        } else {
          $dst = _mm_xor_si128($dst, _mm_slli_epi32::<$l>(t));
          $dst = _mm_xor_si128($dst, _mm_srli_epi32::<$r>(t));
        }
      };
    }
    for _ in 0..4 {
      // Columns.
      step!(x1, x0, x3, 7, 25);
      step!(x2, x1, x0, 9, 23);
      step!(x3, x2, x1, 13, 19);
      step!(x0, x3, x2, 18, 14);
      x1 = _mm_shuffle_epi32(x1, 0x93);
      x2 = _mm_shuffle_epi32(x2, 0x4E);
      x3 = _mm_shuffle_epi32(x3, 0x39);
      // Rows.
      step!(x3, x0, x1, 7, 25);
      step!(x2, x3, x0, 9, 23);
      step!(x1, x2, x3, 13, 19);
      step!(x0, x1, x2, 18, 14);
      x1 = _mm_shuffle_epi32(x1, 0x39);
      x2 = _mm_shuffle_epi32(x2, 0x4E);
      x3 = _mm_shuffle_epi32(x3, 0x93);
    }
    _mm_storeu_si128(p, _mm_add_epi32(b0, x0));
    _mm_storeu_si128(p.add(1), _mm_add_epi32(b1, x1));
    _mm_storeu_si128(p.add(2), _mm_add_epi32(b2, x2));
    _mm_storeu_si128(p.add(3), _mm_add_epi32(b3, x3));
  }
}

/// Other targets: the portable core (`AVX512` is never true there: `Avx512Vl::detect` is `None`).
///
/// # Safety
/// None beyond the x86-64 version's, which it mirrors.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
unsafe fn salsa20_8_simd<const AVX512: bool>(b: &mut [u32; 16]) {
  salsa20_8_scalar(b)
}

/// Salsa20/8 core in natural word order: the reference for the SIMD cores, and the core of
/// other targets.
#[cfg(any(test, not(target_arch = "x86_64")))]
#[inline(always)]
pub fn salsa20_8_scalar(b: &mut [u32; 16]) {
  let mut x = *b;
  macro_rules! qr {
    ($a:expr, $b:expr, $c:expr, $d:expr) => {
      x[$b] ^= x[$a].wrapping_add(x[$d]).rotate_left(7);
      x[$c] ^= x[$b].wrapping_add(x[$a]).rotate_left(9);
      x[$d] ^= x[$c].wrapping_add(x[$b]).rotate_left(13);
      x[$a] ^= x[$d].wrapping_add(x[$c]).rotate_left(18);
    };
  }
  for _ in 0..4 {
    qr!(0, 4, 8, 12);
    qr!(5, 9, 13, 1);
    qr!(10, 14, 2, 6);
    qr!(15, 3, 7, 11);
    qr!(0, 1, 2, 3);
    qr!(5, 6, 7, 4);
    qr!(10, 11, 8, 9);
    qr!(15, 12, 13, 14);
  }
  for (b, x) in b.iter_mut().zip(x) {
    *b = b.wrapping_add(x);
  }
}
