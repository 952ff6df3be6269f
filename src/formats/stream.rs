//! The STREAM construction (Hoang, Reyhanitabar, Rogaway, Vizár, "Online authenticated-encryption
//! and its nonce-reuse misuse-resistance", CRYPTO 2015): a message cut into segments, each sealed
//! with its own nonce `prefix ‖ counter ‖ last-flag`. Reordering, dropping, duplicating or
//! truncating segments changes some segment's nonce, so its tag fails.
//!
//! [`Segments`] is the one implementation, used by the library's streaming AEAD format
//! (`docs/stream-format.md`) and by age's payload (age-encryption.org/v1). It differs between them
//! only in the nonce layout ([`NonceLayout`]); the segment sizes, headers and key derivations
//! belong to the formats.
//!
//! Every AEAD here is a ring key with a 96-bit nonce: AES-256-GCM and ChaCha20-Poly1305 directly;
//! XChaCha20-Poly1305 as ChaCha20-Poly1305 under the HChaCha20 subkey of the nonce's first
//! 16 bytes, which STREAM keeps fixed for a whole stream (they are all prefix), so the subkey is
//! derived once per stream, not per segment. On a CPU with AVX-512 IFMA, ChaCha20-Poly1305
//! segments of 8 KiB and more take the library's own kernel (`cipher::chacha`) instead.

use ring::aead::{Aad, LessSafeKey, Nonce, Tag, UnboundKey};
use zeroize::Zeroizing;

use super::Sink;
use crate::cipher::aead::xchacha_subkey;
use crate::cipher::chacha::Stitched;
use crate::cipher::modes::{decrypt_failed, internal, too_long};
use crate::error::CryptoResult;

/// Bytes of every segment's tag.
pub const TAG_LEN: usize = 16;

/// The AEAD a stream seals its segments with.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SegmentAead {
  /// AES-256-GCM: nonce = 7-byte prefix ‖ 4-byte counter ‖ flag (Tink's layout).
  Aes256Gcm,
  /// XChaCha20-Poly1305: nonce = 19-byte prefix ‖ 4-byte counter ‖ flag.
  XChaCha20Poly1305,
  /// ChaCha20-Poly1305 with an empty prefix and an 11-byte counter (age's payload).
  ChaCha20Poly1305Age,
}

impl SegmentAead {
  /// The nonce prefix length the format stores.
  pub const fn prefix_len(self) -> usize {
    match self {
      SegmentAead::Aes256Gcm => 7,
      SegmentAead::XChaCha20Poly1305 => 19,
      SegmentAead::ChaCha20Poly1305Age => 0,
    }
  }

  /// Bytes of the big-endian segment counter in the nonce.
  const fn counter_len(self) -> usize {
    match self {
      SegmentAead::ChaCha20Poly1305Age => 11,
      _ => 4,
    }
  }
}

/// Seals or opens the segments of one stream, in order. After the last segment (or any failure)
/// it refuses everything: a stream is used once, in one direction.
pub struct Segments {
  key: LessSafeKey,
  /// The ChaCha20-Poly1305 key (the XChaCha20 subkey), for the AVX-512 IFMA kernel.
  chacha: Option<Zeroizing<[u8; 32]>>,
  /// The 96-bit nonce given to ring, with the counter field at `counter_at` and the flag last.
  nonce: [u8; 12],
  counter_at: usize,
  /// The largest counter the nonce can hold.
  max: u64,
  next: u64,
  finished: bool,
}

