//! ML-DSA (FIPS 204): ML-DSA-44, ML-DSA-65 and ML-DSA-87, pure mode (HashML-DSA is left out).
//!
//! Backend: AWS-LC's mldsa-native (formally verified C, constant-time, AVX2 / AArch64 code chosen
//! at run time) through the entry points `awslc/mldsa.rs` declares (key generation from ξ, signing with
//! an explicit rnd, the public key of an expanded key), chosen by measurement over libcrux-ml-dsa
//! and RustCrypto `ml-dsa`: docs/backends.md, "ML-DSA".
//!
//! [`MlDsa`] is the generic API (key generation from the seed ξ, signing with a context and an
//! explicit `rnd`, verification), implemented for the three parameter sets by one macro row
//! each; the list of sets is [`SETS`], the one table the entry points and `lib/mldsa.js` read.
//!
//! Private keys reach native code as the 32-byte seed ξ or the FIPS 204 expanded key, told apart
//! by their length, or as a handle `mldsaPrepare` made from one of them (the key layer keeps one
//! per KeyObject or byte key passed again, so the expanded key stays native and is wiped on drop).
//! An expanded key is checked whole before it signs (s1 and s2 coefficients in [−η, η], t0 and tr
//! consistent with ρ, s1, s2): once when prepared, else by each call.

use std::sync::Arc;

use napi::bindgen_prelude::{AsyncTask, Buffer, Unknown};
use napi::{Env, Result};
use napi_derive::napi;
use zeroize::{Zeroize, Zeroizing};

use crate::awslc;
use crate::error::{Code, CryptoError, CryptoResult, OrThrow};
use crate::js::{self, Cx, Kept, Tag, Value};
use crate::task::{Cancel, CancelToken, Job, Output, Work};

/// Bytes in the seed ξ, in `rnd` and the most bytes in a context string.
pub const SEED_LEN: usize = 32;
const RND_LEN: usize = 32;
const MAX_CONTEXT: usize = 255;

/// One ML-DSA parameter set: the generic API (also for hybrid signatures built on it).
pub trait MlDsa {
  /// `"ml-dsa-65"`, as node:crypto names the key type.
  const NAME: &'static str;
  /// The algorithm's OID (FIPS 204's `id-ml-dsa-*`, under 2.16.840.1.101.3.4.3), as the hex of its
  /// DER content.
  const OID: &'static str;
  /// AWS-LC's functions and sizes for the set.
  const AWS: &'static awslc::MlDsaFns;
  /// η (2 or 4): the range of s1 and s2; ℓ and k: the polynomials in s1 and s2.
  const ETA: u32;
  const L: usize;
  const K: usize;
  const PUBLIC_LEN: usize = Self::AWS.public_len;
  /// Bytes in the FIPS 204 (skEncode) private key.
  const EXPANDED_LEN: usize = Self::AWS.private_len;
  const SIGNATURE_LEN: usize = Self::AWS.signature_len;

  /// ML-DSA.KeyGen_internal(ξ): the public key and the expanded private key.
  fn keygen(seed: &[u8; SEED_LEN]) -> (Vec<u8>, Zeroizing<Vec<u8>>) {
    Self::AWS.keypair(seed)
  }

  /// ML-DSA.Sign (pure) with `rnd` (all zero: the deterministic variant) under an expanded key
  /// of [`Self::EXPANDED_LEN`] bytes whose s1/s2 are in range ([`check_expanded`]); a context
  /// of at most 255 bytes ([`sign`] checks both).
  fn sign_expanded(
    expanded: &[u8],
    msg: &[u8],
    ctx: &[u8],
    rnd: [u8; RND_LEN],
  ) -> CryptoResult<Vec<u8>> {
    check_context(ctx)?;
    // M′ = 0 ‖ |ctx| ‖ ctx ‖ M (FIPS 204 Algorithm 2), the prefix given apart.
    let pre = [&[0, ctx.len() as u8], ctx].concat();
    Self::AWS
      .sign(expanded, msg, &pre, &rnd)
      .ok_or_else(|| CryptoError::new(Code::Operation, "ML-DSA signing failed"))
  }

