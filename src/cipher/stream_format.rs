//! The library's streaming AEAD format (`docs/stream-format.md`, the byte layout and the
//! reasons): a bounded header, then the segments of the STREAM construction (`stream.rs`), sealed
//! under a per-stream key that HKDF derives from the caller's key (or the Argon2id output of a
//! passphrase), the header's random salt, the whole header and the additional data.
//!
//! ```text
//! header = magic "cjs.aead" ‖ version 1 ‖ algorithm ‖ segment size (u32 BE) ‖ key source
//!          [‖ Argon2id m (KiB, u32 BE) ‖ t (u32 BE) ‖ p (u32 BE) ‖ Argon2 salt (16)]
//!          ‖ HKDF salt (32) ‖ nonce prefix (7 for AES-256-GCM, 19 for XChaCha20-Poly1305)
//! key    = HKDF-SHA-256(ikm = key or Argon2id(passphrase), salt = HKDF salt,
//!                       info = "cryptographer.js stream v1" ‖ header ‖ aad, 32 bytes)
//! ```
//!
//! The header is not sealed: it is authenticated through the key, since any change to it (or to
//! the aad) gives another key and the first segment fails. It is bounded and checked before any
//! work: a segment size in 1 KiB..16 MiB, Argon2 parameters under the caller's ceilings.
//!
//! [`Spec`] is one call's request (direction, algorithm, key or passphrase, options). It is the
//! [`StreamFormat`] the file pipeline runs (`stream_file.rs`) and what the Transforms' native
//! state is made from ([`StreamState`], through [`InitJob`]).

use std::cell::RefCell;

use argon2_rust::{Algorithm, Version};
use zeroize::Zeroizing;

use super::stream::{Opener, Sealer, SegmentAead, Segments, TAG_LEN};
use crate::error::{Code, CryptoError, CryptoResult};
use crate::hash::list::Alg;
use crate::js::{Kept, Tag};
use crate::kdf::argon2::{self, Argon2Limits, Load};
use crate::kdf::hkdf;
use crate::stream_file::{Begun, Body, Sink, StreamFormat};
use crate::task::{Cancel, Job, Output};

pub const MAGIC: [u8; 8] = *b"cjs.aead";
pub const VERSION: u8 = 1;
/// The HKDF info starts with this label.
pub const LABEL: &[u8] = b"cryptographer.js stream v1";
pub const MIN_SEGMENT: u32 = 1 << 10;
pub const MAX_SEGMENT: u32 = 16 << 20;
pub const DEFAULT_SEGMENT: u32 = 64 << 10;
const HKDF_SALT_LEN: usize = 32;
const ARGON2_SALT_LEN: usize = 16;
/// magic, version, algorithm, segment size, key source.
const FIXED_LEN: usize = 8 + 1 + 1 + 4 + 1;
/// Argon2id m, t, p and salt.
const ARGON2_LEN: usize = 12 + ARGON2_SALT_LEN;

/// The key sources (the byte after the segment size).
const SOURCE_KEY: u8 = 0;
const SOURCE_ARGON2ID: u8 = 1;

/// One algorithm of the format: its byte in the header, its segment AEAD, the JS namespace that
/// offers it.
#[derive(Debug, PartialEq, Eq)]
pub struct StreamAlg {
  pub id: u8,
  pub aead: SegmentAead,
  pub namespace: &'static str,
  pub name: &'static str,
}

/// THE algorithm list of the format.
pub const ALGORITHMS: [StreamAlg; 2] = [
  StreamAlg {
    id: 1,
    aead: SegmentAead::Aes256Gcm,
    namespace: "aes",
    name: "AES-256-GCM",
  },
  StreamAlg {
    id: 2,
    aead: SegmentAead::XChaCha20Poly1305,
    namespace: "xchacha20",
    name: "XChaCha20-Poly1305",
  },
];

impl StreamAlg {
  pub fn from_id(id: u32) -> Option<&'static StreamAlg> {
    ALGORITHMS.iter().find(|a| u32::from(a.id) == id)
  }

  /// The header's length for this algorithm, with or without the Argon2id fields.
  pub const fn header_len(&self, passphrase: bool) -> usize {
    FIXED_LEN + if passphrase { ARGON2_LEN } else { 0 } + HKDF_SALT_LEN + self.aead.prefix_len()
  }
}

/// The longest header of any algorithm: what a reader collects before it parses.
pub fn max_header_len() -> usize {
  ALGORITHMS
    .iter()
    .map(|a| a.header_len(true))
    .max()
    .unwrap_or(0)
}

