//! CPU-specific code, and the few other calls whose soundness rests on what the CPU or the
//! allocator guarantees: the SIMD Salsa20/8 cores scrypt runs and the run-time check that
//! selects them, the Blowfish round index of bcrypt (BMI1 `bextr`), SHA-256 over several
//! messages at once (SHA-NI, batch hashing), the CPU vendor some backends are chosen by, a zeroed
//! allocation, the Argon2 backend call, AWS-LC's Keccak-f[1600] (SHA-3) and its view of an aarch64
//! CPU. With `src/js/` (the N-API boundary), the only module where `unsafe` is allowed; every
//! block says why it is sound, and every function here is safe to call.

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

// ---- SHA-512 block function (AVX2 + BMI2) ---------------------------------------------------

/// The SHA-512 block function of OpenSSL's `sha512_block_data_order_avx2` design (Intel, "Fast
/// SHA-512 Implementations on Intel Architecture Processors"); a value exists only on a CPU
/// with AVX2, BMI1 and BMI2, in an optimised build (`build.rs` sets `sha512_asm`: unoptimised,
/// the assembly's operands do not fit in the registers left beside the frame pointer).
///
/// Blocks go in pairs: the message schedule of both (the first block in the low 128-bit lane of
/// each `ymm` register, the second in the high lane) is computed with AVX2, interleaved with the
/// first block's rounds, into a stack buffer of W + K; the second block's rounds then only read
/// it. The rounds are scalar: BMI2's `rorx` rotates without a copy, BMI1's `andn` gives Ch's
/// `!e & g` in one instruction. On AMD the vector schedule runs on the floating-point pipes,
/// beside the integer rounds. Rounds and schedule are inline assembly, for the instruction order
/// (OpenSSL's round, the schedule spread among the rounds' instructions), which LLVM does not
/// keep: from the same operations in Rust it made a loop 10 % slower.
#[derive(Clone, Copy)]
pub struct Sha512Avx2(());

impl Sha512Avx2 {
  pub fn detect() -> Option<Self> {
    #[cfg(all(target_arch = "x86_64", sha512_asm))]
    if std::arch::is_x86_feature_detected!("avx2")
      && std::arch::is_x86_feature_detected!("bmi1")
      && std::arch::is_x86_feature_detected!("bmi2")
    {
      return Some(Sha512Avx2(()));
    }
    None
  }

  /// Compresses `blocks` into `state`, in order (FIPS 180-4 §6.4.2).
  #[inline]
  pub fn compress(self, state: &mut [u64; 8], blocks: &[[u8; 128]]) {
    #[cfg(all(target_arch = "x86_64", sha512_asm))]
    // SAFETY: `self` exists, so `detect` found AVX2, BMI1 and BMI2.
    unsafe {
      sha512_avx2(state, blocks)
    }
    #[cfg(not(all(target_arch = "x86_64", sha512_asm)))]
    sha2::block_api::compress512(state, blocks);
  }
}