  /// ML-DSA.Verify (pure): false for any invalid signature, wrong length or context over 255
  /// bytes.
  fn verify(public: &[u8], msg: &[u8], ctx: &[u8], sig: &[u8]) -> bool {
    public.len() == Self::PUBLIC_LEN
      && sig.len() == Self::SIGNATURE_LEN
      && ctx.len() <= MAX_CONTEXT
      && Self::AWS.verify(public, msg, ctx, sig)
  }
}

/// The three parameter sets: type, name, OID, AWS-LC set, η, ℓ, k.
macro_rules! ml_dsa_sets {
  ($($set:ident $name:literal oid $oid:literal $aws:ident eta $eta:literal l $l:literal k $k:literal;)*) => {
    $(
      #[doc = concat!("ML-DSA parameter set `", $name, "`.")]
      pub struct $set;

      impl MlDsa for $set {
        const NAME: &'static str = $name;
        const OID: &'static str = $oid;
        const AWS: &'static awslc::MlDsaFns = &awslc::$aws;
        const ETA: u32 = $eta;
        const L: usize = $l;
        const K: usize = $k;
      }
    )*

    /// The parameter sets as the entry points see them, by id (`mldsaSets()` gives them to
    /// JavaScript).
    static SETS: &[Set] = &[$(Set::of::<$set>()),*];
  };
}

ml_dsa_sets! {
  MlDsa44 "ml-dsa-44" oid "608648016503040311" ML_DSA_44 eta 2 l 4 k 4;
  MlDsa65 "ml-dsa-65" oid "608648016503040312" ML_DSA_65 eta 4 l 5 k 6;
  MlDsa87 "ml-dsa-87" oid "608648016503040313" ML_DSA_87 eta 2 l 7 k 8;
}

/// A private key as native code takes it: the seed or the expanded key.
pub enum PrivateKey<'a> {
  Seed(&'a [u8; SEED_LEN]),
  Expanded(&'a [u8]),
}

/// Refuses expanded keys whose s1/s2 coefficients (bitpacked as η − c) are out of [−η, η].
pub fn check_expanded<P: MlDsa>(expanded: &[u8]) -> CryptoResult<()> {
  let bits: u32 = if P::ETA == 2 { 3 } else { 4 };
  // skEncode: ρ (32) ‖ K (32) ‖ tr (64) ‖ s1 ‖ s2 ‖ t0.
  let packed = &expanded[128..128 + (P::L + P::K) * 32 * bits as usize];
  // Constant-time over the (secret) coefficients: every one is read, the result is one mask.
  let (mut bad, mut acc, mut n) = (0u32, 0u64, 0u32);
  for &b in packed {
    acc |= (b as u64) << n;
    n += 8;
    while n >= bits {
      let c = (acc & ((1 << bits) - 1)) as u32;
      bad |= (2 * P::ETA).wrapping_sub(c) >> 31;
      acc >>= bits;
      n -= bits;
    }
  }
  if bad != 0 {
    return Err(bad_expanded::<P>("s1 or s2 has coefficients out of range"));
  }
  Ok(())
}

fn bad_expanded<P: MlDsa>(why: &str) -> CryptoError {
  CryptoError::invalid_value(
    "privateKey",
    format!(
      "an {} expanded private key (FIPS 204)",
      P::NAME.to_uppercase()
    ),
    why,
  )
}

/// A private key of `P` by its length: the seed or the expanded key (s1/s2 checked).
fn private_key<'a, P: MlDsa>(key: &'a [u8], name: &str) -> CryptoResult<PrivateKey<'a>> {
  if let Ok(seed) = <&[u8; SEED_LEN]>::try_from(key) {
    return Ok(PrivateKey::Seed(seed));
  }
  if key.len() == P::EXPANDED_LEN {
    check_expanded::<P>(key)?;
    return Ok(PrivateKey::Expanded(key));
  }
  Err(CryptoError::invalid_value(
    name,
    format!(
      "an {} private key: the {SEED_LEN}-byte seed or the {}-byte expanded key",
      P::NAME.to_uppercase(),
      P::EXPANDED_LEN
    ),
    format!("{} bytes", key.len()),
  ))
}

