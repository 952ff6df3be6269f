//! The age v1 header (every `cipher.age.decrypt*`). Properties: a malformed header is
//! `ERR_INVALID_ARG_VALUE`; a header that parses is within the bounds (stanzas, arguments, 1 MiB),
//! the MAC input and payload are the input's prefix and suffix around the MAC line, and writing
//! the parsed stanzas and MAC gives back exactly the bytes read (one encoding per header).
#![no_main]

mod bounded;

use cryptographer::fuzzing::age::{
  parse_header, write_header, write_mac, MAX_ARGS, MAX_HEADER, MAX_STANZAS,
};
use cryptographer::fuzzing::Code;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
  let parsed = match parse_header(data) {
    Ok(p) => p,
    Err(e) => {
      assert_eq!(e.code, Code::InvalidArgValue, "{}", e.message);
      assert!(e.message.contains("age file"), "{}", e.message);
      return;
    }
  };
  assert!((1..=MAX_STANZAS).contains(&parsed.stanzas.len()));
  for s in &parsed.stanzas {
    assert!(1 + s.args.len() <= MAX_ARGS);
  }
  let mut written = Vec::new();
  write_header(&parsed.stanzas, &mut written);
  assert_eq!(written, parsed.mac_input);
  write_mac(&parsed.mac, &mut written);
  let head = data.len() - parsed.payload.len();
  assert!(head <= MAX_HEADER);
  assert_eq!(&written[..], &data[..head]);
  assert_eq!(parsed.payload, &data[head..]);
});
