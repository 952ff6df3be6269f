//! The cipher entry points seen from JavaScript (wrapped by `lib/cipher.js`).
//!
//! - `cipher(op, key, iv, data, aad, out, tagLength)` (raw N-API, the hot synchronous path):
//!   writes into `out`, which JS allocated with the length `cipherModes()` lets it compute, and
//!   returns the number of bytes written. `key` is key bytes or a kept-key handle.
//! - `cipherKey(family, key)` (raw): a kept-key handle, an External tagged as ours, caching one
//!   expanded key per mode.
//! - `cipherAsync(op, key, data, { iv, aad, tagLength }, token?)`: the same work on the libuv
//!   pool (`crate::task`), on copies of the inputs made at call time.
//! - `cipherModes()`: the mode table; `cipherOutputLength(op, n, ivGiven, tagLength)`: the output
//!   length rule JS applies to it (for the contract test, not the hot path).

use std::cell::{Cell, RefCell};

use napi::bindgen_prelude::{AsyncTask, Unknown};
use napi::{Env, Result};
use napi_derive::napi;
use zeroize::Zeroizing;

use super::dispatch::run;
use super::keys::ModeKey;
use super::modes::{KeyFamily, Mode, Op, MODES};
use crate::error::{Code, CryptoError, CryptoResult, OrThrow};
use crate::js::{self, Args, Bytes, Cx, Kept, Tag, Value};
use crate::staging::Staged;
use crate::task::{Cancel, CancelToken, Job, Output, Work};

/// `op` bits besides the mode id (bits 0..7).
pub(crate) const OP_DECRYPT: u32 = 1 << 8;
pub(crate) const OP_NO_PADDING: u32 = 1 << 9;

/// One mode as the JS layer sees it (built from `MODES`).
#[napi(object)]
pub struct CipherModeInfo {
  pub id: u32,
  /// `'aes'`, `'chacha20'` or `'des'`.
  pub family: String,
  /// The `mode` option value, e.g. `'gcm'`.
  pub name: String,
  /// Length in bytes of the IV generated (and prepended) when none is given; 0 = no IV.
  pub iv_length: u32,
  /// PKCS#7 block size in bytes; 0 when the mode has no padding.
  pub block_size: u32,
  /// AEAD tag lengths in bytes; empty when the mode does not authenticate.
  pub tag_lengths: Vec<u32>,
  pub key_lengths: Vec<u32>,
}

/// The mode table, in id order.
#[napi]
pub fn cipher_modes() -> Vec<CipherModeInfo> {
  MODES
    .iter()
    .map(|m| CipherModeInfo {
      id: m.mode as u32,
      family: m.family.name().to_string(),
      name: m.name.to_string(),
      iv_length: m.iv_default as u32,
      block_size: m.pad_block as u32,
      tag_lengths: m.tags.iter().map(|&t| t as u32).collect(),
      key_lengths: m.keys.iter().map(|&t| t as u32).collect(),
    })
    .collect()
}

/// `cipherOutputLength(op, n, ivGiven, tagLength?)`: the length `cipher()` writes for an input of
/// `n` bytes ([`Op::output_len`]: exact when encrypting, an upper bound when decrypting). The
/// sync path does not call it (`lib/cipher.js` applies the same rule to the `cipherModes()` row);
/// `__test__/native-contract.spec.js` compares the two.
#[napi]
pub fn cipher_output_length(
  env: &Env,
  op: u32,
  n: i64,
  iv_given: bool,
  tag_length: Option<u32>,
) -> Result<i64> {
  (|| -> CryptoResult<i64> {
    let (mode, decrypt, padding) = decode_op(op)?;
    let n = usize::try_from(n).map_err(|_| CryptoError::out_of_range("n", ">= 0", n))?;
    let op = Op {
      mode,
      decrypt,
      padding,
      iv: iv_given.then_some(&[][..]),
      aad: &[],
      tag_len: tag_length.unwrap_or(16) as usize,
    };
    Ok(op.output_len(n) as i64)
  })()
  .or_throw(env)
}

pub(super) fn decode_op(bits: u32) -> CryptoResult<(Mode, bool, bool)> {
  let mode = Mode::from_id(bits & 0xff)
    .ok_or_else(|| CryptoError::invalid_value("mode", "a known mode id", bits & 0xff))?;
  Ok((mode, bits & OP_DECRYPT != 0, bits & OP_NO_PADDING == 0))
}

