//! The cipher entry points seen from JavaScript (wrapped by `lib/cipher.js`).
//!
//! - `cipher(op, key, iv, data, aad, out, tagLength)` (raw N-API, the hot synchronous path):
//!   writes into `out`, which JS allocated with the length `cipherModes()` lets it compute, and
//!   returns the number of bytes written. `key` is key bytes or a kept-key handle.
//! - `cipherKey(family, key)` (raw): a kept-key handle, an External tagged as ours, caching one
//!   expanded key per mode.
//! - `cipherAsync(...)`: the same work on the libuv pool, on copies of the inputs.
//! - `cipherModes()`: the mode table; `passphraseEncrypt/Decrypt`: the OpenSSL/crypto-js format.

use std::cell::RefCell;
use std::ffi::c_void;
use std::ptr;

use napi::bindgen_prelude::{AbortSignal, AsyncTask, Buffer, Unknown};
use napi::{sys, Env, JsValue, Result, Task};
use napi_derive::napi;
use zeroize::Zeroizing;

use super::{openssl, run, Engine, Family, Mode, Op, MODES};
use crate::bytes::{self, Bytes};
use crate::error::{Code, CryptoError, CryptoResult, OrThrow};
use crate::raw;

/// `op` bits besides the mode id (bits 0..7).
const OP_DECRYPT: u32 = 1 << 8;
const OP_NO_PADDING: u32 = 1 << 9;

/// One mode as the JS layer sees it (built from `MODES`).
#[napi(object)]
pub struct CipherModeInfo {
  pub id: u32,
  /// `'aes'`, `'chacha20'` or `'des'`.
  pub family: String,
  /// The `mode` option value, e.g. `'gcm'`.
  pub name: String,
  /// Length in bytes of the IV generated (and prepended) when none is given; 0 = no IV.
  pub iv_length: u32,
  /// PKCS#7 block size in bytes; 0 when the mode has no padding.
  pub block_size: u32,
  /// AEAD tag lengths in bytes; empty when the mode does not authenticate.
  pub tag_lengths: Vec<u32>,
  pub key_lengths: Vec<u32>,
}

/// The mode table, in id order.
#[napi]
pub fn cipher_modes() -> Vec<CipherModeInfo> {
  MODES
    .iter()
    .map(|m| CipherModeInfo {
      id: m.mode as u32,
      family: m.family.name().to_string(),
      name: m.name.to_string(),
      iv_length: m.iv_default as u32,
      block_size: m.pad_block as u32,
      tag_lengths: m.tags.iter().map(|&t| t as u32).collect(),
      key_lengths: m.keys.iter().map(|&t| t as u32).collect(),
    })
    .collect()
}

fn decode_op(bits: u32) -> CryptoResult<(Mode, bool, bool)> {
  let mode = Mode::from_id(bits & 0xff)
    .ok_or_else(|| CryptoError::invalid_value("mode", "a known mode id", bits & 0xff))?;
  Ok((mode, bits & OP_DECRYPT != 0, bits & OP_NO_PADDING == 0))
}

// ------------------------------------------------------------------------------------------------
// Kept keys
// ------------------------------------------------------------------------------------------------

/// A key kept across calls, with the expanded key for each mode used so far.
pub struct KeyHandle {
  family: Family,
  key: Zeroizing<Vec<u8>>,
  engines: RefCell<Vec<Option<Engine>>>,
}

impl KeyHandle {
  fn with_engine<R>(
    &self,
    mode: Mode,
    f: impl FnOnce(&mut Engine) -> CryptoResult<R>,
  ) -> CryptoResult<R> {
    if mode.info().family != self.family {
      return Err(CryptoError::invalid_value(
        "key",
        format!("a {} key", mode.info().family.name()),
        format!("a {} key", self.family.name()),
      ));
    }
    let mut engines = self
      .engines
      .try_borrow_mut()
      .map_err(|_| CryptoError::new(Code::Operation, "key object in use"))?;
    let slot = engines
      .get_mut(mode as usize)
      .ok_or_else(|| CryptoError::new(Code::Operation, "internal error: mode id"))?;
    if slot.is_none() {
      *slot = Some(Engine::new(mode, &self.key)?);
    }
    match slot.as_mut() {
      Some(e) => f(e),
      None => Err(CryptoError::new(Code::Operation, "internal error: engine")),
    }
  }
}

/// Marks externals made by `cipherKey`, so no other External is taken for a key handle.
const KEY_TAG: sys::napi_type_tag = sys::napi_type_tag {
  lower: 0x6372_7970_746f_6b65,
  upper: 0x7931_6369_7068_6572,
};

unsafe extern "C" fn finalize_key(_env: sys::napi_env, data: *mut c_void, _hint: *mut c_void) {
  if !data.is_null() {
    drop(unsafe { Box::from_raw(data as *mut KeyHandle) });
  }
}

