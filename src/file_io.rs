//! Reading files natively, shared by every job that takes a path: `X.file()` (`hash/file.rs`,
//! `hash/blake3_tree.rs`) and the streaming AEAD's `encryptFile`/`decryptFile` (`formats/file.rs`).
//!
//! Files of 1 MiB and more are read by a helper thread into three reused buffers of
//! [`AHEAD_LEN`] bytes while the job's thread works on the previous one ([`read_ahead`]); smaller
//! ones, and files without a size (pipes, devices), are read and consumed in turn through one
//! buffer of up to [`READ_LEN`] bytes. Buffers are wiped when the job ends. The cancel token is
//! checked before every buffer is consumed, so an aborted call stops within one read. Progress is
//! a pair of atomic counters ([`FileProgress`]) that the JS layer polls on a timer (its reasons
//! are in `lib/hash-stream.js`). Failed system calls become node-style errors: the JS `code` is
//! the error's name (`ENOENT`, `EISDIR`, ...), with `errno` and `syscall` set here (`SysError`)
//! and the message and `path` completed by the JS layer.

use std::fs::File;
use std::io::{self, Read};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;

use napi::bindgen_prelude::Unknown;
use napi::Env;
use napi_derive::napi;
use std::sync::Arc;

use crate::error::{Code, CryptoError, CryptoResult, SysError};
use crate::js;
use crate::staging::wipe;
use crate::task::Cancel;

/// Bytes per `read` when this thread reads and hashes in turn (files under [`READ_AHEAD_MIN`],
/// pipes, BLAKE3's leaves). SHA-256 read and hashed a 1 GiB file in the page cache at
/// 1.19-1.25 GB/s with 16-128 KiB reads, 0.79-0.92 GB/s with 256 KiB-4 MiB ones (AMD EPYC
/// Zen 3, 512 KiB of L2 per core: a buffer that stays in L2 is hashed straight after the
/// kernel's copy into it).
pub const READ_LEN: usize = 128 << 10;

/// Bytes per `read` of the read-ahead thread ([`read_ahead`]). SHA-256 over a 1 GiB file in the
/// page cache, as a fraction of one-shot `sha256(buffer)` in the same process, four interleaved
/// rounds with one core taken by other processes: 1 MiB 0.83-0.96; 2 MiB 0.79-0.91; 256 KiB
/// 0.75-0.82 (more hand-overs between the threads); the same thread reading 128 KiB and hashing
/// in turn 0.85-0.91.
pub const AHEAD_LEN: usize = 1 << 20;

/// The counters `onProgress` reads: bytes hashed so far, the file's size, and whether the job
/// completed.
pub struct Counters {
  bytes: AtomicU64,
  /// The size at open; [`UNKNOWN`] until then, and for files without one (pipes, devices).
  total: AtomicU64,
  /// Set on the main thread as the job completes (`Job::settle`, where a file job renames its
  /// output into place), before its promise settles.
  done: AtomicBool,
}

const UNKNOWN: u64 = u64::MAX;

impl Default for Counters {
  fn default() -> Self {
    Counters {
      bytes: AtomicU64::new(0),
      total: AtomicU64::new(UNKNOWN),
      done: AtomicBool::new(false),
    }
  }
}

impl Counters {
  #[inline]
  pub fn add(&self, n: usize) {
    self.bytes.fetch_add(n as u64, Ordering::Relaxed);
  }

  /// The size of the file being read, once it is open.
  pub fn set_total(&self, n: u64) {
    self.total.store(n, Ordering::Relaxed);
  }

  /// Marks the job completed (called from `Job::settle`, on the main thread).
  pub fn finish(&self) {
    self.done.store(true, Ordering::Relaxed);
  }
}

/// Progress of one `file()`, `encryptFile()` or `decryptFile()` call, polled from JavaScript (`bytes`, `total`) while the job runs
/// on the pool.
#[napi]
pub struct FileProgress {
  counters: Arc<Counters>,
}

impl FileProgress {
  /// The counters of `progress`, or new ones nobody reads.
  pub fn counters(progress: Option<&FileProgress>) -> Arc<Counters> {
    progress.map_or_else(Default::default, |p| p.counters.clone())
  }
}

#[napi]
impl FileProgress {
  #[napi(constructor)]
  #[allow(clippy::new_without_default)]
  pub fn new() -> Self {
    FileProgress {
      counters: Default::default(),
    }
  }

