//! JS values in, JS values out: the single conversion every entry point uses.
//!
//! Input: a string (hashed as UTF-8), a Buffer, any TypedArray, a DataView or an ArrayBuffer.
//! Views hash exactly their own bytes (offset and length honoured). Synchronous calls read them
//! in place (JS cannot run during the call); strings are encoded into an owned copy that is wiped
//! when dropped. Work that leaves the JS thread never borrows: it takes a copy made at call time
//! (`crate::staging`). Output: hex strings are built here; binary results are written into buffers
//! that JavaScript allocated (cheaper than creating a Buffer natively). An input that overlaps the
//! output buffer (e.g. a pooled Buffer's whole `.buffer` passed as data or AAD) is copied first
//! ([`Bytes::unalias`]), so no `&[u8]` ever aliases the `&mut [u8]` being written.

use std::ptr;

use napi::bindgen_prelude::Unknown;
use napi::JsValue;
use napi::{sys, Env};

use zeroize::Zeroizing;

use crate::error::{CryptoError, CryptoResult};

/// Bytes read from a JS value: borrowed from the JS heap (valid for the current synchronous
/// call only) or owned (strings, which must be UTF-8 encoded first; wiped on drop, since they
/// may be keys or passwords).
pub enum Bytes {
  Borrowed(*const u8, usize),
  Owned(Zeroizing<Vec<u8>>),
}

/// True when the two ranges share at least one byte.
fn overlaps(a: &[u8], b: &[u8]) -> bool {
  let (a0, b0) = (a.as_ptr() as usize, b.as_ptr() as usize);
  !a.is_empty() && !b.is_empty() && a0 < b0 + b.len() && b0 < a0 + a.len()
}

impl Bytes {
  /// No bytes.
  pub const EMPTY: Bytes = Bytes::Borrowed(ptr::null(), 0);

  #[inline]
  pub fn as_slice(&self) -> &[u8] {
    match self {
      // SAFETY: the pointer and length come from N-API for a live ArrayBuffer/view and stay
      // valid until the JS call returns (JS cannot run meanwhile); null means empty.
      Bytes::Borrowed(p, len) if !p.is_null() && *len > 0 => unsafe {
        std::slice::from_raw_parts(*p, *len)
      },
      Bytes::Borrowed(..) => &[],
      Bytes::Owned(v) => v,
    }
  }

  /// An owned copy (wiped on drop), for work that leaves the JS thread.
  pub fn into_owned(self) -> Zeroizing<Vec<u8>> {
    match self {
      Bytes::Owned(v) => v,
      b => Zeroizing::new(b.as_slice().to_vec()),
    }
  }

  /// Replaces borrowed bytes that overlap `out` with an owned copy, so that writing `out` can
  /// neither change them nor alias them.
  pub fn unalias(&mut self, out: &[u8]) {
    if matches!(self, Bytes::Borrowed(..)) && overlaps(self.as_slice(), out) {
      *self = Bytes::Owned(Zeroizing::new(self.as_slice().to_vec()));
    }
  }
}

/// [`Bytes::unalias`] for an optional input.
pub fn unalias_opt(bytes: &mut Option<Bytes>, out: &[u8]) {
  if let Some(b) = bytes {
    b.unalias(out);
  }
}

const EXPECTED: &str =
  "of type string or an instance of Buffer, TypedArray, DataView or ArrayBuffer";

/// Reads `value` as bytes; `name` is the argument's name in the error message.
///
/// # Safety
/// `env` and `value` must be live handles of the calling JS thread.
pub unsafe fn read(env: sys::napi_env, value: sys::napi_value, name: &str) -> CryptoResult<Bytes> {
  let mut data: *mut std::ffi::c_void = ptr::null_mut();
  let mut len = 0usize;
  // Node's `napi_get_buffer_info` accepts every ArrayBufferView (Buffer, any TypedArray,
  // DataView) and returns the view's own byte range: one call for the common case.
  if unsafe { sys::napi_get_buffer_info(env, value, &mut data, &mut len) } == sys::Status::napi_ok {
    return Ok(Bytes::Borrowed(data as *const u8, len));
  }
  let mut ty = 0;
  unsafe { sys::napi_typeof(env, value, &mut ty) };
  match ty {
    sys::ValueType::napi_string => unsafe { read_string(env, value) },
    sys::ValueType::napi_object => unsafe { read_object(env, value, name) },
    _ => Err(CryptoError::arg_type(name, EXPECTED, unsafe {
      describe(env, value)
    })),
  }
}

