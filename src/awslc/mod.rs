//! The raw AWS-LC calls RSA needs where aws-lc-rs's safe API lacks a parameter (PSS salt length
//! and MGF1 hash, OAEP with an MGF1 hash other than the label hash, keys under 2048 bits, modulus
//! lengths other than 2048/3072/4096/8192, cancellable key generation). This is the only module
//! besides `js/` and `arch.rs` allowed `unsafe`: every FFI call sits behind a small safe function
//! whose `// SAFETY:` comment states the invariant it relies on, and every AWS-LC object is owned
//! by an RAII wrapper that frees it.
//!
//! Every AWS-LC failure clears the thread's error queue (AWS-LC pushes one entry per failure;
//! nothing reads them here) and becomes `None` / `false`: the callers (`pk/rsa.rs`) turn that
//! into one error per operation, which for OAEP decryption is deliberately the same for every
//! cause (no padding oracle: AWS-LC's OAEP check is constant-time and reports one error).

use std::ffi::{c_int, c_void};
use std::ptr::{self, NonNull};

use aws_lc_sys as sys;
use zeroize::Zeroizing;

use crate::hash::list::Alg;

fn clear_errors() {
  // SAFETY: no arguments; clears this thread's AWS-LC error queue.
  unsafe { sys::ERR_clear_error() }
}

/// `ret == 1` (AWS-LC's success), clearing the error queue otherwise.
fn ok(ret: c_int) -> bool {
  if ret == 1 {
    true
  } else {
    clear_errors();
    false
  }
}

/// A digest AWS-LC knows, by our hash id: the one list of the hashes RSA accepts.
#[derive(Clone, Copy)]
pub struct Md(NonNull<sys::EVP_MD>);

impl Md {
  pub fn of(alg: Alg) -> Option<Md> {
    // SAFETY: the EVP_* digest getters take nothing and return pointers to static tables that
    // live for the whole process (never freed).
    let p = unsafe {
      match alg {
        Alg::Sha1 => sys::EVP_sha1(),
        Alg::Sha224 => sys::EVP_sha224(),
        Alg::Sha256 => sys::EVP_sha256(),
        Alg::Sha384 => sys::EVP_sha384(),
        Alg::Sha512 => sys::EVP_sha512(),
        Alg::Sha512_224 => sys::EVP_sha512_224(),
        Alg::Sha512_256 => sys::EVP_sha512_256(),
        Alg::Sha3_224 => sys::EVP_sha3_224(),
        Alg::Sha3_256 => sys::EVP_sha3_256(),
        Alg::Sha3_384 => sys::EVP_sha3_384(),
        Alg::Sha3_512 => sys::EVP_sha3_512(),
        _ => return None,
      }
    };
    NonNull::new(p.cast_mut()).map(Md)
  }

  fn ptr(self) -> *const sys::EVP_MD {
    self.0.as_ptr()
  }

  pub fn size(self) -> usize {
    // SAFETY: a static EVP_MD (see `of`).
    unsafe { sys::EVP_MD_size(self.ptr()) }
  }

  fn nid(self) -> c_int {
    // SAFETY: a static EVP_MD (see `of`).
    unsafe { sys::EVP_MD_type(self.ptr()) }
  }
}

/// An AWS-LC `RSA` (public, or private with its CRT values), freed on drop.
pub struct Rsa(NonNull<sys::RSA>);

// SAFETY: AWS-LC documents RSA objects as safe to use from several threads at once once built:
// the only state they change after construction (Montgomery contexts, blinding) is computed
// lazily under the object's own lock. This wrapper exposes no mutation of the key.
unsafe impl Send for Rsa {}
// SAFETY: as for Send: concurrent sign/verify/decrypt on one RSA object is supported by AWS-LC.
unsafe impl Sync for Rsa {}

impl Drop for Rsa {
  fn drop(&mut self) {
    // SAFETY: we own the one reference this wrapper holds; RSA_free wipes the private values.
    unsafe { sys::RSA_free(self.0.as_ptr()) }
  }
}

/// Copies and frees a buffer AWS-LC allocated (OPENSSL_free wipes it).
fn take_bytes(p: *mut u8, len: usize) -> Zeroizing<Vec<u8>> {
  if p.is_null() {
    return Zeroizing::new(Vec::new());
  }
  // SAFETY: `p` points to `len` initialised bytes AWS-LC allocated for us; we copy them and
  // free the allocation exactly once.
  let out = Zeroizing::new(unsafe { std::slice::from_raw_parts(p, len) }.to_vec());
  // SAFETY: `p` came from OPENSSL_malloc (via *_to_bytes) and is not used after this.
  unsafe { sys::OPENSSL_free(p.cast()) };
  out
}

