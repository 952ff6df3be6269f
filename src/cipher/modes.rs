//! THE mode table ([`MODES`]: names, key/IV/tag lengths and padding for every mode, exported to
//! the JS layer through `cipherModes()`), the checks it drives, the request ([`Op`]) and the
//! family's errors. The ground floor of `cipher/`: it imports nothing from the rest of it.

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
  /// Every family, by id (`KeyFamily as u32`, the `family` of `cipherKey`).
  pub const ALL: [KeyFamily; 3] = [KeyFamily::Aes, KeyFamily::ChaCha, KeyFamily::Des];

  pub const fn name(self) -> &'static str {
    match self {
      KeyFamily::Aes => "aes",
      KeyFamily::ChaCha => "chacha20",
      KeyFamily::Des => "des",
    }
  }
}

const _: () = {
  let mut i = 0;
  while i < KeyFamily::ALL.len() {
    assert!(
      KeyFamily::ALL[i] as usize == i,
      "KeyFamily::ALL: a family is not at its id"
    );
    i += 1;
  }
};

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
  const fn is_aead(&self) -> bool {
    !self.tags.is_empty()
  }
}

const AES_KEYS: &[usize] = &[16, 24, 32];
const TAG_16: &[usize] = &[16];
/// Largest IV (nonce) accepted by the modes that take any length (GCM, SIV).
const MAX_IV: usize = 1 << 20;

/// THE mode table. Index = `Mode as usize` (checked below, at compile time).
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

const _: () = {
  let mut i = 0;
  while i < MODES.len() {
    assert!(
      MODES[i].mode as usize == i,
      "MODES: a row is not at its mode's index"
    );
    i += 1;
  }
  assert!(
    MODES.len() == Mode::DesCbc as usize + 1,
    "MODES: a mode has no row"
  );
};

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

fn check_tag(mode: Mode, len: usize) -> CryptoResult<()> {
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

  fn pads(&self) -> bool {
    self.padding && self.mode.info().pad_block > 0
  }

  /// The exact output length of encrypting `n` bytes; an upper bound when decrypting. THE rule:
  /// `lib/cipher.js` sizes its buffers by the same one over the `cipherModes()` row, and
  /// `__test__/native-contract.spec.js` holds the two equal through `cipherOutputLength`.
  pub fn output_len(&self, n: usize) -> usize {
    let info = self.mode.info();
    let prefix = if self.iv.is_none() {
      info.iv_default
    } else {
      0
    };
    let tag = if info.is_aead() { self.tag_len } else { 0 };
    if self.decrypt {
      // At most the input less the prepended IV and the tag (a padded plaintext is shorter
      // still, but whole blocks are decrypted into place before the padding is checked).
      return n.saturating_sub(prefix + tag);
    }
    let body = if self.pads() {
      (n / info.pad_block + 1) * info.pad_block
    } else {
      n
    };
    prefix + body + tag
  }
}
