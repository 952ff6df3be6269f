//! Ed25519 (RFC 8032) and X25519 (RFC 7748), both in AWS-LC (s2n-bignum's constant-time
//! assembly on x86-64 and AArch64; docs/backends.md has the measurements against ring,
//! ed25519-dalek and x25519-dalek).
//!
//! Verification is strict, as the Wycheproof vectors expect: AWS-LC refuses S ≥ L, and the
//! small-order public keys (and their non-canonical encodings) are refused here first, with the
//! list libsodium uses: such a key "verifies" signatures that prove nothing.

use aws_lc_rs::agreement;
use aws_lc_rs::signature::{self, Ed25519KeyPair, KeyPair};
use zeroize::Zeroizing;

use crate::ct;
use crate::error::{Code, CryptoError, CryptoResult};

pub const KEY_LEN: usize = 32;
pub const SIG_LEN: usize = 64;

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