/// The progress callback of key generation: returns 0 (abort) once `keep_going` says stop.
unsafe extern "C" fn keygen_progress(_event: c_int, _n: c_int, cb: *mut sys::BN_GENCB) -> c_int {
  // SAFETY: `cb` is the BN_GENCB `Rsa::generate` set up with `arg` pointing to a live
  // `&dyn Fn() -> bool` on its stack for the duration of RSA_generate_key_ex.
  let f = unsafe { &*(sys::BN_GENCB_get_arg(cb) as *const &dyn Fn() -> bool) };
  f() as c_int
}

struct Gencb(NonNull<sys::BN_GENCB>);

impl Drop for Gencb {
  fn drop(&mut self) {
    // SAFETY: allocated by BN_GENCB_new, freed once.
    unsafe { sys::BN_GENCB_free(self.0.as_ptr()) }
  }
}

struct Bn(NonNull<sys::BIGNUM>);

impl Drop for Bn {
  fn drop(&mut self) {
    // SAFETY: allocated by BN_new, freed once.
    unsafe { sys::BN_free(self.0.as_ptr()) }
  }
}

impl Rsa {
  fn from_raw(p: *mut sys::RSA) -> Option<Rsa> {
    match NonNull::new(p) {
      Some(p) => Some(Rsa(p)),
      None => {
        clear_errors();
        None
      }
    }
  }

  fn ptr(&self) -> *mut sys::RSA {
    self.0.as_ptr()
  }

  /// A PKCS#1 RSAPrivateKey (DER), checked for consistency (RSA_check_key: p·q = n, d, CRT).
  pub fn private_from_der(der: &[u8]) -> Option<Rsa> {
    // SAFETY: `der` is a valid slice for the call; AWS-LC copies what it keeps.
    let rsa = Rsa::from_raw(unsafe { sys::RSA_private_key_from_bytes(der.as_ptr(), der.len()) })?;
    // SAFETY: `rsa` is a live RSA object.
    ok(unsafe { sys::RSA_check_key(rsa.ptr()) }).then_some(rsa)
  }

  /// A PKCS#1 RSAPublicKey (DER).
  pub fn public_from_der(der: &[u8]) -> Option<Rsa> {
    // SAFETY: `der` is a valid slice for the call; AWS-LC copies what it keeps.
    Rsa::from_raw(unsafe { sys::RSA_public_key_from_bytes(der.as_ptr(), der.len()) })
  }

  /// A new key of `bits` (a multiple of 128) with public exponent `e`; `keep_going` is polled
  /// during the prime search and stops it (`None`) when it returns false.
  pub fn generate(bits: u32, e: u64, keep_going: &dyn Fn() -> bool) -> Option<Rsa> {
    // SAFETY: allocation only.
    let rsa = Rsa::from_raw(unsafe { sys::RSA_new() })?;
    // SAFETY: allocation only.
    let bn = Bn(NonNull::new(unsafe { sys::BN_new() })?);
    // SAFETY: `bn` is a live BIGNUM.
    if !ok(unsafe { sys::BN_set_u64(bn.0.as_ptr(), e) }) {
      return None;
    }
    // SAFETY: allocation only.
    let cb = Gencb(NonNull::new(unsafe { sys::BN_GENCB_new() })?);
    let arg: *const &dyn Fn() -> bool = &keep_going;
    // SAFETY: `cb` is live; `arg` points to `keep_going`, which outlives the generation call
    // below, the only place the callback runs.
    unsafe { sys::BN_GENCB_set(cb.0.as_ptr(), Some(keygen_progress), arg as *mut c_void) };
    // SAFETY: all three objects are live; `bits` ≤ 16384 (checked by the caller) fits c_int.
    let generated =
      unsafe { sys::RSA_generate_key_ex(rsa.ptr(), bits as c_int, bn.0.as_ptr(), cb.0.as_ptr()) };
    ok(generated).then_some(rsa)
  }

  /// Bits in the modulus.
  pub fn bits(&self) -> u32 {
    // SAFETY: a live RSA object.
    unsafe { sys::RSA_bits(self.ptr()) }
  }

  /// Bytes in the modulus (the signature and ciphertext length).
  pub fn size(&self) -> usize {
    // SAFETY: a live RSA object.
    unsafe { sys::RSA_size(self.ptr()) as usize }
  }

