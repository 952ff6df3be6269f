//! PBKDF2 (RFC 8018) with HMAC over any block hash in `src/algorithms.rs`.
//!
//! One driver, generic over a [`Prf`]. The generic PRF is HMAC through [`State`] (every hash in
//! the list); SHA-1, SHA-224/256 and SHA-384/512 get a PRF that runs the iteration loop on the
//! raw compression functions of the `sha1`/`sha2` crates (SHA-NI for SHA-1/256, AVX2 for
//! SHA-512) with the HMAC pads precomputed and the padding block prebuilt: 2 compressions per
//! iteration and nothing else. Measured on the dev machine, 100,000 iterations: see
//! `docs`/README (the loop is also what makes cancellation possible: the driver runs
//! iterations in slices and checks the cancel flag between slices).

use napi::bindgen_prelude::{AsyncTask, Unknown};
use napi::Env;
use napi_derive::napi;
use zeroize::{Zeroize, Zeroizing};

use super::{check_range, hmac_alg, secret, Secret, MAX_KEY_LEN};
use crate::algorithms::{hmac_key_block, Alg, HashCore, Hmac, State};
use crate::error::{CryptoError, CryptoResult, OrThrow};
use crate::task::{run_sync, Cancel, CancelToken, Job, Output, Work};

/// Iterations between two cancellation checks (about 0.3 ms for SHA-256, 3 ms for SHA-512,
/// a few ms for the slowest hashes of the list).
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

/// A Merkle–Damgård compression function with its constants.
trait Compress: Copy + Zeroize {
  const BLOCK: usize;
  fn iv(alg: Alg) -> Self;
  fn compress(&mut self, block: &[u8]);
  /// Writes the first `out.len()` bytes of the big-endian state.
  fn put(&self, out: &mut [u8]);
}

fn put_words<const W: usize>(words: &[impl Copy + ToBe<W>], out: &mut [u8]) {
  for (chunk, w) in out.chunks_mut(W).zip(words) {
    let b = w.to_be();
    chunk.copy_from_slice(&b[..chunk.len()]);
  }
}

trait ToBe<const W: usize> {
  fn to_be(self) -> [u8; W];
}
impl ToBe<4> for u32 {
  fn to_be(self) -> [u8; 4] {
    self.to_be_bytes()
  }
}
impl ToBe<8> for u64 {
  fn to_be(self) -> [u8; 8] {
    self.to_be_bytes()
  }
}

// Initial hash values, FIPS 180-4 §5.3.
const SHA1_IV: [u32; 5] = [0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0];
const SHA224_IV: [u32; 8] = [
  0xc1059ed8, 0x367cd507, 0x3070dd17, 0xf70e5939, 0xffc00b31, 0x68581511, 0x64f98fa7, 0xbefa4fa4,
];
const SHA256_IV: [u32; 8] = [
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
];
const SHA384_IV: [u64; 8] = [
  0xcbbb9d5dc1059ed8,
  0x629a292a367cd507,
  0x9159015a3070dd17,
  0x152fecd8f70e5939,
  0x67332667ffc00b31,
  0x8eb44a8768581511,
  0xdb0c2e0d64f98fa7,
  0x47b5481dbefa4fa4,
];
const SHA512_IV: [u64; 8] = [
  0x6a09e667f3bcc908,
  0xbb67ae8584caa73b,
  0x3c6ef372fe94f82b,
  0xa54ff53a5f1d36f1,
  0x510e527fade682d1,
  0x9b05688c2b3e6c1f,
  0x1f83d9abfb41bd6b,
  0x5be0cd19137e2179,
];