// ------------------------------------------------------------------------------------------------
// Kept keys
// ------------------------------------------------------------------------------------------------

/// Messages one kept key may encrypt under generated random 96-bit nonces: NIST SP 800-38D
/// §8.3 bounds random-IV GCM at 2^32 invocations per key (nonce collision probability about
/// 2^-32 there); the same bound is applied to CCM and ChaCha20-Poly1305 with 96-bit nonces.
const RANDOM_NONCE_LIMIT: u64 = 1 << 32;

/// Modes whose generated nonce is 96 random bits and whose security ends at a nonce collision.
fn counts_random_nonces(mode: Mode) -> bool {
  matches!(mode, Mode::Gcm | Mode::Ccm | Mode::ChaCha20Poly1305)
}

/// A key kept across calls, with the expanded key for each mode used so far.
pub struct KeyHandle {
  family: KeyFamily,
  key: Zeroizing<Vec<u8>>,
  engines: RefCell<Vec<Option<ModeKey>>>,
  /// Encryptions so far under generated random 96-bit nonces (see [`RANDOM_NONCE_LIMIT`]).
  random_nonces: Cell<u64>,
}

impl KeyHandle {
  /// Counts one encryption of `op` if it uses a generated 96-bit random nonce; refuses it once
  /// the key has reached the limit.
  fn count_use(&self, op: &Op) -> CryptoResult<()> {
    if op.decrypt || op.iv.is_some() || !counts_random_nonces(op.mode) {
      return Ok(());
    }
    let used = self.random_nonces.get();
    if used >= RANDOM_NONCE_LIMIT {
      return Err(CryptoError::new(
        Code::KeyExhausted,
        format!(
          "This key has encrypted {used} messages under random 96-bit nonces, the most NIST SP \
           800-38D allows for one key: use a new key (or XChaCha20-Poly1305, whose 192-bit \
           nonces have no such limit)"
        ),
      ));
    }
    self.random_nonces.set(used + 1);
    Ok(())
  }

  fn with_engine<R>(
    &self,
    mode: Mode,
    f: impl FnOnce(&mut ModeKey) -> CryptoResult<R>,
  ) -> CryptoResult<R> {
    if mode.info().family != self.family {
      return Err(CryptoError::invalid_value(
        "key",
        format!("a {} key", mode.info().family.name()),
        format!("a {} key", self.family.name()),
      ));
    }
    let mut engines = self
      .engines
      .try_borrow_mut()
      .map_err(|_| CryptoError::new(Code::Operation, "key object in use"))?;
    let slot = engines
      .get_mut(mode as usize)
      .ok_or_else(|| CryptoError::new(Code::Operation, "internal error: mode id"))?;
    if slot.is_none() {
      *slot = Some(ModeKey::new(mode, &self.key)?);
    }
    match slot.as_mut() {
      Some(e) => f(e),
      None => Err(CryptoError::new(Code::Operation, "internal error: engine")),
    }
  }
}

impl Kept for KeyHandle {
  const TAG: Tag = Tag {
    lower: 0x6372_7970_746f_6b65,
    upper: 0x7931_6369_7068_6572,
  };
  const WHAT: &'static str = "a key made by cipher.key()";
}

fn family_of(id: u32) -> CryptoResult<KeyFamily> {
  KeyFamily::ALL
    .get(id as usize)
    .copied()
    .ok_or_else(|| CryptoError::invalid_value("family", "0, 1 or 2", id))
}

/// `cipherKey(family, key)`: a kept-key handle (family 0 = AES, 1 = ChaCha20, 2 = DES).
pub fn cipher_key<'js>(cx: Cx<'js>, [family, key, ..]: Args<'js>) -> CryptoResult<Value<'js>> {
  let family = family_of(cx.opt_u32(family, "family")?.unwrap_or(u32::MAX))?;
  let key = cx.bytes(key, "key")?;
  let len = key.as_slice().len();
  let mut accepted: Vec<usize> = MODES
    .iter()
    .filter(|m| m.family == family)
    .flat_map(|m| m.keys.iter().copied())
    .collect();
  accepted.sort_unstable();
  accepted.dedup();
  if !accepted.contains(&len) {
    return Err(CryptoError::new(
      Code::OutOfRange,
      format!(
        "Invalid key length for {}: it must be {} bytes. Received {len}",
        family.name(),
        super::modes::list(&accepted)
      ),
    ));
  }
  cx.keep(KeyHandle {
    family,
    key: key.into_owned(),
    engines: RefCell::new((0..MODES.len()).map(|_| None).collect()),
    random_nonces: Cell::new(0),
  })
}

