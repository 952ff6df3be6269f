//! The streaming AEAD's entry points (wrapped by `lib/cipher-stream.js`):
//!
//! - `streamAlgorithms()`: the format's algorithm list (`aead_stream::ALGORITHMS`), which the JS
//!   layer turns into `encryptStream`/`decryptStream`/`encryptFile`/`decryptFile` on the namespaces.
//! - `aeadStreamNewAsync(request, secret, head?, token?)`: the native state of a Transform (a
//!   handle), made on the pool (Argon2id for a passphrase). When decrypting, `head` is the start
//!   of the input (the header at least). `request` is an [`AeadStreamRequest`].
//! - `aeadStreamUpdate(state, chunk)` / `aeadStreamFinal(state)`: the output so far, as a Buffer.
//! - `aeadStreamFile(request, secret, src, dst, token?, progress?)`: a file sealed or opened on
//!   the pool (`file.rs`); resolves to the bytes written.
//!
//! `request.options` (one object, every field read before any is used): `aad`, `segmentSize`,
//! `memoryCost`/`timeCost`/`parallelism` (Argon2id's cost when sealing with a passphrase),
//! `maxMemoryCost`/`maxTimeCost`/`maxParallelism` (ceilings on a header's, when opening),
//! `allowV1` (opening: read version-1 streams, which do not commit to their key), and `lead`
//! (internal, for `crypto.hybrid`: bytes written before the header when sealing, and required and
//! skipped before it when opening).

use napi::bindgen_prelude::{AsyncTask, BufferSlice, JsValue, Unknown};
use napi::Env;
use napi_derive::napi;
use zeroize::Zeroizing;

use super::aead_stream::{
  max_header_len, Cost, Spec, StreamAlg, StreamSecret, TransformInitJob, TransformState,
  ALGORITHMS, DEFAULT_COST, DEFAULT_SEGMENT, MAX_SEGMENT, MIN_SEGMENT,
};
use super::file::FileJob;
use crate::error::{Code, CryptoError, CryptoResult, OrThrow};
use crate::file_io::FileProgress;
use crate::js::{self, Cx, Value};
use crate::kdf::argon2::Argon2Limits;
use crate::task::{CancelToken, Work};

/// One algorithm of the streaming format, as the JS layer sees it.
#[napi(object)]
pub struct StreamAlgorithmInfo {
  /// The algorithm's byte in the header.
  pub id: u32,
  /// The `crypto.cipher` namespace that offers it: `'aes'`, `'xchacha20'`.
  pub namespace: String,
  pub name: String,
  /// Bytes a decryptor collects before it parses a header (the longest header of the format).
  pub max_header_length: u32,
  pub min_segment_size: u32,
  pub max_segment_size: u32,
  pub default_segment_size: u32,
}

/// The streaming format's algorithms.
#[napi]
pub fn stream_algorithms() -> Vec<StreamAlgorithmInfo> {
  ALGORITHMS
    .iter()
    .map(|a| StreamAlgorithmInfo {
      id: u32::from(a.id),
      namespace: a.namespace.to_string(),
      name: a.name.to_string(),
      max_header_length: max_header_len() as u32,
      min_segment_size: MIN_SEGMENT,
      max_segment_size: MAX_SEGMENT,
      default_segment_size: DEFAULT_SEGMENT,
    })
    .collect()
}

/// The longest `lead` (bytes of an enclosing format before the stream header) a call takes.
const MAX_LEAD: usize = 16 * 1024;

/// The algorithm of the id `alg`.
pub(super) fn algorithm(alg: u32) -> CryptoResult<&'static StreamAlg> {
  StreamAlg::from_id(alg)
    .ok_or_else(|| CryptoError::invalid_value("algorithm", "a known stream algorithm id", alg))
}

