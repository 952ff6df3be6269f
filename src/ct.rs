//! Constant-time comparison: every tag, MAC and password-hash check of the crate goes through
//! [`eq`]; `timingSafeEqual` is the same for JavaScript.

use napi::bindgen_prelude::Unknown;
use napi::{Env, Result};
use napi_derive::napi;

use crate::error::{Code, CryptoError, OrThrow};
use crate::js;

/// Equality without data-dependent branches or early exit (the lengths are not secret).
pub fn eq(a: &[u8], b: &[u8]) -> bool {
  let diff = a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y));
  std::hint::black_box(diff) == 0 && a.len() == b.len()
}

/// Constant-time equality of two byte strings of the same length.
#[napi]
pub fn timing_safe_equal(env: &Env, a: Unknown, b: Unknown) -> Result<bool> {
  let a = js::read_arg(env, &a, "buf1").or_throw(env)?;
  let b = js::read_arg(env, &b, "buf2").or_throw(env)?;
  let (a, b) = (a.as_slice(), b.as_slice());
  if a.len() != b.len() {
    return Err(
      CryptoError::new(
        Code::OutOfRange,
        "Input buffers must have the same byte length",
      )
      .into_napi(env),
    );
  }
  Ok(eq(a, b))
}
