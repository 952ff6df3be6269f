//! Key encapsulation: ML-KEM-512/768/1024 (FIPS 203) and X-Wing (draft-connolly-cfrg-xwing-kem,
//! draft 10: ML-KEM-768 and X25519 with its SHA3-256 combiner).
//!
//! Every KEM implements [`Kem`] (key generation from a seed, encapsulation with explicit
//! randomness or the OS's, decapsulation from the seed or the expanded private key), which is
//! also what a hybrid construction calls. The list of KEMs is the one `kems!` line below; the
//! `kem*` entry points and `kemAlgorithms()` (the table the JS layer, `lib/kem.js`, is built
//! from) are generic over it.
//!
//! Backend: AWS-LC's ML-KEM (mlkem-native, `awslc/mlkem.rs`), chosen by measurement over libcrux-ml-kem
//! and RustCrypto's ml-kem (docs/backends.md, "ML-KEM"); X25519 is AWS-LC's too, SHA3/SHAKE are
//! the `sha3`/`shake` crates of the hashes.
//!
//! Private keys: the seed by default (ML-KEM: d‖z, 64 bytes; X-Wing: 32 bytes), or for ML-KEM the
//! FIPS 203 decapsulation key ("expanded"), told apart by length. An expanded key given from
//! outside passes the FIPS 203 hash check (H(ek) as stored) before use; an encapsulation key the
//! modulus check. X-Wing's expanded key never leaves native code (its draft forbids transmitting
//! it), so X-Wing takes only its seed.
//!
//! Every call has a synchronous entry point and an async one (`kem*Async`: a [`KemJob`] over
//! copies of its inputs, on the libuv pool).

use std::sync::Arc;

use napi::bindgen_prelude::{AsyncTask, Buffer, Unknown};
use napi::{Env, Result};
use napi_derive::napi;
use zeroize::Zeroizing;

use crate::awslc::{self, MlKem as MlKemFfi};
use crate::error::{Code, CryptoError, CryptoResult, OrThrow};
use crate::hash::core::HashCore;
use crate::hash::keccak::Keccak;
use crate::js::{self, Cx, Kept, Tag, Value};
use crate::task::{Cancel, CancelToken, Job, Output, Work};

/// A shared secret (32 bytes for every KEM here), wiped when dropped.
pub type SharedSecret = Zeroizing<[u8; 32]>;

/// A key encapsulation mechanism.
pub trait Kem {
  /// Its name in messages: `"ML-KEM-768"`, `"X-Wing"`.
  const NAME: &'static str;
  /// The private key's seed (ML-KEM: d‖z; X-Wing: its 32-byte decapsulation key).
  const SEED_LEN: usize;
  /// The expanded private key accepted from outside (ML-KEM's decapsulation key); 0: none.
  const EXPANDED_LEN: usize;
  const PUBLIC_LEN: usize;
  const CIPHERTEXT_LEN: usize;
  /// Encapsulation's randomness (ML-KEM: m, 32 bytes; X-Wing: eseed, 64).
  const COINS_LEN: usize;
  const SHARED_LEN: usize = 32;

  /// (public key, expanded private key) from a `SEED_LEN`-byte seed. The expanded key is the
  /// native form decapsulation takes (for X-Wing an internal one: see the module docs).
  fn keygen(seed: &[u8]) -> CryptoResult<(Vec<u8>, Zeroizing<Vec<u8>>)>;

  /// (ciphertext, shared secret) for `public` with the given randomness (`COINS_LEN` bytes).
  fn encapsulate_derand(public: &[u8], coins: &[u8]) -> CryptoResult<(Vec<u8>, SharedSecret)>;

  /// The shared secret of `ct` under an expanded key from [`Kem::keygen`] or, for ML-KEM, one
  /// that passed [`Kem::expand`]'s check.
  fn decapsulate_expanded(expanded: &[u8], ct: &[u8]) -> CryptoResult<SharedSecret>;

  /// The public key of a checked expanded private key.
  fn public_of_expanded(expanded: &[u8]) -> Vec<u8>;

  /// Whether an expanded private key given from outside passes its checks (ML-KEM: the hash
  /// check).
  fn check_expanded(expanded: &[u8]) -> bool;