impl Segments {
  /// A stream under `key` (32 bytes) and the stored nonce `prefix` (`aead.prefix_len()` bytes).
  pub fn new(aead: SegmentAead, key: &[u8; 32], prefix: &[u8]) -> CryptoResult<Segments> {
    if prefix.len() != aead.prefix_len() {
      return Err(internal("nonce prefix"));
    }
    let mut nonce = [0u8; 12];
    let (alg, key) = match aead {
      SegmentAead::Aes256Gcm => {
        nonce[..7].copy_from_slice(prefix);
        (&ring::aead::AES_256_GCM, Zeroizing::new(*key))
      }
      SegmentAead::ChaCha20Poly1305Age => (&ring::aead::CHACHA20_POLY1305, Zeroizing::new(*key)),
      SegmentAead::XChaCha20Poly1305 => {
        // ChaCha20-Poly1305 under the XChaCha20 subkey takes 0^4 ‖ nonce[16..24] =
        // 0^4 ‖ prefix[16..19] ‖ counter ‖ flag.
        let head: &[u8; 16] = prefix[..16].try_into().map_err(|_| internal("nonce"))?;
        nonce[4..7].copy_from_slice(&prefix[16..]);
        (&ring::aead::CHACHA20_POLY1305, xchacha_subkey(key, head))
      }
    };
    let chacha = (aead != SegmentAead::Aes256Gcm).then(|| key.clone());
    let key = UnboundKey::new(alg, &key[..])
      .map(LessSafeKey::new)
      .map_err(|_| internal("segment key"))?;
    let width = aead.counter_len();
    Ok(Segments {
      key,
      chacha,
      nonce,
      counter_at: 11 - width,
      max: if width >= 8 {
        u64::MAX
      } else {
        (1 << (8 * width)) - 1
      },
      next: 0,
      finished: false,
    })
  }

  /// The index of the segment the next call seals or opens.
  pub fn position(&self) -> u64 {
    self.next
  }

  /// The nonce of the next segment, and the stream moved past it.
  fn advance(&mut self, last: bool) -> CryptoResult<[u8; 12]> {
    if self.finished {
      return Err(internal("segment after the last one"));
    }
    if self.next > self.max {
      return Err(too_long());
    }
    let mut nonce = self.nonce;
    let be = self.next.to_be_bytes();
    let field = &mut nonce[self.counter_at..11];
    // The counter field is 4 or 11 bytes; a u64 fills at most its last 8.
    let n = field.len().min(8);
    let at = field.len() - n;
    field[at..].copy_from_slice(&be[8 - n..]);
    nonce[11] = u8::from(last);
    self.next += 1;
    self.finished = last;
    Ok(nonce)
  }

  /// The AVX-512 IFMA ChaCha20-Poly1305 for a `len`-byte segment under `nonce`, when it applies.
  fn stitched<'a>(&'a self, nonce: &'a [u8; 12], len: usize) -> Option<Stitched<'a>> {
    Stitched::new(self.chacha.as_deref()?, nonce, len)
  }

  /// Encrypts `segment` in place and returns its tag (appended by the caller).
  pub fn seal(&mut self, segment: &mut [u8], last: bool) -> CryptoResult<[u8; TAG_LEN]> {
    let nonce = self.advance(last)?;
    if let Some(s) = self.stitched(&nonce, segment.len()) {
      return s.seal_in_place(&[], segment);
    }
    let tag = self
      .key
      .seal_in_place_separate_tag(Nonce::assume_unique_for_key(nonce), Aad::empty(), segment)
      .map_err(|_| too_long())?;
    let mut out = [0u8; TAG_LEN];
    out.copy_from_slice(tag.as_ref());
    Ok(out)
  }

  /// Checks `segment`'s tag and decrypts it in place (`segment` is `ciphertext ‖ tag`); returns
  /// the plaintext length. On failure the segment is wiped and the stream refuses all further
  /// segments, so no unauthenticated byte is released and no later segment is opened.
  pub fn open(&mut self, segment: &mut [u8], last: bool) -> CryptoResult<usize> {
    let result = match segment.len().checked_sub(TAG_LEN) {
      None => Err(decrypt_failed()),
      Some(n) => {
        let nonce = self.advance(last)?;
        let (body, tag) = segment.split_at_mut(n);
        match self.stitched(&nonce, n) {
          Some(s) => s.open_in_place(&[], body).and_then(|want| {
            if crate::ct::eq(&want, tag) {
              Ok(n)
            } else {
              Err(decrypt_failed())
            }
          }),
          None => {
            let tag = Tag::try_from(&tag[..]).map_err(|_| decrypt_failed())?;
            self
              .key
              .open_in_place_separate_tag(
                Nonce::assume_unique_for_key(nonce),
                Aad::empty(),
                tag,
                body,
                0..,
              )
              .map(|p| p.len())
              .map_err(|_| decrypt_failed())
          }
        }
      }
    };
    if result.is_err() {
      segment.fill(0);
      self.finished = true;
    }
    result
  }
}

