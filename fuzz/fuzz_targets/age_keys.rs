//! age key strings: Bech32 (`age1…` recipients, `AGE-SECRET-KEY-1…` identities). Properties: a
//! string that decodes is the encoding of what it decodes to (any case, one checksum); identities
//! and recipients either parse or are refused with `ERR_INVALID_ARG_VALUE`, and the recipient of
//! a parsed identity parses as a recipient.
#![no_main]

mod bounded;

use cryptographer::fuzzing::age::{bech32_decode, bech32_encode, X25519Identity, X25519Recipient};
use cryptographer::fuzzing::Code;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
  let text = String::from_utf8_lossy(data);
  if let Ok((hrp, bytes)) = bech32_decode(&text) {
    assert_eq!(
      bech32_encode(&hrp.to_ascii_lowercase(), &bytes),
      text.to_ascii_lowercase()
    );
    assert!(bytes.len() * 8 <= (text.len() - hrp.len() - 7) * 5);
  }
  match X25519Identity::parse(&[&*text], "identity") {
    Ok(id) => {
      let recipients = id.recipients();
      assert_eq!(recipients.len(), 1);
      X25519Recipient::parse(&recipients, "recipient").expect("its recipient parses");
    }
    Err(e) => assert_eq!(e.code, Code::InvalidArgValue, "{}", e.message),
  }
  if let Err(e) = X25519Recipient::parse(&[&*text], "recipient") {
    assert_eq!(e.code, Code::InvalidArgValue, "{}", e.message);
  }
});
