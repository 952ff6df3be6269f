//! The fields of an options object passed to a `#[napi]` entry point.
//!
//! Reading a property can run JavaScript (a getter), and JavaScript could then detach or shrink
//! a buffer whose bytes the call already holds a view of. So an entry point reads all of its
//! option fields first, with one [`Object::values`] call, and converts them afterwards; the JS
//! layer also passes objects it built itself, with plain data properties.

use std::ffi::CStr;
use std::ptr;

use napi::bindgen_prelude::Unknown;
use napi::{sys, Env};

use super::{check, Cx, Value};
use crate::error::{CryptoError, CryptoResult};

/// An options object (or `undefined`/`null`, which has no fields).
#[derive(Clone, Copy)]
pub struct Object<'js> {
  cx: Cx<'js>,
  value: Option<Value<'js>>,
}

impl<'js> Object<'js> {
  /// The options argument `v` of the `#[napi]` function running with `env`.
  pub fn new(env: &'js Env, v: Option<&Unknown<'js>>) -> CryptoResult<Self> {
    let cx = Cx::from(env);
    let value = v.map(Value::from).filter(|&v| !cx.is_nullish(v));
    if let Some(v) = value {
      if cx.type_of(v) != Some(sys::ValueType::napi_object) {
        return Err(CryptoError::arg_type(
          "options",
          "of type object",
          cx.describe(v),
        ));
      }
    }
    Ok(Object { cx, value })
  }

  /// The fields named `keys`, in order (`undefined` where absent), read before any is used.
  pub fn values<const N: usize>(&self, keys: [&CStr; N]) -> CryptoResult<[Value<'js>; N]> {
    let mut out = [Value::undefined(); N];
    let Some(obj) = self.value else {
      return Ok(out);
    };
    for (slot, key) in out.iter_mut().zip(keys) {
      let mut v = ptr::null_mut();
      // SAFETY: `self.cx.env` is live for 'js, `obj` a live object handle of this call, `key`
      // NUL-terminated.
      check(unsafe { sys::napi_get_named_property(self.cx.env, obj.raw, key.as_ptr(), &mut v) })?;
      *slot = Value::new(v);
    }
    Ok(out)
  }
}
