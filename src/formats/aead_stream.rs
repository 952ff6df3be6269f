//! The library's streaming AEAD format (`docs/stream-format.md`, the byte layout and the
//! reasons): a bounded header, then the segments of the STREAM construction (`stream.rs`), sealed
//! under a per-stream key that HKDF derives from the caller's key (or the Argon2id output of a
//! passphrase), the header's random salt, the whole header and the additional data.
//!
//! ```text
//! header = magic "cjs.aead" ‖ version 2 ‖ algorithm ‖ segment size (u32 BE) ‖ key source
//!          [‖ Argon2id m (KiB, u32 BE) ‖ t (u32 BE) ‖ p (u32 BE) [‖ Argon2id salt (16)]]
//!          ‖ salt (32) ‖ commitment (32)
//! ikm    = key (source 0), Argon2id(passphrase, salt, m, t, p) (source 1), or
//!          Argon2id(passphrase, Argon2id salt, m, t, p) (source 2: a key derived once from a
//!          passphrase, which seals many streams, each under its own salt)
//! okm    = HKDF-SHA-256(ikm, salt, info = "cryptographer.js stream v2" ‖ header before the
//!                       commitment ‖ aad, 64 + nonce prefix length)
//!        = segment key (32) ‖ commitment (32) ‖ nonce prefix (7 or 19)
//! ```
//!
//! Version 2 commits to the key: the header stores the commitment, which a reader compares in
//! constant time before it opens any segment. GCM and Poly1305 tags do not commit to their key (a
//! crafted segment can verify under several keys), so version 1, whose only check is the first
//! segment's tag, lets one stream open under two passphrases: a partitioning oracle. Version 1
//! (a 16-byte Argon2id salt of its own and a stored nonce prefix instead of the commitment, label
//! "cryptographer.js stream v1", 32-byte key) is read on request (`allow_v1`) and never written.
//!
//! The header is bounded and checked before any work: a segment size in 1 KiB..16 MiB, Argon2
//! parameters under the caller's ceilings. [`Header::parse`] is a plain function over bytes.
//!
//! [`Spec`] is one call's request (direction, algorithm, [`StreamSecret`], options). It is the
//! [`Format`] the file pipeline runs (`file.rs`), what the Transforms' native
//! state is made from ([`TransformState`], through [`TransformInitJob`]), and, whole in memory
//! ([`Spec::run_all`]), a sealed message (`seal.rs`).

use std::cell::RefCell;

use argon2_rust::{Algorithm, Version};
use zeroize::Zeroizing;

use super::stream::{Opener, Sealer, SegmentAead, Segments, TAG_LEN};
use super::{Begun, Body, Format, Sink};
use crate::error::{Code, CryptoError, CryptoResult};
use crate::hash::list::Alg;
use crate::js::{Kept, Tag};
use crate::kdf::argon2::{self, Argon2Limits, Load};
use crate::kdf::hkdf;
use crate::task::{Cancel, Job, Output};

pub const MAGIC: [u8; 8] = *b"cjs.aead";
/// The version the writers write: key-committing.
const VERSION: u8 = 2;
/// The HKDF info of version 2 starts with this label.
pub const LABEL: &[u8] = b"cryptographer.js stream v2";
/// Version 1's label.
const LABEL_V1: &[u8] = b"cryptographer.js stream v1";
pub const MIN_SEGMENT: u32 = 1 << 10;
pub const MAX_SEGMENT: u32 = 16 << 20;
pub const DEFAULT_SEGMENT: u32 = 64 << 10;
const SALT_LEN: usize = 32;
const COMMITMENT_LEN: usize = 32;
/// An Argon2id salt stored apart from the stream's salt: version 1's, and version 2's with key
/// source 2 (key source 1 uses `salt`).
const ARGON2_SALT_LEN: usize = 16;
/// magic, version, algorithm, segment size, key source.
const FIXED_LEN: usize = 8 + 1 + 1 + 4 + 1;
/// Argon2id m, t, p.
const COST_LEN: usize = 12;

/// The key sources (the byte after the segment size).
const SOURCE_KEY: u8 = 0;
const SOURCE_ARGON2ID: u8 = 1;
/// Version 2 only: Argon2id over a salt of its own, fixed for every stream a derived key seals.
const SOURCE_DERIVED: u8 = 2;

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

  /// The header's length in `version` (1 or 2) for this algorithm and key source byte.
  const fn header_len(&self, version: u8, source: u8) -> usize {
    let tail = if version == 1 {
      self.aead.prefix_len()
    } else {
      COMMITMENT_LEN
    };
    let cost = match (source, version) {
      (SOURCE_KEY, _) => 0,
      (SOURCE_ARGON2ID, 1) | (SOURCE_DERIVED, _) => COST_LEN + ARGON2_SALT_LEN,
      _ => COST_LEN,
    };
    FIXED_LEN + cost + SALT_LEN + tail
  }
}