// ------------------------------------------------------------------------------------------------
// Synchronous one-shot
// ------------------------------------------------------------------------------------------------

/// `cipher(op, key, iv, data, aad, out, tagLength, caller?) -> bytes written` (positional: the
/// hot synchronous path). `caller` is true when `out` is the caller's `options.output`: an input
/// overlapping it is then refused rather than copied. A failed call leaves the bytes of `out` it
/// could have written zeroed (no unauthenticated plaintext is released).
pub fn cipher<'js>(
  cx: Cx<'js>,
  [op, key, iv, data, aad, out, tag, caller, ..]: Args<'js>,
) -> CryptoResult<Value<'js>> {
  let (mode, decrypt, padding) = decode_op(cx.opt_u32(op, "op")?.unwrap_or(u32::MAX))?;
  let tag_len = cx.opt_u32(tag, "options.tagLength")?.unwrap_or(16) as usize;
  let mut iv = cx.opt_bytes(iv, "options.iv")?;
  let mut aad = cx.opt_bytes(aad, "options.aad")?;
  let mut data = cx.bytes(data, "data")?;
  let handle = cx.kept::<KeyHandle>(key);
  let mut key = match handle {
    Some(_) => None,
    None => Some(cx.bytes(key, "options.key")?),
  };
  let mut out = cx.out(out)?;
  // `out` comes from Node's Buffer pool (or the caller), so an input given as a pooled Buffer's
  // whole `.buffer` can contain it: such inputs are copied (or refused) before anything is
  // written.
  let target = out.writable_for(
    cx.out_by(caller),
    [
      ("data", Some(&mut data)),
      ("options.iv", iv.as_mut()),
      ("options.aad", aad.as_mut()),
      ("options.key", key.as_mut()),
    ],
  )?;
  let op = Op {
    mode,
    decrypt,
    padding,
    iv: iv.as_ref().map(Bytes::as_slice),
    aad: aad.as_ref().map_or(&[][..], Bytes::as_slice),
    tag_len,
  };
  let input = data.as_slice();
  let result = match (handle, &key) {
    (Some(h), _) => h.with_engine(mode, |e| {
      op.check()?;
      h.count_use(&op)?;
      run(e, &op, input, &mut *target)
    }),
    (None, Some(key)) => {
      ModeKey::new(mode, key.as_slice()).and_then(|mut e| run(&mut e, &op, input, &mut *target))
    }
    (None, None) => Err(CryptoError::internal()),
  };
  match result {
    Ok(n) => cx.number(n as f64),
    // A refused argument wrote nothing, and the caller's buffer is left as it was. A failed
    // tag or padding check has its written plaintext wiped where it happens (`aead::seal_or_open`,
    // `block_modes::open_blocks`); wiped here again, whatever path a future mode takes.
    Err(e) if e.code == Code::DecryptFailed => {
      let n = op.output_len(input.len()).min(target.len());
      target[..n].fill(0);
      Err(e)
    }
    Err(e) => Err(e),
  }
}

// ------------------------------------------------------------------------------------------------
// Asynchronous
// ------------------------------------------------------------------------------------------------

/// Copies of everything a cipher call needs, made at call time, for the libuv pool.
pub struct CipherJob {
  bits: u32,
  key: Zeroizing<Vec<u8>>,
  iv: Option<Vec<u8>>,
  aad: Vec<u8>,
  data: Option<Staged>,
  tag_len: usize,
}

impl Job for CipherJob {
  fn run(&mut self, cancel: &Cancel) -> CryptoResult<Output> {
    cancel.check()?;
    let (mode, decrypt, padding) = decode_op(self.bits)?;
    let data = self.data.take().ok_or_else(CryptoError::internal)?;
    let op = Op {
      mode,
      decrypt,
      padding,
      iv: self.iv.as_deref(),
      aad: &self.aad,
      tag_len: self.tag_len,
    };
    op.check()?;
    let mut engine = ModeKey::new(mode, &self.key)?;
    let mut out = Vec::new();
    let len = op.output_len(data.len());
    out
      .try_reserve_exact(len)
      .map_err(|_| CryptoError::new(Code::Operation, "cannot allocate the output"))?;
    out.resize(len, 0);
    let result = run(&mut engine, &op, data.as_slice(), &mut out);
    data.recycle();
    out.truncate(result?);
    Ok(Output::Buffer(out))
  }
}