/// Signs with either form of the private key (a seed is expanded first): the tests' entry; the
/// entry points sign with an expanded key from [`Set::keys`], checked whole.
#[cfg(test)]
pub fn sign<P: MlDsa>(
  key: &PrivateKey,
  msg: &[u8],
  ctx: &[u8],
  rnd: [u8; RND_LEN],
) -> CryptoResult<Vec<u8>> {
  check_context(ctx)?;
  match key {
    PrivateKey::Seed(seed) => P::sign_expanded(&P::keygen(seed).1, msg, ctx, rnd),
    PrivateKey::Expanded(e) => P::sign_expanded(e, msg, ctx, rnd),
  }
}

/// The public key of `P` from either form; an expanded key is checked whole (t0 and tr those
/// of its ρ, s1, s2).
pub fn public_key<P: MlDsa>(key: &PrivateKey) -> CryptoResult<Vec<u8>> {
  match key {
    PrivateKey::Seed(seed) => Ok(P::keygen(seed).0),
    PrivateKey::Expanded(e) => P::AWS.public_of(e).ok_or_else(|| {
      bad_expanded::<P>("its t0 or tr is not that of its s1 and s2 (inconsistent key)")
    }),
  }
}

fn check_context(ctx: &[u8]) -> CryptoResult<()> {
  if ctx.len() > MAX_CONTEXT {
    return Err(CryptoError::out_of_range(
      "options.context",
      format!("at most {MAX_CONTEXT} bytes"),
      format!("{} bytes", ctx.len()),
    ));
  }
  Ok(())
}

/// `(expanded key, message, context, rnd)`: a signature; `(public key, message, context,
/// signature)`: valid?
type SignFn = fn(&[u8], &[u8], &[u8], [u8; RND_LEN]) -> CryptoResult<Vec<u8>>;
type VerifyFn = fn(&[u8], &[u8], &[u8], &[u8]) -> bool;

/// One parameter set, its functions monomorphised: what the entry points dispatch on.
pub struct Set {
  pub name: &'static str,
  pub oid: &'static str,
  pub public_len: usize,
  pub expanded_len: usize,
  pub signature_len: usize,
  /// Signs with an expanded key that [`Set::keys`] produced (checked whole).
  sign_expanded: SignFn,
  verify: VerifyFn,
  keys: fn(&[u8]) -> CryptoResult<Keys>,
  check_private: fn(&[u8]) -> CryptoResult<()>,
}

/// The forms of one private key: the seed (when known), the expanded key, the public key.
pub struct Keys {
  pub seed: Option<Zeroizing<Vec<u8>>>,
  pub expanded: Zeroizing<Vec<u8>>,
  pub public: Vec<u8>,
}

impl Set {
  const fn of<P: MlDsa>() -> Set {
    Set {
      name: P::NAME,
      oid: P::OID,
      public_len: P::PUBLIC_LEN,
      expanded_len: P::EXPANDED_LEN,
      signature_len: P::SIGNATURE_LEN,
      sign_expanded: |expanded, msg, ctx, rnd| {
        check_context(ctx)?;
        P::sign_expanded(expanded, msg, ctx, rnd)
      },
      verify: P::verify,
      keys: |key| {
        let k = private_key::<P>(key, "privateKey")?;
        Ok(match k {
          PrivateKey::Seed(seed) => {
            let (public, expanded) = P::keygen(seed);
            Keys {
              seed: Some(Zeroizing::new(seed.to_vec())),
              expanded,
              public,
            }
          }
          PrivateKey::Expanded(e) => Keys {
            seed: None,
            public: public_key::<P>(&k)?,
            expanded: Zeroizing::new(e.to_vec()),
          },
        })
      },
      check_private: |key| private_key::<P>(key, "privateKey").map(|_| ()),
    }
  }

  fn by_id(id: u32) -> CryptoResult<&'static Set> {
    SETS
      .get(id as usize)
      .ok_or_else(|| CryptoError::invalid_value("algorithm", "a known ML-DSA parameter set", id))
  }

  fn check_public(&self, key: &[u8]) -> CryptoResult<()> {
    if key.len() == self.public_len {
      return Ok(());
    }
    Err(CryptoError::invalid_value(
      "publicKey",
      format!(
        "an {} public key ({} bytes)",
        self.name.to_uppercase(),
        self.public_len
      ),
      format!("{} bytes", key.len()),
    ))
  }
}

