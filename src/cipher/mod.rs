//! Symmetric encryption: AES in every common mode, ChaCha20-Poly1305 / XChaCha20-Poly1305 and
//! legacy DES / 3DES.
//!
//! [`MODES`] is THE mode table: names, key/IV/tag lengths and padding for every mode, exported to
//! the JS layer (`cipherModes()`), which builds the whole API from it. Everything below it is
//! written once and dispatched by mode:
//! - [`ModeKey`] holds a key schedule built for one mode (the kept-key objects cache one per mode);
//! - the block-cipher modes are generic over the cipher (`C: BlockCipherEncrypt + ...`), and
//!   [`with_aes!`] / [`with_des!`] pick the concrete key size once, so AES-128/192/256 and DES /
//!   3DES share every line of mode code;
//! - AEAD output is `ciphertext ‖ tag`, except SIV, which keeps RFC 5297's `V ‖ C`.
//!
//! Backends (measured, docs/backends.md "Ciphers"): `ring` for AES-GCM with a 96-bit IV and for
//! ChaCha20-Poly1305 (XChaCha20 = HChaCha20 subkey + ring); `aes` 0.9 with `cbc`/`ctr`/`cfb-mode`/
//! `cfb8`/`ofb` for the block modes; [`gcm`] (aes 0.9 + `ghash`) for GCM with other IV lengths,
//! AES-192 and truncated tags; `aes-gcm-siv`, `ccm`, `aes-siv`, `des`.
//!
//! No user input can panic this code: lengths are checked before any slice is taken, and on any
//! authentication or padding failure the output buffer is zeroed before the (single, uniform)
//! error is returned.

pub mod api;
mod gcm;
pub mod openssl;

use aead::{AeadCore, AeadInOut};
use aes::{Aes128, Aes192, Aes256};
use cipher::array::{Array, ArraySize};
use cipher::consts::{U10, U11, U12, U13, U14, U16, U7, U8, U9};
use cipher::typenum::Unsigned;
use cipher::{
  BlockCipherDecrypt, BlockCipherEncrypt, BlockModeDecrypt, BlockModeEncrypt, InOutBuf,
  InnerIvInit, KeyInit, StreamCipher,
};
use ring::aead::{Aad, LessSafeKey, Nonce, UnboundKey};
use zeroize::Zeroizing;

use crate::error::{Code, CryptoError, CryptoResult};

/// Every mode, in table order (the numeric id the JS layer passes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
  Ecb,
  Cbc,
  Ctr,
  Cfb,
  Cfb8,
  Ofb,
  Gcm,
  GcmSiv,
  Ccm,
  Siv,
  ChaCha20Poly1305,
  XChaCha20Poly1305,
  DesEcb,
  DesCbc,
}

/// Which namespace (and key family) a mode belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyFamily {
  Aes,
  ChaCha,
  Des,
}

impl KeyFamily {
  pub const fn name(self) -> &'static str {
    match self {
      KeyFamily::Aes => "aes",
      KeyFamily::ChaCha => "chacha20",
      KeyFamily::Des => "des",
    }
  }
}

