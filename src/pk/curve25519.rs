//! Ed25519 (RFC 8032) and X25519 (RFC 7748), both in AWS-LC (s2n-bignum's constant-time
//! assembly on x86-64 and AArch64; docs/backends.md has the measurements against ring,
//! ed25519-dalek and x25519-dalek).
//!
//! Verification is strict, as the Wycheproof vectors expect: AWS-LC refuses S ≥ L, and the
//! small-order public keys (and their non-canonical encodings) are refused here first, with the
//! list libsodium uses: such a key "verifies" signatures that prove nothing.

use aws_lc_rs::agreement;
use aws_lc_rs::signature::{self, Ed25519KeyPair, KeyPair};
use crypto_bigint::modular::ConstMontyForm;
use crypto_bigint::{const_monty_params, JacobiSymbol, U256};
use zeroize::Zeroizing;

use crate::ct;
use crate::error::{Code, CryptoError, CryptoResult};

const KEY_LEN: usize = 32;
const SIG_LEN: usize = 64;

/// y-coordinates (sign bit ignored) of the points of order 1, 2, 4 and 8, with the non-canonical
/// encodings y + p of 0 and 1 (libsodium `ge25519_has_small_order`).
const SMALL_ORDER: [[u8; 32]; 7] = [
  [0; 32],
  {
    let mut a = [0u8; 32];
    a[0] = 1;
    a
  },
  [
    0x26, 0xe8, 0x95, 0x8f, 0xc2, 0xb2, 0x27, 0xb0, 0x45, 0xc3, 0xf4, 0x89, 0xf2, 0xef, 0x98, 0xf0,
    0xd5, 0xdf, 0xac, 0x05, 0xd3, 0xc6, 0x33, 0x39, 0xb1, 0x38, 0x02, 0x88, 0x6d, 0x53, 0xfc, 0x05,
  ],
  [
    0xc7, 0x17, 0x6a, 0x70, 0x3d, 0x4d, 0xd8, 0x4f, 0xba, 0x3c, 0x0b, 0x76, 0x0d, 0x10, 0x67, 0x0f,
    0x2a, 0x20, 0x53, 0xfa, 0x2c, 0x39, 0xcc, 0xc6, 0x4e, 0xc7, 0xfd, 0x77, 0x92, 0xac, 0x03, 0x7a,
  ],
  p_plus(-1),
  p_plus(0),
  p_plus(1),
];

/// The 32-byte little-endian encoding of p + delta (p = 2^255 − 19), delta in −1..=1.
const fn p_plus(delta: i32) -> [u8; 32] {
  let mut a = [0xffu8; 32];
  a[31] = 0x7f;
  a[0] = (0xed + delta) as u8;
  a
}

/// True when `pk` (32 bytes) encodes a point of small order.
fn has_small_order(pk: &[u8; 32]) -> bool {
  let mut y = *pk;
  y[31] &= 0x7f;
  SMALL_ORDER.iter().any(|s| ct::eq(&y, s))
}

fn key32<'a>(k: &'a [u8], name: &str, what: &str) -> CryptoResult<&'a [u8; 32]> {
  k.try_into().map_err(|_| {
    CryptoError::invalid_value(
      name,
      format!("a {KEY_LEN}-byte {what}"),
      format!("{} bytes", k.len()),
    )
  })
}

pub fn ed_pair(seed: &[u8]) -> CryptoResult<Ed25519KeyPair> {
  let seed = key32(seed, "privateKey", "Ed25519 private key (seed)")?;
  Ed25519KeyPair::from_seed_unchecked(seed).map_err(|_| CryptoError::internal())
}

pub fn ed25519_sign(pair: &Ed25519KeyPair, msg: &[u8]) -> Vec<u8> {
  pair.sign(msg).as_ref().to_vec()
}

pub fn ed25519_public(seed: &[u8]) -> CryptoResult<Vec<u8>> {
  Ok(ed_pair(seed)?.public_key().as_ref().to_vec())
}

/// False for any signature that is not a valid strict Ed25519 signature (any length).
pub fn ed25519_verify(public: &[u8], msg: &[u8], sig: &[u8]) -> CryptoResult<bool> {
  let pk = key32(public, "publicKey", "Ed25519 public key")?;
  if sig.len() != SIG_LEN || has_small_order(pk) {
    return Ok(false);
  }
  Ok(
    signature::UnparsedPublicKey::new(&signature::ED25519, pk)
      .verify(msg, sig)
      .is_ok(),
  )
}

// ---- canonical encodings ----------------------------------------------------------------------
// Where a public key's bytes are hashed or compared (`crypto.hybrid` binds the recipient's whole
// public key), each key must have one spelling. Both encodings have others: a field element
// written as v + p, the unused top bit of an X25519 u-coordinate, Ed25519's sign bit on x = 0.

const P_HEX: &str = "7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffed";
const_monty_params!(P25519, U256, P_HEX, "p = 2^255 - 19");
type Fe = ConstMontyForm<P25519, { U256::LIMBS }>;
/// Ed25519's d = −121665/121666 mod p (RFC 8032 §5.1).
const D: Fe = Fe::new(&U256::from_be_hex(
  "52036cee2b6ffe738cc740797779e89800700a4d4141d8ab75eb4dca135978a3",
));

