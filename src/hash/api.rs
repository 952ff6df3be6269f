//! Hash and HMAC entry points: one-shot (raw N-API, one crossing, no copy of the input),
//! incremental (the JS `Hasher` over a native state) and async one-shot (a copy of the input,
//! made at call time, hashed on the libuv pool). All generic over the list in `list.rs`.

use std::cell::RefCell;

use napi::bindgen_prelude::{AsyncTask, Unknown};
use napi::Env;
use napi_derive::napi;
use zeroize::Zeroizing;

use super::core::{oneshot, HashCore, HashParams, Hmac};
use super::list::{Alg, Family, State, MAX_XOF_LEN};
use crate::error::{Code, CryptoError, CryptoResult, OrThrow};
use crate::js::{self, Args, Bytes, Cx, Kept, OutBy, Tag, Value};
use crate::staging::Staged;
use crate::task::{Cancel, CancelToken, Job, Output, Work};

/// One hash algorithm as the JS layer sees it.
#[napi(object)]
pub struct AlgorithmInfo {
  pub name: String,
  pub id: u32,
  /// Default digest length in bytes.
  pub output_length: u32,
  /// Largest `outputLength` the algorithm accepts.
  pub max_output_length: u32,
  /// Block length in bytes; 0 for XOFs (no HMAC).
  pub block_length: u32,
  /// Option names the algorithm accepts besides `outputFormat`.
  pub options: Vec<String>,
}

/// The hash list (`src/hash/list.rs`), in id order.
#[napi]
pub fn algorithms() -> Vec<AlgorithmInfo> {
  Alg::ALL
    .iter()
    .map(|&a| {
      let s = State::new(a);
      AlgorithmInfo {
        name: a.name().to_string(),
        id: a as u32,
        output_length: s.output_len() as u32,
        max_output_length: match a.family() {
          Family::Shake | Family::Blake3 => MAX_XOF_LEN,
          Family::Fixed | Family::Blake2 => s.output_len() as u32,
        },
        block_length: s.block_len() as u32,
        options: a.family().options().iter().map(|o| o.to_string()).collect(),
      }
    })
    .collect()
}

/// Upper bound on a one-shot digest kept on the stack; longer XOF outputs go to the heap.
const STACK_OUT: usize = 128;

/// Finishes `h` over `data`: into `out` when JS passed a buffer, else as a hex string.
fn finish<'js, H: HashCore>(
  cx: Cx<'js>,
  h: H,
  mut data: Bytes<'js>,
  out: Value<'js>,
  by: OutBy,
) -> CryptoResult<Value<'js>> {
  let n = h.output_len();
  if cx.is_nullish(out) {
    js::check_hex_len(n)?;
    let mut stack = [0u8; STACK_OUT];
    let mut heap = Vec::new();
    let buf = if n <= STACK_OUT {
      &mut stack[..n]
    } else {
      heap.resize(n, 0);
      &mut heap[..]
    };
    oneshot(h, data.as_slice(), buf);
    return cx.hex(buf);
  }
  let mut out = cx.out(out)?;
  check_out_len(out.len(), n)?;
  let target = out.writable_for(by, [("data", Some(&mut data))])?;
  oneshot(h, data.as_slice(), target);
  Ok(Value::undefined())
}

fn check_out_len(got: usize, want: usize) -> CryptoResult<()> {
  if got != want {
    return Err(CryptoError::out_of_range("out.length", want, got));
  }
  Ok(())
}

fn alg(cx: Cx<'_>, v: Value<'_>) -> CryptoResult<Alg> {
  known_alg(cx.id(v))
}

pub(crate) fn known_alg(id: u32) -> CryptoResult<Alg> {
  Alg::from_js_id(id, "algorithm")
}

/// `hash(alg, data, out?, caller?)`: the hot path, no options. `caller` is true when `out` is
/// the caller's `options.output` (an input overlapping it is then refused, see `Out`).
pub fn hash<'js>(
  cx: Cx<'js>,
  [alg_id, data, out, caller, ..]: Args<'js>,
) -> CryptoResult<Value<'js>> {
  let data = cx.bytes(data, "data")?;
  finish(
    cx,
    State::new(alg(cx, alg_id)?),
    data,
    out,
    cx.out_by(caller),
  )
}