  /// Refuses a public key of the wrong length or that fails the ML-KEM modulus check.
  fn check_public(public: &[u8]) -> CryptoResult<()>;

  /// (ciphertext, shared secret) with randomness from the OS.
  fn encapsulate(public: &[u8]) -> CryptoResult<(Vec<u8>, SharedSecret)> {
    let mut coins = Zeroizing::new(vec![0u8; Self::COINS_LEN]);
    crate::random::fill(&mut coins)?;
    Self::encapsulate_derand(public, &coins)
  }

  /// A new random seed.
  fn generate_seed() -> CryptoResult<Zeroizing<Vec<u8>>> {
    let mut seed = Zeroizing::new(vec![0u8; Self::SEED_LEN]);
    crate::random::fill(&mut seed)?;
    Ok(seed)
  }

  /// The expanded form of a private key given as its seed or (ML-KEM) its checked expanded key.
  fn expand(private: &[u8]) -> CryptoResult<Zeroizing<Vec<u8>>> {
    if private.len() == Self::SEED_LEN {
      return Ok(Self::keygen(private)?.1);
    }
    if Self::EXPANDED_LEN == 0 || private.len() != Self::EXPANDED_LEN {
      return Err(wrong_private_length::<Self>(private.len()));
    }
    if !Self::check_expanded(private) {
      return Err(CryptoError::invalid_value(
        "privateKey",
        format!(
          "an {} decapsulation key whose stored H(ek) is the hash of its ek (FIPS 203 hash check)",
          Self::NAME
        ),
        "a key that fails the check",
      ));
    }
    Ok(Zeroizing::new(private.to_vec()))
  }

  /// The shared secret of `ct` under a private key given as its seed or expanded key.
  fn decapsulate(private: &[u8], ct: &[u8]) -> CryptoResult<SharedSecret> {
    check_len::<Self>(ct, Input::Ciphertext)?;
    Self::decapsulate_expanded(&Self::expand(private)?, ct)
  }

  /// The public key of a private key given as its seed or expanded key.
  fn public_of(private: &[u8]) -> CryptoResult<Vec<u8>> {
    Ok(Self::public_of_expanded(&Self::expand(private)?))
  }
}

fn wrong_private_length<K: Kem + ?Sized>(len: usize) -> CryptoError {
  let expanded = match K::EXPANDED_LEN {
    0 => String::new(),
    n => format!(" or a {n}-byte decapsulation key"),
  };
  CryptoError::invalid_value(
    "privateKey",
    format!("a {}-byte {} seed{expanded}", K::SEED_LEN, K::NAME),
    format!("{len} bytes"),
  )
}

/// The fixed-length inputs, for their length checks.
#[derive(Clone, Copy)]
enum Input {
  PublicKey,
  Ciphertext,
}

/// `Ok` when `bytes` has the length `input` has for `K`; else the error naming it.
fn check_len<K: Kem + ?Sized>(bytes: &[u8], input: Input) -> CryptoResult<()> {
  let (len, arg, what) = match input {
    Input::PublicKey => (K::PUBLIC_LEN, "publicKey", "public key"),
    Input::Ciphertext => (K::CIPHERTEXT_LEN, "ciphertext", "ciphertext"),
  };
  if bytes.len() == len {
    return Ok(());
  }
  Err(CryptoError::invalid_value(
    arg,
    format!("a {len}-byte {} {what}", K::NAME),
    format!("{} bytes", bytes.len()),
  ))
}

/// The error of an ML-KEM encapsulation key that fails the modulus check (FIPS 203 §7.2).
fn modulus_check_failed(name: &str) -> CryptoError {
  CryptoError::invalid_value(
    "publicKey",
    format!("an {name} encapsulation key whose coefficients are all below q = 3329 (FIPS 203 modulus check)"),
    "a key with a coefficient >= q",
  )
}

// ---- ML-KEM ---------------------------------------------------------------------------------

/// One ML-KEM parameter set, by its AWS-LC functions.
pub trait MlKemSet {
  const SET_NAME: &'static str;
  const FFI: MlKemFfi;
}

