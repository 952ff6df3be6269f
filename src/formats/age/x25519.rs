//! The X25519 recipient type (age-encryption.org/v1, "The X25519 recipient type"): the file key
//! wrapped to a Curve25519 public key, and the Bech32 key strings age writes.
//!
//! ```text
//! -> X25519 <base64 ephemeral share>          (32 bytes)
//! <base64 ChaCha20-Poly1305(wrap key, nonce 0, file key)>    (32 bytes)
//! shared   = X25519(ephemeral secret, recipient) = X25519(identity, share)
//! wrap key = HKDF-SHA-256(shared, salt = share ‖ recipient, "age-encryption.org/v1/X25519")
//! recipient  Bech32("age", public key)                        age1…
//! identity   upper(Bech32("age-secret-key-", private key))     AGE-SECRET-KEY-1…
//! ```
//!
//! The identity refuses (a malformed header): an X25519 stanza without exactly one argument, a
//! share that is not 32 bytes of canonical base64, a body that is not 32 bytes, and a share
//! whose shared secret is all zeros (a low-order point).

use zeroize::Zeroizing;

use super::bech32;
use super::header::{decode_b64, malformed, Stanza};
use super::{hkdf, open_file_key, seal_file_key, FileKey, Identity, Recipient};
use crate::error::{CryptoError, CryptoResult};
use crate::kdf::PHC_B64;
use crate::pk::curve25519::{x25519, x25519_public, x_private};
use crate::task::Cancel;

const TYPE: &str = "X25519";
const LABEL: &[u8] = b"age-encryption.org/v1/X25519";
const RECIPIENT_HRP: &str = "age";
const IDENTITY_HRP: &str = "AGE-SECRET-KEY-";

type Key = [u8; 32];

/// The 32-byte key in a Bech32 string with this exact HRP (case included).
fn parse_key(s: &str, hrp: &str, name: &str, what: &str) -> CryptoResult<Zeroizing<Key>> {
  let bad = |why: &str| CryptoError::invalid_value(name, what, why.to_string());
  let (got, data) = bech32::decode(s.trim_end()).map_err(|e| {
    bad(match e {
      bech32::Error::Checksum => "a string whose Bech32 checksum is wrong",
      bech32::Error::MixedCase => "a string of mixed case",
      _ => "a string that is not Bech32",
    })
  })?;
  let data = Zeroizing::new(data);
  if got != hrp {
    return Err(bad("a Bech32 string of another kind (prefix)"));
  }
  let mut key = Zeroizing::new([0u8; 32]);
  if data.len() != 32 {
    return Err(bad("a Bech32 key that is not 32 bytes"));
  }
  key.copy_from_slice(&data);
  Ok(key)
}

fn wrap_key(shared: &[u8], share: &[u8], recipient: &Key) -> CryptoResult<Zeroizing<Key>> {
  let mut salt = [0u8; 64];
  salt[..32].copy_from_slice(share);
  salt[32..].copy_from_slice(recipient);
  hkdf(shared, &salt, LABEL)
}

/// The `age1…` string of a public key.
fn recipient_string(public: &Key) -> String {
  bech32::encode(RECIPIENT_HRP, public)
}

/// The `AGE-SECRET-KEY-1…` string of a private key.
fn identity_string(private: &Key) -> Zeroizing<String> {
  let s = Zeroizing::new(bech32::encode(&IDENTITY_HRP.to_ascii_lowercase(), private));
  Zeroizing::new(s.to_ascii_uppercase())
}

/// A new identity string from the CSPRNG.
pub fn generate() -> CryptoResult<Zeroizing<String>> {
  let mut k = Zeroizing::new([0u8; 32]);
  crate::random::fill(&mut k[..])?;
  Ok(identity_string(&k))
}

fn public_of(private: &Key) -> CryptoResult<Key> {
  let p = x25519_public(private)?;
  p.try_into().map_err(|_| CryptoError::internal())
}

