//! DER ECDSA signatures (ECDSA-Sig-Value), as `dsa.ecdsa.verify` reads them. Properties: a
//! signature that parses is the one DER encoding of its (r, s), non-empty minimal magnitudes;
//! and every (r, s) the library writes (1 to 66 bytes each) parses back to its minimal form.
#![no_main]

mod bounded;

use cryptographer::fuzzing::ecdsa::{der_signature, parse_der_signature};
use libfuzzer_sys::fuzz_target;

fn minimal(v: &[u8]) -> &[u8] {
  let zeros = v.iter().take_while(|&&b| b == 0).count().min(v.len() - 1);
  &v[zeros..]
}

fuzz_target!(|data: &[u8]| {
  if let Some((r, s)) = parse_der_signature(data) {
    for v in [r, s] {
      assert!(!v.is_empty() && v[0] & 0x80 == 0);
      assert!(v.len() == 1 || v[0] != 0 || v[1] & 0x80 != 0);
    }
    assert_eq!(der_signature(r, s), data);
  }
  // (r, s) from the input: its first byte splits the rest.
  if let Some((&split, rest)) = data.split_first() {
    let (r, s) = rest.split_at(usize::from(split).min(rest.len()));
    if (1..=66).contains(&r.len()) && (1..=66).contains(&s.len()) {
      let der = der_signature(r, s);
      let (r2, s2) = parse_der_signature(&der).expect("a written signature parses");
      let strip = |v: &[u8]| -> Vec<u8> {
        let m = minimal(v);
        if m[0] & 0x80 != 0 {
          [&[0][..], m].concat()
        } else {
          m.to_vec()
        }
      };
      assert_eq!((strip(r2), strip(s2)), (strip(r), strip(s)));
    }
  }
});
