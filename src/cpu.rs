//! `cpuPaths()`: the code path each backend takes on this CPU, so a silent fall back to portable
//! code shows in benchmark headers and CI logs.
//!
//! Our own choices (`crate::arch`, `hash::blake2`, `hash::keccak`) and argon2-rust's
//! (`detected_backend`) are asked directly, and so is AWS-LC's CPU capability word on aarch64.
//! The other crates do not export theirs, so their run-time tests are restated here from their
//! sources at the versions `Cargo.lock` pins (a version bump should re-read them): ring 0.17
//! (`cpu/intel.rs`, `cpu/arm.rs` and each algorithm's dispatch), RustCrypto sha1/sha2 0.11 and
//! aes 0.9 (`cpufeatures` 0.3), polyval 0.7, blake3 1.8 (`platform.rs`, `build.rs`), AWS-LC 0.47
//! (`crypto/fipsmodule/sha/keccak1600.c`). They are restated for x86-64 and aarch64; on other
//! architectures those rows read `'unprobed'` rather than a guess.

use napi_derive::napi;

/// The path each backend took on this CPU (see `cpuPaths()` in index.d.ts for the values).
#[napi(object)]
pub struct CpuPaths {
  /// SHA-1 (RustCrypto `sha1`): `'sha-ni'` (x86-64), `'sha1'` (the ARMv8 SHA-1 instructions) or
  /// `'soft'`.
  pub sha1: String,
  /// SHA-256 and SHA-224 (RustCrypto `sha2`): `'sha-ni'`, `'sha2'` (ARMv8 SHA-256 instructions)
  /// or `'soft'`.
  pub sha256: String,
  /// SHA-256 batch hashing (ours, several messages interleaved): `'sha-ni'` or `'one-by-one'`.
  pub sha256_batch: String,
  /// SHA-384, SHA-512, SHA-512/224 and SHA-512/256 (one block function for hashing, HMAC,
  /// PBKDF2, batches and streams): `'avx2-bmi2'` (ours, `arch::Sha512Avx2`: the message schedule
  /// of two blocks in AVX2 registers, scalar rounds with BMI2 `rorx`), else RustCrypto `sha2`'s
  /// compression, `'avx2'`, `'sha512'` (ARMv8.2 SHA-512 instructions) or `'soft'`.
  pub sha512: String,
  /// MD5 (ours, `hash/md.rs`; scalar: MD5 is one serial chain): `'soft'`.
  pub md5: String,
  /// Every Keccak hash (SHA-3, SHAKE, Keccak-256: our sponge, `hash/keccak.rs`): `'bmi2-asm'`
  /// (our x86-64 assembly with BMI1/BMI2, where it measured faster than AWS-LC's in this process;
  /// asking measures it), else AWS-LC's Keccak-f[1600] as AWS-LC picks it: `'aws-lc-asm'`
  /// (s2n-bignum's scalar assembly: x86-64 Linux and macOS; on aarch64 for Neoverse N1, V1, V2
  /// and V3), `'aws-lc-sha3'` (s2n-bignum's Neon assembly with the ARMv8.2 SHA-3 instructions),
  /// `'aws-lc-armv8'` (the scalar ARMv8 assembly), `'aws-lc-c'`, or `'unprobed'` elsewhere.
  pub sha3: String,
  /// BLAKE2b: `'simd'` (`blake2b_simd`) or `'scalar'` (ours), whichever measured faster here on
  /// the first BLAKE2b hash (`hash::blake2::Blake2b::backend`; asking measures it); `'scalar'` off x86-64.
  #[napi(js_name = "blake2b")]
  pub blake2b: String,
  /// BLAKE2s: the same choice, between `blake2s_simd` and ours.
  #[napi(js_name = "blake2s")]
  pub blake2s: String,
  /// BLAKE3: `'avx512'`, `'avx2'`, `'sse41'`, `'sse2'`, `'neon'` or `'portable'`.
  pub blake3: String,
  /// AES in every mode but 96-bit-IV GCM (RustCrypto `aes`): `'vaes512'`, `'vaes256'`,
  /// `'aes-ni'`, `'aes'` (the ARMv8 AES instructions) or `'soft'`.
  pub aes: String,
  /// AES-GCM with a 96-bit IV and a 16-byte tag (ring; other IV and tag lengths: `aes` +
  /// `ghash`): `'vaes-avx2'`, `'aes-ni-avx-movbe'`, `'aes-ni-clmul'`, `'vpaes-ssse3'`,
  /// `'aes+pmull'` (ARMv8 AES and PMULL), `'vpaes-neon'` or `'nohw'`.
  pub aes_gcm: String,
  /// GHASH of GCM with other IV lengths (`polyval`): `'clmul'`, `'pmull'` or `'soft'`.
  pub ghash: String,
  /// ChaCha20-Poly1305 and XChaCha20-Poly1305: `'avx512-ifma'` (ours: ChaCha20 in AVX-512F,
  /// Poly1305 in AVX-512 IFMA, for messages of 8 KiB and more; shorter ones take ring's AVX2
  /// code), else ring's `'avx2'`, `'ssse3'`, `'neon'` (inputs over 192 bytes; shorter ones take
  /// the scalar code) or `'nohw'`.
  pub chacha20: String,
  /// scrypt's Salsa20/8 core (ours): `'avx512vl'`, `'sse2'` (x86-64) or `'portable'`.
  pub scrypt: String,
  /// bcrypt's Blowfish round index (ours): `'bextr'` (AMD with BMI1) or `'shift'`.
  pub bcrypt: String,
  /// Argon2 block function (`argon2-rust`'s own choice; on aarch64 Linux it times its Neon fill
  /// against the scalar one once per process): `'avx512'`, `'avx2'`, `'sse2'`, `'neon'` or
  /// `'scalar'`.
  pub argon2: String,
}

