//! The one AEAD framing, and the AEADs behind it.
//!
//! Every AEAD mode is a [`DetachedAead`]: seal or open one message under a nonce (given when it is
//! built) and additional data, with the tag apart. [`seal_or_open`] does the rest once for all of
//! them: the output layout (`ciphertext ‖ tag`, or RFC 5297's `V ‖ C` for SIV), the lengths, the
//! uniform error, and wiping the output when an open fails, so no unauthenticated plaintext is
//! ever released.
//!
//! The AEADs: `ring` ([`Ring`]: AES-GCM with a 96-bit IV and a full tag on open, ChaCha20-Poly1305,
//! and XChaCha20-Poly1305 through an HChaCha20 subkey, [`chacha`]), the AVX-512 IFMA
//! ChaCha20-Poly1305 of [`super::chacha`] where the CPU has it, the generic GCM of
//! [`super::gcm`], and the RustCrypto crates ([`InOut`]: AES-GCM-SIV, CCM; [`Siv`]: AES-SIV).

use ::aead::{AeadCore, AeadInOut};
use cipher::array::{Array, ArraySize};
use cipher::consts::{U10, U11, U12, U13, U14, U16, U7, U8, U9};
use cipher::{BlockCipherEncrypt, InOutBuf};
use ring::aead::{Aad, LessSafeKey, Nonce};
use zeroize::Zeroizing;

use super::chacha::Stitched;
use super::keys::{chacha_key, SivKey};
use super::modes::{decrypt_failed, internal, length_error, list, too_long, Op};
use crate::error::{Code, CryptoError, CryptoResult};

/// Where the tag stands in the sealed output.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum TagAt {
  /// `ciphertext ‖ tag`.
  End,
  /// `tag ‖ ciphertext` (SIV's `V ‖ C`).
  Front,
}

/// One AEAD with its key and nonce, used once: detached seal or open. `tag` is as long as the
/// caller asked (checked against the mode table): a sealer writes the first `tag.len()` bytes of
/// its tag.
pub trait DetachedAead: Sized {
  const TAG_AT: TagAt = TagAt::End;
  /// Encrypts `input` into `out` (same length) and writes the tag.
  fn seal(self, aad: &[u8], input: &[u8], out: &mut [u8], tag: &mut [u8]) -> CryptoResult<()>;
  /// Checks `tag` and decrypts `input` into `out` (same length). On an error `out` may hold
  /// unauthenticated bytes: [`seal_or_open`] wipes it.
  fn open(self, aad: &[u8], input: &[u8], tag: &[u8], out: &mut [u8]) -> CryptoResult<()>;
}

/// Seals `input` (`op.decrypt` false) or opens it, with `op.aad` and an `op.tag_len`-byte tag,
/// into `out`; returns the bytes written. A failed open leaves `out` zeroed.
pub fn seal_or_open<A: DetachedAead>(
  a: A,
  op: &Op,
  input: &[u8],
  out: &mut [u8],
) -> CryptoResult<usize> {
  let t = op.tag_len;
  if !op.decrypt {
    let n = input.len();
    let out = out
      .get_mut(..n + t)
      .ok_or_else(|| internal("output size"))?;
    let (body, tag) = match A::TAG_AT {
      TagAt::End => out.split_at_mut(n),
      TagAt::Front => {
        let (tag, body) = out.split_at_mut(t);
        (body, tag)
      }
    };
    a.seal(op.aad, input, body, tag)?;
    return Ok(n + t);
  }
  let n = input.len().checked_sub(t).ok_or_else(decrypt_failed)?;
  let (ct, tag) = match A::TAG_AT {
    TagAt::End => input.split_at(n),
    TagAt::Front => {
      let (tag, ct) = input.split_at(t);
      (ct, tag)
    }
  };
  let out = out.get_mut(..n).ok_or_else(|| internal("output size"))?;
  match a.open(op.aad, ct, tag, out) {
    Ok(()) => Ok(n),
    Err(e) => {
      out.fill(0);
      Err(e)
    }
  }
}

/// Writes the first `tag.len()` bytes of `full` into `tag`.
pub fn put_tag(tag: &mut [u8], full: &[u8]) -> CryptoResult<()> {
  let t = full.get(..tag.len()).ok_or_else(|| internal("tag size"))?;
  tag.copy_from_slice(t);
  Ok(())
}

// ---- ring: AES-GCM (96-bit IV), ChaCha20-Poly1305, XChaCha20-Poly1305 ------------------------

/// A `ring` AEAD key with a 96-bit nonce. Opens only full 16-byte tags.
pub struct Ring<'a> {
  key: &'a LessSafeKey,
  nonce: Nonce,
}

impl<'a> Ring<'a> {
  pub fn new(key: &'a LessSafeKey, nonce: &[u8]) -> CryptoResult<Self> {
    let nonce = Nonce::try_assume_unique_for_key(nonce).map_err(|_| internal("nonce"))?;
    Ok(Ring { key, nonce })
  }
}