// ---- entry points -------------------------------------------------------------------------

/// One parameter set as the JS layer sees it.
#[napi(object)]
pub struct MlDsaSet {
  pub id: u32,
  /// `'ml-dsa-44'`, `'ml-dsa-65'`, `'ml-dsa-87'`.
  pub name: String,
  /// The OID (`id-ml-dsa-*`) as the hex of its DER content: `'608648016503040311'` is
  /// 2.16.840.1.101.3.4.3.17.
  pub oid: String,
  pub seed_length: u32,
  pub public_length: u32,
  pub expanded_length: u32,
  pub signature_length: u32,
}

#[napi]
pub fn mldsa_sets() -> Vec<MlDsaSet> {
  SETS
    .iter()
    .enumerate()
    .map(|(id, s)| MlDsaSet {
      id: id as u32,
      name: s.name.into(),
      oid: s.oid.into(),
      seed_length: SEED_LEN as u32,
      public_length: s.public_len as u32,
      expanded_length: s.expanded_len as u32,
      signature_length: s.signature_len as u32,
    })
    .collect()
}

/// The forms of a private key, for the key layer.
#[napi(object)]
pub struct MlDsaKeys {
  /// Absent for a key given in its expanded form only.
  pub seed: Option<Buffer>,
  pub expanded: Buffer,
  pub public_key: Buffer,
}

/// `mldsaKeys(set, privateKey?)`: the seed (a new random one when `privateKey` is undefined),
/// expanded key and public key of a private key given as its seed or expanded key (checked:
/// s1/s2 in range and tr = H(pk)).
#[napi]
pub fn mldsa_keys(env: &Env, set: u32, key: Option<Unknown>) -> Result<MlDsaKeys> {
  let set = Set::by_id(set).or_throw(env)?;
  let keys = match key {
    Some(k) => {
      let k = js::read_arg(env, &k, "privateKey").or_throw(env)?;
      (set.keys)(k.as_slice())
    }
    None => {
      let mut seed = Zeroizing::new([0u8; SEED_LEN]);
      crate::random::fill(&mut *seed).and_then(|()| (set.keys)(&*seed))
    }
  }
  .or_throw(env)?;
  Ok(MlDsaKeys {
    seed: keys.seed.map(|s| Buffer::from(s.as_slice())),
    expanded: Buffer::from(keys.expanded.as_slice()),
    public_key: Buffer::from(keys.public),
  })
}

/// Key generation (or the forms of a given private key) over inputs copied at call time.
pub struct MlDsaKeysJob {
  set: &'static Set,
  key: Option<Zeroizing<Vec<u8>>>,
}

impl Job for MlDsaKeysJob {
  fn run(&mut self, _cancel: &Cancel) -> CryptoResult<Output> {
    let keys = match &self.key {
      Some(k) => (self.set.keys)(k)?,
      None => {
        let mut seed = Zeroizing::new([0u8; SEED_LEN]);
        crate::random::fill(&mut *seed)?;
        (self.set.keys)(&*seed)?
      }
    };
    let seed = keys.seed.as_ref().map_or(&[][..], |s| s.as_slice());
    let parts = [seed, keys.expanded.as_slice(), keys.public.as_slice()];
    Ok(Output::Items(
      parts.concat(),
      parts.iter().map(|p| p.len() as u32).collect(),
    ))
  }
}

/// `mldsaKeysAsync(set, privateKey?, token?)`: `mldsaKeys` on the libuv pool, as
/// `[seed ‖ expanded ‖ publicKey, lengths]` (a seed of length 0: none).
#[napi]
pub fn mldsa_keys_async(
  env: &Env,
  set: u32,
  key: Option<Unknown>,
  token: Option<&CancelToken>,
) -> Result<AsyncTask<Work<MlDsaKeysJob>>> {
  let set = Set::by_id(set).or_throw(env)?;
  let key = match key {
    Some(k) => Some(
      js::read_arg(env, &k, "privateKey")
        .or_throw(env)?
        .into_owned(),
    ),
    None => None,
  };
  Ok(Work::new(MlDsaKeysJob { set, key }, token))
}

