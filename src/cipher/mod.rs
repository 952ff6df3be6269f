//! Symmetric encryption: AES in every common mode, ChaCha20-Poly1305 / XChaCha20-Poly1305 and
//! legacy DES / 3DES.
//!
//! `modes.rs` holds THE mode table ([`modes::MODES`]): names, key/IV/tag lengths and padding for
//! every mode, exported to the JS layer (`cipherModes()`), which builds the whole API from it.
//! The one entry point, [`dispatch::run`] (`dispatch.rs`), dispatches by mode:
//! - [`keys::ModeKey`] (`keys.rs`) holds a key schedule built for one mode (the kept-key objects
//!   cache one per mode); `with_aes!` / `with_des!` pick the concrete key size once;
//! - the block-cipher modes (`block_modes.rs`) are generic over the cipher, so AES-128/192/256
//!   and DES / 3DES share every line of mode code;
//! - every AEAD goes through one framing (`aead.rs`): output `ciphertext ‖ tag`, except SIV,
//!   which keeps RFC 5297's `V ‖ C`.
//!
//! Backends (measured, docs/backends.md "Ciphers"): `ring` for AES-GCM with a 96-bit IV and for
//! ChaCha20-Poly1305 (XChaCha20 = HChaCha20 subkey + ring); `aes` 0.9 with own CBC-encrypt, CTR
//! and OFB loops (`block_modes.rs`), `cbc` (decrypt), `cfb-mode` and `cfb8` for the block modes;
//! `gcm.rs` (aes 0.9, the own CTR + `ghash`) for GCM with other IV lengths,
//! AES-192 and truncated tags; `aes-gcm-siv`, `ccm`, `aes-siv`, `des`.
//!
//! No user input can panic this code: lengths are checked before any slice is taken, and on any
//! authentication or padding failure the output buffer is zeroed before the (single, uniform)
//! error is returned.
//!
//! The files: `modes.rs` (the mode table, its checks, the request `Op` and the family's errors),
//! `keys.rs` (the key schedule of each mode, `ModeKey`), `block_modes.rs` (the generic block
//! modes: ECB/CBC with padding, CTR, CFB, CFB-8, OFB), `aead.rs` (the one AEAD framing and the
//! AEADs behind it) and `gcm.rs` (GCM for any IV), `dispatch.rs` ([`dispatch::run`], the IV
//! handling and the dispatch by mode), and the entry points `api.rs` and `batch.rs` (many
//! messages per call). This family imports no other; the container formats built on it (STREAM,
//! the AEAD stream format, age, crypto-js) are `src/formats/`. Their order, floor by floor, is
//! `src/layers.rs`'s.

pub(crate) mod aead;
pub mod api;
pub mod batch;
mod block_modes;
pub(crate) mod chacha;
pub mod dispatch;
mod gcm;
pub mod keys;
pub mod modes;

#[cfg(test)]
pub(crate) mod tests;
