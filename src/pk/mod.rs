//! Public-key cryptography: Ed25519, X25519, ECDSA and ECDH (P-256, P-384, P-521, secp256k1).
//!
//! Native code sees keys only in one canonical form per algorithm, which `lib/keys/` (the one
//! key parser: raw, SEC1, DER PKCS#8/SPKI/SEC1, PEM, JWK, KeyObject) hands it:
//! - Ed25519 / X25519: the 32-byte seed or private scalar, the 32-byte public key;
//! - EC: the private scalar (exactly the order's bytes), the SEC1 public point (compressed or
//!   uncompressed; validated here, on the curve and not the identity).
//!
//! The algorithm list is [`ALGS`] (one row each; `pkAlgorithms()` gives it to JavaScript). The
//! entry points dispatch on it: `curve25519.rs` for the Edwards/Montgomery pair, `ec.rs` for the
//! short-Weierstrass curves (generic over the curve, one backend per curve named in the row's
//! `with_curve!` arm), `rfc6979.rs` for deterministic ECDSA nonces. Every operation has a
//! synchronous entry point and an async one (`pk*Async`: a [`PkJob`] over copies of its inputs,
//! on the libuv pool), as every other family has.

pub mod curve25519;
pub(crate) mod ec;
pub mod kem;
pub mod mldsa;
pub(crate) mod rfc6979;
mod rsa;

use std::sync::Arc;

use elliptic_curve::ff::PrimeField;
use napi::bindgen_prelude::{AsyncTask, Buffer, Unknown};
use napi::{Env, Result};
use napi_derive::napi;
use zeroize::Zeroizing;

use crate::error::{Code, CryptoError, CryptoResult, OrThrow};
use crate::hash::core::{oneshot, HashCore, HashParams};
use crate::hash::list::{Alg, Family, State};
use crate::js::{self, Cx, Kept, Tag, Value};
use crate::task::{Cancel, CancelToken, Job, Output, Work};

/// The algorithms, by id (the JS layer passes ids from `pkAlgorithms()`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum PkAlg {
  Ed25519,
  X25519,
  P256,
  P384,
  P521,
  Secp256k1,
}

/// One algorithm as the JS layer sees it.
#[napi(object)]
pub struct PkAlgorithm {
  pub id: u32,
  /// `'ed25519'`, `'x25519'`, `'p256'`, `'p384'`, `'p521'`, `'secp256k1'`.
  pub name: String,
  /// Private key bytes (seed / scalar).
  pub private_length: u32,
  /// Public key bytes (raw for 25519, uncompressed SEC1 for EC).
  pub public_length: u32,
}

/// One row of [`ALGS`].
pub struct PkAlgInfo {
  pub alg: PkAlg,
  pub name: &'static str,
  /// Private key bytes (seed / scalar).
  pub private_len: usize,
  /// Public key bytes (raw for 25519, uncompressed SEC1 for EC).
  pub public_len: usize,
}

const fn row(alg: PkAlg, name: &'static str, private_len: usize, public_len: usize) -> PkAlgInfo {
  PkAlgInfo {
    alg,
    name,
    private_len,
    public_len,
  }
}

/// The algorithm list. Index = `PkAlg as usize` (checked below, at compile time).
pub const ALGS: [PkAlgInfo; 6] = [
  row(PkAlg::Ed25519, "ed25519", 32, 32),
  row(PkAlg::X25519, "x25519", 32, 32),
  row(PkAlg::P256, "p256", 32, 65),
  row(PkAlg::P384, "p384", 48, 97),
  row(PkAlg::P521, "p521", 66, 133),
  row(PkAlg::Secp256k1, "secp256k1", 32, 65),
];

const _: () = {
  let mut i = 0;
  while i < ALGS.len() {
    assert!(
      ALGS[i].alg as usize == i,
      "pk::ALGS: a row is not at its algorithm's index"
    );
    i += 1;
  }
  assert!(
    ALGS.len() == PkAlg::Secp256k1 as usize + 1,
    "pk::ALGS: an algorithm has no row"
  );
};