impl<T: MlKemSet> Kem for T {
  const NAME: &'static str = T::SET_NAME;
  const SEED_LEN: usize = 64;
  const EXPANDED_LEN: usize = T::FFI.private_len;
  const PUBLIC_LEN: usize = T::FFI.public_len;
  const CIPHERTEXT_LEN: usize = T::FFI.ciphertext_len;
  const COINS_LEN: usize = 32;

  fn keygen(seed: &[u8]) -> CryptoResult<(Vec<u8>, Zeroizing<Vec<u8>>)> {
    let seed: &[u8; 64] = seed
      .try_into()
      .map_err(|_| wrong_private_length::<Self>(seed.len()))?;
    Ok(T::FFI.keypair(seed))
  }

  fn encapsulate_derand(public: &[u8], coins: &[u8]) -> CryptoResult<(Vec<u8>, SharedSecret)> {
    check_len::<Self>(public, Input::PublicKey)?;
    let m: &[u8; 32] = coins
      .try_into()
      .map_err(|_| CryptoError::invalid_value("coins", "32 bytes", coins.len()))?;
    T::FFI
      .encapsulate(public, m)
      .ok_or_else(|| modulus_check_failed(T::SET_NAME))
  }

  fn decapsulate_expanded(expanded: &[u8], ct: &[u8]) -> CryptoResult<SharedSecret> {
    check_len::<Self>(ct, Input::Ciphertext)?;
    // The key passed its checks (or came from keygen): AWS-LC's own hash check cannot fail.
    T::FFI
      .decapsulate(expanded, ct)
      .ok_or_else(|| wrong_private_length::<Self>(expanded.len()))
  }

  fn public_of_expanded(expanded: &[u8]) -> Vec<u8> {
    // dk = dk_PKE (384k bytes) ‖ ek ‖ H(ek) ‖ z, with ek of PUBLIC_LEN = 384k + 32 bytes.
    let at = Self::PUBLIC_LEN - 32;
    expanded[at..at + Self::PUBLIC_LEN].to_vec()
  }

  fn check_expanded(expanded: &[u8]) -> bool {
    T::FFI.check_private(expanded)
  }

  fn check_public(public: &[u8]) -> CryptoResult<()> {
    check_len::<Self>(public, Input::PublicKey)?;
    match T::FFI.check_public(public) {
      true => Ok(()),
      false => Err(modulus_check_failed(T::SET_NAME)),
    }
  }
}

macro_rules! ml_kem_sets {
  ($($t:ident $name:literal $ffi:ident;)*) => {$(
    #[doc = concat!("ML-KEM with the ", $name, " parameter set.")]
    pub struct $t;
    impl MlKemSet for $t {
      const SET_NAME: &'static str = $name;
      const FFI: MlKemFfi = awslc::$ffi;
    }
  )*};
}

ml_kem_sets! {
  MlKem512 "ML-KEM-512" ML_KEM_512;
  MlKem768 "ML-KEM-768" ML_KEM_768;
  MlKem1024 "ML-KEM-1024" ML_KEM_1024;
}

// ---- X-Wing ---------------------------------------------------------------------------------

/// X-Wing (draft-connolly-cfrg-xwing-kem-10): ML-KEM-768 and X25519, combined with SHA3-256.
pub struct XWing;

/// "\./" "/^\": the combiner's label.
const XWING_LABEL: &[u8; 6] = b"\\.//^\\";
const X25519_LEN: usize = 32;
/// X-Wing's ML-KEM part, as errors name it.
const XWING_M: &str = "X-Wing (ML-KEM-768 part)";

impl XWing {
  /// SHA3-256(ss_M ‖ ss_X ‖ ct_X ‖ pk_X ‖ XWingLabel).
  fn combiner(ss_m: &[u8], ss_x: &[u8], ct_x: &[u8], pk_x: &[u8]) -> SharedSecret {
    let mut h = Keccak::sha3(256);
    for part in [ss_m, ss_x, ct_x, pk_x, XWING_LABEL] {
      h.update(part);
    }
    let mut out = Zeroizing::new([0u8; 32]);
    h.finalize_into(&mut out[..]);
    out
  }
}

fn x25519_key(b: &[u8]) -> &[u8; X25519_LEN] {
  b.try_into().expect("a 32-byte X25519 key")
}

