//! Hash and HMAC entry points: one-shot (raw N-API, one crossing, no copy of the input),
//! incremental (the JS `Hasher` over a native state) and async one-shot (a copy of the input,
//! made at call time, hashed on the libuv pool). All generic over the list in `algorithms.rs`.

use napi::bindgen_prelude::{AsyncTask, Unknown};
use napi::{sys, Env, JsValue};
use napi_derive::napi;
use zeroize::Zeroizing;

use crate::algorithms::{oneshot, Alg, HashCore, Hmac, Params, State};
use crate::bytes::{self, Bytes};
use crate::error::{Code, CryptoError, CryptoResult, OrThrow};
use crate::raw;
use crate::staging::Staged;
use crate::task::{Cancel, CancelToken, Job, Output, Work};

/// Upper bound on a one-shot digest kept on the stack; longer XOF outputs go to the heap.
const STACK_OUT: usize = 128;

/// Finishes `h` over `data`: into `out` when JS passed a buffer, else as a hex string.
unsafe fn finish<H: HashCore>(
  env: sys::napi_env,
  h: H,
  mut data: Bytes,
  out: sys::napi_value,
) -> CryptoResult<sys::napi_value> {
  let n = h.output_len();
  if unsafe { raw::is_nullish(env, out) } {
    bytes::check_hex_len(n)?;
    let mut stack = [0u8; STACK_OUT];
    let mut heap = Vec::new();
    let buf = if n <= STACK_OUT {
      &mut stack[..n]
    } else {
      heap.resize(n, 0);
      &mut heap[..]
    };
    oneshot(h, data.as_slice(), buf);
    return unsafe { bytes::hex_string(env, buf) };
  }
  let target = unsafe { bytes::read_out(env, out) }?;
  check_out_len(target.len(), n)?;
  data.unalias(target);
  oneshot(h, data.as_slice(), target);
  Ok(unsafe { raw::undefined(env) })
}

fn check_out_len(got: usize, want: usize) -> CryptoResult<()> {
  if got != want {
    return Err(CryptoError::out_of_range("out.length", want, got));
  }
  Ok(())
}

/// `hash(alg, data, out?)`: the hot path, no options.
pub unsafe extern "C" fn hash(env: raw::Env, info: raw::Info) -> raw::Value {
  raw::call(env, info, |[alg, data, out]| unsafe {
    let alg = raw::alg(env, alg)?;
    let data = bytes::read(env, data, "data")?;
    finish(env, State::new(alg), data, out)
  })
}

/// `hashWith(alg, data, out?, key?, salt?, personalization?, context?, outputLength?)`.
pub unsafe extern "C" fn hash_with(env: raw::Env, info: raw::Info) -> raw::Value {
  raw::call(
    env,
    info,
    |[alg, data, out, key, salt, pers, ctx, len]| unsafe {
      let alg = raw::alg(env, alg)?;
      let data = bytes::read(env, data, "data")?;
      let opts = RawOptions::read(env, [key, salt, pers, ctx], len)?;
      let state = State::with_params(alg, &opts.params())?;
      finish(env, state, data, out)
    },
  )
}

/// `hmac(alg, key, data, out?)`.
pub unsafe extern "C" fn hmac(env: raw::Env, info: raw::Info) -> raw::Value {
  raw::call(env, info, |[alg, key, data, out]| unsafe {
    let alg = raw::alg(env, alg)?;
    let key = bytes::read(env, key, "key")?;
    let data = bytes::read(env, data, "data")?;
    let mac = Hmac::new(State::new(alg), key.as_slice())?;
    finish(env, mac, data, out)
  })
}

/// The byte options of a parameterised hash, read from JS values.
struct RawOptions {
  fields: [Option<Bytes>; 4],
  output_len: Option<u32>,
}

