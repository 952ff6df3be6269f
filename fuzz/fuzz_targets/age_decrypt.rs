//! Whole age files (binary or armored) opened with an X25519 identity or a passphrase (first
//! byte even or odd), as `cipher.age.decrypt` does. Properties: every refusal is a coded error
//! (`ERR_INVALID_ARG_VALUE` for a malformed header or armor, `ERR_OUT_OF_RANGE` for a work
//! factor above the ceiling, `ERR_CRYPTO_DECRYPT_FAILED` otherwise); a file that opens holds the
//! plaintext the seed files were made with (`fuzz/seeds/age_decrypt`), so anything else that
//! opens is a forgery.
#![no_main]

mod bounded;

use cryptographer::fuzzing::age::{decrypt, Identity, ScryptIdentity, X25519Identity};
use cryptographer::fuzzing::{Cancel, Code};
use libfuzzer_sys::fuzz_target;

/// The identity and passphrase of the seed files, and what they hold.
const IDENTITY: &str = "AGE-SECRET-KEY-1NNAZ96JTU2JMCR7G9J6GZFNF03JV5R56PFCZZKVN3HNGMFAVUXXSV46W0Q";
const PASSPHRASE: &[u8] = b"cryptographer.js fuzz";
const PLAINTEXT: &[u8] = b"cryptographer.js fuzz seed\n";
/// scrypt work factors above this are refused before any work (the seeds use 2).
const MAX_WORK_FACTOR: u32 = 4;

fuzz_target!(|data: &[u8]| {
  let Some((&which, file)) = data.split_first() else {
    return;
  };
  let x25519 = X25519Identity::parse(&[IDENTITY], "identity").unwrap();
  let scrypt = ScryptIdentity::new(PASSPHRASE, MAX_WORK_FACTOR).unwrap();
  let identity: &dyn Identity = if which % 2 == 0 { &x25519 } else { &scrypt };
  match decrypt(identity, file, &Cancel::NEVER) {
    Ok(plain) => assert_eq!(plain, PLAINTEXT),
    Err(e) => assert!(
      matches!(
        e.code,
        Code::InvalidArgValue | Code::OutOfRange | Code::DecryptFailed
      ),
      "{:?}: {}",
      e.code,
      e.message
    ),
  }
});