/// `cipherAsync(op, key, data, { iv, aad, tagLength }, token?)`: as `cipher`, off the event
/// loop; resolves to a Buffer.
#[napi(ts_return_type = "Promise<Buffer>")]
pub fn cipher_async<'js>(
  env: &'js Env,
  op: u32,
  key: Unknown<'js>,
  data: Unknown<'js>,
  options: Option<Unknown<'js>>,
  token: Option<&CancelToken>,
) -> Result<AsyncTask<Work<CipherJob>>> {
  let job = (|| -> CryptoResult<CipherJob> {
    let cx = Cx::from(env);
    let [iv, aad, tag] =
      js::Object::new(env, options.as_ref())?.values([c"iv", c"aad", c"tagLength"])?;
    let iv = cx
      .opt_bytes(iv, "options.iv")?
      .map(|b| b.as_slice().to_vec());
    let aad = cx
      .opt_bytes(aad, "options.aad")?
      .map_or_else(Vec::new, |b| b.as_slice().to_vec());
    let tag_len = cx.opt_u32(tag, "options.tagLength")?.unwrap_or(16) as usize;
    let (mode, decrypt, padding) = decode_op(op)?;
    let key = match cx.kept::<KeyHandle>(Value::from(&key)) {
      Some(h) => {
        let plan = Op {
          mode,
          decrypt,
          padding,
          iv: iv.as_deref(),
          aad: &aad,
          tag_len,
        };
        h.with_engine(mode, |_| plan.check())?;
        h.count_use(&plan)?;
        Zeroizing::new(h.key.to_vec())
      }
      None => js::read_arg(env, &key, "options.key")?.into_owned(),
    };
    Ok(CipherJob {
      bits: op,
      key,
      iv,
      aad,
      data: Some(js::read_arg(env, &data, "data")?.into_staged()?),
      tag_len,
    })
  })()
  .or_throw(env)?;
  Ok(Work::new(job, token))
}

#[cfg(test)]
mod tests {
  use super::*;

  fn op(mode: Mode, decrypt: bool, iv: Option<&[u8]>) -> Op<'_> {
    Op {
      mode,
      decrypt,
      padding: true,
      iv,
      aad: &[],
      tag_len: 16,
    }
  }

  #[test]
  fn kept_keys_refuse_random_nonce_encryptions_past_the_nist_bound() {
    let handle = KeyHandle {
      family: KeyFamily::Aes,
      key: Zeroizing::new(vec![7u8; 32]),
      engines: RefCell::new((0..MODES.len()).map(|_| None).collect()),
      random_nonces: Cell::new(RANDOM_NONCE_LIMIT - 1),
    };
    // The last allowed one, then refusal.
    handle.count_use(&op(Mode::Gcm, false, None)).unwrap();
    let e = handle.count_use(&op(Mode::Gcm, false, None)).unwrap_err();
    assert_eq!(e.code, Code::KeyExhausted);
    assert_eq!(e.code.as_str(), "ERR_CRYPTO_KEY_EXHAUSTED");
    assert_eq!(
      handle
        .count_use(&op(Mode::Ccm, false, None))
        .unwrap_err()
        .code,
      Code::KeyExhausted
    );
    // Not counted, so still allowed: decryption, caller-chosen IVs, misuse-resistant or
    // 192-bit-nonce modes, non-AEAD modes.
    let iv = [0u8; 12];
    handle.count_use(&op(Mode::Gcm, true, None)).unwrap();
    handle.count_use(&op(Mode::Gcm, false, Some(&iv))).unwrap();
    handle.count_use(&op(Mode::GcmSiv, false, None)).unwrap();
    handle.count_use(&op(Mode::Cbc, false, None)).unwrap();
    let chacha = KeyHandle {
      family: KeyFamily::ChaCha,
      key: Zeroizing::new(vec![7u8; 32]),
      engines: RefCell::new((0..MODES.len()).map(|_| None).collect()),
      random_nonces: Cell::new(RANDOM_NONCE_LIMIT),
    };
    assert_eq!(
      chacha
        .count_use(&op(Mode::ChaCha20Poly1305, false, None))
        .unwrap_err()
        .code,
      Code::KeyExhausted
    );
    chacha
      .count_use(&op(Mode::XChaCha20Poly1305, false, None))
      .unwrap();
  }
}