/// `hashWith(alg, data, out?, key?, salt?, personalization?, context?, outputLength?, caller?)`: the
/// options as positional arguments (a hot synchronous path: reading them as fields of an object
/// would cost one N-API property read each).
pub fn hash_with<'js>(
  cx: Cx<'js>,
  [alg_id, data, out, key, salt, pers, ctx, len, caller]: Args<'js>,
) -> CryptoResult<Value<'js>> {
  let alg = alg(cx, alg_id)?;
  let data = cx.bytes(data, "data")?;
  let mut opts = HashOptions::positional(cx, [key, salt, pers, ctx, len])?;
  let state = State::with_params(alg, &opts.params())?;
  let by = cx.out_by(caller);
  if by == OutBy::Caller {
    // The state holds its own copies of the byte options by now, so writing the output could
    // not change them; a caller's output that shares their memory is still refused, as any
    // overlapping input is.
    cx.out(out)?.writable_for(by, opts.byte_fields())?;
  }
  finish(cx, state, data, out, by)
}

/// `hmac(alg, key, data, out?, caller?)`.
pub fn hmac<'js>(
  cx: Cx<'js>,
  [alg_id, key, data, out, caller, ..]: Args<'js>,
) -> CryptoResult<Value<'js>> {
  let alg = alg(cx, alg_id)?;
  let mut key = cx.bytes(key, "key")?;
  let data = cx.bytes(data, "data")?;
  let by = cx.out_by(caller);
  if by == OutBy::Caller {
    cx.out(out)?
      .writable_for(by, [("options.key", Some(&mut key))])?;
  }
  let mac = Hmac::new(State::new(alg), key.as_slice())?;
  finish(cx, mac, data, out, by)
}

/// The byte options of a parameterised hash (keyed BLAKE2/BLAKE3, salts, XOF lengths).
pub(crate) struct HashOptions<'js> {
  key: Option<Bytes<'js>>,
  salt: Option<Bytes<'js>>,
  personalization: Option<Bytes<'js>>,
  context: Option<Bytes<'js>>,
  output_len: Option<u32>,
}

impl<'js> HashOptions<'js> {
  /// The options as the positional arguments of `hashWith`/`hasherNew`.
  pub(crate) fn positional(
    cx: Cx<'js>,
    [key, salt, pers, ctx, len]: [Value<'js>; 5],
  ) -> CryptoResult<Self> {
    Ok(HashOptions {
      key: cx.opt_bytes(key, "key")?,
      salt: cx.opt_bytes(salt, "salt")?,
      personalization: cx.opt_bytes(pers, "personalization")?,
      context: cx.opt_bytes(ctx, "context")?,
      output_len: cx.opt_u32(len, "outputLength")?,
    })
  }

  /// The fields of an options object, in the order [`HashOptions::positional`] takes them.
  pub(crate) const FIELDS: [&'static std::ffi::CStr; 5] = [
    c"key",
    c"salt",
    c"personalization",
    c"context",
    c"outputLength",
  ];

  /// The fields of an options object `{ key, salt, personalization, context, outputLength }`.
  pub(crate) fn from_object(cx: Cx<'js>, o: &js::Object<'js>) -> CryptoResult<Self> {
    Self::positional(cx, o.values(Self::FIELDS)?)
  }

  /// The byte options, named as the JS options object names them.
  fn byte_fields(&mut self) -> [(&'static str, Option<&mut Bytes<'js>>); 4] {
    [
      ("options.key", self.key.as_mut()),
      ("options.salt", self.salt.as_mut()),
      ("options.personalization", self.personalization.as_mut()),
      ("options.context", self.context.as_mut()),
    ]
  }

  pub(crate) fn params(&self) -> HashParams<'_> {
    HashParams {
      key: self.key.as_ref().map(Bytes::as_slice),
      salt: self.salt.as_ref().map(Bytes::as_slice),
      personalization: self.personalization.as_ref().map(Bytes::as_slice),
      context: self.context.as_ref().map(Bytes::as_slice),
      output_len: self.output_len,
    }
  }
}

