//! age v1 files (age-encryption.org/v1, C2SP age.md), built from the library's primitives.
//!
//! ```text
//! header   "age-encryption.org/v1\n", recipient stanzas wrapping a random 16-byte file key,
//!          "--- " base64(HMAC-SHA-256(HKDF-SHA-256(file key, "", "header"), header up to "---"))
//! payload  16-byte nonce, then ChaCha20-Poly1305 STREAM in 64 KiB chunks under
//!          HKDF-SHA-256(file key, nonce, "payload"); nonce = 11-byte counter ‖ last flag
//! ```
//!
//! - `header.rs` parses and writes the header (strict, bounded), without interpreting stanzas;
//! - a [`Recipient`] wraps the file key into stanzas and an [`Identity`] unwraps it: `scrypt.rs`
//!   is the passphrase pair, `x25519.rs` the public-key pair (with the `bech32.rs` key strings);
//! - the payload is `stream.rs`'s [`Sealer`] / [`Opener`] with age's nonce layout;
//!   [`begin_encrypt`] / [`begin_decrypt`] give the header and the sealer / opener, so a file
//!   pipeline can stream a file through them; [`encrypt`] / [`decrypt`] are the in-memory forms;
//! - `armor.rs` is the PEM text form, which [`decrypt`] detects by itself; files on disk go
//!   through `formats/file.rs` in the binary form only ([`FILE_START`], [`refuse_armor`]);
//! - `api.rs` holds the JavaScript entry points (`crypto.cipher.age`).
//!
//! Errors: a malformed header or armor is a `TypeError` (`ERR_INVALID_ARG_VALUE`), a work
//! factor above the caller's ceiling a `RangeError` (`ERR_OUT_OF_RANGE`), both raised before any
//! scrypt work; every other failure (wrong passphrase, no stanza for the key, bad MAC, bad or
//! truncated payload, trailing data) is one `ERR_CRYPTO_DECRYPT_FAILED`, with no plaintext.

pub mod api;
pub(crate) mod armor;
pub(crate) mod bech32;
pub(crate) mod header;
pub(crate) mod scrypt;
#[cfg(test)]
mod tests;
pub(crate) mod x25519;

use zeroize::Zeroizing;

use crate::cipher::dispatch::run;
use crate::cipher::keys::ModeKey;
use crate::cipher::modes::{decrypt_failed, internal, Mode, Op};
use crate::error::{Code, CryptoError, CryptoResult};
use crate::formats::stream::{Opener, Sealer, SegmentAead, Segments};
use crate::hash::core::{HashCore, Hmac};
use crate::hash::list::{Alg, State};
use crate::task::Cancel;
pub use header::Stanza;

/// The key every stanza wraps: 16 bytes from the CSPRNG, one per file.
pub type FileKey = Zeroizing<[u8; 16]>;
/// Payload chunk size (64 KiB).
const CHUNK: usize = 64 * 1024;
/// Bytes of the payload nonce, at the start of the payload.
const NONCE_LEN: usize = 16;
/// Input handed to the sealer or opener between two cancellation checks (1 MiB).
const PIECE: usize = 16 * CHUNK;

/// Encryption to one kind of recipient: wraps the file key into stanzas.
pub trait Recipient {
  fn wrap(&self, file_key: &FileKey, cancel: &Cancel) -> CryptoResult<Vec<Stanza>>;

  /// True when its stanzas must be the only ones in the file (scrypt).
  fn alone(&self) -> bool {
    false
  }
}

/// Decryption with one kind of key: finds the stanzas of its type and unwraps the file key.
pub trait Identity {
  /// The stanza type it reads (`"scrypt"`, `"X25519"`).
  fn stanza_type(&self) -> &'static str;

  /// What it is, in error messages ("a passphrase (scrypt)").
  fn describe(&self) -> &'static str;

  /// The file key, or `None` when no stanza of its type opens. Stanzas of its type that break
  /// the type's rules are an error (malformed header), as are the rules it has about the other
  /// stanzas (scrypt's "only stanza").
  fn unwrap(&self, stanzas: &[Stanza], cancel: &Cancel) -> CryptoResult<Option<FileKey>>;

  /// The working memory `unwrap` will lease from the memory budget for these stanzas, in bytes
  /// (scrypt's); 0 for none, or for stanzas `unwrap` refuses.
  fn memory(&self, _stanzas: &[Stanza]) -> u64 {
    0
  }
}

