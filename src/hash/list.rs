//! The one list of hash algorithms, and the one trait every backend is driven through.
//!
//! Adding a hash is one line in [`hash_algorithms!`] below: its JS name, its backend type, how
//! to make a fresh state and, for a Merkle–Damgård hash whose raw compression function is at
//! hand, that block function (`src/md.rs`). One-shot hashing, incremental hashing, HMAC, PBKDF2
//! and HKDF are written once, against [`HashCore`], and dispatch through [`State`]; PBKDF2 runs
//! its iterations on the block function where the row names one ([`Alg::with_block_fn`]).
//! Why each backend was chosen is in `docs/backends.md`.

use digest::{common::BlockSizeUser, Digest, ExtendableOutput, Update};

use zeroize::Zeroizing;

use crate::error::{CryptoError, CryptoResult};
use crate::hash::md::{self, BlockFn};

/// What the generic code needs from a hash function.
pub trait HashCore: Clone {
  fn update(&mut self, data: &[u8]);
  /// Writes the digest; `out.len()` is exactly [`HashCore::output_len`].
  fn finalize_into(self, out: &mut [u8]);
  fn output_len(&self) -> usize;
  /// Input block size in bytes (what HMAC pads its key to); 0 when HMAC is not defined.
  fn block_len(&self) -> usize;
}

/// Any RustCrypto fixed-output `Digest`.
#[derive(Clone, Default)]
pub struct RustCrypto<D>(D);

impl<D: Digest + BlockSizeUser + Clone> HashCore for RustCrypto<D> {
  #[inline]
  fn update(&mut self, data: &[u8]) {
    Digest::update(&mut self.0, data);
  }
  #[inline]
  fn finalize_into(self, out: &mut [u8]) {
    out.copy_from_slice(&self.0.finalize());
  }
  #[inline]
  fn output_len(&self) -> usize {
    <D as Digest>::output_size()
  }
  #[inline]
  fn block_len(&self) -> usize {
    <D as BlockSizeUser>::block_size()
  }
}

/// A RustCrypto extendable-output function (SHAKE) with a chosen output length.
#[derive(Clone)]
pub struct Xof<X> {
  state: X,
  len: usize,
}

impl<X: Default> Xof<X> {
  fn new(len: usize) -> Self {
    Xof {
      state: X::default(),
      len,
    }
  }
}

impl<X: Update + ExtendableOutput + Clone> HashCore for Xof<X> {
  #[inline]
  fn update(&mut self, data: &[u8]) {
    self.state.update(data);
  }
  #[inline]
  fn finalize_into(self, out: &mut [u8]) {
    self.state.finalize_xof_into(out);
  }
  fn output_len(&self) -> usize {
    self.len
  }
  fn block_len(&self) -> usize {
    0
  }
}

/// `ring`'s digests (its SHA-384/512 assembly beats the RustCrypto code on x86-64).
#[derive(Clone)]
pub struct Ring(ring::digest::Context);

impl Ring {
  fn new(alg: &'static ring::digest::Algorithm) -> Self {
    Ring(ring::digest::Context::new(alg))
  }
}

impl HashCore for Ring {
  #[inline]
  fn update(&mut self, data: &[u8]) {
    self.0.update(data);
  }
  #[inline]
  fn finalize_into(self, out: &mut [u8]) {
    out.copy_from_slice(self.0.finish().as_ref());
  }
  fn output_len(&self) -> usize {
    self.0.algorithm().output_len()
  }
  fn block_len(&self) -> usize {
    self.0.algorithm().block_len()
  }
}

/// BLAKE2b/BLAKE2s: the `*_simd` crates (run-time AVX2/SSE4.1) or the scalar code of
/// `src/blake2.rs`, whichever is faster on this CPU (see there).
#[derive(Clone)]
pub enum Blake2b {
  Simd {
    state: blake2b_simd::State,
    output_len: usize,
  },
  Scalar(crate::hash::blake2::Blake2bScalar),
}
#[derive(Clone)]
pub enum Blake2s {
  Simd {
    state: blake2s_simd::State,
    output_len: usize,
  },
  Scalar(crate::hash::blake2::Blake2sScalar),
}

