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
  let a = Alg::from_js_id(id, "hash")?;
  if !matches!(a.family(), Family::Fixed | Family::Blake2) {
    return Err(CryptoError::invalid_value(
      "hash",
      "a fixed-output hash with HMAC",
      a.name(),
    ));
  }
  Ok(a)
}

/// Largest derived key any KDF here returns in one call (1 GiB): a bound against typos, the same
/// as a hash's longest XOF output.
pub const MAX_KEY_LEN: u32 = crate::hash::list::MAX_XOF_LEN;

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
/// `./A-Za-z0-9` one for bcrypt). Decoding is canonical (RFC 4648 §3.5): the unused low bits of
/// the last character must be zero, so each byte string has exactly one encoding, as the Argon2
/// reference, bcrypt (OpenBSD, crypt_blowfish, pyca/bcrypt) and age require.
pub struct B64(&'static [u8; 64]);

pub const PHC_B64: B64 = B64(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/");
pub const BCRYPT_B64: B64 =
  B64(b"./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789");

/// Why text is not canonical base64.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum B64Error {
  /// A character outside the alphabet (`=` padding included), or a length of 4k + 1.
  NotBase64,
  /// Base64 whose last character has unused low bits set: another spelling of the bytes of the
  /// canonical text, which no encoder writes.
  NonCanonical,
}

impl B64Error {
  /// What the text is, for a message naming it ("a salt {what}").
  pub fn what(self) -> &'static str {
    match self {
      B64Error::NotBase64 => "that is not base64",
      B64Error::NonCanonical => {
        "that is not canonical base64 (the unused low bits of its last character are set, a \
         spelling no encoder writes and the reference implementations refuse; clear them to use it)"
      }
    }
  }
}

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

  /// The bytes of canonical base64 text.
  pub fn decode(&self, s: &str) -> Result<Vec<u8>, B64Error> {
    let s = s.as_bytes();
    let unused = match s.len() % 4 {
      1 => return Err(B64Error::NotBase64),
      2 => 15,
      3 => 3,
      _ => 0,
    };
    let mut out = Vec::with_capacity(s.len() * 3 / 4);
    let mut last = 0;
    for chunk in s.chunks(4) {
      let mut n = 0u32;
      for (i, &c) in chunk.iter().enumerate() {
        last = self.value(c).ok_or(B64Error::NotBase64)?;
        n |= last << (18 - 6 * i);
      }
      let bytes = n.to_be_bytes();
      out.extend_from_slice(&bytes[1..chunk.len()]);
    }
    if last & unused != 0 {
      return Err(B64Error::NonCanonical);
    }
    Ok(out)
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
    let not = Err(B64Error::NotBase64);
    assert_eq!(PHC_B64.decode("abcde"), not);
    assert_eq!(PHC_B64.decode("ab$d"), not);
    assert_eq!(PHC_B64.decode("é"), not);
    assert_eq!(PHC_B64.decode("c29tZXNhbHQ="), not);
    // "c29tZXNhbHQ" = "somesalt" (RFC-style PHC salts); "c29tZXNhbHR" spells the same bytes
    // with a non-zero unused bit.
    assert_eq!(PHC_B64.decode("c29tZXNhbHQ").unwrap(), b"somesalt");
    assert_eq!(PHC_B64.decode("c29tZXNhbHR"), Err(B64Error::NonCanonical));
    // Two characters (one byte, 4 unused bits): "AA" is 0x00, "AB".."AP" are not canonical;
    // three characters (two bytes, 2 unused bits).
    assert_eq!(PHC_B64.decode("AA").unwrap(), [0]);
    for c in "BCDEFGHIJKLMNOP".chars() {
      assert_eq!(
        PHC_B64.decode(&format!("A{c}")),
        Err(B64Error::NonCanonical)
      );
    }
    assert_eq!(PHC_B64.decode("AAE"), Ok(vec![0, 1]));
    assert_eq!(PHC_B64.decode("AAB"), Err(B64Error::NonCanonical));
    assert_eq!(PHC_B64.decode("").unwrap(), b"");
    // bcrypt's alphabet: '.' is 0, so a 22-character salt ends in one of ".Oeu".
    for (i, c) in BCRYPT_B64.0.iter().enumerate() {
      let salt = format!("{}{}", "C".repeat(21), *c as char);
      assert_eq!(BCRYPT_B64.decode(&salt).is_ok(), i % 16 == 0, "{salt}");
    }
  }
}
