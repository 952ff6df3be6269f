//! RSA: key generation, RSASSA-PSS, RSASSA-PKCS1-v1_5 and RSAES-OAEP, all in AWS-LC
//! (constant-time, blinded private-key operations) through the small FFI layer `awslc/rsa.rs`.
//!
//! Keys reach native code as PKCS#1 DER (RSAPrivateKey / RSAPublicKey), the one form the key
//! layer (`lib/keys/`) produces from every other; [`RsaKey`] holds the parsed, checked AWS-LC
//! key so that a key used many times (a KeyObject, a handle the JS layer caches) is parsed once.
//!
//! Bounds, checked before any work:
//! - keys in use: a modulus of 1024..=16384 bits, any length (AWS-LC refuses larger ones and
//!   public exponents over 33 bits; keys are checked with RSA_check_key when loaded);
//! - key generation: 1024..=16384 bits in steps of 128 (AWS-LC generates only multiples of
//!   128), public exponent odd, 3 ≤ e < 2^32;
//! - PSS salt length: 0..=emLen − hLen − 2 (emLen = ⌈(modBits − 1) / 8⌉);
//! - OAEP plaintext: at most k − 2·hLen − 2 bytes (RangeError, as node's message says).
//!
//! Every OAEP decryption failure (wrong length, padding, label, key) is the one
//! `ERR_CRYPTO_DECRYPT_FAILED` error with one message; AWS-LC's OAEP check is constant-time.
//! Every verification failure is `false`.

use std::sync::Arc;

use napi::bindgen_prelude::{AsyncTask, Unknown};
use napi::{Env, Result};
use napi_derive::napi;
use zeroize::Zeroizing;

use crate::awslc::{Digest, EvpMd, Rsa};
use crate::error::{Code, CryptoError, CryptoResult, OrThrow};
use crate::hash::core::{oneshot, HashCore};
use crate::hash::list::{Alg, State};
use crate::js;
use crate::task::{aborted, twins, Cancel, CancelToken, Job, Output, Work};

const MIN_BITS: u32 = 1024;
const MAX_BITS: u32 = 16384;

/// A parsed RSA key (public, or private with CRT values).
#[napi]
pub struct RsaKey {
  rsa: Arc<Rsa>,
  private: bool,
}

#[napi]
impl RsaKey {
  /// Bits in the modulus.
  #[napi(getter)]
  pub fn bits(&self) -> u32 {
    self.rsa.bits()
  }

  #[napi(getter)]
  pub fn is_private(&self) -> bool {
    self.private
  }
}

fn load(der: &[u8], private: bool, name: &str) -> CryptoResult<Rsa> {
  let what = if private {
    "an RSA private key"
  } else {
    "an RSA public key"
  };
  let rsa = if private {
    Rsa::private_from_der(der)
  } else {
    Rsa::public_from_der(der)
  }
  .ok_or_else(|| {
    CryptoError::invalid_value(
      name,
      format!("{what} (PKCS#1 DER, with consistent values)"),
      "a key AWS-LC refuses",
    )
  })?;
  let bits = rsa.bits();
  if !(MIN_BITS..=MAX_BITS).contains(&bits) {
    return Err(CryptoError::out_of_range(
      &format!("{name} modulus"),
      format!("from {MIN_BITS} to {MAX_BITS} bits"),
      format!("{bits} bits"),
    ));
  }
  Ok(rsa)
}

/// `rsaKey(der, isPrivate, name)`: a PKCS#1 DER key, parsed and checked.
#[napi]
pub fn rsa_key(env: &Env, der: Unknown, private: bool, name: String) -> Result<RsaKey> {
  let der = js::read_arg(env, &der, &name).or_throw(env)?;
  let rsa = load(der.as_slice(), private, &name).or_throw(env)?;
  Ok(RsaKey {
    rsa: Arc::new(rsa),
    private,
  })
}

// ---- key generation -----------------------------------------------------------------------

pub struct GenerateJob {
  bits: u32,
  e: u32,
}

impl Job for GenerateJob {
  fn run(&mut self, cancel: &Cancel) -> CryptoResult<Output> {
    let rsa = Rsa::generate(self.bits, self.e.into(), &|| !cancel.is_cancelled());
    let rsa = match rsa {
      Some(r) => r,
      None if cancel.is_cancelled() => return Err(aborted()),
      None => {
        return Err(CryptoError::new(
          Code::Operation,
          "RSA key generation failed",
        ))
      }
    };
    rsa
      .private_der()
      .map(Output::Bytes)
      .ok_or_else(CryptoError::internal)
  }
}

fn generate_job(bits: u32, e: u32) -> CryptoResult<GenerateJob> {
  if !(MIN_BITS..=MAX_BITS).contains(&bits) || !bits.is_multiple_of(128) {
    return Err(CryptoError::out_of_range(
      "options.modulusLength",
      format!("a multiple of 128 from {MIN_BITS} to {MAX_BITS}"),
      bits,
    ));
  }
  if e < 3 || e.is_multiple_of(2) {
    return Err(CryptoError::out_of_range(
      "options.publicExponent",
      "an odd integer from 3 to 2^32 - 1",
      e,
    ));
  }
  Ok(GenerateJob { bits, e })
}