/// What an incremental hasher runs: a plain hash or an HMAC over one.
#[derive(Clone)]
// Engines always live behind a Box (`Incremental`), so the variants' size gap costs nothing.
#[allow(clippy::large_enum_variant)]
pub(crate) enum Engine {
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

/// Incremental hash or HMAC state, held by the JS `Hasher` objects through a handle.
struct Incremental {
  /// The state right after construction (key and options applied), for `reset()`.
  initial: Engine,
  /// `None` once `digest()` ran.
  state: RefCell<Option<Engine>>,
}

impl Kept for Incremental {
  const TAG: Tag = Tag {
    lower: 0x6372_7970_746f_6772,
    upper: 0x6170_6865_722e_6861,
  };
  const WHAT: &'static str = "a hasher made by create()";
}

impl From<Engine> for Incremental {
  fn from(engine: Engine) -> Self {
    Incremental {
      initial: engine.clone(),
      state: RefCell::new(Some(engine)),
    }
  }
}

/// The state of the hasher handle `v`, borrowed for this call.
fn state<'js>(
  cx: Cx<'js>,
  v: Value<'js>,
) -> CryptoResult<(&'js Incremental, std::cell::RefMut<'js, Option<Engine>>)> {
  let h = cx.kept_arg::<Incremental>(v, "hasher")?;
  let state = h
    .state
    .try_borrow_mut()
    .map_err(|_| CryptoError::internal())?;
  Ok((h, state))
}

fn finalized() -> CryptoError {
  CryptoError::new(
    Code::HashFinalized,
    "Digest already called: call reset() before update() or digest() again",
  )
}

/// `hasherNew(alg, key?, salt?, personalization?, context?, outputLength?)`.
pub fn hasher_new<'js>(
  cx: Cx<'js>,
  [alg_id, key, salt, pers, ctx, len, ..]: Args<'js>,
) -> CryptoResult<Value<'js>> {
  let alg = alg(cx, alg_id)?;
  let opts = HashOptions::positional(cx, [key, salt, pers, ctx, len])?;
  let engine = Engine::Hash(State::with_params(alg, &opts.params())?);
  cx.keep(Incremental::from(engine))
}

/// `hmacNew(alg, key)`.
pub fn hmac_new<'js>(cx: Cx<'js>, [alg_id, key, ..]: Args<'js>) -> CryptoResult<Value<'js>> {
  let alg = alg(cx, alg_id)?;
  let key = cx.bytes(key, "key")?;
  let engine = Engine::Hmac(Hmac::new(State::new(alg), key.as_slice())?);
  cx.keep(Incremental::from(engine))
}

/// `hasherUpdate(hasher, data)`.
pub fn hasher_update<'js>(cx: Cx<'js>, [h, data, ..]: Args<'js>) -> CryptoResult<Value<'js>> {
  let (_, mut state) = state(cx, h)?;
  let engine = state.as_mut().ok_or_else(finalized)?;
  engine.update(cx.bytes(data, "data")?.as_slice());
  Ok(Value::undefined())
}

/// `hasherDigest(hasher, out?)`: into `out` (exactly the digest length), or lower-case hex.
/// A refused call (wrong `out`, hex too long) leaves the state as it was.
pub fn hasher_digest<'js>(cx: Cx<'js>, [h, out, ..]: Args<'js>) -> CryptoResult<Value<'js>> {
  let (_, mut state) = state(cx, h)?;
  let n = state.as_ref().ok_or_else(finalized)?.output_len();
  if cx.is_nullish(out) {
    js::check_hex_len(n)?;
    let engine = state.take().ok_or_else(finalized)?;
    finish(cx, engine, Bytes::EMPTY, out, OutBy::Layer)
  } else {
    let mut out = cx.out(out)?;
    check_out_len(out.len(), n)?;
    let engine = state.take().ok_or_else(finalized)?;
    engine.finalize_into(out.writable([]));
    Ok(Value::undefined())
  }
}

