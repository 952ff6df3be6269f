//! CPU-specific code, and the few other calls whose soundness rests on what the CPU or the
//! allocator guarantees: the SIMD Salsa20/8 cores scrypt runs and the run-time check that
//! selects them, the Blowfish round index of bcrypt (BMI1 `bextr`), SHA-256 over several
//! messages at once (SHA-NI, batch hashing), the CPU vendor some backends are chosen by, a zeroed
//! allocation, the Argon2 backend call. With `src/js/` (the N-API boundary), the only module where `unsafe` is allowed;
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

// ---- Blowfish round index (bcrypt) ---------------------------------------------------------

/// How a Blowfish round extracts the byte `(x >> 16) & 0xff` of a word to index S-box 1. The
/// other three indices take one instruction each on x86-64 (`shr 24`, `movzx` of the low and of
/// the second-lowest byte); this one takes a shift and a mask, and it is on the critical path of
/// the round, which bounds bcrypt (`crate::kdf::blowfish`). Implemented by [`Baseline`] (shift
/// and mask) and [`Bmi1`] (one `bextr`).
pub trait BlowfishIndex: Copy {
  fn byte2(self, x: u32) -> u8;
}

impl BlowfishIndex for Baseline {
  #[inline(always)]
  fn byte2(self, x: u32) -> u8 {
    (x >> 16) as u8
  }
}

/// `bextr` for the Blowfish index; a value exists only on an AMD (or Hygon) CPU with BMI1. There
/// `bextr` is one µop of latency 1, and bcrypt ran 7 % faster with it (Zen 3, cost 10). On Intel
/// cores it is two µops (uops.info), no shorter than the shift and mask, and it was not measured
/// there: they keep [`Baseline`].
#[derive(Clone, Copy)]
pub struct Bmi1(());

impl Bmi1 {
  pub fn detect() -> Option<Self> {
    #[cfg(target_arch = "x86_64")]
    {
      static FAST_BEXTR: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
      let fast = *FAST_BEXTR.get_or_init(|| {
        let vendor = cpu_vendor();
        (&vendor == b"AuthenticAMD" || &vendor == b"HygonGenuine")
          && std::arch::is_x86_feature_detected!("bmi1")
      });
      if fast {
        return Some(Bmi1(()));
      }
    }
    None
  }
}

impl BlowfishIndex for Bmi1 {
  #[inline(always)]
  fn byte2(self, x: u32) -> u8 {
    #[cfg(target_arch = "x86_64")]
    // `_bextr_u32` is a safe function in newer Rust releases, unsafe in older ones.
    #[allow(unused_unsafe)]
    // SAFETY: `self` exists, so `detect` found BMI1.
    let b = unsafe { std::arch::x86_64::_bextr_u32(x, 16, 8) } as u8;
    #[cfg(not(target_arch = "x86_64"))]
    let b = (x >> 16) as u8;
    b
  }
}

/// bcrypt's EksBlowfish and output encryption (`crate::kdf::bcrypt::raw_with`) with the fastest
/// [`BlowfishIndex`] this CPU has, compiled with its feature enabled so `bextr` inlines.
pub fn bcrypt(cost: u32, salt: &[u8; 16], key: &[u8], cancel: &Cancel) -> CryptoResult<[u8; 24]> {
  #[cfg(target_arch = "x86_64")]
  if let Some(ix) = Bmi1::detect() {
    // SAFETY: `ix` proves the CPU has the feature `bcrypt_bmi1` is compiled for.
    return unsafe { bcrypt_bmi1(ix, cost, salt, key, cancel) };
  }
  crate::kdf::bcrypt::raw_with(Baseline, cost, salt, key, cancel)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi1")]
fn bcrypt_bmi1(
  ix: Bmi1,
  cost: u32,
  salt: &[u8; 16],
  key: &[u8],
  cancel: &Cancel,
) -> CryptoResult<[u8; 24]> {
  crate::kdf::bcrypt::raw_with(ix, cost, salt, key, cancel)
}

// ---- SHA-256 on several messages at once (batch hashing) --------------------------------------

/// The SHA-NI SHA-256 block function, over `L` independent states at once; a value exists only
/// on a CPU with SHA-NI and SSE4.1.
///
/// One SHA-256 stream is bound by the latency of `sha256rnds2`: each round pair waits for the
/// previous one. `L` streams interleaved in one instruction sequence fill those waits, so a batch
/// of short messages hashes in about half the time (`docs/backends.md`, "Batch calls").
#[derive(Clone, Copy)]
pub struct Sha256Ni(());

impl Sha256Ni {
  pub fn detect() -> Option<Self> {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("sha") && std::arch::is_x86_feature_detected!("sse4.1") {
      return Some(Sha256Ni(()));
    }
    None
  }

  /// Compresses `blocks[i]` into `states[i]`, for every `i` (FIPS 180-4 §6.2.2).
  #[inline]
  pub fn compress<const L: usize>(self, states: [&mut [u32; 8]; L], blocks: [&[u8; 64]; L]) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `self` exists, so `detect` found SHA-NI and SSE4.1.
    unsafe {
      sha256_lanes(states, blocks)
    }
    #[cfg(not(target_arch = "x86_64"))]
    for (s, b) in states.into_iter().zip(blocks) {
      sha2::block_api::compress256(s, std::slice::from_ref(b));
    }
  }
}