/// Accepted IV (nonce) lengths in bytes.
#[derive(Clone, Copy, Debug)]
pub enum IvRule {
  /// The mode takes no IV (ECB); a given `iv` is ignored.
  None,
  /// Exactly these lengths.
  OneOf(&'static [usize]),
  /// Any length in `min..=max`.
  Range(usize, usize),
}

/// One row of the mode table.
#[derive(Debug)]
pub struct ModeInfo {
  pub mode: Mode,
  pub family: KeyFamily,
  /// The JS `mode` name (lower case).
  pub name: &'static str,
  /// Key lengths in bytes.
  pub keys: &'static [usize],
  pub iv: IvRule,
  /// IV length generated (and prepended) when none is given; 0 for ECB.
  pub iv_default: usize,
  /// Accepted AEAD tag lengths in bytes; empty for modes without authentication.
  pub tags: &'static [usize],
  /// Block size for PKCS#7 padding (ECB/CBC); 0 for stream and AEAD modes.
  pub pad_block: usize,
}

impl ModeInfo {
  pub const fn is_aead(&self) -> bool {
    !self.tags.is_empty()
  }
}

const AES_KEYS: &[usize] = &[16, 24, 32];
const TAG_16: &[usize] = &[16];
/// Largest IV (nonce) accepted by the modes that take any length (GCM, SIV).
pub const MAX_IV: usize = 1 << 20;

/// THE mode table. Index = `Mode as usize`.
pub const MODES: &[ModeInfo] = &[
  ModeInfo {
    mode: Mode::Ecb,
    family: KeyFamily::Aes,
    name: "ecb",
    keys: AES_KEYS,
    iv: IvRule::None,
    iv_default: 0,
    tags: &[],
    pad_block: 16,
  },
  ModeInfo {
    mode: Mode::Cbc,
    family: KeyFamily::Aes,
    name: "cbc",
    keys: AES_KEYS,
    iv: IvRule::OneOf(&[16]),
    iv_default: 16,
    tags: &[],
    pad_block: 16,
  },
  ModeInfo {
    mode: Mode::Ctr,
    family: KeyFamily::Aes,
    name: "ctr",
    keys: AES_KEYS,
    iv: IvRule::OneOf(&[16]),
    iv_default: 16,
    tags: &[],
    pad_block: 0,
  },
  ModeInfo {
    mode: Mode::Cfb,
    family: KeyFamily::Aes,
    name: "cfb",
    keys: AES_KEYS,
    iv: IvRule::OneOf(&[16]),
    iv_default: 16,
    tags: &[],
    pad_block: 0,
  },
  ModeInfo {
    mode: Mode::Cfb8,
    family: KeyFamily::Aes,
    name: "cfb8",
    keys: AES_KEYS,
    iv: IvRule::OneOf(&[16]),
    iv_default: 16,
    tags: &[],
    pad_block: 0,
  },
  ModeInfo {
    mode: Mode::Ofb,
    family: KeyFamily::Aes,
    name: "ofb",
    keys: AES_KEYS,
    iv: IvRule::OneOf(&[16]),
    iv_default: 16,
    tags: &[],
    pad_block: 0,
  },
  ModeInfo {
    mode: Mode::Gcm,
    family: KeyFamily::Aes,
    name: "gcm",
    keys: AES_KEYS,
    iv: IvRule::Range(1, MAX_IV),
    iv_default: 12,
    tags: &[12, 13, 14, 15, 16],
    pad_block: 0,
  },
  ModeInfo {
    mode: Mode::GcmSiv,
    family: KeyFamily::Aes,
    name: "gcm-siv",
    keys: &[16, 32],
    iv: IvRule::OneOf(&[12]),
    iv_default: 12,
    tags: TAG_16,
    pad_block: 0,
  },
  ModeInfo {
    mode: Mode::Ccm,
    family: KeyFamily::Aes,
    name: "ccm",
    keys: AES_KEYS,
    iv: IvRule::Range(7, 13),
    iv_default: 12,
    tags: &[12, 14, 16],
    pad_block: 0,
  },
  ModeInfo {
    mode: Mode::Siv,
    family: KeyFamily::Aes,
    name: "siv",
    keys: &[32, 64],
    iv: IvRule::Range(0, MAX_IV),
    iv_default: 16,
    tags: TAG_16,
    pad_block: 0,
  },
  ModeInfo {
    mode: Mode::ChaCha20Poly1305,
    family: KeyFamily::ChaCha,
    name: "chacha20-poly1305",
    keys: &[32],
    iv: IvRule::OneOf(&[12, 24]),
    iv_default: 12,
    tags: TAG_16,
    pad_block: 0,
  },
  ModeInfo {
    mode: Mode::XChaCha20Poly1305,
    family: KeyFamily::ChaCha,
    name: "xchacha20-poly1305",
    keys: &[32],
    iv: IvRule::OneOf(&[24]),
    iv_default: 24,
    tags: TAG_16,
    pad_block: 0,
  },
  ModeInfo {
    mode: Mode::DesEcb,
    family: KeyFamily::Des,
    name: "ecb",
    keys: &[8, 16, 24],
    iv: IvRule::None,
    iv_default: 0,
    tags: &[],
    pad_block: 8,
  },
  ModeInfo {
    mode: Mode::DesCbc,
    family: KeyFamily::Des,
    name: "cbc",
    keys: &[8, 16, 24],
    iv: IvRule::OneOf(&[8]),
    iv_default: 8,
    tags: &[],
    pad_block: 8,
  },
];

impl Mode {
  pub fn from_id(id: u32) -> Option<Mode> {
    MODES.get(id as usize).map(|m| m.mode)
  }

