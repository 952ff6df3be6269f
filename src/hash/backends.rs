//! The hash backends from other crates, each behind [`HashCore`]: RustCrypto digests and BLAKE3
//! (on every core for large inputs); AWS-LC's and `ring`'s digests only in tests, measured
//! against. The own implementations they compete with are `md.rs` (MD4, MD5, the SHA block
//! functions), `rmd160.rs`, `blake2.rs` and `keccak.rs` (the SHA-3 family's sponge); why each
//! backend was chosen is in `docs/backends.md`.

use digest::{common::BlockSizeUser, Digest};
use zeroize::Zeroizing;

use super::core::HashCore;

/// Any RustCrypto fixed-output `Digest`.
#[derive(Clone, Default)]
pub struct RustCrypto<D>(D);

impl<D: Digest + BlockSizeUser + Clone> HashCore for RustCrypto<D> {
  #[inline]
  fn update(&mut self, data: &[u8]) {
    Digest::update(&mut self.0, data);
  }
  #[inline]
  fn finalize_into(self, out: &mut [u8]) {
    out.copy_from_slice(&self.0.finalize());
  }
  #[inline]
  fn output_len(&self) -> usize {
    <D as Digest>::output_size()
  }
  #[inline]
  fn block_len(&self) -> usize {
    <D as BlockSizeUser>::block_size()
  }
}

// The digest contexts of `ring` and AWS-LC, now only measured against (`backend_speed` in
// `src/benches.rs`): every hash runs on its own or a RustCrypto backend (`docs/backends.md`).
#[cfg(test)]
pub(crate) mod contexts {
  use super::HashCore;

  /// A `ring`-shaped digest context: `ring::digest::Context` and `aws_lc_rs::digest::Context` have
  /// the same API, so one adapter ([`Ctx`]) serves both.
  pub trait DigestContext: Clone {
    type Algorithm: 'static;
    fn new(alg: &'static Self::Algorithm) -> Self;
    fn update(&mut self, data: &[u8]);
    fn finish_into(self, out: &mut [u8]);
    fn output_len(&self) -> usize;
    fn block_len(&self) -> usize;
  }

  macro_rules! digest_context {
    ($($krate:ident)*) => {$(
      impl DigestContext for $krate::digest::Context {
        type Algorithm = $krate::digest::Algorithm;
        #[inline]
        fn new(alg: &'static Self::Algorithm) -> Self {
          $krate::digest::Context::new(alg)
        }
        #[inline]
        fn update(&mut self, data: &[u8]) {
          $krate::digest::Context::update(self, data);
        }
        #[inline]
        fn finish_into(self, out: &mut [u8]) {
          out.copy_from_slice(self.finish().as_ref());
        }
        fn output_len(&self) -> usize {
          self.algorithm().output_len()
        }
        fn block_len(&self) -> usize {
          self.algorithm().block_len()
        }
      }
    )*};
  }
  digest_context!(ring aws_lc_rs);

  /// A digest of `ring` or AWS-LC (`aws-lc-rs`), behind [`HashCore`]. Both pick their assembly
  /// at run time from CPUID (AVX on Intel, scalar elsewhere; SHA extensions where present).
  #[derive(Clone)]
  pub struct Ctx<C>(C);

  impl<C: DigestContext> Ctx<C> {
    pub fn new(alg: &'static C::Algorithm) -> Self {
      Ctx(C::new(alg))
    }
  }

  /// `ring`'s digests (the SHA-512 family moved to the own block function, `md.rs`).
  pub type Ring = Ctx<ring::digest::Context>;
  /// AWS-LC's digests (SHA-3 moved to the own sponge over AWS-LC's permutation, `keccak.rs`).
  pub type AwsLc = Ctx<aws_lc_rs::digest::Context>;

  impl<C: DigestContext> HashCore for Ctx<C> {
    #[inline]
    fn update(&mut self, data: &[u8]) {
      self.0.update(data);
    }
    #[inline]
    fn finalize_into(self, out: &mut [u8]) {
      self.0.finish_into(out);
    }
    fn output_len(&self) -> usize {
      self.0.output_len()
    }
    fn block_len(&self) -> usize {
      self.0.block_len()
    }
  }
}

/// BLAKE3 (any output length). Inputs from 1 MiB up are hashed on the rayon pool, on every core.
/// So are streams: once a hasher has taken 1 MiB in smaller pieces (a stream's 64 KiB chunks), it
/// gathers further pieces into 1 MiB runs and hashes each run on the pool; hashing them one by
/// one as they come would use one core. (The WebAssembly build hashes on the calling thread:
/// [`crate::pool::OWN_THREADS`].)
#[derive(Clone)]
pub struct Blake3 {
  hasher: Box<blake3::Hasher>,
  output_len: usize,
  /// Pieces gathered for the next parallel run (empty until the hasher has seen 1 MiB).
  run: Zeroizing<Vec<u8>>,
}

impl Blake3 {
  pub fn new(hasher: blake3::Hasher, output_len: usize) -> Self {
    Blake3 {
      hasher: Box::new(hasher),
      output_len,
      run: Zeroizing::new(Vec::new()),
    }
  }

  fn flush(&mut self) {
    if !self.run.is_empty() {
      self.hasher.update_rayon(&self.run);
      self.run.clear();
    }
  }
}

/// The input size from which hashing on every core pays (the blake3 crate says 128 KiB; 1 MiB
/// measured better here, where the pool's start-up is paid per call).
const BLAKE3_RAYON_MIN: usize = 1 << 20;

impl HashCore for Blake3 {
  #[inline]
  fn update(&mut self, data: &[u8]) {
    if !crate::pool::OWN_THREADS {
      // No rayon pool where the crate starts no threads of its own.
      self.hasher.update(data);
    } else if data.len() >= BLAKE3_RAYON_MIN {
      self.flush();
      self.hasher.update_rayon(data);
    } else if self.hasher.count() < BLAKE3_RAYON_MIN as u64 {
      self.hasher.update(data);
    } else {
      // Filled to exactly its capacity, never beyond: a reallocation would leave a copy unwiped.
      if self.run.capacity() == 0 {
        self.run.reserve_exact(BLAKE3_RAYON_MIN);
      }
      let mut data = data;
      while !data.is_empty() {
        let take = (BLAKE3_RAYON_MIN - self.run.len()).min(data.len());
        self.run.extend_from_slice(&data[..take]);
        data = &data[take..];
        if self.run.len() == BLAKE3_RAYON_MIN {
          self.flush();
        }
      }
    }
  }
  #[inline]
  fn finalize_into(mut self, out: &mut [u8]) {
    self.flush();
    self.hasher.finalize_xof().fill(out);
  }
  fn output_len(&self) -> usize {
    self.output_len
  }
  fn block_len(&self) -> usize {
    0
  }
}