  /// The PKCS#1 RSAPrivateKey DER.
  pub fn private_der(&self) -> Option<Zeroizing<Vec<u8>>> {
    let (mut p, mut len) = (ptr::null_mut(), 0usize);
    // SAFETY: a live RSA object; on success AWS-LC hands us a buffer we free in `take_bytes`.
    ok(unsafe { sys::RSA_private_key_to_bytes(&mut p, &mut len, self.ptr()) })
      .then(|| take_bytes(p, len))
  }

  /// RSASSA-PSS over a precomputed digest (constant-time, blinded).
  pub fn sign_pss(&self, digest: &[u8], md: Md, mgf1: Md, salt_len: u32) -> Option<Vec<u8>> {
    let mut out = vec![0u8; self.size()];
    let mut len = 0usize;
    // SAFETY: `out` has room for RSA_size bytes (max_out); the digest slice and both static
    // EVP_MDs are valid for the call; `salt_len` ≤ the modulus bytes fits c_int.
    let r = unsafe {
      sys::RSA_sign_pss_mgf1(
        self.ptr(),
        &mut len,
        out.as_mut_ptr(),
        out.len(),
        digest.as_ptr(),
        digest.len(),
        md.ptr(),
        mgf1.ptr(),
        salt_len as c_int,
      )
    };
    ok(r).then(|| {
      out.truncate(len);
      out
    })
  }

  /// RSASSA-PSS verification; `salt_len` None recovers the salt length from the signature.
  pub fn verify_pss(
    &self,
    digest: &[u8],
    md: Md,
    mgf1: Md,
    salt_len: Option<u32>,
    sig: &[u8],
  ) -> bool {
    let salt = salt_len.map_or(sys::RSA_PSS_SALTLEN_AUTO, |s| s as c_int);
    // SAFETY: slices and static EVP_MDs valid for the call.
    ok(unsafe {
      sys::RSA_verify_pss_mgf1(
        self.ptr(),
        digest.as_ptr(),
        digest.len(),
        md.ptr(),
        mgf1.ptr(),
        salt,
        sig.as_ptr(),
        sig.len(),
      )
    })
  }

  /// RSASSA-PKCS1-v1_5 over a precomputed digest (DigestInfo of `md`).
  pub fn sign_pkcs1(&self, digest: &[u8], md: Md) -> Option<Vec<u8>> {
    let mut out = vec![0u8; self.size()];
    let mut len: std::ffi::c_uint = 0;
    // SAFETY: `out` has RSA_size bytes, the size RSA_sign requires; the digest is valid.
    let r = unsafe {
      sys::RSA_sign(
        md.nid(),
        digest.as_ptr(),
        digest.len(),
        out.as_mut_ptr(),
        &mut len,
        self.ptr(),
      )
    };
    ok(r).then(|| {
      out.truncate(len as usize);
      out
    })
  }

  pub fn verify_pkcs1(&self, digest: &[u8], md: Md, sig: &[u8]) -> bool {
    // SAFETY: slices valid for the call.
    ok(unsafe {
      sys::RSA_verify(
        md.nid(),
        digest.as_ptr(),
        digest.len(),
        sig.as_ptr(),
        sig.len(),
        self.ptr(),
      )
    })
  }

  /// RSAES-OAEP: encryption (`decrypt` false) or decryption, with `md` for the label hash and
  /// `mgf1` for the mask.
  pub fn oaep(
    &self,
    decrypt: bool,
    input: &[u8],
    md: Md,
    mgf1: Md,
    label: &[u8],
  ) -> Option<Zeroizing<Vec<u8>>> {
    let ctx = PkeyCtx::new(self)?;
    let c = ctx.0.as_ptr();
    // SAFETY: `c` is a live EVP_PKEY_CTX over an RSA key.
    let init = unsafe {
      if decrypt {
        sys::EVP_PKEY_decrypt_init(c)
      } else {
        sys::EVP_PKEY_encrypt_init(c)
      }
    };
    // SAFETY: `c` is live and initialised; the EVP_MDs are static.
    let set = ok(init)
      && ok(unsafe { sys::EVP_PKEY_CTX_set_rsa_padding(c, sys::RSA_PKCS1_OAEP_PADDING) })
      && ok(unsafe { sys::EVP_PKEY_CTX_set_rsa_oaep_md(c, md.ptr()) })
      && ok(unsafe { sys::EVP_PKEY_CTX_set_rsa_mgf1_md(c, mgf1.ptr()) })
      && ctx.set_label(label);
    if !set {
      return None;
    }
    let mut out = Zeroizing::new(vec![0u8; self.size()]);
    let mut len = out.len();
    // SAFETY: `out` has `len` writable bytes; `input` is valid for the call.
    let r = unsafe {
      if decrypt {
        sys::EVP_PKEY_decrypt(c, out.as_mut_ptr(), &mut len, input.as_ptr(), input.len())
      } else {
        sys::EVP_PKEY_encrypt(c, out.as_mut_ptr(), &mut len, input.as_ptr(), input.len())
      }
    };
    ok(r).then(|| {
      out.truncate(len);
      out
    })
  }
}

