//! A finished job's [`Output`] as a JS value (on the main thread, in the task's `resolve`).

use napi::bindgen_prelude::{Buffer, ToNapiValue, Unknown};
use napi::Env;

use super::Cx;
use crate::task::Output;

impl Output {
  pub fn into_js(self, env: &Env) -> napi::Result<Unknown<'_>> {
    // SAFETY: `env` is the live environment of the running callback (napi-rs passes it to
    // `resolve` and to `#[napi]` functions), which `to_napi_value` requires.
    let raw = unsafe {
      match self {
        // The secret bytes are copied into the JS Buffer, then wiped when `b` drops.
        Output::Bytes(b) => Buffer::to_napi_value(env.raw(), Buffer::from(b.as_slice()))?,
        Output::Buffer(v) => Buffer::to_napi_value(env.raw(), Buffer::from(v))?,
        Output::Text(s) => String::to_napi_value(env.raw(), s)?,
        Output::Bool(b) => bool::to_napi_value(env.raw(), b)?,
        Output::Number(x) => f64::to_napi_value(env.raw(), x)?,
        Output::Kept(k) => k.keep(Cx::from(env)).map_err(|e| e.into_napi(env))?.raw,
      }
    };
    // SAFETY: `raw` is a value just made with `env` in this call.
    Ok(unsafe { Unknown::from_raw_unchecked(env.raw(), raw) })
  }
}
