//! Bytes in, bytes out: the single conversion every entry point uses.
//!
//! Input ([`Cx::bytes`]): a string (UTF-8), a Buffer, any TypedArray, a DataView or an
//! ArrayBuffer; views give exactly their own bytes (offset and length honoured). Synchronous
//! calls read them in place (JavaScript cannot run during the call); strings are encoded into an
//! owned copy that is wiped when dropped. Work that leaves the JS thread never borrows: it takes
//! a copy made at call time ([`Bytes::into_owned`], [`Bytes::into_staged`]).
//!
//! Output ([`Cx::out`]): binary results are written into buffers JavaScript allocated (cheaper
//! than creating a Buffer natively); hex strings are built here. An input that overlaps the output
//! buffer (e.g. a pooled Buffer's whole `.buffer` passed as data or AAD) is copied before the
//! output becomes writable ([`Out::writable`]), so no `&[u8]` ever aliases the `&mut [u8]`
//! being written.

use std::ffi::c_void;
use std::marker::PhantomData;
use std::ptr;

use napi::bindgen_prelude::Unknown;
use napi::{sys, Env};
use zeroize::Zeroizing;

use super::{check, Cx, Value};
use crate::error::{CryptoError, CryptoResult};
use crate::staging::Staged;

/// What every byte input accepts, as error messages say it.
pub const EXPECTED: &str =
  "of type string or an instance of Buffer, TypedArray, DataView or ArrayBuffer";

/// Bytes read from a JS value: a view of JS memory (valid for the call `'js` only, and only read
/// through [`Bytes::as_slice`]) or an owned copy (strings, copies), wiped on drop since it may be
/// a key or a password.
pub struct Bytes<'js>(Repr, PhantomData<&'js [u8]>);

enum Repr {
  /// Kept as a pointer, not a reference, so that no reference to JS memory exists until the
  /// bytes are read (an output buffer may be made writable meanwhile; see [`Out::writable`]).
  View(*const u8, usize),
  Owned(Zeroizing<Vec<u8>>),
}

impl<'js> Bytes<'js> {
  /// No bytes.
  pub const EMPTY: Bytes<'static> = Bytes(Repr::View(ptr::null(), 0), PhantomData);

  fn view(data: *const c_void, len: usize) -> Self {
    Bytes(Repr::View(data.cast(), len), PhantomData)
  }

  pub fn owned(v: Zeroizing<Vec<u8>>) -> Self {
    Bytes(Repr::Owned(v), PhantomData)
  }

  #[inline]
  pub fn as_slice(&self) -> &[u8] {
    match &self.0 {
      // SAFETY: pointer and length come from N-API for a live ArrayBuffer or view, which stays
      // alive and in place until the call `'js` returns (JavaScript cannot run meanwhile); null
      // or empty means no bytes. No `&mut` to these bytes exists: `Out::writable` copies any
      // view that overlaps an output before handing the output out.
      Repr::View(p, len) if !p.is_null() && *len > 0 => unsafe {
        std::slice::from_raw_parts(*p, *len)
      },
      Repr::View(..) => &[],
      Repr::Owned(v) => v,
    }
  }

  /// An owned copy (wiped on drop), for work that outlives the call.
  pub fn into_owned(self) -> Zeroizing<Vec<u8>> {
    match self.0 {
      Repr::Owned(v) => v,
      Repr::View(..) => Zeroizing::new(self.as_slice().to_vec()),
    }
  }

  /// A private copy for the libuv pool (`crate::staging`), made now.
  pub fn into_staged(self) -> CryptoResult<Staged> {
    match self.0 {
      Repr::Owned(v) => Ok(Staged::from_owned(v)),
      Repr::View(..) => Staged::copy_of(self.as_slice()),
    }
  }

  /// The address range of a view (empty for owned bytes, which JS cannot reach).
  fn view_range(&self) -> Option<(usize, usize)> {
    match self.0 {
      Repr::View(p, len) if !p.is_null() && len > 0 => Some((p as usize, len)),
      _ => None,
    }
  }
}

impl AsRef<[u8]> for Bytes<'_> {
  #[inline]
  fn as_ref(&self) -> &[u8] {
    self.as_slice()
  }
}

/// An output buffer JavaScript passed in (any ArrayBufferView), not yet writable.
///
/// In the WebAssembly build (emnapi) `data` is not the JS buffer's memory but a copy of it in the
/// module's linear memory, made by `napi_get_buffer_info`: what was written there is copied back
/// into the JS buffer when the `Out` drops, at the end of the call.
pub struct Out<'js> {
  data: *mut u8,
  len: usize,
  #[cfg(target_family = "wasm")]
  sync: WasmSync,
  _call: PhantomData<&'js mut [u8]>,
}

