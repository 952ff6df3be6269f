//! Every call into AWS-LC that aws-lc-rs's safe API does not offer: RSA with every parameter
//! (`rsa.rs`), scalar multiplication on the NIST curves (`ec.rs`), ML-KEM and X25519
//! (`mlkem.rs`), ML-DSA (`mldsa.rs`), the Keccak permutation (`keccak.rs`), and AWS-LC's view of
//! an aarch64 CPU. With `src/js/` and `src/arch/`, the only
//! modules allowed `unsafe`: every FFI call sits behind a small safe function whose `// SAFETY:`
//! comment states the invariant it relies on, and every AWS-LC object is owned by an [`Owned`]
//! that frees it. This folder imports no family: callers map their own types onto its
//! ([`Digest`]).
//!
//! Every AWS-LC failure clears the thread's error queue (AWS-LC pushes one entry per failure;
//! nothing reads them here).

use std::ffi::c_int;
use std::ptr::NonNull;

use aws_lc_sys as sys;

/// The link name of an AWS-LC function that aws-lc-sys does not declare: AWS-LC's symbols carry a
/// versioned prefix, so an aws-lc-sys upgrade (pinned exactly in Cargo.toml) that changes it
/// fails at link time, never silently, until the prefix here is updated.
macro_rules! symbol {
  ($($part:expr),+ $(,)?) => {
    concat!("aws_lc_0_47_0_", $($part),+)
  };
}

mod ec;
pub mod keccak;
mod mldsa;
mod mlkem;
mod rsa;

pub use ec::{ec_mul, NistCurve};
pub use mldsa::{MlDsaFns, ML_DSA_44, ML_DSA_65, ML_DSA_87};
pub use mlkem::{x25519, x25519_base, MlKem, ML_KEM_1024, ML_KEM_512, ML_KEM_768};
pub use rsa::Rsa;

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

/// An AWS-LC type that [`Owned`] frees with its `*_free` function.
pub trait Free {
  /// Frees `p`.
  ///
  /// # Safety
  /// `p` was allocated by AWS-LC as this type, is owned by the caller and is not used after.
  unsafe fn free(p: *mut Self);
}

macro_rules! free {
  ($($t:ident => $f:ident),+ $(,)?) => {
    $(impl Free for sys::$t {
      unsafe fn free(p: *mut Self) {
        // SAFETY: the caller's (see `Free::free`).
        unsafe { sys::$f(p) }
      }
    })+
  };
}

free! {
  RSA => RSA_free,
  // Wiped as well as freed: a BIGNUM may hold a secret scalar (`ec.rs`).
  BIGNUM => BN_clear_free,
  EC_POINT => EC_POINT_clear_free,
  BN_GENCB => BN_GENCB_free,
  EVP_PKEY => EVP_PKEY_free,
  EVP_PKEY_CTX => EVP_PKEY_CTX_free,
}

/// One reference to an AWS-LC object, freed on drop.
pub struct Owned<T: Free>(NonNull<T>);

impl<T: Free> Owned<T> {
  /// Takes ownership of `p`, an object AWS-LC just returned to us; `None` (clearing the error
  /// queue) when it is null.
  pub fn new(p: *mut T) -> Option<Owned<T>> {
    let owned = NonNull::new(p).map(Owned);
    if owned.is_none() {
      clear_errors();
    }
    owned
  }

  pub fn ptr(&self) -> *mut T {
    self.0.as_ptr()
  }
}

impl<T: Free> Drop for Owned<T> {
  fn drop(&mut self) {
    // SAFETY: `new` took the one reference this value holds, from AWS-LC, for this type.
    unsafe { T::free(self.0.as_ptr()) }
  }
}

/// The digests RSA accepts (`pk/rsa.rs` maps the hash list onto them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Digest {
  Sha1,
  Sha224,
  Sha256,
  Sha384,
  Sha512,
  Sha512_224,
  Sha512_256,
  Sha3_224,
  Sha3_256,
  Sha3_384,
  Sha3_512,
}

/// AWS-LC's `EVP_MD` of a [`Digest`]: a static table.
#[derive(Clone, Copy)]
pub struct EvpMd(NonNull<sys::EVP_MD>);

impl EvpMd {
  pub fn of(digest: Digest) -> Option<EvpMd> {
    // SAFETY: the EVP_* digest getters take nothing and return pointers to static tables that
    // live for the whole process (never freed).
    let p = unsafe {
      match digest {
        Digest::Sha1 => sys::EVP_sha1(),
        Digest::Sha224 => sys::EVP_sha224(),
        Digest::Sha256 => sys::EVP_sha256(),
        Digest::Sha384 => sys::EVP_sha384(),
        Digest::Sha512 => sys::EVP_sha512(),
        Digest::Sha512_224 => sys::EVP_sha512_224(),
        Digest::Sha512_256 => sys::EVP_sha512_256(),
        Digest::Sha3_224 => sys::EVP_sha3_224(),
        Digest::Sha3_256 => sys::EVP_sha3_256(),
        Digest::Sha3_384 => sys::EVP_sha3_384(),
        Digest::Sha3_512 => sys::EVP_sha3_512(),
      }
    };
    NonNull::new(p.cast_mut()).map(EvpMd)
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

/// What AWS-LC found out about this aarch64 CPU (its `OPENSSL_armcap_P`), for `cpuPaths()`.
#[cfg(target_arch = "aarch64")]
pub struct AwsLcArmcap {
  /// AWS-LC was built with its assembly (`CRYPTO_has_asm`).
  pub has_asm: bool,
  /// A Neoverse N1, V1, V2 or V3 core (recognised by its MIDR_EL1 on Linux).
  pub neoverse: bool,
  /// The ARMv8.2 SHA-3 instructions.
  pub sha3: bool,
}

#[cfg(target_arch = "aarch64")]
extern "C" {
  /// AWS-LC's CPU capability bits on Arm (`crypto/fipsmodule/cpucap/cpucap.c`), written once by
  /// its library constructor (`OPENSSL_cpuid_setup`) and read by its dispatching functions.
  #[link_name = symbol!("OPENSSL_armcap_P")]
  static AWS_LC_ARMCAP: u32;
}

/// AWS-LC's view of this CPU (`include/openssl/arm_arch.h`: `ARMV8_SHA3` is bit 11,
/// `ARMV8_NEOVERSE_N1` bit 7, which it also sets for V1, V2 and V3).
#[cfg(target_arch = "aarch64")]
pub fn armcap() -> AwsLcArmcap {
  // SAFETY: `CRYPTO_library_init` takes no arguments and runs AWS-LC's CPU detection once (its
  // library constructor has normally done so when the addon was loaded); `CRYPTO_has_asm` takes
  // none and reads nothing.
  let has_asm = unsafe {
    aws_lc_sys::CRYPTO_library_init();
    aws_lc_sys::CRYPTO_has_asm() == 1
  };
  // SAFETY: a plain `u32` that AWS-LC writes only during the initialisation above, which has
  // completed (and published its writes) before `CRYPTO_library_init` returns; nothing in this
  // crate calls `armv8_disable_dit`/`armv8_enable_dit`, its only later writers.
  let armcap = unsafe { AWS_LC_ARMCAP };
  AwsLcArmcap {
    has_asm,
    neoverse: armcap & (1 << 7) != 0,
    sha3: armcap & (1 << 11) != 0,
  }
}

/// AWS-LC's `AES_cbc_encrypt` (OpenSSL's `aesni_cbc_encrypt` on x86-64, the code node runs),
/// measured against in `benches::ciphers::cbc_speed`: encrypts whole blocks of `data` into `out`.
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
