//! age's ASCII armor (age-encryption.org/v1, "ASCII armor"): the strict PEM encoding of RFC 7468
//! §3 with the label "AGE ENCRYPTED FILE", base64 with `=` padding in lines of 64 columns.
//!
//! Decoding is as strict as the spec and its test kit ask, so an armored file has one encoding:
//! whitespace is allowed before the first line and after the last one, lines end with LF or CRLF
//! (the same ending throughout), every line but the last base64 line has exactly 64 columns, the
//! last one 1 to 64, with no spaces, headers, checksums or empty lines, and the base64 is
//! canonical (padding where RFC 4648 puts it, zero unused bits).

use crate::error::{CryptoError, CryptoResult};
use crate::kdf::PHC_B64;

use super::header::COLUMNS;

const BEGIN: &[u8] = b"-----BEGIN AGE ENCRYPTED FILE-----";
const END: &[u8] = b"-----END AGE ENCRYPTED FILE-----";

fn malformed(why: &str) -> CryptoError {
  CryptoError::invalid_value(
    "data",
    "an age file (age-encryption.org/v1)",
    format!("malformed ASCII armor: {why}"),
  )
}

fn is_space(c: &u8) -> bool {
  matches!(c, b' ' | b'\t' | b'\r' | b'\n')
}

/// True when `data` is meant as armor: after any leading whitespace it starts with "-----" (a
/// binary age file starts with "age-"), so a damaged PEM line is reported as bad armor.
pub fn is_armored(data: &[u8]) -> bool {
  let start = data.iter().position(|c| !is_space(c)).unwrap_or(data.len());
  data[start..].starts_with(b"-----")
}

/// The armored form of `data`: the PEM lines, each ended by LF.
pub fn encode(data: &[u8]) -> String {
  let b64 = PHC_B64.encode(data);
  let padded = b64.len().div_ceil(4) * 4;
  let lines = padded.div_ceil(COLUMNS);
  let mut out = String::with_capacity(BEGIN.len() + END.len() + padded + lines + 2);
  out.push_str("-----BEGIN AGE ENCRYPTED FILE-----\n");
  let mut text = b64;
  text.extend(std::iter::repeat_n('=', padded - text.len()));
  // ASCII, so every 64-byte cut is a character boundary.
  for line in text.as_bytes().chunks(COLUMNS) {
    out.push_str(std::str::from_utf8(line).unwrap_or_default());
    out.push('\n');
  }
  out.push_str("-----END AGE ENCRYPTED FILE-----\n");
  out
}

/// The bytes an armored file holds.
pub fn decode(data: &[u8]) -> CryptoResult<Vec<u8>> {
  let start = data.iter().position(|c| !is_space(c)).unwrap_or(data.len());
  let end = data
    .iter()
    .rposition(|c| !is_space(c))
    .map_or(start, |i| i + 1);
  let text = &data[start..end.max(start)];
  // The line ending is the first line's: LF or CRLF, then the same on every line (the last one
  // lost its ending with the trailing whitespace).
  let first = text.iter().position(|&c| c == b'\n').unwrap_or(text.len());
  let crlf = first > 0 && text[first - 1] == b'\r';
  let raw: Vec<&[u8]> = text.split(|&c| c == b'\n').collect();
  let n = raw.len();
  let mut lines = Vec::with_capacity(n);
  for (i, l) in raw.into_iter().enumerate() {
    lines.push(match (crlf, i + 1 < n) {
      (true, true) => l
        .strip_suffix(b"\r")
        .ok_or_else(|| malformed("mixed line endings"))?,
      _ => l,
    });
  }
  let Some((&begin, lines)) = lines.split_first() else {
    return Err(malformed("empty input"));
  };
  if begin != BEGIN {
    return Err(malformed(
      "the first line is not -----BEGIN AGE ENCRYPTED FILE-----",
    ));
  }
  let Some((&last, body)) = lines.split_last() else {
    return Err(malformed("no -----END AGE ENCRYPTED FILE----- line"));
  };
  if last != END {
    return Err(malformed(
      "the last line is not -----END AGE ENCRYPTED FILE----- (or data follows it)",
    ));
  }
  let mut b64 = Vec::with_capacity(body.len() * COLUMNS);
  for (i, line) in body.iter().enumerate() {
    let full = line.len() == COLUMNS;
    let last_line = i + 1 == body.len();
    if !(full || (last_line && !line.is_empty() && line.len() < COLUMNS)) {
      return Err(malformed(
        "a base64 line that is not 64 columns (only the last may be shorter, and not empty)",
      ));
    }
    b64.extend_from_slice(line);
  }
  decode_padded(&b64).ok_or_else(|| malformed("the base64 is not canonical padded base64"))
}

/// Standard base64 with `=` padding, canonical (RFC 4648 §3.5).
fn decode_padded(b64: &[u8]) -> Option<Vec<u8>> {
  if !b64.len().is_multiple_of(4) {
    return None;
  }
  let body = b64
    .strip_suffix(b"==")
    .or_else(|| b64.strip_suffix(b"="))
    .unwrap_or(b64);
  // Two pad characters leave 2 characters of the last quantum, one leaves 3.
  if (b64.len() - body.len()) % 4 != (4 - body.len() % 4) % 4 {
    return None;
  }
  PHC_B64.decode(std::str::from_utf8(body).ok()?).ok()
}