twins! {
  #[doc = " `rsaGenerate(bits, e)`: a new private key, PKCS#1 DER."]
  #[napi]
  pub fn rsa_generate;
  #[doc = " `rsaGenerateAsync(bits, e, token)`: on the libuv pool; `token` stops the prime search."]
  #[napi]
  pub fn rsa_generate_async;
  (env, bits: u32, e: u32) -> GenerateJob {
    generate_job(bits, e)
  }
}

// ---- operations -----------------------------------------------------------------------------

/// The operations, by the id the JS layer passes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
  SignPss,
  SignPkcs1,
  VerifyPss,
  VerifyPkcs1,
  Encrypt,
  Decrypt,
}

const KINDS: [Kind; 6] = [
  Kind::SignPss,
  Kind::SignPkcs1,
  Kind::VerifyPss,
  Kind::VerifyPkcs1,
  Kind::Encrypt,
  Kind::Decrypt,
];

/// `saltLength` values with a meaning of their own.
const SALT_DIGEST: i32 = -1;
const SALT_AUTO: i32 = -2;

/// One RSA operation, all parameters checked, ready to run on `data` (message, plaintext or
/// ciphertext). `extra` is the signature (verify) or the label (OAEP).
pub struct RsaOp {
  kind: Kind,
  rsa: Arc<Rsa>,
  hash: Alg,
  mgf1: Alg,
  salt: Option<u32>,
  extra: Zeroizing<Vec<u8>>,
}

/// The digest AWS-LC knows for a hash of the list: SHA-1, SHA-2 and SHA-3.
fn digest(alg: Alg) -> Option<Digest> {
  Some(match alg {
    Alg::Sha1 => Digest::Sha1,
    Alg::Sha224 => Digest::Sha224,
    Alg::Sha256 => Digest::Sha256,
    Alg::Sha384 => Digest::Sha384,
    Alg::Sha512 => Digest::Sha512,
    Alg::Sha512_224 => Digest::Sha512_224,
    Alg::Sha512_256 => Digest::Sha512_256,
    Alg::Sha3_224 => Digest::Sha3_224,
    Alg::Sha3_256 => Digest::Sha3_256,
    Alg::Sha3_384 => Digest::Sha3_384,
    Alg::Sha3_512 => Digest::Sha3_512,
    _ => return None,
  })
}

fn md(alg: u32, name: &str) -> CryptoResult<(Alg, EvpMd)> {
  Alg::from_id(alg)
    .and_then(|a| digest(a).and_then(EvpMd::of).map(|m| (a, m)))
    .ok_or_else(|| CryptoError::invalid_value(name, "a SHA-1, SHA-2 or SHA-3 hash", alg))
}

fn md_of(alg: Alg) -> CryptoResult<EvpMd> {
  digest(alg)
    .and_then(EvpMd::of)
    .ok_or_else(CryptoError::internal)
}

/// What an `rsa` / `rsaAsync` call does: the operation (an index into [`KINDS`]), its hash and
/// MGF1 hash (ids of the hash list) and, for PSS, the salt length (−1: the digest length, −2: any,
/// when verifying).
#[napi(object)]
pub struct RsaParams {
  pub kind: u32,
  pub hash: u32,
  pub mgf1_hash: u32,
  pub salt_length: i32,
}

impl RsaOp {
  fn new(p: &RsaParams, key: &RsaKey, extra: &[u8]) -> CryptoResult<RsaOp> {
    let RsaParams {
      kind,
      hash,
      mgf1_hash: mgf1,
      salt_length: salt,
    } = *p;
    let kind = *KINDS
      .get(kind as usize)
      .ok_or_else(|| CryptoError::invalid_value("operation", "a known RSA operation", kind))?;
    let needs_private = matches!(kind, Kind::SignPss | Kind::SignPkcs1 | Kind::Decrypt);
    if needs_private && !key.private {
      return Err(CryptoError::new(
        Code::InvalidKeyType,
        "The \"privateKey\" argument must be a private key. Received a public key",
      ));
    }
    let (hash, h) = md(hash, "options.hash")?;
    let (mgf1, _) = md(mgf1, "options.mgf1Hash")?;
    let (bits, k, hlen) = (key.rsa.bits(), key.rsa.size(), h.size());
    let salt = match kind {
      Kind::SignPss | Kind::VerifyPss => {
        // EMSA-PSS: emLen = ⌈(modBits − 1) / 8⌉ ≥ hLen + sLen + 2.
        let em_len = (bits as usize - 1).div_ceil(8);
        let max = em_len
          .checked_sub(hlen + 2)
          .ok_or_else(|| too_small(bits, "PSS", hash))?;
        match salt {
          SALT_AUTO if kind == Kind::VerifyPss => None,
          SALT_DIGEST => Some(hlen.min(max) as u32),
          s if s >= 0 && s as usize <= max => Some(s as u32),
          s => {
            return Err(CryptoError::out_of_range(
              "options.saltLength",
              format!("from 0 to {max} for this key and hash"),
              s,
            ))
          }
        }
      }
      Kind::Encrypt | Kind::Decrypt => {
        if k < 2 * hlen + 2 {
          return Err(too_small(bits, "OAEP", hash));
        }
        None
      }
      _ => None,
    };
    Ok(RsaOp {
      kind,
      rsa: key.rsa.clone(),
      hash,
      mgf1,
      salt,
      extra: Zeroizing::new(extra.to_vec()),
    })
  }

