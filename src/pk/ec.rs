//! ECDSA and ECDH on P-256, P-384, P-521 and secp256k1: one generic implementation over the
//! RustCrypto curve types, with a per-curve [`EcBackend`] for the costly group operations.
//!
//! - Scalars (private keys, nonces), SEC1 points (decoding, validation, compression) and the
//!   ECDSA equations are RustCrypto's, generic over the curve (`elliptic-curve` traits).
//! - The backend does the two scalar multiplications: `k·G` (ECDSA signing, key generation,
//!   public keys) and ECDH, plus ECDSA verification. [`EcAwsLc`] runs them in AWS-LC (constant-time
//!   assembly for the NIST curves, 4–25x faster than the generic RustCrypto code measured here,
//!   docs/backends.md); [`EcRustCrypto`] is used for secp256k1, where k256's precomputed tables
//!   beat AWS-LC's generic curve code 10x.
//! - Nonces are RFC 6979 (`rfc6979.rs`) with the message hash's HMAC, for every curve and hash;
//!   `s` is then `k⁻¹(z + r·d) mod n` in constant time (RustCrypto scalar inversion).
//!
//! Digests are truncated per SEC1 4.1.3 step 5 / RFC 6979 bits2int (leftmost bits of the order's
//! length) before any backend sees them, so every hash of `crypto.sha` works on every curve.

use aws_lc_rs::digest;
use aws_lc_rs::signature::{self, VerificationAlgorithm};
use elliptic_curve::ff::{Field, PrimeField};
use elliptic_curve::group::{Curve as _, Group};
use elliptic_curve::ops::{MulByGeneratorVartime, Reduce};
use elliptic_curve::point::AffineCoordinates;
use elliptic_curve::sec1::{FromSec1Point, ModulusSize, ToSec1Point};
use elliptic_curve::{
  AffinePoint, CurveArithmetic, FieldBytes, NonZeroScalar, PrimeCurve, ProjectivePoint, Scalar,
};
use zeroize::Zeroizing;

use super::rfc6979::{bits2int, Nonces};
use crate::awslc::{self, NistCurve};
use crate::error::{Code, CryptoError, CryptoResult};
use crate::hash::list::Alg;
use elliptic_curve::ops::Invert;

/// A RustCrypto curve with the arithmetic and SEC1 encoding this module needs.
pub trait EcCurve:
  PrimeCurve
  + CurveArithmetic<AffinePoint: FromSec1Point<Self> + ToSec1Point<Self>>
  + elliptic_curve::Curve<FieldBytesSize: ModulusSize>
{
  /// Bits in the group order `n`.
  const ORDER_BITS: usize;
  /// The curve's name in messages.
  const NAME: &'static str;
}

/// The curves: type, bits of the order, name.
macro_rules! rc_curves {
  ($($t:ty => $bits:expr, $name:expr;)*) => {
    $(impl EcCurve for $t {
      const ORDER_BITS: usize = $bits;
      const NAME: &'static str = $name;
    })*
  };
}

rc_curves! {
  p256::NistP256 => 256, "P-256";
  p384::NistP384 => 384, "P-384";
  p521::NistP521 => 521, "P-521";
  k256::Secp256k1 => 256, "secp256k1";
}

/// Bytes of a scalar / field element (RustCrypto's `FieldBytes`).
pub fn scalar_len<C: EcCurve>() -> usize {
  FieldBytes::<C>::default().len()
}

fn bad_key(name: &str, expected: String, got: impl std::fmt::Display) -> CryptoError {
  CryptoError::invalid_value(name, expected, got)
}

/// A private scalar: exactly the curve's length, in [1, n−1].
pub fn private_scalar<C: EcCurve>(d: &[u8], name: &str) -> CryptoResult<NonZeroScalar<C>> {
  let n = scalar_len::<C>();
  if d.len() != n {
    return Err(bad_key(
      name,
      format!("a {n}-byte {} private key", C::NAME),
      format!("{} bytes", d.len()),
    ));
  }
  let mut repr = Zeroizing::new(FieldBytes::<C>::default());
  repr.copy_from_slice(d);
  Option::from(NonZeroScalar::<C>::from_repr(*repr)).ok_or_else(|| {
    bad_key(
      name,
      format!("a {} private key in [1, n-1]", C::NAME),
      "0 or a value >= n",
    )
  })
}

