//! The JavaScript boundary: the one module that calls N-API, and so the one that needs `unsafe`
//! for it (the rest of the crate is compiled with `unsafe_code` denied; `src/arch/` holds the
//! CPU-specific kernels and `src/awslc/` the AWS-LC calls, the only other exceptions).
//!
//! What it offers the families, all safe:
//! - [`Cx`] and [`Value`]: the environment and the value handles of one running JS call. Both
//!   carry the call's lifetime `'js`, so nothing read from JavaScript (a byte view above all) can
//!   outlive the call it was read in.
//! - Raw entry points ([`Entry`], [`register`]): the hot synchronous calls skip napi-rs's per-call
//!   bookkeeping, which costs more than hashing 1 KiB (`docs/backends.md`, "N-API"). An entry is a
//!   plain Rust function `fn(Cx, Args) -> CryptoResult<Value>`; one trampoline reads the
//!   arguments, runs it, catches a panic and throws its error. A [`RestEntry`] takes all of its
//!   arguments as a slice (the batch calls pass their items as arguments).
//! - [`Bytes`] (inputs: strings as UTF-8, Buffer, every TypedArray, DataView, ArrayBuffer) and
//!   [`Out`] (a result buffer JavaScript allocated; writable only once every input that overlaps
//!   it has been copied), in `bytes.rs`.
//! - [`Kept`] (`external.rs`): native state held by a JS handle (hashers, cipher keys), as a
//!   type-tagged N-API external, so a foreign external is refused instead of misread.
//! - [`Object`] (`object.rs`): the named fields of an options object; `array.rs`: the elements of
//!   an array of inputs (the batch calls), read before any is converted to bytes.
//! - `error.rs`: a `CryptoError` thrown, or rejected, as a JS error with its class and `code`;
//!   `task.rs`: a finished job's output as a JS value.
//!
//! Every N-API status is checked. Every `unsafe` block carries a `SAFETY` comment saying which
//! invariant makes it sound; most rest on one fact: a `Cx` exists only inside the N-API callback
//! whose `napi_env` it holds, and a `Value` only while its handle scope is open.

mod array;
mod bytes;
mod error;
mod external;
mod object;
mod task;

use std::ffi::{c_void, CStr};
use std::marker::PhantomData;
use std::ptr;

use napi::bindgen_prelude::Unknown;
use napi::{sys, Env, JsValue};

pub use bytes::{check_hex_len, read_arg, Bytes, OutBy, EXPECTED};
pub use external::{KeepLater, Kept, Tag};
pub use object::Object;

use crate::error::{CryptoError, CryptoResult};

/// The environment of the JS call running now. Only made by the trampoline (for raw entries)
/// or borrowed from the napi-rs `Env` of a `#[napi]` function, so it never outlives the call.
#[derive(Clone, Copy)]
pub struct Cx<'js> {
  env: sys::napi_env,
  _call: PhantomData<&'js ()>,
}

/// A JS value handle, valid while the call that received or made it runs.
#[derive(Clone, Copy)]
pub struct Value<'js> {
  raw: sys::napi_value,
  _call: PhantomData<&'js ()>,
}

impl<'js> Value<'js> {
  fn new(raw: sys::napi_value) -> Self {
    Value {
      raw,
      _call: PhantomData,
    }
  }

  /// `undefined` (N-API reads a null result of a callback as `undefined`).
  pub fn undefined() -> Self {
    Value::new(ptr::null_mut())
  }
}

impl<'js> From<&'js Env> for Cx<'js> {
  fn from(env: &'js Env) -> Self {
    Cx {
      env: env.raw(),
      _call: PhantomData,
    }
  }
}

impl<'js> From<&Unknown<'js>> for Value<'js> {
  fn from(v: &Unknown<'js>) -> Self {
    Value::new(v.raw())
  }
}

/// The arguments of a raw entry point, by position; missing ones are `undefined`.
pub type Args<'js> = [Value<'js>; MAX_ARGS];

/// The most arguments a raw entry point reads.
pub const MAX_ARGS: usize = 9;

/// A raw entry point: safe Rust, called by [`trampoline`].
pub type Entry = for<'js> fn(Cx<'js>, Args<'js>) -> CryptoResult<Value<'js>>;

