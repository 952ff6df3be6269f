//! Container formats over the cipher primitives: each reads and writes bytes that carry their
//! own header, and none is a primitive of its own.
//!
//! - `stream.rs`: the STREAM construction (Hoang, Reyhanitabar, Rogaway, Vizár): a message cut
//!   into segments, each sealed with a counter nonce and a last-segment flag. The library's
//!   AEAD stream format and age both run their payloads through it.
//! - `aead_stream.rs`: the library's AEAD stream format (`docs/stream-format.md`); its entry
//!   points (the native state of the Node Transforms, files) are `aead_stream_api.rs`, and
//!   `seal.rs` is the same format whole in memory (sealed messages, derived keys).
//! - `age/`: the age v1 file format (X25519 and scrypt recipients, armor).
//! - `crypto_js.rs`: the OpenSSL `enc` / crypto-js `Salted__` format (reading old data).
//! - `file.rs`: the file pipeline, which runs any [`Format`] from one file into another on the
//!   libuv pool.
//!
//! The traits below are what a format offers the file pipeline and the Transforms: a [`Format`]
//! turns a head into a [`Body`], which turns the rest of the input into output put in a [`Sink`].
//! The layering inside this folder, as everywhere, is `src/layers.rs`'s.

pub mod aead_stream;
mod aead_stream_api;
pub mod age;
mod crypto_js;
mod file;
mod seal;
mod stream;

use crate::error::{CryptoError, CryptoResult};
use crate::task::Cancel;

/// The state machine that turns a format's input into its output after the head.
pub trait Body: Send + 'static {
  /// The output `input` completes, put into `out`.
  fn push<S: Sink + ?Sized>(&mut self, input: &[u8], out: &mut S) -> CryptoResult<()>;
  /// The rest of the output, once the input ended (the last segment).
  fn finish<S: Sink + ?Sized>(self, out: &mut S) -> CryptoResult<()>;
  /// Input bytes handed to `push` between two cancellation checks (a segment).
  fn piece_len(&self) -> usize;
}

/// Where a [`Body`] puts its output (`stream.rs`'s `Sealer` and `Opener`): one whole sealed or
/// opened segment per call. A `Vec` appends it; the file pipeline's `FileSink` (`file.rs`)
/// writes it out, so a file never holds more than the segment being worked on.
pub trait Sink {
  fn put(&mut self, bytes: &[u8]) -> CryptoResult<()>;
  /// The sink's own buffer, when it is one growing `Vec`: whole segments arriving in one input
  /// are then copied straight into it and sealed or opened there (one copy, not two).
  fn buffer(&mut self) -> Option<&mut Vec<u8>> {
    None
  }
}

impl Sink for Vec<u8> {
  fn put(&mut self, bytes: &[u8]) -> CryptoResult<()> {
    self.extend_from_slice(bytes);
    Ok(())
  }

  fn buffer(&mut self) -> Option<&mut Vec<u8>> {
    Some(self)
  }
}

/// What [`Format::begin`] returns.
pub struct Begun<B> {
  /// Written before anything else (a header, when encrypting).
  pub lead: Vec<u8>,
  /// Bytes of the head the format used; the rest go to the body.
  pub consumed: usize,
  pub body: B,
}

/// A format the file pipeline (and the Transforms' native state) runs: a head, then a body
/// taken in pieces of any size.
pub trait Format: Send + 'static {
  type Body: Body;
  /// How many bytes from the start of the input `begin` needs (fewer only when the input is
  /// shorter); 0 when the format reads no header.
  fn head_len(&self) -> usize;
  /// Parses the head (or makes a header), derives the keys (possibly slow: Argon2, checking
  /// `cancel`), and returns the body.
  fn begin(self, head: &[u8], cancel: &Cancel) -> CryptoResult<Begun<Self::Body>>;
  /// The working memory `begin` will lease from the memory budget for this head: what takes it
  /// ("Argon2", "scrypt") and how many bytes, so that the job leases it before `begin` consumes
  /// the format. `None` when there is none, or when the head is one `begin` refuses (it then
  /// says why).
  fn memory(&self, _head: &[u8]) -> Option<(&'static str, u64)> {
    None
  }
}

/// Refuses an empty passphrase (the crypto-js format, age's scrypt recipient and the AEAD stream
/// format).
pub(crate) fn check_passphrase(passphrase: &[u8]) -> CryptoResult<()> {
  if passphrase.is_empty() {
    return Err(CryptoError::invalid_value(
      "options.passphrase",
      "a non-empty passphrase",
      "an empty one",
    ));
  }
  Ok(())
}