/// Argon2id's cost, as the header stores it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cost {
  /// Memory in KiB.
  pub m: u32,
  pub t: u32,
  pub p: u32,
}

/// The library's password policy (`lib/password.js`): Argon2id 64 MiB, t = 3, p = 1.
pub const DEFAULT_COST: Cost = Cost {
  m: 64 << 10,
  t: 3,
  p: 1,
};

#[derive(Clone, Debug, PartialEq, Eq)]
enum Source {
  Key,
  Argon2id(Cost, [u8; ARGON2_SALT_LEN]),
}

/// A parsed or new header.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Header {
  alg: &'static StreamAlg,
  segment_size: u32,
  source: Source,
  hkdf_salt: [u8; HKDF_SALT_LEN],
  prefix: Vec<u8>,
}

/// A refused header: `ERR_CRYPTO_DECRYPT_FAILED` (a flipped bit anywhere is refused with the
/// same code), with a message saying what is wrong, since nothing secret is involved yet.
fn bad_header(why: impl std::fmt::Display) -> CryptoError {
  CryptoError::new(
    Code::DecryptFailed,
    format!("Unable to decrypt the stream: {why}"),
  )
}

impl Header {
  fn encode(&self) -> Vec<u8> {
    let mut h = Vec::with_capacity(self.alg.header_len(true));
    h.extend_from_slice(&MAGIC);
    h.push(VERSION);
    h.push(self.alg.id);
    h.extend_from_slice(&self.segment_size.to_be_bytes());
    match &self.source {
      Source::Key => h.push(SOURCE_KEY),
      Source::Argon2id(c, salt) => {
        h.push(SOURCE_ARGON2ID);
        for x in [c.m, c.t, c.p] {
          h.extend_from_slice(&x.to_be_bytes());
        }
        h.extend_from_slice(salt);
      }
    }
    h.extend_from_slice(&self.hkdf_salt);
    h.extend_from_slice(&self.prefix);
    h
  }

  /// The header at the start of `input` and its length. Every field is checked here, before
  /// any key derivation: the magic, the version, a known algorithm, the segment size's range, a
  /// known key source, Argon2 parameters Argon2 accepts.
  fn parse(input: &[u8]) -> CryptoResult<(Header, usize)> {
    let mut r = Reader(input);
    if r.take(MAGIC.len())? != MAGIC {
      return Err(bad_header(
        "it does not start with the format's magic bytes",
      ));
    }
    let version = r.byte()?;
    if version != VERSION {
      return Err(bad_header(format_args!(
        "format version {version} (this library reads version {VERSION})"
      )));
    }
    let id = r.byte()?;
    let alg = StreamAlg::from_id(u32::from(id))
      .ok_or_else(|| bad_header(format_args!("unknown algorithm {id}")))?;
    let segment_size = r.u32()?;
    if !(MIN_SEGMENT..=MAX_SEGMENT).contains(&segment_size) {
      return Err(bad_header(format_args!(
        "segment size {segment_size} outside {MIN_SEGMENT}..={MAX_SEGMENT}"
      )));
    }
    let source = match r.byte()? {
      SOURCE_KEY => Source::Key,
      SOURCE_ARGON2ID => {
        let cost = Cost {
          m: r.u32()?,
          t: r.u32()?,
          p: r.u32()?,
        };
        let mut salt = [0u8; ARGON2_SALT_LEN];
        salt.copy_from_slice(r.take(ARGON2_SALT_LEN)?);
        argon2_params(cost, &salt)
          .check()
          .map_err(|e| bad_header(format_args!("Argon2id parameters: {}", e.message)))?;
        Source::Argon2id(cost, salt)
      }
      other => return Err(bad_header(format_args!("unknown key source {other}"))),
    };
    let mut hkdf_salt = [0u8; HKDF_SALT_LEN];
    hkdf_salt.copy_from_slice(r.take(HKDF_SALT_LEN)?);
    let prefix = r.take(alg.aead.prefix_len())?.to_vec();
    let header = Header {
      alg,
      segment_size,
      source,
      hkdf_salt,
      prefix,
    };
    Ok((header, input.len() - r.0.len()))
  }
}

/// Reads the header's fields in order; running out of bytes is a truncated header.
struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
  fn take(&mut self, n: usize) -> CryptoResult<&'a [u8]> {
    if self.0.len() < n {
      return Err(bad_header("the header is incomplete"));
    }
    let (head, rest) = self.0.split_at(n);
    self.0 = rest;
    Ok(head)
  }

  fn byte(&mut self) -> CryptoResult<u8> {
    Ok(self.take(1)?[0])
  }

  fn u32(&mut self) -> CryptoResult<u32> {
    let b = self.take(4)?;
    Ok(u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
  }
}