impl Kem for XWing {
  const NAME: &'static str = "X-Wing";
  const SEED_LEN: usize = 32;
  const EXPANDED_LEN: usize = 0;
  const PUBLIC_LEN: usize = MlKem768::PUBLIC_LEN + X25519_LEN;
  const CIPHERTEXT_LEN: usize = MlKem768::CIPHERTEXT_LEN + X25519_LEN;
  const COINS_LEN: usize = 64;

  /// expandDecapsulationKey: SHAKE256(sk, 96) = d‖z (ML-KEM-768) ‖ sk_X. The expanded key
  /// here is dk_M ‖ sk_X ‖ pk_X; the public key pk_M ‖ pk_X.
  fn keygen(seed: &[u8]) -> CryptoResult<(Vec<u8>, Zeroizing<Vec<u8>>)> {
    if seed.len() != Self::SEED_LEN {
      return Err(wrong_private_length::<Self>(seed.len()));
    }
    let mut xof = Keccak::shake(256, 96);
    xof.update(seed);
    let mut expanded = Zeroizing::new([0u8; 96]);
    xof.finalize_into(&mut expanded[..]);
    let (pk_m, dk_m) = MlKem768::keygen(&expanded[..64])?;
    let sk_x = x25519_key(&expanded[64..]);
    let pk_x = awslc::x25519_base(sk_x);
    let public = [&pk_m[..], &pk_x].concat();
    let private = Zeroizing::new([&dk_m[..], sk_x, &pk_x].concat());
    Ok((public, private))
  }

  fn encapsulate_derand(public: &[u8], coins: &[u8]) -> CryptoResult<(Vec<u8>, SharedSecret)> {
    check_len::<Self>(public, Input::PublicKey)?;
    if coins.len() != Self::COINS_LEN {
      return Err(CryptoError::invalid_value("coins", "64 bytes", coins.len()));
    }
    let (pk_m, pk_x) = public.split_at(MlKem768::PUBLIC_LEN);
    let ek_x = x25519_key(&coins[32..]);
    let ct_x = awslc::x25519_base(ek_x);
    let ss_x = awslc::x25519(ek_x, x25519_key(pk_x));
    let (ct_m, ss_m) = MlKem768::encapsulate_derand(pk_m, &coins[..32])
      .map_err(|_| modulus_check_failed(XWING_M))?;
    let ss = Self::combiner(&ss_m[..], &ss_x[..], &ct_x, pk_x);
    Ok(([ct_m, ct_x.to_vec()].concat(), ss))
  }

  fn decapsulate_expanded(expanded: &[u8], ct: &[u8]) -> CryptoResult<SharedSecret> {
    check_len::<Self>(ct, Input::Ciphertext)?;
    let (dk_m, rest) = expanded.split_at(MlKem768::EXPANDED_LEN);
    let (sk_x, pk_x) = rest.split_at(X25519_LEN);
    let (ct_m, ct_x) = ct.split_at(MlKem768::CIPHERTEXT_LEN);
    let ss_m = MlKem768::decapsulate_expanded(dk_m, ct_m)?;
    let ss_x = awslc::x25519(x25519_key(sk_x), x25519_key(ct_x));
    Ok(Self::combiner(&ss_m[..], &ss_x[..], ct_x, pk_x))
  }

  fn public_of_expanded(expanded: &[u8]) -> Vec<u8> {
    let (dk_m, rest) = expanded.split_at(MlKem768::EXPANDED_LEN);
    [
      MlKem768::public_of_expanded(dk_m),
      rest[X25519_LEN..].to_vec(),
    ]
    .concat()
  }

  fn check_expanded(_: &[u8]) -> bool {
    false
  }

  fn check_public(public: &[u8]) -> CryptoResult<()> {
    check_len::<Self>(public, Input::PublicKey)?;
    MlKem768::check_public(&public[..MlKem768::PUBLIC_LEN])
      .map_err(|_| modulus_check_failed(XWING_M))
  }
}

// ---- the list and the entry points ----------------------------------------------------------

/// `KemAlg` (one variant per KEM type, ids in this order) and `with_kem!(alg, |K| body)`, which
/// runs `body` with `K` the [`Kem`] type of `alg`.
macro_rules! kems {
  ($d:tt $($t:ident),*) => {
    #[derive(Clone, Copy, PartialEq, Eq, Debug)]
    pub enum KemAlg { $($t),* }

    impl KemAlg {
      pub const ALL: &[KemAlg] = &[$(KemAlg::$t),*];
    }

    macro_rules! with_kem {
      ($d alg:expr, |$d K:ident| $d body:expr) => {
        match $d alg { $(KemAlg::$t => { type $d K = $t; $d body })* }
      };
    }
  };
}