/// `$block`: block size, `$max`: longest output and key, `$salt`: salt and personalization
/// length (all in bytes).
macro_rules! blake2_core {
  ($t:ident, $simd:ident, $scalar:ident, block: $block:expr, max: $max:expr, salt: $salt:expr) => {
    impl $t {
      /// Output length, key, salt and personalization already checked against the limits.
      fn with(len: usize, key: &[u8], salt: &[u8], personal: &[u8]) -> Self {
        if crate::hash::blake2::prefer_scalar() {
          $t::Scalar(crate::hash::blake2::$scalar::new(len, key, salt, personal))
        } else {
          let mut params = $simd::Params::new();
          params
            .hash_length(len)
            .key(key)
            .salt(salt)
            .personal(personal);
          $t::Simd {
            state: params.to_state(),
            output_len: len,
          }
        }
      }

      fn fresh() -> Self {
        Self::with($max, &[], &[], &[])
      }

      fn from_params(p: &Params) -> CryptoResult<Self> {
        let len = check_len("outputLength", p.output_len, 1, $max as u32, $max as u32)?;
        Ok(Self::with(
          len,
          check_max("key", p.key, $max)?,
          check_max("salt", p.salt, $salt)?,
          check_max("personalization", p.personalization, $salt)?,
        ))
      }
    }

    impl HashCore for $t {
      #[inline]
      fn update(&mut self, data: &[u8]) {
        match self {
          $t::Simd { state, .. } => {
            state.update(data);
          }
          $t::Scalar(s) => s.update(data),
        }
      }
      #[inline]
      fn finalize_into(self, out: &mut [u8]) {
        match self {
          $t::Simd { state, .. } => out.copy_from_slice(state.finalize().as_bytes()),
          $t::Scalar(s) => s.finalize_into(out),
        }
      }
      fn output_len(&self) -> usize {
        match self {
          $t::Simd { output_len, .. } => *output_len,
          $t::Scalar(s) => s.output_len(),
        }
      }
      fn block_len(&self) -> usize {
        $block
      }
    }
  };
}
blake2_core!(Blake2b, blake2b_simd, Blake2bScalar, block: 128, max: 64, salt: 16);
blake2_core!(Blake2s, blake2s_simd, Blake2sScalar, block: 64, max: 32, salt: 8);

/// BLAKE3 (any output length). Inputs from 1 MiB up are hashed on the rayon pool, on every core.
/// So are streams: once a hasher has taken 1 MiB in smaller pieces (a stream's 64 KiB chunks), it
/// gathers further pieces into 1 MiB runs and hashes each run on the pool; hashing them one by
/// one as they come would use one core.
#[derive(Clone)]
pub struct Blake3 {
  hasher: Box<blake3::Hasher>,
  output_len: usize,
  /// Pieces gathered for the next parallel run (empty until the hasher has seen 1 MiB).
  run: Zeroizing<Vec<u8>>,
}

impl Blake3 {
  fn new(hasher: blake3::Hasher, output_len: usize) -> Self {
    Blake3 {
      hasher: Box::new(hasher),
      output_len,
      run: Zeroizing::new(Vec::new()),
    }
  }

  fn flush(&mut self) {
    if !self.run.is_empty() {
      self.hasher.update_rayon(&self.run);
      self.run.clear();
    }
  }
}

/// The input size from which hashing on every core pays (the blake3 crate says 128 KiB; 1 MiB
/// measured better here, where the pool's start-up is paid per call).
const BLAKE3_RAYON_MIN: usize = 1 << 20;

impl HashCore for Blake3 {
  #[inline]
  fn update(&mut self, data: &[u8]) {
    if data.len() >= BLAKE3_RAYON_MIN {
      self.flush();
      self.hasher.update_rayon(data);
    } else if self.hasher.count() < BLAKE3_RAYON_MIN as u64 {
      self.hasher.update(data);
    } else {
      // Filled to exactly its capacity, never beyond: a reallocation would leave a copy unwiped.
      if self.run.capacity() == 0 {
        self.run.reserve_exact(BLAKE3_RAYON_MIN);
      }
      let mut data = data;
      while !data.is_empty() {
        let take = (BLAKE3_RAYON_MIN - self.run.len()).min(data.len());
        self.run.extend_from_slice(&data[..take]);
        data = &data[take..];
        if self.run.len() == BLAKE3_RAYON_MIN {
          self.flush();
        }
      }
    }
  }
  #[inline]
  fn finalize_into(mut self, out: &mut [u8]) {
    self.flush();
    self.hasher.finalize_xof().fill(out);
  }
  fn output_len(&self) -> usize {
    self.output_len
  }
  fn block_len(&self) -> usize {
    0
  }
}

