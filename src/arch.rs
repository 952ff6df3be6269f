//! CPU-specific code, and the few other calls whose soundness rests on what the CPU or the
//! allocator guarantees: the SIMD Salsa20/8 cores scrypt runs and the run-time check that
//! selects them, the CPU vendor some backends are chosen by, a zeroed allocation, the Argon2
//! backend call. With `src/js/` (the N-API boundary), the only module where `unsafe` is allowed;
//! every block says why it is sound, and every function here is safe to call.

use crate::error::CryptoResult;
use crate::task::Cancel;

/// The CPU vendor string from CPUID leaf 0 ("AuthenticAMD", "GenuineIntel", ...).
#[cfg(target_arch = "x86_64")]
pub fn cpu_vendor() -> [u8; 12] {
  // `__cpuid` is a safe function in newer Rust releases, unsafe in older ones.
  #[allow(unused_unsafe)]
  // SAFETY: CPUID leaf 0 exists on every x86-64 CPU.
  let r = unsafe { std::arch::x86_64::__cpuid(0) };
  let mut vendor = [0u8; 12];
  vendor[..4].copy_from_slice(&r.ebx.to_le_bytes());
  vendor[4..8].copy_from_slice(&r.edx.to_le_bytes());
  vendor[8..].copy_from_slice(&r.ecx.to_le_bytes());
  vendor
}

// ---- Salsa20/8 cores (scrypt) ---------------------------------------------------------------

/// A Salsa20/8 core over a block in the scrypt module's `LAYOUT` order. Implemented by
/// [`Baseline`] and by [`Avx512Vl`], whose value is the proof that the CPU can run it.
pub trait Salsa20Core: Copy {
  fn salsa20_8(self, b: &mut [u32; 16]);
}

/// The core every CPU of the target runs: SSE2 on x86-64, portable code elsewhere.
#[derive(Clone, Copy)]
pub struct Baseline;

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

/// ROMix (`crate::kdf::scrypt::ro_mix_with`) with the fastest core this CPU has, compiled with
/// that core's features enabled so its intrinsics inline.
pub fn ro_mix(
  block: &mut [u8],
  v: &mut [u32],
  n: usize,
  r: usize,
  cancel: &Cancel,
) -> CryptoResult<()> {
  #[cfg(target_arch = "x86_64")]
  if let Some(core) = Avx512Vl::detect() {
    // SAFETY: `core` proves the CPU has the features `ro_mix_avx512` is compiled for.
    return unsafe { ro_mix_avx512(core, block, v, n, r, cancel) };
  }
  crate::kdf::scrypt::ro_mix_with(Baseline, block, v, n, r, cancel)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vl")]
fn ro_mix_avx512(
  core: Avx512Vl,
  block: &mut [u8],
  v: &mut [u32],
  n: usize,
  r: usize,
  cancel: &Cancel,
) -> CryptoResult<()> {
  crate::kdf::scrypt::ro_mix_with(core, block, v, n, r, cancel)
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
  crate::kdf::scrypt::salsa20_8_scalar(b)
}

// ---- memory ---------------------------------------------------------------------------------

/// `vec![0u32; n]`, fallible, via `alloc_zeroed` (fresh pages from the kernel are already zero,
/// so no memset pass over the 16 MiB+ vector).
pub fn zeroed_u32(n: usize) -> Option<Vec<u32>> {
  if n == 0 {
    return Some(Vec::new());
  }
  let layout = std::alloc::Layout::array::<u32>(n).ok()?;
  // SAFETY: `layout` has a non-zero size; a null result is handled.
  let p = unsafe { std::alloc::alloc_zeroed(layout) }.cast::<u32>();
  if p.is_null() {
    return None;
  }
  // SAFETY: allocated by the global allocator with the layout of a `Vec<u32>` of capacity `n`,
  // and every element is initialised (zero).
  Some(unsafe { Vec::from_raw_parts(p, n, n) })
}

// ---- Argon2 ---------------------------------------------------------------------------------

/// Argon2 through `argon2-rust`'s traced entry point (a hook after each pass), on the backend
/// the crate detects for this CPU. Returns H0, the pre-hash of the inputs (the caller wipes it).
pub fn argon2_traced(
  params: &crate::kdf::argon2::Params,
  backend_params: &argon2_rust::Params,
  password: &[u8],
  secret: &[u8],
  out: &mut [u8],
  at_pass_end: argon2_rust::__internal::PassTrace<'_>,
) -> Result<[u8; 64], argon2_rust::Error> {
  // SAFETY: the backend comes from the crate's own run-time detection, which only names an
  // instruction set this CPU has (the one obligation of `hash_traced`).
  unsafe {
    argon2_rust::__internal::hash_traced(
      argon2_rust::detected_backend(),
      params.algorithm,
      params.version,
      backend_params,
      password,
      &params.salt,
      secret,
      &params.ad,
      out,
      Some(at_pass_end),
    )
  }
}