/// The secret argument, copied: a non-empty passphrase, or a 32-byte key for `alg`.
pub(super) fn read_secret(
  env: &Env,
  alg: &StreamAlg,
  secret: &Unknown,
  passphrase: bool,
) -> CryptoResult<StreamSecret> {
  let cx = Cx::from(env);
  if passphrase {
    let s = cx
      .bytes(Value::from(secret), "options.passphrase")?
      .into_owned();
    super::check_passphrase(&s)?;
    return Ok(StreamSecret::Passphrase(s));
  }
  let k = cx.bytes(Value::from(secret), "options.key")?.into_owned();
  if k.len() != 32 {
    return Err(CryptoError::new(
      Code::OutOfRange,
      format!(
        "Invalid key length for a {} stream: it must be 32 bytes. Received {}",
        alg.name,
        k.len()
      ),
    ));
  }
  Ok(StreamSecret::Key(k))
}

/// The request of one call with `secret`, its inputs copied (for the pool).
pub(super) fn spec<'js>(
  env: &'js Env,
  alg: &'static StreamAlg,
  decrypt: bool,
  secret: StreamSecret,
  options: Option<&Unknown<'js>>,
) -> CryptoResult<Spec> {
  let cx = Cx::from(env);
  let [aad, size, m, t, p, max_m, max_t, max_p, allow_v1, lead] = js::Object::new(env, options)?
    .values([
      c"aad",
      c"segmentSize",
      c"memoryCost",
      c"timeCost",
      c"parallelism",
      c"maxMemoryCost",
      c"maxTimeCost",
      c"maxParallelism",
      c"allowV1",
      c"lead",
    ])?;
  let num = |v, name| cx.opt_u32(v, name);
  let segment_size = num(size, "options.segmentSize")?.unwrap_or(DEFAULT_SEGMENT);
  if !(MIN_SEGMENT..=MAX_SEGMENT).contains(&segment_size) {
    return Err(CryptoError::out_of_range(
      "options.segmentSize",
      format!(">= {MIN_SEGMENT} && <= {MAX_SEGMENT}"),
      segment_size,
    ));
  }
  let cost = Cost {
    m: num(m, "options.memoryCost")?.unwrap_or(DEFAULT_COST.m),
    t: num(t, "options.timeCost")?.unwrap_or(DEFAULT_COST.t),
    p: num(p, "options.parallelism")?.unwrap_or(DEFAULT_COST.p),
  };
  let limits = Argon2Limits {
    max_memory_cost: num(max_m, "options.maxMemoryCost")?,
    max_time_cost: num(max_t, "options.maxTimeCost")?,
    max_parallelism: num(max_p, "options.maxParallelism")?,
  };
  let aad = cx
    .opt_bytes(aad, "options.aad")?
    .map_or_else(Vec::new, |b| b.as_slice().to_vec());
  let lead = cx
    .opt_bytes(lead, "options.lead")?
    .map_or_else(Vec::new, |b| b.as_slice().to_vec());
  if lead.len() > MAX_LEAD {
    return Err(CryptoError::out_of_range(
      "options.lead.length",
      format!("<= {MAX_LEAD}"),
      lead.len(),
    ));
  }
  let spec = Spec {
    alg,
    decrypt,
    secret,
    aad,
    segment_size,
    cost,
    limits,
    allow_v1: cx.truthy(allow_v1),
    lead,
  };
  if matches!(spec.secret, StreamSecret::Passphrase(_)) && !decrypt {
    spec.check_cost()?;
  }
  Ok(spec)
}

/// What a stream or file call of the format does: the algorithm (an id of `streamAlgorithms()`),
/// the direction, whether the secret is a passphrase (else a 32-byte key), and the options `spec`
/// reads (`aad`, `segmentSize`, the Argon2id costs and ceilings, `allowV1`, `lead`).
#[napi(object, object_to_js = false)]
pub struct AeadStreamRequest<'js> {
  pub algorithm: u32,
  pub decrypt: bool,
  pub passphrase: bool,
  pub options: Option<Unknown<'js>>,
}

