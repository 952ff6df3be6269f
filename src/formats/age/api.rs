//! The age entry points seen from JavaScript (wrapped by `lib/age.js`, `crypto.cipher.age`).
//!
//! - `ageEncrypt(data, passphrase, keys, workFactor, armor)` / `ageDecrypt(data, passphrase,
//!   keys, maxWorkFactor)`: synchronous, inputs read in place; `keys` (X25519 key strings,
//!   [`AgeKey`]) when given replaces the passphrase;
//! - `ageGenerateIdentity()` / `ageToRecipient(identity)`: X25519 key strings;
//! - `ageEncryptAsync(..., token?)` / `ageDecryptAsync(..., token?)`: the same on the libuv pool
//!   (`crate::task`), on copies of the inputs made at call time; `token` stops the scrypt work
//!   within about a millisecond and the payload between 1 MiB pieces.
//!
//! - `ageFile(request, src, dst, passphrase, token?, progress?)` ([`AgeFileRequest`]): a file
//!   sealed or opened on the pool by `formats/file.rs` ([`AgeFile`] is the format), binary form
//!   only; resolves to the bytes written.
//!
//! Encryption returns a Buffer, or the armored text as a string; decryption a Buffer.

use napi::bindgen_prelude::{AsyncTask, Unknown};
use napi::Env;
use napi_derive::napi;

use zeroize::Zeroizing;

use super::scrypt::{ScryptIdentity, ScryptRecipient};
use super::x25519::{X25519Identity, X25519Recipient};
use super::{Identity, Recipient, CHUNK};
use crate::error::{CryptoResult, OrThrow};
use crate::file_io::FileProgress;
use crate::formats::aead_stream::Codec;
use crate::formats::file::FileJob;
use crate::formats::{Begun, Format};
use crate::js;
use crate::kdf::Secret;
use crate::staging::Staged;
use crate::task::{Cancel, CancelToken, Job, Output, Work};

/// What an age call encrypts to or decrypts with, copied at call time: a passphrase, or X25519
/// key strings (`age1…` recipients when encrypting, `AGE-SECRET-KEY-1…` identities when
/// decrypting).
pub enum AgeKey {
  Passphrase(Secret),
  X25519(Vec<Zeroizing<String>>),
}

impl AgeKey {
  /// The `passphrase` argument, or the `keys` strings when given.
  fn read(env: &Env, passphrase: &Unknown, keys: Option<Vec<String>>) -> CryptoResult<Self> {
    Ok(match keys {
      Some(k) => AgeKey::X25519(k.into_iter().map(Zeroizing::new).collect()),
      None => AgeKey::Passphrase(js::read_arg(env, passphrase, "options.passphrase")?.into_owned()),
    })
  }
}

/// One age call, its numbers checked when it is made.
#[derive(Clone, Copy)]
enum AgeOp {
  Encrypt { work_factor: u32, armor: bool },
  Decrypt { max_work_factor: u32 },
}

/// `f` with the recipient of `key` (encrypting at `work_factor` for a passphrase).
fn with_recipient<T>(
  key: &AgeKey,
  work_factor: u32,
  f: impl FnOnce(&dyn Recipient) -> CryptoResult<T>,
) -> CryptoResult<T> {
  match key {
    AgeKey::Passphrase(p) => f(&ScryptRecipient::new(p, work_factor)?),
    AgeKey::X25519(k) => f(&X25519Recipient::parse(k, "options.recipients")?),
  }
}

/// `f` with the identity of `key` (refusing work factors above `max` for a passphrase).
fn with_identity<T>(
  key: &AgeKey,
  max: u32,
  f: impl FnOnce(&dyn Identity) -> CryptoResult<T>,
) -> CryptoResult<T> {
  match key {
    AgeKey::Passphrase(p) => f(&ScryptIdentity::new(p, max)?),
    AgeKey::X25519(k) => f(&X25519Identity::parse(k, "options.identities")?),
  }
}

impl AgeOp {
  /// Refuses bad numbers, an empty passphrase and bad key strings before any work (and before
  /// queueing).
  fn check(self, key: &AgeKey) -> CryptoResult<()> {
    match self {
      AgeOp::Encrypt { work_factor, .. } => with_recipient(key, work_factor, |_| Ok(())),
      AgeOp::Decrypt { max_work_factor } => with_identity(key, max_work_factor, |_| Ok(())),
    }
  }