/// The round constants of SHA-512 (FIPS 180-4 §4.2.3).
#[cfg(all(target_arch = "x86_64", sha512_asm))]
const K512: [u64; 80] = [
  0x428a2f98d728ae22,
  0x7137449123ef65cd,
  0xb5c0fbcfec4d3b2f,
  0xe9b5dba58189dbbc,
  0x3956c25bf348b538,
  0x59f111f1b605d019,
  0x923f82a4af194f9b,
  0xab1c5ed5da6d8118,
  0xd807aa98a3030242,
  0x12835b0145706fbe,
  0x243185be4ee4b28c,
  0x550c7dc3d5ffb4e2,
  0x72be5d74f27b896f,
  0x80deb1fe3b1696b1,
  0x9bdc06a725c71235,
  0xc19bf174cf692694,
  0xe49b69c19ef14ad2,
  0xefbe4786384f25e3,
  0x0fc19dc68b8cd5b5,
  0x240ca1cc77ac9c65,
  0x2de92c6f592b0275,
  0x4a7484aa6ea6e483,
  0x5cb0a9dcbd41fbd4,
  0x76f988da831153b5,
  0x983e5152ee66dfab,
  0xa831c66d2db43210,
  0xb00327c898fb213f,
  0xbf597fc7beef0ee4,
  0xc6e00bf33da88fc2,
  0xd5a79147930aa725,
  0x06ca6351e003826f,
  0x142929670a0e6e70,
  0x27b70a8546d22ffc,
  0x2e1b21385c26c926,
  0x4d2c6dfc5ac42aed,
  0x53380d139d95b3df,
  0x650a73548baf63de,
  0x766a0abb3c77b2a8,
  0x81c2c92e47edaee6,
  0x92722c851482353b,
  0xa2bfe8a14cf10364,
  0xa81a664bbc423001,
  0xc24b8b70d0f89791,
  0xc76c51a30654be30,
  0xd192e819d6ef5218,
  0xd69906245565a910,
  0xf40e35855771202a,
  0x106aa07032bbd1b8,
  0x19a4c116b8d2d0c8,
  0x1e376c085141ab53,
  0x2748774cdf8eeb99,
  0x34b0bcb5e19b48a8,
  0x391c0cb3c5c95a63,
  0x4ed8aa4ae3418acb,
  0x5b9cca4f7763e373,
  0x682e6ff3d6b2b8a3,
  0x748f82ee5defb2fc,
  0x78a5636f43172f60,
  0x84c87814a1f0ab72,
  0x8cc702081a6439ec,
  0x90befffa23631e28,
  0xa4506cebde82bde9,
  0xbef9a3f7b2c67915,
  0xc67178f2e372532b,
  0xca273eceea26619c,
  0xd186b8c721c0c207,
  0xeada7dd6cde0eb1e,
  0xf57d4f7fee6ed178,
  0x06f067aa72176fba,
  0x0a637dc5a2c898a6,
  0x113f9804bef90dae,
  0x1b710b35131c471b,
  0x28db77f523047d84,
  0x32caab7b40c72493,
  0x3c9ebe0a15c9bebc,
  0x431d67c49c100d4c,
  0x4cc5d4becb3e42b6,
  0x597f299cfc657e2a,
  0x5fcb6fab3ad6faec,
  0x6c44198c4a475817,
];

/// K of FIPS 180-4 §4.2.3 in the layout of the schedule: entry `t / 2` holds K[t], K[t + 1] twice
/// (one pair per 128-bit lane), so the vector schedule adds it with one full-width load.
#[cfg(all(target_arch = "x86_64", sha512_asm))]
#[repr(C, align(32))]
struct K512Lanes([[u64; 4]; 40]);

#[cfg(all(target_arch = "x86_64", sha512_asm))]
static K512_LANES: K512Lanes = {
  let mut k = [[0; 4]; 40];
  let mut i = 0;
  while i < 40 {
    k[i] = [K512[2 * i], K512[2 * i + 1], K512[2 * i], K512[2 * i + 1]];
    i += 1;
  }
  K512Lanes(k)
};

/// W + K of two blocks: entry `t / 2` holds words `t` and `t + 1` of the first block, then of
/// the second (the layout of a `ymm` register whose low lane is the first block).
///
/// Aligned to 16 bytes, not 32: a 32-byte-aligned stack buffer makes LLVM keep a frame pointer,
/// and the rounds with the schedule need every other general-purpose register.
#[cfg(all(target_arch = "x86_64", sha512_asm))]
#[repr(C, align(16))]
struct Sha512Schedule([[u64; 4]; 40]);