/// The kept key behind `value`, if it is one of ours.
unsafe fn key_handle<'a>(env: sys::napi_env, value: sys::napi_value) -> Option<&'a KeyHandle> {
  let mut ty = 0;
  unsafe { sys::napi_typeof(env, value, &mut ty) };
  if ty != sys::ValueType::napi_external {
    return None;
  }
  let mut ours = false;
  unsafe { sys::napi_check_object_type_tag(env, value, &KEY_TAG, &mut ours) };
  if !ours {
    return None;
  }
  let mut data = ptr::null_mut();
  unsafe { sys::napi_get_value_external(env, value, &mut data) };
  // SAFETY: tagged externals are only created by `cipher_key` around a leaked Box<KeyHandle>,
  // freed by the finalizer once JS can no longer reach the External.
  unsafe { (data as *const KeyHandle).as_ref() }
}

fn family_of(id: u32) -> CryptoResult<Family> {
  match id {
    0 => Ok(Family::Aes),
    1 => Ok(Family::ChaCha),
    2 => Ok(Family::Des),
    _ => Err(CryptoError::invalid_value("family", "0, 1 or 2", id)),
  }
}

/// `cipherKey(family, key)`: a kept-key handle (family 0 = AES, 1 = ChaCha20, 2 = DES).
pub unsafe extern "C" fn cipher_key(env: raw::Env, info: raw::Info) -> raw::Value {
  raw::call(env, info, |[family, key]| unsafe {
    let family = family_of(raw::opt_u32(env, family, "family")?.unwrap_or(u32::MAX))?;
    let key = bytes::read(env, key, "key")?;
    let len = key.as_slice().len();
    let mut accepted: Vec<usize> = MODES
      .iter()
      .filter(|m| m.family == family)
      .flat_map(|m| m.keys.iter().copied())
      .collect();
    accepted.sort_unstable();
    accepted.dedup();
    if !accepted.contains(&len) {
      return Err(CryptoError::new(
        Code::OutOfRange,
        format!(
          "Invalid key length for {}: it must be {} bytes. Received {len}",
          family.name(),
          super::list(&accepted)
        ),
      ));
    }
    let handle = Box::new(KeyHandle {
      family,
      key: Zeroizing::new(key.as_slice().to_vec()),
      engines: RefCell::new((0..MODES.len()).map(|_| None).collect()),
    });
    let data = Box::into_raw(handle) as *mut c_void;
    let mut out = ptr::null_mut();
    if sys::napi_create_external(env, data, Some(finalize_key), ptr::null_mut(), &mut out)
      != sys::Status::napi_ok
    {
      drop(Box::from_raw(data as *mut KeyHandle));
      return Err(CryptoError::new(
        Code::Operation,
        "cannot create the key object",
      ));
    }
    sys::napi_type_tag_object(env, out, &KEY_TAG);
    Ok(out)
  })
}

// ------------------------------------------------------------------------------------------------
// Synchronous one-shot
// ------------------------------------------------------------------------------------------------

unsafe fn opt_bytes(
  env: sys::napi_env,
  v: sys::napi_value,
  name: &str,
) -> CryptoResult<Option<Bytes>> {
  if unsafe { raw::is_nullish(env, v) } {
    return Ok(None);
  }
  unsafe { bytes::read(env, v, name) }.map(Some)
}

/// `cipher(op, key, iv, data, aad, out, tagLength) -> bytes written`.
pub unsafe extern "C" fn cipher(env: raw::Env, info: raw::Info) -> raw::Value {
  raw::call(env, info, |[op, key, iv, data, aad, out, tag]| unsafe {
    let (mode, decrypt, padding) = decode_op(raw::opt_u32(env, op, "op")?.unwrap_or(u32::MAX))?;
    let tag_len = raw::opt_u32(env, tag, "options.tagLength")?.unwrap_or(16) as usize;
    let iv = opt_bytes(env, iv, "options.iv")?;
    let aad = opt_bytes(env, aad, "options.aad")?;
    let data = bytes::read(env, data, "data")?;
    let target = bytes::read_out(env, out)?;
    let op = Op {
      mode,
      decrypt,
      padding,
      iv: iv.as_ref().map(Bytes::as_slice),
      aad: aad.as_ref().map_or(&[][..], Bytes::as_slice),
      tag_len,
    };
    let input = data.as_slice();
    // `out` is allocated by lib/cipher.js; refuse an output that overlaps the input (only a
    // direct caller of the binding could pass one), since the modes read and write separately.
    let (i0, o0) = (input.as_ptr() as usize, target.as_ptr() as usize);
    if !input.is_empty() && !target.is_empty() && i0 < o0 + target.len() && o0 < i0 + input.len() {
      return Err(CryptoError::invalid_value(
        "out",
        "a buffer that does not overlap data",
        "an overlapping buffer",
      ));
    }
    let n = match key_handle(env, key) {
      Some(h) => h.with_engine(mode, |e| run(e, &op, input, target))?,
      None => {
        let key = bytes::read(env, key, "options.key")?;
        let mut engine = Engine::new(mode, key.as_slice())?;
        run(&mut engine, &op, input, target)?
      }
    };
    let mut result = ptr::null_mut();
    sys::napi_create_double(env, n as f64, &mut result);
    Ok(result)
  })
}