/// A private key expanded and checked once (`mldsaPrepare`): `lib/keys/` keeps one per
/// KeyObject or byte key passed again, so signing with a seed does not repeat key generation and
/// an expanded key is checked whole once. The expanded key stays native (wiped when the last
/// user drops it: the handle's finalizer or a queued async sign).
pub struct MlDsaPrepared {
  set: &'static Set,
  expanded: Arc<Zeroizing<Vec<u8>>>,
}

impl Kept for MlDsaPrepared {
  const TAG: Tag = Tag {
    lower: 0x6372_7970_746f_6473,
    upper: 0x6170_7265_7061_7265,
  };
  const WHAT: &'static str = "a prepared ML-DSA private key";
}

/// `mldsaPrepare(set, privateKey)` (raw seed or expanded key): the key expanded and checked.
pub fn mldsa_prepare<'js>(cx: Cx<'js>, args: js::Args<'js>) -> CryptoResult<Value<'js>> {
  let set = Set::by_id(cx.id(args[0]))?;
  let key = cx.bytes(args[1], "privateKey")?;
  let expanded = Arc::new((set.keys)(key.as_slice())?.expanded);
  cx.keep(MlDsaPrepared { set, expanded })
}

/// The key of a call: a prepared private key, or the bytes given (a public key; a private key
/// as its seed or expanded key, expanded and checked whole by the call).
enum Key<B> {
  Prepared(Arc<Zeroizing<Vec<u8>>>),
  Given(B),
}

impl<B: AsRef<[u8]>> Key<B> {
  fn parts(&self) -> (&[u8], bool) {
    match self {
      Key::Prepared(e) => (e.as_slice(), true),
      Key::Given(b) => (b.as_ref(), false),
    }
  }
}

/// A sign or verify call over owned inputs (the async forms copy them before queueing).
pub struct MlDsaJob {
  set: &'static Set,
  key: Key<Zeroizing<Vec<u8>>>,
  msg: Zeroizing<Vec<u8>>,
  ctx: Zeroizing<Vec<u8>>,
  op: MlDsaOp<Vec<u8>>,
}

/// Sign, or verify the signature `S` (borrowed by a synchronous call, owned by a queued one).
enum MlDsaOp<S> {
  Sign { deterministic: bool },
  Verify { sig: S },
}

impl MlDsaJob {
  /// `key` is prepared (an expanded key from [`Set::keys`]) or as given.
  fn run_on(
    set: &Set,
    (key, prepared): (&[u8], bool),
    msg: &[u8],
    ctx: &[u8],
    op: &MlDsaOp<impl AsRef<[u8]>>,
  ) -> CryptoResult<Output> {
    match op {
      MlDsaOp::Sign { deterministic } => {
        let keys;
        let expanded = if prepared {
          key
        } else {
          keys = (set.keys)(key)?;
          keys.expanded.as_slice()
        };
        let mut rnd = [0u8; RND_LEN];
        if !deterministic {
          crate::random::fill(&mut rnd)?;
        }
        let sig = (set.sign_expanded)(expanded, msg, ctx, rnd);
        rnd.zeroize();
        sig.map(Output::Buffer)
      }
      MlDsaOp::Verify { sig } => Ok(Output::Bool((set.verify)(key, msg, ctx, sig.as_ref()))),
    }
  }
}

impl Job for MlDsaJob {
  fn run(&mut self, _cancel: &Cancel) -> CryptoResult<Output> {
    Self::run_on(self.set, self.key.parts(), &self.msg, &self.ctx, &self.op)
  }
}

/// What an `mldsa` / `mldsaAsync` call does: sign (`verify` false; `deterministic`: rnd = 0) or
/// verify, with the parameter set of id `set`.
#[napi(object)]
pub struct MlDsaParams {
  pub set: u32,
  pub verify: bool,
  pub deterministic: bool,
}

