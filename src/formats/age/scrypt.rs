//! The scrypt recipient type (age-encryption.org/v1, "The scrypt recipient type"): the file key
//! wrapped under a passphrase.
//!
//! ```text
//! -> scrypt <base64 16-byte salt> <log2 N>
//! <base64 ChaCha20-Poly1305(wrap key, nonce 0, file key)>    (32 bytes)
//! wrap key = scrypt(passphrase, "age-encryption.org/v1/scrypt" ‖ salt, N, r = 8, p = 1, 32)
//! ```
//!
//! The identity refuses, before any scrypt work (an scrypt stanza beside any other stanza, the
//! spec's rule which keeps passphrase files authenticated by the passphrase alone, is refused
//! for every identity by `begin_decrypt`): arguments
//! that are not exactly a canonical 16-byte salt and a decimal `log2 N` without leading zeros, a
//! body that is not 32 bytes, and a work factor above the caller's ceiling.

use zeroize::Zeroizing;

use super::header::{decode_b64, malformed, Stanza};
use super::{open_file_key, seal_file_key, FileKey, Identity, Recipient};
use crate::error::{CryptoError, CryptoResult};
use crate::formats::check_passphrase;
use crate::kdf::scrypt::{derive, ScryptParams};
use crate::kdf::PHC_B64;
use crate::task::Cancel;

pub const TYPE: &str = "scrypt";
const LABEL: &[u8] = b"age-encryption.org/v1/scrypt";
const SALT_LEN: usize = 16;

/// Work factors (log2 N) accepted anywhere: age's own range.
const MIN_WORK_FACTOR: u32 = 1;
const MAX_WORK_FACTOR: u32 = 30;

/// scrypt's parameters at work factor `log_n` (r = 8, p = 1).
fn params(log_n: u32) -> CryptoResult<ScryptParams> {
  // Memory is bounded by the work factor, which the callers bound (and by the memory budget).
  ScryptParams::new((1u64 << log_n) as f64, 8, 1, 32, f64::INFINITY)
}

/// The working memory of scrypt at work factor `log_n`, in bytes (128 MiB + 3 KiB at 17).
pub fn memory(log_n: u32) -> u64 {
  params(log_n).map_or(0, |p| p.memory())
}

/// The wrap key for `salt` at work factor `log_n`.
fn wrap_key(
  passphrase: &[u8],
  salt: &[u8],
  log_n: u32,
  cancel: &Cancel,
) -> CryptoResult<Zeroizing<[u8; 32]>> {
  let params = params(log_n)?;
  let mut s = Vec::with_capacity(LABEL.len() + SALT_LEN);
  s.extend_from_slice(LABEL);
  s.extend_from_slice(salt);
  let mut key = Zeroizing::new([0u8; 32]);
  derive(passphrase, &s, params, &mut key[..], cancel)?;
  Ok(key)
}

fn check_work_factor(name: &str, v: u32) -> CryptoResult<u32> {
  crate::kdf::check_range(name, v, MIN_WORK_FACTOR, MAX_WORK_FACTOR)
}

/// Encrypts to a passphrase at work factor `log_n`.
pub struct ScryptRecipient<'a> {
  passphrase: &'a [u8],
  log_n: u32,
}

impl<'a> ScryptRecipient<'a> {
  pub fn new(passphrase: &'a [u8], log_n: u32) -> CryptoResult<Self> {
    check_passphrase(passphrase)?;
    check_work_factor("options.workFactor", log_n)?;
    Ok(ScryptRecipient { passphrase, log_n })
  }
}

impl Recipient for ScryptRecipient<'_> {
  fn wrap(&self, file_key: &FileKey, cancel: &Cancel) -> CryptoResult<Vec<Stanza>> {
    let mut salt = [0u8; SALT_LEN];
    crate::random::fill(&mut salt)?;
    let key = wrap_key(self.passphrase, &salt, self.log_n, cancel)?;
    Ok(vec![Stanza {
      kind: TYPE.to_string(),
      args: vec![PHC_B64.encode(&salt), self.log_n.to_string()],
      body: seal_file_key(&key, file_key)?,
    }])
  }

  fn alone(&self) -> bool {
    true
  }
}

/// Decrypts with a passphrase, refusing work factors above `max_log_n`.
pub struct ScryptIdentity<'a> {
  passphrase: &'a [u8],
  max_log_n: u32,
}

impl<'a> ScryptIdentity<'a> {
  pub fn new(passphrase: &'a [u8], max_log_n: u32) -> CryptoResult<Self> {
    check_passphrase(passphrase)?;
    check_work_factor("options.maxWorkFactor", max_log_n)?;
    Ok(ScryptIdentity {
      passphrase,
      max_log_n,
    })
  }

  /// The salt and work factor of an scrypt stanza, checked.
  fn read(&self, s: &Stanza) -> CryptoResult<([u8; SALT_LEN], u32)> {
    let [salt, log_n] = s.args.as_slice() else {
      return Err(malformed(
        "an scrypt stanza without exactly two arguments (salt, work factor)",
      ));
    };
    let salt = decode_b64(salt.as_bytes())
      .and_then(|v| <[u8; SALT_LEN]>::try_from(v).ok())
      .ok_or_else(|| malformed("an scrypt salt that is not 16 bytes of canonical base64"))?;
    // `^[1-9][0-9]*$`; more than two digits is above any ceiling (30).
    let digits = log_n.as_bytes();
    if digits.first().is_none_or(|&c| !(b'1'..=b'9').contains(&c))
      || !digits.iter().all(u8::is_ascii_digit)
    {
      return Err(malformed(
        "an scrypt work factor that is not a decimal number without leading zeros",
      ));
    }
    let value = if digits.len() > 2 {
      u32::MAX
    } else {
      log_n.parse::<u32>().unwrap_or(u32::MAX)
    };
    if value > self.max_log_n {
      return Err(CryptoError::out_of_range(
        "scrypt work factor (log2 N) of the file",
        format!(
          "<= {} (raise options.maxWorkFactor to accept it; scrypt needs 2^(work factor) KiB \
           of memory)",
          self.max_log_n
        ),
        log_n,
      ));
    }
    if s.body.len() != 32 {
      return Err(malformed("an scrypt stanza body that is not 32 bytes"));
    }
    Ok((salt, value))
  }
}

impl Identity for ScryptIdentity<'_> {
  fn stanza_type(&self) -> &'static str {
    TYPE
  }

  fn describe(&self) -> &'static str {
    "a passphrase (scrypt)"
  }

  fn unwrap(&self, stanzas: &[Stanza], cancel: &Cancel) -> CryptoResult<Option<FileKey>> {
    let Some(s) = stanzas.iter().find(|s| s.kind == TYPE) else {
      return Ok(None);
    };
    let (salt, log_n) = self.read(s)?;
    let key = wrap_key(self.passphrase, &salt, log_n, cancel)?;
    Ok(open_file_key(&key, &s.body))
  }

  fn memory(&self, stanzas: &[Stanza]) -> u64 {
    match stanzas
      .iter()
      .find(|s| s.kind == TYPE)
      .map(|s| self.read(s))
    {
      Some(Ok((_, log_n))) => memory(log_n),
      _ => 0,
    }
  }
}