impl RawOptions {
  const NAMES: [&'static str; 4] = ["key", "salt", "personalization", "context"];

  unsafe fn read(
    env: sys::napi_env,
    values: [sys::napi_value; 4],
    len: sys::napi_value,
  ) -> CryptoResult<Self> {
    let mut fields: [Option<Bytes>; 4] = Default::default();
    for ((slot, v), name) in fields.iter_mut().zip(values).zip(Self::NAMES) {
      if !unsafe { raw::is_nullish(env, v) } {
        *slot = Some(unsafe { bytes::read(env, v, name) }?);
      }
    }
    let output_len = unsafe { raw::opt_u32(env, len, "outputLength") }?;
    Ok(Self { fields, output_len })
  }

  fn params(&self) -> Params<'_> {
    let get = |i: usize| self.fields[i].as_ref().map(Bytes::as_slice);
    Params {
      key: get(0),
      salt: get(1),
      personalization: get(2),
      context: get(3),
      output_len: self.output_len,
    }
  }
}

/// What an incremental hasher runs: a plain hash or an HMAC over one.
#[derive(Clone)]
// Engines always live behind a Box (`Incremental`), so the variants' size gap costs nothing.
#[allow(clippy::large_enum_variant)]
enum Engine {
  Hash(State),
  Hmac(Hmac<State>),
}

impl HashCore for Engine {
  fn update(&mut self, data: &[u8]) {
    match self {
      Engine::Hash(h) => h.update(data),
      Engine::Hmac(h) => h.update(data),
    }
  }
  fn finalize_into(self, out: &mut [u8]) {
    match self {
      Engine::Hash(h) => h.finalize_into(out),
      Engine::Hmac(h) => h.finalize_into(out),
    }
  }
  fn output_len(&self) -> usize {
    match self {
      Engine::Hash(h) => h.output_len(),
      Engine::Hmac(h) => h.output_len(),
    }
  }
  fn block_len(&self) -> usize {
    match self {
      Engine::Hash(h) => h.block_len(),
      Engine::Hmac(h) => h.block_len(),
    }
  }
}

/// Incremental hash or HMAC state, held by the JS `Hasher` objects as an N-API external.
///
/// An external (with a type tag) is a fraction of the cost of a napi-rs class instance (about
/// 1.7 µs per `create()` here), which matters for short streams.
struct Incremental {
  /// The state right after construction (key and options applied), for `reset()`.
  initial: Engine,
  /// `None` once `digest()` ran.
  state: Option<Engine>,
}

/// Marks our externals, so a foreign external is refused instead of misread.
const TAG: sys::napi_type_tag = sys::napi_type_tag {
  lower: 0x6372_7970_746f_6772,
  upper: 0x6170_6865_722e_6861,
};

unsafe extern "C" fn drop_incremental(
  _env: sys::napi_env,
  data: *mut std::ffi::c_void,
  _hint: *mut std::ffi::c_void,
) {
  if !data.is_null() {
    drop(unsafe { Box::from_raw(data as *mut Incremental) });
  }
}

impl From<Engine> for Incremental {
  fn from(engine: Engine) -> Self {
    Incremental {
      initial: engine.clone(),
      state: Some(engine),
    }
  }
}

unsafe fn new_incremental(env: sys::napi_env, inc: Incremental) -> CryptoResult<sys::napi_value> {
  let ptr = Box::into_raw(Box::new(inc));
  let mut ext = std::ptr::null_mut();
  let status = unsafe {
    sys::napi_create_external(
      env,
      ptr.cast(),
      Some(drop_incremental),
      std::ptr::null_mut(),
      &mut ext,
    )
  };
  if status != sys::Status::napi_ok {
    drop(unsafe { Box::from_raw(ptr) });
    return Err(CryptoError::new(
      Code::Operation,
      "cannot allocate a hasher",
    ));
  }
  unsafe { sys::napi_type_tag_object(env, ext, &TAG) };
  Ok(ext)
}

