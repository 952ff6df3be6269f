//! The streaming AEAD format (`encryptStream`/`decryptStream`/`*File` of `cipher.aes` and
//! `cipher.xchacha20`), its header first. The first byte picks the algorithm (bit 0), a key or
//! a passphrase (bit 1), and what to do (bit 2):
//! - open the rest of the input: every refusal is `ERR_CRYPTO_DECRYPT_FAILED`, and a stream that
//!   opens holds the plaintext the seed streams were made with (`fuzz/seeds/stream`), so
//!   anything else that opens is a forgery;
//! - seal the rest (bytes 1-3: where to change the sealed stream, and how) and open it: the same
//!   plaintext comes back, and the stream changed in one byte, or cut short, is refused.
#![no_main]

mod bounded;

use cryptographer::fuzzing::stream::{spec, Body, Format};
use cryptographer::fuzzing::{Cancel, Code, CryptoResult};
use libfuzzer_sys::fuzz_target;

const KEY: [u8; 32] = *b"cryptographer.js fuzz stream key";
const PASSPHRASE: &[u8] = b"cryptographer.js fuzz";
const PLAINTEXT: &[u8] = b"cryptographer.js fuzz seed\n";

fn open(alg: usize, passphrase: bool, input: &[u8]) -> CryptoResult<Vec<u8>> {
  let secret = if passphrase { PASSPHRASE } else { &KEY[..] };
  let s = spec(alg, true, secret, passphrase);
  let head = &input[..input.len().min(s.head_len())];
  let begun = s.begin(head, &Cancel::NEVER)?;
  let mut body = begun.body;
  let mut out = Vec::new();
  body.push(&input[begun.consumed..], &mut out)?;
  body.finish(&mut out)?;
  Ok(out)
}

fn seal(alg: usize, plain: &[u8]) -> Vec<u8> {
  let begun = spec(alg, false, &KEY, false)
    .begin(&[], &Cancel::NEVER)
    .unwrap();
  let (mut out, mut body) = (begun.lead, begun.body);
  body.push(plain, &mut out).unwrap();
  body.finish(&mut out).unwrap();
  out
}

fn refused(r: CryptoResult<Vec<u8>>) {
  match r {
    Ok(_) => panic!("a changed stream opened"),
    Err(e) => assert_eq!(e.code, Code::DecryptFailed, "{}", e.message),
  }
}

fuzz_target!(|data: &[u8]| {
  let Some((&mode, rest)) = data.split_first() else {
    return;
  };
  let alg = usize::from(mode & 1);
  let passphrase = mode & 2 != 0;
  if mode & 4 == 0 {
    match open(alg, passphrase, rest) {
      Ok(plain) => assert_eq!(plain, PLAINTEXT),
      Err(e) => assert_eq!(e.code, Code::DecryptFailed, "{}", e.message),
    }
    return;
  }
  let [a, b, xor, plain @ ..] = rest else {
    return;
  };
  let sealed = seal(alg, plain);
  assert_eq!(open(alg, false, &sealed).unwrap(), plain);
  let at = usize::from(u16::from_le_bytes([*a, *b])) % sealed.len();
  if *xor != 0 {
    let mut changed = sealed.clone();
    changed[at] ^= xor;
    refused(open(alg, false, &changed));
  }
  refused(open(alg, false, &sealed[..at]));
});