  fn run(self, key: &AgeKey, data: &[u8], cancel: &Cancel) -> CryptoResult<Output> {
    match self {
      AgeOp::Encrypt { work_factor, armor } => {
        let file = with_recipient(key, work_factor, |r| super::encrypt(&[r], data, cancel))?;
        Ok(if armor {
          Output::Text(super::armor(&file))
        } else {
          Output::Buffer(file)
        })
      }
      AgeOp::Decrypt { max_work_factor } => with_identity(key, max_work_factor, |id| {
        super::decrypt(id, data, cancel).map(Output::Buffer)
      }),
    }
  }
}

/// Runs `op` now, on the caller's bytes.
fn run_now<'e>(
  env: &'e Env,
  op: AgeOp,
  data: Unknown,
  passphrase: Unknown,
  keys: Option<Vec<String>>,
) -> napi::Result<Unknown<'e>> {
  let result = (|| {
    let key = AgeKey::read(env, &passphrase, keys)?;
    let data = js::read_arg(env, &data, "data")?;
    op.run(&key, data.as_slice(), &Cancel::NEVER)
  })();
  result.or_throw(env)?.into_js(env)
}

/// Copies of an age call's inputs, made at call time, for the libuv pool.
pub struct AgeJob {
  op: AgeOp,
  key: AgeKey,
  data: Option<Staged>,
}

impl Job for AgeJob {
  fn run(&mut self, cancel: &Cancel) -> CryptoResult<Output> {
    let data = self
      .data
      .as_ref()
      .ok_or_else(crate::error::CryptoError::internal)?;
    let result = self.op.run(&self.key, data.as_slice(), cancel);
    // A job waiting for its scrypt memory runs again on the same copy.
    if !crate::budget::job_waits() {
      if let Some(data) = self.data.take() {
        data.recycle();
      }
    }
    result
  }
}

fn queue(
  env: &Env,
  op: AgeOp,
  data: Unknown,
  passphrase: Unknown,
  keys: Option<Vec<String>>,
  token: Option<&CancelToken>,
) -> napi::Result<AsyncTask<Work<AgeJob>>> {
  let job = (|| {
    let key = AgeKey::read(env, &passphrase, keys)?;
    op.check(&key)?;
    Ok(AgeJob {
      op,
      key,
      data: Some(js::read_arg(env, &data, "data")?.into_staged()?),
    })
  })()
  .or_throw(env)?;
  Ok(Work::new(job, token))
}

/// `ageEncrypt(data, passphrase, keys, workFactor, armor)`: an age file encrypted to the passphrase
/// (scrypt at N = 2^workFactor): a Buffer, or with `armor` the PEM text.
#[napi(ts_return_type = "Buffer | string")]
pub fn age_encrypt<'e>(
  env: &'e Env,
  data: Unknown,
  passphrase: Unknown,
  keys: Option<Vec<String>>,
  work_factor: u32,
  armor: bool,
) -> napi::Result<Unknown<'e>> {
  run_now(
    env,
    AgeOp::Encrypt { work_factor, armor },
    data,
    passphrase,
    keys,
  )
}

/// `ageEncrypt` on the libuv pool.
#[napi(ts_return_type = "Promise<Buffer | string>")]
pub fn age_encrypt_async(
  env: &Env,
  data: Unknown,
  passphrase: Unknown,
  keys: Option<Vec<String>>,
  work_factor: u32,
  armor: bool,
  token: Option<&CancelToken>,
) -> napi::Result<AsyncTask<Work<AgeJob>>> {
  queue(
    env,
    AgeOp::Encrypt { work_factor, armor },
    data,
    passphrase,
    keys,
    token,
  )
}

/// `ageDecrypt(data, passphrase, keys, maxWorkFactor)`: the plaintext of an age file (binary or
/// armored) encrypted to the passphrase, refusing scrypt work factors above `maxWorkFactor`.
#[napi(ts_return_type = "Buffer")]
pub fn age_decrypt<'e>(
  env: &'e Env,
  data: Unknown,
  passphrase: Unknown,
  keys: Option<Vec<String>>,
  max_work_factor: u32,
) -> napi::Result<Unknown<'e>> {
  run_now(
    env,
    AgeOp::Decrypt { max_work_factor },
    data,
    passphrase,
    keys,
  )
}

