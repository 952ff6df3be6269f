//! RFC 6979 deterministic ECDSA nonces (§3.2), over the HMAC of any hash in
//! `src/hash/list.rs`: one HMAC_DRBG for every curve and every hash.
//!
//! The HMAC is the message hash's own (RFC 6979 §3.2 uses the hash `H` that hashed the message).
//! A hash without HMAC (SHAKE, BLAKE3: no block length) uses HMAC-SHA-256 for digests up to 32
//! bytes and HMAC-SHA-512 above: RFC 6979 does not cover XOFs, and any nonce derived this way is
//! still a valid ECDSA nonce (the signature verifies everywhere); only its bytes are ours.

use zeroize::Zeroizing;

use crate::error::CryptoResult;
use crate::hash::core::{HashCore, Hmac};
use crate::hash::list::{Alg, State};

/// The HMAC the nonces of a message hashed with `hash` are drawn with.
fn hmac_for(hash: Alg) -> Alg {
  let s = State::new(hash);
  match (s.block_len(), s.output_len()) {
    (0, n) if n <= 32 => Alg::Sha256,
    (0, _) => Alg::Sha512,
    _ => hash,
  }
}

/// `bits2int` (RFC 6979 §2.3.2) of `t`, as `out.len()` = ceil(qbits / 8) big-endian bytes.
pub fn bits2int(t: &[u8], qbits: usize, out: &mut [u8]) {
  out.fill(0);
  let rlen = out.len();
  if t.len() <= rlen {
    // No more bits than the order: the value as it is (left-padded).
    out[rlen - t.len()..].copy_from_slice(t);
    if t.len() * 8 <= qbits {
      return;
    }
  } else {
    out.copy_from_slice(&t[..rlen]);
  }
  // Keep the leftmost `qbits` bits of the (now `rlen`-byte) value: shift right by the excess.
  let shift = rlen * 8 - qbits;
  if shift > 0 {
    for i in (0..rlen).rev() {
      let hi = if i > 0 { out[i - 1] << (8 - shift) } else { 0 };
      out[i] = (out[i] >> shift) | hi;
    }
  }
}

/// The HMAC_DRBG of RFC 6979 §3.2 steps b–h for one signature.
pub struct Nonces {
  alg: Alg,
  hlen: usize,
  qbits: usize,
  /// HMAC keyed with K (its pads hashed once per K, not once per call).
  keyed: Hmac<State>,
  v: Zeroizing<[u8; 64]>,
  started: bool,
}

impl Nonces {
  /// `x` = int2octets(private key), `h` = bits2octets(H(m)), both `rlen` bytes.
  pub fn new(hash: Alg, x: &[u8], h: &[u8], qbits: usize) -> CryptoResult<Self> {
    let alg = hmac_for(hash);
    let hlen = State::new(alg).output_len();
    let mut n = Nonces {
      alg,
      hlen,
      qbits,
      keyed: Hmac::new(State::new(alg), &[0u8; 64][..hlen])?,
      v: Zeroizing::new([1u8; 64]),
      started: false,
    };
    for round in [0u8, 1] {
      // K = HMAC_K(V || round || x || h); V = HMAC_K(V)
      n.rekey(&[&[round], x, h])?;
    }
    Ok(n)
  }

  fn mac(&self, parts: &[&[u8]], out: &mut [u8]) -> CryptoResult<()> {
    let mut m = self.keyed.clone();
    m.update(&self.v[..self.hlen]);
    for p in parts {
      m.update(p);
    }
    m.finalize_into(&mut out[..self.hlen]);
    Ok(())
  }

  /// K = HMAC_K(V || parts); V = HMAC_K(V).
  fn rekey(&mut self, parts: &[&[u8]]) -> CryptoResult<()> {
    let mut k = Zeroizing::new([0u8; 64]);
    self.mac(parts, &mut k[..])?;
    self.keyed = Hmac::new(State::new(self.alg), &k[..self.hlen])?;
    self.step()
  }

  /// V = HMAC_K(V).
  fn step(&mut self) -> CryptoResult<()> {
    let mut v = Zeroizing::new([0u8; 64]);
    self.mac(&[], &mut v[..])?;
    self.v = v;
    Ok(())
  }

  /// The next candidate `k` (step h), `out.len()` = rlen bytes; the caller rejects 0 and ≥ q.
  pub fn next(&mut self, out: &mut [u8]) -> CryptoResult<()> {
    if self.started {
      self.rekey(&[&[0u8]])?;
    }
    self.started = true;
    let mut t = Zeroizing::new(Vec::with_capacity(out.len() + self.hlen));
    while t.len() < out.len() {
      self.step()?;
      t.extend_from_slice(&self.v[..self.hlen]);
    }
    bits2int(&t, self.qbits, out);
    Ok(())
  }
}

#[cfg(test)]
mod tests {
  use super::*;

  #[test]
  fn bits2int_truncates_to_the_leftmost_bits() {
    let mut out = [0u8; 2];
    // 12-bit order: 0xabcd -> 0xabc
    bits2int(&[0xab, 0xcd], 12, &mut out);
    assert_eq!(out, [0x0a, 0xbc]);
    bits2int(&[0x12], 12, &mut out);
    assert_eq!(out, [0x00, 0x12]);
    bits2int(&[0xab, 0xcd, 0xef], 16, &mut out);
    assert_eq!(out, [0xab, 0xcd]);
  }

  /// RFC 6979 A.1 (the 163-bit toy example): k for "sample" with SHA-256.
  #[test]
  fn rfc6979_a1_nonce() {
    let hex = |s: &str| -> Vec<u8> {
      (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
    };
    let x = hex("009a4d6792295a7f730fc3f2b49cbc0f62e862272f");
    let q = hex("04000000000000000000020108a2e0cc0d99f8a5ef");
    // bits2octets(SHA-256("sample")): bits2int (163 bits) then mod q.
    let h1 = hex("af2bdbe1aa9b6ec1e2ade1d694f41fc71a831d0268e9891562113d8a62add1bf");
    let mut z1 = [0u8; 21];
    bits2int(&h1, 163, &mut z1);
    // z1 >= q here, so z2 = z1 - q.
    let mut z2 = [0u8; 21];
    let mut borrow = 0i16;
    for i in (0..21).rev() {
      let d = z1[i] as i16 - q[i] as i16 - borrow;
      z2[i] = d.rem_euclid(256) as u8;
      borrow = (d < 0) as i16;
    }
    assert_eq!(
      z2.to_vec(),
      hex("01795edf0d54db760f156d0dac04c0322b3a204224")
    );
    let mut n = Nonces::new(Alg::Sha256, &x, &z2, 163).unwrap();
    let mut k = [0u8; 21];
    n.next(&mut k).unwrap();
    // The first two candidates are >= q and rejected; the third is the nonce (RFC 6979 A.1.2).
    assert_eq!(
      k.to_vec(),
      hex("04982d236f3ffc758838ca6f5e9fea455106af3b2b")
    );
    n.next(&mut k).unwrap();
    assert_eq!(
      k.to_vec(),
      hex("063863c30451dadf4944df4877b740d4f160a8b6ab")
    );
    n.next(&mut k).unwrap();
    assert_eq!(
      k.to_vec(),
      hex("023af4074c90a02b3fe61d286d5c87f425e6bdd81b")
    );
  }
}