  #[inline]
  pub fn info(self) -> &'static ModeInfo {
    &MODES[self as usize]
  }

  /// "aes-gcm", "des-cbc", "chacha20-poly1305": the name used in error messages.
  pub fn label(self) -> String {
    let i = self.info();
    match i.family {
      KeyFamily::ChaCha => i.name.to_string(),
      f => format!("{}-{}", f.name(), i.name),
    }
  }
}

/// "16, 24 or 32"
fn list(v: &[usize]) -> String {
  match v {
    [] => String::new(),
    [a] => a.to_string(),
    [init @ .., last] => format!(
      "{} or {last}",
      init
        .iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(", ")
    ),
  }
}

fn length_error(what: &str, mode: Mode, accepted: String, got: usize) -> CryptoError {
  CryptoError::new(
    Code::OutOfRange,
    format!(
      "Invalid {what} length for {}: it must be {accepted} bytes. Received {got}",
      mode.label()
    ),
  )
}

/// The error for every authentication or padding failure: one code, one message.
pub fn decrypt_failed() -> CryptoError {
  CryptoError::new(
    Code::DecryptFailed,
    "Unsupported state or unable to authenticate data",
  )
}

fn internal(what: &str) -> CryptoError {
  CryptoError::new(Code::Operation, format!("internal error: {what}"))
}

pub fn check_key(mode: Mode, len: usize) -> CryptoResult<()> {
  let keys = mode.info().keys;
  if keys.contains(&len) {
    Ok(())
  } else {
    Err(length_error("key", mode, list(keys), len))
  }
}

pub fn check_iv(mode: Mode, len: usize) -> CryptoResult<()> {
  let what = if mode.info().is_aead() {
    "IV (nonce)"
  } else {
    "IV"
  };
  match mode.info().iv {
    IvRule::None => Ok(()),
    IvRule::OneOf(v) if v.contains(&len) => Ok(()),
    IvRule::OneOf(v) => Err(length_error(what, mode, list(v), len)),
    IvRule::Range(lo, hi) if (lo..=hi).contains(&len) => Ok(()),
    IvRule::Range(lo, hi) => Err(length_error(what, mode, format!("{lo} to {hi}"), len)),
  }
}

pub fn check_tag(mode: Mode, len: usize) -> CryptoResult<()> {
  let tags = mode.info().tags;
  if tags.contains(&len) {
    Ok(())
  } else {
    Err(length_error("tag", mode, list(tags), len))
  }
}

/// One encryption or decryption request (everything but the key and the data).
#[derive(Clone, Copy, Debug)]
pub struct Op<'a> {
  pub mode: Mode,
  pub decrypt: bool,
  /// PKCS#7 padding (ECB/CBC only; ignored elsewhere).
  pub padding: bool,
  /// `None`: generate a random IV and prepend it (encrypt) or read it from the front (decrypt).
  pub iv: Option<&'a [u8]>,
  pub aad: &'a [u8],
  /// AEAD tag length in bytes (16 unless asked otherwise).
  pub tag_len: usize,
}

