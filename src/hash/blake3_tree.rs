//! BLAKE3 over a large file on several cores, reads included.
//!
//! The file is cut along BLAKE3's own tree (`blake3::hazmat`): each leaf (a subtree of at most
//! [`LEAF`] bytes) is read with positional reads into its own small buffer and hashed by one
//! thread into its chaining value, and the values are merged up to the root. So the kernel's
//! copies out of the page cache run in parallel too, where `update_rayon` over a sequentially
//! read buffer leaves them on one thread. Measured on a 1 GiB file in the page cache (2-vCPU
//! AMD EPYC Zen 3, Rust level, eight interleaved rounds, MiB/s, load average about 1): this tree
//! 5,280-5,760 (256 KiB and 1 MiB leaves alike); `read` into a 1-4 MiB buffer then
//! `update_rayon` 3,030-4,000; `read` and one thread 2,790-2,890; the whole file `mmap`ed then
//! `update_rayon` (what `b3sum` does) 4,110-4,570, and the mapping counts in the process's RSS
//! (up to the file's size, past the 32 MiB bound); `update_rayon` over the bytes already in
//! memory 5,940-6,690. With both cores busy elsewhere every parallel form fell to 1.1-2.7 GB/s.
//!
//! The work runs on a pool of its own of at most [`MAX_THREADS`] threads (bounded memory: one
//! read buffer of `READ_LEN` per thread). The libuv thread that runs the job blocks in
//! `install` meanwhile; the rayon threads do the work. Cancellation is checked before every
//! read; the first error (or abort) stops every leaf at its next read.
//!
//! Unix and Windows only: std has no stable positional read on WASI, where [`hash`] always returns
//! `None` and files are read sequentially.
#![cfg_attr(not(any(unix, windows)), allow(dead_code, unused_imports))]

use std::fs::File;
use std::io;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, OnceLock};

use blake3::hazmat::{self, ChainingValue, ContextKey, HasherExt, Mode};
use rayon_core::ThreadPool;
use zeroize::Zeroizing;

use super::api::digest_with;
use super::core::HashParams;
use crate::error::{Code, CryptoError, CryptoResult};
use crate::file_io::{sys_error, Counters, ReadBuf};
use crate::task::{Cancel, Output};

/// The largest subtree one thread reads and hashes (files up to twice this are read on one
/// thread). 256 KiB and 1 MiB leaves measured the same.
const LEAF: u64 = 512 << 10;

/// The pool's size: the CPU count, at most this.
const MAX_THREADS: usize = 16;

/// BLAKE3's mode, as the tree functions take it (the parameters were checked by
/// `State::with_params` before this is made).
pub enum TreeMode {
  Hash,
  Keyed(Zeroizing<[u8; 32]>),
  DeriveKey(ContextKey),
}

impl TreeMode {
  pub fn new(p: &HashParams) -> CryptoResult<Self> {
    Ok(match (p.key, p.context) {
      (Some(key), _) => TreeMode::Keyed(Zeroizing::new(
        key.try_into().map_err(|_| CryptoError::internal())?,
      )),
      (None, Some(ctx)) => {
        let ctx = std::str::from_utf8(ctx).map_err(|_| CryptoError::internal())?;
        TreeMode::DeriveKey(hazmat::hash_derive_key_context(ctx))
      }
      (None, None) => TreeMode::Hash,
    })
  }

  fn mode(&self) -> Mode<'_> {
    match self {
      TreeMode::Hash => Mode::Hash,
      TreeMode::Keyed(key) => Mode::KeyedHash(key),
      TreeMode::DeriveKey(ck) => Mode::DeriveKeyMaterial(ck),
    }
  }

  fn hasher(&self) -> blake3::Hasher {
    match self {
      TreeMode::Hash => blake3::Hasher::new(),
      TreeMode::Keyed(key) => blake3::Hasher::new_keyed(key),
      TreeMode::DeriveKey(ck) => blake3::Hasher::new_from_context_key(ck),
    }
  }
}

fn pool() -> Option<&'static ThreadPool> {
  static POOL: OnceLock<Option<ThreadPool>> = OnceLock::new();
  POOL
    .get_or_init(|| {
      let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
      rayon_core::ThreadPoolBuilder::new()
        .num_threads(cpus.min(MAX_THREADS))
        .thread_name(|i| format!("cryptographer-blake3-{i}"))
        .build()
        .ok()
    })
    .as_ref()
}

