//! scrypt (RFC 7914). ROMix is written here (rather than taken from the `scrypt` crate) so that
//! a running derivation can be cancelled: both ROMix loops check the cancel flag every
//! [`SLICE`] BlockMix calls. The PBKDF2-HMAC-SHA256 steps use `super::pbkdf2`.

use napi::bindgen_prelude::Unknown;
use napi::Env;
use napi_derive::napi;
use zeroize::{Zeroize, Zeroizing};

use super::{check_range, secret, Secret, MAX_KEY_LEN};
use crate::arch::{with_salsa20_core, Salsa20Core, Salsa20Work};
use crate::error::{Code, CryptoError, CryptoResult};
use crate::hash::list::Alg;
use crate::task::{twins, Cancel, Job, Output};

/// BlockMix calls between two cancellation checks (about 0.3 ms at r = 8).
const SLICE: usize = 256;

/// Default `maxmem`, as in Node: 32 MiB.
pub const DEFAULT_MAXMEM: f64 = (32 << 20) as f64;

/// Checked scrypt parameters.
#[derive(Clone, Copy, Debug)]
pub struct ScryptParams {
  pub n: u64,
  pub r: u32,
  pub p: u32,
}

impl ScryptParams {
  /// RFC 7914 §2 limits plus Node's memory rule: `128·r·(N + 2) + 128·r·p ≤ maxmem` bytes.
  pub fn new(n: f64, r: u32, p: u32, key_length: u32, maxmem: f64) -> CryptoResult<ScryptParams> {
    if !(n.fract() == 0.0 && n >= 2.0 && n <= 2f64.powi(32) && (n as u64).is_power_of_two()) {
      return Err(CryptoError::out_of_range(
        "N",
        "a power of 2 > 1 and <= 2^32",
        n,
      ));
    }
    let n = n as u64;
    check_range("r", r, 1, u32::MAX)?;
    check_range("p", p, 1, u32::MAX)?;
    check_range("keyLength", key_length, 1, MAX_KEY_LEN)?;
    match broken_limit(n, r, p) {
      Some(Limit::RTimesP) => {
        let rp = u64::from(r) * u64::from(p);
        return Err(CryptoError::out_of_range("r * p", "< 2^30", rp));
      }
      Some(Limit::N) => {
        let bound = format!("< 2^(16 * r) = {}", 1u64 << (16 * r));
        return Err(CryptoError::out_of_range("N", bound, n));
      }
      None => {}
    }
    let params = ScryptParams { n, r, p };
    let need = params.memory();
    if maxmem.is_nan() || maxmem < 0.0 || need as f64 > maxmem {
      return Err(CryptoError::out_of_range(
        "maxmem",
        format!(">= 128 * r * (N + 2 + p) = {need} bytes for these parameters"),
        maxmem,
      ));
    }
    Ok(params)
  }

  /// The working memory of a derivation, in bytes: `128·r·(N + 2 + p)`, Node's `maxmem` rule
  /// (V is N blocks of 128·r bytes, B is p of them, X and Y two more). Saturates: r·p < 2^30
  /// and N ≤ 2^32 keep it below 2^70, and any value past 2^64 is refused as too large anyway.
  pub fn memory(&self) -> u64 {
    let blocks = u128::from(self.n) + 2 + u128::from(self.p);
    u64::try_from(128 * u128::from(self.r) * blocks).unwrap_or(u64::MAX)
  }
}

/// The RFC 7914 §2 limit a choice of parameters breaks.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Limit {
  /// r·p < 2^30.
  RTimesP,
  /// N < 2^(128·r/8), which only binds for r < 4.
  N,
}

/// The limit `n`, `r`, `p` (each at least 1) break, if any; r·p is checked first.
fn broken_limit(n: u64, r: u32, p: u32) -> Option<Limit> {
  if u64::from(r) * u64::from(p) >= 1 << 30 {
    Some(Limit::RTimesP)
  } else if r < 4 && n >= 1u64 << (16 * r) {
    Some(Limit::N)
  } else {
    None
  }
}