/// ChaCha20-Poly1305 with the all-zero nonce, as every native stanza type wraps the file key.
fn chacha_zero_nonce(
  key: &[u8; 32],
  decrypt: bool,
  input: &[u8],
  out: &mut [u8],
) -> CryptoResult<usize> {
  let op = Op {
    mode: Mode::ChaCha20Poly1305,
    decrypt,
    padding: false,
    iv: Some(&[0u8; 12]),
    aad: &[],
    tag_len: 16,
  };
  run(&mut ModeKey::new(op.mode, key)?, &op, input, out)
}

/// A stanza body: the file key sealed under `key` (32 bytes).
pub fn seal_file_key(key: &[u8; 32], file_key: &FileKey) -> CryptoResult<Vec<u8>> {
  let mut body = vec![0u8; 32];
  chacha_zero_nonce(key, false, &file_key[..], &mut body)?;
  Ok(body)
}

/// The file key in a 32-byte stanza body sealed under `key`, if it opens.
pub fn open_file_key(key: &[u8; 32], body: &[u8]) -> Option<FileKey> {
  let mut out = Zeroizing::new([0u8; 32]);
  match chacha_zero_nonce(key, true, body, &mut out[..]) {
    Ok(16) => {
      let mut fk = Zeroizing::new([0u8; 16]);
      fk.copy_from_slice(&out[..16]);
      Some(fk)
    }
    _ => None,
  }
}

/// HKDF-SHA-256 to 32 bytes.
fn hkdf(ikm: &[u8], salt: &[u8], info: &[u8]) -> CryptoResult<Zeroizing<[u8; 32]>> {
  let mut out = Zeroizing::new([0u8; 32]);
  crate::kdf::hkdf::derive(Alg::Sha256, ikm, Some(salt), info, &mut out[..])?;
  Ok(out)
}

/// The header MAC: HMAC-SHA-256 under HKDF(file key, "", "header") of the header up to "---".
fn header_mac(file_key: &FileKey, mac_input: &[u8]) -> CryptoResult<[u8; 32]> {
  let key = hkdf(&file_key[..], &[], b"header")?;
  let mut h = Hmac::new(State::new(Alg::Sha256), &key[..])?;
  h.update(mac_input);
  let mut mac = [0u8; 32];
  h.finalize_into(&mut mac);
  Ok(mac)
}

fn payload_segments(file_key: &FileKey, nonce: &[u8]) -> CryptoResult<Segments> {
  let key = hkdf(&file_key[..], nonce, b"payload")?;
  Segments::new(SegmentAead::ChaCha20Poly1305Age, &key, &[])
}

fn reserve(v: &mut Vec<u8>, n: usize) -> CryptoResult<()> {
  v.try_reserve_exact(n)
    .map_err(|_| CryptoError::new(Code::Operation, "cannot allocate the output"))
}

/// The start of a new file for `recipients` (the header and the payload nonce), and the sealer
/// its payload goes through, in pieces of any size: the streaming half of [`encrypt`], for a
/// file pipeline to write as it reads.
pub fn begin_encrypt(
  recipients: &[&dyn Recipient],
  cancel: &Cancel,
) -> CryptoResult<(Vec<u8>, Sealer)> {
  if recipients.is_empty() {
    return Err(internal("no recipient"));
  }
  if recipients.len() > 1 && recipients.iter().any(|r| r.alone()) {
    return Err(CryptoError::invalid_value(
      "recipients",
      "a passphrase alone (an scrypt stanza must be the only one in a file)",
      format!("{} recipients", recipients.len()),
    ));
  }
  let mut file_key = Zeroizing::new([0u8; 16]);
  crate::random::fill(&mut file_key[..])?;
  let mut stanzas = Vec::new();
  for r in recipients {
    stanzas.extend(r.wrap(&file_key, cancel)?);
  }
  let mut head = Vec::new();
  header::write(&stanzas, &mut head);
  let mac = header_mac(&file_key, &head)?;
  header::write_mac(&mac, &mut head);
  let mut nonce = [0u8; NONCE_LEN];
  crate::random::fill(&mut nonce)?;
  head.extend_from_slice(&nonce);
  let sealer = Sealer::new(payload_segments(&file_key, &nonce)?, CHUNK);
  Ok((head, sealer))
}

/// Encrypts `data` to `recipients` (binary age file).
pub fn encrypt(
  recipients: &[&dyn Recipient],
  data: &[u8],
  cancel: &Cancel,
) -> CryptoResult<Vec<u8>> {
  let (head, mut sealer) = begin_encrypt(recipients, cancel)?;
  let mut out = Vec::new();
  let chunks = data.len().div_ceil(CHUNK).max(1);
  reserve(&mut out, head.len() + data.len() + chunks * 16)?;
  out.extend_from_slice(&head);
  for piece in data.chunks(PIECE) {
    cancel.check()?;
    sealer.push(piece, &mut out)?;
  }
  sealer.finish(&mut out)?;
  Ok(out)
}

