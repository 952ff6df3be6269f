//! Batch hash and HMAC calls (`sha.X.batch`, `hmac.X.batch`, their async forms): the hash
//! family's work for the batch loop of `crate::batch` (the cipher ones are in `cipher/batch.rs`).

use napi::bindgen_prelude::Unknown;
use napi::Env;
use napi_derive::napi;
use zeroize::Zeroize;

use super::api::{known_alg, HashOptions};
use super::core::{oneshot, HashCore, Hmac};
use super::list::{Alg, BlockFnVisitor, State};
use super::md::{self, BlockFn, Word};
use crate::batch::{parts, run_values, Group, GroupOut, ItemWork, Parts, INPUTS};
use crate::error::{CryptoError, CryptoResult, OrThrow};
use crate::js::{self, Cx, Value};
use crate::task::CancelToken;

/// Hashing each item with a copy of one prepared state (options, or an HMAC key, applied once).
///
/// The digest length is read once, here, not from the state inside the loop over the items: in
/// the release build (fat LTO, rustc 1.95 / LLVM), a loop calling `State::output_len` per item
/// had the BLAKE2 arm's field load hoisted out of the loop and executed for every algorithm,
/// indexed by bytes of another algorithm's state (SIGSEGV/SIGBUS for MD5, SHA-1, SHA-2 and
/// Whirlpool; the debug build and a non-LTO release build were fine).
pub struct Digests<H> {
  proto: H,
  len: usize,
}

impl<H: HashCore> Digests<H> {
  fn new(proto: H) -> Self {
    let len = proto.output_len();
    Digests { proto, len }
  }
}

impl<H: HashCore> ItemWork for Digests<H> {
  fn fixed_len(&self) -> Option<usize> {
    Some(self.len)
  }
  #[inline]
  fn out_len(&self, _n: usize) -> usize {
    self.len
  }
  #[inline]
  fn item(&mut self, _i: usize, input: &[u8], out: &mut [u8]) -> CryptoResult<usize> {
    oneshot(self.proto.clone(), input, out);
    Ok(out.len())
  }
}

/// Hashing (or HMAC) on a block function whose multi-lane kernel this CPU runs (SHA-224/256
/// with SHA-NI): [`LANES`] messages at once, each from the prepared chaining value.
pub struct Lanes<F: BlockFn> {
  inner: F::State,
  /// HMAC's outer chaining value.
  outer: Option<F::State>,
}

impl<F: BlockFn> Lanes<F> {
  /// A plain hash, or an HMAC with `key`.
  fn new(key: Option<&[u8]>) -> Self {
    match key {
      None => Lanes {
        inner: F::IV,
        outer: None,
      },
      Some(key) => {
        let (inner, outer) = md::hmac_states::<F>(key);
        Lanes {
          inner,
          outer: Some(outer),
        }
      }
    }
  }

  fn digest<const L: usize>(&self, msgs: [&[u8]; L], outs: [&mut [u8]; L]) {
    let Some(outer) = &self.outer else {
      return md::hash_lanes::<F, L>(&self.inner, 0, msgs, outs);
    };
    // HMAC: the inner digests (one block already absorbed: the keyed pad), then the outer hash of
    // each.
    let block = F::Word::BLOCK as u64;
    let mut inner = [[0u8; 64]; L];
    let digests = inner.each_mut().map(|d| &mut d[..F::OUTPUT_LEN]);
    md::hash_lanes::<F, L>(&self.inner, block, msgs, digests);
    let digests = inner.each_ref().map(|d| &d[..F::OUTPUT_LEN]);
    md::hash_lanes::<F, L>(outer, block, digests, outs);
    inner.iter_mut().for_each(|d| crate::staging::wipe(d));
  }
}

impl<F: BlockFn> Drop for Lanes<F> {
  fn drop(&mut self) {
    self.inner.zeroize();
    self.outer.zeroize();
  }
}

impl<F: BlockFn> ItemWork for Lanes<F> {
  fn fixed_len(&self) -> Option<usize> {
    Some(F::OUTPUT_LEN)
  }
  fn out_len(&self, _n: usize) -> usize {
    F::OUTPUT_LEN
  }
  fn item(&mut self, _i: usize, input: &[u8], out: &mut [u8]) -> CryptoResult<usize> {
    self.digest::<1>([input], [out]);
    Ok(F::OUTPUT_LEN)
  }
  fn has_lanes(&self) -> bool {
    true
  }
  fn item4(&mut self, _i: usize, inputs: Group<'_>, outs: GroupOut<'_>) -> CryptoResult<()> {
    self.digest(inputs, outs);
    Ok(())
  }
}

/// The batch work of a hash (`key` None) or an HMAC: [`Lanes`] where the hash's block function
/// has a multi-lane kernel on this CPU, else [`Digests`] over `engine` (the prepared state).
fn digest_work<H: HashCore + Send + 'static>(
  alg: Alg,
  key: Option<&[u8]>,
  engine: H,
) -> Box<dyn ItemWork + Send> {
  struct Pick<'k>(Option<&'k [u8]>);
  impl BlockFnVisitor for Pick<'_> {
    type Output = Option<Box<dyn ItemWork + Send>>;
    fn block_fn<F: BlockFn>(self) -> Self::Output {
      F::has_lanes().then(|| Box::new(Lanes::<F>::new(self.0)) as Box<dyn ItemWork + Send>)
    }
    fn no_block_fn(self) -> Self::Output {
      None
    }
  }
  alg
    .with_block_fn(Pick(key))
    .unwrap_or_else(|| Box::new(Digests::new(engine)))
}