/// `ageDecrypt` on the libuv pool.
#[napi(ts_return_type = "Promise<Buffer>")]
pub fn age_decrypt_async(
  env: &Env,
  data: Unknown,
  passphrase: Unknown,
  keys: Option<Vec<String>>,
  max_work_factor: u32,
  token: Option<&CancelToken>,
) -> napi::Result<AsyncTask<Work<AgeJob>>> {
  queue(
    env,
    AgeOp::Decrypt { max_work_factor },
    data,
    passphrase,
    keys,
    token,
  )
}

/// An age file on disk as a format of the file pipeline: the call and its passphrase. The
/// payload's 64 KiB chunks go through the streaming AEAD's [`Codec`] (age's sealer / opener).
pub struct AgeFile {
  op: AgeOp,
  key: AgeKey,
}

impl Format for AgeFile {
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
        let (lead, sealer) = with_recipient(&self.key, work_factor, |r| {
          super::begin_encrypt(&[r], cancel)
        })?;
        Ok(Begun {
          lead,
          consumed: 0,
          body: Codec::Seal(sealer, chunk),
        })
      }
      AgeOp::Decrypt { max_work_factor } => {
        super::refuse_armor(head)?;
        let (opener, consumed) = with_identity(&self.key, max_work_factor, |id| {
          super::begin_decrypt(id, head, cancel)
        })?;
        Ok(Begun {
          lead: Vec::new(),
          consumed,
          body: Codec::Open(opener, chunk),
        })
      }
    }
  }

  fn memory(&self, head: &[u8]) -> Option<(&'static str, u64)> {
    let bytes = match self.op {
      AgeOp::Encrypt { work_factor, .. } => match self.key {
        AgeKey::Passphrase(_) => super::scrypt::memory(work_factor),
        AgeKey::X25519(_) => 0,
      },
      AgeOp::Decrypt { max_work_factor } => with_identity(&self.key, max_work_factor, |id| {
        Ok(super::decrypt_memory(id, head))
      })
      .ok()?,
    };
    (bytes > 0).then_some(("scrypt", bytes))
  }
}

/// What an `ageFile` call does: the direction, the X25519 keys (recipients, or identities when
/// decrypting; without them the call's passphrase is the key), and the scrypt work factor (the
/// ceiling `maxWorkFactor` when decrypting).
#[napi(object)]
pub struct AgeFileRequest {
  pub decrypt: bool,
  pub keys: Option<Vec<String>>,
  pub work_factor: u32,
}

/// `ageFile(request, src, dst, passphrase, token?, progress?)`: `src` encrypted to the passphrase
/// (or the recipients) into `dst` (a binary age file, scrypt at N = 2^workFactor), or with
/// `decrypt` the plaintext of the binary age file `src` into `dst`, renamed there after the last
/// chunk verified; on the libuv pool, resolving to the bytes written.
#[napi(ts_return_type = "Promise<number>")]
pub fn age_file(
  env: &Env,
  request: AgeFileRequest,
  src: Unknown,
  dst: Unknown,
  passphrase: Unknown,
  token: Option<&CancelToken>,
  progress: Option<&FileProgress>,
) -> napi::Result<AsyncTask<Work<FileJob<AgeFile>>>> {
  let AgeFileRequest {
    decrypt,
    keys,
    work_factor,
  } = request;
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
    let key = AgeKey::read(env, &passphrase, keys)?;
    op.check(&key)?;
    FileJob::new(env, AgeFile { op, key }, &src, &dst, progress)
  })()
  .or_throw(env)?;
  Ok(Work::new(job, token))
}

/// `ageGenerateIdentity()`: a new X25519 identity, `AGE-SECRET-KEY-1…`.
#[napi]
pub fn age_generate_identity(env: &Env) -> napi::Result<String> {
  let id = super::x25519::generate().or_throw(env)?;
  Ok(id.to_string())
}

/// `ageToRecipient(identity)`: the `age1…` recipient of an X25519 identity.
#[napi]
pub fn age_to_recipient(env: &Env, identity: String) -> napi::Result<String> {
  let identity = Zeroizing::new(identity);
  let id = X25519Identity::parse(&[identity.as_str()], "identity").or_throw(env)?;
  Ok(id.recipients().remove(0))
}