/// Cuts a plaintext arriving in pieces of any size into `size`-byte segments and seals them.
/// A full segment is sealed only once a byte after it arrived: until then it may be the last one.
/// So the last segment holds 1..=`size` bytes, and is empty only when the whole plaintext is (the
/// rule age states, and the one the library's format follows). The pending segment is sealed in
/// place and handed to the sink from there. A whole plaintext known at once is sealed by
/// [`Sealer::seal_rest`] straight into its output.
pub struct Sealer {
  segments: Segments,
  size: usize,
  /// The segment being filled (plaintext, wiped when dropped), with room for its tag.
  pending: Zeroizing<Vec<u8>>,
}

/// The staging buffer of a sealer or opener of `size`-byte segments. It is allocated when it is
/// first filled, at its full size (`size + TAG_LEN`), so that it never moves (a move would leave
/// plaintext behind), and a whole message in memory, which never fills it, neither allocates nor
/// wipes a segment's worth of memory.
fn staged(pending: &mut Zeroizing<Vec<u8>>, size: usize) -> &mut Vec<u8> {
  if pending.capacity() == 0 {
    pending.reserve_exact(size + TAG_LEN);
  }
  pending
}

impl Sealer {
  pub fn new(segments: Segments, size: usize) -> Sealer {
    Sealer {
      segments,
      size,
      pending: Zeroizing::new(Vec::new()),
    }
  }

  /// The sealed segments `input` completes, put into `out`.
  pub fn push<S: Sink + ?Sized>(&mut self, mut input: &[u8], out: &mut S) -> CryptoResult<()> {
    while !input.is_empty() {
      if self.pending.len() == self.size {
        // A byte follows this full segment, so it is not the last.
        self.seal_pending(false, out)?;
      }
      let take = (self.size - self.pending.len()).min(input.len());
      match out.buffer() {
        Some(buf) if self.pending.is_empty() && take == self.size && input.len() > self.size => {
          // A whole segment straight from the input, sealed in the output.
          seal_into(&mut self.segments, &input[..take], false, buf)?;
        }
        _ => staged(&mut self.pending, self.size).extend_from_slice(&input[..take]),
      }
      input = &input[take..];
    }
    Ok(())
  }

  /// Seals what is left as the last segment.
  pub fn finish<S: Sink + ?Sized>(mut self, out: &mut S) -> CryptoResult<()> {
    self.seal_pending(true, out)
  }

  /// Seals `input` as the whole rest of the plaintext: `push(input)` then `finish()`, with every
  /// segment sealed straight into `out` when nothing is pending (a message in memory).
  pub fn seal_rest(mut self, input: &[u8], out: &mut Vec<u8>) -> CryptoResult<()> {
    if !self.pending.is_empty() {
      self.push(input, out)?;
      return self.finish(out);
    }
    let segments = &mut self.segments;
    each_piece(input, self.size, |piece, last| {
      seal_into(segments, piece, last, out)
    })
  }

  fn seal_pending<S: Sink + ?Sized>(&mut self, last: bool, out: &mut S) -> CryptoResult<()> {
    let tag = self.segments.seal(&mut self.pending, last)?;
    // Within the capacity reserved when it was first filled (an empty one holds no plaintext):
    // the plaintext is never left behind by a move.
    self.pending.extend_from_slice(&tag);
    out.put(&self.pending)?;
    self.pending.clear();
    Ok(())
  }
}

fn seal_into(s: &mut Segments, plain: &[u8], last: bool, out: &mut Vec<u8>) -> CryptoResult<()> {
  let at = out.len();
  out.extend_from_slice(plain);
  let tag = s.seal(&mut out[at..], last)?;
  out.extend_from_slice(&tag);
  Ok(())
}

/// The other direction: cuts sealed bytes arriving in pieces into `size + TAG_LEN`-byte segments,
/// opens each in place and puts its plaintext into the sink only after its tag verified. A full
/// segment is held back until a byte after it arrived (or [`Opener::finish`]), since only then is
/// it known whether it is the last. After any failure the opener refuses everything.
pub struct Opener {
  segments: Segments,
  size: usize,
  /// The segment being filled; plaintext once opened (wiped when dropped).
  pending: Zeroizing<Vec<u8>>,
}