// ------------------------------------------------------------------------------------------------
// Asynchronous
// ------------------------------------------------------------------------------------------------

/// Owned copies of everything a cipher call needs, for the libuv pool.
pub struct CipherTask {
  bits: u32,
  key: Zeroizing<Vec<u8>>,
  iv: Option<Vec<u8>>,
  aad: Vec<u8>,
  data: Zeroizing<Vec<u8>>,
  tag_len: usize,
}

impl CipherTask {
  fn work(&self) -> CryptoResult<Vec<u8>> {
    let (mode, decrypt, padding) = decode_op(self.bits)?;
    let op = Op {
      mode,
      decrypt,
      padding,
      iv: self.iv.as_deref(),
      aad: &self.aad,
      tag_len: self.tag_len,
    };
    op.check()?;
    let mut engine = Engine::new(mode, &self.key)?;
    let mut out = vec![0u8; op.output_len(self.data.len())];
    let n = run(&mut engine, &op, &self.data, &mut out)?;
    out.truncate(n);
    Ok(out)
  }
}

impl Task for CipherTask {
  type Output = CryptoResult<Vec<u8>>;
  type JsValue = Buffer;

  fn compute(&mut self) -> Result<Self::Output> {
    Ok(self.work())
  }

  fn resolve(&mut self, env: Env, output: Self::Output) -> Result<Buffer> {
    output.map(Buffer::from).or_throw(&env)
  }
}

/// `cipherAsync(op, key, iv, data, aad, tagLength, signal)`: as `cipher`, off the event loop;
/// resolves to a Buffer. Inputs are copied before the work is queued.
#[napi(ts_return_type = "Promise<Buffer>")]
#[allow(clippy::too_many_arguments)]
pub fn cipher_async(
  env: Env,
  op: u32,
  key: Unknown,
  iv: Option<Unknown>,
  data: Unknown,
  aad: Option<Unknown>,
  tag_length: Option<u32>,
  signal: Option<AbortSignal>,
) -> Result<AsyncTask<CipherTask>> {
  let task = (|| -> CryptoResult<CipherTask> {
    let e = env.raw();
    let raw_of = |v: &Option<Unknown>| v.as_ref().map_or(ptr::null_mut(), |u| u.raw());
    let key = match unsafe { key_handle(e, key.raw()) } {
      Some(h) => {
        let (mode, ..) = decode_op(op)?;
        h.with_engine(mode, |_| Ok(()))?;
        Zeroizing::new(h.key.to_vec())
      }
      None => Zeroizing::new(bytes::read_arg(&env, &key, "options.key")?.into_vec()),
    };
    let iv = unsafe { opt_bytes(e, raw_of(&iv), "options.iv") }?.map(Bytes::into_vec);
    let aad =
      unsafe { opt_bytes(e, raw_of(&aad), "options.aad") }?.map_or_else(Vec::new, Bytes::into_vec);
    let data = Zeroizing::new(bytes::read_arg(&env, &data, "data")?.into_vec());
    Ok(CipherTask {
      bits: op,
      key,
      iv,
      aad,
      data,
      tag_len: tag_length.unwrap_or(16) as usize,
    })
  })()
  .or_throw(&env)?;
  Ok(AsyncTask::with_optional_signal(task, signal))
}

// ------------------------------------------------------------------------------------------------
// OpenSSL `Salted__` format (crypto-js compatibility)
// ------------------------------------------------------------------------------------------------

/// `"Salted__" ‖ salt(8) ‖ AES-256-CBC(EVP_BytesToKey-MD5(passphrase, salt))`: what
/// `CryptoJS.AES.encrypt(text, passphrase)` produces (before base64). Weak (one MD5 round):
/// for migrating data only.
#[napi]
pub fn passphrase_encrypt(env: Env, data: Unknown, passphrase: Unknown) -> Result<Buffer> {
  let data = bytes::read_arg(&env, &data, "data").or_throw(&env)?;
  let pass = bytes::read_arg(&env, &passphrase, "options.passphrase").or_throw(&env)?;
  openssl::encrypt(pass.as_slice(), data.as_slice())
    .map(Buffer::from)
    .or_throw(&env)
}

/// Reads the `Salted__` format (raw bytes; the JS layer decodes base64).
#[napi]
pub fn passphrase_decrypt(env: Env, data: Unknown, passphrase: Unknown) -> Result<Buffer> {
  let data = bytes::read_arg(&env, &data, "data").or_throw(&env)?;
  let pass = bytes::read_arg(&env, &passphrase, "options.passphrase").or_throw(&env)?;
  openssl::decrypt(pass.as_slice(), data.as_slice())
    .map(Buffer::from)
    .or_throw(&env)
}
