//! Utilities: constant-time comparison and the algorithm list for the JS layer.

use napi::bindgen_prelude::Unknown;
use napi::{Env, Result};
use napi_derive::napi;

use crate::algorithms::{Alg, Family, HashCore, State, MAX_XOF_LEN};
use crate::bytes;
use crate::error::{Code, CryptoError, OrThrow};

/// One hash algorithm as the JS layer sees it.
#[napi(object)]
pub struct AlgorithmInfo {
  pub name: String,
  pub id: u32,
  /// Default digest length in bytes.
  pub output_length: u32,
  /// Largest `outputLength` the algorithm accepts.
  pub max_output_length: u32,
  /// Block length in bytes; 0 for XOFs (no HMAC).
  pub block_length: u32,
  /// Option names the algorithm accepts besides `outputFormat`.
  pub options: Vec<String>,
}

/// The hash list (`src/algorithms.rs`), in id order.
#[napi]
pub fn algorithms() -> Vec<AlgorithmInfo> {
  Alg::ALL
    .iter()
    .map(|&a| {
      let s = State::new(a);
      AlgorithmInfo {
        name: a.name().to_string(),
        id: a as u32,
        output_length: s.output_len() as u32,
        max_output_length: match a.family() {
          Family::Shake | Family::Blake3 => MAX_XOF_LEN,
          Family::Fixed | Family::Blake2 => s.output_len() as u32,
        },
        block_length: s.block_len() as u32,
        options: a.family().options().iter().map(|o| o.to_string()).collect(),
      }
    })
    .collect()
}

/// Constant-time equality of two byte strings of the same length.
#[napi]
pub fn timing_safe_equal(env: Env, a: Unknown, b: Unknown) -> Result<bool> {
  let a = bytes::read_arg(&env, &a, "buf1").or_throw(&env)?;
  let b = bytes::read_arg(&env, &b, "buf2").or_throw(&env)?;
  let (a, b) = (a.as_slice(), b.as_slice());
  if a.len() != b.len() {
    return Err(
      CryptoError::new(
        Code::OutOfRange,
        "Input buffers must have the same byte length",
      )
      .into_napi(&env),
    );
  }
  Ok(ct_eq(a, b))
}

/// Equality without data-dependent branches or early exit.
pub fn ct_eq(a: &[u8], b: &[u8]) -> bool {
  let diff = a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y));
  std::hint::black_box(diff) == 0 && a.len() == b.len()
}