/// `scryptLimit(N, r, p)`: the limit these parameters break, `'r * p'` or `'N'`, or `null`
/// ([`broken_limit`], the rule `scrypt()` checks); `crypto.password` checks policies and stored
/// hashes by it. `r` and `p` must already be integers in 1..=2^32-1 (both callers check them
/// first): N-API reads a number beyond that modulo 2^32.
#[napi(ts_return_type = "'r * p' | 'N' | null")]
pub fn scrypt_limit(n: f64, r: u32, p: u32) -> Option<&'static str> {
  // `as` saturates: an N past 2^64 reads as u64::MAX, as far over the N limit as it is.
  broken_limit(n as u64, r, p).map(|limit| match limit {
    Limit::RTimesP => "r * p",
    Limit::N => "N",
  })
}

/// `scryptMemory(N, r, p)`: the bytes a derivation with these parameters needs
/// ([`ScryptParams::memory`], the rule `maxmem` is checked by), for the JS layer's ceilings.
#[napi]
pub fn scrypt_memory(n: f64, r: u32, p: u32) -> f64 {
  // `as` saturates: NaN and negative N read as 0, past 2^64 as u64::MAX.
  ScryptParams { n: n as u64, r, p }.memory() as f64
}

/// Word order inside each 64-byte block while ROMix runs. On x86-64 the words are kept in the
/// "diagonal" order of the SSE2 Salsa20 core (C. Percival's crypto_scrypt-sse.c): word i holds
/// Salsa20 word `5·i mod 16`, so each row of four is one SIMD vector. Word 0 stays in place,
/// so Integerify reads the same word in either order.
#[cfg(target_arch = "x86_64")]
pub(crate) const LAYOUT: [usize; 16] = [0, 5, 10, 15, 4, 9, 14, 3, 8, 13, 2, 7, 12, 1, 6, 11];
#[cfg(not(target_arch = "x86_64"))]
pub(crate) const LAYOUT: [usize; 16] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];

/// BlockMix_{Salsa20/8, r}: `input` (2r 64-byte blocks as words) → `out`.
#[inline(always)]
fn block_mix(core: impl Salsa20Core, input: &[u32], out: &mut [u32], r: usize) {
  let mut x = [0u32; 16];
  x.copy_from_slice(&input[(2 * r - 1) * 16..2 * r * 16]);
  for (i, blk) in input.chunks_exact(16).enumerate() {
    x.iter_mut().zip(blk).for_each(|(x, b)| *x ^= b);
    core.salsa20_8(&mut x);
    // Even blocks go to the first half, odd ones to the second.
    let pos = (i / 2 + (i % 2) * r) * 16;
    out[pos..pos + 16].copy_from_slice(&x);
  }
  x.zeroize();
}

/// ROMix on one 128·r-byte block, in place, with the Salsa20/8 `core` ([`ro_mix`] picks the
/// fastest one this CPU has). `v` holds N·32·r words.
#[inline(always)]
fn ro_mix_with(
  core: impl Salsa20Core,
  block: &mut [u8],
  v: &mut [u32],
  n: usize,
  r: usize,
  cancel: &Cancel,
) -> CryptoResult<()> {
  let words = 32 * r;
  let mut x = Zeroizing::new(vec![0u32; words]);
  let mut y = Zeroizing::new(vec![0u32; words]);
  for (xb, bb) in x.chunks_exact_mut(16).zip(block.chunks_exact(64)) {
    for (w, &src) in xb.iter_mut().zip(LAYOUT.iter()) {
      let c = &bb[4 * src..4 * src + 4];
      *w = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
    }
  }
  for (i, vi) in v.chunks_exact_mut(words).enumerate() {
    vi.copy_from_slice(&x);
    block_mix(core, vi, &mut x, r);
    if i % SLICE == SLICE - 1 {
      cancel.check()?;
    }
  }
  let mask = n - 1;
  for i in 0..n {
    let j = (x[(2 * r - 1) * 16] as usize) & mask;
    let vj = &v[j * words..(j + 1) * words];
    y.iter_mut()
      .zip(x.iter().zip(vj))
      .for_each(|(y, (a, b))| *y = a ^ b);
    block_mix(core, &y, &mut x, r);
    if i % SLICE == SLICE - 1 {
      cancel.check()?;
    }
  }
  for (xb, bb) in x.chunks_exact(16).zip(block.chunks_exact_mut(64)) {
    for (w, &dst) in xb.iter().zip(LAYOUT.iter()) {
      bb[4 * dst..4 * dst + 4].copy_from_slice(&w.to_le_bytes());
    }
  }
  Ok(())
}

