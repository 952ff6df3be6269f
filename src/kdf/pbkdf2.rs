//! PBKDF2 (RFC 8018) with HMAC over any block hash in `src/hash/list.rs`.
//!
//! One driver, generic over a [`Prf`]. The generic PRF is HMAC through [`State`] (every hash in
//! the list). A hash whose row in the list names a raw block function (`src/hash/md.rs`: SHA-1,
//! SHA-224/256/384/512 through the `sha1`/`sha2` crates, with SHA-NI for SHA-1/256 and AVX2 for
//! SHA-512; our MD4 and RIPEMD-160) gets [`Fast`]: the HMAC pads compressed once and the padding
//! block prebuilt, so an iteration is 2 compressions and nothing else (measured in
//! `docs/backends.md`, "Key derivation"). The driver runs the iterations in slices and checks the
//! cancel flag between slices.

use std::slice;

use napi::bindgen_prelude::Unknown;
use napi::Env;
use napi_derive::napi;
use zeroize::{Zeroize, Zeroizing};

use super::{check_range, hmac_alg, secret, Secret, MAX_KEY_LEN};
use crate::error::{CryptoError, CryptoResult};
use crate::hash::core::{HashCore, Hmac};
use crate::hash::list::{Alg, BlockFnVisitor, State};
use crate::hash::md::{self, Block, BlockFn, Word};
use crate::task::{twins, Cancel, Job, Output};

/// Iterations between two cancellation checks: about 0.2 ms for SHA-256, 1 ms for SHA-512 and
/// 5 ms for Whirlpool, the slowest hash of the list (AMD EPYC, 100,000-iteration runs).
const SLICE: u32 = 2048;

/// The pseudo-random function PBKDF2 iterates.
trait Prf {
  /// Output length in bytes (at most 64).
  fn len(&self) -> usize;
  /// `u = PRF(u); t ^= u`, `n` times.
  fn iterate(&mut self, u: &mut [u8], t: &mut [u8], n: u32);
}

/// HMAC through the generic hash state: works for every block hash in the list.
struct Generic(Hmac<State>);

impl Prf for Generic {
  fn len(&self) -> usize {
    self.0.output_len()
  }
  fn iterate(&mut self, u: &mut [u8], t: &mut [u8], n: u32) {
    for _ in 0..n {
      let mut h = self.0.clone();
      h.update(u);
      h.finalize_into(u);
      t.iter_mut().zip(u.iter()).for_each(|(t, u)| *t ^= u);
    }
  }
}

/// HMAC on the bare block function: the pads are compressed once, and each iteration
/// compresses one prebuilt block (`U ‖ padding`) for the inner and one for the outer hash.
struct Fast<F: BlockFn> {
  inner: F::State,
  outer: F::State,
  /// Final block of the inner and of the outer hash: the first `F::OUTPUT_LEN` bytes are the
  /// message (U, then the inner digest), the rest its padding.
  block: Zeroizing<Block<F>>,
}

impl<F: BlockFn> Fast<F> {
  fn new(key: &[u8]) -> Self {
    let len = F::OUTPUT_LEN;
    let size = F::Word::BLOCK;
    // The digest and its padding fit in one block, for every word size (checked when built).
    const { assert!(F::OUTPUT_LEN < F::Word::BLOCK - F::Word::LEN_FIELD) };
    let (inner, outer) = md::hmac_states::<F>(key);
    let mut block = Zeroizing::new(F::Word::ZERO_BLOCK);
    // Inner and outer hash both end with `len` bytes after one block: one padding serves both.
    let spill = md::pad::<F>(&mut block, len, (size + len) as u64);
    debug_assert!(spill.is_none());
    Fast {
      inner,
      outer,
      block,
    }
  }
}

impl<F: BlockFn> Prf for Fast<F> {
  fn len(&self) -> usize {
    F::OUTPUT_LEN
  }
  fn iterate(&mut self, u: &mut [u8], t: &mut [u8], n: u32) {
    let len = F::OUTPUT_LEN;
    let block = &mut *self.block;
    block.as_mut()[..len].copy_from_slice(u);
    for _ in 0..n {
      let mut s = self.inner;
      F::compress(&mut s, slice::from_ref(block));
      md::put_state::<F>(&s, &mut block.as_mut()[..len]);
      let mut s = self.outer;
      F::compress(&mut s, slice::from_ref(block));
      md::put_state::<F>(&s, &mut block.as_mut()[..len]);
      t.iter_mut()
        .zip(block.as_ref()[..len].iter())
        .for_each(|(t, u)| *t ^= u);
    }
    u.copy_from_slice(&block.as_ref()[..len]);
  }
}

impl<F: BlockFn> Drop for Fast<F> {
  fn drop(&mut self) {
    self.inner.zeroize();
    self.outer.zeroize();
  }
}

/// One derivation; run with the PRF the hash list gives `alg` ([`Alg::with_block_fn`]).
struct Derive<'a> {
  alg: Alg,
  password: &'a [u8],
  salt: &'a [u8],
  iterations: u32,
  out: &'a mut [u8],
  cancel: &'a Cancel,
}

impl BlockFnVisitor for Derive<'_> {
  type Output = CryptoResult<()>;
  fn block_fn<F: BlockFn>(self) -> CryptoResult<()> {
    let prf = Fast::<F>::new(self.password);
    self.run(prf)
  }
  fn no_block_fn(self) -> CryptoResult<()> {
    let prf = Generic(Hmac::new(State::new(self.alg), self.password)?);
    self.run(prf)
  }
}