/// A raw entry point that takes any number of arguments, all of them (the batch calls, whose
/// items are the arguments: one `napi_get_cb_info` for all of them instead of an N-API call per
/// element of an array). Called by [`rest_trampoline`].
pub type RestEntry = for<'js> fn(Cx<'js>, &[Value<'js>]) -> CryptoResult<Value<'js>>;

/// The two kinds of raw entry point, each with its C callback.
///
/// # Safety
/// `CALLBACK` must read the function's data as a `*const Self` (what [`register`] stores).
pub unsafe trait Callable: Copy + 'static {
  const CALLBACK: sys::napi_callback;
}

// SAFETY: `trampoline` reads its data as `*const Entry`.
unsafe impl Callable for Entry {
  const CALLBACK: sys::napi_callback = Some(trampoline);
}

// SAFETY: `rest_trampoline` reads its data as `*const RestEntry`.
unsafe impl Callable for RestEntry {
  const CALLBACK: sys::napi_callback = Some(rest_trampoline);
}

/// A failed N-API call's status. Cheap to make, so probing calls (is this a Buffer? a string?)
/// cost nothing when they fail; it becomes a `CryptoError` only when returned with `?`.
struct Failed(sys::napi_status);

impl From<Failed> for CryptoError {
  /// An unexpected status is an internal error (a pending exception, an environment shutting
  /// down), never a property of the input.
  fn from(Failed(status): Failed) -> Self {
    CryptoError::new(
      crate::error::Code::Operation,
      format!("N-API call failed (status {status})"),
    )
  }
}

/// Maps an N-API status to a result.
#[inline]
fn check(status: sys::napi_status) -> Result<(), Failed> {
  if status == sys::Status::napi_ok {
    Ok(())
  } else {
    Err(Failed(status))
  }
}

/// Adds the raw entry points of `table` to `exports`, each as a JS function named by its key.
pub fn register<E: Callable>(
  env: &Env,
  exports: &napi::bindgen_prelude::Object,
  table: &'static [(&'static CStr, E)],
) -> napi::Result<()> {
  for (name, entry) in table {
    let mut f = ptr::null_mut();
    // The entry is passed as the function's data: the address of its slot in the 'static table.
    let data = entry as *const E as *mut c_void;
    // SAFETY: `env` is the live environment of the module-init call; `name` is NUL-terminated
    // with the given length; `data` points into a 'static table, so it outlives the function.
    let status = unsafe {
      sys::napi_create_function(
        env.raw(),
        name.as_ptr(),
        name.to_bytes().len() as isize,
        E::CALLBACK,
        data,
        &mut f,
      )
    };
    // SAFETY: as above; `exports` is a live object handle of the same call, `f` was just made.
    let status = check(status).and_then(|()| {
      check(unsafe { sys::napi_set_named_property(env.raw(), exports.raw(), name.as_ptr(), f) })
    });
    if status.is_err() {
      return Err(napi::Error::from_reason(format!("cannot export {name:?}")));
    }
  }
  Ok(())
}

/// The one C callback behind every raw entry point: reads up to [`MAX_ARGS`] arguments and the
/// [`Entry`] stored as the function's data, runs it, and throws its error if it fails.
extern "C" fn trampoline(env: sys::napi_env, info: sys::napi_callback_info) -> sys::napi_value {
  let mut argv = [ptr::null_mut(); MAX_ARGS];
  let mut argc = MAX_ARGS;
  // SAFETY: `argv` has room for `argc` handles (N-API fills missing arguments with `undefined`).
  let Some((cx, data)) = (unsafe { enter(env, info, &mut argc, argv.as_mut_ptr()) }) else {
    return ptr::null_mut();
  };
  // SAFETY: `register` made this function with `data` = the address of an `Entry` in a 'static
  // table, and nothing else creates functions with this callback.
  let entry = unsafe { *(data as *const Entry) };
  let args = argv.map(Value::new);
  cx.complete(|| entry(cx, args)).raw
}