unsafe fn read_string(env: sys::napi_env, value: sys::napi_value) -> CryptoResult<Bytes> {
  let mut len = 0usize;
  unsafe { sys::napi_get_value_string_utf8(env, value, ptr::null_mut(), 0, &mut len) };
  let mut buf = Vec::<u8>::with_capacity(len + 1);
  let mut written = 0usize;
  unsafe {
    sys::napi_get_value_string_utf8(env, value, buf.as_mut_ptr().cast(), len + 1, &mut written);
    buf.set_len(written.min(len));
  }
  Ok(Bytes::Owned(Zeroizing::new(buf)))
}

unsafe fn read_object(
  env: sys::napi_env,
  value: sys::napi_value,
  name: &str,
) -> CryptoResult<Bytes> {
  let mut data: *mut std::ffi::c_void = ptr::null_mut();
  let mut len = 0usize;
  let mut is = false;
  unsafe { sys::napi_is_arraybuffer(env, value, &mut is) };
  if is {
    unsafe { sys::napi_get_arraybuffer_info(env, value, &mut data, &mut len) };
    return Ok(Bytes::Borrowed(data as *const u8, len));
  }
  // Runtimes whose `napi_get_buffer_info` only takes Node Buffers (not Node itself).
  unsafe { sys::napi_is_dataview(env, value, &mut is) };
  if is {
    let mut ab = ptr::null_mut();
    let mut off = 0usize;
    unsafe { sys::napi_get_dataview_info(env, value, &mut len, &mut data, &mut ab, &mut off) };
    return Ok(Bytes::Borrowed(data as *const u8, len));
  }
  unsafe { sys::napi_is_typedarray(env, value, &mut is) };
  if is {
    let mut kind = 0;
    let mut ab = ptr::null_mut();
    let mut off = 0usize;
    unsafe {
      sys::napi_get_typedarray_info(
        env, value, &mut kind, &mut len, &mut data, &mut ab, &mut off,
      )
    };
    let bytes = element_size(kind)
      .and_then(|w| len.checked_mul(w))
      .ok_or_else(|| {
        CryptoError::arg_type(
          name,
          EXPECTED,
          format!("a TypedArray of unknown kind {kind}"),
        )
      })?;
    return Ok(Bytes::Borrowed(data as *const u8, bytes));
  }
  Err(CryptoError::arg_type(name, EXPECTED, unsafe {
    describe(env, value)
  }))
}

/// Bytes per element of an N-API typed-array kind; `None` for a kind this build does not know
/// (refused rather than guessed: a wrong width would read past the end of the view).
fn element_size(kind: sys::napi_typedarray_type) -> Option<usize> {
  use sys::TypedarrayType as T;
  /// `napi_float16_array` (js_native_api_types.h, NODE_API_HAS_FLOAT16_ARRAY); not yet in napi-sys.
  const FLOAT16_ARRAY: sys::napi_typedarray_type = 11;
  Some(match kind {
    T::int8_array | T::uint8_array | T::uint8_clamped_array => 1,
    T::int16_array | T::uint16_array | FLOAT16_ARRAY => 2,
    T::int32_array | T::uint32_array | T::float32_array => 4,
    T::float64_array | T::bigint64_array | T::biguint64_array => 8,
    _ => return None,
  })
}