/// The longest header of any algorithm, version and key source: what a reader collects before
/// it parses.
pub fn max_header_len() -> usize {
  ALGORITHMS
    .iter()
    .flat_map(|a| {
      [
        a.header_len(1, SOURCE_ARGON2ID),
        a.header_len(VERSION, SOURCE_ARGON2ID),
        a.header_len(VERSION, SOURCE_DERIVED),
      ]
    })
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

impl Cost {
  /// Refuses, at call time, a cost Argon2 does not accept (`ERR_OUT_OF_RANGE`).
  pub fn check(self) -> CryptoResult<()> {
    argon2_params(self, &[0; SALT_LEN]).check()
  }
}

/// The library's one Argon2 parameter set (`kdf.argon2.defaults` in `lib/kdf.js`): Argon2id
/// 64 MiB, t = 3, p = 4, RFC 9106's second recommended option.
pub const DEFAULT_COST: Cost = Cost {
  m: 64 << 10,
  t: 3,
  p: 4,
};

/// Where a stream's input key material comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source<'a> {
  /// The caller's 32-byte key.
  Key,
  /// Argon2id of a passphrase, with this cost and salt (the header's salt with key source 1,
  /// its own with key source 2 and in version 1).
  Argon2id { cost: Cost, salt: &'a [u8] },
}

/// A passphrase's Argon2id output under one salt and cost, derived once to seal many streams
/// (key source 2): each stream's own random salt, through HKDF, still gives it a fresh key and
/// nonces.
#[derive(Clone)]
pub struct DerivedKey {
  pub cost: Cost,
  pub salt: [u8; ARGON2_SALT_LEN],
  ikm: Zeroizing<[u8; 32]>,
}

impl DerivedKey {
  /// Argon2id of `passphrase` at `cost` under a new random salt (on this thread; cancellable
  /// between passes when long).
  pub fn derive(passphrase: &[u8], cost: Cost, cancel: &Cancel) -> CryptoResult<DerivedKey> {
    let mut salt = [0u8; ARGON2_SALT_LEN];
    crate::random::fill(&mut salt)?;
    let mut ikm = Zeroizing::new([0u8; 32]);
    argon2id(passphrase, cost, &salt, &mut ikm[..], cancel)?;
    Ok(DerivedKey { cost, salt, ikm })
  }
}

/// What a stream's key material is.
#[derive(Clone)]
pub enum StreamSecret {
  /// A 32-byte key (key source 0).
  Key(Zeroizing<Vec<u8>>),
  /// A passphrase, through Argon2id over each stream's salt (key source 1 when sealing).
  Passphrase(Zeroizing<Vec<u8>>),
  /// A key derived from a passphrase (key source 2).
  Derived(DerivedKey),
}

impl StreamSecret {
  /// The key source byte of the headers it seals.
  pub const fn source(&self) -> u8 {
    match self {
      StreamSecret::Key(_) => SOURCE_KEY,
      StreamSecret::Passphrase(_) => SOURCE_ARGON2ID,
      StreamSecret::Derived(_) => SOURCE_DERIVED,
    }
  }
}

/// What follows the salt: the version's own field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Check<'a> {
  /// Version 1: the stored nonce prefix. Nothing commits to the key.
  V1 { prefix: &'a [u8] },
  /// Version 2: the commitment to the key material, the header and the aad.
  V2 { commitment: &'a [u8] },
}

/// A parsed header, borrowing the bytes it was read from: every field checked, nothing derived.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header<'a> {
  pub alg: &'static StreamAlg,
  pub segment_size: u32,
  pub source: Source<'a>,
  /// HKDF's salt (and, in version 2, Argon2id's).
  pub salt: &'a [u8],
  pub check: Check<'a>,
  /// The whole header, as stored.
  pub bytes: &'a [u8],
}

/// A refused header: `ERR_CRYPTO_DECRYPT_FAILED` (a flipped bit anywhere is refused with the
/// same code), with a message saying what is wrong, since nothing secret is involved yet.
fn bad_header(why: impl std::fmt::Display) -> CryptoError {
  CryptoError::new(
    Code::DecryptFailed,
    format!("Unable to decrypt the stream: {why}"),
  )
}

impl<'a> Header<'a> {
  /// The header at the start of `input` (which may go on with the segments). Every field is
  /// checked here, before any key derivation: the magic, the version, a known algorithm, the
  /// segment size's range, a known key source, Argon2 parameters Argon2 accepts. It reads at most
  /// [`max_header_len`] bytes and allocates nothing.
  pub fn parse(input: &'a [u8]) -> CryptoResult<Header<'a>> {
    let mut r = Reader(input);
    if r.take(MAGIC.len())? != MAGIC {
      return Err(bad_header(
        "it does not start with the format's magic bytes",
      ));
    }
    let version = r.byte()?;
    if version != 1 && version != VERSION {
      return Err(bad_header(format_args!(
        "format version {version} (this library reads versions 1 and {VERSION})"
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
    // Whether Argon2id's cost follows the key source byte, and then a salt of its own.
    let (has_cost, own_salt) = match (r.byte()?, version) {
      (SOURCE_KEY, _) => (false, false),
      (SOURCE_ARGON2ID, 1) | (SOURCE_DERIVED, VERSION) => (true, true),
      (SOURCE_ARGON2ID, _) => (true, false),
      (other, _) => return Err(bad_header(format_args!("unknown key source {other}"))),
    };
    let cost = if has_cost {
      Some(Cost {
        m: r.u32()?,
        t: r.u32()?,
        p: r.u32()?,
      })
    } else {
      None
    };
    let argon2_salt = if own_salt {
      Some(r.take(ARGON2_SALT_LEN)?)
    } else {
      None
    };
    let salt = r.take(SALT_LEN)?;
    let source = match cost {
      None => Source::Key,
      Some(cost) => {
        let salt = argon2_salt.unwrap_or(salt);
        argon2_params(cost, salt)
          .check()
          .map_err(|e| bad_header(format_args!("Argon2id parameters: {}", e.message)))?;
        Source::Argon2id { cost, salt }
      }
    };
    let check = if version == 1 {
      Check::V1 {
        prefix: r.take(alg.aead.prefix_len())?,
      }
    } else {
      Check::V2 {
        commitment: r.take(COMMITMENT_LEN)?,
      }
    };
    let n = input.len() - r.0.len();
    Ok(Header {
      alg,
      segment_size,
      source,
      salt,
      check,
      bytes: &input[..n],
    })
  }

  /// A new version-2 header's bytes for `secret` (`cost`: a passphrase's), its commitment zero
  /// (filled in by [`Spec::seal`]).
  fn encode(
    alg: &StreamAlg,
    segment_size: u32,
    secret: &StreamSecret,
    cost: Cost,
    salt: &[u8],
  ) -> Vec<u8> {
    let (cost, argon2_salt) = match secret {
      StreamSecret::Key(_) => (None, None),
      StreamSecret::Passphrase(_) => (Some(cost), None),
      StreamSecret::Derived(d) => (Some(d.cost), Some(&d.salt)),
    };
    let mut h = Vec::with_capacity(alg.header_len(VERSION, secret.source()));
    h.extend_from_slice(&MAGIC);
    h.push(VERSION);
    h.push(alg.id);
    h.extend_from_slice(&segment_size.to_be_bytes());
    h.push(secret.source());
    if let Some(c) = cost {
      for x in [c.m, c.t, c.p] {
        h.extend_from_slice(&x.to_be_bytes());
      }
    }
    h.extend_from_slice(argon2_salt.map_or(&[][..], |s| &s[..]));
    h.extend_from_slice(salt);
    h.resize(h.len() + COMMITMENT_LEN, 0);
    h
  }

  /// The segment key and nonce prefix under `ikm` and `aad`, and in version 2 the commitment
  /// they must match (one HKDF output cut in three: each part is its own HMAC block).
  fn derive(&self, ikm: &[u8], aad: &[u8]) -> CryptoResult<Derived> {
    let (label, bound, len) = match self.check {
      Check::V1 { .. } => (LABEL_V1, self.bytes, 32),
      Check::V2 { .. } => (
        LABEL,
        &self.bytes[..self.bytes.len() - COMMITMENT_LEN],
        32 + COMMITMENT_LEN + self.alg.aead.prefix_len(),
      ),
    };
    let mut info = Vec::with_capacity(label.len() + bound.len() + aad.len());
    info.extend_from_slice(label);
    info.extend_from_slice(bound);
    info.extend_from_slice(aad);
    let mut okm = Zeroizing::new(vec![0u8; len]);
    hkdf::derive(Alg::Sha256, ikm, Some(self.salt), &info, &mut okm)?;
    let mut key = Zeroizing::new([0u8; 32]);
    key.copy_from_slice(&okm[..32]);
    Ok(match self.check {
      Check::V1 { prefix } => Derived {
        key,
        prefix: prefix.to_vec(),
        commitment: None,
      },
      Check::V2 { .. } => {
        let mut commitment = [0u8; COMMITMENT_LEN];
        commitment.copy_from_slice(&okm[32..64]);
        Derived {
          key,
          prefix: okm[64..].to_vec(),
          commitment: Some(commitment),
        }
      }
    })
  }
}

/// What HKDF gives one stream.
struct Derived {
  key: Zeroizing<[u8; 32]>,
  prefix: Vec<u8>,
  /// Version 2's commitment (version 1 has none).
  commitment: Option<[u8; COMMITMENT_LEN]>,
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

/// Argon2id of `passphrase` into `out` (32 bytes), on this thread (the callers run on the pool,
/// or are the synchronous forms); cancellable between passes when long.
fn argon2id(
  passphrase: &[u8],
  cost: Cost,
  salt: &[u8],
  out: &mut [u8],
  cancel: &Cancel,
) -> CryptoResult<()> {
  let _load = Load::new();
  argon2::compute(&argon2_params(cost, salt), passphrase, b"", out, cancel)
}

fn argon2_params(cost: Cost, salt: &[u8]) -> argon2::Argon2Params {
  argon2::Argon2Params {
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

/// One call's request: which way, which algorithm, the secret and the options.
pub struct Spec {
  pub alg: &'static StreamAlg,
  pub decrypt: bool,
  pub secret: StreamSecret,
  pub aad: Vec<u8>,
  /// Encryption: plaintext bytes per segment, and Argon2id's cost for a passphrase.
  pub segment_size: u32,
  pub cost: Cost,
  /// Decryption: the ceilings on the Argon2id parameters a header may ask for.
  pub limits: Argon2Limits,
  /// Decryption: whether a version-1 stream (not key-committing) is read.
  pub allow_v1: bool,
  /// Bytes of an enclosing format before the stream header (a hybrid envelope's KEM
  /// ciphertexts): written first when sealing; when opening, the input must start with exactly
  /// these bytes, which are skipped. Empty for a plain stream.
  pub lead: Vec<u8>,
}

impl Spec {
  /// Refuses, at call time, an Argon2id cost Argon2 does not accept (`ERR_OUT_OF_RANGE`).
  pub fn check_cost(&self) -> CryptoResult<()> {
    self.cost.check()
  }

  /// The whole of `input` sealed, or opened, in memory: a sealed message is a stream of this
  /// format (`seal.rs`). Opening returns plaintext only when every segment verified; the
  /// plaintext of earlier segments is wiped when a later one fails.
  pub fn run_all(self, input: &[u8], cancel: &Cancel) -> CryptoResult<Vec<u8>> {
    let head = if self.decrypt {
      &input[..input.len().min(self.head_len())]
    } else {
      &[]
    };
    let Begun {
      lead,
      consumed,
      body,
    } = self.begin(head, cancel)?;
    let input = &input[consumed..];
    // Room for the whole output first, so that it never moves: a move would leave plaintext
    // behind.
    let mut out = Zeroizing::new(lead);
    match body {
      Codec::Seal(sealer, size) => {
        out.reserve_exact(input.len() + TAG_LEN * (input.len() / size as usize + 1));
        sealer.seal_rest(input, &mut out)?;
      }
      Codec::Open(opener, _) => {
        out.reserve_exact(input.len());
        opener.open_rest(input, &mut out)?;
      }
    }
    Ok(std::mem::take(&mut *out))
  }

  /// The input key material of a header whose source matches the secret (checked by the
  /// callers): the key, Argon2id of the passphrase, or the derived key.
  fn ikm(&self, source: Source<'_>, cancel: &Cancel) -> CryptoResult<Zeroizing<Vec<u8>>> {
    match (&self.secret, source) {
      (StreamSecret::Key(key), Source::Key) => Ok(key.clone()),
      (StreamSecret::Passphrase(passphrase), Source::Argon2id { cost, salt }) => {
        let mut out = Zeroizing::new(vec![0u8; 32]);
        argon2id(passphrase, cost, salt, &mut out, cancel)?;
        Ok(out)
      }
      (StreamSecret::Derived(key), Source::Argon2id { .. }) => Ok(Zeroizing::new(key.ikm.to_vec())),
      _ => Err(CryptoError::internal()),
    }
  }

  fn seal(self, cancel: &Cancel) -> CryptoResult<Begun<Codec>> {
    let mut salt = [0u8; SALT_LEN];
    crate::random::fill(&mut salt)?;
    let mut lead = self.lead.clone();
    let header = Header::encode(self.alg, self.segment_size, &self.secret, self.cost, &salt);
    lead.extend_from_slice(&header);
    let at = self.lead.len();
    let header = Header::parse(&lead[at..])?;
    let derived = header.derive(&self.ikm(header.source, cancel)?, &self.aad)?;
    let commitment = derived.commitment.ok_or_else(CryptoError::internal)?;
    let segments = Segments::new(self.alg.aead, &derived.key, &derived.prefix)?;
    let end = lead.len();
    lead[end - COMMITMENT_LEN..].copy_from_slice(&commitment);
    Ok(Begun {
      lead,
      consumed: 0,
      body: Codec::Seal(
        Sealer::new(segments, self.segment_size as usize),
        self.segment_size,
      ),
    })
  }

  fn open(self, head: &[u8], cancel: &Cancel) -> CryptoResult<Begun<Codec>> {
    let head = head
      .strip_prefix(&self.lead[..])
      .ok_or_else(|| bad_header("it does not start with the expected envelope bytes"))?;
    let header = Header::parse(head)?;
    if header.alg.id != self.alg.id {
      return Err(bad_header(format_args!(
        "it was sealed with {}, not {}",
        header.alg.name, self.alg.name
      )));
    }
    if matches!(header.check, Check::V1 { .. }) && !self.allow_v1 {
      return Err(bad_header(
        "it is a version-1 stream, which does not commit to its key (one stream can be crafted \
         to open under two passphrases or keys); pass { allowV1: true } to read it, then \
         re-encrypt it",
      ));
    }
    match (header.source, &self.secret) {
      (Source::Key, StreamSecret::Key(_)) => {}
      (Source::Key, _) => {
        return Err(bad_header(
          "it was sealed with a key, not a passphrase (options.key)",
        ))
      }
      (Source::Argon2id { .. }, StreamSecret::Key(_)) => {
        return Err(bad_header(
          "it was sealed with a passphrase (options.passphrase)",
        ))
      }
      (Source::Argon2id { cost, salt }, StreamSecret::Passphrase(_)) => self
        .limits
        .check_for(&argon2_params(cost, salt), "for a stream header")
        .map_err(|e| bad_header(e.message))?,
      (Source::Argon2id { cost, salt }, StreamSecret::Derived(key)) => {
        if cost != key.cost || salt != key.salt {
          return Err(bad_header(
            "it was not sealed by this derived key (another Argon2id salt or cost): open it with \
             the passphrase",
          ));
        }
      }
    }
    let derived = header.derive(&self.ikm(header.source, cancel)?, &self.aad)?;
    // Before any segment: a tag check would not tell one key from another.
    if let Check::V2 { commitment } = header.check {
      let expected = derived.commitment.ok_or_else(CryptoError::internal)?;
      if !crate::ct::eq(commitment, &expected) {
        return Err(bad_header(
          "the key, passphrase or aad is not the one it was sealed with (or its header was changed)",
        ));
      }
    }
    let segments = Segments::new(self.alg.aead, &derived.key, &derived.prefix)?;
    Ok(Begun {
      lead: Vec::new(),
      consumed: self.lead.len() + header.bytes.len(),
      body: Codec::Open(
        Opener::new(segments, header.segment_size as usize),
        header.segment_size,
      ),
    })
  }
}

impl Format for Spec {
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
    if !matches!(self.secret, StreamSecret::Passphrase(_)) {
      return None;
    }
    let params = if self.decrypt {
      let header = Header::parse(head.strip_prefix(&self.lead[..])?).ok()?;
      let refused = header.alg.id != self.alg.id
        || (matches!(header.check, Check::V1 { .. }) && !self.allow_v1);
      let (Source::Argon2id { cost, salt }, false) = (header.source, refused) else {
        return None;
      };
      let params = argon2_params(cost, salt);
      self.limits.check_for(&params, "").ok()?;
      params
    } else {
      argon2_params(self.cost, &[0; SALT_LEN])
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
pub struct TransformState(RefCell<(Vec<u8>, Option<Codec>)>);

impl Kept for TransformState {
  const TAG: Tag = Tag {
    lower: 0x6372_7970_746f_7374,
    upper: 0x7265_616d_2e61_6561,
  };
  const WHAT: &'static str = "a stream made by encryptStream() or decryptStream()";
}

impl TransformState {
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

/// Makes a [`TransformState`]: the key derivation (Argon2id for a passphrase: run on the pool),
/// and, when decrypting, the header read from `head` (at least the header, or the whole input
/// if it is shorter), whose bytes past the header go to the opener.
pub struct TransformInitJob {
  pub spec: Option<Spec>,
  pub head: Zeroizing<Vec<u8>>,
}

impl Job for TransformInitJob {
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
    Ok(Output::Kept(Box::new(TransformState(RefCell::new((
      lead,
      Some(body),
    ))))))
  }
}

#[cfg(test)]
mod tests {
  use super::*;

  const COST: Cost = Cost { m: 64, t: 1, p: 1 };

  /// A secret of each kind, and another of the same kind.
  fn secrets() -> [(StreamSecret, StreamSecret); 3] {
    let pass = |p: &[u8]| Zeroizing::new(p.to_vec());
    let derived =
      |p: &[u8]| StreamSecret::Derived(DerivedKey::derive(p, COST, &Cancel::NEVER).unwrap());
    [
      (
        StreamSecret::Key(pass(&[3; 32])),
        StreamSecret::Key(pass(&[4; 32])),
      ),
      (
        StreamSecret::Passphrase(pass(b"pass")),
        StreamSecret::Passphrase(pass(b"Pass")),
      ),
      (derived(b"pass"), derived(b"Pass")),
    ]
  }

  fn spec(alg: &'static StreamAlg, decrypt: bool, secret: &StreamSecret, aad: &[u8]) -> Spec {
    Spec {
      alg,
      decrypt,
      secret: secret.clone(),
      aad: aad.to_vec(),
      segment_size: MIN_SEGMENT,
      cost: COST,
      // Low ceilings: a flipped bit in m or t must not start a large hash in the test.
      limits: Argon2Limits {
        max_memory_cost: Some(1024),
        max_time_cost: Some(4),
        max_parallelism: Some(8),
      },
      allow_v1: false,
      lead: Vec::new(),
    }
  }

  fn seal(s: Spec, plain: &[u8]) -> Vec<u8> {
    s.run_all(plain, &Cancel::NEVER).unwrap()
  }

  /// The header's checks and the key derivation only: what happens before any segment.
  fn begin(s: Spec, sealed: &[u8]) -> CryptoResult<Begun<Codec>> {
    let head = &sealed[..sealed.len().min(s.head_len())];
    s.begin(head, &Cancel::NEVER)
  }

  fn open(s: Spec, sealed: &[u8]) -> CryptoResult<Vec<u8>> {
    s.run_all(sealed, &Cancel::NEVER)
  }

  /// A version-1 stream, as the writers of that version made it (for the reading tests).
  fn seal_v1(s: &Spec, plain: &[u8]) -> Vec<u8> {
    let mut h = Vec::new();
    h.extend_from_slice(&MAGIC);
    h.extend_from_slice(&[1, s.alg.id]);
    h.extend_from_slice(&s.segment_size.to_be_bytes());
    if let StreamSecret::Passphrase(_) = s.secret {
      h.push(SOURCE_ARGON2ID);
      for x in [s.cost.m, s.cost.t, s.cost.p] {
        h.extend_from_slice(&x.to_be_bytes());
      }
      h.extend_from_slice(&[5; ARGON2_SALT_LEN]);
    } else {
      h.push(SOURCE_KEY);
    }
    h.extend_from_slice(&[7; SALT_LEN]);
    h.extend_from_slice(&crate::random::bytes(s.alg.aead.prefix_len()).unwrap());
    let header = Header::parse(&h).unwrap();
    let d = header
      .derive(&s.ikm(header.source, &Cancel::NEVER).unwrap(), &s.aad)
      .unwrap();
    assert!(d.commitment.is_none());
    let segments = Segments::new(s.alg.aead, &d.key, &d.prefix).unwrap();
    let mut sealer = Sealer::new(segments, s.segment_size as usize);
    sealer.push(plain, &mut h).unwrap();
    sealer.finish(&mut h).unwrap();
    h
  }

  #[test]
  fn header_lengths_fields_and_every_truncation() {
    for alg in &ALGORITHMS {
      for (secret, _) in secrets() {
        let bytes = Header::encode(alg, DEFAULT_SEGMENT, &secret, DEFAULT_COST, &[7; SALT_LEN]);
        assert_eq!(bytes.len(), alg.header_len(VERSION, secret.source()));
        let mut longer = bytes.clone();
        longer.extend_from_slice(b"segments");
        let h = Header::parse(&longer).unwrap();
        assert_eq!(h.bytes, &bytes[..]);
        assert_eq!(
          (h.alg, h.segment_size, h.salt),
          (alg, DEFAULT_SEGMENT, &[7; 32][..])
        );
        // Key source 1's Argon2id salt is the header's salt; key source 2's is its own.
        let source = match &secret {
          StreamSecret::Key(_) => Source::Key,
          StreamSecret::Passphrase(_) => Source::Argon2id {
            cost: DEFAULT_COST,
            salt: &[7; 32],
          },
          StreamSecret::Derived(d) => Source::Argon2id {
            cost: COST,
            salt: &d.salt,
          },
        };
        assert_eq!(h.source, source);
        assert_eq!(
          h.check,
          Check::V2 {
            commitment: &[0; 32]
          }
        );
        for cut in 0..bytes.len() {
          assert_eq!(
            Header::parse(&bytes[..cut]).unwrap_err().code,
            Code::DecryptFailed
          );
        }
      }
    }
    // Version 2: 79 bytes with a key, 91 with a passphrase, 107 with a derived key, for both
    // algorithms; the longest is what a reader collects.
    let len = |v, source| ALGORITHMS.map(|a| a.header_len(v, source));
    assert_eq!(len(2, SOURCE_KEY), [79, 79]);
    assert_eq!(len(2, SOURCE_ARGON2ID), [91, 91]);
    assert_eq!(len(2, SOURCE_DERIVED), [107, 107]);
    assert_eq!(len(1, SOURCE_KEY), [54, 66]);
    assert_eq!(len(1, SOURCE_ARGON2ID), [82, 94]);
    assert_eq!(max_header_len(), 107);
  }

  #[test]
  fn key_source_2_is_version_2_only() {
    let StreamSecret::Derived(d) = secrets()[2].0.clone() else {
      unreachable!()
    };
    let mut bytes = Header::encode(
      &ALGORITHMS[0],
      MIN_SEGMENT,
      &StreamSecret::Derived(d),
      COST,
      &[7; 32],
    );
    assert!(Header::parse(&bytes).is_ok());
    bytes[8] = 1;
    let e = Header::parse(&bytes).unwrap_err();
    assert!(e.message.contains("unknown key source 2"), "{}", e.message);
  }

  #[test]
  fn round_trips_and_every_header_bit_refused_before_any_segment() {
    for alg in &ALGORITHMS {
      for (secret, _) in secrets() {
        let plain: Vec<u8> = (0..2500u32).map(|i| i as u8).collect();
        let sealed = seal(spec(alg, false, &secret, b"aad"), &plain);
        assert_eq!(sealed[8], VERSION);
        assert_eq!(sealed[14], secret.source());
        assert_eq!(
          open(spec(alg, true, &secret, b"aad"), &sealed).unwrap(),
          plain
        );
        for bit in 0..alg.header_len(VERSION, secret.source()) * 8 {
          let mut bad = sealed.clone();
          bad[bit / 8] ^= 1 << (bit % 8);
          let e = begin(spec(alg, true, &secret, b"aad"), &bad)
            .err()
            .unwrap_or_else(|| panic!("bit {bit} passed the header checks"));
          assert_eq!(e.code, Code::DecryptFailed, "bit {bit}: {}", e.message);
        }
      }
    }
  }

  #[test]
  fn a_wrong_key_passphrase_or_aad_is_refused_by_the_commitment_before_any_segment() {
    for alg in &ALGORITHMS {
      for (secret, other) in secrets() {
        let sealed = seal(spec(alg, false, &secret, b"aad"), b"x");
        // The segments replaced by garbage: the refusal cannot come from a tag.
        let header_len = alg.header_len(VERSION, secret.source());
        let mut garbage = sealed[..header_len].to_vec();
        garbage.extend_from_slice(&[0xee; 100]);
        let mut cases = vec![(&secret, &b"aaD"[..]), (&secret, &b""[..])];
        // Another derived key has another Argon2id salt: refused before the commitment.
        if !matches!(other, StreamSecret::Derived(_)) {
          cases.push((&other, &b"aad"[..]));
        }
        for (s, a) in cases {
          let e = begin(spec(alg, true, s, a), &garbage)
            .err()
            .expect("refused");
          assert_eq!(e.code, Code::DecryptFailed);
          assert!(
            e.message.contains("not the one it was sealed with"),
            "{}",
            e.message
          );
        }
        assert!(begin(spec(alg, true, &secret, b"aad"), &garbage).is_ok());
      }
    }
  }

  #[test]
  fn a_derived_key_seals_each_stream_under_its_own_salt_and_the_passphrase_opens_them() {
    let alg = &ALGORITHMS[0];
    let [_, (pass, other_pass), (derived, other_derived)] = secrets();
    let plain = [9u8; 100];
    let a = seal(spec(alg, false, &derived, b""), &plain);
    let b = seal(spec(alg, false, &derived, b""), &plain);
    // One Argon2id salt and cost, a new stream salt: another segment key and nonce prefix.
    let (argon2, salt) = (15..43, 43..75);
    assert_eq!(a[argon2.clone()], b[argon2]);
    assert_ne!(a[salt.clone()], b[salt]);
    assert_ne!(a[75..], b[75..]);
    for sealed in [&a, &b] {
      assert_eq!(open(spec(alg, true, &derived, b""), sealed).unwrap(), plain);
      assert_eq!(open(spec(alg, true, &pass, b""), sealed).unwrap(), plain);
      let e = open(spec(alg, true, &other_pass, b""), sealed).unwrap_err();
      assert!(
        e.message.contains("not the one it was sealed with"),
        "{}",
        e.message
      );
      // Another derivation of the same passphrase (another salt) does not hold this key.
      let e = open(spec(alg, true, &other_derived, b""), sealed).unwrap_err();
      assert!(
        e.message.contains("not sealed by this derived key"),
        "{}",
        e.message
      );
    }
    // A stream sealed with the passphrase (key source 1) needs Argon2id over its own salt.
    let by_passphrase = seal(spec(alg, false, &pass, b""), &plain);
    let e = open(spec(alg, true, &derived, b""), &by_passphrase).unwrap_err();
    assert!(
      e.message.contains("not sealed by this derived key"),
      "{}",
      e.message
    );
  }

  #[test]
  fn version_1_is_read_only_when_allowed() {
    for alg in &ALGORITHMS {
      for (secret, _) in secrets().into_iter().take(2) {
        let plain: Vec<u8> = (0..1500u32).map(|i| (i * 7) as u8).collect();
        let sealed = seal_v1(&spec(alg, false, &secret, b"aad"), &plain);
        assert_eq!(
          sealed.len(),
          alg.header_len(1, secret.source()) + plain.len() + 2 * TAG_LEN
        );
        let e = open(spec(alg, true, &secret, b"aad"), &sealed).unwrap_err();
        assert_eq!(e.code, Code::DecryptFailed);
        assert!(e.message.contains("{ allowV1: true }"), "{}", e.message);
        let allowing = |aad: &[u8]| Spec {
          allow_v1: true,
          ..spec(alg, true, &secret, aad)
        };
        assert_eq!(open(allowing(b"aad"), &sealed).unwrap(), plain);
        // Version 1 has no commitment: a wrong aad passes the header and fails at the first tag.
        assert!(begin(allowing(b"other"), &sealed).is_ok());
        assert_eq!(
          open(allowing(b"other"), &sealed).unwrap_err().code,
          Code::DecryptFailed
        );
      }
    }
  }

  #[test]
  fn run_all_seals_and_opens_whole_messages_and_refuses_a_cut_one() {
    let alg = &ALGORITHMS[1];
    let secret = &secrets()[0].0;
    // Three segments: the output is reserved once, for all of them.
    let plain: Vec<u8> = (0..2 * MIN_SEGMENT + 5).map(|i| i as u8).collect();
    let sealed = seal(spec(alg, false, secret, b""), &plain);
    assert_eq!(sealed.len(), 79 + plain.len() + 3 * TAG_LEN);
    assert_eq!(open(spec(alg, true, secret, b""), &sealed).unwrap(), plain);
    for cut in [
      79,
      80,
      79 + MIN_SEGMENT as usize + TAG_LEN,
      sealed.len() - 1,
    ] {
      let e = open(spec(alg, true, secret, b""), &sealed[..cut]).unwrap_err();
      assert_eq!(e.code, Code::DecryptFailed);
    }
  }
}
