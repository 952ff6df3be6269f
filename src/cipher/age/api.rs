//! The age entry points seen from JavaScript (wrapped by `lib/age.js`, `crypto.cipher.age`).
//!
//! - `ageEncrypt(data, passphrase, workFactor, armor)` / `ageDecrypt(data, passphrase,
//!   maxWorkFactor)`: synchronous, inputs read in place;
//! - `ageEncryptAsync(..., token?)` / `ageDecryptAsync(..., token?)`: the same on the libuv pool
//!   (`crate::task`), on copies of the inputs made at call time; `token` stops the scrypt work
//!   within about a millisecond and the payload between 1 MiB pieces.
//!
//! - `ageFile(decrypt, src, dst, passphrase, workFactor, token?, progress?)`: a file sealed or
//!   opened on the pool by `stream_file.rs` ([`AgeFile`] is the format), binary form only;
//!   resolves to the bytes written.
//!
//! Encryption returns a Buffer, or the armored text as a string; decryption a Buffer.

use napi::bindgen_prelude::{AsyncTask, Unknown};
use napi::Env;
use napi_derive::napi;

use super::scrypt::{ScryptIdentity, ScryptRecipient};
use super::CHUNK;
use crate::cipher::stream_format::Codec;
use crate::error::{CryptoResult, OrThrow};
use crate::file_io::FileProgress;
use crate::js;
use crate::kdf::Secret;
use crate::staging::Staged;
use crate::stream_file::{Begun, FileJob, StreamFormat};
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

/// An age file on disk as a format of the file pipeline: the call and its passphrase. The
/// payload's 64 KiB chunks go through the streaming AEAD's [`Codec`] (age's sealer / opener).
pub struct AgeFile {
  op: AgeOp,
  passphrase: Secret,
}

impl StreamFormat for AgeFile {
  type Body = Codec;

  fn head_len(&self) -> usize {
    match self.op {
      AgeOp::Encrypt { .. } => 0,
      AgeOp::Decrypt { .. } => super::FILE_START,
    }
  }

  fn begin(self, head: &[u8], cancel: &Cancel) -> CryptoResult<Begun<Codec>> {
    let chunk = CHUNK as u32;
    match self.op {
      AgeOp::Encrypt { work_factor, .. } => {
        let recipient = ScryptRecipient::new(&self.passphrase, work_factor)?;
        let (lead, sealer) = super::begin_encrypt(&[&recipient], cancel)?;
        Ok(Begun {
          lead,
          consumed: 0,
          body: Codec::Seal(sealer, chunk),
        })
      }
      AgeOp::Decrypt { max_work_factor } => {
        super::refuse_armor(head)?;
        let identity = ScryptIdentity::new(&self.passphrase, max_work_factor)?;
        let (opener, consumed) = super::begin_decrypt(&identity, head, cancel)?;
        Ok(Begun {
          lead: Vec::new(),
          consumed,
          body: Codec::Open(opener, chunk),
        })
      }
    }
  }
}

/// `ageFile(decrypt, src, dst, passphrase, workFactor, token?, progress?)`: `src` encrypted to
/// the passphrase into `dst` (a binary age file, scrypt at N = 2^workFactor), or with `decrypt`
/// the plaintext of the binary age file `src` into `dst` (`workFactor` is then the ceiling,
/// `maxWorkFactor`), renamed there after the last chunk verified; on the libuv pool, resolving
/// to the bytes written.
#[napi(ts_return_type = "Promise<number>")]
#[allow(clippy::too_many_arguments)]
pub fn age_file(
  env: &Env,
  decrypt: bool,
  src: Unknown,
  dst: Unknown,
  passphrase: Unknown,
  work_factor: u32,
  token: Option<&CancelToken>,
  progress: Option<&FileProgress>,
) -> napi::Result<AsyncTask<Work<FileJob<AgeFile>>>> {
  let op = if decrypt {
    AgeOp::Decrypt {
      max_work_factor: work_factor,
    }
  } else {
    AgeOp::Encrypt {
      work_factor,
      armor: false,
    }
  };
  let job = (|| {
    let passphrase = js::read_arg(env, &passphrase, "options.passphrase")?.into_owned();
    op.check(&passphrase)?;
    FileJob::new(env, AgeFile { op, passphrase }, &src, &dst, progress)
  })()
  .or_throw(env)?;
  Ok(Work::new(job, token))
}
