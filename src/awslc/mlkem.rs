//! ML-KEM (FIPS 203) and X25519, for the KEMs of `pk/kem.rs`.
//!
//! AWS-LC's ML-KEM is mlkem-native (formally verified C, with AVX2 and AArch64 assembly chosen at
//! run time). Its derandomized entry points (key generation from d‖z, encapsulation from m),
//! which the known-answer tests and X-Wing need, are exported by the library but not declared in
//! aws-lc-sys's public bindings: they are declared here under AWS-LC's versioned symbol prefix
//! (`symbol!`). They return 0 on success (the reverse of AWS-LC's usual convention).
//!
//! What they check, as FIPS 203 asks: encapsulation refuses an encapsulation key with a
//! coefficient >= q (the modulus check, §7.2); decapsulation refuses a decapsulation key whose
//! stored H(ek) is not the hash of its ek (the hash check, §7.3), and then compares the
//! re-encrypted ciphertext in constant time (implicit rejection: a wrong ciphertext gives
//! J(z‖c), never an error).

use std::ffi::c_int;

use aws_lc_sys as sys;
use zeroize::Zeroizing;

type KemKeypair =
  unsafe extern "C" fn(*mut u8, *mut usize, *mut u8, *mut usize, *const u8) -> c_int;
type KemEncaps =
  unsafe extern "C" fn(*mut u8, *mut usize, *mut u8, *mut usize, *const u8, *const u8) -> c_int;
type KemDecaps = unsafe extern "C" fn(*mut u8, *mut usize, *const u8, *const u8) -> c_int;
type KemCheck = unsafe extern "C" fn(*const u8, usize) -> c_int;

/// One ML-KEM parameter set: its sizes and AWS-LC's functions for it.
pub struct MlKem {
  pub public_len: usize,
  pub private_len: usize,
  pub ciphertext_len: usize,
  keypair: KemKeypair,
  encaps: KemEncaps,
  decaps: KemDecaps,
  check_pk: KemCheck,
  check_sk: KemCheck,
}

/// `pub static $name: MlKem` for the set `ml_kem_$k_*` with its sizes.
macro_rules! ml_kem_set {
  ($name:ident, $k:literal, $pk:literal, $sk:literal, $ct:literal) => {
    pub const $name: MlKem = {
      extern "C" {
        #[link_name = symbol!("ml_kem_", $k, "_keypair_deterministic")]
        fn keypair(
          pk: *mut u8,
          pk_len: *mut usize,
          sk: *mut u8,
          sk_len: *mut usize,
          seed: *const u8,
        ) -> c_int;
        #[link_name = symbol!("ml_kem_", $k, "_encapsulate_deterministic")]
        fn encaps(
          ct: *mut u8,
          ct_len: *mut usize,
          ss: *mut u8,
          ss_len: *mut usize,
          pk: *const u8,
          m: *const u8,
        ) -> c_int;
        #[link_name = symbol!("ml_kem_", $k, "_decapsulate")]
        fn decaps(ss: *mut u8, ss_len: *mut usize, ct: *const u8, sk: *const u8) -> c_int;
        #[link_name = symbol!("ml_kem_", $k, "_check_pk")]
        fn check_pk(pk: *const u8, len: usize) -> c_int;
        #[link_name = symbol!("ml_kem_", $k, "_check_sk")]
        fn check_sk(sk: *const u8, len: usize) -> c_int;
      }
      MlKem {
        public_len: $pk,
        private_len: $sk,
        ciphertext_len: $ct,
        keypair,
        encaps,
        decaps,
        check_pk,
        check_sk,
      }
    };
  };
}

ml_kem_set!(ML_KEM_512, "512", 800, 1632, 768);
ml_kem_set!(ML_KEM_768, "768", 1184, 2400, 1088);
ml_kem_set!(ML_KEM_1024, "1024", 1568, 3168, 1568);

/// ML-KEM's shared secret length.
const ML_KEM_SHARED: usize = 32;

