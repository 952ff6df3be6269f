//! Scalar multiplication on the NIST curves for `pk/ec.rs`. aws-lc-rs's
//! `agreement::PrivateKey::from_private_key` builds an `EC_KEY` and always computes its public key
//! (one more fixed-base multiplication) before an ECDH can run, and its ECDSA signer cannot take an
//! RFC 6979 nonce. [`ec_mul`] calls `EC_POINT_mul` directly: AWS-LC's constant-time fixed-base
//! and variable-base multiplications of each curve, nothing else.

use std::ptr;

use aws_lc_sys as sys;

use super::{ok, Owned};

/// The NIST curves AWS-LC multiplies on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NistCurve {
  P256,
  P384,
  P521,
}

impl NistCurve {
  fn group(self) -> *const sys::EC_GROUP {
    // SAFETY: the getters take nothing and return static groups that live for the whole process
    // (AWS-LC never frees them).
    unsafe {
      match self {
        NistCurve::P256 => sys::EC_group_p256(),
        NistCurve::P384 => sys::EC_group_p384(),
        NistCurve::P521 => sys::EC_group_p521(),
      }
    }
  }
}

fn point(group: *const sys::EC_GROUP) -> Option<Owned<sys::EC_POINT>> {
  // SAFETY: `group` is a static group (`NistCurve::group`).
  Owned::new(unsafe { sys::EC_POINT_new(group) })
}

fn bignum() -> Option<Owned<sys::BIGNUM>> {
  // SAFETY: allocation only.
  Owned::new(unsafe { sys::BN_new() })
}

/// The big-endian affine coordinates of `k·Q` (of `k·G` when `q` is `None`): x into `x`, and y
/// into `y` when given (each the curve's field length). `k` is a big-endian scalar in [1, n−1]
/// and `q` a SEC1 point, which AWS-LC checks to be on the curve; both multiplications run in
/// constant time in `k`. `false` when AWS-LC refuses an input (nothing meaningful is left in the
/// outputs then). Every `BIGNUM` and point is wiped when freed (`Owned`).
pub fn ec_mul(
  curve: NistCurve,
  k: &[u8],
  q: Option<&[u8]>,
  x: &mut [u8],
  y: Option<&mut [u8]>,
) -> bool {
  let group = curve.group();
  // SAFETY: `k` is a valid slice for the call; a null `ret` asks for a new BIGNUM.
  let k = Owned::new(unsafe { sys::BN_bin2bn(k.as_ptr(), k.len(), ptr::null_mut()) });
  let (Some(k), Some(r), Some(xb), Some(yb)) = (k, point(group), bignum(), bignum()) else {
    return false;
  };
  let peer = match q {
    None => None,
    Some(q) => {
      let Some(p) = point(group) else {
        return false;
      };
      // SAFETY: `p` is a live point of `group`; `q` is a valid slice for the call.
      let parsed =
        unsafe { sys::EC_POINT_oct2point(group, p.ptr(), q.as_ptr(), q.len(), ptr::null_mut()) };
      if !ok(parsed) {
        return false;
      }
      Some(p)
    }
  };
  let (g_scalar, at, p_scalar) = match &peer {
    None => (k.ptr().cast_const(), ptr::null(), ptr::null()),
    Some(p) => (ptr::null(), p.ptr().cast_const(), k.ptr().cast_const()),
  };
  // SAFETY: every pointer is a live object of this call or null where EC_POINT_mul allows it
  // (one scalar, with the point when it is the point's); a null BN_CTX makes it allocate its own.
  ok(unsafe { sys::EC_POINT_mul(group, r.ptr(), g_scalar, at, p_scalar, ptr::null_mut()) })
    // SAFETY: `r`, `xb` and `yb` are live; a null y asks for x only.
    && ok(unsafe {
      let yp = if y.is_some() { yb.ptr() } else { ptr::null_mut() };
      sys::EC_POINT_get_affine_coordinates_GFp(group, r.ptr(), xb.ptr(), yp, ptr::null_mut())
    })
    && into(&xb, x)
    && y.is_none_or(|y| into(&yb, y))
}

/// `n` big-endian, left-padded with zeros to all of `out`; `false` if it does not fit.
fn into(n: &Owned<sys::BIGNUM>, out: &mut [u8]) -> bool {
  // SAFETY: `n` is live and `out` a writable slice of `out.len()` bytes.
  ok(unsafe { sys::BN_bn2bin_padded(out.as_mut_ptr(), out.len(), n.ptr()) })
}
