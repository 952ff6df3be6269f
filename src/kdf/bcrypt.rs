//! bcrypt (Provos–Mazières), producing `$2b$` strings and verifying `$2a$`, `$2b$`, `$2y$`.
//!
//! EksBlowfish runs on the Blowfish written in `super::blowfish` (faster than the `blowfish`
//! crate's, which the tests compare it with); the loop is here so a running hash can be
//! cancelled (checked every 2^7 rounds), and parsing is ours: a malformed hash string is a
//! `TypeError` (`ERR_INVALID_ARG_VALUE`), a wrong password is `false`.
//!
//! Passwords: the key is the password bytes plus a NUL, cut at 72 bytes (the standard rule,
//! used by `verify` so hashes made elsewhere verify). `hash` refuses passwords longer than 72
//! bytes unless `truncate` is set: bcrypt would silently ignore the rest.

use napi::bindgen_prelude::Unknown;
use napi::Env;
use napi_derive::napi;
use zeroize::Zeroizing;

use super::blowfish::{cyclic_words, Blowfish};
use super::{opt_secret, secret, Secret, BCRYPT_B64};
use crate::arch::{with_blowfish_index, BlowfishIndex, BlowfishWork};
use crate::ct;
use crate::error::{Code, CryptoError, CryptoResult};
use crate::task::{twins, Cancel, Job, Output};

pub const MIN_COST: u32 = 4;
pub const MAX_COST: u32 = 31;
/// Longest password bcrypt uses, in bytes.
const MAX_PASSWORD: usize = 72;

/// Raw bcrypt: 23 bytes of output (the 24th is never encoded).
fn raw(cost: u32, salt: &[u8; 16], password: &[u8], cancel: &Cancel) -> CryptoResult<[u8; 23]> {
  // key = password || NUL, at most 72 bytes.
  let mut key = Zeroizing::new([0u8; MAX_PASSWORD + 1]);
  let n = password.len().min(MAX_PASSWORD);
  key[..n].copy_from_slice(&password[..n]);
  let key = &key[..(n + 1).min(MAX_PASSWORD)];
  let out = raw_fastest(cost, salt, key, cancel)?;
  let mut tag = [0u8; 23];
  tag.copy_from_slice(&out[..23]);
  Ok(tag)
}

/// EksBlowfishSetup(cost, salt, key), then "OrpheanBeholderScryDoubt" encrypted 64 times: the 24
/// bytes of bcrypt's output, with the round index `ix` ([`raw_fastest`] picks it). Checks
/// `cancel` every 128 rounds.
#[inline(always)]
pub fn raw_with<I: BlowfishIndex>(
  ix: I,
  cost: u32,
  salt: &[u8; 16],
  key: &[u8],
  cancel: &Cancel,
) -> CryptoResult<[u8; 24]> {
  let key_words = Zeroizing::new(cyclic_words(key));
  let salt_words = cyclic_words(salt);
  let salt_pairs: [u32; 4] = std::array::from_fn(|i| salt_words[i]);
  let mut state = Blowfish::new();
  state.expand(ix, &key_words, Some(&salt_pairs));
  let rounds = 1u64 << cost;
  let mut i = 0u64;
  while i < rounds {
    state.expand(ix, &key_words, None);
    state.expand(ix, &salt_words, None);
    i += 1;
    if i.is_multiple_of(128) {
      cancel.check()?;
    }
  }
  let mut out = [0u8; 24];
  let text = [*b"OrpheanB", *b"eholderS", *b"cryDoubt"];
  for (mut block, dst) in text.into_iter().zip(out.chunks_exact_mut(8)) {
    for _ in 0..64 {
      block = state.encrypt_block(ix, block);
    }
    dst.copy_from_slice(&block);
  }
  Ok(out)
}

/// [`raw_with`] with the fastest [`BlowfishIndex`] this CPU has, compiled with its feature.
pub fn raw_fastest(
  cost: u32,
  salt: &[u8; 16],
  key: &[u8],
  cancel: &Cancel,
) -> CryptoResult<[u8; 24]> {
  with_blowfish_index(Raw {
    cost,
    salt,
    key,
    cancel,
  })
}