impl Opener {
  pub fn new(segments: Segments, size: usize) -> Opener {
    Opener {
      segments,
      size,
      pending: Zeroizing::new(Vec::new()),
    }
  }

  /// The plaintext of the segments `input` completes, put into `out`.
  pub fn push<S: Sink + ?Sized>(&mut self, mut input: &[u8], out: &mut S) -> CryptoResult<()> {
    let full = self.size + TAG_LEN;
    while !input.is_empty() {
      if self.pending.len() == full {
        self.open_pending(false, out)?;
      }
      let take = (full - self.pending.len()).min(input.len());
      match out.buffer() {
        Some(buf) if self.pending.is_empty() && take == full && input.len() > full => {
          open_into(&mut self.segments, &input[..take], false, buf)?;
        }
        _ => staged(&mut self.pending, self.size).extend_from_slice(&input[..take]),
      }
      input = &input[take..];
    }
    Ok(())
  }

  /// Opens what is left as the last segment. Refuses an empty last segment after others (a
  /// stream cut right after a full segment and given a forged empty end would need the key, but
  /// the format forbids it anyway) and a stream with no segment at all.
  pub fn finish<S: Sink + ?Sized>(mut self, out: &mut S) -> CryptoResult<()> {
    check_last(&self.segments, self.pending.len())?;
    self.open_pending(true, out)
  }

  /// Opens `input` as the whole rest of the stream: `push(input)` then `finish()`, with every
  /// segment opened straight in `out` when nothing is pending (a message in memory).
  pub fn open_rest(mut self, input: &[u8], out: &mut Vec<u8>) -> CryptoResult<()> {
    if !self.pending.is_empty() {
      self.push(input, out)?;
      return self.finish(out);
    }
    let segments = &mut self.segments;
    each_piece(input, self.size + TAG_LEN, |piece, last| {
      if last {
        check_last(segments, piece.len())?;
      }
      open_into(segments, piece, last, out)
    })
  }

  fn open_pending<S: Sink + ?Sized>(&mut self, last: bool, out: &mut S) -> CryptoResult<()> {
    // On failure `open` wiped the segment and the stream refuses all further ones.
    let n = self.segments.open(&mut self.pending, last)?;
    out.put(&self.pending[..n])?;
    self.pending.clear();
    Ok(())
  }
}

/// Refuses a last piece of `len` bytes that holds an empty segment after full ones.
fn check_last(segments: &Segments, len: usize) -> CryptoResult<()> {
  if len == TAG_LEN && segments.position() > 0 {
    return Err(decrypt_failed());
  }
  Ok(())
}

/// `f(piece, last)` for each piece of `input` cut into `size` bytes, the last one holding the
/// rest: 1..=`size` bytes, or none when `input` is empty.
fn each_piece(
  input: &[u8],
  size: usize,
  mut f: impl FnMut(&[u8], bool) -> CryptoResult<()>,
) -> CryptoResult<()> {
  let mut rest = input;
  loop {
    let take = rest.len().min(size);
    let last = take == rest.len();
    f(&rest[..take], last)?;
    if last {
      return Ok(());
    }
    rest = &rest[take..];
  }
}

fn open_into(s: &mut Segments, sealed: &[u8], last: bool, out: &mut Vec<u8>) -> CryptoResult<()> {
  let at = out.len();
  out.extend_from_slice(sealed);
  match s.open(&mut out[at..], last) {
    Ok(n) => {
      out.truncate(at + n);
      Ok(())
    }
    Err(e) => {
      // `open` wiped the segment; drop it.
      out.truncate(at);
      Err(e)
    }
  }
}

#[cfg(test)]
mod tests {
  use super::*;

  fn chunks(aead: SegmentAead, plain: &[&[u8]]) -> Vec<Vec<u8>> {
    let key = [7u8; 32];
    let prefix = vec![9u8; aead.prefix_len()];
    let mut s = Segments::new(aead, &key, &prefix).unwrap();
    plain
      .iter()
      .enumerate()
      .map(|(i, p)| {
        let mut v = p.to_vec();
        let tag = s.seal(&mut v, i + 1 == plain.len()).unwrap();
        v.extend_from_slice(&tag);
        v
      })
      .collect()
  }