  /// Bytes read (and hashed, sealed or opened) so far.
  #[napi(getter)]
  pub fn bytes(&self) -> f64 {
    self.counters.bytes.load(Ordering::Relaxed) as f64
  }

  /// The file's size when it was opened; -1 before that, and for files that have none.
  #[napi(getter)]
  pub fn total(&self) -> f64 {
    match self.counters.total.load(Ordering::Relaxed) {
      UNKNOWN => -1.0,
      n => n as f64,
    }
  }

  /// True once the job completed on the main thread (its output renamed into place, or its
  /// failure known), before its Promise settles: no progress is reported after that.
  #[napi(getter)]
  pub fn done(&self) -> bool {
    self.counters.done.load(Ordering::Relaxed)
  }
}

/// A read buffer that wipes, when dropped, the part of it reads have written (file contents
/// may be secret, as staged inputs are).
pub struct ReadBuf {
  buf: Vec<u8>,
  used: usize,
}

impl ReadBuf {
  /// A buffer of `min(READ_LEN, hint)` bytes (at least 1): a small file gets a small buffer.
  pub fn new(hint: u64) -> Self {
    Self::with_len(hint.clamp(1, READ_LEN as u64) as usize)
  }

  fn with_len(n: usize) -> Self {
    ReadBuf {
      buf: vec![0; n],
      used: 0,
    }
  }

  /// The first `n` bytes (at most the buffer's length), to be written by a read.
  pub fn take(&mut self, n: usize) -> &mut [u8] {
    let n = n.min(self.buf.len());
    self.used = self.used.max(n);
    &mut self.buf[..n]
  }

  pub fn len(&self) -> usize {
    self.buf.len()
  }

  /// The first `n` bytes, as a read left them.
  pub fn filled(&self, n: usize) -> &[u8] {
    &self.buf[..n.min(self.used)]
  }
}

impl Drop for ReadBuf {
  fn drop(&mut self) {
    wipe(&mut self.buf[..self.used]);
  }
}

/// A failed system call as a node-style error (`code` = the name, `errno`, `syscall`).
pub fn sys_error(e: &io::Error, syscall: &'static str) -> CryptoError {
  use io::ErrorKind as K;
  // The name from the kind, for platforms whose OS numbers are not libuv's; on POSIX systems
  // the JS layer names the error from `errno` (node's own table), which covers every errno.
  let name = match e.kind() {
    K::NotFound => "ENOENT",
    K::PermissionDenied => "EACCES",
    K::IsADirectory => "EISDIR",
    K::NotADirectory => "ENOTDIR",
    K::InvalidFilename => "ENAMETOOLONG",
    K::InvalidInput => "EINVAL",
    K::ResourceBusy => "EBUSY",
    K::OutOfMemory => "ENOMEM",
    _ => "EIO",
  };
  let errno = if cfg!(unix) {
    e.raw_os_error().map_or(0, |n| -n)
  } else {
    0
  };
  let mut err = CryptoError::new(Code::System, format!("{name}: {e}, {syscall}"));
  err.sys = Some(Box::new(SysError {
    name,
    errno,
    syscall,
  }));
  err
}

/// One `read` into the whole of `buf` (retried when interrupted by a signal); 0 at the end.
fn read_into(mut file: &File, buf: &mut ReadBuf) -> io::Result<usize> {
  let len = buf.len();
  loop {
    match file.read(buf.take(len)) {
      Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
      r => return r,
    }
  }
}

/// Reads `file` to its end, handing every piece to `consume`, checking `cancel` before every read.
fn read_all(
  file: &File,
  size: Option<u64>,
  cancel: &Cancel,
  progress: &Counters,
  consume: &mut dyn FnMut(&[u8]) -> CryptoResult<()>,
) -> CryptoResult<()> {
  // One byte more than the size, so a regular file ends with one read returning 0.
  let mut buf = ReadBuf::new(size.map_or(READ_LEN as u64, |n| n.saturating_add(1)));
  loop {
    cancel.check()?;
    match read_into(file, &mut buf) {
      Ok(0) => return Ok(()),
      Ok(n) => {
        consume(buf.filled(n))?;
        progress.add(n);
      }
      Err(e) => return Err(sys_error(&e, "read")),
    }
  }
}

/// Files from this size on are read ahead by a helper thread (below, starting it costs more
/// than the copies it takes off the hashing thread).
const READ_AHEAD_MIN: u64 = 1 << 20;