/// The arguments of [`raw_with`], as the work [`with_blowfish_index`] runs.
struct Raw<'a> {
  cost: u32,
  salt: &'a [u8; 16],
  key: &'a [u8],
  cancel: &'a Cancel,
}

impl BlowfishWork for Raw<'_> {
  type Output = CryptoResult<[u8; 24]>;

  #[inline(always)]
  fn run<I: BlowfishIndex>(self, ix: I) -> CryptoResult<[u8; 24]> {
    raw_with(ix, self.cost, self.salt, self.key, self.cancel)
  }
}

/// A parsed `$2?$cc$<22 salt><31 hash>` string.
pub struct Parsed {
  pub cost: u32,
  pub salt: [u8; 16],
  pub tag: [u8; 23],
}

fn malformed(why: &str) -> CryptoError {
  CryptoError::new(
    Code::InvalidArgValue,
    format!("The argument \"hash\" is invalid: expected a bcrypt hash ($2a$, $2b$ or $2y$, cost 04..31, 53 characters of ./A-Za-z0-9). {why}"),
  )
}

/// Parses a bcrypt hash string; every deviation is a `TypeError` (`ERR_INVALID_ARG_VALUE`).
pub fn parse(hash: &str) -> CryptoResult<Parsed> {
  let b = hash.as_bytes();
  if b.len() != 60 {
    return Err(malformed(&format!(
      "Received a string of length {}",
      b.len()
    )));
  }
  if !hash.is_ascii() {
    return Err(malformed("Received a string with non-ASCII characters"));
  }
  if b[0] != b'$' || b[1] != b'2' || b[3] != b'$' || b[6] != b'$' {
    return Err(malformed("Received a string that is not in $2x$cc$ form"));
  }
  let minor = b[2];
  if !matches!(minor, b'a' | b'b' | b'y') {
    return Err(malformed(&format!(
      "Received the unsupported version $2{}$",
      minor as char
    )));
  }
  if !b[4].is_ascii_digit() || !b[5].is_ascii_digit() {
    return Err(malformed("Received a non-numeric cost"));
  }
  let cost = u32::from((b[4] - b'0') * 10 + (b[5] - b'0'));
  if !(MIN_COST..=MAX_COST).contains(&cost) {
    return Err(malformed(&format!("Received cost {cost}")));
  }
  // 22 characters are 16 bytes and 31 are 23: the lengths are fixed above, so only the
  // characters and the unused bits can fail.
  let field = |text: &str, what: &str| {
    BCRYPT_B64
      .decode(text)
      .map_err(|e| malformed(&format!("Received a {what} {}", e.what())))
  };
  let salt =
    <[u8; 16]>::try_from(field(&hash[7..29], "salt")?).map_err(|_| CryptoError::internal())?;
  let tag =
    <[u8; 23]>::try_from(field(&hash[29..60], "checksum")?).map_err(|_| CryptoError::internal())?;
  Ok(Parsed { cost, salt, tag })
}

/// `$2b$cc$` + salt + hash.
pub fn format(cost: u32, salt: &[u8; 16], tag: &[u8; 23]) -> String {
  format!(
    "$2b${cost:02}${}{}",
    BCRYPT_B64.encode(salt),
    BCRYPT_B64.encode(tag)
  )
}

pub struct HashJob {
  password: Secret,
  cost: u32,
  salt: [u8; 16],
}

impl Job for HashJob {
  fn run(&mut self, cancel: &Cancel) -> CryptoResult<Output> {
    let tag = raw(self.cost, &self.salt, &self.password, cancel)?;
    Ok(Output::Text(format(self.cost, &self.salt, &tag)))
  }
}

pub struct VerifyJob {
  password: Secret,
  parsed: Parsed,
}

impl Job for VerifyJob {
  fn run(&mut self, cancel: &Cancel) -> CryptoResult<Output> {
    let p = &self.parsed;
    let tag = raw(p.cost, &p.salt, &self.password, cancel)?;
    Ok(Output::Bool(ct::eq(&tag, &p.tag)))
  }
}