  fn open_all(aead: SegmentAead, sealed: &[Vec<u8>]) -> CryptoResult<Vec<u8>> {
    let mut s = Segments::new(aead, &[7u8; 32], &vec![9u8; aead.prefix_len()]).unwrap();
    let mut out = Vec::new();
    for (i, c) in sealed.iter().enumerate() {
      let mut c = c.clone();
      let n = s.open(&mut c, i + 1 == sealed.len())?;
      out.extend_from_slice(&c[..n]);
    }
    Ok(out)
  }

  const ALL: [SegmentAead; 3] = [
    SegmentAead::Aes256Gcm,
    SegmentAead::XChaCha20Poly1305,
    SegmentAead::ChaCha20Poly1305Age,
  ];

  #[test]
  fn round_trip_and_refusals() {
    for aead in ALL {
      let parts: [&[u8]; 3] = [b"one", b"two", b"three"];
      let sealed = chunks(aead, &parts);
      assert_eq!(open_all(aead, &sealed).unwrap(), b"onetwothree");
      // Truncated at a segment boundary: the new last segment was sealed as not-last.
      assert!(open_all(aead, &sealed[..2]).is_err());
      // Reordered and duplicated segments.
      let swapped = vec![sealed[1].clone(), sealed[0].clone(), sealed[2].clone()];
      assert!(open_all(aead, &swapped).is_err());
      let dup = vec![sealed[0].clone(), sealed[0].clone(), sealed[2].clone()];
      assert!(open_all(aead, &dup).is_err());
      // A flipped bit in any segment.
      for i in 0..3 {
        let mut bad = sealed.clone();
        bad[i][0] ^= 1;
        assert!(open_all(aead, &bad).is_err());
      }
    }
  }

  #[test]
  fn the_nonce_layouts() {
    // The counter and flag land where each format says: segment 0x0102 of a stream, not last,
    // then last. Checked through ring directly with the expected nonces.
    let key = [3u8; 32];
    let cases: [(SegmentAead, [u8; 12]); 2] = [
      (SegmentAead::Aes256Gcm, [9, 9, 9, 9, 9, 9, 9, 0, 0, 1, 2, 0]),
      (
        SegmentAead::ChaCha20Poly1305Age,
        [0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 0],
      ),
    ];
    // A short segment and a 64 KiB one (the AVX-512 IFMA kernel's size, where the CPU has it).
    let long: Vec<u8> = (0..65536u32).map(|i| (i * 7) as u8).collect();
    for (aead, expected) in cases {
      for plain in [&b"segment"[..], &long] {
        let mut s = Segments::new(aead, &key, &vec![9u8; aead.prefix_len()]).unwrap();
        s.next = 0x0102;
        let mut ours = plain.to_vec();
        let tag = s.seal(&mut ours, false).unwrap();
        let alg = match aead {
          SegmentAead::Aes256Gcm => &ring::aead::AES_256_GCM,
          _ => &ring::aead::CHACHA20_POLY1305,
        };
        let direct = LessSafeKey::new(UnboundKey::new(alg, &key).unwrap());
        let mut theirs = plain.to_vec();
        let t = direct
          .seal_in_place_separate_tag(
            Nonce::assume_unique_for_key(expected),
            Aad::empty(),
            &mut theirs,
          )
          .unwrap();
        assert_eq!((&ours, &tag[..]), (&theirs, t.as_ref()));
        // Opened by a stream at the same position: the plaintext, and a changed byte refused.
        let mut o = Segments::new(aead, &key, &vec![9u8; aead.prefix_len()]).unwrap();
        o.next = 0x0102;
        let mut sealed = [&ours[..], &tag[..]].concat();
        assert_eq!(o.open(&mut sealed, false).unwrap(), plain.len());
        assert_eq!(&sealed[..plain.len()], plain);
        let mut o = Segments::new(aead, &key, &vec![9u8; aead.prefix_len()]).unwrap();
        o.next = 0x0102;
        let mut bad = [&ours[..], &tag[..]].concat();
        bad[3] ^= 1;
        assert!(o.open(&mut bad, false).is_err());
        assert!(bad.iter().all(|&b| b == 0));
      }
    }
  }

