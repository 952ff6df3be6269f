//! cryptographer.js native core.
//!
//! Where things live. The N-API boundary is `js/` (argument reading, byte views, result buffers,
//! handles to native state, errors into JS). Three modules may use `unsafe`: `js/` (N-API),
//! `arch/` (SIMD kernels and CPU checks) and `awslc/` (the AWS-LC calls aws-lc-rs does not
//! offer); the rest of the crate denies `unsafe_code`.
//! Algorithms are listed once per family, and everything else is generic over that list:
//! - a hash: one row in `hash_algorithms!` (`hash/list.rs`, about 1 line, plus a `HashCore`
//!   impl of ~20 lines in `hash/backends.rs` if its backend is not a RustCrypto `Digest`) gives
//!   the one-shot, incremental, async, HMAC, PBKDF2 and HKDF forms (`hash/api.rs`, `kdf/`), and
//!   the JS API (`lib/hash.js`) reads the list through `algorithms()`; files are read
//!   (`file_io.rs`) and hashed natively by `hash/file.rs` (BLAKE3 on several cores:
//!   `hash/blake3_tree.rs`), streams and async iterables feed the incremental form from
//!   `lib/hash-stream.js`. `hash/mod.rs` describes the family's files;
//! - a cipher mode: a `Mode` variant and its row in `MODES` (`cipher/modes.rs`; the row's place is
//!   checked at compile time), its arm in `ModeKey::new` (`cipher/keys.rs`) and in the dispatch
//!   (`cipher/dispatch.rs`); an AEAD implements `DetachedAead` (`cipher/aead.rs`: one framing, tag
//!   checked before release, output wiped on failure); `cipher/api.rs` and `lib/cipher.js` read the
//!   table through `cipherModes()`;
//! - a container format: a folder or file in `formats/`, over the primitives. The library's AEAD
//!   stream format (`formats/aead_stream.rs`, over the STREAM construction of
//!   `formats/stream.rs`) lists its algorithms once; a format implements `formats::Format`, and
//!   its files run through `formats/file.rs`, a pipeline generic over the format;
//! - a KDF: one file in `kdf/` with a `task::Job` (the async form, cancellation and the sync form
//!   come from `task.rs`) and its `#[napi]` entry points, plus its wrapper in `lib/kdf.js`;
//! - a public-key algorithm: one row in `pk::ALGS` (`pk/mod.rs`), an arm in its `with_curve!`
//!   for an elliptic curve (the generic ECDSA/ECDH of `pk/ec.rs` then covers it), and its OIDs /
//!   JWK names in the key layer (`lib/keys/`, the one parser of every key form);
//! - a KEM: a type implementing `pk::kem::Kem` and its name in the one `kems!` line
//!   (`pk/kem.rs`: ML-KEM over AWS-LC, X-Wing over ML-KEM-768 and X25519); `lib/kem.js` reads the
//!   list through `kemAlgorithms()`, and `lib/keys/` has one row of OIDs per KEM;
//! - batch calls (many inputs, one crossing; the async form split across the libuv pool): one
//!   loop over any per-item work in `batch.rs`; the hash and HMAC entry points are in
//!   `hash/batch.rs`, the cipher ones in `cipher/batch.rs`;
//! - a key type (kept native state): a type implementing `js::Kept` (a tag and a name), held by
//!   JavaScript through `Cx::keep`/`Cx::kept`.
//!
//! Shared pieces, one copy each: `error.rs` (codes and messages), `task.rs` (async work and
//! cancellation), `budget.rs` (the process's memory budget for Argon2 and scrypt), `staging.rs`
//! and `pool.rs` (copies of async inputs, reusable buffers), `random.rs` (the CSPRNG), `ct.rs`
//! (constant-time comparison), `hash/core.rs` (the `HashCore` trait and the generic HMAC over
//! it), `hash/md.rs` (one Merkle–Damgård layer over any block function: MD4, RIPEMD-160 in
//! `hash/rmd160.rs`, and PBKDF2's fast SHA PRF, which a hash gets by naming its block function
//! in its `hash_algorithms!` row).
#![deny(clippy::all)]
#![deny(unsafe_code)]
// Test builds do not register the `#[napi]` entry points, which then look unused.
#![cfg_attr(test, allow(dead_code))]

#[allow(unsafe_code)]
mod arch;
#[allow(unsafe_code)]
mod awslc;
mod batch;
#[cfg(test)]
mod benches;
mod budget;
mod cipher;
mod contract;
mod cpu;
mod ct;
mod error;
mod file_io;
mod formats;
#[cfg(feature = "fuzzing")]
#[doc(hidden)]
pub mod fuzzing;
mod hash;
#[allow(unsafe_code)]
mod js;
mod kdf;
#[cfg(test)]
mod layers;
mod pk;
mod pool;
#[cfg(test)]
mod proptests;
mod random;
mod staging;
mod task;

use napi::bindgen_prelude::Object;
use napi::{Env, Result};
use napi_derive::napi;

/// Entry points written directly against N-API (the hot synchronous paths), by JS name.
static RAW_EXPORTS: [(&std::ffi::CStr, js::Entry); 15] = [
  (c"hash", hash::api::hash),
  (c"hashWith", hash::api::hash_with),
  (c"hmac", hash::api::hmac),
  (c"hasherNew", hash::api::hasher_new),
  (c"hmacNew", hash::api::hmac_new),
  (c"hasherUpdate", hash::api::hasher_update),
  (c"hasherDigest", hash::api::hasher_digest),
  (c"hasherCopy", hash::api::hasher_copy),
  (c"hasherReset", hash::api::hasher_reset),
  (c"cipher", cipher::api::cipher),
  (c"cipherKey", cipher::api::cipher_key),
  (c"pkPrepare", pk::pk_prepare),
  (c"kemPrepare", pk::kem::kem_prepare),
  (c"mldsaPrepare", pk::mldsa::mldsa_prepare),
  (c"cipherBatch", cipher::batch::cipher_batch),
];

/// Raw entry points taking all of their arguments (the batch calls: the items are arguments).
static RAW_REST_EXPORTS: [(&std::ffi::CStr, js::RestEntry); 1] =
  [(c"hashBatch", hash::batch::hash_batch)];

#[napi(module_exports)]
pub fn register_raw(exports: Object, env: Env) -> Result<()> {
  js::keep_loaded();
  js::register(&env, &exports, &RAW_EXPORTS)?;
  js::register(&env, &exports, &RAW_REST_EXPORTS)
}