/// "type number (5)", "null", "an instance of Object": the "Received ..." part of messages.
///
/// # Safety
/// `env` and `value` must be live handles of the calling JS thread.
pub unsafe fn describe(env: sys::napi_env, value: sys::napi_value) -> String {
  let mut ty = 0;
  unsafe { sys::napi_typeof(env, value, &mut ty) };
  let mut str_val = ptr::null_mut();
  let short = |env, v| -> String {
    let mut buf = [0u8; 32];
    let mut n = 0usize;
    unsafe { sys::napi_get_value_string_utf8(env, v, buf.as_mut_ptr().cast(), buf.len(), &mut n) };
    String::from_utf8_lossy(&buf[..n]).into_owned()
  };
  match ty {
    sys::ValueType::napi_undefined => "undefined".into(),
    sys::ValueType::napi_null => "null".into(),
    sys::ValueType::napi_boolean | sys::ValueType::napi_number | sys::ValueType::napi_bigint => {
      let tname = match ty {
        sys::ValueType::napi_boolean => "boolean",
        sys::ValueType::napi_number => "number",
        _ => "bigint",
      };
      unsafe { sys::napi_coerce_to_string(env, value, &mut str_val) };
      format!("type {tname} ({})", short(env, str_val))
    }
    sys::ValueType::napi_string => {
      let s = short(env, value);
      format!("type string ('{s}')")
    }
    sys::ValueType::napi_symbol => "type symbol".into(),
    sys::ValueType::napi_function => "function".into(),
    _ => {
      let mut is_array = false;
      unsafe { sys::napi_is_array(env, value, &mut is_array) };
      if is_array {
        "an instance of Array".into()
      } else {
        "an instance of Object".into()
      }
    }
  }
}

/// Reads `value` through a napi-rs `Unknown` argument.
pub fn read_arg(env: &Env, value: &Unknown, name: &str) -> CryptoResult<Bytes> {
  unsafe { read(env.raw(), value.raw(), name) }
}

/// The writable byte range of an output buffer JS passed in (any ArrayBufferView).
///
/// # Safety
/// As [`read`]; the returned slice must not outlive the current call.
pub unsafe fn read_out<'a>(
  env: sys::napi_env,
  value: sys::napi_value,
) -> CryptoResult<&'a mut [u8]> {
  let mut data: *mut std::ffi::c_void = ptr::null_mut();
  let mut len = 0usize;
  if unsafe { sys::napi_get_buffer_info(env, value, &mut data, &mut len) } != sys::Status::napi_ok {
    return Err(CryptoError::arg_type(
      "out",
      "an instance of Buffer or Uint8Array",
      unsafe { describe(env, value) },
    ));
  }
  if data.is_null() || len == 0 {
    return Ok(&mut []);
  }
  Ok(unsafe { std::slice::from_raw_parts_mut(data as *mut u8, len) })
}

const HEX: &[u8; 16] = b"0123456789abcdef";

fn hex_into(buf: &mut [u8], bytes: &[u8]) {
  for (pair, b) in buf.chunks_exact_mut(2).zip(bytes) {
    pair[0] = HEX[(b >> 4) as usize];
    pair[1] = HEX[(b & 15) as usize];
  }
}

/// The longest digest returned as hex: V8 strings hold at most 2^29 - 24 characters.
const MAX_HEX_BYTES: usize = (1 << 28) - 16;

/// Refuses, before any work, a digest too long to be returned as a hex string.
pub fn check_hex_len(n: usize) -> CryptoResult<()> {
  if n > MAX_HEX_BYTES {
    return Err(CryptoError::out_of_range(
      "outputLength",
      format!("<= {MAX_HEX_BYTES} for hex output (use outputFormat 'buffer')"),
      n,
    ));
  }
  Ok(())
}

/// Lower-case hex, as a JS string (latin1: no UTF-8 validation on the V8 side).
///
/// # Safety
/// `env` must be the live environment of the calling JS thread.
pub unsafe fn hex_string(env: sys::napi_env, bytes: &[u8]) -> CryptoResult<sys::napi_value> {
  check_hex_len(bytes.len())?;
  let mut stack = [0u8; 256];
  let mut heap;
  let buf: &mut [u8] = if bytes.len() * 2 <= stack.len() {
    &mut stack[..bytes.len() * 2]
  } else {
    heap = vec![0u8; bytes.len() * 2];
    &mut heap
  };
  hex_into(buf, bytes);
  let mut out = ptr::null_mut();
  let status = unsafe {
    sys::napi_create_string_latin1(env, buf.as_ptr().cast(), buf.len() as isize, &mut out)
  };
  if status != sys::Status::napi_ok || out.is_null() {
    return Err(CryptoError::out_of_range(
      "outputLength",
      "small enough for a JS string in hex (use outputFormat 'buffer')",
      bytes.len(),
    ));
  }
  Ok(out)
}
