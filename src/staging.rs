//! Owned copies of JS input for work that runs on the libuv pool.
//!
//! A pool thread must never read memory JavaScript owns: JS can free it (transfer, detach, a
//! resizable buffer shrinking), and the caller or another thread can write to it, each of which is
//! undefined behaviour on the reading side. So every async entry point copies its inputs at call
//! time, as node:crypto does (`data.ToCopy()` for async jobs) and as WebCrypto specifies; the
//! result is the digest / ciphertext of the bytes as they were when the call was made.
//!
//! Copying into a fresh allocation costs mostly page faults; into a warm buffer it is a plain
//! `memcpy`. Measured with `sha256.async` (AMD EPYC Zen 4 VM; the process saw AVX-512 (F/VL/BW/VBMI2), VAES, VPCLMULQDQ, SHA-NI;
//! Node 20):
//! the event loop was blocked about 0.8 ms per MiB at 256 MiB into fresh memory (203 ms, when such
//! buffers were not pooled), 0.13-0.19 ms per MiB into warm ones (33 ms). Large inputs are
//! therefore staged in buffers kept by an [`IdlePool`] and reused. A staged copy may be secret
//! (plaintext, an HMAC message): it is wiped before it returns to the pool, on the pool thread
//! ([`Staged::recycle`]), or when dropped.

use zeroize::Zeroizing;

use crate::error::{Code, CryptoError, CryptoResult};
use crate::pool::{IdlePool, Pooled};

/// Inputs smaller than this are copied into a plain allocation (small allocations come from the
/// allocator's warm free lists and gain nothing from the pool).
const POOL_MIN: usize = 256 << 10;
/// Staging buffers larger than this (512 MiB) are freed after use, not kept.
pub const POOL_MAX: usize = 512 << 20;

struct Buf(Vec<u8>);

impl Pooled for Buf {
  fn size(&self) -> usize {
    self.0.len()
  }
}

static POOL: IdlePool<Buf> = IdlePool::new("cryptographer-staging", POOL_MAX);

/// Zeroes `buf` with a plain `memset` kept alive by `black_box` (zeroize's element-wise volatile
/// stores run at a fraction of memset speed, which matters for inputs of hundreds of MiB).
pub fn wipe(buf: &mut [u8]) {
  buf.fill(0);
  std::hint::black_box(buf);
}

/// A new copy of `srcs` back to back (`len` bytes in all), written once (no zero fill first);
/// an allocation failure is an error, not an abort.
fn alloc_copy<'a>(srcs: impl Iterator<Item = &'a [u8]>, len: usize) -> CryptoResult<Vec<u8>> {
  let mut v = Vec::new();
  v.try_reserve_exact(len).map_err(|_| {
    CryptoError::new(
      Code::Operation,
      format!("cannot allocate {len} bytes for a copy of the input"),
    )
  })?;
  srcs.for_each(|s| v.extend_from_slice(s));
  Ok(v)
}

/// A private copy of input bytes, owned by the job that uses it.
pub struct Staged {
  buf: Vec<u8>,
  len: usize,
}

impl Staged {
  /// Copies `src` (on the calling, JS thread: this is the only moment its bytes are read).
  pub fn copy_of(src: &[u8]) -> CryptoResult<Staged> {
    Self::copy_all(std::iter::once(src))
  }

  /// Copies every slice of `srcs`, back to back, into one buffer (a batch's items).
  pub fn copy_all<'a>(srcs: impl Iterator<Item = &'a [u8]> + Clone) -> CryptoResult<Staged> {
    let len = srcs.clone().map(<[u8]>::len).sum();
    let pooled = if len >= POOL_MIN {
      POOL.take(len, false)
    } else {
      None
    };
    let buf = match pooled {
      Some(Buf(mut buf)) => {
        let mut at = 0;
        for s in srcs {
          buf[at..at + s.len()].copy_from_slice(s);
          at += s.len();
        }
        buf
      }
      None => alloc_copy(srcs, len)?,
    };
    Ok(Staged { buf, len })
  }

  /// Takes an owned copy that already exists (an encoded string).
  pub fn from_owned(mut v: Zeroizing<Vec<u8>>) -> Staged {
    let buf = std::mem::take(&mut *v);
    Staged {
      len: buf.len(),
      buf,
    }
  }

  pub fn as_slice(&self) -> &[u8] {
    &self.buf[..self.len]
  }

  pub fn len(&self) -> usize {
    self.len
  }

  /// Wipes the copy and returns its buffer to the pool (call it on the pool thread, where the
  /// wipe does not hold up the event loop).
  pub fn recycle(mut self) {
    wipe(&mut self.buf[..self.len]);
    self.len = 0;
    let buf = std::mem::take(&mut self.buf);
    if buf.len() >= POOL_MIN {
      POOL.give_back(Buf(buf));
    }
  }
}

impl Drop for Staged {
  fn drop(&mut self) {
    wipe(&mut self.buf[..self.len]);
  }
}

#[cfg(test)]
mod tests {
  use super::*;

  #[test]
  fn copies_and_reuses_wiped_buffers() {
    let big: Vec<u8> = (0..POOL_MIN + 5).map(|i| i as u8).collect();
    let s = Staged::copy_of(&big).unwrap();
    assert_eq!(s.as_slice(), &big[..]);
    let ptr = s.as_slice().as_ptr();
    s.recycle();
    // A smaller input reuses the same (now wiped) buffer and sees only its own bytes.
    let small = vec![7u8; POOL_MIN];
    let t = Staged::copy_of(&small).unwrap();
    assert_eq!(t.as_slice().as_ptr(), ptr);
    assert_eq!(t.as_slice(), &small[..]);
    assert_eq!(t.buf[POOL_MIN..], [0u8; 5]);
    drop(t);
    assert_eq!(Staged::copy_of(&[]).unwrap().len(), 0);
    let all = Staged::copy_all([&b"ab"[..], b"", b"cde"].into_iter()).unwrap();
    assert_eq!(all.as_slice(), b"abcde");
    let owned = Staged::from_owned(Zeroizing::new(b"abc".to_vec()));
    assert_eq!(owned.as_slice(), b"abc");
  }
}
