//! The numbers the JS layer would otherwise retype, read once from here (`nativeContract()`):
//! the `op` bits and key families of the raw `cipher` calls, the longest output of a KDF or XOF,
//! the Argon2 variant ids and versions, the longest stored Argon2 string the parser reads, the
//! default ceilings on a stored Argon2 or bcrypt hash's costs, and scrypt's default `maxmem` (its
//! memory rule itself is `scryptMemory()`).
//! The tables themselves (modes, hashes, stream algorithms, key algorithms) have their own
//! exports (`cipherModes()`, `algorithms()`, ...); `lib/native.d.ts` types the raw exports, and
//! `__test__/native-contract.spec.js` holds `lib/` to both.

use napi_derive::napi;

use crate::cipher::api::{OP_DECRYPT, OP_NO_PADDING};
use crate::cipher::modes::KeyFamily;
use crate::kdf::argon2::{
  DEFAULT_MAX_MEMORY_COST, DEFAULT_MAX_PARALLELISM, DEFAULT_MAX_TIME_COST, MAX_PHC_LEN, VARIANTS,
  VERSIONS,
};
use crate::kdf::bcrypt::DEFAULT_MAX_ROUNDS;
use crate::kdf::scrypt::DEFAULT_MAXMEM;
use crate::kdf::MAX_KEY_LEN;

/// The constants `lib/` reads instead of retyping them, each named by what it is.
#[napi(object)]
pub struct NativeContract {
  /// The `op` bit of `cipher()` / `cipherAsync()` that decrypts (bits 0..7 are the mode id).
  pub cipher_op_decrypt: u32,
  /// The `op` bit that turns PKCS#7 padding off.
  pub cipher_op_no_padding: u32,
  /// The key families of `cipherKey(family, key)`, by id (`cipherModes()` names each mode's).
  pub cipher_families: Vec<String>,
  /// The longest key a KDF, or output an XOF, returns in one call (2^30 bytes).
  pub max_output_length: u32,
  /// The Argon2 variants by id (`variant` of `argon2Hash`), as PHC strings name them.
  pub argon2_variants: Vec<String>,
  /// The Argon2 versions the parser and the hash accept, the default first.
  pub argon2_versions: Vec<u32>,
  /// The longest Argon2 PHC string the parser reads (characters).
  pub max_phc_length: u32,
  /// The ceilings on a stored Argon2 string's costs when none are given: memory (KiB), passes,
  /// lanes.
  pub argon2_max_memory_cost: u32,
  pub argon2_max_time_cost: u32,
  pub argon2_max_parallelism: u32,
  /// The ceiling on a stored bcrypt hash's cost when none is given.
  pub bcrypt_max_rounds: u32,
  /// scrypt's `maxmem` when none is given, in bytes (Node's 32 MiB).
  pub scrypt_maxmem: f64,
}

#[napi]
pub fn native_contract() -> NativeContract {
  NativeContract {
    cipher_op_decrypt: OP_DECRYPT,
    cipher_op_no_padding: OP_NO_PADDING,
    cipher_families: KeyFamily::ALL
      .iter()
      .map(|f| f.name().to_string())
      .collect(),
    max_output_length: MAX_KEY_LEN,
    argon2_variants: VARIANTS.iter().map(|(_, n)| n.to_string()).collect(),
    argon2_versions: VERSIONS.iter().map(|&(_, v)| v).collect(),
    max_phc_length: MAX_PHC_LEN as u32,
    argon2_max_memory_cost: DEFAULT_MAX_MEMORY_COST,
    argon2_max_time_cost: DEFAULT_MAX_TIME_COST,
    argon2_max_parallelism: DEFAULT_MAX_PARALLELISM,
    bcrypt_max_rounds: DEFAULT_MAX_ROUNDS,
    scrypt_maxmem: DEFAULT_MAXMEM,
  }
}