  /// Checks that depend on `data` (done before the copy for the async form).
  fn check(&self, data: &[u8]) -> CryptoResult<()> {
    if self.kind == Kind::Encrypt {
      let max = self.rsa.size() - 2 * md_of(self.hash)?.size() - 2;
      if data.len() > max {
        return Err(CryptoError::out_of_range(
          "plaintext",
          format!(
            "at most {max} bytes for this key with OAEP-{}",
            self.hash.name()
          ),
          format!("{} bytes", data.len()),
        ));
      }
    }
    Ok(())
  }

  fn run(&self, data: &[u8]) -> CryptoResult<Output> {
    let (h, mgf1) = (md_of(self.hash)?, md_of(self.mgf1)?);
    let digest = || {
      let state = State::new(self.hash);
      let mut out = vec![0u8; state.output_len()];
      oneshot(state, data, &mut out);
      out
    };
    let rsa = &self.rsa;
    let signed = |s: Option<Vec<u8>>| {
      s.map(Output::Buffer)
        .ok_or_else(|| CryptoError::new(Code::Operation, "RSA signing failed"))
    };
    match self.kind {
      Kind::SignPss => signed(rsa.sign_pss(&digest(), h, mgf1, self.salt.unwrap_or(0))),
      Kind::SignPkcs1 => signed(rsa.sign_pkcs1(&digest(), h)),
      Kind::VerifyPss => Ok(Output::Bool(
        self.extra.len() == rsa.size()
          && rsa.verify_pss(&digest(), h, mgf1, self.salt, &self.extra),
      )),
      Kind::VerifyPkcs1 => Ok(Output::Bool(
        self.extra.len() == rsa.size() && rsa.verify_pkcs1(&digest(), h, &self.extra),
      )),
      Kind::Encrypt => rsa
        .oaep(false, data, h, mgf1, &self.extra)
        .map(|c| Output::Buffer(c.to_vec()))
        .ok_or_else(|| CryptoError::new(Code::Operation, "RSA-OAEP encryption failed")),
      Kind::Decrypt => rsa
        .oaep(true, data, h, mgf1, &self.extra)
        .map(Output::Bytes)
        .ok_or_else(|| CryptoError::new(Code::DecryptFailed, "RSA-OAEP decryption failed")),
    }
  }
}

fn too_small(bits: u32, scheme: &str, hash: Alg) -> CryptoError {
  CryptoError::out_of_range(
    "key",
    format!("a modulus long enough for {scheme} with {}", hash.name()),
    format!("{bits} bits"),
  )
}

/// An operation over owned inputs, for the pool.
pub struct RsaJob {
  op: RsaOp,
  data: Zeroizing<Vec<u8>>,
}

impl Job for RsaJob {
  fn run(&mut self, _cancel: &Cancel) -> CryptoResult<Output> {
    self.op.run(&self.data)
  }
}

fn read<'e>(env: &'e Env, v: &Unknown<'e>, name: &str) -> Result<js::Bytes<'e>> {
  js::read_arg(env, v, name).or_throw(env)
}

fn prepare<'e>(
  env: &'e Env,
  key: &RsaKey,
  data: &Unknown<'e>,
  extra: &Unknown<'e>,
  params: &RsaParams,
) -> Result<(RsaOp, js::Bytes<'e>)> {
  let extra = read(env, extra, "signature")?;
  let op = RsaOp::new(params, key, extra.as_slice()).or_throw(env)?;
  let data = read(env, data, "data")?;
  op.check(data.as_slice()).or_throw(env)?;
  Ok((op, data))
}

/// `rsa(key, data, extra, params)`: one operation ([`RsaParams`]; `extra`: the signature to
/// verify or the OAEP label).
#[napi]
pub fn rsa<'e>(
  env: &'e Env,
  key: &RsaKey,
  data: Unknown<'e>,
  extra: Unknown<'e>,
  params: RsaParams,
) -> Result<Unknown<'e>> {
  let (op, data) = prepare(env, key, &data, &extra, &params)?;
  match op.run(data.as_slice()) {
    Ok(out) => out.into_js(env),
    Err(e) => Err(e.into_napi(env)),
  }
}

/// `rsaAsync(key, data, extra, params, token?)`: the same on the libuv pool, inputs copied first.
#[napi]
pub fn rsa_async<'e>(
  env: &'e Env,
  key: &RsaKey,
  data: Unknown<'e>,
  extra: Unknown<'e>,
  params: RsaParams,
  token: Option<&CancelToken>,
) -> Result<AsyncTask<Work<RsaJob>>> {
  let (op, data) = prepare(env, key, &data, &extra, &params)?;
  Ok(Work::new(
    RsaJob {
      op,
      data: data.into_owned(),
    },
    token,
  ))
}