impl PkAlg {
  fn from_id(id: u32) -> CryptoResult<PkAlg> {
    ALGS
      .get(id as usize)
      .map(|a| a.alg)
      .ok_or_else(|| CryptoError::invalid_value("algorithm", "a known algorithm id", id))
  }

  fn name(self) -> &'static str {
    ALGS[self as usize].name
  }
}

#[napi]
pub fn pk_algorithms() -> Vec<PkAlgorithm> {
  ALGS
    .iter()
    .map(|a| PkAlgorithm {
      id: a.alg as u32,
      name: a.name.into(),
      private_length: a.private_len as u32,
      public_length: a.public_len as u32,
    })
    .collect()
}

/// `$body` with `$C` the RustCrypto curve type and `$B` its [`ec::EcBackend`], for the EC
/// algorithms; `$other` for the rest.
macro_rules! with_curve {
  ($alg:expr, |$C:ident, $B:ident| $body:expr, $other:expr) => {
    with_curve!(@arms $alg, $C, $B, $body, $other;
      P256 => p256::NistP256, ec::EcAwsLc;
      P384 => p384::NistP384, ec::EcAwsLc;
      P521 => p521::NistP521, ec::EcAwsLc;
      Secp256k1 => k256::Secp256k1, ec::EcRustCrypto;
    )
  };
  (@arms $alg:expr, $C:ident, $B:ident, $body:expr, $other:expr;
    $($variant:ident => $curve:ty, $backend:ty;)*) => {
    match $alg {
      $(PkAlg::$variant => {
        #[allow(dead_code)]
        type $C = $curve;
        #[allow(dead_code)]
        type $B = $backend;
        $body
      })*
      PkAlg::Ed25519 | PkAlg::X25519 => $other,
    }
  };
}

fn unsupported(alg: PkAlg, what: &str) -> CryptoError {
  CryptoError::new(
    Code::InvalidKeyType,
    format!("{} keys cannot be used {what}", alg.name()),
  )
}

/// ECDSA `flags` bits.
const FLAG_P1363: u32 = 1;
const FLAG_LOW_S: u32 = 2;

/// The digest ECDSA signs: `hash` over `msg`. SHAKE128/256 give 32/64 bytes (RFC 8692).
fn ecdsa_digest(hash: u32, msg: &[u8]) -> CryptoResult<(Alg, Zeroizing<Vec<u8>>)> {
  let alg = Alg::from_js_id(hash, "hash")?;
  let state = match (alg.family(), alg) {
    (Family::Shake, Alg::Shake128) => State::with_params(alg, &shake_len(32))?,
    (Family::Shake, _) => State::with_params(alg, &shake_len(64))?,
    _ => State::new(alg),
  };
  let mut out = Zeroizing::new(vec![0u8; state.output_len()]);
  oneshot(state, msg, &mut out);
  Ok((alg, out))
}

fn shake_len(n: u32) -> HashParams<'static> {
  HashParams {
    output_len: Some(n),
    ..Default::default()
  }
}

/// ECDSA-Sig-Value ::= SEQUENCE { r INTEGER, s INTEGER } (DER) of two big-endian magnitudes.
pub fn der_signature(r: &[u8], s: &[u8]) -> Vec<u8> {
  let int = |v: &[u8]| -> Vec<u8> {
    let v = &v[v.iter().take_while(|&&b| b == 0).count().min(v.len() - 1)..];
    let mut out = vec![0x02];
    let pad = v[0] & 0x80 != 0;
    out.push((v.len() + pad as usize) as u8);
    if pad {
      out.push(0);
    }
    out.extend_from_slice(v);
    out
  };
  let body = [int(r), int(s)].concat();
  let mut out = vec![0x30];
  if body.len() >= 0x80 {
    out.push(0x81);
  }
  out.push(body.len() as u8);
  out.extend_from_slice(&body);
  out
}

