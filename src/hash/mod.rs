//! Hashing: every hash algorithm, HMAC over each, and their JS entry points.
//!
//! The files:
//! - `core.rs`: the [`core::HashCore`] trait every backend is driven through, the generic HMAC
//!   and one-shot over it, and the options a parameterised hash takes;
//! - the implementations: `keccak.rs` (the SHA-3 family's sponge), `md.rs` (one Merkle–Damgård
//!   layer over any block function, MD4 and MD5 on it, and the SHA block functions PBKDF2 and
//!   batches use), `rmd160.rs` (RIPEMD-160 on that layer), `blake2.rs` (scalar BLAKE2 and the
//!   choice between it and the SIMD crates), and `backends.rs` (the other crates behind
//!   `HashCore`: RustCrypto and BLAKE3);
//! - `list.rs`: the one list of algorithms (`hash_algorithms!`: [`list::Alg`], [`list::State`]);
//! - the entry points: `api.rs` (one-shot, incremental, async), `batch.rs` (many inputs per
//!   call), `blake3_tree.rs` (BLAKE3 over a file on several cores) and `file.rs` (files).
//!
//! Which file may import which, floor by floor, is `src/layers.rs`'s list (and its test).

pub mod api;
pub mod backends;
pub mod batch;
pub mod blake2;
mod blake3_tree;
pub mod core;
mod file;
pub mod keccak;
pub mod list;
pub mod md;
pub mod rmd160;