/// One [`Compress`] per state shape: `Name([word; n]), block size, compression function,
/// |alg| initial value`.
macro_rules! compress_words {
  ($($name:ident([$w:ty; $n:literal]), $block:literal, $compress:path, |$alg:ident| $iv:expr;)*) => {$(
    #[derive(Clone, Copy)]
    struct $name([$w; $n]);

    impl Zeroize for $name {
      fn zeroize(&mut self) {
        self.0.zeroize();
      }
    }

    impl Compress for $name {
      const BLOCK: usize = $block;
      fn iv($alg: Alg) -> Self {
        $name($iv)
      }
      #[inline(always)]
      fn compress(&mut self, block: &[u8]) {
        if let Ok(b) = <&[u8; $block]>::try_from(block) {
          $compress(&mut self.0, std::slice::from_ref(b));
        }
      }
      fn put(&self, out: &mut [u8]) {
        put_words(&self.0, out)
      }
    }
  )*};
}

compress_words! {
  Sha1W([u32; 5]), 64, sha1::block_api::compress, |_alg| SHA1_IV;
  Sha256W([u32; 8]), 64, sha2::block_api::compress256,
    |alg| if alg == Alg::Sha224 { SHA224_IV } else { SHA256_IV };
  Sha512W([u64; 8]), 128, sha2::block_api::compress512,
    |alg| if alg == Alg::Sha384 { SHA384_IV } else { SHA512_IV };
}

/// HMAC on the bare compression function: the pads are compressed once, and each iteration
/// compresses one prebuilt block (`U || 0x80 || 0.. || bit length`) for the inner and one for
/// the outer hash.
struct Fast<C: Compress> {
  inner: C,
  outer: C,
  len: usize,
  /// Final block of the inner hash; its first `len` bytes are the message.
  block: Zeroizing<[u8; 128]>,
}

impl<C: Compress> Fast<C> {
  fn new(alg: Alg, key: &[u8]) -> Self {
    let fresh = State::new(alg);
    let len = fresh.output_len();
    let mut kb = hmac_key_block(&fresh, key, C::BLOCK);
    let kb = &mut kb[..C::BLOCK];
    kb.iter_mut().for_each(|b| *b ^= 0x36);
    let mut inner = C::iv(alg);
    inner.compress(kb);
    kb.iter_mut().for_each(|b| *b ^= 0x36 ^ 0x5c);
    let mut outer = C::iv(alg);
    outer.compress(kb);
    let mut block = Zeroizing::new([0u8; 128]);
    block[len] = 0x80;
    let bits = ((C::BLOCK + len) * 8) as u64;
    block[C::BLOCK - 8..C::BLOCK].copy_from_slice(&bits.to_be_bytes());
    Fast {
      inner,
      outer,
      len,
      block,
    }
  }
}

impl<C: Compress> Prf for Fast<C> {
  fn len(&self) -> usize {
    self.len
  }
  fn iterate(&mut self, u: &mut [u8], t: &mut [u8], n: u32) {
    let len = self.len;
    let block = &mut self.block[..C::BLOCK];
    block[..len].copy_from_slice(u);
    for _ in 0..n {
      let mut s = self.inner;
      s.compress(block);
      s.put(&mut block[..len]);
      let mut s = self.outer;
      s.compress(block);
      s.put(&mut block[..len]);
      t.iter_mut()
        .zip(block[..len].iter())
        .for_each(|(t, u)| *t ^= u);
    }
    u.copy_from_slice(&block[..len]);
  }
}

impl<C: Compress> Drop for Fast<C> {
  fn drop(&mut self) {
    self.inner.zeroize();
    self.outer.zeroize();
  }
}