/// The magnitudes of r and s from a strict DER ECDSA-Sig-Value; `None` for anything else (BER
/// lengths, negative or zero-padded integers, trailing bytes).
pub fn parse_der_signature(sig: &[u8]) -> Option<(&[u8], &[u8])> {
  fn len(b: &[u8]) -> Option<(usize, &[u8])> {
    match *b.first()? {
      n @ 0..=0x7f => Some((n as usize, &b[1..])),
      0x81 if *b.get(1)? >= 0x80 => Some((b[1] as usize, &b[2..])),
      _ => None,
    }
  }
  fn int(b: &[u8]) -> Option<(&[u8], &[u8])> {
    if *b.first()? != 0x02 {
      return None;
    }
    let (n, rest) = len(&b[1..])?;
    let (v, rest) = (rest.get(..n)?, &rest[n..]);
    match v {
      [] => None,
      [x, ..] if x & 0x80 != 0 => None,
      [0, y, ..] if y & 0x80 == 0 => None,
      _ => Some((v, rest)),
    }
  }
  if *sig.first()? != 0x30 {
    return None;
  }
  let (n, body) = len(&sig[1..])?;
  if body.len() != n {
    return None;
  }
  let (r, rest) = int(body)?;
  let (s, rest) = int(rest)?;
  rest.is_empty().then_some((r, s))
}

/// A private key given to an entry point: its bytes, or a key expanded once by `pkPrepare`.
enum Private<'a> {
  Bytes(&'a [u8]),
  Prepared(&'a Arc<Prepared>),
}

/// A private key a queued job owns: a copy of the bytes made at call time, or a share of a
/// prepared key (its handle may be collected while the job waits).
enum OwnedPrivate {
  Bytes(Zeroizing<Vec<u8>>),
  Prepared(Arc<Prepared>),
}

impl OwnedPrivate {
  fn of(key: Private) -> Self {
    match key {
      Private::Bytes(b) => OwnedPrivate::Bytes(Zeroizing::new(b.to_vec())),
      Private::Prepared(p) => OwnedPrivate::Prepared(Arc::clone(p)),
    }
  }

  fn get(&self) -> Private<'_> {
    match self {
      OwnedPrivate::Bytes(b) => Private::Bytes(b),
      OwnedPrivate::Prepared(p) => Private::Prepared(p),
    }
  }
}

/// A private key expanded once: `lib/keys/` keeps one per `KeyObject` it has parsed, so a
/// KeyObject, like node's, does not repeat the expansion (Ed25519: the public key and the
/// SHA-512 of the seed; X25519: AWS-LC's import computes the public key) on every call.
pub enum Prepared {
  Ed25519(aws_lc_rs::signature::Ed25519KeyPair),
  X25519(aws_lc_rs::agreement::PrivateKey),
}

/// The handle `pkPrepare` returns: shared with the async jobs that use it.
pub struct PreparedKey(Arc<Prepared>);

impl Kept for PreparedKey {
  const TAG: Tag = Tag {
    lower: 0x6372_7970_746f_706b,
    upper: 0x7072_6570_6172_6564,
  };
  const WHAT: &'static str = "a prepared private key";
}

impl Private<'_> {
  /// `f` on the expanded key: the prepared one, or one expanded from the bytes now.
  fn with<T, R>(
    &self,
    pick: impl FnOnce(&Prepared) -> Option<&T>,
    expand: impl FnOnce(&[u8]) -> CryptoResult<T>,
    f: impl FnOnce(&T) -> CryptoResult<R>,
  ) -> CryptoResult<R> {
    match self {
      Private::Bytes(b) => f(&expand(b)?),
      Private::Prepared(p) => f(pick(p.as_ref()).ok_or_else(|| {
        CryptoError::new(
          Code::InvalidKeyType,
          "The prepared key is for another algorithm",
        )
      })?),
    }
  }

  fn bytes(&self, alg: PkAlg) -> CryptoResult<&[u8]> {
    match self {
      Private::Bytes(b) => Ok(b),
      Private::Prepared(_) => Err(unsupported(alg, "as a prepared key here")),
    }
  }
}