/// A uniformly random scalar in [1, n−1] (rejection sampling on the order's bit length).
pub fn random_scalar<C: EcCurve>() -> CryptoResult<Zeroizing<NonZeroScalar<C>>> {
  let n = scalar_len::<C>();
  let top_bits = C::ORDER_BITS - 8 * (n - 1);
  let mut repr = Zeroizing::new(FieldBytes::<C>::default());
  loop {
    crate::random::fill(&mut repr)?;
    repr[0] &= ((1u16 << top_bits) - 1) as u8;
    if let Some(k) = Option::from(NonZeroScalar::<C>::from_repr(*repr)) {
      return Ok(Zeroizing::new(k));
    }
  }
}

/// A SEC1 point (compressed or uncompressed) on the curve, not the identity.
pub fn public_point<C: EcCurve>(q: &[u8], name: &str) -> CryptoResult<AffinePoint<C>> {
  let n = scalar_len::<C>();
  let shape_ok = match q.first() {
    Some(4) => q.len() == 1 + 2 * n,
    Some(2 | 3) => q.len() == 1 + n,
    _ => false,
  };
  if !shape_ok {
    return Err(bad_key(
      name,
      format!(
        "a {} public key (SEC1: {} bytes uncompressed or {} compressed)",
        C::NAME,
        1 + 2 * n,
        1 + n
      ),
      format!("{} bytes", q.len()),
    ));
  }
  elliptic_curve::PublicKey::<C>::from_sec1_bytes(q)
    .map(|p| *p.as_affine())
    .map_err(|_| {
      CryptoError::new(
        Code::InvalidPublicKey,
        format!(
          "The \"{name}\" argument is not a point on {} (or is the point at infinity)",
          C::NAME
        ),
      )
    })
}

/// SEC1 encoding of a point.
pub fn encode_point<C: EcCurve>(p: &AffinePoint<C>, compress: bool) -> Vec<u8> {
  p.to_sec1_point(compress).as_bytes().to_vec()
}

/// `bits2int(z) mod n` as a scalar (SEC1 4.1.3 step 5).
fn digest_scalar<C: EcCurve>(z: &[u8]) -> Scalar<C> {
  let mut fb = FieldBytes::<C>::default();
  bits2int(z, C::ORDER_BITS, &mut fb);
  <Scalar<C> as Reduce<FieldBytes<C>>>::reduce(&fb)
}

/// The per-curve group operations (see the module comment).
pub trait EcBackend<C: EcCurve> {
  /// The affine x-coordinate of `k·G` (constant time in `k`).
  fn base_x(k: &NonZeroScalar<C>) -> CryptoResult<FieldBytes<C>>;
  /// `d·G` as an uncompressed SEC1 point.
  fn public(d: &NonZeroScalar<C>) -> CryptoResult<Vec<u8>>;
  /// Whether (r, s) (scalars, checked non-zero) signs the digest `z` under `q`.
  fn verify(q: &AffinePoint<C>, z: &[u8], r: &NonZeroScalar<C>, s: &NonZeroScalar<C>) -> bool;
  /// The ECDH shared secret: the x-coordinate of `d·Q`.
  fn ecdh(d: &NonZeroScalar<C>, q: &AffinePoint<C>) -> CryptoResult<Zeroizing<Vec<u8>>>;
}

/// Signs the digest `z` (any length) with RFC 6979 nonces drawn with the HMAC of `hash`.
/// Returns (r, s); `low_s` replaces s by n − s when s > n/2.
pub fn sign<C: EcCurve, B: EcBackend<C>>(
  d: &NonZeroScalar<C>,
  z: &[u8],
  hash: Alg,
  low_s: bool,
) -> CryptoResult<(Scalar<C>, Scalar<C>)> {
  let e = digest_scalar::<C>(z);
  let x = Zeroizing::new(d.to_repr());
  let mut nonces = Nonces::new(hash, &x, &e.to_repr(), C::ORDER_BITS)?;
  let mut kb = Zeroizing::new(FieldBytes::<C>::default());
  loop {
    nonces.next(&mut kb)?;
    let Some(k) = Option::<NonZeroScalar<C>>::from(NonZeroScalar::<C>::from_repr(*kb)) else {
      continue;
    };
    let k = Zeroizing::new(k);
    let rx = B::base_x(&k)?;
    let r = <Scalar<C> as Reduce<FieldBytes<C>>>::reduce(&rx);
    // k⁻¹ = b·(k·b)⁻¹ for a random b: the variable-time inversion (3-4x faster than the
    // constant-time one) only ever sees k·b, which is uniformly random and independent of k.
    let blind = random_scalar::<C>()?;
    let kb = Zeroizing::new(*k.as_ref() * blind.as_ref());
    let inv = Option::<Scalar<C>>::from(kb.invert_vartime()).ok_or_else(CryptoError::internal)?;
    let k_inv = Zeroizing::new(inv * blind.as_ref());
    let s = *k_inv * (e + r * d.as_ref());
    if bool::from(r.is_zero()) || bool::from(s.is_zero()) {
      continue;
    }
    let s = if low_s && bool::from(elliptic_curve::scalar::IsHigh::is_high(&s)) {
      -s
    } else {
      s
    };
    return Ok((r, s));
  }
}

