//! Argon2 PHC strings, as `kdf.argon2.verify`, `password.verify` and `password.parse` read them.
//! Properties: a malformed string is `ERR_INVALID_ARG_VALUE` saying what was expected; a string
//! that parses holds parameters Argon2 accepts and decoded fields no longer than the text; its
//! canonical form parses back to the same parameters and tag and is stable; the ceilings refuse
//! exactly the parameters above them, with `ERR_OUT_OF_RANGE`.
#![no_main]

mod bounded;

use cryptographer::fuzzing::argon2::{parse, parse_bounded, Argon2Limits};
use cryptographer::fuzzing::Code;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
  let text = String::from_utf8_lossy(data);
  let (params, tag) = match parse(&text) {
    Ok(parsed) => parsed,
    Err(e) => {
      assert_eq!(e.code, Code::InvalidArgValue, "{}", e.message);
      assert!(e.message.contains("expected a PHC string"), "{}", e.message);
      return;
    }
  };
  assert!(params.t >= 1 && (1..=0xFF_FFFF).contains(&params.p));
  assert!(u64::from(params.m) >= 8 * u64::from(params.p));
  assert!(params.salt.len() >= 8 && tag.len() >= 4);
  assert_eq!(params.key_length as usize, tag.len());
  assert!(params.salt.len() + tag.len() + params.ad.len() <= text.len());

  let canonical = params.encode(&tag);
  let again = parse(&canonical).expect("the canonical form parses");
  assert_eq!(again, (params.clone(), tag.clone()));
  assert_eq!(again.0.encode(&again.1), canonical);

  // Ceilings from the input's own length, so both sides of each are reached.
  let n = data.len() as u32;
  let limits = Argon2Limits {
    max_memory_cost: Some(n * 64),
    max_time_cost: Some(n % 8 + 1),
    max_parallelism: Some(n % 4 + 1),
  };
  let above = params.m > n * 64 || params.t > n % 8 + 1 || params.p > n % 4 + 1;
  match parse_bounded(&text, &limits) {
    Ok(bounded) => {
      assert!(!above);
      assert_eq!(bounded, (params, tag));
    }
    Err(e) => {
      assert!(above, "{}", e.message);
      assert_eq!(e.code, Code::OutOfRange, "{}", e.message);
    }
  }
});