fn sign(alg: PkAlg, key: &Private, msg: &[u8], hash: u32, flags: u32) -> CryptoResult<Vec<u8>> {
  with_curve!(
    alg,
    |C, B| {
      let d = Zeroizing::new(ec::private_scalar::<C>(key.bytes(alg)?, "privateKey")?);
      let (halg, z) = ecdsa_digest(hash, msg)?;
      let (r, s) = ec::sign::<C, B>(&d, &z, halg, flags & FLAG_LOW_S != 0)?;
      let (r, s) = (r.to_repr(), s.to_repr());
      Ok(if flags & FLAG_P1363 != 0 {
        [r.as_slice(), s.as_slice()].concat()
      } else {
        der_signature(&r, &s)
      })
    },
    match alg {
      PkAlg::Ed25519 => key.with(
        |p| match p {
          Prepared::Ed25519(k) => Some(k),
          _ => None,
        },
        curve25519::ed_pair,
        |k| Ok(curve25519::ed25519_sign(k, msg)),
      ),
      _ => Err(unsupported(alg, "to sign")),
    }
  )
}

fn verify(
  alg: PkAlg,
  key: &[u8],
  msg: &[u8],
  sig: &[u8],
  hash: u32,
  flags: u32,
) -> CryptoResult<bool> {
  with_curve!(
    alg,
    |C, B| {
      use elliptic_curve::scalar::IsHigh;
      let q = ec::public_point::<C>(key, "publicKey")?;
      let (_, z) = ecdsa_digest(hash, msg)?;
      let n = ec::scalar_len::<C>();
      let parts = if flags & FLAG_P1363 != 0 {
        (sig.len() == 2 * n).then(|| sig.split_at(n))
      } else {
        parse_der_signature(sig)
      };
      let Some((r, s)) = parts.and_then(|(r, s)| ec::sig_scalars::<C>(r, s)) else {
        return Ok(false);
      };
      if flags & FLAG_LOW_S != 0 && bool::from(s.as_ref().is_high()) {
        return Ok(false);
      }
      Ok(<B as ec::EcBackend<C>>::verify(&q, &z, &r, &s))
    },
    match alg {
      PkAlg::Ed25519 => curve25519::ed25519_verify(key, msg, sig),
      _ => Err(unsupported(alg, "to verify signatures")),
    }
  )
}

fn derive(alg: PkAlg, private: &Private, public: &[u8]) -> CryptoResult<Zeroizing<Vec<u8>>> {
  with_curve!(
    alg,
    |C, B| {
      let d = Zeroizing::new(ec::private_scalar::<C>(private.bytes(alg)?, "privateKey")?);
      let q = ec::public_point::<C>(public, "publicKey")?;
      <B as ec::EcBackend<C>>::ecdh(&d, &q)
    },
    match alg {
      PkAlg::X25519 => private.with(
        |p| match p {
          Prepared::X25519(k) => Some(k),
          _ => None,
        },
        curve25519::x_private,
        |k| curve25519::x25519(k, public),
      ),
      _ => Err(unsupported(alg, "for key agreement")),
    }
  )
}

fn public_of(alg: PkAlg, private: &[u8]) -> CryptoResult<Vec<u8>> {
  with_curve!(
    alg,
    |C, B| <B as ec::EcBackend<C>>::public(&Zeroizing::new(ec::private_scalar::<C>(
      private,
      "privateKey"
    )?)),
    match alg {
      PkAlg::Ed25519 => curve25519::ed25519_public(private),
      _ => curve25519::x25519_public(private),
    }
  )
}

/// A new private key: 32 random bytes for the 25519 pair, a uniformly random scalar in
/// [1, n−1] for EC.
fn generate(alg: PkAlg) -> CryptoResult<Zeroizing<Vec<u8>>> {
  with_curve!(
    alg,
    |C, B| Ok(Zeroizing::new(ec::random_scalar::<C>()?.to_repr().to_vec())),
    {
      let mut k = Zeroizing::new(vec![0u8; 32]);
      crate::random::fill(&mut k)?;
      Ok(k)
    }
  )
}