/// As [`read_all`], with the reads on a helper thread, one buffer ahead of `consume`: the
/// kernel's copy out of the page cache then runs on another core, beside the work instead of
/// before it. The helper is a scoped thread of this job (a pool shared with other work could
/// leave the reads queued behind it); it stops when this side drops its channels.
fn read_ahead(
  file: &File,
  cancel: &Cancel,
  progress: &Counters,
  consume: &mut dyn FnMut(&[u8]) -> CryptoResult<()>,
) -> CryptoResult<()> {
  // Buffers: one being hashed, one filled and waiting, one being filled.
  let (full_tx, full) = mpsc::sync_channel::<io::Result<(ReadBuf, usize)>>(1);
  let (empty, empty_rx) = mpsc::sync_channel::<ReadBuf>(3);
  for _ in 0..3 {
    let _ = empty.send(ReadBuf::with_len(AHEAD_LEN));
  }
  std::thread::scope(|scope| {
    let reader = move || {
      for mut buf in empty_rx {
        let r = read_into(file, &mut buf);
        let last = !matches!(r, Ok(n) if n > 0);
        if full_tx.send(r.map(|n| (buf, n))).is_err() || last {
          return;
        }
      }
    };
    if std::thread::Builder::new()
      .name("cryptographer-read".into())
      .spawn_scoped(scope, reader)
      .is_err()
    {
      // No thread to spare (a limit on threads): read and hash in turn, from the start.
      return read_all(file, None, cancel, progress, consume);
    }
    let consumed = (|| loop {
      cancel.check()?;
      match full.recv() {
        Ok(Ok((_, 0))) => return Ok(()),
        Ok(Ok((buf, n))) => {
          consume(buf.filled(n))?;
          progress.add(n);
          let _ = empty.send(buf);
        }
        Ok(Err(e)) => return Err(sys_error(&e, "read")),
        Err(_) => return Err(CryptoError::internal()),
      }
    })();
    // The helper ends at its next channel operation, before the scope joins it.
    drop(full);
    drop(empty);
    consumed
  })
}

/// Reads `file` from where it stands to its end (`size`: the bytes left, when known), handing
/// every piece to `consume`, on a read-ahead thread for 1 MiB and more.
pub fn read_chunks(
  file: &File,
  size: Option<u64>,
  cancel: &Cancel,
  progress: &Counters,
  mut consume: impl FnMut(&[u8]) -> CryptoResult<()>,
) -> CryptoResult<()> {
  if size.is_some_and(|n| n >= READ_AHEAD_MIN) {
    read_ahead(file, cancel, progress, &mut consume)
  } else {
    read_all(file, size, cancel, progress, &mut consume)
  }
}

/// `open` failed. A directory is `EISDIR` on every platform, as node reports it (Windows refuses
/// to open one at all, where POSIX systems fail the first read).
pub fn open_error(e: &io::Error, path: &std::path::Path) -> CryptoError {
  if !cfg!(unix) && std::fs::metadata(path).is_ok_and(|m| m.is_dir()) {
    let mut err = sys_error(&io::Error::from(io::ErrorKind::IsADirectory), "read");
    err.message = "EISDIR: illegal operation on a directory, read".into();
    return err;
  }
  sys_error(e, "open")
}

/// The path argument (a string, or a Buffer of the OS's bytes), copied.
///
/// The WebAssembly build refuses every path: its files would go through WASI preopens (the loader
/// maps the whole filesystem), whose errors, cancellation and progress differ from the native
/// build's, so the file functions are left to the native binaries there.
pub fn path_arg(env: &Env, v: &Unknown<'_>) -> CryptoResult<PathBuf> {
  if cfg!(target_family = "wasm") {
    return Err(CryptoError::new(
      Code::Unavailable,
      "The file functions (file, fileSync, encryptFile, decryptFile) are unavailable in the \
       WebAssembly build of cryptographer.js: read the file in JavaScript and pass its bytes or a \
       stream, or install a native binary",
    ));
  }
  let bytes = js::read_arg(env, v, "path")?;
  #[cfg(unix)]
  {
    use std::os::unix::ffi::OsStrExt;
    Ok(std::ffi::OsStr::from_bytes(bytes.as_slice()).into())
  }
  #[cfg(not(unix))]
  {
    let s = std::str::from_utf8(bytes.as_slice())
      .map_err(|_| CryptoError::invalid_value("path", "UTF-8 text", "invalid UTF-8"))?;
    Ok(PathBuf::from(s))
  }
}