/// The arguments of one call, read and checked (public key length; context length when signing:
/// a private key is checked by `run_on`, and at call time by `mldsa_async`).
struct Call<'e> {
  set: &'static Set,
  key: Key<js::Bytes<'e>>,
  msg: js::Bytes<'e>,
  ctx: js::Bytes<'e>,
  op: MlDsaOp<js::Bytes<'e>>,
}

impl<'e> Call<'e> {
  fn read(
    env: &'e Env,
    p: &MlDsaParams,
    [key, msg, sig, ctx]: [&Unknown<'e>; 4],
  ) -> CryptoResult<Self> {
    let set = Set::by_id(p.set)?;
    let ctx_bytes = js::read_arg(env, ctx, "options.context")?;
    let (key, op) = if p.verify {
      let key = js::read_arg(env, key, "publicKey")?;
      set.check_public(key.as_slice())?;
      let sig = js::read_arg(env, sig, "signature")?;
      (Key::Given(key), MlDsaOp::Verify { sig })
    } else {
      let key = match Cx::from(env).kept::<MlDsaPrepared>(Value::from(key)) {
        Some(k) if std::ptr::eq(k.set, set) => Key::Prepared(Arc::clone(&k.expanded)),
        Some(_) => {
          return Err(CryptoError::new(
            Code::InvalidKeyType,
            "The prepared key is for another ML-DSA parameter set",
          ))
        }
        // Checked whole on the way to signing (`run_on`); the async form checks its length
        // and s1/s2 ranges at call time too (`mldsa_async`).
        None => Key::Given(js::read_arg(env, key, "privateKey")?),
      };
      check_context(ctx_bytes.as_slice())?;
      let deterministic = p.deterministic;
      (key, MlDsaOp::Sign { deterministic })
    };
    let msg = js::read_arg(env, msg, "message")?;
    Ok(Call {
      set,
      key,
      msg,
      ctx: ctx_bytes,
      op,
    })
  }
}

/// The four inputs of a call, by position: key, message, signature (verify), context.
fn inputs<'e>(v: &'e [Unknown<'e>]) -> CryptoResult<[&'e Unknown<'e>; 4]> {
  match v {
    [key, msg, sig, ctx] => Ok([key, msg, sig, ctx]),
    _ => Err(CryptoError::internal()),
  }
}

/// `mldsa(params, [key, message, signature, context])`: the signature (sign; `signature` is not
/// read), or whether it is valid (verify: false for any invalid signature, and for a context over
/// 255 bytes).
#[napi]
pub fn mldsa<'e>(env: &'e Env, params: MlDsaParams, args: Vec<Unknown<'e>>) -> Result<Unknown<'e>> {
  let call = inputs(&args)
    .and_then(|a| Call::read(env, &params, a))
    .and_then(|c| {
      let (m, x) = (c.msg.as_slice(), c.ctx.as_slice());
      MlDsaJob::run_on(c.set, c.key.parts(), m, x, &c.op)
    });
  match call {
    Ok(out) => out.into_js(env),
    Err(e) => Err(e.into_napi(env)),
  }
}

/// `mldsaAsync(params, [key, message, signature, context], token?)`: the same on the libuv pool,
/// inputs copied first.
#[napi]
pub fn mldsa_async<'e>(
  env: &'e Env,
  params: MlDsaParams,
  args: Vec<Unknown<'e>>,
  token: Option<&CancelToken>,
) -> Result<AsyncTask<Work<MlDsaJob>>> {
  let c = inputs(&args)
    .and_then(|a| Call::read(env, &params, a))
    .and_then(|c| {
      // A private key's length and s1/s2 ranges, so a bad key is refused at call time, not
      // when the promise settles (its whole check runs on the pool).
      match (&c.key, &c.op) {
        (Key::Given(k), MlDsaOp::Sign { .. }) => (c.set.check_private)(k.as_slice()).map(|()| c),
        _ => Ok(c),
      }
    })
    .or_throw(env)?;
  let key = match c.key {
    Key::Prepared(e) => Key::Prepared(e),
    Key::Given(b) => Key::Given(b.into_owned()),
  };
  let op = match c.op {
    MlDsaOp::Sign { deterministic } => MlDsaOp::Sign { deterministic },
    MlDsaOp::Verify { sig } => MlDsaOp::Verify {
      sig: sig.as_slice().to_vec(),
    },
  };
  let job = MlDsaJob {
    set: c.set,
    key,
    msg: c.msg.into_owned(),
    ctx: c.ctx.into_owned(),
    op,
  };
  Ok(Work::new(job, token))
}

