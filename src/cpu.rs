//! `cpuPaths()`: the code path each backend takes on this CPU, so a silent fall back to portable
//! code shows in benchmark headers and CI logs.
//!
//! Our own choices (`crate::arch`, `hash::blake2`) are asked directly. The crates do not export
//! theirs, so their run-time tests are restated here from their sources at the versions
//! `Cargo.lock` pins (a version bump should re-read them): ring 0.17 (`cpu/intel.rs` and each
//! algorithm's dispatch), RustCrypto sha1/sha2 0.11 and aes 0.9 (`cpufeatures`), polyval 0.7,
//! blake3 1.8 (`platform.rs`), argon2-rust 1.1 (`fill_block/mod.rs`). Those restatements are
//! x86-64 only: on other architectures (where the crates use NEON and the ARMv8 crypto
//! extensions) the crates' rows read `'unprobed'` rather than a guess.

use napi_derive::napi;

/// The path each backend took on this CPU (see `cpuPaths()` in index.d.ts for the values).
#[napi(object)]
pub struct CpuPaths {
  /// SHA-1 (RustCrypto `sha1`): `'sha-ni'` or `'soft'`.
  pub sha1: String,
  /// SHA-256 and SHA-224 (RustCrypto `sha2`): `'sha-ni'` or `'soft'`.
  pub sha256: String,
  /// SHA-256 batch hashing (ours, several messages interleaved): `'sha-ni'` or `'one-by-one'`.
  pub sha256_batch: String,
  /// SHA-384, SHA-512, SHA-512/224 and SHA-512/256 (one block function for hashing, HMAC,
  /// PBKDF2, batches and streams): `'avx2-bmi2'` (ours, `arch::Sha512Avx2`: the message schedule
  /// of two blocks in AVX2 registers, scalar rounds with BMI2 `rorx`), else RustCrypto `sha2`'s
  /// compression, `'avx2'` or `'soft'`.
  pub sha512: String,
  /// MD5 (ours, `hash/md.rs`; scalar: MD5 is one serial chain): `'soft'`.
  pub md5: String,
  /// Every Keccak hash (SHA-3, SHAKE, Keccak-256: our sponge, `hash/keccak.rs`): `'bmi2-asm'`
  /// (our x86-64 assembly with BMI1/BMI2, where it measured faster than AWS-LC's in this process;
  /// asking measures it), else AWS-LC's Keccak-f[1600], fixed when AWS-LC is compiled:
  /// `'aws-lc-asm'` (s2n-bignum assembly: x86-64 Linux and macOS), `'aws-lc-c'` (x86-64 Windows),
  /// `'unprobed'` elsewhere.
  pub sha3: String,
  /// BLAKE2b: `'simd'` (`blake2b_simd`) or `'scalar'` (ours), whichever measured faster here on
  /// the first BLAKE2b hash (`hash::blake2::Blake2b::backend`; asking measures it); `'scalar'` off x86-64.
  #[napi(js_name = "blake2b")]
  pub blake2b: String,
  /// BLAKE2s: the same choice, between `blake2s_simd` and ours.
  #[napi(js_name = "blake2s")]
  pub blake2s: String,
  /// BLAKE3: `'avx512'`, `'avx2'`, `'sse41'`, `'sse2'` or `'portable'`.
  pub blake3: String,
  /// AES in every mode but 96-bit-IV GCM (RustCrypto `aes`): `'vaes512'`, `'vaes256'`,
  /// `'aes-ni'` or `'soft'`.
  pub aes: String,
  /// AES-GCM with a 96-bit IV and a 16-byte tag (ring; other IV and tag lengths: `aes` + `ghash`): `'vaes-avx2'`, `'aes-ni-avx-movbe'`, `'aes-ni-clmul'`,
  /// `'vpaes-ssse3'` or `'nohw'`.
  pub aes_gcm: String,
  /// GHASH of GCM with other IV lengths (`polyval`): `'clmul'` or `'soft'`.
  pub ghash: String,
  /// ChaCha20-Poly1305 and XChaCha20-Poly1305 (ring's ChaCha20; Poly1305 is its portable code):
  /// `'avx2'`, `'ssse3'` or `'nohw'`.
  pub chacha20: String,
  /// scrypt's Salsa20/8 core (ours): `'avx512vl'` or `'sse2'`.
  pub scrypt: String,
  /// bcrypt's Blowfish round index (ours): `'bextr'` (AMD with BMI1) or `'shift'`.
  pub bcrypt: String,
  /// Argon2 block function (`argon2-rust`): `'avx512'`, `'avx2'`, `'sse2'` or `'portable'`.
  pub argon2: String,
}

