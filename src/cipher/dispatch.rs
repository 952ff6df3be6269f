//! The one entry point, [`run`]: the IV handling (given, or generated and prepended), then the
//! dispatch by mode of a [`ModeKey`] to the generic block modes (`block_modes.rs`) or to the AEAD
//! framing (`aead.rs`) over the AEAD the mode names.

use super::keys::{self, with_aes, with_des, GcmSivKey, ModeKey};
use super::modes::{check_iv, decrypt_failed, internal, IvRule, Mode, Op};
use super::{aead, block_modes, gcm};
use crate::error::CryptoResult;

/// Encrypts or decrypts `input` into `out` (at least `op.output_len(input.len())` bytes long)
/// and returns the number of bytes written. Handles the generated, prepended IV.
pub fn run(key: &mut ModeKey, op: &Op, input: &[u8], out: &mut [u8]) -> CryptoResult<usize> {
  op.check()?;
  let info = op.mode.info();
  if out.len() < op.output_len(input.len()) {
    return Err(internal("output buffer too small"));
  }
  if matches!(info.iv, IvRule::None) {
    return key.apply(op, &[], input, out);
  }
  match op.iv {
    Some(iv) => {
      check_iv(op.mode, iv.len())?;
      key.apply(op, iv, input, out)
    }
    None if !op.decrypt => {
      let n = info.iv_default;
      let mut iv = [0u8; 32];
      let iv = iv.get_mut(..n).ok_or_else(|| internal("IV size"))?;
      crate::random::fill(iv)?;
      let (prefix, body) = out.split_at_mut(n);
      let written = key.apply(op, iv, input, body)?;
      // The IV goes in front only once the data was accepted: a refusal writes nothing.
      prefix.copy_from_slice(iv);
      Ok(written + n)
    }
    None => {
      let n = info.iv_default;
      if input.len() < n {
        return Err(decrypt_failed());
      }
      let (iv, body) = input.split_at(n);
      key.apply(op, iv, body, out)
    }
  }
}

impl ModeKey {
  /// `run` without the IV handling: `iv` is checked and explicit (empty for ECB).
  fn apply(&mut self, op: &Op, iv: &[u8], input: &[u8], out: &mut [u8]) -> CryptoResult<usize> {
    match (self, op.mode) {
      (ModeKey::Aes(k), Mode::Ecb | Mode::Cbc) => {
        with_aes!(k, |c| block_modes::padded(c, op, iv, input, out))
      }
      (ModeKey::Des(k), Mode::DesEcb | Mode::DesCbc) => {
        with_des!(k, |c| block_modes::padded(c, op, iv, input, out))
      }
      (ModeKey::Aes(k), Mode::Ctr | Mode::Cfb | Mode::Cfb8 | Mode::Ofb) => {
        with_aes!(k, |c| block_modes::stream(c, op, iv, input, out))
      }
      (ModeKey::Aes(k), Mode::Ccm) => with_aes!(k, |c| aead::ccm(c, op, iv, input, out)),
      (ModeKey::Gcm { ring, soft, raw }, Mode::Gcm) => {
        // ring opens full tags only.
        let fast = iv.len() == 12 && (!op.decrypt || op.tag_len == 16);
        if let (true, Some(key)) = (fast, ring.as_ref()) {
          return aead::seal_or_open(aead::Ring::new(key, iv)?, op, input, out);
        }
        if soft.is_none() {
          *soft = keys::AesKey::new(raw)
            .map(Some)
            .ok_or_else(|| internal("GCM key"))?;
        }
        let k = soft.as_ref().ok_or_else(|| internal("GCM key"))?;
        with_aes!(k, |c| aead::seal_or_open(
          gcm::Gcm::new(c, iv),
          op,
          input,
          out
        ))
      }
      (ModeKey::GcmSiv(k), Mode::GcmSiv) => match k {
        GcmSivKey::K128(a) => aead::seal_or_open(aead::InOut::new(a, iv)?, op, input, out),
        GcmSivKey::K256(a) => aead::seal_or_open(aead::InOut::new(a, iv)?, op, input, out),
      },
      (ModeKey::Siv(k), Mode::Siv) => aead::seal_or_open(aead::Siv::new(k, iv), op, input, out),
      (ModeKey::ChaCha { ring, raw }, Mode::ChaCha20Poly1305 | Mode::XChaCha20Poly1305) => {
        aead::chacha(ring, raw, op, iv, input, out)
      }
      _ => Err(internal("key built for another mode")),
    }
  }
}