fn read<'e>(env: &'e Env, v: &Unknown<'e>, name: &str) -> Result<js::Bytes<'e>> {
  js::read_arg(env, v, name).or_throw(env)
}

/// A private key argument: a prepared key, or bytes (read into `slot`).
fn read_private<'e>(
  env: &'e Env,
  v: &Unknown<'e>,
  slot: &'e mut Option<js::Bytes<'e>>,
) -> Result<Private<'e>> {
  if let Some(p) = Cx::from(env).kept::<PreparedKey>(Value::from(v)) {
    return Ok(Private::Prepared(&p.0));
  }
  Ok(Private::Bytes(
    slot.insert(read(env, v, "privateKey")?).as_slice(),
  ))
}

/// `pkPrepare(alg, privateKey)` (raw): an Ed25519 or X25519 private key expanded once.
pub fn pk_prepare<'js>(cx: Cx<'js>, args: js::Args<'js>) -> CryptoResult<Value<'js>> {
  let alg = PkAlg::from_id(cx.id(args[0]))?;
  let key = cx.bytes(args[1], "privateKey")?;
  let prepared = match alg {
    PkAlg::Ed25519 => Prepared::Ed25519(curve25519::ed_pair(key.as_slice())?),
    PkAlg::X25519 => Prepared::X25519(curve25519::x_private(key.as_slice())?),
    _ => return Err(unsupported(alg, "as prepared keys")),
  };
  cx.keep(PreparedKey(Arc::new(prepared)))
}

/// How a signature is made or checked: the ECDSA hash (an id of the hash list) and `flags` (the
/// ECDSA bits above); both 0 for Ed25519.
#[napi(object)]
#[derive(Clone, Copy)]
pub struct SignatureOptions {
  pub hash: u32,
  pub flags: u32,
}

/// `pkSign(alg, privateKey, message, { hash, flags })`: a signature (ECDSA: DER, or r‖s with
/// `flags & 1`; `flags & 2`: low S).
#[napi]
pub fn pk_sign(
  env: &Env,
  alg: u32,
  key: Unknown,
  msg: Unknown,
  options: SignatureOptions,
) -> Result<Buffer> {
  let SignatureOptions { hash, flags } = options;
  let alg = PkAlg::from_id(alg).or_throw(env)?;
  let mut slot = None;
  let key = read_private(env, &key, &mut slot)?;
  let msg = read(env, &msg, "message")?;
  sign(alg, &key, msg.as_slice(), hash, flags)
    .map(Buffer::from)
    .or_throw(env)
}

/// `pkVerify(alg, publicKey, message, signature, { hash, flags })`: false for any invalid signature.
#[napi]
pub fn pk_verify(
  env: &Env,
  alg: u32,
  key: Unknown,
  msg: Unknown,
  sig: Unknown,
  options: SignatureOptions,
) -> Result<bool> {
  let SignatureOptions { hash, flags } = options;
  let alg = PkAlg::from_id(alg).or_throw(env)?;
  let key = read(env, &key, "publicKey")?;
  let (msg, sig) = (read(env, &msg, "message")?, read(env, &sig, "signature")?);
  verify(
    alg,
    key.as_slice(),
    msg.as_slice(),
    sig.as_slice(),
    hash,
    flags,
  )
  .or_throw(env)
}

/// `pkDerive(alg, privateKey, peerPublicKey)`: the X25519 / ECDH shared secret.
#[napi]
pub fn pk_derive(env: &Env, alg: u32, private: Unknown, public: Unknown) -> Result<Buffer> {
  let alg = PkAlg::from_id(alg).or_throw(env)?;
  let mut slot = None;
  let d = read_private(env, &private, &mut slot)?;
  let q = read(env, &public, "publicKey")?;
  derive(alg, &d, q.as_slice())
    .map(|s| Buffer::from(s.as_slice()))
    .or_throw(env)
}

