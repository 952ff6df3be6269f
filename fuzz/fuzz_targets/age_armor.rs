//! age's ASCII armor (`cipher.age.decrypt` of a PEM text). Properties: bad armor is
//! `ERR_INVALID_ARG_VALUE`; armor that decodes is exactly what `encode` writes for its bytes,
//! once surrounding whitespace is dropped and CRLF line ends are made LF (one encoding); and any
//! bytes armor and decode back unchanged.
#![no_main]

mod bounded;

use cryptographer::fuzzing::age::{armor_decode, armor_encode, is_armored};
use cryptographer::fuzzing::Code;
use libfuzzer_sys::fuzz_target;

fn trim(b: &[u8]) -> &[u8] {
  let space = |c: &u8| matches!(c, b' ' | b'\t' | b'\r' | b'\n');
  let start = b.iter().position(|c| !space(c)).unwrap_or(b.len());
  let end = b.iter().rposition(|c| !space(c)).map_or(start, |i| i + 1);
  &b[start..end.max(start)]
}

fuzz_target!(|data: &[u8]| {
  let armored = armor_encode(data);
  assert!(is_armored(armored.as_bytes()));
  assert_eq!(
    armor_decode(armored.as_bytes()).expect("own armor decodes"),
    data
  );

  match armor_decode(data) {
    Ok(bytes) => {
      assert!(is_armored(data));
      let text = trim(data);
      let lf: Vec<u8> = if text.contains(&b'\r') {
        String::from_utf8_lossy(text)
          .replace("\r\n", "\n")
          .into_bytes()
      } else {
        text.to_vec()
      };
      let mut expected = lf;
      expected.push(b'\n');
      assert_eq!(armor_encode(&bytes).as_bytes(), &expected[..]);
    }
    Err(e) => {
      assert_eq!(e.code, Code::InvalidArgValue, "{}", e.message);
      assert!(e.message.contains("ASCII armor"), "{}", e.message);
    }
  }
});