#[cfg(test)]
mod tests {
  use super::*;
  use digest::{ExtendableOutput, Update, XofReader};
  use ml_dsa::Keypair;

  fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
      .step_by(2)
      .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
      .collect()
  }

  fn vectors(file: &str) -> String {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("__test__/vectors/pq/mldsa");
    std::fs::read_to_string(dir.join(file)).unwrap()
  }

  /// The deterministic pure KATs (`kat_MLDSA_*_det_pure.rsp`): keygen from ξ, the signature of
  /// `msg` with `ctx` (sm minus msg), and its verification.
  fn kat<P: MlDsa>(file: &str) -> usize {
    let text = vectors(file);
    let mut n = 0;
    for block in text.split("count = ").skip(1) {
      let field = |name: &str| {
        let line = block
          .lines()
          .find(|l| l.starts_with(&format!("{name} = ")))
          .unwrap();
        unhex(&line[name.len() + 3..])
      };
      let xi: [u8; 32] = field("xi").try_into().unwrap();
      let (pk, sk) = P::keygen(&xi);
      assert_eq!(pk, field("pk"));
      assert_eq!(*sk, field("sk"));
      let (msg, ctx, sm) = (field("msg"), field("ctx"), field("sm"));
      let sig = &sm[..sm.len() - msg.len()];
      assert_eq!(&sm[sig.len()..], &msg[..]);
      let ours = sign::<P>(&PrivateKey::Seed(&xi), &msg, &ctx, [0; 32]).unwrap();
      assert_eq!(ours, sig);
      assert_eq!(
        sign::<P>(&PrivateKey::Expanded(&sk), &msg, &ctx, [0; 32]).unwrap(),
        sig
      );
      assert!(P::verify(&pk, &msg, &ctx, sig));
      assert!(!P::verify(&pk, &msg, &[], sig) || ctx.is_empty());
      // The public key of the expanded key (AWS-LC) and its tr check.
      assert_eq!(public_key::<P>(&PrivateKey::Expanded(&sk)).unwrap(), pk);
      n += 1;
    }
    n
  }

  #[test]
  fn known_answers_65_87() {
    assert_eq!(kat::<MlDsa65>("kat_MLDSA_65_det_pure.rsp"), 20);
    assert_eq!(kat::<MlDsa87>("kat_MLDSA_87_det_pure.rsp"), 20);
  }

  /// C2SP/CCTV accumulated tests: `iterations` seeds read from one SHAKE128, the public keys
  /// and deterministic signatures of the empty message written to another.
  fn accumulated<P: MlDsa>(iterations: usize) -> String {
    let mut seeds = shake::Shake128::default().finalize_xof();
    let mut acc = shake::Shake128::default();
    for _ in 0..iterations {
      let mut xi = [0u8; 32];
      seeds.read(&mut xi);
      let (pk, sk) = P::keygen(&xi);
      acc.update(&pk);
      let sig = P::sign_expanded(&sk, b"", b"", [0; 32]).unwrap();
      acc.update(&sig);
      assert!(P::verify(&pk, b"", b"", &sig));
    }
    let mut out = [0u8; 32];
    acc.finalize_xof().read(&mut out);
    out.iter().map(|b| format!("{b:02x}")).collect()
  }

  fn cctv_digest(set: &str, iterations: usize) -> String {
    let json = vectors("cctv_mldsa_accumulated.json");
    // {"tcId": n, "parameter_set": "ML-DSA-44", "iterations": 100, "digest": "..."}: read the
    // digest that follows this set and count.
    let key = format!("\"parameter_set\": \"{set}\",\n   \"iterations\": {iterations},");
    let at = json.find(&key).expect("the CCTV test is listed") + key.len();
    let rest = &json[at..];
    let start = rest.find("\"digest\": \"").unwrap() + 11;
    rest[start..start + 64].to_string()
  }

  /// 10 000 iterations per set (the size the CCTV README suggests for CI): ~30 s in all here.
  #[test]
  fn cctv_accumulated_10k() {
    assert_eq!(
      accumulated::<MlDsa44>(10_000),
      cctv_digest("ML-DSA-44", 10_000)
    );
    assert_eq!(
      accumulated::<MlDsa65>(10_000),
      cctv_digest("ML-DSA-65", 10_000)
    );
    assert_eq!(
      accumulated::<MlDsa87>(10_000),
      cctv_digest("ML-DSA-87", 10_000)
    );
  }

  /// Cross-check with RustCrypto `ml-dsa` on random seeds, messages, contexts and rnd: keys,
  /// signatures (hedged, with the same rnd) and verification both ways.
  fn differential<P: MlDsa, R: ml_dsa::MlDsaParams>() {
    for i in 0..8u8 {
      let mut seed = [0u8; 32];
      crate::random::fill(&mut seed).unwrap();
      let msg = crate::random::bytes(i as usize * 37).unwrap();
      let ctx = crate::random::bytes(i as usize * 31).unwrap();
      let mut rnd = [0u8; 32];
      crate::random::fill(&mut rnd).unwrap();
      let (pk, sk) = P::keygen(&seed);
      let theirs = ml_dsa::SigningKey::<R>::from_seed(&seed.into());
      assert_eq!(pk, theirs.verifying_key().encode().to_vec());
      let ours = P::sign_expanded(&sk, &msg, &ctx, rnd).unwrap();
      // Sign_internal over M' = 0 ‖ |ctx| ‖ ctx ‖ M.
      let sig = theirs
        .expanded_key()
        .sign_internal(&[&[0, ctx.len() as u8], &ctx, &msg], &rnd.into());
      assert_eq!(ours, sig.encode().to_vec());
      let decoded = ml_dsa::Signature::<R>::try_from(&ours[..]).unwrap();
      assert!(theirs
        .verifying_key()
        .verify_with_context(&msg, &ctx, &decoded));
      assert!(P::verify(&pk, &msg, &ctx, &sig.encode()));
    }
  }

  #[test]
  fn differential_rustcrypto() {
    differential::<MlDsa44, ml_dsa::MlDsa44>();
    differential::<MlDsa65, ml_dsa::MlDsa65>();
    differential::<MlDsa87, ml_dsa::MlDsa87>();
  }

  #[test]
  fn malformed_expanded_keys_are_refused() {
    let (pk, sk) = MlDsa44::keygen(&[7; 32]);
    // s1's first coefficient set to 7 (η − c = 7: c = −5, out of [−2, 2]).
    let mut bad = sk.to_vec();
    bad[128] |= 0b111;
    assert_eq!(
      private_key::<MlDsa44>(&bad, "privateKey")
        .err()
        .unwrap()
        .code,
      Code::InvalidArgValue
    );
    // In range, but tr no longer H(pk): refused when the public key is derived.
    let mut other = sk.to_vec();
    other[64] ^= 1;
    let k = private_key::<MlDsa44>(&other, "privateKey").unwrap();
    assert!(public_key::<MlDsa44>(&k).is_err());
    assert_eq!(
      public_key::<MlDsa44>(&private_key::<MlDsa44>(&sk, "k").unwrap()).unwrap(),
      pk
    );
    // Wrong lengths and long contexts.
    assert!(private_key::<MlDsa44>(&sk[1..], "privateKey").is_err());
    let long = [0u8; 256];
    let e = sign::<MlDsa44>(&PrivateKey::Seed(&[7; 32]), b"m", &long, [0; 32]).unwrap_err();
    assert_eq!(e.code, Code::OutOfRange);
    let sig = sign::<MlDsa44>(&PrivateKey::Seed(&[7; 32]), b"m", &long[..255], [0; 32]).unwrap();
    assert!(MlDsa44::verify(&pk, b"m", &long[..255], &sig));
    assert!(!MlDsa44::verify(&pk, b"m", &long, &sig));
    assert!(!MlDsa44::verify(&pk, b"m", &long[..255], &sig[1..]));
    assert!(!MlDsa44::verify(&pk[1..], b"m", &long[..255], &sig));
  }
}