impl Derive<'_> {
  fn run<P: Prf>(self, mut prf: P) -> CryptoResult<()> {
    let hlen = prf.len();
    let first = Hmac::new(State::new(self.alg), self.password)?;
    let mut u = Zeroizing::new([0u8; 64]);
    let mut t = Zeroizing::new([0u8; 64]);
    for (i, chunk) in self.out.chunks_mut(hlen).enumerate() {
      let (u, t) = (&mut u[..hlen], &mut t[..hlen]);
      let mut h = first.clone();
      h.update(self.salt);
      h.update(&(i as u32).wrapping_add(1).to_be_bytes());
      h.finalize_into(u);
      t.copy_from_slice(u);
      let mut left = self.iterations - 1;
      while left > 0 {
        let n = left.min(SLICE);
        prf.iterate(u, t, n);
        left -= n;
        self.cancel.check()?;
      }
      chunk.copy_from_slice(&t[..chunk.len()]);
    }
    Ok(())
  }
}

/// PBKDF2-HMAC-`alg` of `password` and `salt` into `out`. `iterations` ≥ 1 (checked by the
/// callers); `out` may be any length up to [`MAX_KEY_LEN`].
pub fn derive(
  alg: Alg,
  password: &[u8],
  salt: &[u8],
  iterations: u32,
  out: &mut [u8],
  cancel: &Cancel,
) -> CryptoResult<()> {
  if iterations == 0 {
    return Err(CryptoError::out_of_range(
      "iterations",
      ">= 1 && <= 4294967295",
      0,
    ));
  }
  alg.with_block_fn(Derive {
    alg,
    password,
    salt,
    iterations,
    out,
    cancel,
  })
}

/// One PBKDF2 call over owned inputs.
pub struct Pbkdf2Job {
  alg: Alg,
  password: Secret,
  salt: Secret,
  iterations: u32,
  key_length: u32,
}

impl Job for Pbkdf2Job {
  fn run(&mut self, cancel: &Cancel) -> CryptoResult<Output> {
    let mut out = Zeroizing::new(vec![0u8; self.key_length as usize]);
    derive(
      self.alg,
      &self.password,
      &self.salt,
      self.iterations,
      &mut out,
      cancel,
    )?;
    Ok(Output::Bytes(out))
  }
}

fn job(
  env: &Env,
  password: Unknown,
  salt: Unknown,
  iterations: u32,
  key_length: u32,
  hash: u32,
) -> CryptoResult<Pbkdf2Job> {
  Ok(Pbkdf2Job {
    alg: hmac_alg(hash)?,
    password: secret(env, &password, "password")?,
    salt: secret(env, &salt, "salt")?,
    iterations: check_range("iterations", iterations, 1, u32::MAX)?,
    key_length: check_range("keyLength", key_length, 1, MAX_KEY_LEN)?,
  })
}

twins! {
  #[doc = " PBKDF2, synchronous. `iterations` ≥ 1; `keyLength` in bytes, 1..2^30; `hash` an id from"]
  #[doc = " `algorithms()` (a fixed-output hash). Returns the derived key as a Buffer."]
  #[napi(js_name = "pbkdf2")]
  pub fn pbkdf2_sync;
  #[doc = " PBKDF2 on the libuv pool; inputs are copied first. `token` cancels it (checked every"]
  #[doc = " 2048 iterations)."]
  #[napi]
  pub fn pbkdf2_async;
  (env, password: Unknown, salt: Unknown, iterations: u32, key_length: u32, hash: u32) -> Pbkdf2Job {
    job(env, password, salt, iterations, key_length, hash)
  }
}

#[cfg(test)]
mod tests {
  use super::*;

  fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
  }

  /// Whether the list gives `alg` a block function (so PBKDF2 its fast PRF).
  struct HasBlockFn;
  impl BlockFnVisitor for HasBlockFn {
    type Output = bool;
    fn block_fn<F: BlockFn>(self) -> bool {
      true
    }
    fn no_block_fn(self) -> bool {
      false
    }
  }

  /// The fast PRFs must equal the generic HMAC loop for every length class of key.
  #[test]
  fn fast_equals_generic() {
    let fast: Vec<Alg> = Alg::ALL
      .iter()
      .copied()
      .filter(|a| a.with_block_fn(HasBlockFn))
      .collect();
    for alg in [
      Alg::Sha1,
      Alg::Sha224,
      Alg::Sha256,
      Alg::Sha384,
      Alg::Sha512,
    ] {
      assert!(fast.contains(&alg), "{alg:?} lost its fast PRF");
    }
    for &alg in &fast {
      for klen in [0usize, 1, 20, 64, 65, 128, 129, 300] {
        let key: Vec<u8> = (0..klen).map(|i| i as u8).collect();
        let mut a = [0u8; 150];
        let mut b = [0u8; 150];
        derive(alg, &key, b"salt", 7, &mut a, &Cancel::NEVER).unwrap();
        Derive {
          alg,
          password: &key,
          salt: b"salt",
          iterations: 7,
          out: &mut b,
          cancel: &Cancel::NEVER,
        }
        .no_block_fn()
        .unwrap();
        assert_eq!(hex(&a), hex(&b), "{alg:?} key {klen}");
      }
    }
  }

  #[test]
  fn rfc6070_sha1() {
    let mut out = [0u8; 20];
    derive(
      Alg::Sha1,
      b"password",
      b"salt",
      4096,
      &mut out,
      &Cancel::NEVER,
    )
    .unwrap();
    assert_eq!(hex(&out), "4b007901b765489abead49d926f721d065a429c1");
  }
}