/// An EVP_PKEY_CTX over an EVP_PKEY holding (a reference to) an RSA key; frees both.
struct PkeyCtx(NonNull<sys::EVP_PKEY_CTX>, NonNull<sys::EVP_PKEY>);

impl PkeyCtx {
  fn new(rsa: &Rsa) -> Option<PkeyCtx> {
    // SAFETY: allocation only.
    let pkey = NonNull::new(unsafe { sys::EVP_PKEY_new() })?;
    // SAFETY: `pkey` is live; set1 takes its own reference to the RSA object.
    if !ok(unsafe { sys::EVP_PKEY_set1_RSA(pkey.as_ptr(), rsa.ptr()) }) {
      // SAFETY: ours, freed once.
      unsafe { sys::EVP_PKEY_free(pkey.as_ptr()) };
      return None;
    }
    // SAFETY: `pkey` is live; the context takes its own reference to it.
    match NonNull::new(unsafe { sys::EVP_PKEY_CTX_new(pkey.as_ptr(), ptr::null_mut()) }) {
      Some(c) => Some(PkeyCtx(c, pkey)),
      None => {
        clear_errors();
        // SAFETY: ours, freed once.
        unsafe { sys::EVP_PKEY_free(pkey.as_ptr()) };
        None
      }
    }
  }

  /// Sets the OAEP label (a copy AWS-LC owns from then on).
  fn set_label(&self, label: &[u8]) -> bool {
    if label.is_empty() {
      return true;
    }
    // SAFETY: copies `label` into an OPENSSL_malloc'd buffer.
    let copy = unsafe { sys::OPENSSL_memdup(label.as_ptr().cast(), label.len()) }.cast::<u8>();
    if copy.is_null() {
      clear_errors();
      return false;
    }
    // SAFETY: the context is live; on success it owns `copy` (set0), on failure we still do.
    let set = unsafe { sys::EVP_PKEY_CTX_set0_rsa_oaep_label(self.0.as_ptr(), copy, label.len()) };
    if !ok(set) {
      // SAFETY: not taken by the context; freed once.
      unsafe { sys::OPENSSL_free(copy.cast()) };
      return false;
    }
    true
  }
}

impl Drop for PkeyCtx {
  fn drop(&mut self) {
    // SAFETY: both are ours (one reference each), freed once; the context first.
    unsafe {
      sys::EVP_PKEY_CTX_free(self.0.as_ptr());
      sys::EVP_PKEY_free(self.1.as_ptr());
    }
  }
}

// ---- ML-KEM (FIPS 203) and X25519 for the KEMs of `pk/kem.rs` ------------------------------
//
// AWS-LC's ML-KEM is mlkem-native (formally verified C, with AVX2 and AArch64 assembly chosen at
// run time). Its derandomized entry points (key generation from d‖z, encapsulation from m),
// which the known-answer tests and X-Wing need, are exported by the library but not declared in
// aws-lc-sys's public bindings: they are declared here under AWS-LC's symbol prefix, which is
// versioned (`aws_lc_0_47_0_`): an aws-lc-sys upgrade that changes it fails at link time, never
// silently. They return 0 on success (the reverse of AWS-LC's usual convention).
//
// What they check, as FIPS 203 asks: encapsulation refuses an encapsulation key with a
// coefficient >= q (the modulus check, §7.2); decapsulation refuses a decapsulation key whose
// stored H(ek) is not the hash of its ek (the hash check, §7.3), and then compares the
// re-encrypted ciphertext in constant time (implicit rejection: a wrong ciphertext gives
// J(z‖c), never an error).

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
        #[link_name = concat!("aws_lc_0_47_0_ml_kem_", $k, "_keypair_deterministic")]
        fn keypair(
          pk: *mut u8,
          pk_len: *mut usize,
          sk: *mut u8,
          sk_len: *mut usize,
          seed: *const u8,
        ) -> c_int;
        #[link_name = concat!("aws_lc_0_47_0_ml_kem_", $k, "_encapsulate_deterministic")]
        fn encaps(
          ct: *mut u8,
          ct_len: *mut usize,
          ss: *mut u8,
          ss_len: *mut usize,
          pk: *const u8,
          m: *const u8,
        ) -> c_int;
        #[link_name = concat!("aws_lc_0_47_0_ml_kem_", $k, "_decapsulate")]
        fn decaps(ss: *mut u8, ss_len: *mut usize, ct: *const u8, sk: *const u8) -> c_int;
        #[link_name = concat!("aws_lc_0_47_0_ml_kem_", $k, "_check_pk")]
        fn check_pk(pk: *const u8, len: usize) -> c_int;
        #[link_name = concat!("aws_lc_0_47_0_ml_kem_", $k, "_check_sk")]
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
pub const ML_KEM_SHARED: usize = 32;

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