/// Parses r and s (big-endian, any length up to the scalar size after leading zeros) as
/// scalars in [1, n−1]; `None` when either is out of range.
pub fn sig_scalars<C: EcCurve>(r: &[u8], s: &[u8]) -> Option<(NonZeroScalar<C>, NonZeroScalar<C>)> {
  let one = |v: &[u8]| -> Option<NonZeroScalar<C>> {
    let n = scalar_len::<C>();
    let v = &v[v.iter().take_while(|&&b| b == 0).count()..];
    if v.len() > n {
      return None;
    }
    let mut repr = FieldBytes::<C>::default();
    repr[n - v.len()..].copy_from_slice(v);
    NonZeroScalar::<C>::from_repr(repr).into()
  };
  Some((one(r)?, one(s)?))
}

/// Everything in RustCrypto (secp256k1: k256's precomputed-table `k·G`).
pub struct EcRustCrypto;

impl<C: EcCurve> EcBackend<C> for EcRustCrypto {
  fn base_x(k: &NonZeroScalar<C>) -> CryptoResult<FieldBytes<C>> {
    Ok(
      ProjectivePoint::<C>::mul_by_generator(k.as_ref())
        .to_affine()
        .x(),
    )
  }

  fn public(d: &NonZeroScalar<C>) -> CryptoResult<Vec<u8>> {
    let p = ProjectivePoint::<C>::mul_by_generator(d.as_ref()).to_affine();
    Ok(encode_point::<C>(&p, false))
  }

  fn verify(q: &AffinePoint<C>, z: &[u8], r: &NonZeroScalar<C>, s: &NonZeroScalar<C>) -> bool {
    let e = digest_scalar::<C>(z);
    let s_inv: Scalar<C> = s.invert().into();
    let (u1, u2) = (e * s_inv, *r.as_ref() * s_inv);
    let p = ProjectivePoint::<C>::mul_by_generator_and_mul_add_vartime(
      &u1,
      &u2,
      &ProjectivePoint::<C>::from(*q),
    );
    if bool::from(p.is_identity()) {
      return false;
    }
    let x = p.to_affine().x();
    <Scalar<C> as Reduce<FieldBytes<C>>>::reduce(&x) == *r.as_ref()
  }

  fn ecdh(d: &NonZeroScalar<C>, q: &AffinePoint<C>) -> CryptoResult<Zeroizing<Vec<u8>>> {
    let p = (ProjectivePoint::<C>::from(*q) * d.as_ref()).to_affine();
    Ok(Zeroizing::new(p.x().to_vec()))
  }
}

/// AWS-LC's algorithms for one NIST curve.
pub trait AwsLcCurve {
  /// The curve for AWS-LC's bare scalar multiplications (`awslc::ec_mul`).
  const CURVE: NistCurve;
  /// ECDSA verification, fixed-size r‖s signatures, with a digest of [`AwsLcCurve::DIGEST`].
  const VERIFY: &'static signature::EcdsaVerificationAlgorithm;
  /// A digest algorithm whose length is at least the order's bytes (P-521: 64 < 66, enough
  /// for every hash here), so a prepared digest is never truncated again.
  const DIGEST: &'static digest::Algorithm;
}

impl AwsLcCurve for p256::NistP256 {
  const CURVE: NistCurve = NistCurve::P256;
  const VERIFY: &'static signature::EcdsaVerificationAlgorithm =
    &signature::ECDSA_P256_SHA256_FIXED;
  const DIGEST: &'static digest::Algorithm = &digest::SHA256;
}
impl AwsLcCurve for p384::NistP384 {
  const CURVE: NistCurve = NistCurve::P384;
  const VERIFY: &'static signature::EcdsaVerificationAlgorithm =
    &signature::ECDSA_P384_SHA384_FIXED;
  const DIGEST: &'static digest::Algorithm = &digest::SHA384;
}
impl AwsLcCurve for p521::NistP521 {
  const CURVE: NistCurve = NistCurve::P521;
  const VERIFY: &'static signature::EcdsaVerificationAlgorithm =
    &signature::ECDSA_P521_SHA512_FIXED;
  const DIGEST: &'static digest::Algorithm = &digest::SHA512;
}

