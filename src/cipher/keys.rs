//! Key schedules: [`ModeKey`], a key expanded for one mode (the kept-key objects cache one per
//! mode), and the concrete key types behind it. [`with_aes!`] and [`with_des!`] run a body on
//! the concrete AES or DES type, so the mode code is written once, generic over the cipher.

use aes::{Aes128, Aes192, Aes256};
use cipher::KeyInit;
use ring::aead::{LessSafeKey, UnboundKey};
use zeroize::Zeroizing;

use super::modes::{check_key, internal, length_error, list, Mode};
use crate::error::CryptoResult;

/// An expanded AES key of any of the three sizes.
#[derive(Clone)]
pub enum AesKey {
  K128(Aes128),
  K192(Aes192),
  K256(Aes256),
}

/// Runs `$body` with `$c` bound to the concrete AES type (`&Aes128`, `&Aes192` or `&Aes256`).
macro_rules! with_aes {
  ($key:expr, |$c:ident| $body:expr) => {
    match $key {
      $crate::cipher::keys::AesKey::K128($c) => $body,
      $crate::cipher::keys::AesKey::K192($c) => $body,
      $crate::cipher::keys::AesKey::K256($c) => $body,
    }
  };
}
pub(super) use with_aes;

impl AesKey {
  pub fn new(key: &[u8]) -> Option<Self> {
    Some(match key.len() {
      16 => AesKey::K128(Aes128::new_from_slice(key).ok()?),
      24 => AesKey::K192(Aes192::new_from_slice(key).ok()?),
      32 => AesKey::K256(Aes256::new_from_slice(key).ok()?),
      _ => return None,
    })
  }
}

/// DES (8-byte key), two-key 3DES (16) or three-key 3DES (24), all EDE.
pub enum DesKey {
  Des(des::Des),
  Ede2(des::TdesEde2),
  Ede3(des::TdesEde3),
}

/// Runs `$body` with `$c` bound to the concrete DES type (`&Des`, `&TdesEde2` or `&TdesEde3`).
macro_rules! with_des {
  ($key:expr, |$c:ident| $body:expr) => {
    match $key {
      $crate::cipher::keys::DesKey::Des($c) => $body,
      $crate::cipher::keys::DesKey::Ede2($c) => $body,
      $crate::cipher::keys::DesKey::Ede3($c) => $body,
    }
  };
}
pub(super) use with_des;

pub enum GcmSivKey {
  K128(aes_gcm_siv::Aes128GcmSiv),
  K256(aes_gcm_siv::Aes256GcmSiv),
}

pub enum SivKey {
  K256(aes_siv::siv::Aes128Siv),
  K512(aes_siv::siv::Aes256Siv),
}

/// A key prepared for one mode. Variants differ in size (ring's and aes 0.9's key schedules are
/// several hundred bytes, SIV's larger one is boxed); one is built per call or kept per mode, so
/// the common ones are not boxed.
#[allow(clippy::large_enum_variant)]
pub enum ModeKey {
  /// ECB, CBC, CTR, CFB, CFB8, OFB and CCM.
  Aes(AesKey),
  /// GCM: ring for 96-bit IVs with AES-128/256; the generic code for the rest (built on demand).
  Gcm {
    ring: Option<LessSafeKey>,
    soft: Option<AesKey>,
    raw: Zeroizing<Vec<u8>>,
  },
  GcmSiv(GcmSivKey),
  Siv(Box<SivKey>),
  ChaCha {
    ring: LessSafeKey,
    raw: Zeroizing<[u8; 32]>,
  },
  Des(DesKey),
}

impl ModeKey {
  /// Expands `key` for `mode` (checks the key length).
  pub fn new(mode: Mode, key: &[u8]) -> CryptoResult<ModeKey> {
    check_key(mode, key.len())?;
    let bad = || length_error("key", mode, list(mode.info().keys), key.len());
    Ok(match mode {
      Mode::Ecb | Mode::Cbc | Mode::Ctr | Mode::Cfb | Mode::Cfb8 | Mode::Ofb | Mode::Ccm => {
        ModeKey::Aes(AesKey::new(key).ok_or_else(bad)?)
      }
      Mode::Gcm => {
        let alg = match key.len() {
          16 => Some(&ring::aead::AES_128_GCM),
          32 => Some(&ring::aead::AES_256_GCM),
          _ => None,
        };
        let ring = alg
          .and_then(|a| UnboundKey::new(a, key).ok())
          .map(LessSafeKey::new);
        ModeKey::Gcm {
          soft: None,
          ring,
          raw: Zeroizing::new(key.to_vec()),
        }
      }
      Mode::GcmSiv => ModeKey::GcmSiv(match key.len() {
        16 => GcmSivKey::K128(KeyInit::new_from_slice(key).map_err(|_| bad())?),
        _ => GcmSivKey::K256(KeyInit::new_from_slice(key).map_err(|_| bad())?),
      }),
      Mode::Siv => ModeKey::Siv(Box::new(match key.len() {
        32 => SivKey::K256(KeyInit::new_from_slice(key).map_err(|_| bad())?),
        _ => SivKey::K512(KeyInit::new_from_slice(key).map_err(|_| bad())?),
      })),
      Mode::ChaCha20Poly1305 | Mode::XChaCha20Poly1305 => {
        let mut raw = Zeroizing::new([0u8; 32]);
        raw.copy_from_slice(key.get(..32).ok_or_else(bad)?);
        let ring = chacha_key(&raw)?;
        ModeKey::ChaCha { ring, raw }
      }
      Mode::DesEcb | Mode::DesCbc => ModeKey::Des(match key.len() {
        8 => DesKey::Des(KeyInit::new_from_slice(key).map_err(|_| bad())?),
        16 => DesKey::Ede2(KeyInit::new_from_slice(key).map_err(|_| bad())?),
        _ => DesKey::Ede3(KeyInit::new_from_slice(key).map_err(|_| bad())?),
      }),
    })
  }
}

pub fn chacha_key(key: &[u8; 32]) -> CryptoResult<LessSafeKey> {
  UnboundKey::new(&ring::aead::CHACHA20_POLY1305, key)
    .map(LessSafeKey::new)
    .map_err(|_| internal("ChaCha20-Poly1305 key"))
}