#[cfg(all(target_arch = "x86_64", sha512_asm))]
#[target_feature(enable = "avx2,bmi1,bmi2")]
// The last round of a block leaves a ^ b, which no round reads.
#[allow(unused_assignments)]
fn sha512_avx2(state: &mut [u64; 8], blocks: &[[u8; 128]]) {
  use std::arch::x86_64::*;
  // Big-endian 64-bit words: each 8-byte half of a lane reversed.
  let swap = _mm256_set_epi64x(
    0x0809_0a0b_0c0d_0e0f,
    0x0001_0203_0405_0607,
    0x0809_0a0b_0c0d_0e0f,
    0x0001_0203_0405_0607,
  );
  // Each 64-bit word rotated right by 8 bits (a byte shuffle: one instruction, not three).
  let rot8 = _mm256_set_epi64x(
    0x080f_0e0d_0c0b_0a09,
    0x0007_0605_0403_0201,
    0x080f_0e0d_0c0b_0a09,
    0x0007_0605_0403_0201,
  );
  // The rounds are assembly, for their instruction order. OpenSSL's round (`sha512-x86_64.pl`,
  // its AVX2 + BMI2 body) against LLVM's code for the Rust round this replaces, rounds alone:
  // 866 -> 909 MB/s; with the schedule spread among the rounds' instructions (`step` below)
  // rather than placed by LLVM, the whole function 804 -> 889 MB/s at 64 KiB (Zen 4).
  //
  // One round (FIPS 180-4 §6.4.2 step 3), kw = K[t] + W[t] read at `[p + off]`. Ch is
  // `(e & f) + (!e & g)` (disjoint bits: + works as |), Maj `b ^ ((a ^ b) & (b ^ c))`. Registers
  // besides the working variables: `a1` holds Σ0 of the previous round's `a`, added to this
  // round's `a` (the previous round's T1 + Maj) at its start, which takes Σ0 off the path to
  // the next `e` (OpenSSL's "h += Sigma0(a) from the past"); the caller adds the last one after
  // round 79. `a3` holds b ^ c on entry; `a2` gets a ^ b, the next round's b ^ c. The new `e`
  // is written to `d`, the new `a` (less its Σ0) to `h`; the caller renames.
  macro_rules! round {
    ($a:ident $b:ident $c:ident $d:ident $e:ident $f:ident $g:ident $h:ident,
     $s0:ident, $bc:ident, $ab:ident, $p:expr, $off:expr) => {
      // SAFETY: reads the 8 bytes at `p + off`, inside the schedule (the caller's offsets are
      // below 40 * 32); writes only the named registers; BMI1 and BMI2 are enabled.
      unsafe {
        std::arch::asm!(
          "add {h}, qword ptr [{p} + {off}]",
          "mov {a4}, {f}",
          "and {a4}, {e}",
          "rorx {a0}, {e}, 41",
          "rorx {a2}, {e}, 18",
          "add {a}, {a1}",
          "add {h}, {a4}",
          "andn {a4}, {e}, {g}",
          "xor {a0}, {a2}",
          "rorx {a1}, {e}, 14",
          "add {h}, {a4}",
          "xor {a0}, {a1}",
          "mov {a2}, {a}",
          "rorx {a4}, {a}, 39",
          "add {h}, {a0}",
          "xor {a2}, {b}",
          "rorx {a1}, {a}, 34",
          "rorx {a0}, {a}, 28",
          "add {d}, {h}",
          "and {a3}, {a2}",
          "xor {a1}, {a4}",
          "xor {a3}, {b}",
          "xor {a1}, {a0}",
          "add {h}, {a3}",
          a = inout(reg) $a, b = in(reg) $b, e = in(reg) $e, f = in(reg) $f, g = in(reg) $g,
          d = inout(reg) $d, h = inout(reg) $h, a1 = inout(reg) $s0,
          a3 = inout(reg) $bc => _, a2 = out(reg) $ab,
          a0 = out(reg) _, a4 = out(reg) _,
          p = in(reg) $p, off = const $off,
          options(pure, readonly, nostack)
        );
      }
    };
  }
  let mut w = Sha512Schedule([[0; 4]; 40]);
  for pair in blocks.chunks(2) {
    let (first, second) = (&pair[0], pair.get(1));
    // A lone block is loaded into both lanes; its second lane's rounds are not run.
    let high = second.unwrap_or(first);
    let mut x = [_mm256_setzero_si256(); 8];
    for (j, x) in x.iter_mut().enumerate() {
      // SAFETY: unaligned 16-byte loads within the 128-byte blocks (j < 8); an aligned 32-byte
      // load of entry j < 40 of `K512_LANES`; an unaligned 32-byte store to entry j of the
      // schedule.
      unsafe {
        let lo = _mm_loadu_si128(first.as_ptr().add(16 * j).cast());
        let hi = _mm_loadu_si128(high.as_ptr().add(16 * j).cast());
        *x = _mm256_shuffle_epi8(_mm256_set_m128i(hi, lo), swap);
        let k = _mm256_load_si256(K512_LANES.0[j].as_ptr().cast());
        _mm256_storeu_si256(w.0[j].as_mut_ptr().cast(), _mm256_add_epi64(*x, k));
      }
    }
    let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = *state;
    let (mut s0, mut bc, mut ab): (u64, u64, u64) = (0, b ^ c, 0);
    let wp = w.0.as_mut_ptr().cast::<u64>();
    // Rounds 16r + 2j and + 1 of the first block (`$wp` = entry 8r of the schedule) and, spread
    // among their instructions (indented), words 16 (r + 1) + 2j and + 1 of both blocks, to
    // entry 8 (r + 1) + j: W[t] = σ1(W[t-2]) + W[t-7] + σ0(W[t-15]) + W[t-16] (FIPS 180-4
    // §6.4.2 step 1), register x[j] holding W[t-16], W[t-15]; `$kp` = entry 8 (r + 1) of
    // `K512_LANES`. σ0 (FIPS 180-4 §4.1.3) of W[t-15], W[t-14] (`v0`, from x[j] and x[j + 1]):
    // ror 1 as a shift pair, ror 8 as a byte shuffle, shr 7; σ1 of x[j + 7]: ror 19, ror 61 as
    // shift pairs, shr 6; W[t-7], W[t-6] come from x[j + 4] and x[j + 5]. On AMD the vector work
    // runs on the floating-point pipes, beside the rounds'. The second round's `a3`/`a2` are the
    // first's `a2`/`a3`: b ^ c ends in `bc`. The schedule starts three instructions into the
    // first round, then one vector instruction every two or so scalar ones (measured: 1 % better
    // than from the first instruction; all of it in the first two thirds, 3 % worse).
    macro_rules! step {
      ($wp:expr, $kp:expr, $j:literal; $a:ident $b:ident $c:ident $d:ident $e:ident $f:ident $g:ident $h:ident) => {
        // SAFETY: reads the 16 bytes at `$wp + 32j` and writes the 32 at `$wp + 256 + 32j`,
        // inside the schedule (`$wp` is entry 8r, r < 4, j < 8); reads the 32 bytes at
        // `$kp + 32j`, inside `K512_LANES` (entry 8 (r + 1) + j < 40); writes only the named
        // registers; AVX2, BMI1 and BMI2 are enabled.
        unsafe {
          std::arch::asm!(
          "add {h}, qword ptr [{wp} + {o0}]",
          "mov {a4}, {f}",
          "and {a4}, {e}",
          "    vpalignr {v0}, {x1}, {x0}, 8",
          "rorx {a0}, {e}, 41",
          "rorx {a2}, {e}, 18",
          "add {a}, {a1}",
          "    vpalignr {v3}, {x5}, {x4}, 8",
          "add {h}, {a4}",
          "andn {a4}, {e}, {g}",
          "    vpaddq {x0}, {x0}, {v3}",
          "xor {a0}, {a2}",
          "rorx {a1}, {e}, 14",
          "    vpsrlq {v1}, {v0}, 1",
          "add {h}, {a4}",
          "xor {a0}, {a1}",
          "    vpsllq {v2}, {v0}, 63",
          "mov {a2}, {a}",
          "rorx {a4}, {a}, 39",
          "    vpor {v1}, {v1}, {v2}",
          "add {h}, {a0}",
          "xor {a2}, {b}",
          "    vpshufb {v2}, {v0}, {rot8}",
          "rorx {a1}, {a}, 34",
          "rorx {a0}, {a}, 28",
          "    vpxor {v1}, {v1}, {v2}",
          "add {d}, {h}",
          "and {a3}, {a2}",
          "    vpsrlq {v0}, {v0}, 7",
          "xor {a1}, {a4}",
          "xor {a3}, {b}",
          "    vpxor {v1}, {v1}, {v0}",
          "xor {a1}, {a0}",
          "add {h}, {a3}",
          "    vpaddq {x0}, {x0}, {v1}",
          "add {g}, qword ptr [{wp} + {o1}]",
          "mov {a4}, {e}",
          "    vpsrlq {v1}, {x7}, 19",
          "and {a4}, {d}",
          "rorx {a0}, {d}, 41",
          "rorx {a3}, {d}, 18",
          "    vpsllq {v2}, {x7}, 45",
          "add {h}, {a1}",
          "add {g}, {a4}",
          "    vpor {v1}, {v1}, {v2}",
          "andn {a4}, {d}, {f}",
          "xor {a0}, {a3}",
          "    vpsrlq {v2}, {x7}, 61",
          "rorx {a1}, {d}, 14",
          "add {g}, {a4}",
          "    vpsllq {v3}, {x7}, 3",
          "xor {a0}, {a1}",
          "mov {a3}, {h}",
          "    vpor {v2}, {v2}, {v3}",
          "rorx {a4}, {h}, 39",
          "add {g}, {a0}",
          "    vpxor {v1}, {v1}, {v2}",
          "xor {a3}, {a}",
          "rorx {a1}, {h}, 34",
          "    vpsrlq {v2}, {x7}, 6",
          "rorx {a0}, {h}, 28",
          "add {c}, {g}",
          "    vpxor {v1}, {v1}, {v2}",
          "and {a2}, {a3}",
          "xor {a1}, {a4}",
          "    vpaddq {x0}, {x0}, {v1}",
          "xor {a2}, {a}",
          "xor {a1}, {a0}",
          "    vpaddq {v0}, {x0}, ymmword ptr [{kp} + {o0}]",
          "add {g}, {a2}",
          "    vmovdqu ymmword ptr [{wp} + {os}], {v0}",
            a = inout(reg) $a, b = in(reg) $b, c = inout(reg) $c, d = inout(reg) $d,
            e = in(reg) $e, f = in(reg) $f, g = inout(reg) $g, h = inout(reg) $h,
            a1 = inout(reg) s0, a3 = inout(reg) bc,
            a0 = out(reg) _, a2 = out(reg) _, a4 = out(reg) _,
            wp = in(reg) $wp, kp = in(reg) $kp,
            o0 = const 32 * $j, o1 = const 32 * $j + 8, os = const 256 + 32 * $j,
            x0 = inout(ymm_reg) x[$j], x1 = in(ymm_reg) x[($j + 1) % 8],
            x4 = in(ymm_reg) x[($j + 4) % 8], x5 = in(ymm_reg) x[($j + 5) % 8],
            x7 = in(ymm_reg) x[($j + 7) % 8], rot8 = in(ymm_reg) rot8,
            v0 = out(ymm_reg) _, v1 = out(ymm_reg) _, v2 = out(ymm_reg) _, v3 = out(ymm_reg) _,
            options(nostack)
          );
        }
      };
    }
    // Rounds 0..64 of the first block with words 16..80 of both. A loop: unrolled, the code is
    // four times larger for no gain.
    for r in 0..4 {
      // SAFETY: entry 8r < 40 of the schedule.
      let wr = unsafe { wp.add(32 * r) };
      let kr = K512_LANES.0[8 * (r + 1)..].as_ptr();
      step!(wr, kr, 0; a b c d e f g h);
      step!(wr, kr, 1; g h a b c d e f);
      step!(wr, kr, 2; e f g h a b c d);
      step!(wr, kr, 3; c d e f g h a b);
      step!(wr, kr, 4; a b c d e f g h);
      step!(wr, kr, 5; g h a b c d e f);
      step!(wr, kr, 6; e f g h a b c d);
      step!(wr, kr, 7; c d e f g h a b);
    }
    // Sixteen rounds from entry `$at` of the schedule, lane words `$l` and `$l + 1`.
    macro_rules! rounds16 {
      ($at:expr, $l:literal) => {
        round!(a b c d e f g h, s0, bc, ab, wp, 8 * (4 * $at + $l));
        round!(h a b c d e f g, s0, ab, bc, wp, 8 * (4 * $at + $l + 1));
        round!(g h a b c d e f, s0, bc, ab, wp, 8 * (4 * ($at + 1) + $l));
        round!(f g h a b c d e, s0, ab, bc, wp, 8 * (4 * ($at + 1) + $l + 1));
        round!(e f g h a b c d, s0, bc, ab, wp, 8 * (4 * ($at + 2) + $l));
        round!(d e f g h a b c, s0, ab, bc, wp, 8 * (4 * ($at + 2) + $l + 1));
        round!(c d e f g h a b, s0, bc, ab, wp, 8 * (4 * ($at + 3) + $l));
        round!(b c d e f g h a, s0, ab, bc, wp, 8 * (4 * ($at + 3) + $l + 1));
        round!(a b c d e f g h, s0, bc, ab, wp, 8 * (4 * ($at + 4) + $l));
        round!(h a b c d e f g, s0, ab, bc, wp, 8 * (4 * ($at + 4) + $l + 1));
        round!(g h a b c d e f, s0, bc, ab, wp, 8 * (4 * ($at + 5) + $l));
        round!(f g h a b c d e, s0, ab, bc, wp, 8 * (4 * ($at + 5) + $l + 1));
        round!(e f g h a b c d, s0, bc, ab, wp, 8 * (4 * ($at + 6) + $l));
        round!(d e f g h a b c, s0, ab, bc, wp, 8 * (4 * ($at + 6) + $l + 1));
        round!(c d e f g h a b, s0, bc, ab, wp, 8 * (4 * ($at + 7) + $l));
        round!(b c d e f g h a, s0, ab, bc, wp, 8 * (4 * ($at + 7) + $l + 1));
      };
    }
    // Rounds 64..80 of the first block, then the second block's 80.
    rounds16!(32, 0);
    a = a.wrapping_add(s0);
    for (s, v) in state.iter_mut().zip([a, b, c, d, e, f, g, h]) {
      *s = s.wrapping_add(v);
    }
    if second.is_some() {
      [a, b, c, d, e, f, g, h] = *state;
      (s0, bc) = (0, b ^ c);
      rounds16!(0, 2);
      rounds16!(8, 2);
      rounds16!(16, 2);
      rounds16!(24, 2);
      rounds16!(32, 2);
      a = a.wrapping_add(s0);
      for (s, v) in state.iter_mut().zip([a, b, c, d, e, f, g, h]) {
        *s = s.wrapping_add(v);
      }
    }
  }
}