fn hash_job(
  env: &Env,
  password: Unknown,
  cost: u32,
  salt: Option<Unknown>,
  truncate: bool,
) -> CryptoResult<HashJob> {
  let password = secret(env, &password, "password")?;
  if password.len() > MAX_PASSWORD && !truncate {
    return Err(CryptoError::out_of_range(
      "password.length",
      "<= 72 bytes for bcrypt (pass { truncate: true } to hash only the first 72 bytes)",
      password.len(),
    ));
  }
  super::check_range("rounds", cost, MIN_COST, MAX_COST)?;
  let salt = match opt_secret(env, &salt, "salt")? {
    Some(s) => <[u8; 16]>::try_from(s.as_slice())
      .map_err(|_| CryptoError::out_of_range("salt.length", "16 bytes", s.len()))?,
    None => {
      let mut s = [0u8; 16];
      crate::random::fill(&mut s)?;
      s
    }
  };
  Ok(HashJob {
    password,
    cost,
    salt,
  })
}

/// Default ceiling on the cost of a stored hash: accepts every cost in use (10-14 is the
/// common range; each step doubles the work: cost 16 is about 5 s, extrapolated from 76 ms for
/// cost 10 measured in the security review) and refuses a string
/// like `$2b$31$…` (about 44 hours of one core) before any work.
pub const DEFAULT_MAX_ROUNDS: u32 = 16;

fn verify_job(
  env: &Env,
  password: Unknown,
  hash: String,
  max_rounds: Option<u32>,
) -> CryptoResult<VerifyJob> {
  let parsed = parse(&hash)?;
  let max = max_rounds.unwrap_or(DEFAULT_MAX_ROUNDS);
  if parsed.cost > max {
    return Err(CryptoError::out_of_range(
      "rounds",
      format!("<= {max} for a stored hash (raise options.maxRounds to accept it)"),
      parsed.cost,
    ));
  }
  Ok(VerifyJob {
    password: secret(env, &password, "password")?,
    parsed,
  })
}

twins! {
  #[doc = " bcrypt hash, synchronous: `rounds` (cost) 4..31; `salt` 16 bytes (random when absent);"]
  #[doc = " passwords over 72 bytes are a RangeError unless `truncate`. Returns the `$2b$` string."]
  #[napi]
  pub fn bcrypt_hash;
  #[doc = " bcrypt hash on the libuv pool (inputs copied first)."]
  #[napi]
  pub fn bcrypt_hash_async;
  (
    env,
    password: Unknown,
    rounds: u32,
    salt: Option<Unknown>,
    truncate: Option<bool>,
  ) -> HashJob {
    hash_job(env, password, rounds, salt, truncate.unwrap_or(false))
  }
}

twins! {
  #[doc = " Checks `password` against a `$2a$`/`$2b$`/`$2y$` hash (constant-time compare); a cost above"]
  #[doc = " `maxRounds` (default [`DEFAULT_MAX_ROUNDS`]) is refused before any work."]
  #[napi]
  pub fn bcrypt_verify;
  #[doc = " `bcryptVerify` on the libuv pool."]
  #[napi]
  pub fn bcrypt_verify_async;
  (env, password: Unknown, hash: String, max_rounds: Option<u32>) -> VerifyJob {
    verify_job(env, password, hash, max_rounds)
  }
}

#[cfg(test)]
mod tests {
  use super::*;

  #[test]
  fn openwall_vector() {
    // crypt_blowfish wrapper.c: "U*U" → $2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW
    let h = "$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW";
    let p = parse(h).unwrap();
    let tag = raw(p.cost, &p.salt, b"U*U", &Cancel::NEVER).unwrap();
    assert!(ct::eq(&tag, &p.tag));
    assert_eq!(&format(p.cost, &p.salt, &tag)[4..], &h[4..]);
  }

  #[test]
  fn malformed_strings() {
    for h in [
      "",
      "$2a$05$CCCCCCCCCCCCCCCCCCCCC.",
      "$2c$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW",
      "$2a$03$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW",
      "$2a$32$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW",
      "$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOe!",
      "$2a$0x$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW",
      "$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeé",
    ] {
      let e = parse(h).err().unwrap();
      assert_eq!(e.code, Code::InvalidArgValue, "{h}");
    }
  }
}