/// Encrypts to one or more X25519 public keys: one stanza each.
pub struct X25519Recipient {
  keys: Vec<Key>,
}

impl X25519Recipient {
  /// From `age1…` strings; `name` names the option in errors (`options.recipients`).
  pub fn parse<S: AsRef<str>>(strings: &[S], name: &str) -> CryptoResult<Self> {
    let keys = strings
      .iter()
      .enumerate()
      .map(|(i, s)| {
        parse_key(
          s.as_ref(),
          RECIPIENT_HRP,
          &format!("{name}[{i}]"),
          "an age X25519 recipient (age1…)",
        )
        .map(|k| *k)
      })
      .collect::<CryptoResult<Vec<Key>>>()?;
    Ok(X25519Recipient { keys })
  }
}

impl Recipient for X25519Recipient {
  fn wrap(&self, file_key: &FileKey, _: &Cancel) -> CryptoResult<Vec<Stanza>> {
    self
      .keys
      .iter()
      .map(|public| {
        let mut eph = Zeroizing::new([0u8; 32]);
        crate::random::fill(&mut eph[..])?;
        let share = public_of(&eph)?;
        let shared = x25519(&x_private(&eph[..])?, public)?;
        let key = wrap_key(&shared, &share, public)?;
        Ok(Stanza {
          kind: TYPE.to_string(),
          args: vec![PHC_B64.encode(&share)],
          body: seal_file_key(&key, file_key)?,
        })
      })
      .collect()
  }
}

/// Decrypts with one or more X25519 private keys.
pub struct X25519Identity {
  keys: Vec<(Zeroizing<Key>, Key)>,
}

impl X25519Identity {
  /// From `AGE-SECRET-KEY-1…` strings; `name` names the option in errors.
  pub fn parse<S: AsRef<str>>(strings: &[S], name: &str) -> CryptoResult<Self> {
    let keys = strings
      .iter()
      .enumerate()
      .map(|(i, s)| {
        let k = parse_key(
          s.as_ref(),
          IDENTITY_HRP,
          &format!("{name}[{i}]"),
          "an age X25519 identity (AGE-SECRET-KEY-1…)",
        )?;
        let public = public_of(&k)?;
        Ok((k, public))
      })
      .collect::<CryptoResult<Vec<_>>>()?;
    Ok(X25519Identity { keys })
  }

  /// The `age1…` strings of its keys.
  pub fn recipients(&self) -> Vec<String> {
    self.keys.iter().map(|(_, p)| recipient_string(p)).collect()
  }

  /// The ephemeral share of an X25519 stanza, checked.
  fn read(s: &Stanza) -> CryptoResult<Key> {
    let [share] = s.args.as_slice() else {
      return Err(malformed(
        "an X25519 stanza without exactly one argument (the ephemeral share)",
      ));
    };
    let share = decode_b64(share.as_bytes())
      .and_then(|v| Key::try_from(v).ok())
      .ok_or_else(|| malformed("an X25519 share that is not 32 bytes of canonical base64"))?;
    if s.body.len() != 32 {
      return Err(malformed("an X25519 stanza body that is not 32 bytes"));
    }
    Ok(share)
  }
}

impl Identity for X25519Identity {
  fn stanza_type(&self) -> &'static str {
    TYPE
  }

  fn describe(&self) -> &'static str {
    "an X25519 identity"
  }

  fn unwrap(&self, stanzas: &[Stanza], _: &Cancel) -> CryptoResult<Option<FileKey>> {
    for s in stanzas.iter().filter(|s| s.kind == TYPE) {
      let share = Self::read(s)?;
      for (private, public) in &self.keys {
        let shared = x25519(&x_private(&private[..])?, &share)
          .map_err(|_| malformed("an X25519 share of low order (an all-zero shared secret)"))?;
        let key = wrap_key(&shared, &share, public)?;
        if let Some(fk) = open_file_key(&key, &s.body) {
          return Ok(Some(fk));
        }
      }
    }
    Ok(None)
  }
}