fn argon2_params(cost: Cost, salt: &[u8]) -> argon2::Params {
  argon2::Params {
    algorithm: Algorithm::Argon2id,
    version: Version::V0x13,
    m: cost.m,
    t: cost.t,
    p: cost.p,
    salt: salt.to_vec(),
    ad: Vec::new(),
    key_length: 32,
  }
}

/// The stream key: HKDF-SHA-256 over the input key material, keyed to the whole header and aad.
fn stream_key(
  ikm: &[u8],
  header: &Header,
  encoded: &[u8],
  aad: &[u8],
) -> CryptoResult<Zeroizing<[u8; 32]>> {
  let mut info = Vec::with_capacity(LABEL.len() + encoded.len() + aad.len());
  info.extend_from_slice(LABEL);
  info.extend_from_slice(encoded);
  info.extend_from_slice(aad);
  let mut key = Zeroizing::new([0u8; 32]);
  hkdf::derive(
    Alg::Sha256,
    ikm,
    Some(&header.hkdf_salt),
    &info,
    &mut key[..],
  )?;
  Ok(key)
}

/// One call's request: which way, which algorithm, the secret and the options.
pub struct Spec {
  pub alg: &'static StreamAlg,
  pub decrypt: bool,
  /// The 32-byte key, or the passphrase when `passphrase`.
  pub secret: Zeroizing<Vec<u8>>,
  pub passphrase: bool,
  pub aad: Vec<u8>,
  /// Encryption: plaintext bytes per segment, and Argon2id's cost for a passphrase.
  pub segment_size: u32,
  pub cost: Cost,
  /// Decryption: the ceilings on the Argon2id parameters a header may ask for.
  pub limits: Argon2Limits,
  /// Bytes of an enclosing format before the stream header (a hybrid envelope's KEM
  /// ciphertexts): written first when sealing; when opening, the input must start with exactly
  /// these bytes, which are skipped. Empty for a plain stream.
  pub lead: Vec<u8>,
}

impl Spec {
  /// Refuses, at call time, an Argon2id cost Argon2 does not accept (`ERR_OUT_OF_RANGE`).
  pub fn check_cost(&self) -> CryptoResult<()> {
    argon2_params(self.cost, &[0; ARGON2_SALT_LEN]).check()
  }

  /// The input key material: the key, or Argon2id of the passphrase (on this thread: the callers
  /// run on the pool; cancellable between passes when long).
  fn ikm(&self, source: &Source, cancel: &Cancel) -> CryptoResult<Zeroizing<Vec<u8>>> {
    match source {
      Source::Key => Ok(self.secret.clone()),
      Source::Argon2id(cost, salt) => {
        let _load = Load::new();
        let mut out = Zeroizing::new(vec![0u8; 32]);
        argon2::compute(
          &argon2_params(*cost, salt),
          &self.secret,
          b"",
          &mut out,
          cancel,
        )?;
        Ok(out)
      }
    }
  }

  fn seal(self, cancel: &Cancel) -> CryptoResult<Begun<Codec>> {
    let source = if self.passphrase {
      let mut salt = [0u8; ARGON2_SALT_LEN];
      crate::random::fill(&mut salt)?;
      Source::Argon2id(self.cost, salt)
    } else {
      Source::Key
    };
    let mut hkdf_salt = [0u8; HKDF_SALT_LEN];
    crate::random::fill(&mut hkdf_salt)?;
    let header = Header {
      alg: self.alg,
      segment_size: self.segment_size,
      source,
      hkdf_salt,
      prefix: crate::random::bytes(self.alg.aead.prefix_len())?,
    };
    let encoded = header.encode();
    let key = stream_key(
      &self.ikm(&header.source, cancel)?,
      &header,
      &encoded,
      &self.aad,
    )?;
    let segments = Segments::new(self.alg.aead, &key, &header.prefix)?;
    Ok(Begun {
      lead: [&self.lead[..], &encoded].concat(),
      consumed: 0,
      body: Codec::Seal(
        Sealer::new(segments, header.segment_size as usize),
        header.segment_size,
      ),
    })
  }