/// The prepared state of a hash with options (`hmac` false) or of an HMAC keyed with
/// `opts.key`, and its batch work.
fn prepare(alg: Alg, opts: &HashOptions<'_>, hmac: bool) -> CryptoResult<Box<dyn ItemWork + Send>> {
  let params = opts.params();
  if !hmac {
    return Ok(digest_work(alg, None, State::with_params(alg, &params)?));
  }
  let key = params
    .key
    .ok_or_else(|| CryptoError::arg_type("options.key", js::EXPECTED, "undefined"))?;
  let mac = Hmac::new(State::new(alg), key)?;
  Ok(digest_work(alg, Some(key), mac))
}

/// `hashBatch(alg, first, hex, hmac, key?, salt?, personalization?, context?, outputLength?,
/// ...inputs)`: the digests (or with `hmac`, the MACs under `key`) of the inputs, back to back
/// in one Buffer, or with `hex` that buffer's hex (`first`: see [`run_values`]).
pub fn hash_batch<'js>(cx: Cx<'js>, args: &[Value<'js>]) -> CryptoResult<Value<'js>> {
  let [alg_id, first, hex, hmac, key, salt, pers, ctx, len, items @ ..] = args else {
    return Err(CryptoError::internal());
  };
  let alg = known_alg(cx.id(*alg_id))?;
  let opts = HashOptions::positional(cx, [*key, *salt, *pers, *ctx, *len])?;
  let mut work = prepare(alg, &opts, cx.truthy(*hmac))?;
  check_total(work.out_len(0), items.len())?;
  run_values(
    cx,
    &mut *work,
    items,
    cx.id(*first) as usize,
    cx.truthy(*hex),
  )
}

/// Largest batch output: what one Buffer holds (2^32 - 1 bytes would do on 64-bit Node; this
/// bound also keeps a typo from asking for terabytes of XOF output). A `u64`: on wasm32 it does not
/// fit in a `usize`.
const MAX_OUTPUT: u64 = 1 << 32;

/// Refuses, before any work, a batch whose digests would not fit in one Buffer.
fn check_total(digest_len: usize, n: usize) -> CryptoResult<()> {
  match digest_len.checked_mul(n) {
    Some(total) if (total as u64) < MAX_OUTPUT => Ok(()),
    _ => Err(CryptoError::out_of_range(
      "inputs.length * outputLength",
      format!("< {MAX_OUTPUT} bytes"),
      format!("{n} * {digest_len}"),
    )),
  }
}

/// `hashBatchAsync(alg, inputs, options?, hmac, token?)`: as `hashBatch` on the libuv pool;
/// one promise per part, resolving to that part's digests (`options`: `{ key, salt,
/// personalization, context, outputLength }`; an HMAC takes `key` only).
#[napi(ts_return_type = "Promise<Buffer>[]")]
pub fn hash_batch_async<'js>(
  env: &'js Env,
  alg: u32,
  inputs: Unknown<'js>,
  options: Option<Unknown<'js>>,
  hmac: bool,
  token: Option<&CancelToken>,
) -> napi::Result<Parts<dyn ItemWork + Send>> {
  (|| {
    let cx = Cx::from(env);
    let alg = known_alg(alg)?;
    // Every read that may run JavaScript (option fields, elements) before any byte view.
    let fields = js::Object::new(env, options.as_ref())?.values(HashOptions::FIELDS)?;
    let elements = cx.array(Value::from(&inputs), INPUTS)?;
    let opts = HashOptions::positional(cx, fields)?;
    check_total(prepare(alg, &opts, hmac)?.out_len(0), elements.len())?;
    let items = cx.bytes_each(&elements, INPUTS)?;
    parts(&items, INPUTS, token, |_| prepare(alg, &opts, hmac))
  })()
  .or_throw(env)
}

#[cfg(test)]
mod tests {
  use super::*;
  use crate::batch::run_items;
  use crate::hash::api::Engine;
  use crate::task::Output;

  #[test]
  fn digests_of_every_algorithm_chosen_at_run_time() {
    // The algorithm comes through `black_box`, as it comes from JS, so that the loop is compiled
    // for every arm (see `Digests`). 9 items: two groups of lanes and one alone; lengths around
    // a block, and HMAC keys of several lengths.
    let data: Vec<u8> = (0..300u32).map(|i| (i * 31 + 7) as u8).collect();
    let items: Vec<&[u8]> = [0, 3, 55, 56, 64, 119, 128, 129, 300]
      .map(|n| &data[..n])
      .to_vec();
    for &alg in std::hint::black_box(Alg::ALL) {
      let hmac = State::new(alg).block_len() > 0;
      let keys: &[Option<&[u8]>] = if hmac {
        &[None, Some(b"k"), Some(&data[..200])]
      } else {
        &[None]
      };
      for &key in keys {
        // As `prepare` makes them.
        let (engine, mut work) = match key {
          None => (
            Engine::Hash(State::new(alg)),
            digest_work(alg, None, State::new(alg)),
          ),
          Some(k) => {
            let mac = Hmac::new(State::new(alg), k).unwrap();
            (Engine::Hmac(mac.clone()), digest_work(alg, key, mac))
          }
        };
        let n = engine.output_len();
        let Output::Buffer(out) = run_items(&mut *work, &items, "inputs", 0, || false).unwrap()
        else {
          panic!("a fixed-length output expected")
        };
        assert_eq!(out.len(), items.len() * n, "{}", alg.name());
        for (item, digest) in items.iter().zip(out.chunks(n)) {
          let mut one = vec![0u8; n];
          oneshot(engine.clone(), item, &mut one);
          assert_eq!(digest, one, "{} key {key:?} len {}", alg.name(), item.len());
        }
      }
    }
  }
}
