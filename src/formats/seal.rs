//! Sealed messages (wrapped by `lib/seal.js`: `sealSync`/`sealAsync`, `openSync`/`openAsync`,
//! `deriveKeySync`/`deriveKeyAsync` on `crypto.cipher.aes` and `crypto.cipher.xchacha20`): a
//! message sealed whole in memory as a stream of the library's format (`aead_stream.rs`;
//! `docs/stream-format.md`, "Sealed messages"), under a passphrase (key source 1: Argon2id over
//! the message's salt) or under a key derived once from a passphrase (key source 2: Argon2id over
//! the key's own salt, kept; each message still has its own salt, so its own key and nonces).
//!
//! - `sealedMessage(alg, decrypt, secret, data, options)`: `secret` is a passphrase, or the handle
//!   of a derived key; the options are the streams' (`aad`, Argon2id's cost when sealing with a
//!   passphrase, its ceilings when opening). Returns the sealed message, or the plaintext.
//! - `sealedMessageAsync(alg, decrypt, secret, data, options, token?)`: the same on the libuv
//!   pool, on copies of the inputs made at call time.
//! - `derivedKey(passphrase, options)` / `derivedKeyAsync(passphrase, options, token?)`: Argon2id
//!   of the passphrase (`memoryCost`, `timeCost`, `parallelism`) under a new random salt, as a
//!   handle that holds the 32-byte output, never the passphrase.
//! - `derivedKeyDispose(key)`: wipes the key now; the handle is refused from then on. A key
//!   never disposed is wiped when its handle is collected.

use std::cell::RefCell;

use napi::bindgen_prelude::{AsyncTask, BufferSlice, JsValue, Unknown};
use napi::Env;
use napi_derive::napi;
use zeroize::Zeroizing;

use super::aead_stream::{Cost, DerivedKey, Spec, StreamSecret, DEFAULT_COST};
use super::aead_stream_api::{algorithm, spec};
use crate::error::{Code, CryptoError, CryptoResult, OrThrow};
use crate::js::{self, Cx, Kept, Tag, Value};
use crate::staging::Staged;
use crate::task::{twins, Cancel, CancelToken, Job, Output, Work};

/// A derived key held by a JS handle; `None` once disposed.
pub struct KeptKey(RefCell<Option<DerivedKey>>);

impl Kept for KeptKey {
  const TAG: Tag = Tag {
    lower: 0x6372_7970_746f_6465,
    upper: 0x7269_7665_642e_6b65,
  };
  const WHAT: &'static str = "a key made by deriveKeySync() or deriveKeyAsync()";
}

impl KeptKey {
  /// A copy of the key, for one call.
  fn get(&self) -> CryptoResult<DerivedKey> {
    let key = self.0.try_borrow().map_err(|_| CryptoError::internal())?;
    key
      .clone()
      .ok_or_else(|| CryptoError::new(Code::Operation, "The key was disposed: derive it again"))
  }
}

/// The secret argument: a derived key's handle, or a passphrase.
fn read_secret(env: &Env, secret: &Unknown) -> CryptoResult<StreamSecret> {
  let cx = Cx::from(env);
  if let Some(key) = cx.kept::<KeptKey>(Value::from(secret)) {
    return Ok(StreamSecret::Derived(key.get()?));
  }
  let passphrase = cx
    .bytes(Value::from(secret), "options.passphrase")?
    .into_owned();
  super::check_passphrase(&passphrase)?;
  Ok(StreamSecret::Passphrase(passphrase))
}

/// One call's request.
fn request(
  env: &Env,
  alg: u32,
  decrypt: bool,
  secret: &Unknown,
  options: Option<&Unknown>,
) -> CryptoResult<Spec> {
  spec(
    env,
    algorithm(alg)?,
    decrypt,
    read_secret(env, secret)?,
    options,
  )
}

/// The name of the data argument in errors.
const fn data_name(decrypt: bool) -> &'static str {
  if decrypt {
    "sealed"
  } else {
    "data"
  }
}