fn run<P: Prf>(
  mut prf: P,
  alg: Alg,
  password: &[u8],
  salt: &[u8],
  iterations: u32,
  out: &mut [u8],
  cancel: &Cancel,
) -> CryptoResult<()> {
  let hlen = prf.len();
  let first = Hmac::new(State::new(alg), password)?;
  let mut u = Zeroizing::new([0u8; 64]);
  let mut t = Zeroizing::new([0u8; 64]);
  for (i, chunk) in out.chunks_mut(hlen).enumerate() {
    let (u, t) = (&mut u[..hlen], &mut t[..hlen]);
    let mut h = first.clone();
    h.update(salt);
    h.update(&(i as u32).wrapping_add(1).to_be_bytes());
    h.finalize_into(u);
    t.copy_from_slice(u);
    let mut left = iterations - 1;
    while left > 0 {
      let n = left.min(SLICE);
      prf.iterate(u, t, n);
      left -= n;
      cancel.check()?;
    }
    chunk.copy_from_slice(&t[..chunk.len()]);
  }
  Ok(())
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
  // `run` is generic over the PRF: one arm per PRF type.
  macro_rules! run_with {
    ($prf:expr) => {
      run($prf, alg, password, salt, iterations, out, cancel)
    };
  }
  match alg {
    Alg::Sha1 => run_with!(Fast::<Sha1W>::new(alg, password)),
    Alg::Sha224 | Alg::Sha256 => run_with!(Fast::<Sha256W>::new(alg, password)),
    Alg::Sha384 | Alg::Sha512 => run_with!(Fast::<Sha512W>::new(alg, password)),
    _ => run_with!(Generic(Hmac::new(State::new(alg), password)?)),
  }
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

/// PBKDF2, synchronous. `iterations` ≥ 1; `keyLength` in bytes, 1..2^30; `hash` an id from
/// `algorithms()` (a fixed-output hash). Returns the derived key as a Buffer.
#[napi(js_name = "pbkdf2")]
pub fn pbkdf2_sync<'e>(
  env: &'e Env,
  password: Unknown,
  salt: Unknown,
  iterations: u32,
  key_length: u32,
  hash: u32,
) -> napi::Result<Unknown<'e>> {
  let job = job(env, password, salt, iterations, key_length, hash).or_throw(env)?;
  run_sync(env, job)
}

/// PBKDF2 on the libuv pool; inputs are copied first. `token` cancels it (checked every
/// 2048 iterations).
#[napi]
pub fn pbkdf2_async(
  env: Env,
  password: Unknown,
  salt: Unknown,
  iterations: u32,
  key_length: u32,
  hash: u32,
  token: Option<&CancelToken>,
) -> napi::Result<AsyncTask<Work<Pbkdf2Job>>> {
  let job = job(&env, password, salt, iterations, key_length, hash).or_throw(&env)?;
  Ok(Work::new(job, token))
}

#[cfg(test)]
mod tests {
  use super::*;

  fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
  }

  /// The fast PRFs must equal the generic HMAC loop for every length class of key.
  #[test]
  fn fast_equals_generic() {
    for alg in [
      Alg::Sha1,
      Alg::Sha224,
      Alg::Sha256,
      Alg::Sha384,
      Alg::Sha512,
    ] {
      for klen in [0usize, 1, 20, 64, 65, 128, 129, 300] {
        let key: Vec<u8> = (0..klen).map(|i| i as u8).collect();
        let mut a = [0u8; 150];
        let mut b = [0u8; 150];
        derive(alg, &key, b"salt", 7, &mut a, &Cancel::NEVER).unwrap();
        let prf = Generic(Hmac::new(State::new(alg), &key).unwrap());
        run(prf, alg, &key, b"salt", 7, &mut b, &Cancel::NEVER).unwrap();
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

  #[test]
  #[ignore]
  fn timing() {
    for alg in [Alg::Sha1, Alg::Sha256, Alg::Sha512] {
      let mut out = [0u8; 32];
      let mut best = f64::MAX;
      for _ in 0..5 {
        let t = std::time::Instant::now();
        derive(
          alg,
          b"password",
          b"saltsaltsaltsalt",
          100_000,
          &mut out,
          &Cancel::NEVER,
        )
        .unwrap();
        best = best.min(t.elapsed().as_secs_f64() * 1e3);
      }
      let mut best_ring = f64::MAX;
      if alg == Alg::Sha512 {
        for _ in 0..5 {
          let t = std::time::Instant::now();
          ring::pbkdf2::derive(
            ring::pbkdf2::PBKDF2_HMAC_SHA512,
            std::num::NonZeroU32::new(100_000).unwrap(),
            b"saltsaltsaltsalt",
            b"password",
            &mut out,
          );
          best_ring = best_ring.min(t.elapsed().as_secs_f64() * 1e3);
        }
      }
      eprintln!("{alg:?}: {best:.1} ms (ring {best_ring:.1} ms)");
    }
  }
}