/// `pkGenerate(alg)`: `[privateKey, publicKey]` (public: raw, or uncompressed SEC1).
#[napi]
pub fn pk_generate(env: &Env, alg: u32) -> Result<Vec<Buffer>> {
  let alg = PkAlg::from_id(alg).or_throw(env)?;
  let d = generate(alg).or_throw(env)?;
  let q = public_of(alg, &d).or_throw(env)?;
  Ok(vec![Buffer::from(d.as_slice()), Buffer::from(q)])
}

// ---- async forms ----------------------------------------------------------------------------

/// One public-key operation over inputs copied at call time, for the libuv pool.
pub struct PkJob {
  alg: PkAlg,
  op: PkOp,
}

enum PkOp {
  Sign {
    key: OwnedPrivate,
    msg: Zeroizing<Vec<u8>>,
    hash: u32,
    flags: u32,
  },
  Verify {
    key: Vec<u8>,
    msg: Zeroizing<Vec<u8>>,
    sig: Vec<u8>,
    hash: u32,
    flags: u32,
  },
  Derive {
    key: OwnedPrivate,
    public: Vec<u8>,
  },
  Generate,
}

impl Job for PkJob {
  fn run(&mut self, _cancel: &Cancel) -> CryptoResult<Output> {
    let alg = self.alg;
    match &self.op {
      PkOp::Sign {
        key,
        msg,
        hash,
        flags,
      } => sign(alg, &key.get(), msg, *hash, *flags).map(Output::Buffer),
      PkOp::Verify {
        key,
        msg,
        sig,
        hash,
        flags,
      } => verify(alg, key, msg, sig, *hash, *flags).map(Output::Bool),
      PkOp::Derive { key, public } => derive(alg, &key.get(), public).map(Output::Bytes),
      PkOp::Generate => {
        let d = generate(alg)?;
        let q = public_of(alg, &d)?;
        Ok(pair(&d, &q))
      }
    }
  }
}

/// Two byte strings as one job output (`[Buffer, Uint32Array]`: both, back to back, and their
/// lengths), which the JS layer splits.
pub fn pair(a: &[u8], b: &[u8]) -> Output {
  Output::Items([a, b].concat(), vec![a.len() as u32, b.len() as u32])
}

fn pk_job(env: &Env, alg: u32, op: impl FnOnce(PkAlg) -> Result<PkOp>) -> Result<PkJob> {
  let alg = PkAlg::from_id(alg).or_throw(env)?;
  Ok(PkJob { alg, op: op(alg)? })
}

/// `pkSignAsync(alg, privateKey, message, { hash, flags }, token?)`: `pkSign` on the libuv pool.
#[napi]
pub fn pk_sign_async(
  env: &Env,
  alg: u32,
  key: Unknown,
  msg: Unknown,
  options: SignatureOptions,
  token: Option<&CancelToken>,
) -> Result<AsyncTask<Work<PkJob>>> {
  let SignatureOptions { hash, flags } = options;
  let job = pk_job(env, alg, |_| {
    let mut slot = None;
    let key = OwnedPrivate::of(read_private(env, &key, &mut slot)?);
    let msg = read(env, &msg, "message")?.into_owned();
    Ok(PkOp::Sign {
      key,
      msg,
      hash,
      flags,
    })
  })?;
  Ok(Work::new(job, token))
}

/// `pkVerifyAsync(alg, publicKey, message, signature, { hash, flags }, token?)`: `pkVerify` on the
/// libuv pool.
#[napi]
pub fn pk_verify_async(
  env: &Env,
  alg: u32,
  key: Unknown,
  msg: Unknown,
  sig: Unknown,
  options: SignatureOptions,
  token: Option<&CancelToken>,
) -> Result<AsyncTask<Work<PkJob>>> {
  let SignatureOptions { hash, flags } = options;
  let job = pk_job(env, alg, |_| {
    Ok(PkOp::Verify {
      key: read(env, &key, "publicKey")?.as_slice().to_vec(),
      msg: read(env, &msg, "message")?.into_owned(),
      sig: read(env, &sig, "signature")?.as_slice().to_vec(),
      hash,
      flags,
    })
  })?;
  Ok(Work::new(job, token))
}

