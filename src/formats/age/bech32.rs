//! Bech32 (BIP 173; not bech32m), strict, as age writes its keys: `age1…` recipients and
//! `AGE-SECRET-KEY-1…` identities.
//!
//! Decoding refuses: mixed case, characters outside 33..=126, no separator, an empty HRP or
//! one above 83 characters, a data part under 6 characters, strings above 90 characters, a
//! character outside the 32-character set, a bad checksum, and 5-to-8-bit padding that is 5 or
//! more bits or not zero. The HRP comes back in the string's own case (age's identities are
//! upper case, its recipients lower case: the callers check which).

const CHARSET: &[u8; 32] = b"qpzry9x8gf2tvdw0s3jn54khce6mua7l";
const GEN: [u32; 5] = [
  0x3b6a_57b2,
  0x2650_8e6d,
  0x1ea1_19fa,
  0x3d42_33dd,
  0x2a14_62b3,
];
const MAX_LEN: usize = 90;

fn polymod(values: impl Iterator<Item = u8>) -> u32 {
  let mut chk = 1u32;
  for v in values {
    let top = chk >> 25;
    chk = ((chk & 0x01ff_ffff) << 5) ^ u32::from(v);
    for (i, g) in GEN.iter().enumerate() {
      if (top >> i) & 1 == 1 {
        chk ^= g;
      }
    }
  }
  chk
}

/// The HRP expanded as BIP 173 checksums it (lower case), then `data` (5-bit values).
fn checksum_input<'a>(hrp: &'a [u8], data: &'a [u8]) -> impl Iterator<Item = u8> + 'a {
  let lower = move || hrp.iter().map(u8::to_ascii_lowercase);
  lower()
    .map(|c| c >> 5)
    .chain(std::iter::once(0))
    .chain(lower().map(|c| c & 31))
    .chain(data.iter().copied())
}

/// Regroups bits from `from`-bit to `to`-bit values; `pad` as when encoding, strict otherwise.
fn convert(data: &[u8], from: u32, to: u32, pad: bool) -> Option<Vec<u8>> {
  let (mut acc, mut bits, mut out) = (0u32, 0u32, Vec::new());
  let max = (1u32 << to) - 1;
  for &v in data {
    acc = (acc << from) | u32::from(v);
    bits += from;
    while bits >= to {
      bits -= to;
      out.push(((acc >> bits) & max) as u8);
    }
  }
  if pad {
    if bits > 0 {
      out.push(((acc << (to - bits)) & max) as u8);
    }
  } else if bits >= from || (acc << (to - bits)) & max != 0 {
    return None;
  }
  Some(out)
}

/// `hrp` (lower case) `1` and `data` as Bech32; the caller upper-cases the whole when it wants.
pub fn encode(hrp: &str, data: &[u8]) -> String {
  let mut values = convert(data, 8, 5, true).unwrap_or_default();
  let chk = polymod(checksum_input(hrp.as_bytes(), &values).chain([0u8; 6])) ^ 1;
  values.extend((0..6).map(|i| ((chk >> (5 * (5 - i))) & 31) as u8));
  let mut s = String::with_capacity(hrp.len() + 1 + values.len());
  s.push_str(hrp);
  s.push('1');
  s.extend(values.iter().map(|&v| CHARSET[v as usize] as char));
  s
}

/// Why a string is not Bech32.
#[derive(Debug, PartialEq, Eq)]
pub enum Error {
  Length,
  MixedCase,
  Character,
  NoSeparator,
  Checksum,
  Padding,
}