  fn open(self, head: &[u8], cancel: &Cancel) -> CryptoResult<Begun<Codec>> {
    let head = head
      .strip_prefix(&self.lead[..])
      .ok_or_else(|| bad_header("it does not start with the expected envelope bytes"))?;
    let (header, n) = Header::parse(head)?;
    if header.alg.id != self.alg.id {
      return Err(bad_header(format_args!(
        "it was sealed with {}, not {}",
        header.alg.name, self.alg.name
      )));
    }
    match (&header.source, self.passphrase) {
      (Source::Key, true) => {
        return Err(bad_header(
          "it was sealed with a key, not a passphrase (options.key)",
        ))
      }
      (Source::Argon2id(..), false) => {
        return Err(bad_header(
          "it was sealed with a passphrase (options.passphrase)",
        ))
      }
      (Source::Argon2id(cost, salt), true) => self
        .limits
        .check_for(&argon2_params(*cost, salt), "for a stream header")
        .map_err(|e| bad_header(e.message))?,
      (Source::Key, false) => {}
    }
    let key = stream_key(
      &self.ikm(&header.source, cancel)?,
      &header,
      &head[..n],
      &self.aad,
    )?;
    let segments = Segments::new(self.alg.aead, &key, &header.prefix)?;
    Ok(Begun {
      lead: Vec::new(),
      consumed: self.lead.len() + n,
      body: Codec::Open(
        Opener::new(segments, header.segment_size as usize),
        header.segment_size,
      ),
    })
  }
}

impl StreamFormat for Spec {
  type Body = Codec;

  fn head_len(&self) -> usize {
    if self.decrypt {
      self.lead.len() + max_header_len()
    } else {
      0
    }
  }

  fn begin(self, head: &[u8], cancel: &Cancel) -> CryptoResult<Begun<Codec>> {
    if self.decrypt {
      self.open(head, cancel)
    } else {
      self.seal(cancel)
    }
  }

  fn memory(&self, head: &[u8]) -> Option<(&'static str, u64)> {
    if !self.passphrase {
      return None;
    }
    let params = if self.decrypt {
      let (header, _) = Header::parse(head.strip_prefix(&self.lead[..])?).ok()?;
      let Source::Argon2id(cost, salt) = header.source else {
        return None;
      };
      let params = argon2_params(cost, &salt);
      self.limits.check_for(&params, "").ok()?;
      params
    } else {
      argon2_params(self.cost, &[0; ARGON2_SALT_LEN])
    };
    Some(("Argon2", params.memory()))
  }
}

/// The segment state machine of one direction, with its segment size.
pub enum Codec {
  Seal(Sealer, u32),
  Open(Opener, u32),
}

impl Body for Codec {
  fn push<S: Sink + ?Sized>(&mut self, input: &[u8], out: &mut S) -> CryptoResult<()> {
    match self {
      Codec::Seal(s, _) => s.push(input, out),
      Codec::Open(o, _) => o.push(input, out),
    }
  }

  fn finish<S: Sink + ?Sized>(self, out: &mut S) -> CryptoResult<()> {
    match self {
      Codec::Seal(s, _) => s.finish(out),
      Codec::Open(o, _) => o.finish(out),
    }
  }

  fn piece_len(&self) -> usize {
    match self {
      Codec::Seal(_, n) => *n as usize,
      Codec::Open(_, n) => *n as usize + TAG_LEN,
    }
  }
}

/// The native state behind `encryptStream()` / `decryptStream()`: output owed to the next call
/// (the header when sealing), and the segment state machine, gone after `final` or any failure.
pub struct StreamState(RefCell<(Vec<u8>, Option<Codec>)>);

impl Kept for StreamState {
  const TAG: Tag = Tag {
    lower: 0x6372_7970_746f_7374,
    upper: 0x7265_616d_2e61_6561,
  };
  const WHAT: &'static str = "a stream made by encryptStream() or decryptStream()";
}

impl StreamState {
  /// The output of `input` (and what was owed); with `last`, the rest after it (the last
  /// segment). After an error, or after the last call, the state refuses everything, so nothing
  /// is ever released past a failed segment.
  pub fn run(&self, input: &[u8], last: bool) -> CryptoResult<Vec<u8>> {
    let mut state = self
      .0
      .try_borrow_mut()
      .map_err(|_| CryptoError::internal())?;
    let (lead, body) = &mut *state;
    let mut codec = body.take().ok_or_else(|| {
      CryptoError::new(
        Code::Operation,
        "The stream has ended or failed: it takes no more data",
      )
    })?;
    let mut out = std::mem::take(lead);
    out.reserve(input.len() + TAG_LEN * (input.len() / codec.piece_len() + 2));
    codec.push(input, &mut out)?;
    if last {
      codec.finish(&mut out)?;
    } else {
      *body = Some(codec);
    }
    Ok(out)
  }
}

