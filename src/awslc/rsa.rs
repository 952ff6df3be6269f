//! RSA where aws-lc-rs's safe API lacks a parameter: PSS salt length and MGF1 hash, OAEP with
//! an MGF1 hash other than the label hash, keys under 2048 bits, modulus lengths other than
//! 2048/3072/4096/8192, cancellable key generation.
//!
//! Every failure becomes `None` / `false`: the callers (`pk/rsa.rs`) turn that into one error per
//! operation, which for OAEP decryption is deliberately the same for every cause (no padding
//! oracle: AWS-LC's OAEP check is constant-time and reports one error).

use std::ffi::{c_int, c_void};
use std::ptr;

use aws_lc_sys as sys;
use zeroize::Zeroizing;

use super::{clear_errors, ok, EvpMd, Owned};

/// An AWS-LC `RSA` (public, or private with its CRT values), freed on drop (`RSA_free` wipes
/// the private values).
pub struct Rsa(Owned<sys::RSA>);

// SAFETY: AWS-LC documents RSA objects as safe to use from several threads at once once built:
// the only state they change after construction (Montgomery contexts, blinding) is computed
// lazily under the object's own lock. This wrapper exposes no mutation of the key.
unsafe impl Send for Rsa {}
// SAFETY: as for Send: concurrent sign/verify/decrypt on one RSA object is supported by AWS-LC.
unsafe impl Sync for Rsa {}

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

impl Rsa {
  fn from_raw(p: *mut sys::RSA) -> Option<Rsa> {
    Owned::new(p).map(Rsa)
  }

  fn ptr(&self) -> *mut sys::RSA {
    self.0.ptr()
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
    let bn = Owned::new(unsafe { sys::BN_new() })?;
    // SAFETY: `bn` is a live BIGNUM.
    if !ok(unsafe { sys::BN_set_u64(bn.ptr(), e) }) {
      return None;
    }
    // SAFETY: allocation only.
    let cb = Owned::new(unsafe { sys::BN_GENCB_new() })?;
    let arg: *const &dyn Fn() -> bool = &keep_going;
    // SAFETY: `cb` is live; `arg` points to `keep_going`, which outlives the generation call
    // below, the only place the callback runs.
    unsafe { sys::BN_GENCB_set(cb.ptr(), Some(keygen_progress), arg as *mut c_void) };
    // SAFETY: all three objects are live; `bits` ≤ 16384 (checked by the caller) fits c_int.
    let generated =
      unsafe { sys::RSA_generate_key_ex(rsa.ptr(), bits as c_int, bn.ptr(), cb.ptr()) };
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
  pub fn sign_pss(&self, digest: &[u8], md: EvpMd, mgf1: EvpMd, salt_len: u32) -> Option<Vec<u8>> {
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
    md: EvpMd,
    mgf1: EvpMd,
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
  pub fn sign_pkcs1(&self, digest: &[u8], md: EvpMd) -> Option<Vec<u8>> {
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

  pub fn verify_pkcs1(&self, digest: &[u8], md: EvpMd, sig: &[u8]) -> bool {
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
    md: EvpMd,
    mgf1: EvpMd,
    label: &[u8],
  ) -> Option<Zeroizing<Vec<u8>>> {
    let ctx = PkeyCtx::new(self)?;
    let c = ctx.ctx.ptr();
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

/// An EVP_PKEY_CTX over an EVP_PKEY holding (a reference to) an RSA key. The context is
/// declared first, so it is freed first.
struct PkeyCtx {
  ctx: Owned<sys::EVP_PKEY_CTX>,
  _pkey: Owned<sys::EVP_PKEY>,
}

impl PkeyCtx {
  fn new(rsa: &Rsa) -> Option<PkeyCtx> {
    // SAFETY: allocation only.
    let pkey = Owned::new(unsafe { sys::EVP_PKEY_new() })?;
    // SAFETY: `pkey` is live; set1 takes its own reference to the RSA object.
    if !ok(unsafe { sys::EVP_PKEY_set1_RSA(pkey.ptr(), rsa.ptr()) }) {
      return None;
    }
    // SAFETY: `pkey` is live; the context takes its own reference to it.
    let ctx = Owned::new(unsafe { sys::EVP_PKEY_CTX_new(pkey.ptr(), ptr::null_mut()) })?;
    Some(PkeyCtx { ctx, _pkey: pkey })
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
    let set = unsafe { sys::EVP_PKEY_CTX_set0_rsa_oaep_label(self.ctx.ptr(), copy, label.len()) };
    if !ok(set) {
      // SAFETY: not taken by the context; freed once.
      unsafe { sys::OPENSSL_free(copy.cast()) };
      return false;
    }
    true
  }
}