kems!($ MlKem512, MlKem768, MlKem1024, XWing);

impl KemAlg {
  fn from_id(id: u32) -> CryptoResult<KemAlg> {
    KemAlg::ALL
      .get(id as usize)
      .copied()
      .ok_or_else(|| CryptoError::invalid_value("algorithm", "a known KEM id", id))
  }
}

/// One KEM as the JS layer sees it (lengths in bytes).
#[napi(object)]
pub struct KemAlgorithm {
  pub id: u32,
  /// `'ML-KEM-512'`, `'ML-KEM-768'`, `'ML-KEM-1024'`, `'X-Wing'`.
  pub name: String,
  pub seed_length: u32,
  /// The expanded private key's length; 0 when none is accepted (X-Wing).
  pub expanded_length: u32,
  pub public_length: u32,
  pub ciphertext_length: u32,
  pub shared_length: u32,
}

#[napi]
pub fn kem_algorithms() -> Vec<KemAlgorithm> {
  KemAlg::ALL
    .iter()
    .map(|&alg| {
      with_kem!(alg, |K| KemAlgorithm {
        id: alg as u32,
        name: K::NAME.into(),
        seed_length: K::SEED_LEN as u32,
        expanded_length: K::EXPANDED_LEN as u32,
        public_length: K::PUBLIC_LEN as u32,
        ciphertext_length: K::CIPHERTEXT_LEN as u32,
        shared_length: K::SHARED_LEN as u32,
      })
    })
    .collect()
}

fn read<'e>(env: &'e Env, v: &Unknown<'e>, name: &str) -> Result<js::Bytes<'e>> {
  js::read_arg(env, v, name).or_throw(env)
}

fn read_opt<'e>(env: &'e Env, v: &Unknown<'e>, name: &str) -> Result<Option<js::Bytes<'e>>> {
  Cx::from(env).opt_bytes(Value::from(v), name).or_throw(env)
}

/// (private key, public key) from `seed` (random when `None`); the private key is the seed, or
/// with `expanded` the expanded key (ML-KEM).
fn generate(
  alg: KemAlg,
  seed: Option<&[u8]>,
  expanded: bool,
) -> CryptoResult<(Zeroizing<Vec<u8>>, Vec<u8>)> {
  with_kem!(alg, |K| {
    let seed = match seed {
      Some(s) if s.len() != K::SEED_LEN => Err(CryptoError::invalid_value(
        "options.seed",
        format!("{} bytes", K::SEED_LEN),
        format!("{} bytes", s.len()),
      )),
      Some(s) => Ok(Zeroizing::new(s.to_vec())),
      None => K::generate_seed(),
    }?;
    if expanded && K::EXPANDED_LEN == 0 {
      // X-Wing's expanded key never leaves native code (its draft forbids transmitting it).
      return Err(CryptoError::invalid_value(
        "privateKeyFormat",
        "'seed'",
        "'expanded'",
      ));
    }
    let (public, private) = K::keygen(&seed)?;
    Ok((if expanded { private } else { seed }, public))
  })
}

/// `kemGenerate(alg, seed?, expanded)`: `[privateKey, publicKey]` from `seed` (random when
/// undefined); the private key is the seed, or with `expanded` the expanded key (ML-KEM).
#[napi]
pub fn kem_generate(env: &Env, alg: u32, seed: Unknown, expanded: bool) -> Result<Vec<Buffer>> {
  let alg = KemAlg::from_id(alg).or_throw(env)?;
  let seed = read_opt(env, &seed, "seed")?;
  let (private, public) =
    generate(alg, seed.as_ref().map(|s| s.as_slice()), expanded).or_throw(env)?;
  Ok(vec![Buffer::from(&private[..]), Buffer::from(public)])
}