/// Makes a [`StreamState`]: the key derivation (Argon2id for a passphrase: run on the pool),
/// and, when decrypting, the header read from `head` (at least the header, or the whole input
/// if it is shorter), whose bytes past the header go to the opener.
pub struct InitJob {
  pub spec: Option<Spec>,
  pub head: Zeroizing<Vec<u8>>,
}

impl Job for InitJob {
  fn run(&mut self, cancel: &Cancel) -> CryptoResult<Output> {
    // The spec is consumed below: any waiting for memory comes first.
    let spec = self.spec.as_ref().ok_or_else(CryptoError::internal)?;
    if let Some((what, bytes)) = spec.memory(&self.head) {
      crate::budget::reserve(what, bytes)?;
    }
    let spec = self.spec.take().ok_or_else(CryptoError::internal)?;
    let Begun {
      mut lead,
      consumed,
      mut body,
    } = spec.begin(&self.head, cancel)?;
    body.push(&self.head[consumed..], &mut lead)?;
    Ok(Output::Kept(Box::new(StreamState(RefCell::new((
      lead,
      Some(body),
    ))))))
  }
}

#[cfg(test)]
mod tests {
  use super::*;

  fn spec(
    alg: &'static StreamAlg,
    decrypt: bool,
    secret: &[u8],
    passphrase: bool,
    aad: &[u8],
  ) -> Spec {
    Spec {
      alg,
      decrypt,
      secret: Zeroizing::new(secret.to_vec()),
      passphrase,
      aad: aad.to_vec(),
      segment_size: MIN_SEGMENT,
      cost: Cost { m: 64, t: 1, p: 1 },
      // Low ceilings: a flipped bit in m or t must not start a large hash in the test.
      limits: Argon2Limits {
        max_memory_cost: Some(1024),
        max_time_cost: Some(4),
        max_parallelism: Some(8),
      },
      lead: Vec::new(),
    }
  }

  fn seal(s: Spec, plain: &[u8]) -> Vec<u8> {
    let Begun {
      mut lead, mut body, ..
    } = s.begin(&[], &Cancel::NEVER).unwrap();
    body.push(plain, &mut lead).unwrap();
    body.finish(&mut lead).unwrap();
    lead
  }

  fn open(s: Spec, sealed: &[u8]) -> CryptoResult<Vec<u8>> {
    let head = &sealed[..sealed.len().min(s.head_len())];
    let Begun {
      consumed, mut body, ..
    } = s.begin(head, &Cancel::NEVER)?;
    let mut out = Vec::new();
    body.push(&sealed[consumed..], &mut out)?;
    body.finish(&mut out)?;
    Ok(out)
  }

  #[test]
  fn header_round_trip_and_lengths() {
    for alg in &ALGORITHMS {
      for source in [Source::Key, Source::Argon2id(DEFAULT_COST, [5; 16])] {
        let h = Header {
          alg,
          segment_size: DEFAULT_SEGMENT,
          source: source.clone(),
          hkdf_salt: [7; 32],
          prefix: vec![9; alg.aead.prefix_len()],
        };
        let bytes = h.encode();
        assert_eq!(bytes.len(), alg.header_len(source != Source::Key));
        let mut longer = bytes.clone();
        longer.extend_from_slice(b"segments");
        assert_eq!(Header::parse(&longer).unwrap(), (h, bytes.len()));
        for cut in 0..bytes.len() {
          assert_eq!(
            Header::parse(&bytes[..cut]).unwrap_err().code,
            Code::DecryptFailed
          );
        }
      }
    }
    assert_eq!(max_header_len(), 15 + 28 + 32 + 19);
  }

  #[test]
  fn round_trips_and_every_header_bit() {
    for alg in &ALGORITHMS {
      for (secret, pass) in [(&[3u8; 32][..], false), (&b"pass"[..], true)] {
        let plain: Vec<u8> = (0..2500u32).map(|i| i as u8).collect();
        let sealed = seal(spec(alg, false, secret, pass, b"aad"), &plain);
        assert_eq!(
          open(spec(alg, true, secret, pass, b"aad"), &sealed).unwrap(),
          plain
        );
        assert!(open(spec(alg, true, secret, pass, b"other"), &sealed).is_err());
        let n = alg.header_len(pass);
        for bit in 0..n * 8 {
          let mut bad = sealed.clone();
          bad[bit / 8] ^= 1 << (bit % 8);
          let e = open(spec(alg, true, secret, pass, b"aad"), &bad).unwrap_err();
          assert_eq!(e.code, Code::DecryptFailed, "bit {bit}: {}", e.message);
        }
      }
    }
  }
}