/// AWS-LC for the scalar multiplications and verification; RustCrypto for the scalar field.
pub struct EcAwsLc;

impl<C: EcCurve + AwsLcCurve> EcBackend<C> for EcAwsLc {
  fn base_x(k: &NonZeroScalar<C>) -> CryptoResult<FieldBytes<C>> {
    let k = Zeroizing::new(k.to_repr());
    let mut x = FieldBytes::<C>::default();
    if !awslc::ec_mul(C::CURVE, &k, None, &mut x, None) {
      return Err(CryptoError::internal());
    }
    Ok(x)
  }

  fn public(d: &NonZeroScalar<C>) -> CryptoResult<Vec<u8>> {
    let n = scalar_len::<C>();
    let d = Zeroizing::new(d.to_repr());
    let mut point = vec![4u8; 1 + 2 * n];
    let (x, y) = point[1..].split_at_mut(n);
    if !awslc::ec_mul(C::CURVE, &d, None, x, Some(y)) {
      return Err(CryptoError::internal());
    }
    Ok(point)
  }

  fn verify(q: &AffinePoint<C>, z: &[u8], r: &NonZeroScalar<C>, s: &NonZeroScalar<C>) -> bool {
    // The digest, truncated to the order's bits (left-padded to the order's bytes): the same
    // integer in DIGEST's length (the dropped leading bytes are zero: no hash here is longer
    // than 64 bytes), which AWS-LC then uses unchanged.
    let dl = C::DIGEST.output_len();
    let mut fb = FieldBytes::<C>::default();
    bits2int(z, C::ORDER_BITS, &mut fb);
    let Ok(digest) = digest::Digest::import_less_safe(&fb[fb.len() - dl..], C::DIGEST) else {
      return false;
    };
    let mut sig = r.to_repr().to_vec();
    sig.extend_from_slice(&s.to_repr());
    let q = encode_point::<C>(q, false);
    C::VERIFY.verify_digest_sig(&q, &digest, &sig).is_ok()
  }

  fn ecdh(d: &NonZeroScalar<C>, q: &AffinePoint<C>) -> CryptoResult<Zeroizing<Vec<u8>>> {
    let peer = encode_point::<C>(q, false);
    let d = Zeroizing::new(d.to_repr());
    let mut x = Zeroizing::new(vec![0u8; scalar_len::<C>()]);
    if !awslc::ec_mul(C::CURVE, &d, Some(&peer), &mut x, None) {
      return Err(CryptoError::internal());
    }
    Ok(x)
  }
}

#[cfg(test)]
mod tests {
  use super::*;

  /// AWS-LC's multiplications (`awslc::ec_mul`) against RustCrypto's generic ones, an independent
  /// implementation, on random scalars and points of every NIST curve.
  fn same_as_rustcrypto<C: EcCurve + AwsLcCurve>() {
    for _ in 0..16 {
      let d = random_scalar::<C>().unwrap();
      let k = random_scalar::<C>().unwrap();
      assert_eq!(
        <EcAwsLc as EcBackend<C>>::base_x(&k).unwrap(),
        <EcRustCrypto as EcBackend<C>>::base_x(&k).unwrap()
      );
      let public = <EcAwsLc as EcBackend<C>>::public(&d).unwrap();
      assert_eq!(public, <EcRustCrypto as EcBackend<C>>::public(&d).unwrap());
      let q = public_point::<C>(&public, "q").unwrap();
      assert_eq!(
        *<EcAwsLc as EcBackend<C>>::ecdh(&k, &q).unwrap(),
        *<EcRustCrypto as EcBackend<C>>::ecdh(&k, &q).unwrap()
      );
    }
  }

  #[test]
  fn aws_lc_multiplications_match_rustcrypto() {
    same_as_rustcrypto::<p256::NistP256>();
    same_as_rustcrypto::<p384::NistP384>();
    same_as_rustcrypto::<p521::NistP521>();
  }

  #[test]
  fn aws_lc_refuses_a_point_off_the_curve() {
    let mut q = vec![4u8; 65];
    q[64] ^= 1;
    let mut x = [0u8; 32];
    assert!(!awslc::ec_mul(
      NistCurve::P256,
      &[1u8; 32],
      Some(&q),
      &mut x,
      None
    ));
  }
}