/// The options a parameterised hash takes (all absent for the fixed-output ones).
#[derive(Default)]
pub struct Params<'a> {
  pub key: Option<&'a [u8]>,
  pub salt: Option<&'a [u8]>,
  pub personalization: Option<&'a [u8]>,
  pub context: Option<&'a [u8]>,
  pub output_len: Option<u32>,
}

impl Params<'_> {
  fn is_empty(&self) -> bool {
    self.key.is_none()
      && self.salt.is_none()
      && self.personalization.is_none()
      && self.context.is_none()
      && self.output_len.is_none()
  }
}

/// Which options an algorithm takes (exported to JS so the API is built from this list).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Family {
  /// Fixed output, no options; HMAC is defined.
  Fixed,
  /// SHAKE: `outputLength`.
  Shake,
  /// BLAKE2b/2s: `key`, `salt`, `personalization`, `outputLength`.
  Blake2,
  /// BLAKE3: `key` or `context`, `outputLength`.
  Blake3,
}

impl Family {
  pub fn options(self) -> &'static [&'static str] {
    match self {
      Family::Fixed => &[],
      Family::Shake => &["outputLength"],
      Family::Blake2 => &["key", "salt", "personalization", "outputLength"],
      Family::Blake3 => &["key", "context", "outputLength"],
    }
  }
}

/// Work to do on a hash's raw block function, when it has one: [`Alg::with_block_fn`] calls
/// `block_fn::<F>()` with the function the hash's row names, else `no_block_fn()`. (PBKDF2 runs
/// its iterations this way.)
pub trait BlockFnVisitor {
  type Output;
  fn block_fn<F: BlockFn>(self) -> Self::Output;
  fn no_block_fn(self) -> Self::Output;
}

/// `v.block_fn::<F>()`, or `v.no_block_fn()` for a row without a block function.
macro_rules! visit_block_fn {
  ($v:ident) => {
    $v.no_block_fn()
  };
  ($v:ident, $block_fn:ty) => {
    $v.block_fn::<$block_fn>()
  };
}

macro_rules! hash_algorithms {
  ($(
    $variant:ident $name:literal $family:ident : $ty:ty = $init:expr
    $(, block_fn: $block_fn:ty)?;
  )*) => {
    /// Algorithm ids, in list order (the JS side gets them from [`Alg::ALL`]).
    #[derive(Clone, Copy, PartialEq, Eq, Debug)]
    #[repr(u32)]
    pub enum Alg { $($variant),* }

    impl Alg {
      pub const ALL: &'static [Alg] = &[$(Alg::$variant),*];

      pub fn from_id(id: u32) -> Option<Alg> {
        Self::ALL.get(id as usize).copied()
      }

      pub fn name(self) -> &'static str {
        match self { $(Alg::$variant => $name),* }
      }

      pub fn family(self) -> Family {
        match self { $(Alg::$variant => Family::$family),* }
      }

      /// Runs `v` on this hash's raw block function, or without one (see [`BlockFnVisitor`]).
      #[inline]
      pub fn with_block_fn<V: BlockFnVisitor>(self, v: V) -> V::Output {
        match self { $(Alg::$variant => visit_block_fn!(v $(, $block_fn)?)),* }
      }
    }

    /// A running hash of any algorithm in the list.
    #[derive(Clone)]
    pub enum State { $($variant($ty)),* }

    impl State {
      /// A fresh state with default parameters.
      #[inline]
      pub fn new(alg: Alg) -> State {
        match alg { $(Alg::$variant => State::$variant($init)),* }
      }
    }

    impl HashCore for State {
      #[inline]
      fn update(&mut self, data: &[u8]) {
        match self { $(State::$variant(s) => s.update(data)),* }
      }
      #[inline]
      fn finalize_into(self, out: &mut [u8]) {
        match self { $(State::$variant(s) => s.finalize_into(out)),* }
      }
      #[inline]
      fn output_len(&self) -> usize {
        match self { $(State::$variant(s) => s.output_len()),* }
      }
      #[inline]
      fn block_len(&self) -> usize {
        match self { $(State::$variant(s) => s.block_len()),* }
      }
    }
  };
}