/// The HRP (in the string's case) and the 8-bit data of a Bech32 string.
pub fn decode(s: &str) -> Result<(&str, Vec<u8>), Error> {
  let b = s.as_bytes();
  if b.len() > MAX_LEN {
    return Err(Error::Length);
  }
  if b.iter().any(|c| !(33..=126).contains(c)) {
    return Err(Error::Character);
  }
  if b.iter().any(u8::is_ascii_lowercase) && b.iter().any(u8::is_ascii_uppercase) {
    return Err(Error::MixedCase);
  }
  let sep = b
    .iter()
    .rposition(|&c| c == b'1')
    .ok_or(Error::NoSeparator)?;
  let (hrp, rest) = (&b[..sep], &b[sep + 1..]);
  if hrp.is_empty() || hrp.len() > 83 || rest.len() < 6 {
    return Err(Error::Length);
  }
  let values = rest
    .iter()
    .map(|c| {
      let c = c.to_ascii_lowercase();
      CHARSET.iter().position(|&x| x == c).map(|p| p as u8)
    })
    .collect::<Option<Vec<u8>>>()
    .ok_or(Error::Character)?;
  if polymod(checksum_input(hrp, &values)) != 1 {
    return Err(Error::Checksum);
  }
  let data = convert(&values[..values.len() - 6], 5, 8, false).ok_or(Error::Padding)?;
  Ok((&s[..sep], data))
}

#[cfg(test)]
mod tests {
  use super::*;

  // BIP 173, "Test vectors": valid Bech32 strings (checksum and form; the data need not be
  // whole bytes, so only the checksum is checked for those whose padding is not canonical).
  const VALID: &[&str] = &[
    "A12UEL5L",
    "a12uel5l",
    "an83characterlonghumanreadablepartthatcontainsthenumber1andtheexcludedcharactersbio1tt5tgs",
    "abcdef1qpzry9x8gf2tvdw0s3jn54khce6mua7lmqqqxw",
    "split1checkupstagehandshakeupstreamerranterredcaperred2y9e3w",
    "?1ezyfcl",
  ];

  // BIP 173's invalid strings, with the reason it gives.
  const INVALID: &[(&str, Error)] = &[
    ("\u{20}1nwldj5", Error::Character),
    ("\u{7f}1axkwrx", Error::Character),
    ("\u{80}1eym55h", Error::Character),
    (
      "an84characterslonghumanreadablepartthatcontainsthenumber1andtheexcludedcharactersbio1569pvx",
      Error::Length,
    ),
    ("pzry9x0s0muk", Error::NoSeparator),
    ("1pzry9x0s0muk", Error::Length),
    ("x1b4n0q5v", Error::Character),
    ("li1dgmt3", Error::Length),
    ("de1lg7wt\u{ff}", Error::Character),
    ("A1G7SGD8", Error::Checksum),
    ("10a06t8", Error::Length),
    ("1qzzfhee", Error::Length),
  ];

  #[test]
  fn bip173_valid() {
    for s in VALID {
      let b = s.as_bytes();
      let sep = b.iter().rposition(|&c| c == b'1').unwrap();
      let values: Vec<u8> = b[sep + 1..]
        .iter()
        .map(|c| {
          CHARSET
            .iter()
            .position(|&x| x == c.to_ascii_lowercase())
            .unwrap() as u8
        })
        .collect();
      assert_eq!(polymod(checksum_input(&b[..sep], &values)), 1, "{s}");
      match decode(s) {
        Ok((hrp, _)) => assert_eq!(hrp, &s[..sep], "{s}"),
        // Data parts that are not whole bytes (5-bit values with non-zero padding).
        Err(e) => assert_eq!(e, Error::Padding, "{s}"),
      }
    }
    // Changing any character breaks the checksum.
    let mut s = VALID[3].to_string().into_bytes();
    s[10] = if s[10] == b'q' { b'p' } else { b'q' };
    assert_eq!(
      decode(std::str::from_utf8(&s).unwrap()).unwrap_err(),
      Error::Checksum
    );
  }

  #[test]
  fn bip173_invalid() {
    for (s, why) in INVALID {
      assert_eq!(decode(s).unwrap_err(), *why, "{s:?}");
    }
    assert_eq!(decode("A12uEL5L").unwrap_err(), Error::MixedCase);
  }

  #[test]
  fn round_trip_and_case() {
    for n in [0usize, 1, 20, 32, 40] {
      let data: Vec<u8> = (0..n as u8).map(|i| i.wrapping_mul(37)).collect();
      let s = encode("age", &data);
      assert_eq!(decode(&s).unwrap(), ("age", data.clone()));
      let up = s.to_ascii_uppercase();
      assert_eq!(decode(&up).unwrap(), ("AGE", data));
    }
  }
}
