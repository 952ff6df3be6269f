//! The OpenSSL `enc` / crypto-js passphrase format: `"Salted__" ‖ salt(8) ‖ ciphertext`, with
//! key and IV from `EVP_BytesToKey(MD5, passphrase, salt, count = 1)` and AES-256-CBC + PKCS#7.
//! It is what `CryptoJS.AES.encrypt(text, passphrase).toString()` returns (base64 of this).
//! One MD5 round per 16 bytes is no protection for a guessable passphrase: migration use only.

use digest::Digest;
use md5::Md5;
use napi::bindgen_prelude::{AsyncTask, Buffer, Unknown};
use napi::{Env, Result};
use napi_derive::napi;
use zeroize::Zeroizing;

use crate::cipher::dispatch::run;
use crate::cipher::keys::ModeKey;
use crate::cipher::modes::{decrypt_failed, Mode, Op};
use crate::error::{CryptoError, CryptoResult, OrThrow};
use crate::js;
use crate::task::{Cancel, CancelToken, Job, Output, Work};

use super::check_passphrase;

const MAGIC: &[u8; 8] = b"Salted__";

/// `EVP_BytesToKey` with MD5 and one iteration: D_i = MD5(D_{i-1} ‖ pass ‖ salt), key ‖ iv = D_1 ‖ D_2 ‖ D_3.
fn evp_bytes_to_key(pass: &[u8], salt: &[u8]) -> Zeroizing<[u8; 48]> {
  let mut out = Zeroizing::new([0u8; 48]);
  let mut prev: Option<Zeroizing<[u8; 16]>> = None;
  for chunk in out.chunks_mut(16) {
    let mut h = Md5::new();
    if let Some(p) = &prev {
      h.update(&p[..]);
    }
    h.update(pass);
    h.update(salt);
    let d = h.finalize();
    chunk.copy_from_slice(&d);
    let mut next = Zeroizing::new([0u8; 16]);
    next.copy_from_slice(&d);
    prev = Some(next);
  }
  out
}

fn cbc(key_iv: &[u8; 48], decrypt: bool, input: &[u8], out: &mut [u8]) -> CryptoResult<usize> {
  let mut key = ModeKey::new(Mode::Cbc, &key_iv[..32])?;
  let op = Op {
    mode: Mode::Cbc,
    decrypt,
    padding: true,
    iv: Some(&key_iv[32..]),
    aad: &[],
    tag_len: 16,
  };
  run(&mut key, &op, input, out)
}

pub fn encrypt(pass: &[u8], data: &[u8]) -> CryptoResult<Vec<u8>> {
  let mut out = vec![0u8; 16 + (data.len() / 16 + 1) * 16];
  out[..8].copy_from_slice(MAGIC);
  crate::random::fill(&mut out[8..16])?;
  let key_iv = evp_bytes_to_key(pass, &out[8..16]);
  let n = cbc(&key_iv, false, data, &mut out[16..])?;
  out.truncate(16 + n);
  Ok(out)
}

pub fn decrypt(pass: &[u8], data: &[u8]) -> CryptoResult<Vec<u8>> {
  if data.len() < 16 || &data[..8] != MAGIC {
    return Err(CryptoError::invalid_value(
      "data",
      "an OpenSSL / crypto-js passphrase ciphertext (base64 of \"Salted__\" + salt + ciphertext)",
      format!("{} bytes without the \"Salted__\" header", data.len()),
    ));
  }
  let key_iv = evp_bytes_to_key(pass, &data[8..16]);
  let body = &data[16..];
  let mut out = Zeroizing::new(vec![0u8; body.len()]);
  let n = cbc(&key_iv, true, body, &mut out).map_err(|e| {
    if e.code == crate::error::Code::DecryptFailed {
      e
    } else {
      decrypt_failed()
    }
  })?;
  Ok(out[..n].to_vec())
}

/// A crypto-js / OpenSSL `Salted__` message (`crypto.cipher.legacy.cryptoJs`):
/// `"Salted__" ‖ salt(8) ‖ AES-256-CBC(EVP_BytesToKey-MD5(passphrase, salt))`, what
/// `CryptoJS.AES.encrypt(text, passphrase)` produces before base64. Weak (one MD5 round, no MAC):
/// for reading and migrating old data only. Empty passphrases are refused.
fn passphrase_run(decrypting: bool, passphrase: &[u8], data: &[u8]) -> CryptoResult<Vec<u8>> {
  check_passphrase(passphrase)?;
  if decrypting {
    decrypt(passphrase, data)
  } else {
    encrypt(passphrase, data)
  }
}

/// `passphraseCipher(decrypt, data, passphrase)`: the crypto-js format, synchronously (inputs
/// read in place).
#[napi]
pub fn passphrase_cipher(
  env: Env,
  decrypt: bool,
  data: Unknown,
  passphrase: Unknown,
) -> Result<Buffer> {
  let passphrase = js::read_arg(&env, &passphrase, "options.passphrase").or_throw(&env)?;
  let data = js::read_arg(&env, &data, "data").or_throw(&env)?;
  passphrase_run(decrypt, passphrase.as_slice(), data.as_slice())
    .map(Into::into)
    .or_throw(&env)
}

/// The async form's copies of its inputs, made at call time.
pub struct PassphraseJob {
  decrypt: bool,
  passphrase: Zeroizing<Vec<u8>>,
  data: Zeroizing<Vec<u8>>,
}

impl Job for PassphraseJob {
  fn run(&mut self, cancel: &Cancel) -> CryptoResult<Output> {
    cancel.check()?;
    passphrase_run(self.decrypt, &self.passphrase, &self.data).map(Output::Buffer)
  }
}

/// `passphraseCipherAsync(decrypt, data, passphrase, token?)`: the same on the libuv pool.
#[napi(ts_return_type = "Promise<Buffer>")]
pub fn passphrase_cipher_async(
  env: Env,
  decrypt: bool,
  data: Unknown,
  passphrase: Unknown,
  token: Option<&CancelToken>,
) -> Result<AsyncTask<Work<PassphraseJob>>> {
  let job = (|| -> CryptoResult<PassphraseJob> {
    let passphrase = js::read_arg(&env, &passphrase, "options.passphrase")?.into_owned();
    check_passphrase(&passphrase)?;
    Ok(PassphraseJob {
      decrypt,
      passphrase,
      data: js::read_arg(&env, &data, "data")?.into_owned(),
    })
  })()
  .or_throw(&env)?;
  Ok(Work::new(job, token))
}

#[cfg(test)]
mod tests {
  use super::*;

  #[test]
  fn round_trip_and_header() {
    // Interop with crypto-js (and so with EVP_BytesToKey) is tested from JS (__test__/cipher.spec.js).
    let sealed = encrypt(b"password", b"hello").unwrap();
    assert_eq!(&sealed[..8], b"Salted__");
    assert_eq!(sealed.len(), 16 + 16);
    assert_eq!(decrypt(b"password", &sealed).unwrap(), b"hello");
    assert!(decrypt(b"password", &sealed[..20]).is_err());
    assert!(decrypt(b"password", b"short").is_err());
  }
}
