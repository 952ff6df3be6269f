//! Hashing: every hash algorithm, HMAC over each, and their JS entry points.
//!
//! The files, from the ground floor up; a file imports only files on floors below its own (and
//! the crate's shared pieces: `error`, `arch`, `staging`, `pool`, `random`, `ct`, `js`, `task`,
//! `file_io`, `batch`), never one above (`src/layers.rs` checks it):
//! 0. `core.rs`: the [`core::HashCore`] trait every backend is driven through, the generic
//!    HMAC and one-shot over it, and the options a parameterised hash takes.
//! 1. the implementations: `md.rs` (one Merkle–Damgård layer over any block function, MD4 and
//!    MD5 on it, and the SHA block functions PBKDF2 and batches use), `rmd160.rs` (RIPEMD-160 on
//!    that layer), `blake2.rs` (scalar BLAKE2 and the choice between it and the SIMD crates), and
//!    `backends.rs` (the other crates behind `HashCore`: RustCrypto, `ring`, BLAKE3).
//! 2. `list.rs`: the one list of algorithms (`hash_algorithms!`: [`list::Alg`], [`list::State`]).
//! 3. the entry points: `api.rs` (one-shot, incremental, async), `batch.rs` (many inputs per
//!    call), `blake3_tree.rs` (BLAKE3 over a file on several cores) and `file.rs` (files).

pub mod api;
pub mod backends;
pub mod batch;
pub mod blake2;
pub mod blake3_tree;
pub mod core;
pub mod file;
pub mod keccak;
pub mod list;
pub mod md;
pub mod rmd160;
