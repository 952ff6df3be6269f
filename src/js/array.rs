//! JS arrays of inputs (the batch calls): every element read before any is converted.
//!
//! Reading an element can run JavaScript (an accessor defined on the array, a getter on its
//! prototype for a hole), and JavaScript could then detach or shrink a buffer whose bytes the
//! call already holds a view of. So [`Cx::array`] reads all the elements first, and only then are
//! they converted to bytes (as [`super::Object::values`] does for options).

use std::ptr;

use napi::sys;

use super::{check, Bytes, Cx, Value};
use crate::error::{CryptoError, CryptoResult};

impl<'js> Cx<'js> {
  /// The length of the array `v` (`name` is the argument's name in the error message).
  fn array_len(self, v: Value<'js>, name: &str) -> CryptoResult<usize> {
    let mut is_array = false;
    // SAFETY: `self.env` is live for 'js and `v` a live handle of this call (N-API refuses a
    // null handle with a status).
    let status = unsafe { sys::napi_is_array(self.env, v.raw, &mut is_array) };
    if check(status).is_err() || !is_array {
      return Err(CryptoError::arg_type(
        name,
        "an instance of Array",
        self.describe(v),
      ));
    }
    let mut len = 0u32;
    // SAFETY: as above; `v` is an array.
    check(unsafe { sys::napi_get_array_length(self.env, v.raw, &mut len) })?;
    Ok(len as usize)
  }

  /// Element `i` of the array `v` (reading it may run JavaScript: see the module comment).
  pub fn element(self, v: Value<'js>, i: usize) -> CryptoResult<Value<'js>> {
    let i = u32::try_from(i).map_err(|_| CryptoError::internal())?;
    let mut e = ptr::null_mut();
    // SAFETY: `self.env` is live for 'js and `v` a live handle of this call; the element handle
    // lives in the call's handle scope.
    check(unsafe { sys::napi_get_element(self.env, v.raw, i, &mut e) })?;
    Ok(Value::new(e))
  }

  /// Every element of the array `v`, read before any is converted.
  pub fn array(self, v: Value<'js>, name: &str) -> CryptoResult<Vec<Value<'js>>> {
    (0..self.array_len(v, name)?)
      .map(|i| self.element(v, i))
      .collect()
  }

  /// Element `i` of the list `name` as bytes; if it is not bytes, a TypeError naming it by its
  /// index (`inputs[3]`).
  pub fn item_bytes(self, v: Value<'js>, name: &str, i: usize) -> CryptoResult<Bytes<'js>> {
    // The indexed name is formatted only on the error path.
    self
      .bytes(v, name)
      .or_else(|_| self.bytes(v, &format!("{name}[{i}]")))
  }

  /// Every element of `items` as bytes (see [`Cx::item_bytes`]).
  pub fn bytes_each(self, items: &[Value<'js>], name: &str) -> CryptoResult<Vec<Bytes<'js>>> {
    items
      .iter()
      .enumerate()
      .map(|(i, &v)| self.item_bytes(v, name, i))
      .collect()
  }
}