impl DetachedAead for Ring<'_> {
  fn seal(self, aad: &[u8], input: &[u8], out: &mut [u8], tag: &mut [u8]) -> CryptoResult<()> {
    out.copy_from_slice(input);
    let full = self
      .key
      .seal_in_place_separate_tag(self.nonce, Aad::from(aad), out)
      .map_err(|_| too_long())?;
    put_tag(tag, full.as_ref())
  }

  fn open(self, aad: &[u8], input: &[u8], tag: &[u8], out: &mut [u8]) -> CryptoResult<()> {
    out.copy_from_slice(input);
    let tag = ring::aead::Tag::try_from(tag).map_err(|_| decrypt_failed())?;
    self
      .key
      .open_in_place_separate_tag(self.nonce, Aad::from(aad), tag, out, 0..)
      .map(|_| ())
      .map_err(|_| decrypt_failed())
  }
}

impl DetachedAead for Stitched<'_> {
  fn seal(self, aad: &[u8], input: &[u8], out: &mut [u8], tag: &mut [u8]) -> CryptoResult<()> {
    put_tag(tag, &Stitched::seal(self, aad, input, out)?)
  }

  fn open(self, aad: &[u8], input: &[u8], tag: &[u8], out: &mut [u8]) -> CryptoResult<()> {
    // Full 16-byte tags only, as with `ring`.
    if tag.len() == 16 && crate::ct::eq(&Stitched::open(self, aad, input, out)?, tag) {
      Ok(())
    } else {
      Err(decrypt_failed())
    }
  }
}

/// XChaCha20's subkey (draft-irtf-cfrg-xchacha §2.3): HChaCha20(key, the first 16 bytes of the
/// 24-byte nonce). ChaCha20-Poly1305 under it then takes the nonce 0^4 ‖ nonce[16..24].
pub fn xchacha_subkey(key: &[u8; 32], head: &[u8; 16]) -> Zeroizing<[u8; 32]> {
  let mut sub = Zeroizing::new([0u8; 32]);
  sub.copy_from_slice(&chacha20::hchacha::<chacha20::R20>(
    &chacha20::Key::from(*key),
    &Array::<u8, U16>::from(*head),
  ));
  sub
}

/// ChaCha20-Poly1305 with a 12-byte nonce, XChaCha20-Poly1305 with a 24-byte one.
pub fn chacha(
  key: &LessSafeKey,
  raw: &[u8; 32],
  op: &Op,
  iv: &[u8],
  input: &[u8],
  out: &mut [u8],
) -> CryptoResult<usize> {
  if iv.len() != 24 {
    if let Some(s) = Stitched::new(raw, iv, input.len()) {
      return seal_or_open(s, op, input, out);
    }
    return seal_or_open(Ring::new(key, iv)?, op, input, out);
  }
  // XChaCha20-Poly1305: the subkey, then ChaCha20-Poly1305 with nonce 0^4 ‖ nonce[16..].
  let head: &[u8; 16] = iv[..16].try_into().map_err(|_| internal("nonce"))?;
  let raw_sub = xchacha_subkey(raw, head);
  let mut nonce = [0u8; 12];
  nonce[4..].copy_from_slice(&iv[16..24]);
  if let Some(s) = Stitched::new(&raw_sub, &nonce, input.len()) {
    return seal_or_open(s, op, input, out);
  }
  let sub = chacha_key(&raw_sub)?;
  seal_or_open(Ring::new(&sub, &nonce)?, op, input, out)
}

// ---- RustCrypto: AES-GCM-SIV, CCM (`AeadInOut`) and AES-SIV ---------------------------------

/// Any RustCrypto [`AeadInOut`] with its nonce.
pub struct InOut<'a, A: AeadCore> {
  a: &'a A,
  nonce: ::aead::Nonce<A>,
}

impl<'a, A: AeadInOut> InOut<'a, A> {
  pub fn new(a: &'a A, nonce: &[u8]) -> CryptoResult<Self> {
    let nonce = ::aead::Nonce::<A>::try_from(nonce).map_err(|_| internal("nonce"))?;
    Ok(InOut { a, nonce })
  }
}

impl<A: AeadInOut> DetachedAead for InOut<'_, A> {
  fn seal(self, aad: &[u8], input: &[u8], out: &mut [u8], tag: &mut [u8]) -> CryptoResult<()> {
    let buf = InOutBuf::new(input, out).map_err(|_| internal("lengths"))?;
    let full = self
      .a
      .encrypt_inout_detached(&self.nonce, aad, buf)
      .map_err(|_| too_long())?;
    put_tag(tag, &full)
  }

  fn open(self, aad: &[u8], input: &[u8], tag: &[u8], out: &mut [u8]) -> CryptoResult<()> {
    let tag = ::aead::Tag::<A>::try_from(tag).map_err(|_| decrypt_failed())?;
    let buf = InOutBuf::new(input, out).map_err(|_| internal("lengths"))?;
    self
      .a
      .decrypt_inout_detached(&self.nonce, aad, buf, &tag)
      .map_err(|_| decrypt_failed())
  }
}