/// The state behind a JS hasher handle.
unsafe fn incremental<'a>(
  env: sys::napi_env,
  v: sys::napi_value,
) -> CryptoResult<&'a mut Incremental> {
  let mut ours = false;
  unsafe { sys::napi_check_object_type_tag(env, v, &TAG, &mut ours) };
  let mut data = std::ptr::null_mut();
  if !ours
    || unsafe { sys::napi_get_value_external(env, v, &mut data) } != sys::Status::napi_ok
    || data.is_null()
  {
    return Err(CryptoError::arg_type(
      "hasher",
      "a hasher made by create()",
      unsafe { bytes::describe(env, v) },
    ));
  }
  // SAFETY: tagged externals are only made by `new_incremental`; JS is single-threaded and these
  // entry points do not re-enter JS, so this is the only live reference.
  Ok(unsafe { &mut *(data as *mut Incremental) })
}

fn finalized() -> CryptoError {
  CryptoError::new(
    Code::HashFinalized,
    "Digest already called: call reset() before update() or digest() again",
  )
}

/// `hasherNew(alg, key?, salt?, personalization?, context?, outputLength?)`.
pub unsafe extern "C" fn hasher_new(env: raw::Env, info: raw::Info) -> raw::Value {
  raw::call(env, info, |[alg, key, salt, pers, ctx, len]| unsafe {
    let alg = raw::alg(env, alg)?;
    let opts = RawOptions::read(env, [key, salt, pers, ctx], len)?;
    new_incremental(
      env,
      Engine::Hash(State::with_params(alg, &opts.params())?).into(),
    )
  })
}

/// `hmacNew(alg, key)`.
pub unsafe extern "C" fn hmac_new(env: raw::Env, info: raw::Info) -> raw::Value {
  raw::call(env, info, |[alg, key]| unsafe {
    let alg = raw::alg(env, alg)?;
    let key = bytes::read(env, key, "key")?;
    new_incremental(
      env,
      Engine::Hmac(Hmac::new(State::new(alg), key.as_slice())?).into(),
    )
  })
}

/// `hasherUpdate(hasher, data)`.
pub unsafe extern "C" fn hasher_update(env: raw::Env, info: raw::Info) -> raw::Value {
  raw::call(env, info, |[h, data]| unsafe {
    let h = incremental(env, h)?;
    let state = h.state.as_mut().ok_or_else(finalized)?;
    state.update(bytes::read(env, data, "data")?.as_slice());
    Ok(raw::undefined(env))
  })
}

/// `hasherDigest(hasher, out?)`: into `out` (exactly the digest length), or lower-case hex.
/// A refused call (wrong `out`, hex too long) leaves the state as it was.
pub unsafe extern "C" fn hasher_digest(env: raw::Env, info: raw::Info) -> raw::Value {
  raw::call(env, info, |[h, out]| unsafe {
    let h = incremental(env, h)?;
    let n = h.state.as_ref().ok_or_else(finalized)?.output_len();
    if raw::is_nullish(env, out) {
      bytes::check_hex_len(n)?;
      let state = h.state.take().ok_or_else(finalized)?;
      finish(env, state, Bytes::EMPTY, out)
    } else {
      let target = bytes::read_out(env, out)?;
      check_out_len(target.len(), n)?;
      h.state.take().ok_or_else(finalized)?.finalize_into(target);
      Ok(raw::undefined(env))
    }
  })
}

/// `hasherCopy(hasher)`: an independent copy (a finalised hasher copies as finalised).
pub unsafe extern "C" fn hasher_copy(env: raw::Env, info: raw::Info) -> raw::Value {
  raw::call(env, info, |[h]| unsafe {
    let h = incremental(env, h)?;
    let copy = Incremental {
      initial: h.initial.clone(),
      state: h.state.clone(),
    };
    new_incremental(env, copy)
  })
}

/// `hasherReset(hasher)`: back to the state right after construction.
pub unsafe extern "C" fn hasher_reset(env: raw::Env, info: raw::Info) -> raw::Value {
  raw::call(env, info, |[h]| unsafe {
    let h = incremental(env, h)?;
    h.state = Some(h.initial.clone());
    Ok(raw::undefined(env))
  })
}