impl Op<'_> {
  /// Checks everything but the key and the IV (which depend on the key source and the input).
  pub fn check(&self) -> CryptoResult<()> {
    let info = self.mode.info();
    if info.is_aead() {
      check_tag(self.mode, self.tag_len)
    } else if !self.aad.is_empty() {
      Err(CryptoError::invalid_value(
        "options.aad",
        format!(
          "no additional data: {} does not authenticate",
          self.mode.label()
        ),
        format!("{} bytes", self.aad.len()),
      ))
    } else {
      Ok(())
    }
  }

  fn padded(&self) -> bool {
    self.padding && self.mode.info().pad_block > 0
  }

  /// The exact output length of encrypting `n` bytes; the upper bound (`n`) when decrypting.
  pub fn output_len(&self, n: usize) -> usize {
    if self.decrypt {
      return n;
    }
    let info = self.mode.info();
    let prefix = if self.iv.is_none() {
      info.iv_default
    } else {
      0
    };
    let body = if self.padded() {
      (n / info.pad_block + 1) * info.pad_block
    } else {
      n
    };
    let tag = if info.is_aead() { self.tag_len } else { 0 };
    prefix + body + tag
  }
}

// ------------------------------------------------------------------------------------------------
// Key schedules
// ------------------------------------------------------------------------------------------------

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
      AesKey::K128($c) => $body,
      AesKey::K192($c) => $body,
      AesKey::K256($c) => $body,
    }
  };
}

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

macro_rules! with_des {
  ($key:expr, |$c:ident| $body:expr) => {
    match $key {
      DesKey::Des($c) => $body,
      DesKey::Ede2($c) => $body,
      DesKey::Ede3($c) => $body,
    }
  };
}

pub enum GcmSivKey {
  K128(aes_gcm_siv::Aes128GcmSiv),
  K256(aes_gcm_siv::Aes256GcmSiv),
}

pub enum SivKey {
  K256(aes_siv::siv::Aes128Siv),
  K512(aes_siv::siv::Aes256Siv),
}

/// A key prepared for one mode. Variants differ in size (ring's and aes 0.9's key schedules are
/// several hundred bytes); an engine is built once per call or kept per mode, so no boxing.
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

fn chacha_key(key: &[u8; 32]) -> CryptoResult<LessSafeKey> {
  UnboundKey::new(&ring::aead::CHACHA20_POLY1305, key)
    .map(LessSafeKey::new)
    .map_err(|_| internal("ChaCha20-Poly1305 key"))
}

// ------------------------------------------------------------------------------------------------
// The one entry point
// ------------------------------------------------------------------------------------------------

/// Encrypts or decrypts `input` into `out` (at least `op.output_len(input.len())` bytes long)
/// and returns the number of bytes written. Handles the generated, prepended IV.
pub fn run(engine: &mut ModeKey, op: &Op, input: &[u8], out: &mut [u8]) -> CryptoResult<usize> {
  op.check()?;
  let info = op.mode.info();
  if out.len() < op.output_len(input.len()) {
    return Err(internal("output buffer too small"));
  }
  if matches!(info.iv, IvRule::None) {
    return engine.apply(op, &[], input, out);
  }
  match op.iv {
    Some(iv) => {
      check_iv(op.mode, iv.len())?;
      engine.apply(op, iv, input, out)
    }
    None if !op.decrypt => {
      let n = info.iv_default;
      let (prefix, body) = out.split_at_mut(n);
      crate::random::fill(prefix)?;
      let mut iv = [0u8; 32];
      let iv = iv.get_mut(..n).ok_or_else(|| internal("IV size"))?;
      iv.copy_from_slice(prefix);
      Ok(engine.apply(op, iv, input, body)? + n)
    }
    None => {
      let n = info.iv_default;
      if input.len() < n {
        return Err(decrypt_failed());
      }
      let (iv, body) = input.split_at(n);
      engine.apply(op, iv, body, out)
    }
  }
}