hash_algorithms! {
  // Variant JS name      Options backend                      = fresh state
  //                                                               (, block_fn: its block function)
  Md4        "md4"        Fixed:  md::Md4                        = Default::default(),
                                                                   block_fn: md::Md4Compress;
  Md5        "md5"        Fixed:  md::Md5                        = Default::default(),
                                                                   block_fn: md::Md5Compress;
  Sha1       "sha1"       Fixed:  RustCrypto<sha1::Sha1>         = Default::default(),
                                                                   block_fn: md::Sha1Compress;
  Sha224     "sha224"     Fixed:  RustCrypto<sha2::Sha224>       = Default::default(),
                                                                   block_fn: md::Sha224Compress;
  Sha256     "sha256"     Fixed:  RustCrypto<sha2::Sha256>       = Default::default(),
                                                                   block_fn: md::Sha256Compress;
  Sha384     "sha384"     Fixed:  Ring                           = Ring::new(&ring::digest::SHA384),
                                                                   block_fn: md::Sha384Compress;
  Sha512     "sha512"     Fixed:  Ring                           = Ring::new(&ring::digest::SHA512),
                                                                   block_fn: md::Sha512Compress;
  Sha512_224 "sha512_224" Fixed:  RustCrypto<sha2::Sha512_224>   = Default::default();
  Sha512_256 "sha512_256" Fixed:  Ring                           = Ring::new(&ring::digest::SHA512_256);
  Sha3_224   "sha3_224"   Fixed:  RustCrypto<sha3::Sha3_224>     = Default::default();
  Sha3_256   "sha3_256"   Fixed:  RustCrypto<sha3::Sha3_256>     = Default::default();
  Sha3_384   "sha3_384"   Fixed:  RustCrypto<sha3::Sha3_384>     = Default::default();
  Sha3_512   "sha3_512"   Fixed:  RustCrypto<sha3::Sha3_512>     = Default::default();
  Keccak256  "keccak256"  Fixed:  RustCrypto<sha3::Keccak256>    = Default::default();
  Shake128   "shake128"   Shake:  Xof<shake::Shake128>           = Xof::new(16);
  Shake256   "shake256"   Shake:  Xof<shake::Shake256>           = Xof::new(32);
  Blake2b    "blake2b"    Blake2: Blake2b                        = Blake2b::fresh();
  Blake2s    "blake2s"    Blake2: Blake2s                        = Blake2s::fresh();
  Blake3     "blake3"     Blake3: Blake3                         = Blake3::new(blake3::Hasher::new(), 32);
  Ripemd160  "ripemd160"  Fixed:  crate::hash::rmd160::Ripemd160       = Default::default(),
                                                                   block_fn: crate::hash::rmd160::Ripemd160Compress;
  Whirlpool  "whirlpool"  Fixed:  RustCrypto<whirlpool::Whirlpool> = Default::default();
}

/// Largest output the XOFs (SHAKE, BLAKE3) produce in one call: 2^30 bytes. A bound, so a
/// typo cannot ask for terabytes; far beyond any key-derivation use.
pub const MAX_XOF_LEN: u32 = 1 << 30;

fn check_len(
  name: &str,
  len: Option<u32>,
  min: u32,
  max: u32,
  default: u32,
) -> CryptoResult<usize> {
  match len {
    None => Ok(default as usize),
    Some(n) if (min..=max).contains(&n) => Ok(n as usize),
    Some(n) => Err(CryptoError::out_of_range(
      name,
      format!(">= {min} && <= {max}"),
      n,
    )),
  }
}