/// The field element of 32 little-endian bytes with the top bit cleared, when it is below p
/// (its one encoding), and that bit.
fn field_element(b: &[u8]) -> Option<(Fe, bool)> {
  let b: &[u8; 32] = b.try_into().ok()?;
  let mut v = *b;
  v[31] &= 0x7f;
  let n = U256::from_le_slice(&v);
  (n < U256::from_be_hex(P_HEX)).then(|| (Fe::new(&n), b[31] >> 7 == 1))
}

/// Whether `pk` is the canonical encoding of an X25519 public key: u below p, the top bit clear
/// (RFC 7748 §5: receivers mask it, so a set bit is another spelling of the same key).
pub fn x25519_public_canonical(pk: &[u8]) -> bool {
  matches!(field_element(pk), Some((_, false)))
}

/// Whether `pk` is the canonical RFC 8032 §5.1.3 encoding of an Ed25519 point: y below p, a
/// point with that y (x² = (y² − 1)/(d·y² + 1) has a root; d·y² + 1 is never 0 since d is not a
/// square), and the sign bit clear when x = 0. Public data: the symbol is computed in variable time.
pub fn ed25519_public_canonical(pk: &[u8]) -> bool {
  let Some((y, sign)) = field_element(pk) else {
    return false;
  };
  let y2 = y.square();
  let (u, v) = (y2 - Fe::ONE, D * y2 + Fe::ONE);
  // u/v is a square exactly when u·v = (u/v)·v² is.
  match (u * v).jacobi_symbol_vartime() {
    JacobiSymbol::MinusOne => false,
    JacobiSymbol::Zero => !sign,
    JacobiSymbol::One => true,
  }
}

pub fn x_private(k: &[u8]) -> CryptoResult<agreement::PrivateKey> {
  let k = key32(k, "privateKey", "X25519 private key")?;
  agreement::PrivateKey::from_private_key(&agreement::X25519, k)
    .map_err(|_| CryptoError::internal())
}

pub fn x25519_public(private: &[u8]) -> CryptoResult<Vec<u8>> {
  let p = x_private(private)?
    .compute_public_key()
    .map_err(|_| CryptoError::internal())?;
  Ok(p.as_ref().to_vec())
}

/// The shared secret; an all-zero result (a low-order peer key, RFC 7748 §6.1) is an error.
pub fn x25519(private: &agreement::PrivateKey, peer: &[u8]) -> CryptoResult<Zeroizing<Vec<u8>>> {
  let peer = key32(peer, "publicKey", "X25519 public key")?;
  let low_order = || {
    CryptoError::new(
      Code::InvalidPublicKey,
      "The X25519 public key has low order: the shared secret would be all zeros",
    )
  };
  agreement::agree(
    private,
    agreement::UnparsedPublicKey::new(&agreement::X25519, peer),
    low_order(),
    |s| {
      if s.iter().all(|&b| b == 0) {
        Err(low_order())
      } else {
        Ok(Zeroizing::new(s.to_vec()))
      }
    },
  )
}

#[cfg(test)]
mod tests {
  use super::*;

  /// p + delta, little-endian, with the top bit set or not.
  fn p_plus(delta: i32, top: bool) -> [u8; 32] {
    let mut a = super::p_plus(delta);
    a[31] |= (top as u8) << 7;
    a
  }

  #[test]
  fn canonical_encodings() {
    // The base point (y = 4/5) and generated keys.
    let mut base = [0x66u8; 32];
    base[0] = 0x58;
    assert!(ed25519_public_canonical(&base));
    for seed in 0..32u8 {
      let pk = ed25519_public(&[seed; 32]).unwrap();
      assert!(ed25519_public_canonical(&pk));
      assert!(x25519_public_canonical(
        &x25519_public(&[seed; 32]).unwrap()
      ));
    }
    // y = p − 1 (x = 0): canonical with the sign bit clear only; y = p, p + 1: y + p spellings.
    assert!(ed25519_public_canonical(&p_plus(-1, false)));
    assert!(!ed25519_public_canonical(&p_plus(-1, true)));
    assert!(!ed25519_public_canonical(&p_plus(0, false)));
    assert!(!ed25519_public_canonical(&p_plus(1, false)));
    let mut one = [0u8; 32];
    one[0] = 1;
    assert!(ed25519_public_canonical(&one));
    one[31] = 0x80;
    assert!(!ed25519_public_canonical(&one));
    // y = 2 is not on the curve ((4 − 1)/(4d + 1) is not a square).
    let mut two = [0u8; 32];
    two[0] = 2;
    assert!(!ed25519_public_canonical(&two));
    // X25519: u < p, top bit clear.
    assert!(x25519_public_canonical(&p_plus(-1, false)));
    assert!(!x25519_public_canonical(&p_plus(0, false)));
    assert!(!x25519_public_canonical(&p_plus(-1, true)));
    assert!(!x25519_public_canonical(&[0u8; 31]));
  }
}