/// The first name whose condition holds, else `fallback`.
fn first(paths: &[(&'static str, bool)], fallback: &'static str) -> &'static str {
  paths
    .iter()
    .find(|(_, on)| *on)
    .map_or(fallback, |(name, _)| name)
}

/// The rows whose backend is a crate that does not say what it picked.
struct Restated {
  sha1: &'static str,
  sha256: &'static str,
  /// RustCrypto `sha2`'s SHA-512 compression (used where ours does not run).
  sha512: &'static str,
  blake3: &'static str,
  aes: &'static str,
  aes_gcm: &'static str,
  ghash: &'static str,
  chacha20: &'static str,
  /// AWS-LC's Keccak-f[1600] (`KeccakF1600`), used where ours does not run.
  keccak: &'static str,
}

const SOFT: &str = "soft";

#[cfg(target_arch = "x86_64")]
fn restated() -> Restated {
  macro_rules! has {
    ($($f:tt),+) => { $(std::arch::is_x86_feature_detected!($f))&&+ };
  }
  Restated {
    sha1: first(&[("sha-ni", has!("sha", "sse2", "ssse3", "sse4.1"))], SOFT),
    sha256: first(&[("sha-ni", has!("sha", "sse4.1"))], SOFT),
    sha512: first(&[("avx2", has!("avx2"))], SOFT),
    blake3: first(
      &[
        ("avx512", has!("avx512f", "avx512vl")),
        ("avx2", has!("avx2")),
        ("sse41", has!("sse4.1")),
        ("sse2", has!("sse2")),
      ],
      "portable",
    ),
    aes: first(
      &[
        ("vaes512", has!("avx512f", "vaes")),
        ("vaes256", has!("vaes")),
        ("aes-ni", has!("aes")),
      ],
      SOFT,
    ),
    aes_gcm: first(
      &[
        (
          "vaes-avx2",
          has!("aes", "pclmulqdq", "avx", "avx2", "vaes", "vpclmulqdq"),
        ),
        ("aes-ni-avx-movbe", has!("aes", "pclmulqdq", "avx", "movbe")),
        ("aes-ni-clmul", has!("aes", "pclmulqdq")),
        ("vpaes-ssse3", has!("ssse3")),
      ],
      "nohw",
    ),
    ghash: first(&[("clmul", has!("avx", "pclmulqdq"))], SOFT),
    chacha20: first(&[("avx2", has!("avx2")), ("ssse3", has!("ssse3"))], "nohw"),
    // s2n-bignum's assembly is built for Linux and Apple; Windows builds run AWS-LC's C code.
    keccak: if cfg!(any(target_os = "linux", target_vendor = "apple")) {
      "aws-lc-asm"
    } else {
      "aws-lc-c"
    },
  }
}

#[cfg(target_arch = "aarch64")]
fn restated() -> Restated {
  // std's "sha2" is SHA-1 and SHA-256, "sha3" SHA-512 and SHA-3 (and "sha2"): a little stricter
  // than the crates' tests of one or two HWCAP bits, and the same on every Armv8 CPU (SHA-256
  // requires SHA-1, SHA-512 requires SHA-256).
  macro_rules! has {
    ($($f:tt),+) => { $(std::arch::is_aarch64_feature_detected!($f))&&+ };
  }
  // RustCrypto's `cpufeatures`: on when the target feature is on at compile time (Apple targets
  // turn on "aes", "sha2" and "sha3"), else its run-time test on Linux, Android and Apple (its
  // "aes" is AES and PMULL), else off: Windows on Arm runs the crates' portable code.
  macro_rules! cpufeatures {
    ($f:tt $(, $also:tt)*) => {
      cfg!(target_feature = $f)
        || (cfg!(any(target_os = "linux", target_os = "android", target_vendor = "apple"))
          && has!($f $(, $also)*))
    };
  }
  Restated {
    sha1: first(&[("sha1", cpufeatures!("sha2"))], SOFT),
    sha256: first(&[("sha2", cpufeatures!("sha2"))], SOFT),
    sha512: first(&[("sha512", cpufeatures!("sha3"))], SOFT),
    // Neon is part of every aarch64 CPU: blake3 compiles it in without a run-time test, and ring
    // takes it as given.
    blake3: "neon",
    aes: first(&[("aes", cpufeatures!("aes", "pmull"))], SOFT),
    // ring: hardware AES with PMULL's GHASH, else the Neon vector-permutation AES and GHASH.
    aes_gcm: first(&[("aes+pmull", has!("aes", "pmull"))], "vpaes-neon"),
    ghash: first(&[("pmull", cpufeatures!("aes", "pmull"))], SOFT),
    chacha20: "neon",
    keccak: aws_lc_keccak(),
  }
}

/// AWS-LC picks its Keccak-f[1600] on aarch64 from its capability word: s2n-bignum's scalar code
/// (lazy rotations) on the Neoverse cores it recognises, else s2n-bignum's Neon code with the
/// SHA-3 instructions where the CPU has them (built when the compiler accepts them, as the zig
/// and Apple toolchains do), else the scalar ARMv8 assembly. s2n-bignum is built for Linux and
/// Apple only, and none of the assembly in a build without it.
#[cfg(target_arch = "aarch64")]
fn aws_lc_keccak() -> &'static str {
  let armcap = crate::awslc::armcap();
  if !armcap.has_asm {
    "aws-lc-c"
  } else if !cfg!(any(target_os = "linux", target_vendor = "apple")) {
    "aws-lc-armv8"
  } else if armcap.neoverse {
    "aws-lc-asm"
  } else if armcap.sha3 {
    "aws-lc-sha3"
  } else {
    "aws-lc-armv8"
  }
}