fn check_max<'a>(name: &str, value: Option<&'a [u8]>, max: usize) -> CryptoResult<&'a [u8]> {
  let v = value.unwrap_or(&[]);
  if v.len() > max {
    return Err(CryptoError::out_of_range(
      &format!("{name}.length"),
      format!("<= {max} bytes"),
      v.len(),
    ));
  }
  Ok(v)
}

impl State {
  /// A fresh state with the given options. Options the algorithm does not take are an error
  /// (the JS layer names them before they get here; this is the backstop).
  pub fn with_params(alg: Alg, p: &Params) -> CryptoResult<State> {
    if p.is_empty() {
      return Ok(State::new(alg));
    }
    let refuse = |what: &str| {
      Err(CryptoError::invalid_value(
        "options",
        format!(
          "the options of {} ({})",
          alg.name(),
          alg.family().options().join(", ")
        ),
        what.to_string(),
      ))
    };
    match alg.family() {
      Family::Fixed => refuse("options"),
      Family::Shake => {
        if p.key.is_some() || p.salt.is_some() || p.personalization.is_some() || p.context.is_some()
        {
          return refuse("key/salt/personalization/context");
        }
        let len = check_len("outputLength", p.output_len, 1, MAX_XOF_LEN, 0)?;
        Ok(match alg {
          Alg::Shake128 => State::Shake128(Xof::new(len)),
          _ => State::Shake256(Xof::new(len)),
        })
      }
      Family::Blake2 => {
        if p.context.is_some() {
          return refuse("context");
        }
        Ok(if alg == Alg::Blake2b {
          State::Blake2b(Blake2b::from_params(p)?)
        } else {
          State::Blake2s(Blake2s::from_params(p)?)
        })
      }
      Family::Blake3 => {
        if p.salt.is_some() || p.personalization.is_some() {
          return refuse("salt/personalization");
        }
        let len = check_len("outputLength", p.output_len, 1, MAX_XOF_LEN, 32)?;
        let hasher = match (p.key, p.context) {
          (Some(_), Some(_)) => {
            return Err(CryptoError::invalid_value(
              "options",
              "either key (keyed mode) or context (derive-key mode), not both",
              "both",
            ))
          }
          (Some(key), None) => {
            let key: &[u8; 32] = key
              .try_into()
              .map_err(|_| CryptoError::out_of_range("key.length", "32 bytes", key.len()))?;
            blake3::Hasher::new_keyed(key)
          }
          (None, Some(ctx)) => {
            let ctx = std::str::from_utf8(ctx).map_err(|_| {
              CryptoError::invalid_value("context", "a UTF-8 string", "invalid UTF-8")
            })?;
            blake3::Hasher::new_derive_key(ctx)
          }
          (None, None) => blake3::Hasher::new(),
        };
        Ok(State::Blake3(Blake3::new(hasher, len)))
      }
    }
  }
}

/// The HMAC key block (RFC 2104): the key, or its hash when longer than `block` bytes, zero
/// padded to `block` (at most 256). Shared by [`Hmac`] and PBKDF2's compression-function path.
pub fn hmac_key_block<H: HashCore>(
  fresh: &H,
  key: &[u8],
  block: usize,
) -> zeroize::Zeroizing<[u8; 256]> {
  let mut kb = zeroize::Zeroizing::new([0u8; 256]);
  if key.len() > block {
    let mut h = fresh.clone();
    h.update(key);
    let n = h.output_len();
    h.finalize_into(&mut kb[..n]);
  } else {
    kb[..key.len()].copy_from_slice(key);
  }
  kb
}

/// Longest digest [`Hmac`] takes.
const HMAC_MAX_DIGEST: usize = 64;

/// HMAC (RFC 2104) over any block hash in the list: one implementation for all of them. The
/// inner digest is held in a 64-byte buffer, so hashes with longer digests are refused (none in
/// the list has one).
#[derive(Clone)]
pub struct Hmac<H> {
  inner: H,
  outer: H,
}

