//! A [`CryptoError`] on its way into JavaScript: a `TypeError`, `RangeError` or `Error` (by the
//! error's code) with the `code` property set, thrown by raw entry points or wrapped in a
//! `napi::Error` for napi-rs functions and tasks (napi-rs throws, or rejects with, the wrapped
//! object itself, so the class and the code survive either path).

use std::ffi::CString;
use std::ptr;

use napi::bindgen_prelude::Unknown;
use napi::{sys, Env};

use super::{check, Cx, Value};
use crate::error::{CryptoError, CryptoResult, Kind, OrThrow};

impl<'js> Cx<'js> {
  /// The JS string `s`.
  fn string(self, s: &str) -> CryptoResult<Value<'js>> {
    let mut v = ptr::null_mut();
    // SAFETY: `self.env` is live for 'js; `s` is valid UTF-8 of the given length.
    check(unsafe {
      sys::napi_create_string_utf8(self.env, s.as_ptr().cast(), s.len() as isize, &mut v)
    })?;
    Ok(Value::new(v))
  }

  /// The JS error object for `e`; a system error also gets node's `errno` and `syscall`.
  pub fn error(self, e: &CryptoError) -> CryptoResult<Value<'js>> {
    let code = self.string(e.sys.as_ref().map_or(e.code.as_str(), |s| s.name))?;
    let msg = self.string(&e.message)?;
    let mut err = ptr::null_mut();
    // SAFETY: `self.env` is live for 'js; `code` and `msg` are string handles of this call.
    check(unsafe {
      match e.code.kind() {
        Kind::Type => sys::napi_create_type_error(self.env, code.raw, msg.raw, &mut err),
        Kind::Range => sys::napi_create_range_error(self.env, code.raw, msg.raw, &mut err),
        Kind::Plain => sys::napi_create_error(self.env, code.raw, msg.raw, &mut err),
      }
    })?;
    if let Some(s) = &e.sys {
      let errno = self.number(f64::from(s.errno))?;
      let syscall = self.string(s.syscall)?;
      for (key, v) in [(c"errno", errno), (c"syscall", syscall)] {
        // SAFETY: `self.env` is live for 'js; `err` and `v` are handles of this call; `key` is
        // NUL-terminated.
        check(unsafe { sys::napi_set_named_property(self.env, err, key.as_ptr(), v.raw) })?;
      }
    }
    Ok(Value::new(err))
  }

  /// Throws `e` (raw entry points return right after).
  pub fn throw(self, e: &CryptoError) {
    if let Ok(err) = self.error(e) {
      // SAFETY: `self.env` is live for 'js and `err` an error object of this call.
      if check(unsafe { sys::napi_throw(self.env, err.raw) }).is_ok() {
        return;
      }
    }
    // Creating the error object failed (the environment is shutting down, or an exception is
    // already pending): fall back to the simplest throw N-API has; if that fails too, the
    // pending exception is what JavaScript sees.
    let c = CString::new(e.code.as_str()).unwrap_or_default();
    let m = CString::new(e.message.replace('\0', " ")).unwrap_or_default();
    // SAFETY: `self.env` is live for 'js; both strings are NUL-terminated.
    let _ = check(unsafe { sys::napi_throw_error(self.env, c.as_ptr(), m.as_ptr()) });
  }
}

impl CryptoError {
  /// Wraps the finished JS error object in a `napi::Error`, for napi-rs functions and tasks.
  pub fn into_napi(self, env: &Env) -> napi::Error {
    match Cx::from(env).error(&self) {
      Ok(err) => {
        // SAFETY: `err` is a live error object made with `env` during this call.
        let err = unsafe { Unknown::from_raw_unchecked(env.raw(), err.raw) };
        // napi-rs's `From<Unknown>` keeps only the message on wasm (the error would reach
        // JavaScript as an `Error` with code 'GenericFailure'); this conversion keeps a reference
        // to the object there too.
        #[cfg(target_family = "wasm")]
        return napi::Error::from_unknown_without_coercion(err);
        #[cfg(not(target_family = "wasm"))]
        napi::Error::from(err)
      }
      Err(_) => napi::Error::from_reason(format!("{}: {}", self.code.as_str(), self.message)),
    }
  }
}

impl<T> OrThrow<T> for CryptoResult<T> {
  #[inline]
  fn or_throw(self, env: &Env) -> napi::Result<T> {
    self.map_err(|e| e.into_napi(env))
  }
}