/// The round constants of SHA-256 (FIPS 180-4 §4.2.2), four per `sha256rnds2` pair.
#[cfg(target_arch = "x86_64")]
const K256: [u32; 64] = [
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
];

/// The SHA-NI block function (the `sha2` crate's sequence, after Intel's reference code) with
/// every step done for each of the `L` lanes before the next step.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sha,sse4.1")]
fn sha256_lanes<const L: usize>(states: [&mut [u32; 8]; L], blocks: [&[u8; 64]; L]) {
  use std::arch::x86_64::*;
  let mut abef = [_mm_setzero_si128(); L];
  let mut cdgh = [_mm_setzero_si128(); L];
  let mut w = [[_mm_setzero_si128(); 4]; L];
  let mask = _mm_set_epi64x(0x0C0D_0E0F_0809_0A0B, 0x0405_0607_0001_0203);
  for l in 0..L {
    // SAFETY: unaligned 16-byte loads within the 32-byte state and the 64-byte block.
    let (dcba, hgfe, words) = unsafe {
      let s = states[l].as_ptr().cast::<__m128i>();
      let b = blocks[l].as_ptr().cast::<__m128i>();
      (
        _mm_loadu_si128(s),
        _mm_loadu_si128(s.add(1)),
        [0, 1, 2, 3].map(|i| _mm_shuffle_epi8(_mm_loadu_si128(b.add(i)), mask)),
      )
    };
    let cdab = _mm_shuffle_epi32(dcba, 0xB1);
    let efgh = _mm_shuffle_epi32(hgfe, 0x1B);
    abef[l] = _mm_alignr_epi8(cdab, efgh, 8);
    cdgh[l] = _mm_blend_epi16(efgh, cdab, 0xF0);
    w[l] = words;
  }
  let (abef0, cdgh0) = (abef, cdgh);
  for r in 0..16 {
    let k = _mm_set_epi32(
      K256[4 * r + 3] as i32,
      K256[4 * r + 2] as i32,
      K256[4 * r + 1] as i32,
      K256[4 * r] as i32,
    );
    let i = r % 4;
    for l in 0..L {
      if r >= 4 {
        // The message schedule: w[i] becomes the next four words.
        let w = &mut w[l];
        let t = _mm_add_epi32(
          _mm_sha256msg1_epu32(w[i], w[(i + 1) % 4]),
          _mm_alignr_epi8(w[(i + 3) % 4], w[(i + 2) % 4], 4),
        );
        w[i] = _mm_sha256msg2_epu32(t, w[(i + 3) % 4]);
      }
      let t = _mm_add_epi32(w[l][i], k);
      cdgh[l] = _mm_sha256rnds2_epu32(cdgh[l], abef[l], t);
      abef[l] = _mm_sha256rnds2_epu32(abef[l], cdgh[l], _mm_shuffle_epi32(t, 0x0E));
    }
  }
  for l in 0..L {
    let abef = _mm_add_epi32(abef[l], abef0[l]);
    let cdgh = _mm_add_epi32(cdgh[l], cdgh0[l]);
    let feba = _mm_shuffle_epi32(abef, 0x1B);
    let dchg = _mm_shuffle_epi32(cdgh, 0xB1);
    // SAFETY: unaligned 16-byte stores within the 32-byte state.
    unsafe {
      let s = states[l].as_mut_ptr().cast::<__m128i>();
      _mm_storeu_si128(s, _mm_blend_epi16(feba, dchg, 0xF0));
      _mm_storeu_si128(s.add(1), _mm_alignr_epi8(dchg, feba, 8));
    }
  }
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

#[cfg(test)]
mod sha256_lane_tests {
  use super::*;

  #[test]
  fn lanes_equal_the_sha2_block_function() {
    let Some(ni) = Sha256Ni::detect() else {
      eprintln!("no SHA-NI here: the lanes are not checked");
      return;
    };
    let blocks: Vec<[u8; 64]> = (0..4u8)
      .map(|i| [i.wrapping_mul(37).wrapping_add(1); 64])
      .collect();
    let mut want = [[0x1234_5678u32; 8]; 4];
    for (s, b) in want.iter_mut().zip(&blocks) {
      sha2::block_api::compress256(s, std::slice::from_ref(b));
    }
    let [mut a, mut b, mut c, mut d] = [[0x1234_5678u32; 8]; 4];
    ni.compress([&mut a], [&blocks[0]]);
    assert_eq!(a, want[0]);
    let mut a = [0x1234_5678u32; 8];
    ni.compress([&mut a, &mut b], [&blocks[0], &blocks[1]]);
    assert_eq!([a, b], [want[0], want[1]]);
    let [mut a, mut b] = [[0x1234_5678u32; 8]; 2];
    ni.compress(
      [&mut a, &mut b, &mut c, &mut d],
      [&blocks[0], &blocks[1], &blocks[2], &blocks[3]],
    );
    assert_eq!([a, b, c, d], want);
  }
}
