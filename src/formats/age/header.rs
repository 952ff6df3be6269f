//! The age v1 header: its parser and its writer (age-encryption.org/v1, "Header").
//!
//! ```text
//! age-encryption.org/v1
//! -> scrypt ajMFur+EJLGaohv/dLRGnw 18        one or more stanzas: "-> " type args...,
//! 8SHBz/ldWnjyGFQqfjat6uNBarWqqEMDS7W8X7+Xq5Q  then the body in base64, 64 columns a line,
//! --- HK2NmOBN9Dpq0Gw6xMCuhFcQlQLvZ/wQUi/2scLG75s  ended by a shorter (maybe empty) line
//! ```
//!
//! Parsing is strict, as the spec's ABNF: LF line ends only, arguments of visible ASCII separated
//! by single spaces, canonical unpadded base64, every body ended by a line shorter than 64
//! columns. So a header has one encoding, [`write`] gives back the exact bytes [`parse`] read, and
//! the MAC covers the bytes as read. Everything is bounded before it is stored ([`MAX_HEADER`],
//! [`MAX_STANZAS`], [`MAX_ARGS`]). Stanza types are not interpreted here: the identities
//! (`scrypt.rs`, X25519 next) pick the stanzas addressed to them.

use crate::error::{CryptoError, CryptoResult};
use crate::kdf::PHC_B64;

/// The version line every v1 file starts with.
const INTRO: &[u8] = b"age-encryption.org/v1\n";
/// What every age file starts with, whatever its version.
const VERSION_PREFIX: &[u8] = b"age-encryption.org/";
/// Body lines are wrapped at 64 columns (48 bytes).
pub const COLUMNS: usize = 64;
const BYTES_PER_LINE: usize = COLUMNS / 4 * 3;
/// The MAC line: "--- " and 43 characters (32 bytes).
const MAC_LEN: usize = 32;

/// Longest header read, up to and including the MAC line (1 MiB): a header is a few hundred
/// bytes per recipient (post-quantum ones about 1.6 KiB), so this holds hundreds.
pub const MAX_HEADER: usize = 1 << 20;
/// Most stanzas read (each may cost an identity a key agreement or a decryption).
pub const MAX_STANZAS: usize = 1024;
/// Most arguments of one stanza, its type included.
pub const MAX_ARGS: usize = 32;

/// One recipient stanza: its type (the first argument), the other arguments and the body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stanza {
  pub kind: String,
  pub args: Vec<String>,
  pub body: Vec<u8>,
}

/// A parsed header and where the rest of the file starts.
pub struct Parsed<'a> {
  pub stanzas: Vec<Stanza>,
  pub mac: [u8; MAC_LEN],
  /// The bytes the MAC covers: the header up to and including "---".
  pub mac_input: &'a [u8],
  /// Everything after the MAC line: the payload nonce, then the payload.
  pub payload: &'a [u8],
}

/// The error for a header that does not follow the format.
pub fn malformed(why: impl std::fmt::Display) -> CryptoError {
  CryptoError::invalid_value(
    "data",
    "an age file (age-encryption.org/v1)",
    format!("a malformed header: {why}"),
  )
}

/// An argument: one or more visible ASCII characters (`1*VCHAR`).
fn is_arg(s: &[u8]) -> bool {
  !s.is_empty() && s.iter().all(|c| (0x21..=0x7e).contains(c))
}

/// A field of canonical unpadded base64 (`None` for anything else, `=` padding included).
pub fn decode_b64(s: &[u8]) -> Option<Vec<u8>> {
  PHC_B64.decode(std::str::from_utf8(s).ok()?).ok()
}

