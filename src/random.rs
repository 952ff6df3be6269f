//! The operating system's CSPRNG (through `ring`): the one random source of the crate.

use napi::bindgen_prelude::Unknown;
use napi::{Env, Result};
use napi_derive::napi;
use ring::rand::SecureRandom;

use crate::error::{Code, CryptoError, CryptoResult, OrThrow};
use crate::js::{Cx, Value};

/// Fills `buf` from the operating system's CSPRNG.
pub fn fill(buf: &mut [u8]) -> CryptoResult<()> {
  ring::rand::SystemRandom::new().fill(buf).map_err(|_| {
    CryptoError::new(
      Code::Operation,
      "the operating system's random source failed",
    )
  })
}

/// `n` random bytes.
pub fn bytes(n: usize) -> CryptoResult<Vec<u8>> {
  let mut v = vec![0u8; n];
  fill(&mut v)?;
  Ok(v)
}

/// Fills `out` (any ArrayBufferView) from the operating system's CSPRNG.
#[napi]
pub fn random_fill(env: &Env, out: Unknown) -> Result<()> {
  let mut out = Cx::from(env).out(Value::from(&out)).or_throw(env)?;
  fill(out.writable([])).or_throw(env)
}