/// What the copy back into a JS output buffer needs (see [`Out`]).
#[cfg(target_family = "wasm")]
struct WasmSync {
  env: sys::napi_env,
  view: sys::napi_value,
  written: bool,
}

#[cfg(target_family = "wasm")]
extern "C" {
  /// emnapi (`emnapi.h`): copies `length` bytes from `byte_offset` of the view between its JS
  /// memory and the linear-memory copy emnapi made of it (`js_to_wasm` false: into JS).
  fn emnapi_sync_memory(
    env: sys::napi_env,
    js_to_wasm: bool,
    arraybuffer_or_view: *mut sys::napi_value,
    byte_offset: usize,
    length: usize,
  ) -> sys::napi_status;
}

#[cfg(target_family = "wasm")]
impl Drop for Out<'_> {
  fn drop(&mut self) {
    let WasmSync {
      env,
      mut view,
      written,
    } = self.sync;
    if !written || self.data.is_null() || self.len == 0 {
      return;
    }
    // SAFETY: `env` and `view` are the live environment and output view of the call `'js`,
    // which has not returned (an `Out` does not outlive it); `len` is the view's length as
    // emnapi gave it. No slice of the copy is borrowed any more: they borrow `self`.
    let status = unsafe { emnapi_sync_memory(env, false, &mut view, 0, self.len) };
    if check(status).is_err() {
      // SAFETY: as above; the call then throws instead of returning an unwritten buffer.
      unsafe {
        sys::napi_throw_error(
          env,
          c"ERR_CRYPTO_OPERATION_FAILED".as_ptr(),
          c"the result could not be copied into the output buffer".as_ptr(),
        );
      }
    }
  }
}

impl<'js> Out<'js> {
  pub fn len(&self) -> usize {
    self.len
  }