// ---- Keccak-f[1600] (SHA-3, SHAKE, Keccak-256) ----------------------------------------------

extern "C" {
  /// AWS-LC's Keccak-f[1600] (`crypto/fipsmodule/sha/keccak1600.c`): s2n-bignum's scalar assembly
  /// on x86-64 Linux and macOS, AWS-LC's C or Neon code elsewhere. Not declared by aws-lc-sys: linked
  /// by AWS-LC's versioned symbol name, as `awslc.rs` links mlkem-native, so an aws-lc-sys upgrade
  /// (pinned exactly in Cargo.toml) fails to link until this name is updated.
  #[link_name = "aws_lc_0_47_0_KeccakF1600"]
  fn aws_lc_keccak_f1600(state: *mut u64);
}

/// Keccak-f[1600] on the 25 lanes of `state` (FIPS 202 order: lane (x, y) at index x + 5y).
pub fn keccak_f1600(state: &mut [u64; 25]) {
  // SAFETY: AWS-LC's function reads and writes exactly the 25 lanes (`uint64_t A[5][5]`, the same
  // 200 bytes in the same order) behind the pointer, which `state` owns for the call, and keeps
  // no pointer to them.
  unsafe { aws_lc_keccak_f1600(state.as_mut_ptr()) }
}

/// What AWS-LC found out about this aarch64 CPU (its `OPENSSL_armcap_P`), for `cpuPaths()`.
#[cfg(target_arch = "aarch64")]
pub struct AwsLcArmcap {
  /// AWS-LC was built with its assembly (`CRYPTO_has_asm`).
  pub has_asm: bool,
  /// A Neoverse N1, V1, V2 or V3 core (recognised by its MIDR_EL1 on Linux).
  pub neoverse: bool,
  /// The ARMv8.2 SHA-3 instructions.
  pub sha3: bool,
}