/// ROMix with the fastest Salsa20/8 core this CPU has, compiled with that core's features.
fn ro_mix(
  block: &mut [u8],
  v: &mut [u32],
  n: usize,
  r: usize,
  cancel: &Cancel,
) -> CryptoResult<()> {
  with_salsa20_core(RoMix {
    block,
    v,
    n,
    r,
    cancel,
  })
}

/// The arguments of [`ro_mix_with`], as the work [`with_salsa20_core`] runs.
struct RoMix<'a> {
  block: &'a mut [u8],
  v: &'a mut [u32],
  n: usize,
  r: usize,
  cancel: &'a Cancel,
}

impl Salsa20Work for RoMix<'_> {
  type Output = CryptoResult<()>;

  #[inline(always)]
  fn run<C: Salsa20Core>(self, core: C) -> CryptoResult<()> {
    ro_mix_with(core, self.block, self.v, self.n, self.r, self.cancel)
  }
}

/// scrypt of `password` and `salt` into `out` with checked parameters.
pub fn derive(
  password: &[u8],
  salt: &[u8],
  params: ScryptParams,
  out: &mut [u8],
  cancel: &Cancel,
) -> CryptoResult<()> {
  let _lease = crate::budget::lease("scrypt", params.memory())?;
  let (n, r, p) = (params.n as usize, params.r as usize, params.p as usize);
  let blen = 128 * r * p;
  let mut b: Vec<u8> = Vec::new();
  b.try_reserve_exact(blen).map_err(|_| too_big())?;
  b.resize(blen, 0);
  let mut b = Zeroizing::new(b);
  super::pbkdf2::derive(Alg::Sha256, password, salt, 1, &mut b, cancel)?;
  let vlen = n.checked_mul(32 * r).ok_or_else(too_big)?;
  let v = crate::arch::zeroed_u32(vlen).ok_or_else(too_big)?;
  let mut v = Wiped(v);
  for chunk in b.chunks_exact_mut(128 * r) {
    ro_mix(chunk, &mut v, n, r, cancel)?;
  }
  super::pbkdf2::derive(Alg::Sha256, password, &b, 1, out, cancel)
}

/// The N·128·r-byte scratch vector, wiped on drop with a plain `memset` kept alive by
/// `black_box` (zeroize's element-wise volatile stores cost ~10 ms per 16 MiB here, about a
/// third of a default scrypt call).
struct Wiped(Vec<u32>);

impl std::ops::Deref for Wiped {
  type Target = Vec<u32>;
  fn deref(&self) -> &Vec<u32> {
    &self.0
  }
}

impl std::ops::DerefMut for Wiped {
  fn deref_mut(&mut self) -> &mut Vec<u32> {
    &mut self.0
  }
}

impl Drop for Wiped {
  fn drop(&mut self) {
    self.0.fill(0);
    std::hint::black_box(&self.0);
  }
}

fn too_big() -> CryptoError {
  CryptoError::new(
    Code::Operation,
    "cannot allocate the memory scrypt needs for these parameters",
  )
}

pub struct ScryptJob {
  password: Secret,
  salt: Secret,
  params: ScryptParams,
  key_length: u32,
}

impl Job for ScryptJob {
  fn run(&mut self, cancel: &Cancel) -> CryptoResult<Output> {
    let mut out = Zeroizing::new(vec![0u8; self.key_length as usize]);
    derive(&self.password, &self.salt, self.params, &mut out, cancel)?;
    Ok(Output::Bytes(out))
  }
}

/// The numeric options of `scrypt()`, already defaulted by the JS layer.
#[napi(object)]
pub struct ScryptOptions {
  /// CPU/memory cost: a power of two, 2..2^32.
  pub n: f64,
  /// Block size factor.
  pub r: u32,
  /// Parallelisation factor.
  pub p: u32,
  /// Derived key length in bytes.
  pub key_length: u32,
  /// Memory ceiling in bytes (default 32 MiB, as Node).
  pub maxmem: Option<f64>,
}

fn job(env: &Env, password: Unknown, salt: Unknown, o: ScryptOptions) -> CryptoResult<ScryptJob> {
  let maxmem = o.maxmem.unwrap_or(DEFAULT_MAXMEM);
  let params = ScryptParams::new(o.n, o.r, o.p, o.key_length, maxmem)?;
  Ok(ScryptJob {
    password: secret(env, &password, "password")?,
    salt: secret(env, &salt, "salt")?,
    params,
    key_length: o.key_length,
  })
}

