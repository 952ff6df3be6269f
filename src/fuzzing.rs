//! The parsers of untrusted input, under one path for the fuzz targets in `fuzz/`
//! (`docs/fuzzing.md`). Compiled only with the `fuzzing` feature, which no build
//! that ships turns on, and hidden from the docs: nothing here is API. Each module re-exports a
//! parser and the writer its round trip needs, so a target is a thin call and keeps compiling as
//! the parser changes inside.

pub use crate::error::{Code, CryptoError, CryptoResult};
pub use crate::task::Cancel;

/// Argon2 PHC strings (`$argon2id$v=19$m=..,t=..,p=..$salt$hash`).
pub mod argon2 {
  pub use crate::kdf::argon2::{parse, parse_bounded, Argon2Limits, Argon2Params};
}

/// bcrypt hash strings (`$2b$cc$<salt><hash>`).
pub mod bcrypt {
  pub use crate::kdf::bcrypt::{format, parse, Parsed, MAX_COST, MIN_COST};
}

/// The unpadded base64 of PHC strings and age headers, and bcrypt's.
pub mod base64 {
  pub use crate::kdf::{B64Error, B64, BCRYPT_B64, PHC_B64};
}

/// age files: the header, the ASCII armor, Bech32 key strings and the two identities.
pub mod age {
  pub use crate::formats::age::armor::{
    decode as armor_decode, encode as armor_encode, is_armored,
  };
  pub use crate::formats::age::bech32::{decode as bech32_decode, encode as bech32_encode};
  pub use crate::formats::age::header::{
    parse as parse_header, write as write_header, write_mac, Parsed, Stanza, MAX_ARGS, MAX_HEADER,
    MAX_STANZAS,
  };
  pub use crate::formats::age::scrypt::{ScryptIdentity, ScryptRecipient};
  pub use crate::formats::age::x25519::{X25519Identity, X25519Recipient};
  pub use crate::formats::age::{decrypt, encrypt, Identity, Recipient};
}

/// The streaming AEAD format (header and segments): a [`stream::Spec`] begun through
/// [`stream::Format::begin`], its body run through [`stream::Body`].
pub mod stream {
  pub use crate::formats::aead_stream::{Cost, Spec, StreamSecret, ALGORITHMS, MIN_SEGMENT};
  pub use crate::formats::{Begun, Body, Format};
  use crate::kdf::argon2::Argon2Limits;
  use zeroize::Zeroizing;

  /// A request for algorithm `ALGORITHMS[alg]` with a key (32 bytes) or a passphrase, no aad and
  /// 1 KiB segments, reading version 1 headers too. Argon2id costs at most 64 KiB and two passes, for sealing and in the headers
  /// it opens (a larger cost in a header is refused before any work). A passphrase opens key
  /// sources 1 and 2 (a derived key's streams).
  pub fn spec(alg: usize, decrypt: bool, secret: &[u8], passphrase: bool) -> Spec {
    let secret = Zeroizing::new(secret.to_vec());
    Spec {
      alg: &ALGORITHMS[alg % ALGORITHMS.len()],
      decrypt,
      secret: if passphrase {
        StreamSecret::Passphrase(secret)
      } else {
        StreamSecret::Key(secret)
      },
      aad: Vec::new(),
      segment_size: MIN_SEGMENT,
      cost: Cost { m: 8, t: 1, p: 1 },
      limits: Argon2Limits {
        max_memory_cost: Some(64),
        max_time_cost: Some(2),
        max_parallelism: Some(2),
      },
      // Both versions of the header are read, so both parsers are fuzzed.
      allow_v1: true,
      lead: Vec::new(),
    }
  }
}

/// ECDSA signatures in DER (ECDSA-Sig-Value).
pub mod ecdsa {
  pub use crate::pk::{der_signature, parse_der_signature};
}