#[cfg(target_arch = "aarch64")]
extern "C" {
  /// AWS-LC's CPU capability bits on Arm (`crypto/fipsmodule/cpucap/cpucap.c`), written once by
  /// its library constructor (`OPENSSL_cpuid_setup`) and read by its dispatching functions.
  #[link_name = "aws_lc_0_47_0_OPENSSL_armcap_P"]
  static AWS_LC_ARMCAP: u32;
}

/// AWS-LC's view of this CPU (`include/openssl/arm_arch.h`: `ARMV8_SHA3` is bit 11,
/// `ARMV8_NEOVERSE_N1` bit 7, which it also sets for V1, V2 and V3).
#[cfg(target_arch = "aarch64")]
pub fn aws_lc_armcap() -> AwsLcArmcap {
  // SAFETY: `CRYPTO_library_init` takes no arguments and runs AWS-LC's CPU detection once (its
  // library constructor has normally done so when the addon was loaded); `CRYPTO_has_asm` takes
  // none and reads nothing.
  let has_asm = unsafe {
    aws_lc_sys::CRYPTO_library_init();
    aws_lc_sys::CRYPTO_has_asm() == 1
  };
  // SAFETY: a plain `u32` that AWS-LC writes only during the initialisation above, which has
  // completed (and published its writes) before `CRYPTO_library_init` returns; nothing in this
  // crate calls `armv8_disable_dit`/`armv8_enable_dit`, its only later writers.
  let armcap = unsafe { AWS_LC_ARMCAP };
  AwsLcArmcap {
    has_asm,
    neoverse: armcap & (1 << 7) != 0,
    sha3: armcap & (1 << 11) != 0,
  }
}

