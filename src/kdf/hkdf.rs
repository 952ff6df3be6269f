//! HKDF (RFC 5869) with HMAC over any block hash in `src/hash/list.rs`.

use napi::bindgen_prelude::Unknown;
use napi::Env;
use napi_derive::napi;
use zeroize::Zeroizing;

use super::{hmac_alg, opt_secret, secret, Secret};
use crate::error::{CryptoError, CryptoResult};
use crate::hash::core::{HashCore, Hmac};
use crate::hash::list::{Alg, State};
use crate::task::{twins, Cancel, Job, Output};

/// Extract-then-expand into `out` (1..=255·HashLen bytes). An absent salt is HashLen zero bytes.
pub fn derive(
  alg: Alg,
  ikm: &[u8],
  salt: Option<&[u8]>,
  info: &[u8],
  out: &mut [u8],
) -> CryptoResult<()> {
  let hlen = State::new(alg).output_len();
  if out.is_empty() || out.len() > 255 * hlen {
    return Err(CryptoError::out_of_range(
      "keyLength",
      format!(">= 1 && <= {}", 255 * hlen),
      out.len(),
    ));
  }
  let zeros = [0u8; 64];
  let salt = salt.unwrap_or(&zeros[..hlen]);
  let mut prk = Zeroizing::new([0u8; 64]);
  let mut h = Hmac::new(State::new(alg), salt)?;
  h.update(ikm);
  h.finalize_into(&mut prk[..hlen]);
  let expand = Hmac::new(State::new(alg), &prk[..hlen])?;
  let mut t = Zeroizing::new([0u8; 64]);
  for (i, chunk) in out.chunks_mut(hlen).enumerate() {
    let mut h = expand.clone();
    if i > 0 {
      h.update(&t[..hlen]);
    }
    h.update(info);
    h.update(&[(i + 1) as u8]);
    h.finalize_into(&mut t[..hlen]);
    chunk.copy_from_slice(&t[..chunk.len()]);
  }
  Ok(())
}

pub struct HkdfJob {
  alg: Alg,
  ikm: Secret,
  salt: Option<Secret>,
  info: Secret,
  key_length: usize,
}

impl Job for HkdfJob {
  fn run(&mut self, _: &Cancel) -> CryptoResult<Output> {
    let mut out = Zeroizing::new(vec![0u8; self.key_length]);
    derive(
      self.alg,
      &self.ikm,
      self.salt.as_deref().map(|s| s.as_slice()),
      &self.info,
      &mut out,
    )?;
    Ok(Output::Bytes(out))
  }
}

fn job(
  env: &Env,
  ikm: Unknown,
  salt: Option<Unknown>,
  info: Option<Unknown>,
  key_length: u32,
  hash: u32,
) -> CryptoResult<HkdfJob> {
  let alg = hmac_alg(hash)?;
  let hlen = State::new(alg).output_len() as u32;
  super::check_range("keyLength", key_length, 1, 255 * hlen)?;
  Ok(HkdfJob {
    alg,
    ikm: secret(env, &ikm, "ikm")?,
    salt: opt_secret(env, &salt, "salt")?,
    info: opt_secret(env, &info, "info")?.unwrap_or_default(),
    key_length: key_length as usize,
  })
}

twins! {
  #[doc = " HKDF, synchronous: `keyLength` 1..255·HashLen bytes; `salt`, `info` optional. Returns a"]
  #[doc = " Buffer."]
  #[napi(js_name = "hkdf")]
  pub fn hkdf_sync;
  #[doc = " HKDF on the libuv pool (inputs copied first)."]
  #[napi]
  pub fn hkdf_async;
  (
    env,
    ikm: Unknown,
    salt: Option<Unknown>,
    info: Option<Unknown>,
    key_length: u32,
    hash: u32,
  ) -> HkdfJob {
    job(env, ikm, salt, info, key_length, hash)
  }
}

#[cfg(test)]
mod tests {
  use super::*;

  #[test]
  fn rfc5869_case1() {
    let ikm = [0x0bu8; 22];
    let salt: Vec<u8> = (0..=0x0c).collect();
    let info: Vec<u8> = (0xf0..=0xf9).collect();
    let mut okm = [0u8; 42];
    derive(Alg::Sha256, &ikm, Some(&salt), &info, &mut okm).unwrap();
    let hex: String = okm.iter().map(|x| format!("{x:02x}")).collect();
    assert_eq!(
      hex,
      "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865"
    );
    assert!(derive(Alg::Sha256, &ikm, None, &info, &mut vec![0u8; 255 * 32 + 1]).is_err());
  }
}