/// `pkDeriveAsync(alg, privateKey, peerPublicKey, token?)`: `pkDerive` on the libuv pool.
#[napi]
pub fn pk_derive_async(
  env: &Env,
  alg: u32,
  private: Unknown,
  public: Unknown,
  token: Option<&CancelToken>,
) -> Result<AsyncTask<Work<PkJob>>> {
  let job = pk_job(env, alg, |_| {
    let mut slot = None;
    let key = OwnedPrivate::of(read_private(env, &private, &mut slot)?);
    let public = read(env, &public, "publicKey")?.as_slice().to_vec();
    Ok(PkOp::Derive { key, public })
  })?;
  Ok(Work::new(job, token))
}

/// `pkGenerateAsync(alg, token?)`: `[privateKey ‖ publicKey, lengths]` on the libuv pool.
#[napi]
pub fn pk_generate_async(
  env: &Env,
  alg: u32,
  token: Option<&CancelToken>,
) -> Result<AsyncTask<Work<PkJob>>> {
  let job = pk_job(env, alg, |_| Ok(PkOp::Generate))?;
  Ok(Work::new(job, token))
}

/// `pkPublic(alg, privateKey)`: the public key of a private key.
#[napi]
pub fn pk_public(env: &Env, alg: u32, private: Unknown) -> Result<Buffer> {
  let alg = PkAlg::from_id(alg).or_throw(env)?;
  let d = read(env, &private, "privateKey")?;
  public_of(alg, d.as_slice()).map(Buffer::from).or_throw(env)
}

/// `pkCanonicalPublic(alg, publicKey)`: whether a 25519 public key is in its one canonical
/// encoding (see `curve25519::ed25519_public_canonical` / `x25519_public_canonical`).
#[napi]
pub fn pk_canonical_public(env: &Env, alg: u32, public: Unknown) -> Result<bool> {
  let alg = PkAlg::from_id(alg).or_throw(env)?;
  let q = read(env, &public, "publicKey")?;
  match alg {
    PkAlg::Ed25519 => Ok(curve25519::ed25519_public_canonical(q.as_slice())),
    PkAlg::X25519 => Ok(curve25519::x25519_public_canonical(q.as_slice())),
    _ => Err(unsupported(alg, "here: only Ed25519 and X25519 keys")).or_throw(env),
  }
}

/// `pkPoint(alg, point, compress)`: an EC public key validated (on the curve, not the identity)
/// and re-encoded compressed or uncompressed.
#[napi]
pub fn pk_point(env: &Env, alg: u32, point: Unknown, compress: bool) -> Result<Buffer> {
  let alg = PkAlg::from_id(alg).or_throw(env)?;
  let q = read(env, &point, "publicKey")?;
  with_curve!(
    alg,
    |C, B| ec::public_point::<C>(q.as_slice(), "publicKey")
      .map(|p| Buffer::from(ec::encode_point::<C>(&p, compress))),
    Err(unsupported(alg, "as SEC1 points"))
  )
  .or_throw(env)
}

#[cfg(test)]
mod tests {
  use super::*;

  #[test]
  fn der_signatures_round_trip_and_strictness() {
    let r = [0x00, 0x80, 0x01];
    let s = [0x7f];
    let der = der_signature(&r, &s);
    assert_eq!(
      der,
      [0x30, 0x08, 0x02, 0x03, 0x00, 0x80, 0x01, 0x02, 0x01, 0x7f]
    );
    assert_eq!(parse_der_signature(&der), Some((&der[4..7], &der[9..10])));
    // Non-minimal integer, negative integer, trailing byte, BER long length.
    assert!(parse_der_signature(&[0x30, 0x07, 0x02, 0x02, 0x00, 0x01, 0x02, 0x01, 0x01]).is_none());
    assert!(parse_der_signature(&[0x30, 0x06, 0x02, 0x01, 0x81, 0x02, 0x01, 0x01]).is_none());
    assert!(parse_der_signature(&[0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01, 0x00]).is_none());
    assert!(parse_der_signature(&[0x30, 0x81, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01]).is_none());
  }
}