/// The Keccak absorbing loop in x86-64 assembly using BMI1's `andn` (χ in one instruction) and
/// BMI2's `rorx` (θ's rotation without a copy); a value exists only on a CPU with both. The code
/// is written out by `build.rs` (`keccak_x86_64`, which describes it) from FIPS 202's indices.
/// Against AWS-LC's permutation (OpenSSL's `keccak1600-x86_64` design, through s2n-bignum), per
/// block it saves the lane complementing on entry and exit and a call, and per round a store
/// and reload on the path from one round to the next (measured in `src/hash/keccak.rs`,
/// `permutation_speed`).
#[derive(Clone, Copy)]
pub struct KeccakBmi(Proof);

/// What a CPU-feature token holds: nothing on x86-64; elsewhere a type without values, so no
/// token can exist there.
#[cfg(target_arch = "x86_64")]
type Proof = ();
#[cfg(not(target_arch = "x86_64"))]
#[derive(Clone, Copy)]
pub enum Proof {}

// `KECCAK_RC` and `keccak_absorb_asm!`.
#[cfg(target_arch = "x86_64")]
include!(concat!(env!("OUT_DIR"), "/keccak_x86_64.rs"));

impl KeccakBmi {
  pub fn detect() -> Option<Self> {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("bmi1") && std::arch::is_x86_feature_detected!("bmi2") {
      return Some(KeccakBmi(()));
    }
    None
  }