/// The C callback behind every [`RestEntry`]: reads all the arguments (a first call asks how
/// many there are), then as [`trampoline`].
extern "C" fn rest_trampoline(
  env: sys::napi_env,
  info: sys::napi_callback_info,
) -> sys::napi_value {
  let mut argc = 0;
  // SAFETY: with no room for arguments (null `argv`, `argc` 0) N-API only reports their number.
  let Some((cx, data)) = (unsafe { enter(env, info, &mut argc, ptr::null_mut()) }) else {
    return ptr::null_mut();
  };
  let mut argv = vec![ptr::null_mut(); argc];
  let mut room = argc;
  // SAFETY: `argv` has room for `room` handles.
  if unsafe { enter(env, info, &mut room, argv.as_mut_ptr()) }.is_none() || room != argc {
    return ptr::null_mut();
  }
  // SAFETY: `register` made this function with `data` = the address of a `RestEntry` in a
  // 'static table, and nothing else creates functions with this callback.
  let entry = unsafe { *(data as *const RestEntry) };
  let args: Vec<Value> = argv.into_iter().map(Value::new).collect();
  cx.complete(|| entry(cx, &args)).raw
}

/// The start of a raw entry's callback: its arguments (up to `*argc` of them into `argv`; the
/// number of arguments passed is left in `*argc`) and the function's data. On failure a JS error
/// is thrown and `None` returned.
///
/// # Safety
/// `env` and `info` are the live arguments of the running N-API callback; `argv` has room for
/// `*argc` handles (or is null with `*argc` 0).
unsafe fn enter<'js>(
  env: sys::napi_env,
  info: sys::napi_callback_info,
  argc: &mut usize,
  argv: *mut sys::napi_value,
) -> Option<(Cx<'js>, *mut c_void)> {
  let mut data = ptr::null_mut();
  // SAFETY: the caller's contract.
  let status = unsafe { sys::napi_get_cb_info(env, info, argc, argv, ptr::null_mut(), &mut data) };
  let cx = Cx {
    env,
    _call: PhantomData,
  };
  if status != sys::Status::napi_ok || data.is_null() {
    cx.throw(&CryptoError::internal());
    return None;
  }
  Some((cx, data))
}