impl ModeKey {
  /// `run` without the IV handling: `iv` is checked and explicit.
  fn apply(&mut self, op: &Op, iv: &[u8], input: &[u8], out: &mut [u8]) -> CryptoResult<usize> {
    let d = op.decrypt;
    let label = op.mode;
    match (self, op.mode) {
      (ModeKey::Aes(k), Mode::Ecb) => {
        with_aes!(k, |c| padded(c, None, d, op.padding, label, input, out))
      }
      (ModeKey::Aes(k), Mode::Cbc) => {
        with_aes!(k, |c| padded(c, Some(iv), d, op.padding, label, input, out))
      }
      (ModeKey::Aes(k), Mode::Ctr | Mode::Cfb | Mode::Cfb8 | Mode::Ofb) => {
        with_aes!(k, |c| stream(c, op.mode, d, iv, input, out))
      }
      (ModeKey::Aes(k), Mode::Ccm) => with_aes!(k, |c| ccm_dispatch(c, op, iv, input, out)),
      (ModeKey::Des(k), Mode::DesEcb) => {
        with_des!(k, |c| padded(c, None, d, op.padding, label, input, out))
      }
      (ModeKey::Des(k), Mode::DesCbc) => {
        with_des!(k, |c| padded(c, Some(iv), d, op.padding, label, input, out))
      }
      (ModeKey::Gcm { ring, soft, raw }, Mode::Gcm) => {
        let fast = iv.len() == 12 && (!d || op.tag_len == 16);
        if let (true, Some(key)) = (fast, ring.as_ref()) {
          let nonce = Nonce::try_assume_unique_for_key(iv).map_err(|_| internal("nonce"))?;
          return if d {
            ring_open(key, nonce, op.aad, input, out)
          } else {
            ring_seal(key, nonce, op.aad, input, out, op.tag_len)
          };
        }
        if soft.is_none() {
          *soft = AesKey::new(raw)
            .map(Some)
            .ok_or_else(|| internal("GCM key"))?;
        }
        let k = soft.as_ref().ok_or_else(|| internal("GCM key"))?;
        with_aes!(k, |c| if d {
          gcm::open(c, iv, op.aad, input, op.tag_len, out)
        } else {
          gcm::seal(c, iv, op.aad, input, op.tag_len, out)
        })
      }
      (ModeKey::GcmSiv(k), Mode::GcmSiv) => match k {
        GcmSivKey::K128(a) => aead_run(a, d, iv, op.aad, input, out, op.mode),
        GcmSivKey::K256(a) => aead_run(a, d, iv, op.aad, input, out, op.mode),
      },
      (ModeKey::Siv(k), Mode::Siv) => match &mut **k {
        SivKey::K256(s) => siv_run(s, d, iv, op.aad, input, out),
        SivKey::K512(s) => siv_run(s, d, iv, op.aad, input, out),
      },
      (ModeKey::ChaCha { ring, raw }, Mode::ChaCha20Poly1305 | Mode::XChaCha20Poly1305) => {
        if iv.len() == 24 {
          // XChaCha20-Poly1305 (draft-irtf-cfrg-xchacha): subkey = HChaCha20(key, nonce[..16]),
          // then ChaCha20-Poly1305 with nonce 0^4 ‖ nonce[16..].
          let head = Array::<u8, U16>::try_from(&iv[..16]).map_err(|_| internal("nonce"))?;
          let k = chacha20::Key::from(**raw);
          let mut sub = Zeroizing::new([0u8; 32]);
          sub.copy_from_slice(&chacha20::hchacha::<chacha20::R20>(&k, &head));
          let key = chacha_key(&sub)?;
          let mut n12 = [0u8; 12];
          n12[4..].copy_from_slice(&iv[16..24]);
          let nonce = Nonce::assume_unique_for_key(n12);
          if d {
            ring_open(&key, nonce, op.aad, input, out)
          } else {
            ring_seal(&key, nonce, op.aad, input, out, 16)
          }
        } else {
          let nonce = Nonce::try_assume_unique_for_key(iv).map_err(|_| internal("nonce"))?;
          if d {
            ring_open(ring, nonce, op.aad, input, out)
          } else {
            ring_seal(ring, nonce, op.aad, input, out, 16)
          }
        }
      }
      _ => Err(internal("engine built for another mode")),
    }
  }
}

// ------------------------------------------------------------------------------------------------
// ECB / CBC with optional PKCS#7 (any block size: AES and DES)
// ------------------------------------------------------------------------------------------------