/// `kemEncapsulate(alg, publicKey)`: `[ciphertext, sharedSecret]`, with randomness from the OS.
#[napi]
pub fn kem_encapsulate(env: &Env, alg: u32, public: Unknown) -> Result<Vec<Buffer>> {
  let alg = KemAlg::from_id(alg).or_throw(env)?;
  let public = read(env, &public, "publicKey")?;
  let (ct, ss) = with_kem!(alg, |K| K::encapsulate(public.as_slice())).or_throw(env)?;
  Ok(vec![Buffer::from(ct), Buffer::from(&ss[..])])
}

/// A private key expanded once (`kemPrepare`): `lib/keys/` keeps one per KeyObject or byte key
/// passed again, so decapsulating with a seed does not repeat key generation on every call. The
/// expanded key is shared with the async jobs that use it (wiped when the last one drops it).
pub struct KemPrepared {
  alg: KemAlg,
  expanded: Arc<Zeroizing<Vec<u8>>>,
}

impl Kept for KemPrepared {
  const TAG: Tag = Tag {
    lower: 0x6372_7970_746f_6b65,
    upper: 0x6d70_7265_7061_7265,
  };
  const WHAT: &'static str = "a prepared KEM private key";
}

/// `kemPrepare(alg, privateKey)` (raw): the private key (seed, or checked expanded key) expanded.
pub fn kem_prepare<'js>(cx: Cx<'js>, args: js::Args<'js>) -> CryptoResult<Value<'js>> {
  let alg = KemAlg::from_id(cx.id(args[0]))?;
  let key = cx.bytes(args[1], "privateKey")?;
  let expanded = Arc::new(with_kem!(alg, |K| K::expand(key.as_slice()))?);
  cx.keep(KemPrepared { alg, expanded })
}

/// A decapsulation key: expanded once by `kemPrepare`, or the bytes given (seed or expanded key).
enum KemKey<B> {
  Prepared(Arc<Zeroizing<Vec<u8>>>),
  Given(B),
}

/// The key argument of a decapsulation: a prepared key (of `alg`), or bytes.
fn read_key<'e>(env: &'e Env, alg: KemAlg, v: &Unknown<'e>) -> Result<KemKey<js::Bytes<'e>>> {
  match Cx::from(env).kept::<KemPrepared>(Value::from(v)) {
    Some(p) if p.alg != alg => Err(CryptoError::new(
      Code::InvalidKeyType,
      "The prepared key is for another algorithm",
    ))
    .or_throw(env),
    Some(p) => Ok(KemKey::Prepared(Arc::clone(&p.expanded))),
    None => Ok(KemKey::Given(read(env, v, "privateKey")?)),
  }
}

fn decapsulate<B: AsRef<[u8]>>(
  alg: KemAlg,
  key: &KemKey<B>,
  ct: &[u8],
) -> CryptoResult<SharedSecret> {
  match key {
    KemKey::Prepared(e) => with_kem!(alg, |K| K::decapsulate_expanded(e, ct)),
    KemKey::Given(b) => with_kem!(alg, |K| K::decapsulate(b.as_ref(), ct)),
  }
}

/// `kemDecapsulate(alg, ciphertext, privateKey)`: the shared secret; the private key as bytes
/// or prepared by `kemPrepare`.
#[napi]
pub fn kem_decapsulate(env: &Env, alg: u32, ct: Unknown, private: Unknown) -> Result<Buffer> {
  let alg = KemAlg::from_id(alg).or_throw(env)?;
  let ct = read(env, &ct, "ciphertext")?;
  let key = read_key(env, alg, &private)?;
  let key = match &key {
    KemKey::Prepared(e) => KemKey::Prepared(Arc::clone(e)),
    KemKey::Given(b) => KemKey::Given(b.as_slice()),
  };
  decapsulate(alg, &key, ct.as_slice())
    .map(|ss| Buffer::from(&ss[..]))
    .or_throw(env)
}

// ---- async forms ----------------------------------------------------------------------------

/// One KEM operation over inputs copied at call time, for the libuv pool.
pub struct KemJob {
  alg: KemAlg,
  op: KemOp,
}

enum KemOp {
  Generate {
    seed: Option<Zeroizing<Vec<u8>>>,
    expanded: bool,
  },
  Encapsulate {
    public: Vec<u8>,
  },
  Decapsulate {
    ct: Vec<u8>,
    key: KemKey<Zeroizing<Vec<u8>>>,
  },
}