impl MlKem {
  /// `(ek, dk)` from the 64-byte seed d‖z (ML-KEM.KeyGen_internal).
  pub fn keypair(&self, seed: &[u8; 64]) -> (Vec<u8>, Zeroizing<Vec<u8>>) {
    let mut pk = vec![0u8; self.public_len];
    let mut sk = Zeroizing::new(vec![0u8; self.private_len]);
    let (mut pk_len, mut sk_len) = (pk.len(), sk.len());
    // SAFETY: `pk` and `sk` are writable for the lengths passed (which the function checks
    // against the set's sizes); `seed` is 64 readable bytes, all the function reads.
    let ret = unsafe {
      (self.keypair)(
        pk.as_mut_ptr(),
        &mut pk_len,
        sk.as_mut_ptr(),
        &mut sk_len,
        seed.as_ptr(),
      )
    };
    // Key generation from a seed cannot fail (no allocation, no randomness; the buffers fit).
    assert!(ret == 0 && pk_len == pk.len() && sk_len == sk.len());
    (pk, sk)
  }

  /// `(c, K)` = ML-KEM.Encaps_internal(ek, m); `None` when `ek` fails the modulus check or is
  /// not `public_len` bytes.
  pub fn encapsulate(
    &self,
    ek: &[u8],
    m: &[u8; 32],
  ) -> Option<(Vec<u8>, Zeroizing<[u8; ML_KEM_SHARED]>)> {
    if ek.len() != self.public_len {
      return None;
    }
    let mut ct = vec![0u8; self.ciphertext_len];
    let mut ss = Zeroizing::new([0u8; ML_KEM_SHARED]);
    let (mut ct_len, mut ss_len) = (ct.len(), ss.len());
    // SAFETY: `ek` is `public_len` readable bytes (checked above), `m` 32; the outputs are
    // writable for the lengths passed, which the function checks.
    let ret = unsafe {
      (self.encaps)(
        ct.as_mut_ptr(),
        &mut ct_len,
        ss.as_mut_ptr(),
        &mut ss_len,
        ek.as_ptr(),
        m.as_ptr(),
      )
    };
    (ret == 0).then_some((ct, ss))
  }

  /// K = ML-KEM.Decaps_internal(dk, c) (a wrong `c` gives the implicit-rejection secret);
  /// `None` when `dk` fails the hash check or a length is wrong.
  pub fn decapsulate(&self, dk: &[u8], ct: &[u8]) -> Option<Zeroizing<[u8; ML_KEM_SHARED]>> {
    if dk.len() != self.private_len || ct.len() != self.ciphertext_len {
      return None;
    }
    let mut ss = Zeroizing::new([0u8; ML_KEM_SHARED]);
    let mut ss_len = ss.len();
    // SAFETY: `ct` and `dk` have the set's lengths (checked above); `ss` is writable for the
    // length passed.
    let ret = unsafe { (self.decaps)(ss.as_mut_ptr(), &mut ss_len, ct.as_ptr(), dk.as_ptr()) };
    (ret == 0).then_some(ss)
  }

  /// The modulus check of an encapsulation key (FIPS 203 §7.2).
  pub fn check_public(&self, ek: &[u8]) -> bool {
    // SAFETY: the function reads `len` bytes of `ek` after checking `len` is the set's length.
    ek.len() == self.public_len && unsafe { (self.check_pk)(ek.as_ptr(), ek.len()) } == 0
  }

  /// The hash check of a decapsulation key (FIPS 203 §7.3: H(ek) as stored).
  pub fn check_private(&self, dk: &[u8]) -> bool {
    // SAFETY: as `check_public`.
    dk.len() == self.private_len && unsafe { (self.check_sk)(dk.as_ptr(), dk.len()) } == 0
  }
}

/// X25519(k, u) of RFC 7748, with no check of the result (X-Wing computes it as its
/// specification does: an all-zero result from a low-order point is used as it is).
pub fn x25519(k: &[u8; 32], u: &[u8; 32]) -> Zeroizing<[u8; 32]> {
  let mut out = Zeroizing::new([0u8; 32]);
  // SAFETY: three 32-byte buffers, as the function reads and writes. Its return value only
  // says whether the result is all zeros, which is deliberately not checked here.
  let _ = unsafe { sys::X25519(out.as_mut_ptr(), k.as_ptr(), u.as_ptr()) };
  out
}

/// X25519(k, 9): the public key of `k`.
pub fn x25519_base(k: &[u8; 32]) -> [u8; 32] {
  let mut out = [0u8; 32];
  // SAFETY: two 32-byte buffers, as the function reads and writes.
  unsafe { sys::X25519_public_from_private(out.as_mut_ptr(), k.as_ptr()) };
  out
}