// ---- async one-shot ------------------------------------------------------------------------

/// Bytes hashed between two cancellation checks (about 1-8 ms for most hashes here).
const ASYNC_SLICE: usize = 4 << 20;

/// The input of an async digest: a private copy made at call time (see `crate::staging`), so
/// the digest is of the bytes as they were when the call was made, whatever JS does meanwhile.
unsafe fn staged_input(env: sys::napi_env, value: sys::napi_value) -> CryptoResult<Staged> {
  match unsafe { bytes::read(env, value, "data") }? {
    Bytes::Owned(v) => Ok(Staged::from_owned(v)),
    b => Staged::copy_of(b.as_slice()),
  }
}

/// One hash or HMAC over the input, run on the libuv pool.
pub struct DigestJob {
  engine: Option<Engine>,
  data: Option<Staged>,
}

impl Job for DigestJob {
  fn run(&mut self, cancel: &Cancel) -> CryptoResult<Output> {
    let (Some(mut engine), Some(data)) = (self.engine.take(), self.data.take()) else {
      return Err(CryptoError::internal());
    };
    for chunk in data.as_slice().chunks(ASYNC_SLICE) {
      if cancel.is_cancelled() {
        data.recycle();
        return Err(crate::task::aborted());
      }
      engine.update(chunk);
    }
    data.recycle();
    let mut out = Zeroizing::new(Vec::new());
    out
      .try_reserve_exact(engine.output_len())
      .map_err(|_| CryptoError::new(Code::Operation, "cannot allocate the digest"))?;
    out.resize(engine.output_len(), 0);
    engine.finalize_into(&mut out);
    Ok(Output::Bytes(out))
  }
}

/// `hashAsync(alg, data, key?, salt?, personalization?, context?, outputLength?, token?)`: the
/// digest as a Buffer. Options are checked and the input copied before the work is queued.
#[napi]
#[allow(clippy::too_many_arguments)]
pub fn hash_async(
  env: Env,
  alg: u32,
  data: Unknown,
  key: Unknown,
  salt: Unknown,
  personalization: Unknown,
  context: Unknown,
  output_length: Unknown,
  token: Option<&CancelToken>,
) -> napi::Result<AsyncTask<Work<DigestJob>>> {
  let job = (|| -> CryptoResult<DigestJob> {
    let alg = known_alg(alg)?;
    let values = [key.raw(), salt.raw(), personalization.raw(), context.raw()];
    let opts = unsafe { RawOptions::read(env.raw(), values, output_length.raw()) }?;
    Ok(DigestJob {
      engine: Some(Engine::Hash(State::with_params(alg, &opts.params())?)),
      data: Some(unsafe { staged_input(env.raw(), data.raw()) }?),
    })
  })()
  .or_throw(&env)?;
  Ok(Work::new(job, token))
}

/// `hmacAsync(alg, key, data, token?)`: the MAC as a Buffer.
#[napi]
pub fn hmac_async(
  env: Env,
  alg: u32,
  key: Unknown,
  data: Unknown,
  token: Option<&CancelToken>,
) -> napi::Result<AsyncTask<Work<DigestJob>>> {
  let job = (|| -> CryptoResult<DigestJob> {
    let alg = known_alg(alg)?;
    let key = bytes::read_arg(&env, &key, "key")?;
    Ok(DigestJob {
      engine: Some(Engine::Hmac(Hmac::new(State::new(alg), key.as_slice())?)),
      data: Some(unsafe { staged_input(env.raw(), data.raw()) }?),
    })
  })()
  .or_throw(&env)?;
  Ok(Work::new(job, token))
}

fn known_alg(id: u32) -> CryptoResult<Alg> {
  Alg::from_id(id).ok_or_else(|| CryptoError::invalid_value("algorithm", "a known hash id", id))
}
