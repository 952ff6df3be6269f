//! Hashing: every hash algorithm, HMAC over each, and their JS entry points (the files moved
//! here unchanged; the next commit orders them floor by floor).

pub mod api;
pub mod blake2;
pub mod blake3_tree;
pub mod file;
pub mod list;
pub mod md;
pub mod rmd160;