  #[test]
  fn xchacha_segments_equal_the_one_shot_xchacha() {
    // The once-per-stream subkey gives what the one-shot XChaCha20-Poly1305 (checked against the
    // draft's vectors) gives under the full 24-byte nonce prefix ‖ counter ‖ flag.
    use crate::cipher::dispatch::run;
    use crate::cipher::keys::ModeKey;
    use crate::cipher::modes::{Mode, Op};
    let key = [5u8; 32];
    let prefix: Vec<u8> = (0..19).collect();
    let mut s = Segments::new(SegmentAead::XChaCha20Poly1305, &key, &prefix).unwrap();
    s.next = 0x01020304;
    let mut ours = b"a segment".to_vec();
    let tag = s.seal(&mut ours, true).unwrap();
    ours.extend_from_slice(&tag);
    let mut iv = prefix.clone();
    iv.extend_from_slice(&[1, 2, 3, 4, 1]);
    let op = Op {
      mode: Mode::XChaCha20Poly1305,
      decrypt: false,
      padding: false,
      iv: Some(&iv),
      aad: &[],
      tag_len: 16,
    };
    let mut mk = ModeKey::new(Mode::XChaCha20Poly1305, &key).unwrap();
    let mut theirs = vec![0u8; op.output_len(9)];
    let n = run(&mut mk, &op, b"a segment", &mut theirs).unwrap();
    assert_eq!(ours, theirs[..n]);
  }

  #[test]
  fn sealer_and_opener_cut_at_segment_boundaries() {
    // Every length around the boundaries, fed in pieces of every small size: the sealed form does
    // not depend on how the input was cut, and the opener gives the plaintext back.
    let size = 8;
    let seal = |plain: &[u8], piece: usize| {
      let mut s = Sealer::new(
        Segments::new(SegmentAead::Aes256Gcm, &[2; 32], &[4; 7]).unwrap(),
        size,
      );
      let mut out = Vec::new();
      for c in plain.chunks(piece.max(1)) {
        s.push(c, &mut out).unwrap();
      }
      s.finish(&mut out).unwrap();
      out
    };
    let open = |sealed: &[u8], piece: usize| -> CryptoResult<Vec<u8>> {
      let mut o = Opener::new(
        Segments::new(SegmentAead::Aes256Gcm, &[2; 32], &[4; 7]).unwrap(),
        size,
      );
      let mut out = Vec::new();
      for c in sealed.chunks(piece.max(1)) {
        o.push(c, &mut out)?;
      }
      o.finish(&mut out)?;
      Ok(out)
    };
    // The whole input at once (`seal_rest` / `open_rest`), after `pushed` bytes went in pieces.
    let segments = || Segments::new(SegmentAead::Aes256Gcm, &[2; 32], &[4; 7]).unwrap();
    let seal_rest = |plain: &[u8], pushed: usize| {
      let mut s = Sealer::new(segments(), size);
      let mut out = Vec::new();
      s.push(&plain[..pushed], &mut out).unwrap();
      s.seal_rest(&plain[pushed..], &mut out).unwrap();
      out
    };
    let open_rest = |sealed: &[u8], pushed: usize| -> CryptoResult<Vec<u8>> {
      let mut o = Opener::new(segments(), size);
      let mut out = Vec::new();
      o.push(&sealed[..pushed], &mut out)?;
      o.open_rest(&sealed[pushed..], &mut out)?;
      Ok(out)
    };
    for len in [0usize, 1, 7, 8, 9, 16, 17, 40] {
      let plain: Vec<u8> = (0..len as u8).collect();
      let whole = seal(&plain, len + 1);
      // Segments: ceil(len / size), at least one; each carries a tag.
      let n = len.div_ceil(size).max(1);
      assert_eq!(whole.len(), len + n * TAG_LEN, "len {len}");
      for piece in 1..=20 {
        assert_eq!(seal(&plain, piece), whole, "len {len} piece {piece}");
        assert_eq!(
          open(&whole, piece).unwrap(),
          plain,
          "len {len} piece {piece}"
        );
      }
      for pushed in [0, len / 2, len] {
        assert_eq!(
          seal_rest(&plain, pushed),
          whole,
          "len {len} pushed {pushed}"
        );
        assert_eq!(open_rest(&whole, pushed).unwrap(), plain);
      }
      // Cut anywhere, or extended: refused.
      for cut in 0..whole.len() {
        assert!(open(&whole[..cut], 3).is_err(), "len {len} cut {cut}");
        assert!(open_rest(&whole[..cut], 0).is_err(), "len {len} cut {cut}");
      }
      let mut longer = whole.clone();
      longer.push(0);
      assert!(open(&longer, 5).is_err());
      assert!(open_rest(&longer, 0).is_err());
    }
    // An empty last segment after full ones is refused even when correctly sealed.
    let mut s = segments();
    let mut forged = Vec::new();
    seal_into(&mut s, &[1; 8], false, &mut forged).unwrap();
    seal_into(&mut s, &[], true, &mut forged).unwrap();
    assert!(open(&forged, 100).is_err());
    assert!(open_rest(&forged, 0).is_err());
  }