// ---- ML-DSA (FIPS 204) for `pk/mldsa.rs` -------------------------------------------------------
//
// AWS-LC's ML-DSA is mldsa-native (formally verified C, constant-time by design and tested so,
// AVX2 and AArch64 code chosen at run time). The entry points the known answers and the
// deterministic mode need (key generation from ξ, signing with an explicit rnd and the prefix
// 0 ‖ |ctx| ‖ ctx, the public key of an expanded private key) are exported by the library but
// not declared in aws-lc-sys's public bindings: they are declared here under AWS-LC's versioned
// symbol prefix (`aws_lc_0_47_0_`), so an aws-lc-sys upgrade that changes it fails at link time,
// never silently. They return 1 on success (AWS-LC's convention; ML-KEM's are the reverse).
//
// `pack_pk_from_sk` checks the expanded key it is given: s1 and s2 in [−η, η], t0 and tr those
// the key's ρ, s1 and s2 give; anything else is refused.

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
pub struct MlDsaSet {
  pub public_len: usize,
  pub private_len: usize,
  pub signature_len: usize,
  keypair: DsaKeypair,
  sign: DsaSign,
  verify: DsaVerify,
  public: DsaPublic,
}

/// `pub const $name: MlDsaSet` for the set `ml_dsa_$k_*` with its sizes.
macro_rules! ml_dsa_set {
  ($name:ident, $k:literal, $pk:literal, $sk:literal, $sig:literal) => {
    pub const $name: MlDsaSet = {
      extern "C" {
        #[link_name = concat!("aws_lc_0_47_0_ml_dsa_", $k, "_keypair_internal")]
        fn keypair(pk: *mut u8, sk: *mut u8, seed: *const u8) -> c_int;
        #[link_name = concat!("aws_lc_0_47_0_ml_dsa_", $k, "_sign_internal")]
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
        #[link_name = concat!("aws_lc_0_47_0_ml_dsa_", $k, "_verify")]
        fn verify(
          pk: *const u8,
          sig: *const u8,
          sig_len: usize,
          msg: *const u8,
          msg_len: usize,
          ctx: *const u8,
          ctx_len: usize,
        ) -> c_int;
        #[link_name = concat!("aws_lc_0_47_0_ml_dsa_", $k, "_pack_pk_from_sk")]
        fn public(pk: *mut u8, sk: *const u8) -> c_int;
      }
      MlDsaSet {
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

impl MlDsaSet {
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

/// AWS-LC's `AES_cbc_encrypt` (OpenSSL's `aesni_cbc_encrypt` on x86-64, the code node runs),
/// measured against in `cipher::tests::cbc_speed`: encrypts whole blocks of `data` into `out`.
#[cfg(test)]
pub fn aes_cbc_encrypt_reference(key: &[u8], iv: &[u8; 16], data: &[u8], out: &mut [u8]) {
  assert!(
    matches!(key.len(), 16 | 24 | 32) && data.len().is_multiple_of(16) && out.len() >= data.len()
  );
  let mut iv = *iv;
  // SAFETY: AES_KEY is plain data (zeroed is a valid value before AES_set_encrypt_key fills it);
  // key holds key.len() * 8 bits; data and out are distinct slices of at least data.len() bytes,
  // a multiple of the block size; iv is 16 writable bytes.
  unsafe {
    let mut k: sys::AES_KEY = std::mem::zeroed();
    assert_eq!(
      sys::AES_set_encrypt_key(key.as_ptr(), (key.len() * 8) as u32, &mut k),
      0
    );
    sys::AES_cbc_encrypt(
      data.as_ptr(),
      out.as_mut_ptr(),
      data.len(),
      &k,
      iv.as_mut_ptr(),
      1,
    );
  }
}
