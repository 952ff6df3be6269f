//! CPU-specific code, and the few other calls whose soundness rests on what the CPU or the
//! allocator guarantees. With `src/js/` (the N-API boundary) and `src/awslc/` (the AWS-LC calls),
//! the only modules where `unsafe` is allowed; every block says why it is sound, and every
//! function here is safe to call.
//!
//! A kernel is a token type whose value exists only on a CPU that can run it (`detect()` returns
//! it), and a family's generic code takes the token. Where the family's whole loop must be
//! compiled with the kernel's features enabled (so its intrinsics inline), this folder offers a
//! `#[target_feature]` entry point generic over a small trait the family implements
//! ([`Salsa20Work`], [`BlowfishWork`]), as `hash/list.rs`'s `BlockFnVisitor` does: the family
//! calls down, and nothing here names a family.
//!
//! - `salsa.rs`: the Salsa20/8 cores scrypt's ROMix runs (SSE2, AVX-512VL);
//! - `blowfish.rs`: the Blowfish round index of bcrypt (BMI1 `bextr` on AMD);
//! - `sha256_lanes.rs`: SHA-256 over several messages at once (SHA-NI, batch hashing);
//! - `sha512.rs`: the SHA-512 block function (AVX2 + BMI2 inline assembly);
//! - `chacha.rs`: ChaCha20 (AVX-512F) and Poly1305 (AVX-512 IFMA), the AEAD's two loops;
//! - `keccak.rs`: the Keccak absorbing loop (BMI1 + BMI2 assembly written by `build.rs`);
//! - `argon2.rs`: the Argon2 backend call over a reused arena;
//! - here: the CPU vendor, the baseline token and a zeroed allocation.

mod argon2;
mod blowfish;
mod chacha;
mod keccak;
mod salsa;
mod sha256_lanes;
mod sha512;

pub use argon2::{argon2_in, Argon2Input};
pub use blowfish::{with_blowfish_index, BlowfishIndex, BlowfishWork, Bmi1};
pub use chacha::{ChaChaIfma, PolyPowers};
pub use keccak::KeccakBmi;
#[cfg(test)]
pub use salsa::salsa20_8_scalar;
pub use salsa::{with_salsa20_core, Avx512Vl, Salsa20Core, Salsa20Work};
pub use sha256_lanes::Sha256Ni;
pub use sha512::Sha512Avx2;

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

/// The kernel every CPU of the target runs (for Salsa20/8: SSE2 on x86-64, portable code
/// elsewhere; for the Blowfish index: a shift and a mask).
#[derive(Clone, Copy)]
pub struct Baseline;

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