impl<H: HashCore> Hmac<H> {
  /// `fresh` is an unused state of the underlying hash. Keys of any length are accepted.
  pub fn new(fresh: H, key: &[u8]) -> CryptoResult<Self> {
    let block = fresh.block_len();
    if block == 0 {
      return Err(CryptoError::invalid_value(
        "algorithm",
        "a block hash for HMAC",
        "an XOF",
      ));
    }
    if fresh.output_len() > HMAC_MAX_DIGEST {
      return Err(CryptoError::invalid_value(
        "algorithm",
        format!("a hash with at most {HMAC_MAX_DIGEST}-byte digests for HMAC"),
        fresh.output_len(),
      ));
    }
    let mut pad = hmac_key_block(&fresh, key, block);
    let pad = &mut pad[..block];
    pad.iter_mut().for_each(|b| *b ^= 0x36);
    let mut inner = fresh.clone();
    inner.update(pad);
    pad.iter_mut().for_each(|b| *b ^= 0x36 ^ 0x5c);
    let mut outer = fresh;
    outer.update(pad);
    Ok(Hmac { inner, outer })
  }
}

impl<H: HashCore> HashCore for Hmac<H> {
  #[inline]
  fn update(&mut self, data: &[u8]) {
    self.inner.update(data);
  }
  fn finalize_into(self, out: &mut [u8]) {
    let mut ih = zeroize::Zeroizing::new([0u8; HMAC_MAX_DIGEST]);
    let n = self.inner.output_len();
    self.inner.finalize_into(&mut ih[..n]);
    let mut outer = self.outer;
    outer.update(&ih[..n]);
    outer.finalize_into(out);
  }
  fn output_len(&self) -> usize {
    self.outer.output_len()
  }
  fn block_len(&self) -> usize {
    self.outer.block_len()
  }
}

/// Hashes `data` into `out` (exactly the state's output length).
#[inline]
pub fn oneshot<H: HashCore>(mut h: H, data: &[u8], out: &mut [u8]) {
  h.update(data);
  h.finalize_into(out);
}

#[cfg(test)]
mod tests {
  use super::*;

  fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
  }

  fn digest(alg: Alg, data: &[u8]) -> String {
    let s = State::new(alg);
    let mut out = vec![0u8; s.output_len()];
    oneshot(s, data, &mut out);
    hex(&out)
  }

  #[test]
  fn names_are_unique_and_ids_follow_the_list() {
    for (i, a) in Alg::ALL.iter().enumerate() {
      assert_eq!(Alg::from_id(i as u32), Some(*a));
      assert_eq!(Alg::ALL.iter().filter(|b| b.name() == a.name()).count(), 1);
    }
    assert_eq!(Alg::from_id(Alg::ALL.len() as u32), None);
  }

  #[test]
  fn abc_vectors() {
    // FIPS 180-2 / FIPS 202 / RFC 1321 / RFC 7693 "abc" examples.
    assert_eq!(
      digest(Alg::Sha256, b"abc"),
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
    assert_eq!(digest(Alg::Md5, b"abc"), "900150983cd24fb0d6963f7d28e17f72");
    assert_eq!(
      digest(Alg::Sha3_256, b"abc"),
      "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532"
    );
    assert_eq!(
      digest(Alg::Blake2s, b"abc"),
      "508c5e8c327c14e2e1a72ba34eeb452f37458b209ed63a294d999b4c86675982"
    );
  }

  #[test]
  fn hmac_rfc4231_case2() {
    let h = Hmac::new(State::new(Alg::Sha256), b"Jefe").unwrap();
    let mut out = [0u8; 32];
    oneshot(h, b"what do ya want for nothing?", &mut out);
    assert_eq!(
      hex(&out),
      "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
    );
  }

  #[test]
  fn bad_params_are_errors_not_panics() {
    let long = [0u8; 65];
    let p = Params {
      key: Some(&long),
      ..Default::default()
    };
    assert!(State::with_params(Alg::Blake2b, &p).is_err());
    let p = Params {
      key: Some(&long[..31]),
      ..Default::default()
    };
    assert!(State::with_params(Alg::Blake3, &p).is_err());
    let p = Params {
      output_len: Some(0),
      ..Default::default()
    };
    assert!(State::with_params(Alg::Shake128, &p).is_err());
    let p = Params {
      output_len: Some(16),
      ..Default::default()
    };
    assert!(State::with_params(Alg::Sha256, &p).is_err());
    assert!(Hmac::new(State::new(Alg::Shake128), b"k").is_err());
  }
}