twins! {
  #[doc = " scrypt, synchronous. Returns a Buffer."]
  #[napi(js_name = "scrypt")]
  pub fn scrypt_sync;
  #[doc = " scrypt on the libuv pool; inputs are copied first; `token` cancels it within about 1 ms."]
  #[napi]
  pub fn scrypt_async;
  (env, password: Unknown, salt: Unknown, options: ScryptOptions) -> ScryptJob {
    job(env, password, salt, options)
  }
}

#[cfg(test)]
mod tests {
  use super::*;
  use crate::arch::{salsa20_8_scalar, Avx512Vl, Baseline};

  #[test]
  fn rfc7914_vector_2() {
    let mut out = [0u8; 64];
    let p = ScryptParams::new(1024.0, 8, 16, 64, 1e9).unwrap();
    derive(b"password", b"NaCl", p, &mut out, &Cancel::NEVER).unwrap();
    let hex: String = out.iter().map(|x| format!("{x:02x}")).collect();
    assert_eq!(
      hex,
      "fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b3731622eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640"
    );
  }

  /// RFC 7914 §2: r·p < 2^30 and N < 2^(128·r/8), at both sides of each bound.
  #[test]
  fn limits_at_their_bounds() {
    assert_eq!(broken_limit(1 << 15, 1, 1), None);
    assert_eq!(broken_limit(1 << 16, 1, 1), Some(Limit::N));
    assert_eq!(broken_limit(1 << 47, 3, 1), None);
    assert_eq!(broken_limit(1 << 48, 3, 1), Some(Limit::N));
    assert_eq!(broken_limit(u64::MAX, 4, 1), None);
    assert_eq!(broken_limit(2, 1 << 15, (1 << 15) - 1), None);
    assert_eq!(broken_limit(2, 1 << 15, 1 << 15), Some(Limit::RTimesP));
    assert_eq!(broken_limit(1 << 16, 1, 1 << 30), Some(Limit::RTimesP));
    assert_eq!(broken_limit(2, u32::MAX, u32::MAX), Some(Limit::RTimesP));
  }

  #[test]
  fn salsa_core_in_layout_order_equals_scalar() {
    let mut natural: [u32; 16] = std::array::from_fn(|i| (i as u32).wrapping_mul(0x9e3779b9));
    let mut laid: [u32; 16] = std::array::from_fn(|i| natural[LAYOUT[i]]);
    let mut laid512 = laid;
    salsa20_8_scalar(&mut natural);
    Baseline.salsa20_8(&mut laid);
    let back: [u32; 16] =
      std::array::from_fn(|i| laid[LAYOUT.iter().position(|&l| l == i).unwrap()]);
    assert_eq!(back, natural);
    if let Some(core) = Avx512Vl::detect() {
      core.salsa20_8(&mut laid512);
      assert_eq!(laid512, laid);
    } else {
      eprintln!("no AVX-512VL on this CPU: its Salsa20/8 core is not tested here");
    }
  }

  /// Both ROMix builds (dispatched and baseline) give the same block.
  #[test]
  fn ro_mix_paths_agree() {
    let (n, r) = (64, 3);
    let mut a: Vec<u8> = (0..128 * r).map(|i| (i * 13 + 7) as u8).collect();
    let mut b = a.clone();
    let mut v = vec![0u32; n * 32 * r];
    ro_mix(&mut a, &mut v, n, r, &Cancel::NEVER).unwrap();
    ro_mix_with(Baseline, &mut b, &mut v, n, r, &Cancel::NEVER).unwrap();
    assert_eq!(a, b);
  }

  #[test]
  fn bad_params() {
    assert!(ScryptParams::new(1000.0, 8, 1, 64, 1e9).is_err());
    assert!(ScryptParams::new(1.0, 8, 1, 64, 1e9).is_err());
    assert!(ScryptParams::new(16384.0, 8, 1, 64, 1e6).is_err());
    assert!(ScryptParams::new(16384.0, 0, 1, 64, 1e9).is_err());
    assert!(ScryptParams::new(f64::NAN, 8, 1, 64, 1e9).is_err());
    assert!(ScryptParams::new(65536.0, 1, 1, 64, 1e9).is_err());
  }
}
