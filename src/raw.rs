//! Small helpers for the entry points written directly against N-API (`napi::sys`).
//!
//! The hottest calls (one-shot hash and HMAC) skip napi-rs's per-call bookkeeping, which costs
//! more than hashing 1 KiB (docs/backends.md, "N-API"). Everything here is a thin, checked wrapper
//! over one N-API call; no user input reaches an `unwrap` or an unchecked length.

use std::ptr;

use napi::sys;

use crate::algorithms::Alg;
use crate::error::{CryptoError, CryptoResult};

/// The first `N` arguments; missing ones are `undefined`.
///
/// # Safety
/// `env`/`info` must be the ones N-API passed to the running callback.
pub unsafe fn args<const N: usize>(
  env: sys::napi_env,
  info: sys::napi_callback_info,
) -> [sys::napi_value; N] {
  let mut argv = [ptr::null_mut(); N];
  let mut argc = N;
  unsafe {
    sys::napi_get_cb_info(
      env,
      info,
      &mut argc,
      argv.as_mut_ptr(),
      ptr::null_mut(),
      ptr::null_mut(),
    );
  }
  argv
}

/// Handle types of a raw entry point: `unsafe extern "C" fn(Env, Info) -> Value`.
pub type Env = sys::napi_env;
pub type Info = sys::napi_callback_info;
pub type Value = sys::napi_value;

/// The body of every raw entry point: reads `N` arguments, runs `f`, throws its error if any.
///
/// # Safety
/// `env`/`info` must be the ones N-API passed to the running callback; `f` may use them.
#[inline]
pub unsafe fn call<const N: usize>(
  env: Env,
  info: Info,
  f: impl FnOnce([Value; N]) -> CryptoResult<Value>,
) -> Value {
  let argv = unsafe { args::<N>(env, info) };
  complete(env, || f(argv))
}

/// Runs `f`; on error throws it and returns null (N-API's "nothing" return). A panic (a bug:
/// no user input is meant to reach one) is caught here and thrown as a JS `Error` instead of
/// unwinding into N-API, which would abort the process.
#[inline]
pub fn complete(
  env: sys::napi_env,
  f: impl FnOnce() -> CryptoResult<sys::napi_value>,
) -> sys::napi_value {
  let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f))
    .unwrap_or_else(|_| Err(CryptoError::internal()));
  match result {
    Ok(v) => v,
    Err(e) => {
      unsafe { e.throw(env) };
      ptr::null_mut()
    }
  }
}

/// # Safety
/// `env` must be live.
pub unsafe fn undefined(env: sys::napi_env) -> sys::napi_value {
  let mut v = ptr::null_mut();
  unsafe { sys::napi_get_undefined(env, &mut v) };
  v
}

/// True for `undefined`, `null` and absent (null handle) values.
///
/// # Safety
/// `env` must be live; `v` null or a live handle.
pub unsafe fn is_nullish(env: sys::napi_env, v: sys::napi_value) -> bool {
  if v.is_null() {
    return true;
  }
  let mut ty = 0;
  unsafe { sys::napi_typeof(env, v, &mut ty) };
  ty == sys::ValueType::napi_undefined || ty == sys::ValueType::napi_null
}

/// An algorithm id (internal argument: the JS layer passes ids from `algorithms()`).
///
/// # Safety
/// As [`is_nullish`].
pub unsafe fn alg(env: sys::napi_env, v: sys::napi_value) -> CryptoResult<Alg> {
  let mut id = u32::MAX;
  unsafe { sys::napi_get_value_uint32(env, v, &mut id) };
  Alg::from_id(id).ok_or_else(|| CryptoError::invalid_value("algorithm", "a known hash id", id))
}

/// An optional non-negative integer no larger than `u32::MAX`.
///
/// # Safety
/// As [`is_nullish`].
pub unsafe fn opt_u32(
  env: sys::napi_env,
  v: sys::napi_value,
  name: &str,
) -> CryptoResult<Option<u32>> {
  if unsafe { is_nullish(env, v) } {
    return Ok(None);
  }
  let mut x = f64::NAN;
  if unsafe { sys::napi_get_value_double(env, v, &mut x) } != sys::Status::napi_ok {
    let got = unsafe { crate::bytes::describe(env, v) };
    return Err(CryptoError::arg_type(name, "of type number", got));
  }
  if x.fract() != 0.0 || !(0.0..=u32::MAX as f64).contains(&x) {
    return Err(CryptoError::out_of_range(
      name,
      "an integer >= 0 && <= 4294967295",
      x,
    ));
  }
  Ok(Some(x as u32))
}