impl<'js> Cx<'js> {
  /// Runs `f`; on error throws it and returns `undefined`. A panic (a bug: no user input is
  /// meant to reach one) is caught here and thrown as a JS `Error` instead of unwinding into
  /// N-API, which would abort the process.
  fn complete(self, f: impl FnOnce() -> CryptoResult<Value<'js>>) -> Value<'js> {
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f))
      .unwrap_or_else(|_| Err(CryptoError::internal()));
    result.unwrap_or_else(|e| {
      self.throw(&e);
      Value::undefined()
    })
  }

  /// The JS type of `v`; `None` when N-API cannot tell (a null handle, a pending exception).
  fn type_of(self, v: Value<'js>) -> Option<sys::napi_valuetype> {
    if v.raw.is_null() {
      return None;
    }
    let mut ty = 0;
    // SAFETY: `self.env` is live for 'js and `v` a live handle of this call.
    check(unsafe { sys::napi_typeof(self.env, v.raw, &mut ty) }).ok()?;
    Some(ty)
  }

  /// True for `undefined`, `null` and absent values.
  pub fn is_nullish(self, v: Value<'js>) -> bool {
    match self.type_of(v) {
      None => v.raw.is_null(),
      Some(ty) => ty == sys::ValueType::napi_undefined || ty == sys::ValueType::napi_null,
    }
  }

  /// A JS number.
  pub fn number(self, x: f64) -> CryptoResult<Value<'js>> {
    let mut v = ptr::null_mut();
    // SAFETY: `self.env` is live for 'js.
    check(unsafe { sys::napi_create_double(self.env, x, &mut v) })?;
    Ok(Value::new(v))
  }

  /// An optional non-negative integer no larger than `u32::MAX`.
  pub fn opt_u32(self, v: Value<'js>, name: &str) -> CryptoResult<Option<u32>> {
    if self.is_nullish(v) {
      return Ok(None);
    }
    let mut x = f64::NAN;
    // SAFETY: `self.env` is live for 'js and `v` a live handle of this call.
    if check(unsafe { sys::napi_get_value_double(self.env, v.raw, &mut x) }).is_err() {
      return Err(CryptoError::arg_type(
        name,
        "of type number",
        self.describe(v),
      ));
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

  /// An internal numeric id the JS layer passes (an algorithm, a mode); anything else is
  /// `u32::MAX`, which no table uses.
  pub fn id(self, v: Value<'js>) -> u32 {
    let mut id = u32::MAX;
    // SAFETY: `self.env` is live for 'js and `v` a live handle of this call.
    match check(unsafe { sys::napi_get_value_uint32(self.env, v.raw, &mut id) }) {
      Ok(()) => id,
      Err(_) => u32::MAX,
    }
  }

  /// An internal flag the JS layer passes: true for `true`, false for anything else.
  pub fn truthy(self, v: Value<'js>) -> bool {
    let mut b = false;
    // SAFETY: `self.env` is live for 'js and `v` a live handle of this call.
    check(unsafe { sys::napi_get_value_bool(self.env, v.raw, &mut b) }).is_ok() && b
  }

  /// `v` coerced to a string, shortened as Node's messages shorten it (over 28 characters: the
  /// first 25 and "..."); "" when that fails.
  fn short_string(self, v: Value<'js>) -> String {
    let mut s = ptr::null_mut();
    // SAFETY: `self.env` is live for 'js and `v` a live handle of this call.
    if check(unsafe { sys::napi_coerce_to_string(self.env, v.raw, &mut s) }).is_err() {
      return String::new();
    }
    let mut buf = [0u8; 4 * 29 + 1];
    let mut n = 0usize;
    // SAFETY: as above; `buf` has room for `buf.len()` bytes, the terminating NUL included,
    // and N-API writes at most that many.
    let status = unsafe {
      sys::napi_get_value_string_utf8(self.env, s, buf.as_mut_ptr().cast(), buf.len(), &mut n)
    };
    if check(status).is_err() {
      return String::new();
    }
    let s = String::from_utf8_lossy(&buf[..n.min(buf.len())]).into_owned();
    if s.chars().count() > 28 {
      s.chars().take(25).chain("...".chars()).collect()
    } else {
      s
    }
  }

  /// "type number (5)", "null", "an instance of Object": the "Received ..." part of messages.
  pub fn describe(self, v: Value<'js>) -> String {
    use sys::ValueType as T;
    match self.type_of(v) {
      None | Some(T::napi_undefined) => "undefined".into(),
      Some(T::napi_null) => "null".into(),
      Some(T::napi_boolean) => format!("type boolean ({})", self.short_string(v)),
      Some(T::napi_number) => format!("type number ({})", self.short_string(v)),
      Some(T::napi_bigint) => format!("type bigint ({})", self.short_string(v)),
      Some(T::napi_string) => format!("type string ('{}')", self.short_string(v)),
      Some(T::napi_symbol) => "type symbol".into(),
      Some(T::napi_function) => "function".into(),
      Some(_) => {
        let mut is_array = false;
        // SAFETY: `self.env` is live for 'js and `v` a live handle of this call.
        let status = unsafe { sys::napi_is_array(self.env, v.raw, &mut is_array) };
        if check(status).is_ok() && is_array {
          "an instance of Array".into()
        } else {
          "an instance of Object".into()
        }
      }
    }
  }
}

/// Keeps this library loaded until the process exits. Node unloads an addon that a worker loaded
/// when that worker's environment is torn down, while the thread pools (`pool.rs`, BLAKE3's rayon
/// pool) and async work may still be running its code. The Linux gnu build is linked with
/// `-z nodelete` (napi-build), musl never unloads and macOS keeps a library with thread-local
/// variables; on Windows `FreeLibrary` does unload it, so the module pins itself.
#[cfg(windows)]
pub fn keep_loaded() {
  const GET_MODULE_HANDLE_EX_FLAG_PIN: u32 = 0x1;
  const GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS: u32 = 0x4;
  #[link(name = "kernel32")]
  extern "system" {
    fn GetModuleHandleExW(flags: u32, name: *const u16, module: *mut *mut c_void) -> i32;
  }
  let mut module = ptr::null_mut();
  // SAFETY: with FROM_ADDRESS, `name` is only an address inside a loaded module (this function,
  // in this library) and is not read as a string; `module` is a valid place for the handle, which
  // is not used. Pinning only keeps the module loaded for the life of the process; should it fail,
  // the library stays as unloadable as before.
  unsafe {
    GetModuleHandleExW(
      GET_MODULE_HANDLE_EX_FLAG_PIN | GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS,
      keep_loaded as *const u16,
      &mut module,
    );
  }
}

/// Elsewhere the library is never unloaded (see the Windows version).
#[cfg(not(windows))]
pub fn keep_loaded() {}
