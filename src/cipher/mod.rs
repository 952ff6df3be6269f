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
//! The files, from the ground floor up; a file imports only files listed before it (and the
//! crate's shared pieces, `hash/`, `kdf/` and `pk/`), never one after (`src/layers.rs` checks it):
//! 1. `modes.rs`: the mode table, its checks, the request (`Op`) and the family's errors;
//! 2. `keys.rs`: the key schedule of each mode (`ModeKey`);
//! 3. `block_modes.rs`: the generic block modes (ECB/CBC with padding, CTR, CFB, CFB-8, OFB);
//! 4. `aead.rs`: the one AEAD framing and the AEADs behind it, then `gcm.rs` (GCM for any IV);
//! 5. `dispatch.rs`: [`dispatch::run`], the IV handling and the dispatch by mode;
//! 6. `stream.rs` (the STREAM construction, shared by the streaming AEAD format and age),
//!    `openssl.rs` (the crypto-js `Salted__` format), `stream_format.rs` (the streaming AEAD
//!    format), `age/` (the age file format);
//! 7. the entry points: `api.rs`, `batch.rs` (many messages per call), `stream_api.rs`, then
//!    `seal.rs` (sealed messages: the streaming format whole in memory, and derived keys).

mod aead;
pub mod age;
pub mod api;
pub mod batch;
mod block_modes;
pub mod dispatch;
mod gcm;
pub mod keys;
pub mod modes;
pub mod openssl;
pub mod seal;
pub mod stream;
pub mod stream_api;
pub mod stream_format;

#[cfg(test)]
mod tests;
