//! cryptographer.js native core. Module wiring only; each family lives in its own module.
#![deny(clippy::all)]

mod algorithms;
mod blake2;
mod bytes;
mod cipher;
mod error;
mod hash;
mod kdf;
mod md;
mod pool;
#[cfg(test)]
mod proptests;
mod random;
mod raw;
mod rmd160;
mod staging;
mod task;
mod util;

use napi::bindgen_prelude::Object;
use napi::{sys, Env, JsValue, Result};
use napi_derive::napi;

/// Entry points written directly against N-API (the hot one-shot paths), by JS name.
const RAW_EXPORTS: &[(&std::ffi::CStr, sys::napi_callback)] = &[
  (c"hash", Some(hash::hash)),
  (c"hashWith", Some(hash::hash_with)),
  (c"hmac", Some(hash::hmac)),
  (c"hasherNew", Some(hash::hasher_new)),
  (c"hmacNew", Some(hash::hmac_new)),
  (c"hasherUpdate", Some(hash::hasher_update)),
  (c"hasherDigest", Some(hash::hasher_digest)),
  (c"hasherCopy", Some(hash::hasher_copy)),
  (c"hasherReset", Some(hash::hasher_reset)),
  (c"cipher", Some(cipher::api::cipher)),
  (c"cipherKey", Some(cipher::api::cipher_key)),
];

#[napi(module_exports)]
pub fn register_raw(exports: Object, env: Env) -> Result<()> {
  for (name, cb) in RAW_EXPORTS {
    let mut f = std::ptr::null_mut();
    let status = unsafe {
      sys::napi_create_function(
        env.raw(),
        name.as_ptr(),
        name.to_bytes().len() as isize,
        *cb,
        std::ptr::null_mut(),
        &mut f,
      )
    };
    if status != sys::Status::napi_ok {
      return Err(napi::Error::from_reason(format!("cannot create {name:?}")));
    }
    unsafe { sys::napi_set_named_property(env.raw(), exports.raw(), name.as_ptr(), f) };
  }
  Ok(())
}
