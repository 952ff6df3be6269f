//! Hash and HMAC entry points: one-shot (raw N-API, one crossing, no copy of the input) and
//! incremental (the `Hasher` class). Both are generic over the list in `algorithms.rs`.

use napi::bindgen_prelude::Unknown;
use napi::JsValue;
use napi::{sys, Env, Result};
use napi_derive::napi;

use crate::algorithms::{oneshot, Alg, HashCore, Hmac, Params, State};
use crate::bytes::{self, Bytes};
use crate::error::{Code, CryptoError, CryptoResult, OrThrow};
use crate::raw;

/// Upper bound on a one-shot digest kept on the stack; longer XOF outputs go to the heap.
const STACK_OUT: usize = 128;

/// Finishes `h` over `data`: into `out` when JS passed a buffer, else as a hex string.
unsafe fn finish<H: HashCore>(
  env: sys::napi_env,
  h: H,
  data: &[u8],
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
    oneshot(h, data, buf);
    return unsafe { bytes::hex_string(env, buf) };
  }
  let target = unsafe { bytes::read_out(env, out) }?;
  check_out_len(target.len(), n)?;
  oneshot(h, data, target);
  Ok(unsafe { raw::undefined(env) })
}

fn check_out_len(got: usize, want: usize) -> CryptoResult<()> {
  if got != want {
    return Err(CryptoError::out_of_range("out.length", want, got));
  }
  Ok(())
}

/// `hash(alg, data, out?)`: the hot path, no options.
pub unsafe extern "C" fn hash(env: sys::napi_env, info: sys::napi_callback_info) -> sys::napi_value {
  let [alg, data, out] = unsafe { raw::args(env, info) };
  raw::complete(env, || unsafe {
    let alg = raw::alg(env, alg)?;
    let data = bytes::read(env, data, "data")?;
    finish(env, State::new(alg), data.as_slice(), out)
  })
}

/// `hashWith(alg, data, out?, key?, salt?, personalization?, context?, outputLength?)`.
pub unsafe extern "C" fn hash_with(env: sys::napi_env, info: sys::napi_callback_info) -> sys::napi_value {
  let [alg, data, out, key, salt, pers, ctx, len] = unsafe { raw::args(env, info) };
  raw::complete(env, || unsafe {
    let alg = raw::alg(env, alg)?;
    let data = bytes::read(env, data, "data")?;
    let opts = RawOptions::read(env, [key, salt, pers, ctx], len)?;
    let state = State::with_params(alg, &opts.params())?;
    finish(env, state, data.as_slice(), out)
  })
}

/// `hmac(alg, key, data, out?)`.
pub unsafe extern "C" fn hmac(env: sys::napi_env, info: sys::napi_callback_info) -> sys::napi_value {
  let [alg, key, data, out] = unsafe { raw::args(env, info) };
  raw::complete(env, || unsafe {
    let alg = raw::alg(env, alg)?;
    let key = bytes::read(env, key, "key")?;
    let data = bytes::read(env, data, "data")?;
    let mac = Hmac::new(State::new(alg), key.as_slice())?;
    finish(env, mac, data.as_slice(), out)
  })
}

/// The byte options of a parameterised hash, read from JS values.
struct RawOptions {
  fields: [Option<Bytes>; 4],
  output_len: Option<u32>,
}

impl RawOptions {
  const NAMES: [&'static str; 4] = ["key", "salt", "personalization", "context"];

  unsafe fn read(env: sys::napi_env, values: [sys::napi_value; 4], len: sys::napi_value) -> CryptoResult<Self> {
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

/// Incremental hash or HMAC state (wrapped by the JS `create()` objects).
#[napi]
pub struct Hasher {
  /// The state right after construction (key and options applied), for `reset()`.
  initial: Engine,
  /// `None` once `digest()` ran.
  state: Option<Engine>,
}

fn read_alg(id: u32) -> CryptoResult<Alg> {
  Alg::from_id(id).ok_or_else(|| CryptoError::invalid_value("algorithm", "a known hash", id))
}

fn finalized() -> CryptoError {
  CryptoError::new(
    Code::HashFinalized,
    "Digest already called: call reset() before update() or digest() again",
  )
}

#[napi]
impl Hasher {
  /// A hash state; options as for `hashWith`.
  #[napi(factory)]
  pub fn hash(
    env: Env,
    alg: u32,
    key: Option<Unknown>,
    salt: Option<Unknown>,
    personalization: Option<Unknown>,
    context: Option<Unknown>,
    output_length: Option<Unknown>,
  ) -> Result<Hasher> {
    let build = || -> CryptoResult<Hasher> {
      let alg = read_alg(alg)?;
      let raw_of = |v: &Option<Unknown>| v.as_ref().map_or(std::ptr::null_mut(), |u| u.raw());
      let opts = unsafe {
        RawOptions::read(
          env.raw(),
          [raw_of(&key), raw_of(&salt), raw_of(&personalization), raw_of(&context)],
          raw_of(&output_length),
        )
      }?;
      let state = State::with_params(alg, &opts.params())?;
      Ok(Hasher::from(Engine::Hash(state)))
    };
    build().or_throw(&env)
  }

  /// An HMAC state keyed with `key` (any length).
  #[napi(factory)]
  pub fn hmac(env: Env, alg: u32, key: Unknown) -> Result<Hasher> {
    let build = || -> CryptoResult<Hasher> {
      let alg = read_alg(alg)?;
      let key = bytes::read_arg(&env, &key, "key")?;
      Ok(Hasher::from(Engine::Hmac(Hmac::new(State::new(alg), key.as_slice())?)))
    };
    build().or_throw(&env)
  }

  #[napi]
  pub fn update(&mut self, env: Env, data: Unknown) -> Result<()> {
    let state = self.state.as_mut().ok_or_else(finalized).or_throw(&env)?;
    let data = bytes::read_arg(&env, &data, "data").or_throw(&env)?;
    state.update(data.as_slice());
    Ok(())
  }

  /// Finalises into `out` (exactly `outputLength` bytes), or returns lower-case hex.
  #[napi]
  pub fn digest(&mut self, env: Env, out: Option<Unknown>) -> Result<Option<String>> {
    let state = self.state.take().ok_or_else(finalized).or_throw(&env)?;
    let n = state.output_len();
    match out {
      Some(out) => {
        let target = unsafe { bytes::read_out(env.raw(), out.raw()) }.or_throw(&env)?;
        if let Err(e) = check_out_len(target.len(), n) {
          self.state = Some(state);
          return Err(e.into_napi(&env));
        }
        state.finalize_into(target);
        Ok(None)
      }
      None => {
        if let Err(e) = bytes::check_hex_len(n) {
          self.state = Some(state);
          return Err(e.into_napi(&env));
        }
        let mut buf = zeroize::Zeroizing::new(vec![0u8; n]);
        state.finalize_into(&mut buf);
        Ok(Some(bytes::to_hex(&buf)))
      }
    }
  }

  /// An independent copy of the current state (finalised copies stay finalised).
  #[napi]
  pub fn copy(&self) -> Hasher {
    Hasher {
      initial: self.initial.clone(),
      state: self.state.clone(),
    }
  }

  /// Starts over with the same algorithm, key and options.
  #[napi]
  pub fn reset(&mut self) {
    self.state = Some(self.initial.clone());
  }

  /// Digest length in bytes.
  #[napi(getter)]
  pub fn output_length(&self) -> u32 {
    self.initial.output_len() as u32
  }
}

impl From<Engine> for Hasher {
  fn from(e: Engine) -> Self {
    Hasher {
      initial: e.clone(),
      state: Some(e),
    }
  }
}
