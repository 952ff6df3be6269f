//! ML-DSA (FIPS 204), for `pk/mldsa.rs`.
//!
//! AWS-LC's ML-DSA is mldsa-native (formally verified C, constant-time by design and tested so,
//! AVX2 and AArch64 code chosen at run time). The entry points the known answers and the
//! deterministic mode need (key generation from ξ, signing with an explicit rnd and the prefix
//! `0 ‖ |ctx| ‖ ctx`, the public key of an expanded private key) are exported by the library but
//! not declared in aws-lc-sys's public bindings: they are declared here under AWS-LC's versioned
//! symbol prefix (`symbol!`). They return 1 on success (AWS-LC's convention; ML-KEM's are the reverse).
//!
//! `pack_pk_from_sk` checks the expanded key it is given: s1 and s2 in [−η, η], t0 and tr those
//! the key's ρ, s1 and s2 give; anything else is refused.

use std::ffi::c_int;

use zeroize::Zeroizing;

use super::ok;

type DsaKeypair = unsafe extern "C" fn(*mut u8, *mut u8, *const u8) -> c_int;
type DsaSign = unsafe extern "C" fn(
  *const u8,
  *mut u8,
  *mut usize,
  *const u8,
  usize,
  *const u8,
  usize,
  *const u8,
) -> c_int;
type DsaVerify =
  unsafe extern "C" fn(*const u8, *const u8, usize, *const u8, usize, *const u8, usize) -> c_int;
type DsaPublic = unsafe extern "C" fn(*mut u8, *const u8) -> c_int;

/// One ML-DSA parameter set: its sizes and AWS-LC's functions for it.
pub struct MlDsaFns {
  pub public_len: usize,
  pub private_len: usize,
  pub signature_len: usize,
  keypair: DsaKeypair,
  sign: DsaSign,
  verify: DsaVerify,
  public: DsaPublic,
}

/// `pub const $name: MlDsaFns` for the set `ml_dsa_$k_*` with its sizes.
macro_rules! ml_dsa_set {
  ($name:ident, $k:literal, $pk:literal, $sk:literal, $sig:literal) => {
    pub const $name: MlDsaFns = {
      extern "C" {
        #[link_name = symbol!("ml_dsa_", $k, "_keypair_internal")]
        fn keypair(pk: *mut u8, sk: *mut u8, seed: *const u8) -> c_int;
        #[link_name = symbol!("ml_dsa_", $k, "_sign_internal")]
        fn sign(
          sk: *const u8,
          sig: *mut u8,
          sig_len: *mut usize,
          msg: *const u8,
          msg_len: usize,
          pre: *const u8,
          pre_len: usize,
          rnd: *const u8,
        ) -> c_int;
        #[link_name = symbol!("ml_dsa_", $k, "_verify")]
        fn verify(
          pk: *const u8,
          sig: *const u8,
          sig_len: usize,
          msg: *const u8,
          msg_len: usize,
          ctx: *const u8,
          ctx_len: usize,
        ) -> c_int;
        #[link_name = symbol!("ml_dsa_", $k, "_pack_pk_from_sk")]
        fn public(pk: *mut u8, sk: *const u8) -> c_int;
      }
      MlDsaFns {
        public_len: $pk,
        private_len: $sk,
        signature_len: $sig,
        keypair,
        sign,
        verify,
        public,
      }
    };
  };
}

ml_dsa_set!(ML_DSA_44, "44", 1312, 2560, 2420);
ml_dsa_set!(ML_DSA_65, "65", 1952, 4032, 3309);
ml_dsa_set!(ML_DSA_87, "87", 2592, 4896, 4627);

impl MlDsaFns {
  /// `(pk, sk)` = ML-DSA.KeyGen_internal(ξ).
  pub fn keypair(&self, seed: &[u8; 32]) -> (Vec<u8>, Zeroizing<Vec<u8>>) {
    let mut pk = vec![0u8; self.public_len];
    let mut sk = Zeroizing::new(vec![0u8; self.private_len]);
    // SAFETY: `pk` and `sk` are writable for the set's sizes, all the function writes; `seed` is
    // the 32 bytes it reads.
    let ret = unsafe { (self.keypair)(pk.as_mut_ptr(), sk.as_mut_ptr(), seed.as_ptr()) };
    // Key generation from a seed cannot fail (no allocation failure short of out-of-memory).
    assert!(ok(ret), "ML-DSA key generation failed");
    (pk, sk)
  }

  /// ML-DSA.Sign_internal(sk, M′ = `pre` ‖ `msg`, rnd); `None` when AWS-LC gives up (its bound
  /// on rejection-sampling attempts, never reached by a well-formed key). `sk` must be
  /// `private_len` bytes.
  pub fn sign(&self, sk: &[u8], msg: &[u8], pre: &[u8], rnd: &[u8; 32]) -> Option<Vec<u8>> {
    assert_eq!(sk.len(), self.private_len);
    let mut sig = vec![0u8; self.signature_len];
    let mut len = 0usize;
    // SAFETY: `sk` is `private_len` readable bytes (asserted), `sig` writable for the set's
    // signature size (what the function writes), `msg` / `pre` readable for their lengths, `rnd`
    // 32 bytes.
    let ret = unsafe {
      (self.sign)(
        sk.as_ptr(),
        sig.as_mut_ptr(),
        &mut len,
        msg.as_ptr(),
        msg.len(),
        pre.as_ptr(),
        pre.len(),
        rnd.as_ptr(),
      )
    };
    (ok(ret) && len == sig.len()).then_some(sig)
  }

  /// ML-DSA.Verify(pk, M, σ, ctx) (pure); false for anything invalid. `pk` must be `public_len`
  /// bytes.
  pub fn verify(&self, pk: &[u8], msg: &[u8], ctx: &[u8], sig: &[u8]) -> bool {
    assert_eq!(pk.len(), self.public_len);
    // SAFETY: every pointer is readable for the length passed with it (`pk` for the set's
    // public key size, asserted).
    ok(unsafe {
      (self.verify)(
        pk.as_ptr(),
        sig.as_ptr(),
        sig.len(),
        msg.as_ptr(),
        msg.len(),
        ctx.as_ptr(),
        ctx.len(),
      )
    })
  }

  /// The public key of an expanded private key; `None` when the key is not consistent.
  pub fn public_of(&self, sk: &[u8]) -> Option<Vec<u8>> {
    assert_eq!(sk.len(), self.private_len);
    let mut pk = vec![0u8; self.public_len];
    // SAFETY: `pk` is writable for the set's public key size, `sk` readable for its private key
    // size (asserted).
    ok(unsafe { (self.public)(pk.as_mut_ptr(), sk.as_ptr()) }).then_some(pk)
  }
}