#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
fn restated() -> Restated {
  let unprobed = "unprobed";
  Restated {
    sha1: unprobed,
    sha256: unprobed,
    sha512: unprobed,
    blake3: unprobed,
    aes: unprobed,
    aes_gcm: unprobed,
    ghash: unprobed,
    chacha20: unprobed,
    keccak: unprobed,
  }
}

/// `cpuPaths()`: the path each backend takes here (see [`CpuPaths`]).
#[napi]
pub fn cpu_paths() -> CpuPaths {
  let crates = restated();
  let baseline = if cfg!(target_arch = "x86_64") {
    "sse2"
  } else {
    "portable"
  };
  CpuPaths {
    sha1: crates.sha1.to_string(),
    sha256: crates.sha256.to_string(),
    sha256_batch: first(
      &[("sha-ni", crate::arch::Sha256Ni::detect().is_some())],
      "one-by-one",
    )
    .to_string(),
    sha512: match crate::arch::Sha512Avx2::detect() {
      Some(_) => "avx2-bmi2",
      None => crates.sha512,
    }
    .to_string(),
    md5: SOFT.to_string(),
    sha3: if crate::hash::keccak::Permutation::get().is_own() {
      "bmi2-asm"
    } else {
      crates.keccak
    }
    .to_string(),
    blake2b: crate::hash::blake2::Blake2b::backend().name().to_string(),
    blake2s: crate::hash::blake2::Blake2s::backend().name().to_string(),
    blake3: crates.blake3.to_string(),
    aes: crates.aes.to_string(),
    aes_gcm: crates.aes_gcm.to_string(),
    ghash: crates.ghash.to_string(),
    chacha20: first(
      &[("avx512-ifma", crate::cipher::chacha::kernel().is_some())],
      crates.chacha20,
    )
    .to_string(),
    scrypt: first(
      &[("avx512vl", crate::arch::Avx512Vl::detect().is_some())],
      baseline,
    )
    .to_string(),
    bcrypt: first(&[("bextr", crate::arch::Bmi1::detect().is_some())], "shift").to_string(),
    argon2: argon2_rust::detected_backend().name().to_string(),
  }
}