/// The armored (PEM) form of a binary age file.
pub fn armor(file: &[u8]) -> String {
  armor::encode(file)
}

/// Reads the header and payload nonce at the start of a binary file with `identity` (checking
/// the MAC), and returns the opener its payload goes through and where the payload starts: the
/// streaming half of [`decrypt`]. `start` holds at least the header and the nonce (a pipeline
/// reads the first `header::MAX_HEADER + 16` bytes, or the whole file when shorter).
pub fn begin_decrypt(
  identity: &dyn Identity,
  start: &[u8],
  cancel: &Cancel,
) -> CryptoResult<(Opener, usize)> {
  let parsed = header::parse(start)?;
  // A file cut inside the nonce fails now, before the identity's work.
  let Some(nonce) = parsed.payload.get(..NONCE_LEN) else {
    return Err(decrypt_failed());
  };
  // The spec's file-level rule, whatever the identity: an scrypt stanza is the only one.
  if parsed.stanzas.len() > 1 && parsed.stanzas.iter().any(|s| s.kind == scrypt::TYPE) {
    return Err(header::malformed(
      "an scrypt stanza beside other stanzas (it must be the only one)",
    ));
  }
  let Some(file_key) = identity.unwrap(&parsed.stanzas, cancel)? else {
    return Err(no_match(identity, &parsed.stanzas));
  };
  let mac = header_mac(&file_key, parsed.mac_input)?;
  if !crate::ct::eq(&mac, &parsed.mac) {
    return Err(decrypt_failed());
  }
  let at = start.len() - parsed.payload.len() + NONCE_LEN;
  Ok((Opener::new(payload_segments(&file_key, nonce)?, CHUNK), at))
}

/// The working memory [`begin_decrypt`] will lease for the file starting with `start`, in bytes
/// (0 when none, or when it refuses the header).
pub fn decrypt_memory(identity: &dyn Identity, start: &[u8]) -> u64 {
  header::parse(start).map_or(0, |parsed| identity.memory(&parsed.stanzas))
}

/// Bytes a file pipeline reads before [`begin_decrypt`]: the longest header and the nonce.
pub const FILE_START: usize = header::MAX_HEADER + NONCE_LEN;

/// Refuses armor where only the binary form streams (files on disk): armor is base64 of the
/// whole file, which the in-memory [`decrypt`] reads.
pub fn refuse_armor(start: &[u8]) -> CryptoResult<()> {
  if armor::is_armored(start) {
    return Err(CryptoError::invalid_value(
      "src",
      "a binary age file (decryptFile streams the binary form only; use cipher.age.decrypt in memory for armored files)",
      "an armored (PEM) age file",
    ));
  }
  Ok(())
}

/// Decrypts an age file, binary or armored, with `identity`.
pub fn decrypt(identity: &dyn Identity, data: &[u8], cancel: &Cancel) -> CryptoResult<Vec<u8>> {
  let dearmored;
  let file = if armor::is_armored(data) {
    dearmored = armor::decode(data)?;
    &dearmored[..]
  } else {
    data
  };
  let (opener, at) = begin_decrypt(identity, file, cancel)?;
  open_payload(opener, &file[at..], cancel)
}

/// No stanza opened. When the file has no stanza of the identity's type at all, the message says
/// so (the header is public, so this tells an attacker nothing); otherwise it is the one message
/// of every decryption failure.
fn no_match(identity: &dyn Identity, stanzas: &[Stanza]) -> CryptoError {
  if stanzas.iter().any(|s| s.kind == identity.stanza_type()) {
    return decrypt_failed();
  }
  let mut kinds: Vec<String> = Vec::new();
  for s in stanzas {
    let k: String = s.kind.chars().take(32).collect();
    if !kinds.contains(&k) && kinds.len() < 5 {
      kinds.push(k);
    }
  }
  CryptoError::new(
    Code::DecryptFailed,
    format!(
      "This age file cannot be opened with {}: it has no {} stanza (its recipient types: {})",
      identity.describe(),
      identity.stanza_type(),
      kinds.join(", ")
    ),
  )
}

/// The plaintext of a whole payload (after the nonce). Chunks opened before a later failure are
/// wiped with the buffer: no plaintext leaves on failure.
fn open_payload(mut opener: Opener, body: &[u8], cancel: &Cancel) -> CryptoResult<Vec<u8>> {
  let mut out = Zeroizing::new(Vec::new());
  reserve(&mut out, body.len())?;
  for piece in body.chunks(PIECE) {
    cancel.check()?;
    opener.push(piece, &mut *out)?;
  }
  opener.finish(&mut *out)?;
  Ok(std::mem::take(&mut *out))
}