  /// For each whole `rate`-byte block of `data` (a remainder is ignored): XORs it into the
  /// first `rate / 8` lanes of `state` (little-endian), then applies Keccak-f[1600]. `rate` is a
  /// multiple of 8 from 8 to 192 bytes.
  pub fn absorb(self, state: &mut [u64; 25], data: &[u8], rate: usize) {
    let lanes = (rate / 8).clamp(1, 24);
    self.run(state, data.as_ptr(), data.len() / (8 * lanes), lanes);
  }

  /// Keccak-f[1600] on `state` (an absorb of one block of no lanes).
  pub fn permute(self, state: &mut [u64; 25]) {
    self.run(state, std::ptr::null(), 1, 0);
  }

  /// `blocks` blocks of `lanes` lanes from `data`; `lanes <= 24`, and `data` is readable for
  /// `blocks * lanes * 8` bytes.
  fn run(self, state: &mut [u64; 25], data: *const u8, blocks: usize, lanes: usize) {
    if blocks == 0 {
      return;
    }
    #[cfg(target_arch = "x86_64")]
    {
      let mut scratch = [0u64; 31];
      scratch[25] = KECCAK_RC.as_ptr() as u64;
      scratch[26] = KECCAK_RC.as_ptr().wrapping_add(24) as u64;
      scratch[27] = data as u64;
      scratch[28] = blocks as u64;
      scratch[29] = lanes as u64;
      scratch[30] = KECCAK_RC.as_ptr() as u64;
      // SAFETY: `self` exists, so the CPU has BMI1 and BMI2 (`andn`, `rorx`). The assembly
      // reads `blocks * lanes` little-endian u64s from `data` (in bounds: callers pass whole
      // blocks of their slice, or no lanes), reads and writes the 25 lanes of `state` and the 31
      // words of `scratch` (both exclusively borrowed here), reads the 24 round constants, and
      // keeps no pointer; it uses no stack and the registers it names.
      unsafe {
        keccak_absorb_asm!(state.as_mut_ptr(), scratch.as_mut_ptr());
      }
      // The scratch lanes hold the state after every other round.
      zeroize::Zeroize::zeroize(&mut scratch[..25]);
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
      let _ = (state, data, lanes);
      match self.0 {}
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

/// Argon2 into `out` over `workspace`'s arena (reused: no allocation and no first touch of the
/// memory once it is large enough), on the backend the crate detects for this CPU, with
/// `at_pass_end` called after each pass when given. The steps are the crate's own (pre-hash,
/// first blocks, fill, finalise); the arena guard wipes the blocks it handed out and parks them
/// in `workspace` again on every exit, an unwind out of `at_pass_end` included.
pub fn argon2_in(
  workspace: &mut argon2_rust::__internal::Workspace,
  params: &crate::kdf::argon2::Params,
  backend_params: &argon2_rust::Params,
  password: &[u8],
  secret: &[u8],
  out: &mut [u8],
  at_pass_end: Option<argon2_rust::__internal::PassTrace<'_>>,
) -> Result<(), argon2_rust::Error> {
  use argon2_rust::__internal::{
    clear_internal_memory, fill_first_blocks, fill_memory_blocks_traced, finalize, initial_hash,
    Instance,
  };
  let p = backend_params;
  p.validate_for(
    password.len(),
    params.salt.len(),
    secret.len(),
    params.ad.len(),
  )?;
  if out.len() != p.tag_len_bytes() {
    return Err(argon2_rust::Error::OutPtrMismatch);
  }
  let (blocks, _, lane_length) = p.memory_layout();
  let mut arena = workspace.acquire(blocks as usize)?;
  arena.set_workers(p.threads());
  let mut seed = initial_hash(
    params.algorithm,
    params.version,
    p,
    password,
    &params.salt,
    secret,
    &params.ad,
  )?;
  let first = fill_first_blocks(&mut seed, arena.as_mut_slice(), p.lanes(), lane_length);
  clear_internal_memory(&mut seed);
  first?;
  // SAFETY: `arena` holds `blocks` initialised, aligned blocks (the crate's arena invariant,
  // sized from these `p` by `acquire`) and is borrowed until this function returns, which the
  // instance does not outlive; no other thread fills it.
  let instance = unsafe {
    Instance::new(
      arena.as_mut_ptr(),
      arena.len(),
      params.algorithm,
      params.version,
      p,
    )
  };
  // SAFETY: the backend comes from the crate's own run-time detection, which only names an
  // instruction set this CPU has; `instance` is valid as above.
  unsafe { fill_memory_blocks_traced(&instance, argon2_rust::detected_backend(), at_pass_end) }?;
  finalize(&instance, out)
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