  /// A sink that is not a `Vec` (as the file pipeline's): each put is one whole segment, and
  /// the bytes equal what a `Vec` sink (which seals whole segments in place in itself) gets.
  #[derive(Default)]
  struct Pieces(Vec<Vec<u8>>);

  impl Sink for Pieces {
    fn put(&mut self, bytes: &[u8]) -> CryptoResult<()> {
      self.0.push(bytes.to_vec());
      Ok(())
    }
  }

  #[test]
  fn other_sinks_get_whole_segments() {
    let size = 8;
    let segments = || Segments::new(SegmentAead::XChaCha20Poly1305, &[6; 32], &[1; 19]).unwrap();
    for len in [0usize, 1, 8, 9, 16, 17, 40] {
      let plain: Vec<u8> = (0..len as u8).collect();
      for piece in [1, 3, 8, 9, 100] {
        let (mut pieces, mut vec) = (Pieces::default(), Vec::new());
        let (mut a, mut b) = (Sealer::new(segments(), size), Sealer::new(segments(), size));
        for c in plain.chunks(piece) {
          a.push(c, &mut pieces).unwrap();
          b.push(c, &mut vec).unwrap();
        }
        a.finish(&mut pieces).unwrap();
        b.finish(&mut vec).unwrap();
        assert_eq!(pieces.0.concat(), vec, "len {len} piece {piece}");
        let n = pieces.0.len();
        assert_eq!(n, len.div_ceil(size).max(1));
        assert!(pieces.0[..n - 1].iter().all(|s| s.len() == size + TAG_LEN));
        // Opened into both kinds of sink: whole plaintext segments, the same bytes.
        let (mut opened, mut flat) = (Pieces::default(), Vec::new());
        let (mut a, mut b) = (Opener::new(segments(), size), Opener::new(segments(), size));
        for c in vec.chunks(piece) {
          a.push(c, &mut opened).unwrap();
          b.push(c, &mut flat).unwrap();
        }
        a.finish(&mut opened).unwrap();
        b.finish(&mut flat).unwrap();
        assert_eq!((opened.0.concat(), &flat), (plain.clone(), &plain));
        assert!(opened.0[..n - 1].iter().all(|s| s.len() == size));
        // A flipped bit in the last segment: the segments before it were put, that one not.
        let mut bad = vec.clone();
        *bad.last_mut().unwrap() ^= 1;
        let mut o = Opener::new(segments(), size);
        let mut got = Pieces::default();
        o.push(&bad, &mut got).unwrap();
        assert!(o.finish(&mut got).is_err());
        assert_eq!(got.0.len(), n - 1);
      }
    }
  }

  #[test]
  fn finished_streams_refuse() {
    let aead = SegmentAead::Aes256Gcm;
    let mut s = Segments::new(aead, &[1u8; 32], &[0u8; 7]).unwrap();
    let mut v = [0u8; 4];
    s.seal(&mut v, true).unwrap();
    assert!(s.seal(&mut v, false).is_err());
    // A 4-byte counter stops at 2^32 segments.
    let mut s = Segments::new(aead, &[1u8; 32], &[0u8; 7]).unwrap();
    s.next = u32::MAX as u64 + 1;
    assert!(s.seal(&mut v, false).is_err());
  }
}