#[cfg(unix)]
fn read_at(file: &File, buf: &mut [u8], offset: u64) -> io::Result<usize> {
  std::os::unix::fs::FileExt::read_at(file, buf, offset)
}

#[cfg(windows)]
fn read_at(file: &File, buf: &mut [u8], offset: u64) -> io::Result<usize> {
  std::os::windows::fs::FileExt::seek_read(file, buf, offset)
}

#[cfg(not(any(unix, windows)))]
fn read_at(_: &File, _: &mut [u8], _: u64) -> io::Result<usize> {
  Err(io::ErrorKind::Unsupported.into())
}

/// The digest (`out_len` bytes) of the first `len` bytes of `file`, hashed as a tree; `None`
/// when the file is too small for that to pay (or there is no pool): the caller reads it
/// sequentially.
#[cfg(any(unix, windows))]
pub fn hash(
  file: &File,
  len: u64,
  mode: &TreeMode,
  out_len: usize,
  cancel: &Cancel,
  progress: &Counters,
) -> Option<CryptoResult<Output>> {
  if len <= 2 * LEAF {
    return None;
  }
  let pool = pool()?;
  let tree = Tree {
    file,
    mode,
    cancel,
    progress,
    stop: AtomicBool::new(false),
    error: Mutex::new(None),
  };
  let left = hazmat::left_subtree_len(len);
  let (a, b) =
    pool.install(|| rayon_core::join(|| tree.subtree(0, left), || tree.subtree(left, len - left)));
  Some(match (a, b) {
    (Some(a), Some(b)) => digest_with(out_len, |out| {
      hazmat::merge_subtrees_root_xof(&a, &b, mode.mode()).fill(out)
    }),
    _ => Err(tree.take_error()),
  })
}

#[cfg(not(any(unix, windows)))]
pub fn hash(
  _: &File,
  _: u64,
  _: &TreeMode,
  _: usize,
  _: &Cancel,
  _: &Counters,
) -> Option<CryptoResult<Output>> {
  None
}

struct Tree<'a> {
  file: &'a File,
  mode: &'a TreeMode,
  cancel: &'a Cancel,
  progress: &'a Counters,
  /// Set by the first failure: the other leaves stop at their next read.
  stop: AtomicBool,
  error: Mutex<Option<CryptoError>>,
}

impl Tree<'_> {
  /// The chaining value of the subtree `[offset, offset + len)`; `None` after a failure.
  fn subtree(&self, offset: u64, len: u64) -> Option<ChainingValue> {
    if self.stop.load(Ordering::Relaxed) {
      return None;
    }
    if len <= LEAF {
      return self.leaf(offset, len);
    }
    let left = hazmat::left_subtree_len(len);
    let (a, b) = rayon_core::join(
      || self.subtree(offset, left),
      || self.subtree(offset + left, len - left),
    );
    Some(hazmat::merge_subtrees_non_root(&a?, &b?, self.mode.mode()))
  }

  fn leaf(&self, offset: u64, len: u64) -> Option<ChainingValue> {
    let mut hasher = self.mode.hasher();
    hasher.set_input_offset(offset);
    let mut buf = ReadBuf::new(len);
    let (mut pos, end) = (offset, offset + len);
    while pos < end {
      if let Err(e) = self.cancel.check() {
        return self.fail(e);
      }
      if self.stop.load(Ordering::Relaxed) {
        return None;
      }
      let want = (end - pos).min(buf.len() as u64) as usize;
      let chunk = buf.take(want);
      match read_at(self.file, chunk, pos) {
        Ok(0) => {
          return self.fail(CryptoError::new(
            Code::Operation,
            "the file became shorter while it was hashed",
          ))
        }
        Ok(n) => {
          hasher.update(&chunk[..n]);
          self.progress.add(n);
          pos += n as u64;
        }
        Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
        Err(e) => return self.fail(sys_error(&e, "read")),
      }
    }
    Some(hasher.finalize_non_root())
  }

  fn fail(&self, e: CryptoError) -> Option<ChainingValue> {
    let mut slot = self.error.lock().unwrap_or_else(|p| p.into_inner());
    slot.get_or_insert(e);
    self.stop.store(true, Ordering::Relaxed);
    None
  }

  fn take_error(&self) -> CryptoError {
    let mut slot = self.error.lock().unwrap_or_else(|p| p.into_inner());
    slot.take().unwrap_or_else(CryptoError::internal)
  }
}
