//! Native state held by a JS handle: an N-API external that owns a boxed value and is tagged
//! with its type, so that a handle of another type (ours or a foreign addon's) is refused
//! instead of misread. An external is a fraction of the cost of a napi-rs class instance (about
//! 1.7 µs per `create()` here), which matters for short streams.
//!
//! The state is reached only through a shared reference: a kept type that changes (a hasher, a
//! key's expanded-key cache) does so through `Cell`/`RefCell`, so a handle passed twice in one
//! call cannot produce two `&mut` to it.

use std::ffi::c_void;
use std::ptr;

use napi::sys;

use super::{check, Cx, Value};
use crate::error::{Code, CryptoError, CryptoResult};

/// A 128-bit type tag (`napi_type_tag`); every [`Kept`] type has its own.
pub struct Tag {
  pub lower: u64,
  pub upper: u64,
}

/// A Rust type JavaScript may hold through a handle.
pub trait Kept: Sized + 'static {
  /// Unique to the type.
  const TAG: Tag;
  /// What the handle is, for error messages: "a hasher made by create()".
  const WHAT: &'static str;
}

/// A [`Kept`] value made away from the JS thread (by a job on the libuv pool), to be handed to
/// JavaScript when the job settles (`task::Output::Kept`).
pub trait KeepLater: Send {
  fn keep<'js>(self: Box<Self>, cx: Cx<'js>) -> CryptoResult<Value<'js>>;
}

impl<T: Kept + Send> KeepLater for T {
  fn keep<'js>(self: Box<Self>, cx: Cx<'js>) -> CryptoResult<Value<'js>> {
    cx.keep(*self)
  }
}

/// Frees the value when the GC collects its external.
extern "C" fn finalize<T: Kept>(_env: sys::napi_env, data: *mut c_void, _hint: *mut c_void) {
  if !data.is_null() {
    // SAFETY: `data` is the `Box<T>` leaked by `Cx::keep::<T>`; N-API calls the finalizer once,
    // after JavaScript can no longer reach the external.
    drop(unsafe { Box::from_raw(data.cast::<T>()) });
  }
}

impl<'js> Cx<'js> {
  /// A new handle owning `value`.
  pub fn keep<T: Kept>(self, value: T) -> CryptoResult<Value<'js>> {
    let data = Box::into_raw(Box::new(value));
    let mut ext = ptr::null_mut();
    // SAFETY: `self.env` is live for 'js; `data` is a valid leaked box whose ownership passes to
    // the external (freed by `finalize::<T>`).
    let status = unsafe {
      sys::napi_create_external(
        self.env,
        data.cast(),
        Some(finalize::<T>),
        ptr::null_mut(),
        &mut ext,
      )
    };
    if check(status).is_err() {
      // SAFETY: the external was not created, so `data` is still ours alone.
      drop(unsafe { Box::from_raw(data) });
      return Err(CryptoError::new(
        Code::Operation,
        format!("cannot allocate {}", T::WHAT),
      ));
    }
    let tag = sys::napi_type_tag {
      lower: T::TAG.lower,
      upper: T::TAG.upper,
    };
    // SAFETY: `ext` is the external just made, untagged until now. If tagging fails the external
    // still owns the box and the GC frees it.
    check(unsafe { sys::napi_type_tag_object(self.env, ext, &tag) })?;
    Ok(Value::new(ext))
  }

  /// The value behind a handle made by [`Cx::keep::<T>`]; `None` for anything else.
  pub fn kept<T: Kept>(self, v: Value<'js>) -> Option<&'js T> {
    // `typeof` first: `napi_check_object_type_tag` on `undefined` or `null` throws a JS
    // exception (ToObject) instead of failing quietly.
    if self.type_of(v)? != sys::ValueType::napi_external {
      return None;
    }
    let tag = sys::napi_type_tag {
      lower: T::TAG.lower,
      upper: T::TAG.upper,
    };
    let mut ours = false;
    // SAFETY: `self.env` is live for 'js and `v` a live external of this call.
    check(unsafe { sys::napi_check_object_type_tag(self.env, v.raw, &tag, &mut ours) }).ok()?;
    if !ours {
      return None;
    }
    let mut data = ptr::null_mut();
    // SAFETY: as above.
    check(unsafe { sys::napi_get_value_external(self.env, v.raw, &mut data) }).ok()?;
    // SAFETY: only `keep::<T>` tags externals with `T::TAG`, around a leaked `Box<T>`. The
    // handle `v` keeps the external, hence the box, alive until the call `'js` returns, and the
    // reference is shared (mutation goes through `Cell`/`RefCell` inside `T`).
    unsafe { data.cast::<T>().cast_const().as_ref() }
  }

  /// As [`Cx::kept`], with a type error naming `name` for anything else.
  pub fn kept_arg<T: Kept>(self, v: Value<'js>, name: &str) -> CryptoResult<&'js T> {
    self
      .kept::<T>(v)
      .ok_or_else(|| CryptoError::arg_type(name, T::WHAT, self.describe(v)))
  }
}

#[cfg(test)]
mod tests {
  /// Every `Kept` type's tag is its own: a handle of one type is never taken for another. The
  /// tags are read from the sources (each `impl Kept for` has one `const TAG`), so a new type is
  /// checked without being listed here.
  #[test]
  fn kept_tags_are_unique() {
    fn files(dir: &std::path::Path, out: &mut Vec<String>) {
      for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
          files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
          out.push(std::fs::read_to_string(path).unwrap());
        }
      }
    }
    let mut sources = Vec::new();
    files(
      &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
      &mut sources,
    );
    let number = |text: &str, field: &str| -> u64 {
      let at = text.find(field).unwrap() + field.len();
      let hex: String = text[at..]
        .trim_start()
        .trim_start_matches("0x")
        .chars()
        .take_while(|c| c.is_ascii_hexdigit() || *c == '_')
        .filter(|c| *c != '_')
        .collect();
      u64::from_str_radix(&hex, 16).unwrap()
    };
    // Spelled in two pieces, so that this test's own text does not match.
    let (impl_kept, tag_const) = (
      ["impl Kept", " for "].concat(),
      ["const TAG", ": Tag = Tag {"].concat(),
    );
    let mut impls = 0;
    let mut tags = Vec::new();
    for text in &sources {
      impls += text.matches(&impl_kept).count();
      for (at, _) in text.match_indices(&tag_const) {
        let body = &text[at..at + text[at..].find('}').unwrap()];
        tags.push((number(body, "lower:"), number(body, "upper:")));
      }
    }
    assert!(impls >= 7, "found only {impls} Kept types");
    assert_eq!(
      tags.len(),
      impls,
      "a Kept type whose tag is not written out as the others"
    );
    let mut unique = tags.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(
      unique.len(),
      tags.len(),
      "two Kept types share a tag: {tags:x?}"
    );
  }
}