  /// The output as a mutable slice, after replacing every input in `inputs` that overlaps it
  /// with an owned copy: writing it can then neither change nor alias an input.
  pub fn writable<const N: usize>(&mut self, inputs: [Option<&mut Bytes<'js>>; N]) -> &mut [u8] {
    for b in inputs.into_iter().flatten() {
      if self.overlaps(b) {
        *b = Bytes::owned(Zeroizing::new(b.as_slice().to_vec()));
      }
    }
    self.slice()
  }

  /// The output as a mutable slice for `by`: as [`Out::writable`] for a buffer the JS layer
  /// allocated; a buffer the caller gave (`options.output`) that overlaps an input is refused
  /// instead (`inputs` are named as the caller knows them), since writing it would change what
  /// is being read.
  pub fn writable_for<const N: usize>(
    &mut self,
    by: OutBy,
    inputs: [(&str, Option<&mut Bytes<'js>>); N],
  ) -> CryptoResult<&mut [u8]> {
    if by == OutBy::Caller {
      for (name, b) in &inputs {
        if b.as_deref().is_some_and(|b| self.overlaps(b)) {
          return Err(CryptoError::invalid_value(
            "options.output",
            format!("a buffer that does not overlap {name} (not the same memory)"),
            format!("a view sharing bytes with {name}"),
          ));
        }
      }
    }
    Ok(self.writable(inputs.map(|(_, b)| b)))
  }

  /// True when the view `b` shares bytes with this output.
  fn overlaps(&self, b: &Bytes<'js>) -> bool {
    let (o0, olen) = (self.data as usize, self.len);
    match b.view_range() {
      Some((b0, blen)) if !self.data.is_null() && olen > 0 => b0 < o0 + olen && o0 < b0 + blen,
      _ => false,
    }
  }

  fn slice(&mut self) -> &mut [u8] {
    if self.data.is_null() || self.len == 0 {
      return &mut [];
    }
    #[cfg(target_family = "wasm")]
    {
      self.sync.written = true;
    }
    // SAFETY: `data`/`len` come from N-API for a live view that stays alive and in place until
    // the call returns; callers replace every overlapping input by a copy first (or refuse
    // it), and the `&mut self` borrow keeps this the only mutable slice of it.
    unsafe { std::slice::from_raw_parts_mut(self.data, self.len) }
  }
}

/// Who passed an output buffer (see [`Out::writable_for`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum OutBy {
  /// The JS layer: a fresh buffer (from Node's pool, so a pooled input can contain it).
  Layer,
  /// The caller, as `options.output`.
  Caller,
}

impl<'js> Cx<'js> {
  /// Who passed the output: the flag argument the JS layer sets for `options.output`.
  pub fn out_by(self, flag: Value<'js>) -> OutBy {
    if self.truthy(flag) {
      OutBy::Caller
    } else {
      OutBy::Layer
    }
  }
}

impl<'js> Cx<'js> {
  /// Reads `v` as bytes; `name` is the argument's name in the error message.
  pub fn bytes(self, v: Value<'js>, name: &str) -> CryptoResult<Bytes<'js>> {
    let mut data: *mut c_void = ptr::null_mut();
    let mut len = 0usize;
    // Node's `napi_get_buffer_info` accepts every ArrayBufferView (Buffer, any TypedArray,
    // DataView) and returns the view's own byte range: one call for the common case. emnapi (the
    // WebAssembly build) gives a TypedArray's element count there, not its byte length, so that
    // build reads every view through `buffer_like`.
    // SAFETY: `self.env` is live for 'js and `v` a live handle of this call.
    if !cfg!(target_family = "wasm")
      && check(unsafe { sys::napi_get_buffer_info(self.env, v.raw, &mut data, &mut len) }).is_ok()
    {
      return Ok(Bytes::view(data, len));
    }
    match self.type_of(v) {
      Some(sys::ValueType::napi_string) => self.utf8(v),
      Some(sys::ValueType::napi_object) => self.buffer_like(v, name),
      _ => Err(CryptoError::arg_type(name, EXPECTED, self.describe(v))),
    }
  }

  /// As [`Cx::bytes`], with `undefined`/`null` giving `None`.
  pub fn opt_bytes(self, v: Value<'js>, name: &str) -> CryptoResult<Option<Bytes<'js>>> {
    if self.is_nullish(v) {
      return Ok(None);
    }
    self.bytes(v, name).map(Some)
  }

  /// A string, encoded as UTF-8 into an owned buffer.
  fn utf8(self, v: Value<'js>) -> CryptoResult<Bytes<'js>> {
    if cfg!(target_family = "wasm") {
      return self.utf8_via_utf16(v);
    }
    let mut len = 0usize;
    // SAFETY: `self.env` is live for 'js and `v` a live string handle; a null buffer asks only
    // for the length.
    check(unsafe {
      sys::napi_get_value_string_utf8(self.env, v.raw, ptr::null_mut(), 0, &mut len)
    })?;
    // Written once by N-API, not zero-filled first (a measurable share of short-string calls).
    let mut buf = Zeroizing::new(Vec::<u8>::with_capacity(len + 1));
    let mut written = 0usize;
    // SAFETY: as above; `buf` has capacity for `len + 1` bytes (the string and N-API's NUL).
    check(unsafe {
      sys::napi_get_value_string_utf8(
        self.env,
        v.raw,
        buf.as_mut_ptr().cast(),
        len + 1,
        &mut written,
      )
    })?;
    // SAFETY: N-API initialised the first `written` bytes (at most `len`, NUL excluded).
    unsafe { buf.set_len(written.min(len)) };
    Ok(Bytes::owned(buf))
  }

  /// A string read as UTF-16 and encoded as UTF-8 here, a lone surrogate as U+FFFD (as Node's
  /// own encoder writes it). For the WebAssembly build: its `napi_get_value_string_utf8`
  /// (emnapi) reads a lone surrogate as the first half of a pair, with the character after it.
  fn utf8_via_utf16(self, v: Value<'js>) -> CryptoResult<Bytes<'js>> {
    let mut len = 0usize;
    // SAFETY: `self.env` is live for 'js and `v` a live string handle; a null buffer asks only
    // for the length in UTF-16 code units.
    check(unsafe {
      sys::napi_get_value_string_utf16(self.env, v.raw, ptr::null_mut(), 0, &mut len)
    })?;
    let mut units = Zeroizing::new(vec![0u16; len + 1]);
    let mut written = 0usize;
    // SAFETY: as above; `units` holds `len + 1` code units (the string and N-API's NUL).
    check(unsafe {
      sys::napi_get_value_string_utf16(self.env, v.raw, units.as_mut_ptr(), len + 1, &mut written)
    })?;
    let units = &units[..written.min(len)];
    // At most 3 bytes per code unit (a pair of them makes 4): the buffer never reallocates, so
    // no unwiped copy is left behind.
    let mut buf = Zeroizing::new(Vec::<u8>::with_capacity(units.len() * 3));
    let mut one = [0u8; 4];
    for c in char::decode_utf16(units.iter().copied()) {
      let c = c.unwrap_or(char::REPLACEMENT_CHARACTER);
      buf.extend_from_slice(c.encode_utf8(&mut one).as_bytes());
    }
    Ok(Bytes::owned(buf))
  }

  /// An ArrayBuffer, a DataView or a TypedArray, for runtimes whose `napi_get_buffer_info`
  /// only takes Node Buffers, or miscounts other views (Node itself answers in [`Cx::bytes`]).
  fn buffer_like(self, v: Value<'js>, name: &str) -> CryptoResult<Bytes<'js>> {
    let (env, raw) = (self.env, v.raw);
    let mut data: *mut c_void = ptr::null_mut();
    let mut len = 0usize;
    // SAFETY: `env` is live for 'js and `raw` a live handle of this call.
    if self.is(|y| unsafe { sys::napi_is_arraybuffer(env, raw, y) }) {
      // SAFETY: `raw` is an ArrayBuffer of this call.
      check(unsafe { sys::napi_get_arraybuffer_info(env, raw, &mut data, &mut len) })?;
      return Ok(Bytes::view(data, len));
    }
    let (data, len) = self.view_bytes(v, name)?;
    Ok(Bytes::view(data, len))
  }

  fn is(self, predicate: impl Fn(&mut bool) -> sys::napi_status) -> bool {
    let mut yes = false;
    check(predicate(&mut yes)).is_ok() && yes
  }

  /// The bytes of a DataView or a TypedArray (its own range, in bytes).
  fn view_bytes(self, v: Value<'js>, name: &str) -> CryptoResult<(*mut c_void, usize)> {
    let (env, raw) = (self.env, v.raw);
    let mut data: *mut c_void = ptr::null_mut();
    let mut len = 0usize;
    let mut ab = ptr::null_mut();
    let mut offset = 0usize;
    // SAFETY (both predicates): `env` is live for 'js and `raw` a live handle of this call.
    if self.is(|y| unsafe { sys::napi_is_dataview(env, raw, y) }) {
      // SAFETY: `raw` is a DataView of this call.
      check(unsafe {
        sys::napi_get_dataview_info(env, raw, &mut len, &mut data, &mut ab, &mut offset)
      })?;
      return Ok((data, len));
    }
    if self.is(|y| unsafe { sys::napi_is_typedarray(env, raw, y) }) {
      let mut kind = 0;
      // SAFETY: `raw` is a TypedArray of this call.
      check(unsafe {
        sys::napi_get_typedarray_info(
          env,
          raw,
          &mut kind,
          &mut len,
          &mut data,
          &mut ab,
          &mut offset,
        )
      })?;
      let bytes = element_size(kind)
        .and_then(|w| len.checked_mul(w))
        .ok_or_else(|| {
          CryptoError::arg_type(
            name,
            EXPECTED,
            format!("a TypedArray of unknown kind {kind}"),
          )
        })?;
      return Ok((data, bytes));
    }
    Err(CryptoError::arg_type(name, EXPECTED, self.describe(v)))
  }

  /// The output buffer `v` (any ArrayBufferView) JavaScript allocated for a result.
  pub fn out(self, v: Value<'js>) -> CryptoResult<Out<'js>> {
    let mut data: *mut c_void = ptr::null_mut();
    let mut len = 0usize;
    let refused = || {
      CryptoError::arg_type(
        "out",
        "an instance of Buffer or Uint8Array",
        self.describe(v),
      )
    };
    if cfg!(target_family = "wasm") {
      // emnapi miscounts views in `napi_get_buffer_info` (see `Cx::bytes`).
      (data, len) = self.view_bytes(v, "out").map_err(|_| refused())?;
    } else {
      // SAFETY: `self.env` is live for 'js and `v` a live handle of this call.
      let status = unsafe { sys::napi_get_buffer_info(self.env, v.raw, &mut data, &mut len) };
      check(status).map_err(|_| refused())?;
    }
    Ok(Out {
      data: data.cast(),
      len,
      #[cfg(target_family = "wasm")]
      sync: WasmSync {
        env: self.env,
        view: v.raw,
        written: false,
      },
      _call: PhantomData,
    })
  }

  /// Lower-case hex of `bytes`, as a JS string (latin1: no UTF-8 validation on the V8 side).
  pub fn hex(self, bytes: &[u8]) -> CryptoResult<Value<'js>> {
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
    // SAFETY: `self.env` is live for 'js; `buf` holds `buf.len()` initialised bytes.
    let status = unsafe {
      sys::napi_create_string_latin1(self.env, buf.as_ptr().cast(), buf.len() as isize, &mut out)
    };
    if check(status).is_err() || out.is_null() {
      return Err(CryptoError::out_of_range(
        "outputLength",
        "small enough for a JS string in hex (use outputFormat 'buffer')",
        bytes.len(),
      ));
    }
    Ok(Value::new(out))
  }
}

/// Reads a byte argument of a `#[napi]` function (see [`Cx::bytes`]).
pub fn read_arg<'js>(env: &'js Env, v: &Unknown<'js>, name: &str) -> CryptoResult<Bytes<'js>> {
  Cx::from(env).bytes(Value::from(v), name)
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