/// `hasherCopy(hasher)`: an independent copy (a finalised hasher copies as finalised).
pub fn hasher_copy<'js>(cx: Cx<'js>, [h, ..]: Args<'js>) -> CryptoResult<Value<'js>> {
  let (h, state) = state(cx, h)?;
  let copy = Incremental {
    initial: h.initial.clone(),
    state: RefCell::new(state.clone()),
  };
  drop(state);
  cx.keep(copy)
}

/// `hasherReset(hasher)`: back to the state right after construction.
pub fn hasher_reset<'js>(cx: Cx<'js>, [h, ..]: Args<'js>) -> CryptoResult<Value<'js>> {
  let (h, mut state) = state(cx, h)?;
  *state = Some(h.initial.clone());
  Ok(Value::undefined())
}

// ---- async one-shot ------------------------------------------------------------------------

/// Bytes hashed between two cancellation checks (about 1-8 ms for most hashes here).
const ASYNC_SLICE: usize = 4 << 20;

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
    digest_output(engine)
  }
}

/// Finishes `engine` into the job output.
pub(crate) fn digest_output(engine: impl HashCore) -> CryptoResult<Output> {
  digest_with(engine.output_len(), |out| engine.finalize_into(out))
}

/// A job output of `len` bytes written by `fill` (a digest of any length the algorithm allows,
/// so its allocation may fail: that is an error, not an abort).
pub(crate) fn digest_with(len: usize, fill: impl FnOnce(&mut [u8])) -> CryptoResult<Output> {
  let mut out = Zeroizing::new(Vec::new());
  out
    .try_reserve_exact(len)
    .map_err(|_| CryptoError::new(Code::Operation, "cannot allocate the digest"))?;
  out.resize(len, 0);
  fill(&mut out);
  Ok(Output::Bytes(out))
}

/// `hashAsync(alg, data, options?, token?)`: the digest as a Buffer; `options` is
/// `{ key, salt, personalization, context, outputLength }`. Options are checked and the input
/// copied (the digest is of the bytes as they were at call time, whatever JS does meanwhile)
/// before the work is queued.
#[napi(ts_return_type = "Promise<Buffer>")]
pub fn hash_async<'js>(
  env: &'js Env,
  alg: u32,
  data: Unknown<'js>,
  options: Option<Unknown<'js>>,
  token: Option<&CancelToken>,
) -> napi::Result<AsyncTask<Work<DigestJob>>> {
  let job = (|| -> CryptoResult<DigestJob> {
    let alg = known_alg(alg)?;
    let options = js::Object::new(env, options.as_ref())?;
    let opts = HashOptions::from_object(Cx::from(env), &options)?;
    Ok(DigestJob {
      engine: Some(Engine::Hash(State::with_params(alg, &opts.params())?)),
      data: Some(js::read_arg(env, &data, "data")?.into_staged()?),
    })
  })()
  .or_throw(env)?;
  Ok(Work::new(job, token))
}

/// `hmacAsync(alg, key, data, token?)`: the MAC as a Buffer.
#[napi(ts_return_type = "Promise<Buffer>")]
pub fn hmac_async<'js>(
  env: &'js Env,
  alg: u32,
  key: Unknown<'js>,
  data: Unknown<'js>,
  token: Option<&CancelToken>,
) -> napi::Result<AsyncTask<Work<DigestJob>>> {
  let job = (|| -> CryptoResult<DigestJob> {
    let alg = known_alg(alg)?;
    let key = js::read_arg(env, &key, "key")?;
    Ok(DigestJob {
      engine: Some(Engine::Hmac(Hmac::new(State::new(alg), key.as_slice())?)),
      data: Some(js::read_arg(env, &data, "data")?.into_staged()?),
    })
  })()
  .or_throw(env)?;
  Ok(Work::new(job, token))
}
