//! A finished job's [`Output`] as a JS value (on the main thread, in the task's `resolve`, or
//! in a synchronous call that produced one: the batch calls).

use napi::bindgen_prelude::{Buffer, ToNapiValue, Uint32Array, Unknown};
use napi::{sys, Env};

use super::{Cx, Value};
use crate::error::{CryptoError, CryptoResult};
use crate::task::Output;

impl Output {
  pub fn into_js(self, env: &Env) -> napi::Result<Unknown<'_>> {
    // SAFETY: `env` is the live environment of the running callback (napi-rs passes it to
    // `resolve` and to `#[napi]` functions).
    let raw = unsafe { self.into_raw(env) }?;
    // SAFETY: `raw` is a value just made with `env` in this call.
    Ok(unsafe { Unknown::from_raw_unchecked(env.raw(), raw) })
  }

  /// # Safety
  /// `env` is the live environment of the running callback, which `to_napi_value` requires.
  unsafe fn into_raw(self, env: &Env) -> napi::Result<sys::napi_value> {
    let raw = env.raw();
    match self {
      // The secret bytes are copied into the JS Buffer, then wiped when `b` drops.
      Output::Bytes(b) => Buffer::to_napi_value(raw, Buffer::from(b.as_slice())),
      Output::Buffer(v) => Buffer::to_napi_value(raw, Buffer::from(v)),
      Output::Text(s) => String::to_napi_value(raw, s),
      Output::Bool(b) => bool::to_napi_value(raw, b),
      Output::Number(x) => f64::to_napi_value(raw, x),
      Output::Kept(k) => k
        .keep(Cx::from(env))
        .map(|v| v.raw)
        .map_err(|e| e.into_napi(env)),
      Output::Items(data, lens) => {
        <(Buffer, Uint32Array)>::to_napi_value(raw, (Buffer::from(data), Uint32Array::new(lens)))
      }
    }
  }
}

impl<'js> Cx<'js> {
  /// `out` as a JS value, in a synchronous call.
  pub fn output(self, out: Output) -> CryptoResult<Value<'js>> {
    let env = Env::from_raw(self.env);
    // SAFETY: `self.env` is the live environment of the call `'js`.
    match unsafe { out.into_raw(&env) } {
      Ok(v) => Ok(Value::new(v)),
      Err(_) => Err(CryptoError::new(
        crate::error::Code::Operation,
        "cannot create the result",
      )),
    }
  }
}
