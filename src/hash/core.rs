//! The ground floor of the hash family: the one trait every hash backend is driven through
//! ([`HashCore`]), the generic HMAC and one-shot over it, and the options a parameterised hash
//! takes ([`HashParams`]). It imports nothing from the rest of the family.

use crate::error::{CryptoError, CryptoResult};

/// Whether `first` runs faster than `second` on this machine: each is timed five times,
/// interleaved, and the best times compared. Used where two implementations of one function are
/// tested to agree and which is faster turned out to depend on the machine (the BLAKE2 backends,
/// the Keccak permutation): each choice is made once per process (measured as a first call's extra
/// latency on Zen 4: 38-80 µs per BLAKE2 variant, 180 µs for the Keccak permutation).
pub fn first_is_faster(first: &dyn Fn(), second: &dyn Fn()) -> bool {
  let time = |f: &dyn Fn()| {
    let start = std::time::Instant::now();
    f();
    start.elapsed()
  };
  let (mut a, mut b) = (std::time::Duration::MAX, std::time::Duration::MAX);
  for _ in 0..5 {
    a = a.min(time(first));
    b = b.min(time(second));
  }
  a < b
}

/// What the generic code needs from a hash function.
pub trait HashCore: Clone {
  fn update(&mut self, data: &[u8]);
  /// Writes the digest; `out.len()` is exactly [`HashCore::output_len`].
  fn finalize_into(self, out: &mut [u8]);
  fn output_len(&self) -> usize;
  /// Input block size in bytes (what HMAC pads its key to); 0 when HMAC is not defined.
  fn block_len(&self) -> usize;
}

/// The options a parameterised hash takes (all absent for the fixed-output ones).
#[derive(Default)]
pub struct HashParams<'a> {
  pub key: Option<&'a [u8]>,
  pub salt: Option<&'a [u8]>,
  pub personalization: Option<&'a [u8]>,
  pub context: Option<&'a [u8]>,
  pub output_len: Option<u32>,
}

impl HashParams<'_> {
  pub(super) fn is_empty(&self) -> bool {
    self.key.is_none()
      && self.salt.is_none()
      && self.personalization.is_none()
      && self.context.is_none()
      && self.output_len.is_none()
  }
}

pub(super) fn check_len(
  name: &str,
  len: Option<u32>,
  min: u32,
  max: u32,
  default: u32,
) -> CryptoResult<usize> {
  match len {
    None => Ok(default as usize),
    Some(n) if (min..=max).contains(&n) => Ok(n as usize),
    Some(n) => Err(CryptoError::out_of_range(
      name,
      format!(">= {min} && <= {max}"),
      n,
    )),
  }
}

pub(super) fn check_max<'a>(
  name: &str,
  value: Option<&'a [u8]>,
  max: usize,
) -> CryptoResult<&'a [u8]> {
  let v = value.unwrap_or(&[]);
  if v.len() > max {
    return Err(CryptoError::out_of_range(
      &format!("{name}.length"),
      format!("<= {max} bytes"),
      v.len(),
    ));
  }
  Ok(v)
}

/// The HMAC key block (RFC 2104): the key, or its hash when longer than `block` bytes, zero
/// padded to `block` (at most 256). Shared by [`Hmac`] and PBKDF2's compression-function path.
pub fn hmac_key_block<H: HashCore>(
  fresh: &H,
  key: &[u8],
  block: usize,
) -> zeroize::Zeroizing<[u8; 256]> {
  let mut kb = zeroize::Zeroizing::new([0u8; 256]);
  if key.len() > block {
    let mut h = fresh.clone();
    h.update(key);
    let n = h.output_len();
    h.finalize_into(&mut kb[..n]);
  } else {
    kb[..key.len()].copy_from_slice(key);
  }
  kb
}

/// Longest digest [`Hmac`] takes.
const HMAC_MAX_DIGEST: usize = 64;

/// HMAC (RFC 2104) over any block hash in the list: one implementation for all of them. The
/// inner digest is held in a 64-byte buffer, so hashes with longer digests are refused (none in
/// the list has one).
#[derive(Clone)]
pub struct Hmac<H> {
  inner: H,
  outer: H,
}

impl<H: HashCore> Hmac<H> {
  /// `fresh` is an unused state of the underlying hash. Keys of any length are accepted.
  pub fn new(fresh: H, key: &[u8]) -> CryptoResult<Self> {
    let block = fresh.block_len();
    if block == 0 {
      return Err(CryptoError::invalid_value(
        "algorithm",
        "a block hash for HMAC",
        "an XOF",
      ));
    }
    if fresh.output_len() > HMAC_MAX_DIGEST {
      return Err(CryptoError::invalid_value(
        "algorithm",
        format!("a hash with at most {HMAC_MAX_DIGEST}-byte digests for HMAC"),
        fresh.output_len(),
      ));
    }
    let mut pad = hmac_key_block(&fresh, key, block);
    let pad = &mut pad[..block];
    pad.iter_mut().for_each(|b| *b ^= 0x36);
    let mut inner = fresh.clone();
    inner.update(pad);
    pad.iter_mut().for_each(|b| *b ^= 0x36 ^ 0x5c);
    let mut outer = fresh;
    outer.update(pad);
    Ok(Hmac { inner, outer })
  }
}

impl<H: HashCore> HashCore for Hmac<H> {
  #[inline]
  fn update(&mut self, data: &[u8]) {
    self.inner.update(data);
  }
  fn finalize_into(self, out: &mut [u8]) {
    let mut ih = zeroize::Zeroizing::new([0u8; HMAC_MAX_DIGEST]);
    let n = self.inner.output_len();
    self.inner.finalize_into(&mut ih[..n]);
    let mut outer = self.outer;
    outer.update(&ih[..n]);
    outer.finalize_into(out);
  }
  fn output_len(&self) -> usize {
    self.outer.output_len()
  }
  fn block_len(&self) -> usize {
    self.outer.block_len()
  }
}

/// Hashes `data` into `out` (exactly the state's output length).
#[inline]
pub fn oneshot<H: HashCore>(mut h: H, data: &[u8], out: &mut [u8]) {
  h.update(data);
  h.finalize_into(out);
}

#[cfg(test)]
mod tests {
  use super::first_is_faster;

  /// The choice follows the work, whichever side it is on (a 0.2 ms sleep against nothing: a
  /// margin no scheduling noise closes in five tries).
  #[test]
  fn first_is_faster_picks_the_lighter_side() {
    let nothing = || {};
    let sleep = || std::thread::sleep(std::time::Duration::from_micros(200));
    assert!(first_is_faster(&nothing, &sleep));
    assert!(!first_is_faster(&sleep, &nothing));
  }
}
