//! Batch encryption and decryption (`cipher.*.encryptBatch`, `decryptBatch` and their async
//! forms): many messages under one key, through the batch loop of `crate::batch`.
//!
//! Each message is handled exactly as one `encrypt`/`decrypt` call with the same options would
//! handle it (same output layout: a generated IV is prepended), with these differences:
//! - the key schedule is expanded once per call (once per part for the async form);
//! - generated IVs come from the CSPRNG [`IV_CHUNK`] at a time, not one system call each;
//! - `ivs`, when given, holds one IV per message; for encryption they must be pairwise
//!   distinct (a repeated IV under one key breaks GCM, CCM, ChaCha20-Poly1305 and the stream
//!   modes: refused before anything is encrypted);
//! - a failure of any message (a wrong tag above all) fails the whole call with that message's
//!   error, its index appended (`(messages[3])`), and every output written so far is wiped: no
//!   plaintext of any message is released.

use std::collections::HashSet;
use std::ops::Range;

use napi::bindgen_prelude::Unknown;
use napi::Env;
use napi_derive::napi;
use zeroize::Zeroizing;

use super::api::decode_op;
use super::dispatch::run;
use super::keys::ModeKey;
use super::modes::{check_iv, check_key, IvRule, Mode, Op};
use crate::batch::{at_item, parts, run_sync, ItemWork, Parts};
use crate::error::{CryptoError, CryptoResult, OrThrow};
use crate::js::{self, Args, Bytes, Cx, Value};
use crate::task::CancelToken;

const MESSAGES: &str = "messages";
const IVS: &str = "options.ivs";

/// Generated IVs drawn from the CSPRNG at once.
const IV_CHUNK: usize = 256;

/// Everything but the messages, owned (each async part has its own copy).
pub struct Messages {
  mode: Mode,
  decrypt: bool,
  padding: bool,
  tag_len: usize,
  aad: Vec<u8>,
  key: Zeroizing<Vec<u8>>,
  /// Built on first use (on the pool thread for the async form).
  engine: Option<ModeKey>,
  /// One IV per message of this list, when the caller gave them.
  ivs: Option<Vec<Vec<u8>>>,
  /// Generated IVs not used yet, `iv_default` bytes each, taken from the end.
  fresh: Zeroizing<Vec<u8>>,
}

impl Messages {
  fn op<'a>(&'a self, iv: Option<&'a [u8]>) -> Op<'a> {
    Op {
      mode: self.mode,
      decrypt: self.decrypt,
      padding: self.padding,
      iv,
      aad: &self.aad,
      tag_len: self.tag_len,
    }
  }

  /// True when each encryption generates its IV (and prepends it).
  fn generates_ivs(&self) -> bool {
    !self.decrypt && self.ivs.is_none() && !matches!(self.mode.info().iv, IvRule::None)
  }

  /// The next generated IV, into `iv`.
  fn fresh_iv(&mut self, iv: &mut [u8]) -> CryptoResult<()> {
    let n = iv.len();
    if self.fresh.len() < n {
      self.fresh.resize(n * IV_CHUNK, 0);
      crate::random::fill(&mut self.fresh)?;
    }
    let at = self.fresh.len() - n;
    iv.copy_from_slice(&self.fresh[at..]);
    self.fresh.truncate(at);
    Ok(())
  }
}

impl ItemWork for Messages {
  fn fixed_len(&self) -> Option<usize> {
    None
  }

  fn out_len(&self, n: usize) -> usize {
    let iv = self.ivs.as_ref().map(|_| &[][..]);
    self.op(iv).output_len(n)
  }

  fn item(&mut self, i: usize, input: &[u8], out: &mut [u8]) -> CryptoResult<usize> {
    if self.engine.is_none() {
      self.engine = Some(ModeKey::new(self.mode, &self.key)?);
    }
    if self.generates_ivs() {
      // As `run` does for one message, with the IV taken from the chunk.
      let (prefix, body) = out.split_at_mut(self.mode.info().iv_default);
      self.fresh_iv(prefix)?;
      let mut engine = self.engine.take();
      let result = match engine.as_mut() {
        Some(e) => run(e, &self.op(Some(prefix)), input, body),
        None => Err(CryptoError::internal()),
      };
      self.engine = engine;
      return Ok(result? + prefix.len());
    }
    let iv = match &self.ivs {
      Some(ivs) => Some(ivs.get(i).ok_or_else(CryptoError::internal)?.as_slice()),
      None => None,
    };
    let mut engine = self.engine.take();
    let result = match engine.as_mut() {
      Some(e) => run(e, &self.op(iv), input, out),
      None => Err(CryptoError::internal()),
    };
    self.engine = engine;
    result
  }
}

