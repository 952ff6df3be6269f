//! Password hashing and key derivation: Argon2, bcrypt, scrypt, PBKDF2, HKDF.
//!
//! Each algorithm lives in its own file with its napi entry points; every async form is a
//! [`crate::task::Job`] run by the shared helper in `src/task.rs`. PBKDF2 and HKDF are generic
//! over the hash list in `src/hash/list.rs`. Inputs of async calls are copied (and wiped when
//! dropped) before the work leaves the JS thread.

pub mod argon2;
pub mod bcrypt;
pub mod blowfish;
pub mod hkdf;
pub mod pbkdf2;
pub mod scrypt;

use napi::bindgen_prelude::Unknown;
use napi::Env;
use zeroize::Zeroizing;

use crate::error::{CryptoError, CryptoResult};
use crate::hash::list::{Alg, Family};
use crate::js::{self, Cx, Value};

/// An owned copy of secret input bytes, wiped on drop.
pub type Secret = Zeroizing<Vec<u8>>;

/// Copies a byte argument (string as UTF-8, Buffer, TypedArray, DataView, ArrayBuffer).
pub fn secret(env: &Env, value: &Unknown, name: &str) -> CryptoResult<Secret> {
  Ok(js::read_arg(env, value, name)?.into_owned())
}

/// As [`secret`], but `undefined`/`null` (or an absent argument) give `None`.
pub fn opt_secret(env: &Env, value: &Option<Unknown>, name: &str) -> CryptoResult<Option<Secret>> {
  match value {
    None => Ok(None),
    Some(v) if Cx::from(env).is_nullish(Value::from(v)) => Ok(None),
    Some(v) => secret(env, v, name).map(Some),
  }
}

/// A hash id from the JS layer that PBKDF2/HKDF can use (a block hash with HMAC).
pub fn hmac_alg(id: u32) -> CryptoResult<Alg> {
  match Alg::from_id(id) {
    Some(a) if matches!(a.family(), Family::Fixed | Family::Blake2) => Ok(a),
    Some(a) => Err(CryptoError::invalid_value(
      "hash",
      "a fixed-output hash with HMAC",
      a.name(),
    )),
    None => Err(CryptoError::invalid_value("hash", "a known hash", id)),
  }
}

/// Largest derived key any KDF here returns in one call (1 GiB): a bound against typos.
pub const MAX_KEY_LEN: u32 = 1 << 30;

pub fn check_range(name: &str, value: u32, min: u32, max: u32) -> CryptoResult<u32> {
  if value < min || value > max {
    return Err(CryptoError::out_of_range(
      name,
      format!(">= {min} && <= {max}"),
      value,
    ));
  }
  Ok(value)
}

/// Base64 without padding over a 64-character alphabet (standard for PHC strings, the
/// `./A-Za-z0-9` one for bcrypt). Decoding ignores the unused low bits of the last character,
/// as the reference implementations do.
pub struct B64(&'static [u8; 64]);

pub const PHC_B64: B64 = B64(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/");
pub const BCRYPT_B64: B64 =
  B64(b"./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789");

impl B64 {
  pub fn encode(&self, data: &[u8]) -> String {
    let mut out = String::with_capacity(data.len().div_ceil(3) * 4);
    for chunk in data.chunks(3) {
      let b = [
        chunk[0],
        *chunk.get(1).unwrap_or(&0),
        *chunk.get(2).unwrap_or(&0),
      ];
      let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
      let chars = chunk.len() + 1;
      for i in 0..chars {
        out.push(self.0[((n >> (18 - 6 * i)) & 63) as usize] as char);
      }
    }
    out
  }

  fn value(&self, c: u8) -> Option<u32> {
    self.0.iter().position(|&x| x == c).map(|v| v as u32)
  }

  /// `None` for characters outside the alphabet or an impossible length (4k+1).
  pub fn decode(&self, s: &str) -> Option<Vec<u8>> {
    let s = s.as_bytes();
    if s.len() % 4 == 1 {
      return None;
    }
    let mut out = Vec::with_capacity(s.len() * 3 / 4);
    for chunk in s.chunks(4) {
      let mut n = 0u32;
      for (i, &c) in chunk.iter().enumerate() {
        n |= self.value(c)? << (18 - 6 * i);
      }
      let bytes = n.to_be_bytes();
      out.extend_from_slice(&bytes[1..chunk.len()]);
    }
    Some(out)
  }

  /// As [`B64::decode`], but refuses non-canonical text (RFC 4648 §3.5): the unused low bits of
  /// the last character must be zero, so each byte string has exactly one encoding. What age
  /// requires of every base64 field.
  pub fn decode_canonical(&self, s: &str) -> Option<Vec<u8>> {
    let unused = match s.len() % 4 {
      2 => 15,
      3 => 3,
      _ => 0,
    };
    let last = s.as_bytes().last().map_or(Some(0), |&c| self.value(c))?;
    if last & unused != 0 {
      return None;
    }
    self.decode(s)
  }
}

#[cfg(test)]
mod tests {
  use super::*;

  #[test]
  fn b64_round_trip_and_rejects() {
    for len in 0..40 {
      let data: Vec<u8> = (0..len as u8).map(|x| x.wrapping_mul(37)).collect();
      let enc = PHC_B64.encode(&data);
      assert!(!enc.contains('='));
      assert_eq!(PHC_B64.decode(&enc).unwrap(), data);
      assert_eq!(BCRYPT_B64.decode(&BCRYPT_B64.encode(&data)).unwrap(), data);
    }
    assert!(PHC_B64.decode("abcde").is_none());
    assert!(PHC_B64.decode("ab$d").is_none());
    assert!(PHC_B64.decode("é").is_none());
    // "c29tZXNhbHQ" = "somesalt" (RFC-style PHC salts).
    assert_eq!(PHC_B64.decode("c29tZXNhbHQ").unwrap(), b"somesalt");
    // Canonical: "c29tZXNhbHR" has the same bytes with a non-zero unused bit.
    assert_eq!(PHC_B64.decode("c29tZXNhbHR").unwrap(), b"somesalt");
    assert!(PHC_B64.decode_canonical("c29tZXNhbHR").is_none());
    assert_eq!(
      PHC_B64.decode_canonical("c29tZXNhbHQ").unwrap(),
      b"somesalt"
    );
    // Two characters (one byte, 4 unused bits): "AA" is 0x00, "AB" is not canonical.
    assert_eq!(PHC_B64.decode_canonical("AA").unwrap(), [0]);
    assert!(PHC_B64.decode_canonical("AB").is_none());
    assert_eq!(PHC_B64.decode_canonical("").unwrap(), b"");
    for len in 0..40 {
      let data: Vec<u8> = (0..len as u8).map(|x| x.wrapping_mul(91)).collect();
      assert_eq!(
        PHC_B64.decode_canonical(&PHC_B64.encode(&data)).unwrap(),
        data
      );
    }
  }
}