/// The first name whose condition holds, else `fallback`.
fn first(paths: &[(&'static str, bool)], fallback: &'static str) -> String {
  paths
    .iter()
    .find(|(_, on)| *on)
    .map_or(fallback, |(name, _)| name)
    .to_string()
}

/// `cpuPaths()`: the path each backend takes here (see [`CpuPaths`]).
#[napi]
pub fn cpu_paths() -> CpuPaths {
  #[cfg(target_arch = "x86_64")]
  macro_rules! has {
    ($($f:tt),+) => { $(std::arch::is_x86_feature_detected!($f))&&+ };
  }
  #[cfg(not(target_arch = "x86_64"))]
  macro_rules! has {
    ($($f:tt),+) => {
      false
    };
  }
  let soft = "soft";
  // The crates' own run-time choices are restated for x86-64 only (see the module comment).
  let probed = |path: String| {
    if cfg!(target_arch = "x86_64") {
      path
    } else {
      "unprobed".to_string()
    }
  };
  CpuPaths {
    sha1: probed(first(
      &[("sha-ni", has!("sha", "sse2", "ssse3", "sse4.1"))],
      soft,
    )),
    sha256: probed(first(&[("sha-ni", has!("sha", "sse4.1"))], soft)),
    sha256_batch: first(
      &[("sha-ni", crate::arch::Sha256Ni::detect().is_some())],
      "one-by-one",
    ),
    sha512: match crate::arch::Sha512Avx2::detect() {
      Some(_) => "avx2-bmi2".to_string(),
      None => probed(first(&[("avx2", has!("avx2"))], soft)),
    },
    md5: soft.to_string(),
    sha3: if crate::hash::keccak::Permutation::get().is_own() {
      "bmi2-asm"
    } else if cfg!(all(
      target_arch = "x86_64",
      any(target_os = "linux", target_vendor = "apple")
    )) {
      "aws-lc-asm"
    } else if cfg!(target_arch = "x86_64") {
      "aws-lc-c"
    } else {
      "unprobed"
    }
    .to_string(),
    blake2b: crate::hash::blake2::Blake2b::backend().name().to_string(),
    blake2s: crate::hash::blake2::Blake2s::backend().name().to_string(),
    blake3: probed(first(
      &[
        ("avx512", has!("avx512f", "avx512vl")),
        ("avx2", has!("avx2")),
        ("sse41", has!("sse4.1")),
        ("sse2", has!("sse2")),
      ],
      "portable",
    )),
    aes: probed(first(
      &[
        ("vaes512", has!("avx512f", "vaes")),
        ("vaes256", has!("vaes")),
        ("aes-ni", has!("aes")),
      ],
      soft,
    )),
    aes_gcm: probed(first(
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
    )),
    ghash: probed(first(&[("clmul", has!("avx", "pclmulqdq"))], soft)),
    chacha20: probed(first(
      &[("avx2", has!("avx2")), ("ssse3", has!("ssse3"))],
      "nohw",
    )),
    scrypt: first(
      &[("avx512vl", crate::arch::Avx512Vl::detect().is_some())],
      "sse2",
    ),
    bcrypt: first(&[("bextr", crate::arch::Bmi1::detect().is_some())], "shift"),
    argon2: probed(first(
      &[
        ("avx512", has!("avx512f")),
        ("avx2", has!("avx2")),
        ("sse2", has!("sse2")),
      ],
      "portable",
    )),
  }
}