fn padded<C>(
  c: &C,
  cbc_iv: Option<&[u8]>,
  decrypt: bool,
  padding: bool,
  mode: Mode,
  input: &[u8],
  out: &mut [u8],
) -> CryptoResult<usize>
where
  C: BlockCipherEncrypt + BlockCipherDecrypt,
{
  let iv = match cbc_iv {
    Some(iv) => Some(Array::<u8, C::BlockSize>::try_from(iv).map_err(|_| internal("IV size"))?),
    None => None,
  };
  match (decrypt, iv) {
    (false, None) => seal_blocks(input, out, padding, mode, |b| c.encrypt_blocks_inout(b)),
    (false, Some(iv)) => {
      let mut m = cbc::Encryptor::<&C>::inner_iv_init(c, &iv);
      seal_blocks(input, out, padding, mode, |b| m.encrypt_blocks_inout(b))
    }
    (true, None) => open_blocks(input, out, padding, mode, |b| c.decrypt_blocks_inout(b)),
    (true, Some(iv)) => {
      let mut m = cbc::Decryptor::<&C>::inner_iv_init(c, &iv);
      open_blocks(input, out, padding, mode, |b| m.decrypt_blocks_inout(b))
    }
  }
}

fn not_multiple(mode: Mode, bs: usize, n: usize) -> CryptoError {
  CryptoError::new(
    Code::OutOfRange,
    format!(
      "Invalid data length for {} with padding 'none': it must be a multiple of {bs} bytes. Received {n}",
      mode.label()
    ),
  )
}

/// Encrypts the whole blocks of `input` with `f`, then the PKCS#7-padded last block.
fn seal_blocks<B: ArraySize>(
  input: &[u8],
  out: &mut [u8],
  padding: bool,
  mode: Mode,
  mut f: impl FnMut(InOutBuf<'_, '_, Array<u8, B>>),
) -> CryptoResult<usize> {
  let bs = B::USIZE;
  let n = input.len();
  let full = n / bs * bs;
  if !padding && full != n {
    return Err(not_multiple(mode, bs, n));
  }
  let total = if padding { full + bs } else { full };
  let out = out
    .get_mut(..total)
    .ok_or_else(|| internal("output size"))?;
  let (body, last) = out.split_at_mut(full);
  let buf = InOutBuf::new(&input[..full], body).map_err(|_| internal("lengths"))?;
  f(buf.into_chunks::<B>().0);
  if padding {
    let rem = &input[full..];
    let pad = (bs - rem.len()) as u8;
    last.fill(pad);
    last[..rem.len()].copy_from_slice(rem);
    f(InOutBuf::from(last).into_chunks::<B>().0);
  }
  Ok(total)
}

/// Decrypts whole blocks with `f`, then checks and strips PKCS#7 padding in constant time.
fn open_blocks<B: ArraySize>(
  input: &[u8],
  out: &mut [u8],
  padding: bool,
  mode: Mode,
  mut f: impl FnMut(InOutBuf<'_, '_, Array<u8, B>>),
) -> CryptoResult<usize> {
  let bs = B::USIZE;
  let n = input.len();
  if !n.is_multiple_of(bs) || (padding && n == 0) {
    return Err(if padding {
      decrypt_failed()
    } else {
      not_multiple(mode, bs, n)
    });
  }
  let out = out.get_mut(..n).ok_or_else(|| internal("output size"))?;
  let buf = InOutBuf::new(input, &mut *out).map_err(|_| internal("lengths"))?;
  f(buf.into_chunks::<B>().0);
  if !padding {
    return Ok(n);
  }
  let last = &out[n - bs..];
  let p = u32::from(last[bs - 1]);
  // bad = p == 0 || p > bs || any of the last p bytes != p, without branching on secret data.
  let mut bad = (p.wrapping_sub(1) >> 31) | ((bs as u32).wrapping_sub(p) >> 31);
  for (i, &b) in last.iter().enumerate() {
    let from_end = (bs - i) as u32;
    let in_pad = 1 ^ (p.wrapping_sub(from_end) >> 31);
    let diff = u32::from(b) ^ p;
    bad |= in_pad & ((diff | diff.wrapping_neg()) >> 31);
  }
  if std::hint::black_box(bad) != 0 {
    out.fill(0);
    return Err(decrypt_failed());
  }
  Ok(n - p as usize)
}