impl Job for KemJob {
  fn run(&mut self, _cancel: &Cancel) -> CryptoResult<Output> {
    let alg = self.alg;
    match &self.op {
      KemOp::Generate { seed, expanded } => {
        let (private, public) = generate(alg, seed.as_ref().map(|s| s.as_slice()), *expanded)?;
        Ok(super::pair(&private, &public))
      }
      KemOp::Encapsulate { public } => {
        let (ct, ss) = with_kem!(alg, |K| K::encapsulate(public))?;
        Ok(super::pair(&ct, &ss[..]))
      }
      KemOp::Decapsulate { ct, key } => {
        decapsulate(alg, key, ct).map(|ss| Output::Bytes(Zeroizing::new(ss.to_vec())))
      }
    }
  }
}

fn kem_job(env: &Env, alg: u32, op: impl FnOnce(KemAlg) -> Result<KemOp>) -> Result<KemJob> {
  let alg = KemAlg::from_id(alg).or_throw(env)?;
  Ok(KemJob { alg, op: op(alg)? })
}

/// `kemGenerateAsync(alg, seed?, expanded, token?)`: `kemGenerate` on the libuv pool, as
/// `[privateKey ‖ publicKey, lengths]`.
#[napi]
pub fn kem_generate_async(
  env: &Env,
  alg: u32,
  seed: Unknown,
  expanded: bool,
  token: Option<&CancelToken>,
) -> Result<AsyncTask<Work<KemJob>>> {
  let job = kem_job(env, alg, |_| {
    let seed = read_opt(env, &seed, "seed")?.map(|s| s.into_owned());
    Ok(KemOp::Generate { seed, expanded })
  })?;
  Ok(Work::new(job, token))
}

/// `kemEncapsulateAsync(alg, publicKey, token?)`: `kemEncapsulate` on the libuv pool, as
/// `[ciphertext ‖ sharedSecret, lengths]`.
#[napi]
pub fn kem_encapsulate_async(
  env: &Env,
  alg: u32,
  public: Unknown,
  token: Option<&CancelToken>,
) -> Result<AsyncTask<Work<KemJob>>> {
  let job = kem_job(env, alg, |_| {
    let public = read(env, &public, "publicKey")?.as_slice().to_vec();
    Ok(KemOp::Encapsulate { public })
  })?;
  Ok(Work::new(job, token))
}

/// `kemDecapsulateAsync(alg, ciphertext, privateKey, token?)`: `kemDecapsulate` on the libuv pool.
#[napi]
pub fn kem_decapsulate_async(
  env: &Env,
  alg: u32,
  ct: Unknown,
  private: Unknown,
  token: Option<&CancelToken>,
) -> Result<AsyncTask<Work<KemJob>>> {
  let job = kem_job(env, alg, |alg| {
    let ct = read(env, &ct, "ciphertext")?.as_slice().to_vec();
    let key = match read_key(env, alg, &private)? {
      KemKey::Prepared(e) => KemKey::Prepared(e),
      KemKey::Given(b) => KemKey::Given(b.into_owned()),
    };
    Ok(KemOp::Decapsulate { ct, key })
  })?;
  Ok(Work::new(job, token))
}

/// `kemPublic(alg, privateKey)`: the public key of a private key (seed or checked expanded key).
#[napi]
pub fn kem_public(env: &Env, alg: u32, private: Unknown) -> Result<Buffer> {
  let alg = KemAlg::from_id(alg).or_throw(env)?;
  let private = read(env, &private, "privateKey")?;
  with_kem!(alg, |K| K::public_of(private.as_slice()))
    .map(Buffer::from)
    .or_throw(env)
}

/// `kemCheckPublic(alg, publicKey)`: refuses a public key of the wrong length or (ML-KEM, and
/// X-Wing's ML-KEM part) one that fails the modulus check.
#[napi]
pub fn kem_check_public(env: &Env, alg: u32, public: Unknown) -> Result<()> {
  let alg = KemAlg::from_id(alg).or_throw(env)?;
  let public = read(env, &public, "publicKey")?;
  with_kem!(alg, |K| K::check_public(public.as_slice())).or_throw(env)
}

#[cfg(test)]
mod tests;
