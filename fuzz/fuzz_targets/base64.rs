//! The unpadded base64 decoders of PHC strings and age headers (standard alphabet) and of bcrypt
//! (`./A-Za-z0-9`), checked against the `base64` crate: `decode` must accept exactly what it
//! accepts with trailing bits allowed, `decode_canonical` exactly what it accepts without, with
//! the same bytes; and `encode` must be its encoding, which decodes back canonically.
#![no_main]

mod bounded;

use base64::alphabet::{Alphabet, BCRYPT, STANDARD};
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
use base64::Engine;
use cryptographer::fuzzing::base64::{B64, BCRYPT_B64, PHC_B64};
use libfuzzer_sys::fuzz_target;

fn engine(alphabet: &Alphabet, trailing_bits: bool) -> GeneralPurpose {
  let config = GeneralPurposeConfig::new()
    .with_encode_padding(false)
    .with_decode_padding_mode(DecodePaddingMode::RequireNone)
    .with_decode_allow_trailing_bits(trailing_bits);
  GeneralPurpose::new(alphabet, config)
}

fn check(ours: &B64, alphabet: &Alphabet, text: &str, data: &[u8]) {
  let lenient = ours.decode(text);
  assert_eq!(
    lenient,
    engine(alphabet, true).decode(text).ok(),
    "decode {text:?}"
  );
  let canonical = ours.decode_canonical(text);
  assert_eq!(
    canonical,
    engine(alphabet, false).decode(text).ok(),
    "decode_canonical {text:?}"
  );
  if let Some(bytes) = &canonical {
    assert_eq!(&ours.encode(bytes), text);
  }
  if let Some(bytes) = &lenient {
    assert_eq!(bytes.len(), text.len() * 3 / 4);
    assert_eq!(
      ours.decode_canonical(&ours.encode(bytes)).as_ref(),
      Some(bytes)
    );
  }
  let encoded = ours.encode(data);
  assert_eq!(encoded, engine(alphabet, false).encode(data));
  assert_eq!(ours.decode_canonical(&encoded).as_deref(), Some(data));
}

fuzz_target!(|data: &[u8]| {
  let text = String::from_utf8_lossy(data);
  check(&PHC_B64, &STANDARD, &text, data);
  check(&BCRYPT_B64, &BCRYPT, &text, data);
});