/// CCM: the crate fixes tag and nonce length as types, so pick them here (tags 12/14/16 ×
/// nonces 7..13), over any AES key size.
pub fn ccm<C>(c: &C, op: &Op, iv: &[u8], input: &[u8], out: &mut [u8]) -> CryptoResult<usize>
where
  C: BlockCipherEncrypt<BlockSize = U16> + Clone,
{
  macro_rules! by_nonce {
    ($m:ty) => {
      match iv.len() {
        7 => ccm_run::<C, $m, U7>(c, op, iv, input, out),
        8 => ccm_run::<C, $m, U8>(c, op, iv, input, out),
        9 => ccm_run::<C, $m, U9>(c, op, iv, input, out),
        10 => ccm_run::<C, $m, U10>(c, op, iv, input, out),
        11 => ccm_run::<C, $m, U11>(c, op, iv, input, out),
        12 => ccm_run::<C, $m, U12>(c, op, iv, input, out),
        13 => ccm_run::<C, $m, U13>(c, op, iv, input, out),
        n => Err(length_error("IV (nonce)", op.mode, "7 to 13".into(), n)),
      }
    };
  }
  match op.tag_len {
    12 => by_nonce!(U12),
    14 => by_nonce!(U14),
    16 => by_nonce!(U16),
    n => Err(length_error("tag", op.mode, list(op.mode.info().tags), n)),
  }
}

fn ccm_run<C, M, N>(c: &C, op: &Op, iv: &[u8], input: &[u8], out: &mut [u8]) -> CryptoResult<usize>
where
  C: BlockCipherEncrypt<BlockSize = U16> + Clone,
  M: ArraySize + ccm::TagSize,
  N: ArraySize + ccm::NonceSize,
{
  // CCM's length field has 15 - N bytes: longer messages do not fit.
  let max_len = 1u128 << (8 * (15 - N::USIZE)).min(127);
  let body_len = if op.decrypt {
    input.len().saturating_sub(M::USIZE)
  } else {
    input.len()
  };
  if body_len as u128 >= max_len {
    return Err(CryptoError::new(
      Code::OutOfRange,
      format!(
        "The data is too long for {} with a {}-byte nonce: it must be shorter than {max_len} bytes (use a shorter nonce)",
        op.mode.label(),
        N::USIZE
      ),
    ));
  }
  let a = ccm::Ccm::<C, M, N>::from(c.clone());
  seal_or_open(InOut::new(&a, iv)?, op, input, out)
}

/// AES-SIV (RFC 5297) with headers `[aad, nonce]` (`[aad]` when the nonce is empty); the output
/// is `V ‖ C` as the RFC defines it.
pub struct Siv<'a> {
  key: &'a mut SivKey,
  nonce: &'a [u8],
}

impl<'a> Siv<'a> {
  pub fn new(key: &'a mut SivKey, nonce: &'a [u8]) -> Self {
    Siv { key, nonce }
  }
}

impl DetachedAead for Siv<'_> {
  const TAG_AT: TagAt = TagAt::Front;

  fn seal(self, aad: &[u8], input: &[u8], out: &mut [u8], tag: &mut [u8]) -> CryptoResult<()> {
    let headers = siv_headers(aad, self.nonce);
    let buf = InOutBuf::new(input, out).map_err(|_| internal("lengths"))?;
    let full = match self.key {
      SivKey::K256(s) => s.encrypt_inout_detached(headers, buf),
      SivKey::K512(s) => s.encrypt_inout_detached(headers, buf),
    };
    put_tag(tag, &full.map_err(|_| too_long())?)
  }

  fn open(self, aad: &[u8], input: &[u8], tag: &[u8], out: &mut [u8]) -> CryptoResult<()> {
    let headers = siv_headers(aad, self.nonce);
    let tag = aes_siv::Tag::try_from(tag).map_err(|_| decrypt_failed())?;
    let buf = InOutBuf::new(input, out).map_err(|_| internal("lengths"))?;
    match self.key {
      SivKey::K256(s) => s.decrypt_inout_detached(headers, buf, &tag),
      SivKey::K512(s) => s.decrypt_inout_detached(headers, buf, &tag),
    }
    .map_err(|_| decrypt_failed())
  }
}

fn siv_headers<'h>(aad: &'h [u8], nonce: &'h [u8]) -> impl Iterator<Item = &'h [u8]> + Clone {
  std::iter::once(aad).chain((!nonce.is_empty()).then_some(nonce))
}
