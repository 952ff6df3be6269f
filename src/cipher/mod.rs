//! Symmetric encryption: AES in every common mode, ChaCha20-Poly1305 / XChaCha20-Poly1305 and
//! legacy DES / 3DES.
//!
//! [`MODES`] is THE mode table: names, key/IV/tag lengths and padding for every mode, exported to
//! the JS layer (`cipherModes()`), which builds the whole API from it. This file holds the table,
//! the checks it drives, and the one entry point, [`run`], which dispatches by mode:
//! - [`ModeKey`] (`keys.rs`) holds a key schedule built for one mode (the kept-key objects cache
//!   one per mode); [`with_aes!`] / [`with_des!`] pick the concrete key size once;
//! - the block-cipher modes (`block_modes.rs`) are generic over the cipher, so AES-128/192/256
//!   and DES / 3DES share every line of mode code;
//! - every AEAD goes through one framing (`aead.rs`): output `ciphertext ‖ tag`, except SIV,
//!   which keeps RFC 5297's `V ‖ C`.
//!
//! Backends (measured, docs/backends.md "Ciphers"): `ring` for AES-GCM with a 96-bit IV and for
//! ChaCha20-Poly1305 (XChaCha20 = HChaCha20 subkey + ring); `aes` 0.9 with `cbc`/`ctr`/`cfb-mode`/
//! `cfb8`/`ofb` for the block modes; [`gcm`] (aes 0.9 + `ghash`) for GCM with other IV lengths,
//! AES-192 and truncated tags; `aes-gcm-siv`, `ccm`, `aes-siv`, `des`.
//!
//! No user input can panic this code: lengths are checked before any slice is taken, and on any
//! authentication or padding failure the output buffer is zeroed before the (single, uniform)
//! error is returned.

mod aead;
pub mod age;
pub mod api;
pub mod batch;
mod block_modes;
mod gcm;
mod keys;
pub mod openssl;
// The STREAM construction, shared by the streaming AEAD format and age.
pub mod stream;
pub mod stream_api;
pub mod stream_format;

pub use keys::ModeKey;
use keys::{with_aes, with_des, GcmSivKey};

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

/// Which namespace (and key family) a mode belongs to: AES, ChaCha20 or DES keys.
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
pub fn list(v: &[usize]) -> String {
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

pub fn length_error(what: &str, mode: Mode, accepted: String, got: usize) -> CryptoError {
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

pub fn internal(what: &str) -> CryptoError {
  CryptoError::new(Code::Operation, format!("internal error: {what}"))
}

/// Sealing more than the mode can count (a stream counter or a length field overflows).
pub fn too_long() -> CryptoError {
  CryptoError::new(
    Code::OutOfRange,
    "The data or additional data is too long for this mode",
  )
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
// The one entry point, and the dispatch by mode
// ------------------------------------------------------------------------------------------------

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
      let (prefix, body) = out.split_at_mut(n);
      crate::random::fill(prefix)?;
      let mut iv = [0u8; 32];
      let iv = iv.get_mut(..n).ok_or_else(|| internal("IV size"))?;
      iv.copy_from_slice(prefix);
      Ok(key.apply(op, iv, input, body)? + n)
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

#[cfg(test)]
mod tests;