/// `sealedMessage(alg, decrypt, secret, data, options)`: `data` sealed, or opened, now, read where
/// it is. The result is copied into a Buffer V8 allocates (and wiped here): for a small message
/// that costs less than an external Buffer over the Vec, which V8 tracks with a finalizer.
#[napi(ts_return_type = "Buffer")]
pub fn sealed_message<'js>(
  env: &'js Env,
  alg: u32,
  decrypt: bool,
  secret: Unknown<'js>,
  data: Unknown<'js>,
  options: Option<Unknown<'js>>,
) -> napi::Result<Unknown<'js>> {
  let out = (|| {
    let spec = request(env, alg, decrypt, &secret, options.as_ref())?;
    let data = js::read_arg(env, &data, data_name(decrypt))?;
    spec
      .run_all(data.as_slice(), &Cancel::NEVER)
      .map(Zeroizing::new)
  })()
  .or_throw(env)?;
  Ok(BufferSlice::copy_from(env, &out[..])?.to_unknown())
}

/// A sealed message's call for the pool, its inputs copied at call time.
pub struct SealJob {
  spec: Option<Spec>,
  data: Option<Staged>,
}

impl Job for SealJob {
  fn run(&mut self, cancel: &Cancel) -> CryptoResult<Output> {
    let (spec, data) = self
      .spec
      .take()
      .zip(self.data.take())
      .ok_or_else(CryptoError::internal)?;
    let result = spec.run_all(data.as_slice(), cancel);
    data.recycle();
    result.map(Output::Buffer)
  }
}

/// `sealedMessage` on the libuv pool.
#[napi(ts_return_type = "Promise<Buffer>")]
pub fn sealed_message_async<'js>(
  env: &'js Env,
  alg: u32,
  decrypt: bool,
  secret: Unknown<'js>,
  data: Unknown<'js>,
  options: Option<Unknown<'js>>,
  token: Option<&CancelToken>,
) -> napi::Result<AsyncTask<Work<SealJob>>> {
  let job = (|| {
    Ok(SealJob {
      spec: Some(request(env, alg, decrypt, &secret, options.as_ref())?),
      data: Some(js::read_arg(env, &data, data_name(decrypt))?.into_staged()?),
    })
  })()
  .or_throw(env)?;
  Ok(Work::new(job, token))
}

/// Argon2id of a passphrase under a new salt, made into a key handle.
pub struct DeriveJob {
  passphrase: Zeroizing<Vec<u8>>,
  cost: Cost,
}

impl DeriveJob {
  /// The passphrase and the cost options (`memoryCost`, `timeCost`, `parallelism`, the library's
  /// policy by default), checked now.
  fn new(env: &Env, passphrase: &Unknown, options: Option<&Unknown>) -> CryptoResult<DeriveJob> {
    let cx = Cx::from(env);
    let passphrase = cx
      .bytes(Value::from(passphrase), "passphrase")?
      .into_owned();
    super::check_passphrase(&passphrase)?;
    let [m, t, p] =
      js::Object::new(env, options)?.values([c"memoryCost", c"timeCost", c"parallelism"])?;
    let cost = Cost {
      m: cx
        .opt_u32(m, "options.memoryCost")?
        .unwrap_or(DEFAULT_COST.m),
      t: cx.opt_u32(t, "options.timeCost")?.unwrap_or(DEFAULT_COST.t),
      p: cx
        .opt_u32(p, "options.parallelism")?
        .unwrap_or(DEFAULT_COST.p),
    };
    cost.check()?;
    Ok(DeriveJob { passphrase, cost })
  }
}

impl Job for DeriveJob {
  fn run(&mut self, cancel: &Cancel) -> CryptoResult<Output> {
    let key = DerivedKey::derive(&self.passphrase, self.cost, cancel)?;
    Ok(Output::Kept(Box::new(KeptKey(RefCell::new(Some(key))))))
  }
}

twins! {
  #[doc = " `derivedKey(passphrase, options)`: a derived key's handle, made now."]
  #[napi]
  pub fn derived_key;
  #[doc = " `derivedKey` on the libuv pool."]
  #[napi]
  pub fn derived_key_async;
  (env, passphrase: Unknown, options: Option<Unknown>) -> DeriveJob {
    DeriveJob::new(env, &passphrase, options.as_ref())
  }
}

/// `derivedKeyDispose(key)`: the key wiped now (copies held by calls still running are wiped
/// when they end).
#[napi]
pub fn derived_key_dispose(env: &Env, key: Unknown) -> napi::Result<()> {
  (|| {
    let kept = Cx::from(env).kept_arg::<KeptKey>(Value::from(&key), "key")?;
    let mut key = kept
      .0
      .try_borrow_mut()
      .map_err(|_| CryptoError::internal())?;
    // Dropped here: `DerivedKey` holds its bytes in `Zeroizing`.
    key.take();
    Ok(())
  })()
  .or_throw(env)
}