/// Reads the header at the start of `data`.
pub fn parse(data: &[u8]) -> CryptoResult<Parsed<'_>> {
  if !data.starts_with(INTRO) {
    return Err(if data.starts_with(VERSION_PREFIX) {
      malformed("an unsupported version line (only age-encryption.org/v1 is read)")
    } else {
      malformed("it does not start with \"age-encryption.org/v1\" (nor with ASCII armor)")
    });
  }
  let window = &data[..data.len().min(MAX_HEADER)];
  let mut at = INTRO.len();
  let mut stanzas: Vec<Stanza> = Vec::new();
  // The stanza whose body is being read, until its short last line.
  let mut open: Option<Stanza> = None;
  loop {
    let Some(len) = window[at..].iter().position(|&c| c == b'\n') else {
      return Err(if window.len() < data.len() {
        malformed(format!("no MAC line in the first {MAX_HEADER} bytes"))
      } else {
        malformed("the file ends inside the header")
      });
    };
    let line = &window[at..at + len];
    let start = at;
    at += len + 1;
    if let Some(mut s) = open.take() {
      if line.len() > COLUMNS {
        return Err(malformed("a body line longer than 64 columns"));
      }
      let bytes = decode_b64(line).ok_or_else(|| {
        malformed("a stanza body line that is not canonical unpadded base64 (every stanza ends with a line shorter than 64 columns)")
      })?;
      s.body.extend_from_slice(&bytes);
      if bytes.len() == BYTES_PER_LINE {
        open = Some(s);
      } else {
        stanzas.push(s);
      }
    } else if let Some(rest) = line.strip_prefix(b"---") {
      let mac = rest
        .strip_prefix(b" ")
        .and_then(decode_b64)
        .and_then(|m| <[u8; MAC_LEN]>::try_from(m).ok())
        .ok_or_else(|| {
          malformed("the MAC line is not \"--- \" and a 32-byte canonical base64 MAC")
        })?;
      if stanzas.is_empty() {
        return Err(malformed("no recipient stanza"));
      }
      return Ok(Parsed {
        stanzas,
        mac,
        mac_input: &data[..start + 3],
        payload: &data[at..],
      });
    } else if let Some(rest) = line.strip_prefix(b"->") {
      if stanzas.len() == MAX_STANZAS {
        return Err(malformed(format!("more than {MAX_STANZAS} stanzas")));
      }
      let rest = rest
        .strip_prefix(b" ")
        .ok_or_else(|| malformed("a stanza line that does not start with \"-> \""))?;
      let mut args = Vec::new();
      for a in rest.split(|&c| c == b' ') {
        if !is_arg(a) {
          return Err(malformed(
            "a stanza argument that is empty or not visible ASCII",
          ));
        }
        if args.len() == MAX_ARGS {
          return Err(malformed(format!(
            "a stanza with more than {MAX_ARGS} arguments"
          )));
        }
        // Visible ASCII, so valid UTF-8.
        args.push(String::from_utf8_lossy(a).into_owned());
      }
      let kind = args.remove(0);
      open = Some(Stanza {
        kind,
        args,
        body: Vec::new(),
      });
    } else {
      return Err(malformed(
        "a line that is neither a stanza, a stanza body nor the MAC line",
      ));
    }
  }
}

/// Appends the header without its MAC: the version line, the stanzas, and "---" (the bytes the
/// MAC covers).
pub fn write(stanzas: &[Stanza], out: &mut Vec<u8>) {
  out.extend_from_slice(INTRO);
  for s in stanzas {
    out.extend_from_slice(b"->");
    for a in std::iter::once(&s.kind).chain(&s.args) {
      out.push(b' ');
      out.extend_from_slice(a.as_bytes());
    }
    out.push(b'\n');
    // Full lines of 48 bytes, then the short last line (empty when the body fills its lines).
    let mut lines = s.body.chunks(BYTES_PER_LINE);
    loop {
      let line = lines.next().unwrap_or(&[]);
      out.extend_from_slice(PHC_B64.encode(line).as_bytes());
      out.push(b'\n');
      if line.len() < BYTES_PER_LINE {
        break;
      }
    }
  }
  out.extend_from_slice(b"---");
}

/// Appends the MAC line after [`write`]'s output.
pub fn write_mac(mac: &[u8; MAC_LEN], out: &mut Vec<u8>) {
  out.push(b' ');
  out.extend_from_slice(PHC_B64.encode(mac).as_bytes());
  out.push(b'\n');
}
