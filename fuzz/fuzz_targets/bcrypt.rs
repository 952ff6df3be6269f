//! bcrypt hash strings, as `kdf.bcrypt.verify` and `password.verify` read them. Properties: a
//! malformed string (non-canonical base64 included) is `ERR_INVALID_ARG_VALUE`; a string that
//! parses has a cost in 4..=31, and the `$2b$` string written from what was read is the input
//! with only the version letter changed, and reads back the same.
#![no_main]

mod bounded;

use cryptographer::fuzzing::bcrypt::{format, parse, MAX_COST, MIN_COST};
use cryptographer::fuzzing::Code;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
  let text = String::from_utf8_lossy(data);
  let parsed = match parse(&text) {
    Ok(p) => p,
    Err(e) => {
      assert_eq!(e.code, Code::InvalidArgValue, "{}", e.message);
      assert!(
        e.message.contains("expected a bcrypt hash"),
        "{}",
        e.message
      );
      return;
    }
  };
  assert!((MIN_COST..=MAX_COST).contains(&parsed.cost));
  let written = format(parsed.cost, &parsed.salt, &parsed.tag);
  assert_eq!(written.len(), 60);
  // Index 2: the version letter.
  for (i, (a, b)) in written.bytes().zip(text.bytes()).enumerate() {
    assert!(a == b || i == 2, "{written} vs {text} at {i}");
  }
  let again = parse(&written).expect("the written string parses");
  assert_eq!(
    (again.cost, again.salt, again.tag),
    (parsed.cost, parsed.salt, parsed.tag)
  );
});
