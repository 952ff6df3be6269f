//! The unpadded base64 decoder of PHC strings, bcrypt and age headers (standard alphabet and
//! bcrypt's `./A-Za-z0-9`), checked against the `base64` crate: `decode` must accept exactly what
//! the crate accepts without trailing bits, with the same bytes; refuse as `NonCanonical` exactly
//! what the crate accepts only with trailing bits allowed; and `encode` must be its encoding,
//! which decodes back.
#![no_main]

mod bounded;

use base64::alphabet::{Alphabet, BCRYPT, STANDARD};
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
use base64::Engine;
use cryptographer::fuzzing::base64::{B64Error, B64, BCRYPT_B64, PHC_B64};
use libfuzzer_sys::fuzz_target;

fn engine(alphabet: &Alphabet, trailing_bits: bool) -> GeneralPurpose {
  let config = GeneralPurposeConfig::new()
    .with_encode_padding(false)
    .with_decode_padding_mode(DecodePaddingMode::RequireNone)
    .with_decode_allow_trailing_bits(trailing_bits);
  GeneralPurpose::new(alphabet, config)
}

fn check(ours: &B64, alphabet: &Alphabet, text: &str, data: &[u8]) {
  let decoded = ours.decode(text);
  let (strict, lenient) = (
    engine(alphabet, false).decode(text).ok(),
    engine(alphabet, true).decode(text).ok(),
  );
  match &decoded {
    Ok(bytes) => {
      assert_eq!(Some(bytes), strict.as_ref(), "decode {text:?}");
      assert_eq!(&ours.encode(bytes), text);
    }
    Err(B64Error::NonCanonical) => {
      assert!(strict.is_none() && lenient.is_some(), "NonCanonical {text:?}")
    }
    Err(B64Error::NotBase64) => assert!(lenient.is_none(), "NotBase64 {text:?}"),
  }
  let encoded = ours.encode(data);
  assert_eq!(encoded, engine(alphabet, false).encode(data));
  assert_eq!(ours.decode(&encoded).as_deref(), Ok(data));
}

fuzz_target!(|data: &[u8]| {
  let text = String::from_utf8_lossy(data);
  check(&PHC_B64, &STANDARD, &text, data);
  check(&BCRYPT_B64, &BCRYPT, &text, data);
});