// ------------------------------------------------------------------------------------------------
// CTR / CFB-128 / CFB-8 / OFB (AES only)
// ------------------------------------------------------------------------------------------------

fn stream<C>(
  c: &C,
  mode: Mode,
  decrypt: bool,
  iv: &[u8],
  input: &[u8],
  out: &mut [u8],
) -> CryptoResult<usize>
where
  C: BlockCipherEncrypt<BlockSize = U16>,
{
  let n = input.len();
  let out = out.get_mut(..n).ok_or_else(|| internal("output size"))?;
  let iv = Array::<u8, U16>::try_from(iv).map_err(|_| internal("IV size"))?;
  let lengths = |_| internal("lengths");
  match (mode, decrypt) {
    (Mode::Ctr, _) => ctr::Ctr128BE::<&C>::from_core(ctr::CtrCore::inner_iv_init(c, &iv))
      .try_apply_keystream_inout(InOutBuf::new(input, out).map_err(lengths)?)
      .map_err(|_| internal("CTR keystream"))?,
    (Mode::Ofb, _) => ofb::Ofb::<&C>::from_core(ofb::OfbCore::inner_iv_init(c, &iv))
      .try_apply_keystream_inout(InOutBuf::new(input, out).map_err(lengths)?)
      .map_err(|_| internal("OFB keystream"))?,
    (Mode::Cfb, false) => cfb_mode::Encryptor::<&C>::inner_iv_init(c, &iv)
      .encrypt_b2b(input, out)
      .map_err(lengths)?,
    (Mode::Cfb, true) => cfb_mode::Decryptor::<&C>::inner_iv_init(c, &iv)
      .decrypt_b2b(input, out)
      .map_err(lengths)?,
    (Mode::Cfb8, false) => cfb8::Encryptor::<&C>::inner_iv_init(c, &iv)
      .encrypt_b2b(input, out)
      .map_err(lengths)?,
    (Mode::Cfb8, true) => cfb8::Decryptor::<&C>::inner_iv_init(c, &iv)
      .decrypt_b2b(input, out)
      .map_err(lengths)?,
    _ => return Err(internal("not a stream mode")),
  }
  Ok(n)
}

// ------------------------------------------------------------------------------------------------
// AEADs
// ------------------------------------------------------------------------------------------------

fn ring_seal(
  key: &LessSafeKey,
  nonce: Nonce,
  aad: &[u8],
  input: &[u8],
  out: &mut [u8],
  tag_len: usize,
) -> CryptoResult<usize> {
  let n = input.len();
  let out = out
    .get_mut(..n + tag_len)
    .ok_or_else(|| internal("output size"))?;
  let (body, tag_out) = out.split_at_mut(n);
  body.copy_from_slice(input);
  let tag = key
    .seal_in_place_separate_tag(nonce, Aad::from(aad), body)
    .map_err(|_| too_long())?;
  tag_out.copy_from_slice(
    tag
      .as_ref()
      .get(..tag_len)
      .ok_or_else(|| internal("tag size"))?,
  );
  Ok(n + tag_len)
}

fn ring_open(
  key: &LessSafeKey,
  nonce: Nonce,
  aad: &[u8],
  input: &[u8],
  out: &mut [u8],
) -> CryptoResult<usize> {
  let n = input.len().checked_sub(16).ok_or_else(decrypt_failed)?;
  let out = out.get_mut(..n).ok_or_else(|| internal("output size"))?;
  out.copy_from_slice(&input[..n]);
  let tag = ring::aead::Tag::try_from(&input[n..]).map_err(|_| decrypt_failed())?;
  match key.open_in_place_separate_tag(nonce, Aad::from(aad), tag, out, 0..) {
    Ok(_) => Ok(n),
    Err(_) => {
      out.fill(0);
      Err(decrypt_failed())
    }
  }
}

fn too_long() -> CryptoError {
  CryptoError::new(
    Code::OutOfRange,
    "The data or additional data is too long for this mode",
  )
}