impl<'js> AeadStreamRequest<'js> {
  /// The request with `secret` (the key or passphrase), its inputs copied (for the pool).
  fn spec(&self, env: &'js Env, secret: &Unknown<'js>) -> CryptoResult<Spec> {
    let alg = algorithm(self.algorithm)?;
    let secret = read_secret(env, alg, secret, self.passphrase)?;
    spec(env, alg, self.decrypt, secret, self.options.as_ref())
  }
}

/// `aeadStreamNewAsync(request, secret, head?, token?)`: a stream state, made on the libuv pool
/// (a passphrase's Argon2id; for a key, HKDF only, and the pool is used all the same: one way to
/// make a state, and a stream's first chunk is never tiny work).
#[napi(ts_return_type = "Promise<unknown>")]
pub fn aead_stream_new_async<'js>(
  env: &'js Env,
  request: AeadStreamRequest<'js>,
  secret: Unknown<'js>,
  head: Option<Unknown<'js>>,
  token: Option<&CancelToken>,
) -> napi::Result<AsyncTask<Work<TransformInitJob>>> {
  let decrypt = request.decrypt;
  let job = (|| -> CryptoResult<TransformInitJob> {
    let spec = request.spec(env, &secret)?;
    let head = match head {
      Some(h) if decrypt => js::read_arg(env, &h, "head")?.into_owned(),
      _ => Zeroizing::new(Vec::new()),
    };
    Ok(TransformInitJob {
      spec: Some(spec),
      head,
    })
  })()
  .or_throw(env)?;
  Ok(Work::new(job, token))
}

fn state<'js>(env: &'js Env, v: &Unknown<'js>) -> CryptoResult<&'js TransformState> {
  Cx::from(env).kept_arg::<TransformState>(Value::from(v), "stream")
}

/// `out` as a Buffer in V8's heap (a copy; `out` is wiped). Not an external Buffer over the
/// Vec: V8 does not count external memory towards its next GC, so a stream whose source reuses
/// one buffer would pile up every output until the end (measured: +1 GiB RSS for 1 GiB).
fn to_js<'js>(env: &'js Env, out: Vec<u8>) -> napi::Result<Unknown<'js>> {
  let out = Zeroizing::new(out);
  Ok(BufferSlice::copy_from(env, &out[..])?.to_unknown())
}

/// `aeadStreamUpdate(state, chunk)`: the output `chunk` completes (sealed segments, or the
/// plaintext of segments whose tags verified).
#[napi(ts_return_type = "Buffer")]
pub fn aead_stream_update<'js>(
  env: &'js Env,
  stream: Unknown<'js>,
  chunk: Unknown<'js>,
) -> napi::Result<Unknown<'js>> {
  let s = state(env, &stream).or_throw(env)?;
  let chunk = js::read_arg(env, &chunk, "chunk").or_throw(env)?;
  to_js(env, s.run(chunk.as_slice(), false).or_throw(env)?)
}

/// `aeadStreamFinal(state)`: the rest (the last segment).
#[napi(ts_return_type = "Buffer")]
pub fn aead_stream_final<'js>(env: &'js Env, stream: Unknown<'js>) -> napi::Result<Unknown<'js>> {
  let s = state(env, &stream).or_throw(env)?;
  to_js(env, s.run(&[], true).or_throw(env)?)
}

/// `aeadStreamFile(request, secret, src, dst, token?, progress?)`: `src` sealed or opened into
/// `dst` on the libuv pool; resolves to the bytes written.
#[napi(ts_return_type = "Promise<number>")]
pub fn aead_stream_file<'js>(
  env: &'js Env,
  request: AeadStreamRequest<'js>,
  secret: Unknown<'js>,
  src: Unknown<'js>,
  dst: Unknown<'js>,
  token: Option<&CancelToken>,
  progress: Option<&FileProgress>,
) -> napi::Result<AsyncTask<Work<FileJob<Spec>>>> {
  let job = (|| -> CryptoResult<FileJob<Spec>> {
    let spec = request.spec(env, &secret)?;
    FileJob::new(env, spec, &src, &dst, progress)
  })()
  .or_throw(env)?;
  Ok(Work::new(job, token))
}
