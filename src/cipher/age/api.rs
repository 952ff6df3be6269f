//! The age entry points seen from JavaScript (wrapped by `lib/age.js`, `crypto.cipher.age`).
//!
//! - `ageEncrypt(data, passphrase, workFactor, armor)` / `ageDecrypt(data, passphrase,
//!   maxWorkFactor)`: synchronous, inputs read in place;
//! - `ageEncryptAsync(..., token?)` / `ageDecryptAsync(..., token?)`: the same on the libuv pool
//!   (`crate::task`), on copies of the inputs made at call time; `token` stops the scrypt work
//!   within about a millisecond and the payload between 1 MiB pieces.
//!
//! Encryption returns a Buffer, or the armored text as a string; decryption a Buffer.

use napi::bindgen_prelude::{AsyncTask, Unknown};
use napi::Env;
use napi_derive::napi;

use super::scrypt::{ScryptIdentity, ScryptRecipient};
use crate::error::{CryptoResult, OrThrow};
use crate::js;
use crate::kdf::Secret;
use crate::staging::Staged;
use crate::task::{Cancel, CancelToken, Job, Output, Work};

/// One age call, its numbers checked when it is made.
#[derive(Clone, Copy)]
enum AgeOp {
  Encrypt { work_factor: u32, armor: bool },
  Decrypt { max_work_factor: u32 },
}

impl AgeOp {
  /// Refuses bad numbers and an empty passphrase before any work (and before queueing).
  fn check(self, passphrase: &[u8]) -> CryptoResult<()> {
    match self {
      AgeOp::Encrypt { work_factor, .. } => ScryptRecipient::new(passphrase, work_factor).map(drop),
      AgeOp::Decrypt { max_work_factor } => {
        ScryptIdentity::new(passphrase, max_work_factor).map(drop)
      }
    }
  }

  fn run(self, passphrase: &[u8], data: &[u8], cancel: &Cancel) -> CryptoResult<Output> {
    match self {
      AgeOp::Encrypt { work_factor, armor } => {
        let recipient = ScryptRecipient::new(passphrase, work_factor)?;
        let file = super::encrypt(&[&recipient], data, cancel)?;
        Ok(if armor {
          Output::Text(super::armor(&file))
        } else {
          Output::Buffer(file)
        })
      }
      AgeOp::Decrypt { max_work_factor } => {
        let identity = ScryptIdentity::new(passphrase, max_work_factor)?;
        super::decrypt(&identity, data, cancel).map(Output::Buffer)
      }
    }
  }
}

/// Runs `op` now, on the caller's bytes.
fn run_now<'e>(
  env: &'e Env,
  op: AgeOp,
  data: Unknown,
  passphrase: Unknown,
) -> napi::Result<Unknown<'e>> {
  let result = (|| {
    let passphrase = js::read_arg(env, &passphrase, "options.passphrase")?;
    let data = js::read_arg(env, &data, "data")?;
    op.run(passphrase.as_slice(), data.as_slice(), &Cancel::NEVER)
  })();
  result.or_throw(env)?.into_js(env)
}

/// Copies of an age call's inputs, made at call time, for the libuv pool.
pub struct AgeJob {
  op: AgeOp,
  passphrase: Secret,
  data: Option<Staged>,
}

impl Job for AgeJob {
  fn run(&mut self, cancel: &Cancel) -> CryptoResult<Output> {
    let data = self
      .data
      .take()
      .ok_or_else(crate::error::CryptoError::internal)?;
    let result = self.op.run(&self.passphrase, data.as_slice(), cancel);
    data.recycle();
    result
  }
}

fn queue(
  env: &Env,
  op: AgeOp,
  data: Unknown,
  passphrase: Unknown,
  token: Option<&CancelToken>,
) -> napi::Result<AsyncTask<Work<AgeJob>>> {
  let job = (|| {
    let passphrase = js::read_arg(env, &passphrase, "options.passphrase")?.into_owned();
    op.check(&passphrase)?;
    Ok(AgeJob {
      op,
      passphrase,
      data: Some(js::read_arg(env, &data, "data")?.into_staged()?),
    })
  })()
  .or_throw(env)?;
  Ok(Work::new(job, token))
}

/// `ageEncrypt(data, passphrase, workFactor, armor)`: an age file encrypted to the passphrase
/// (scrypt at N = 2^workFactor): a Buffer, or with `armor` the PEM text.
#[napi(ts_return_type = "Buffer | string")]
pub fn age_encrypt<'e>(
  env: &'e Env,
  data: Unknown,
  passphrase: Unknown,
  work_factor: u32,
  armor: bool,
) -> napi::Result<Unknown<'e>> {
  run_now(env, AgeOp::Encrypt { work_factor, armor }, data, passphrase)
}

/// `ageEncrypt` on the libuv pool.
#[napi(ts_return_type = "Promise<Buffer | string>")]
pub fn age_encrypt_async(
  env: &Env,
  data: Unknown,
  passphrase: Unknown,
  work_factor: u32,
  armor: bool,
  token: Option<&CancelToken>,
) -> napi::Result<AsyncTask<Work<AgeJob>>> {
  queue(
    env,
    AgeOp::Encrypt { work_factor, armor },
    data,
    passphrase,
    token,
  )
}

/// `ageDecrypt(data, passphrase, maxWorkFactor)`: the plaintext of an age file (binary or
/// armored) encrypted to the passphrase, refusing scrypt work factors above `maxWorkFactor`.
#[napi(ts_return_type = "Buffer")]
pub fn age_decrypt<'e>(
  env: &'e Env,
  data: Unknown,
  passphrase: Unknown,
  max_work_factor: u32,
) -> napi::Result<Unknown<'e>> {
  run_now(env, AgeOp::Decrypt { max_work_factor }, data, passphrase)
}

/// `ageDecrypt` on the libuv pool.
#[napi(ts_return_type = "Promise<Buffer>")]
pub fn age_decrypt_async(
  env: &Env,
  data: Unknown,
  passphrase: Unknown,
  max_work_factor: u32,
  token: Option<&CancelToken>,
) -> napi::Result<AsyncTask<Work<AgeJob>>> {
  queue(
    env,
    AgeOp::Decrypt { max_work_factor },
    data,
    passphrase,
    token,
  )
}