/// Seal or open with any RustCrypto AEAD (`ciphertext ‖ tag`).
fn aead_run<A: AeadInOut>(
  a: &A,
  decrypt: bool,
  iv: &[u8],
  aad: &[u8],
  input: &[u8],
  out: &mut [u8],
  mode: Mode,
) -> CryptoResult<usize> {
  let t = <A as AeadCore>::TagSize::USIZE;
  let nonce = aead::Nonce::<A>::try_from(iv)
    .map_err(|_| length_error("IV (nonce)", mode, list(&[iv.len()]), iv.len()))?;
  if !decrypt {
    let n = input.len();
    let out = out
      .get_mut(..n + t)
      .ok_or_else(|| internal("output size"))?;
    let (body, tag_out) = out.split_at_mut(n);
    let buf = InOutBuf::new(input, body).map_err(|_| internal("lengths"))?;
    let tag = a
      .encrypt_inout_detached(&nonce, aad, buf)
      .map_err(|_| too_long())?;
    tag_out.copy_from_slice(&tag);
    Ok(n + t)
  } else {
    let n = input.len().checked_sub(t).ok_or_else(decrypt_failed)?;
    let (ct, tag) = input.split_at(n);
    let tag = aead::Tag::<A>::try_from(tag).map_err(|_| decrypt_failed())?;
    let out = out.get_mut(..n).ok_or_else(|| internal("output size"))?;
    let buf = InOutBuf::new(ct, &mut *out).map_err(|_| internal("lengths"))?;
    match a.decrypt_inout_detached(&nonce, aad, buf, &tag) {
      Ok(()) => Ok(n),
      Err(_) => {
        out.fill(0);
        Err(decrypt_failed())
      }
    }
  }
}

/// CCM: the crate fixes tag and nonce length as types, so pick them here (tags 12/14/16 ×
/// nonces 7..13), over any AES key size.
fn ccm_dispatch<C>(c: &C, op: &Op, iv: &[u8], input: &[u8], out: &mut [u8]) -> CryptoResult<usize>
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
  aead_run(&a, op.decrypt, iv, op.aad, input, out, op.mode)
}

/// AES-SIV (RFC 5297) with headers `[aad, nonce]` (`[aad]` when the nonce is empty); the output
/// is `V ‖ C` as the RFC defines it.
fn siv_run<C, Mac>(
  s: &mut aes_siv::siv::Siv<C, Mac>,
  decrypt: bool,
  iv: &[u8],
  aad: &[u8],
  input: &[u8],
  out: &mut [u8],
) -> CryptoResult<usize>
where
  C: cipher::BlockSizeUser<BlockSize = U16> + BlockCipherEncrypt + KeyInit + cipher::KeySizeUser,
  Mac: digest::Mac<OutputSize = U16> + digest::FixedOutputReset + KeyInit,
{
  let one = [aad];
  let two = [aad, iv];
  let headers: &[&[u8]] = if iv.is_empty() { &one } else { &two };
  if !decrypt {
    let n = input.len();
    let out = out
      .get_mut(..n + 16)
      .ok_or_else(|| internal("output size"))?;
    let (v, body) = out.split_at_mut(16);
    let buf = InOutBuf::new(input, body).map_err(|_| internal("lengths"))?;
    let tag = s
      .encrypt_inout_detached(headers, buf)
      .map_err(|_| too_long())?;
    v.copy_from_slice(&tag);
    Ok(n + 16)
  } else {
    let n = input.len().checked_sub(16).ok_or_else(decrypt_failed)?;
    let (v, ct) = input.split_at(16);
    let tag = aes_siv::Tag::try_from(v).map_err(|_| decrypt_failed())?;
    let out = out.get_mut(..n).ok_or_else(|| internal("output size"))?;
    let buf = InOutBuf::new(ct, &mut *out).map_err(|_| internal("lengths"))?;
    match s.decrypt_inout_detached(headers, buf, &tag) {
      Ok(()) => Ok(n),
      Err(_) => {
        out.fill(0);
        Err(decrypt_failed())
      }
    }
  }
}

#[cfg(test)]
mod tests;
