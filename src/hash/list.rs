//! The one list of hash algorithms.
//!
//! Adding a hash is one line in [`hash_algorithms!`] below: its JS name, its backend type, how
//! to make a fresh state and, for a Merkle–Damgård hash whose raw compression function is at
//! hand, that block function (`md.rs`). One-shot hashing, incremental hashing, HMAC, PBKDF2
//! and HKDF are written once, against [`HashCore`] (`core.rs`), and dispatch through [`State`];
//! PBKDF2 runs its iterations on the block function where the row names one
//! ([`Alg::with_block_fn`]). The backends are in `backends.rs` and the own implementations in
//! `md.rs`, `rmd160.rs` and `blake2.rs`; why each was chosen is in `docs/backends.md`.

use super::backends::{Blake3, RustCrypto};
use super::blake2::{Blake2b, Blake2s};
use super::core::{check_len, HashCore, HashParams};
use super::keccak::Keccak;
use super::md::{self, BlockFn};
use super::rmd160::{Ripemd160, Ripemd160Compress};
use crate::error::{CryptoError, CryptoResult};

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

      /// The hash of an id the JS layer passed as the argument `name` (an index of
      /// `algorithms()`), or the error naming it.
      pub fn from_js_id(id: u32, name: &str) -> CryptoResult<Alg> {
        Self::from_id(id).ok_or_else(|| CryptoError::invalid_value(name, "a known hash id", id))
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
  Sha384     "sha384"     Fixed:  md::Md<md::Sha384Compress>     = Default::default(),
                                                                   block_fn: md::Sha384Compress;
  Sha512     "sha512"     Fixed:  md::Md<md::Sha512Compress>     = Default::default(),
                                                                   block_fn: md::Sha512Compress;
  Sha512_224 "sha512_224" Fixed:  md::Md<md::Sha512_224Compress> = Default::default(),
                                                                   block_fn: md::Sha512_224Compress;
  Sha512_256 "sha512_256" Fixed:  md::Md<md::Sha512_256Compress> = Default::default(),
                                                                   block_fn: md::Sha512_256Compress;
  Sha3_224   "sha3_224"   Fixed:  Keccak                         = Keccak::sha3(224);
  Sha3_256   "sha3_256"   Fixed:  Keccak                         = Keccak::sha3(256);
  Sha3_384   "sha3_384"   Fixed:  Keccak                         = Keccak::sha3(384);
  Sha3_512   "sha3_512"   Fixed:  Keccak                         = Keccak::sha3(512);
  Keccak256  "keccak256"  Fixed:  Keccak                         = Keccak::keccak256();
  Shake128   "shake128"   Shake:  Keccak                         = Keccak::shake(128, 16);
  Shake256   "shake256"   Shake:  Keccak                         = Keccak::shake(256, 32);
  Blake2b    "blake2b"    Blake2: Blake2b                        = Blake2b::fresh();
  Blake2s    "blake2s"    Blake2: Blake2s                        = Blake2s::fresh();
  Blake3     "blake3"     Blake3: Blake3                         = Blake3::new(blake3::Hasher::new(), 32);
  Ripemd160  "ripemd160"  Fixed:  Ripemd160                      = Default::default(),
                                                                   block_fn: Ripemd160Compress;
  Whirlpool  "whirlpool"  Fixed:  RustCrypto<whirlpool::Whirlpool> = Default::default();
}

/// Largest output the XOFs (SHAKE, BLAKE3) produce in one call: 2^30 bytes. A bound, so a
/// typo cannot ask for terabytes; far beyond any key-derivation use.
pub const MAX_XOF_LEN: u32 = 1 << 30;

impl State {
  /// A fresh state with the given options. Options the algorithm does not take are an error
  /// (the JS layer names them before they get here; this is the backstop).
  pub fn with_params(alg: Alg, p: &HashParams) -> CryptoResult<State> {
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
          Alg::Shake128 => State::Shake128(Keccak::shake(128, len)),
          _ => State::Shake256(Keccak::shake(256, len)),
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

#[cfg(test)]
mod tests {
  use super::*;
  use crate::hash::core::{oneshot, Hmac};

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
    let p = HashParams {
      key: Some(&long),
      ..Default::default()
    };
    assert!(State::with_params(Alg::Blake2b, &p).is_err());
    let p = HashParams {
      key: Some(&long[..31]),
      ..Default::default()
    };
    assert!(State::with_params(Alg::Blake3, &p).is_err());
    let p = HashParams {
      output_len: Some(0),
      ..Default::default()
    };
    assert!(State::with_params(Alg::Shake128, &p).is_err());
    let p = HashParams {
      output_len: Some(16),
      ..Default::default()
    };
    assert!(State::with_params(Alg::Sha256, &p).is_err());
    assert!(Hmac::new(State::new(Alg::Shake128), b"k").is_err());
  }
}