/// The IVs, checked: one per message, each of a length the mode takes, and (encryption)
/// pairwise distinct.
fn check_ivs(mode: Mode, decrypt: bool, ivs: &[Bytes<'_>], messages: usize) -> CryptoResult<()> {
  if ivs.len() != messages {
    return Err(CryptoError::out_of_range(
      "options.ivs.length",
      format!("messages.length ({messages}): one IV per message"),
      ivs.len(),
    ));
  }
  for (i, iv) in ivs.iter().enumerate() {
    check_iv(mode, iv.as_slice().len()).map_err(|e| at_item(e, IVS, i))?;
  }
  if !decrypt && !matches!(mode.info().iv, IvRule::None) {
    let mut seen = HashSet::with_capacity(ivs.len());
    for (i, iv) in ivs.iter().enumerate() {
      if !seen.insert(iv.as_slice()) {
        let first = ivs
          .iter()
          .position(|v| v.as_slice() == iv.as_slice())
          .unwrap_or(0);
        return Err(CryptoError::invalid_value(
          &format!("{IVS}[{i}]"),
          "an IV used for no other message of the batch (a repeated IV under one key breaks \
           the encryption)",
          format!("the IV of {IVS}[{first}]"),
        ));
      }
    }
  }
  Ok(())
}

/// The call's parameters, checked, and its messages (and IVs) read as bytes.
struct Request<'js> {
  messages: Vec<Bytes<'js>>,
  ivs: Option<Vec<Bytes<'js>>>,
  work: Messages,
}

/// Reads a call: `elements` and `iv_elements` were read first (see `js::array`).
fn request<'js>(
  cx: Cx<'js>,
  bits: u32,
  key: Value<'js>,
  elements: &[Value<'js>],
  iv_elements: Option<&[Value<'js>]>,
  aad: Value<'js>,
  tag: Value<'js>,
) -> CryptoResult<Request<'js>> {
  let (mode, decrypt, padding) = decode_op(bits)?;
  let tag_len = cx.opt_u32(tag, "options.tagLength")?.unwrap_or(16) as usize;
  let key = cx.bytes(key, "options.key")?;
  let aad = cx.opt_bytes(aad, "options.aad")?;
  let ivs = iv_elements.map(|v| cx.bytes_each(v, IVS)).transpose()?;
  let work = Messages {
    mode,
    decrypt,
    padding,
    tag_len,
    aad: aad.map_or_else(Vec::new, |a| a.as_slice().to_vec()),
    key: key.into_owned(),
    engine: None,
    ivs: None,
    fresh: Zeroizing::new(Vec::new()),
  };
  work.op(None).check()?;
  check_key(mode, work.key.len())?;
  let messages = cx.bytes_each(elements, MESSAGES)?;
  if let Some(ivs) = &ivs {
    check_ivs(mode, decrypt, ivs, messages.len())?;
  }
  for (i, m) in messages.iter().enumerate() {
    if u32::try_from(work.out_len(m.as_slice().len())).is_err() {
      return Err(CryptoError::out_of_range(
        &format!("{MESSAGES}[{i}].length"),
        "< 4 GiB",
        m.as_slice().len(),
      ));
    }
  }
  Ok(Request {
    messages,
    ivs,
    work,
  })
}

impl Request<'_> {
  /// The parameters for the messages `range`, with their IVs.
  fn part(&self, range: Range<usize>) -> Messages {
    let w = &self.work;
    Messages {
      aad: w.aad.clone(),
      key: w.key.clone(),
      engine: None,
      ivs: self
        .ivs
        .as_ref()
        .map(|ivs| ivs[range].iter().map(|iv| iv.as_slice().to_vec()).collect()),
      fresh: Zeroizing::new(Vec::new()),
      ..*w
    }
  }
}

/// `cipherBatch(op, key, ivs?, messages, aad?, tagLength?)`: every message encrypted or
/// decrypted, as `[Buffer, Uint32Array]`: the outputs back to back and their lengths.
pub fn cipher_batch<'js>(
  cx: Cx<'js>,
  [op, key, ivs, messages, aad, tag, ..]: Args<'js>,
) -> CryptoResult<Value<'js>> {
  let bits = cx.opt_u32(op, "op")?.unwrap_or(u32::MAX);
  let elements = cx.array(messages, MESSAGES)?;
  let iv_elements = match cx.is_nullish(ivs) {
    true => None,
    false => Some(cx.array(ivs, IVS)?),
  };
  let req = request(cx, bits, key, &elements, iv_elements.as_deref(), aad, tag)?;
  let work = req.part(0..req.messages.len());
  run_sync(cx, work, &req.messages, MESSAGES)
}

/// `cipherBatchAsync(op, key, messages, { ivs, aad, tagLength }, token?)`: as `cipherBatch` on
/// the libuv pool, one promise per part (each resolving to its `[Buffer, Uint32Array]`).
#[napi(ts_return_type = "Promise<[Buffer, Uint32Array]>[]")]
pub fn cipher_batch_async<'js>(
  env: &'js Env,
  op: u32,
  key: Unknown<'js>,
  messages: Unknown<'js>,
  options: Option<Unknown<'js>>,
  token: Option<&CancelToken>,
) -> napi::Result<Parts<Messages>> {
  (|| {
    let cx = Cx::from(env);
    let [ivs, aad, tag] =
      js::Object::new(env, options.as_ref())?.values([c"ivs", c"aad", c"tagLength"])?;
    let elements = cx.array(Value::from(&messages), MESSAGES)?;
    let iv_elements = match cx.is_nullish(ivs) {
      true => None,
      false => Some(cx.array(ivs, IVS)?),
    };
    let req = request(
      cx,
      op,
      Value::from(&key),
      &elements,
      iv_elements.as_deref(),
      aad,
      tag,
    )?;
    parts(&req.messages, MESSAGES, token, |range| {
      Ok(Box::new(req.part(range)))
    })
  })()
  .or_throw(env)
}
