//! Files through a streaming format, natively on the libuv pool: `encryptFile(src, dst)` and
//! `decryptFile(src, dst)` read `src`, seal or open it segment by segment, and write `dst`. No
//! byte of either file passes through JavaScript.
//!
//! The pipeline is generic over the format ([`Format`]): the library's streaming AEAD
//! (`aead_stream.rs`) is one; age's payload can be another. A format says how many bytes
//! of the input it reads first ([`Format::head_len`]: a header to parse, or none), and, given
//! them, returns what to write before anything else (a header to emit), how many of those bytes
//! it consumed, and its [`Body`]: the state machine that turns the rest of the input, in pieces of
//! any size, into output (`stream.rs`'s `Sealer` / `Opener`, which release plaintext only
//! after its tag verified).
//!
//! - Reading is `file_io.rs`'s (the read-ahead thread and wiped buffers of `X.file()`, the same
//!   progress counters and node-style errors). The cancel token is checked before every segment,
//!   so `signal` stops the job within one segment.
//! - The output goes to a temporary file beside `dst` (same directory, so the same file system),
//!   created exclusively with mode 0600, renamed over `dst` only after the body finished, that
//!   is after the last segment was sealed or verified. The rename replaces the directory entry
//!   `dst` with a new file: an existing file's mode, owner and other hard links are not carried
//!   over, and a symlink at `dst` is replaced, never written through (its target is not opened:
//!   a link planted where an output goes cannot redirect it onto another file). The rename happens when the job settles,
//!   on the main thread, after a last look at the cancel token: an abort JavaScript made before
//!   then rejects with `ABORT_ERR` and leaves no `dst` (even when the pool thread had finished),
//!   one made after it leaves the result standing, so a rejection never hides a written `dst`
//!   and a fulfilment always means one. On any failure or abort the temporary file is removed
//!   ([`TempFile`]'s `Drop`), so no `dst` and no temporary file remain, and an existing `dst` is
//!   untouched. The file is not `fsync`ed (as node's streams do not): a crash can lose the
//!   renamed file's data, never expose a partly verified plaintext under `dst`'s name.

use std::fs::{self, File};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use zeroize::Zeroizing;

use super::{Begun, Body, Format, Sink};
use crate::error::{CryptoError, CryptoResult};
use crate::file_io::{
  open_error, path_arg, read_chunks, sys_error, Counters, FileProgress, AHEAD_LEN,
};
use crate::task::{Cancel, Job, Output};

/// The output file while it is written: removed when dropped unless [`TempFile::commit`] renamed
/// it over the destination.
pub struct TempFile {
  path: PathBuf,
  file: Option<File>,
}

/// Checks `dst` before any work: the output replaces the directory entry `dst` itself. A missing
/// path, a regular file or a symlink is replaced (a symlink by the new file: its target is never
/// opened, so neither its content nor its mode changes); a directory is `EISDIR`; a device, pipe
/// or socket is refused (renaming a file over `/dev/null` would replace the device node): the
/// Transforms are for those.
fn check_destination(dst: &Path) -> CryptoResult<()> {
  match fs::symlink_metadata(dst) {
    Ok(m) if m.is_dir() => {
      let e = sys_error(&io::Error::from(io::ErrorKind::IsADirectory), "open");
      Err(CryptoError {
        message: "EISDIR: illegal operation on a directory, open".into(),
        ..e
      })
    }
    Ok(m) if !m.is_file() && !m.file_type().is_symlink() => Err(CryptoError::invalid_value(
      "dst",
      "a regular file (the output is written beside it and renamed over it; use the stream forms for devices and pipes)",
      dst.display(),
    )),
    _ => Ok(()),
  }
}

impl TempFile {
  /// A new file `.<dst's name>.<16 hex>.tmp` beside `dst` (a [`check_destination`]ed path),
  /// created exclusively with mode 0600 (on Unix; the umask can only remove more).
  fn beside(dst: &Path) -> CryptoResult<TempFile> {
    let name = dst
      .file_name()
      .ok_or_else(|| CryptoError::invalid_value("dst", "a file path", dst.display()))?
      .to_string_lossy();
    let name: String = name.chars().take(64).collect();
    let dir = dst.parent().unwrap_or(Path::new(""));
    let mut last = None;
    for _ in 0..8 {
      let mut r = [0u8; 8];
      crate::random::fill(&mut r)?;
      let tag: String = r.iter().map(|b| format!("{b:02x}")).collect();
      let path = dir.join(format!(".{name}.{tag}.tmp"));
      let mut options = fs::OpenOptions::new();
      options.write(true).create_new(true);
      #[cfg(unix)]
      std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
      match options.open(&path) {
        Ok(file) => {
          return Ok(TempFile {
            path,
            file: Some(file),
          })
        }
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last = Some(e),
        Err(e) => return Err(sys_error(&e, "open")),
      }
    }
    Err(sys_error(
      &last.unwrap_or_else(|| io::ErrorKind::AlreadyExists.into()),
      "open",
    ))
  }

  fn write(&mut self, bytes: &[u8]) -> CryptoResult<()> {
    let file = self.file.as_mut().ok_or_else(CryptoError::internal)?;
    file.write_all(bytes).map_err(|e| sys_error(&e, "write"))
  }

  /// Closes the file and renames it over `dst`.
  fn commit(mut self, dst: &Path) -> CryptoResult<()> {
    drop(self.file.take());
    fs::rename(&self.path, dst).map_err(|e| sys_error(&e, "rename"))?;
    self.path = PathBuf::new();
    Ok(())
  }
}

impl Drop for TempFile {
  fn drop(&mut self) {
    drop(self.file.take());
    if !self.path.as_os_str().is_empty() {
      let _ = fs::remove_file(&self.path);
    }
  }
}

/// The body's output on its way to the temporary file: segments smaller than a read are gathered
/// into one write per read's worth (`AHEAD_LEN`); a larger segment is written straight from the
/// body's own buffer. The gathering buffer never grows past its capacity (so it is never moved),
/// and holds plaintext when decrypting: wiped when dropped.
struct FileSink<'a> {
  tmp: &'a mut TempFile,
  gathered: Zeroizing<Vec<u8>>,
  written: u64,
}

impl FileSink<'_> {
  fn flush(&mut self) -> CryptoResult<()> {
    self.tmp.write(&self.gathered)?;
    self.written += self.gathered.len() as u64;
    self.gathered.clear();
    Ok(())
  }
}

impl Sink for FileSink<'_> {
  fn put(&mut self, bytes: &[u8]) -> CryptoResult<()> {
    if self.gathered.len() + bytes.len() > self.gathered.capacity() {
      self.flush()?;
    }
    if bytes.len() >= self.gathered.capacity() {
      self.tmp.write(bytes)?;
      self.written += bytes.len() as u64;
    } else {
      self.gathered.extend_from_slice(bytes);
    }
    Ok(())
  }
}

/// Reads until `buf` is full or the file ends; returns the bytes read.
fn read_head(mut file: &File, buf: &mut [u8]) -> CryptoResult<usize> {
  let mut n = 0;
  while n < buf.len() {
    match file.read(&mut buf[n..]) {
      Ok(0) => break,
      Ok(k) => n += k,
      Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
      Err(e) => return Err(sys_error(&e, "read")),
    }
  }
  Ok(n)
}

/// One file through a format, on the pool. Resolves to the number of bytes written to `dst`.
pub struct FileJob<F: Format> {
  pub format: Option<F>,
  pub src: PathBuf,
  pub dst: PathBuf,
  pub progress: Arc<Counters>,
  /// The finished output, once `run` succeeded (`settle` renames it over `dst`).
  pub done: Option<TempFile>,
}

impl<F: Format> FileJob<F> {
  /// The job of `format` from the JS paths `src` to `dst`, reporting to `progress`.
  pub fn new(
    env: &napi::Env,
    format: F,
    src: &napi::bindgen_prelude::Unknown<'_>,
    dst: &napi::bindgen_prelude::Unknown<'_>,
    progress: Option<&FileProgress>,
  ) -> CryptoResult<Self> {
    Ok(FileJob {
      format: Some(format),
      src: path_arg(env, src)?,
      dst: path_arg(env, dst)?,
      progress: FileProgress::counters(progress),
      done: None,
    })
  }
}

impl<F: Format> Job for FileJob<F> {
  fn run(&mut self, cancel: &Cancel) -> CryptoResult<Output> {
    let src = File::open(&self.src).map_err(|e| open_error(&e, &self.src))?;
    check_destination(&self.dst)?;
    let format = self.format.as_ref().ok_or_else(CryptoError::internal)?;
    let mut head = Zeroizing::new(vec![0u8; format.head_len()]);
    let n = read_head(&src, &mut head)?;
    // Nothing so far needs undoing: the job may stop here to wait for memory, and run again.
    if let Some((what, bytes)) = format.memory(&head[..n]) {
      crate::budget::reserve(what, bytes)?;
    }
    let format = self.format.take().ok_or_else(CryptoError::internal)?;
    let size = src.metadata().ok().filter(|m| m.is_file()).map(|m| m.len());
    if let Some(n) = size {
      self.progress.set_total(n);
    }
    self.progress.add(n);
    let mut tmp = TempFile::beside(&self.dst)?;
    let Begun {
      lead,
      consumed,
      mut body,
    } = format.begin(&head[..n], cancel)?;
    let piece = body.piece_len().max(1);
    let mut out = FileSink {
      tmp: &mut tmp,
      gathered: Zeroizing::new(Vec::with_capacity(AHEAD_LEN)),
      written: 0,
    };
    out.put(&lead)?;
    // The rest of the head (up to a read's worth: age reads 1 MiB ahead for its header), then
    // each read, a segment between two looks at the cancel token.
    let mut step = |input: &[u8]| -> CryptoResult<()> {
      for p in input.chunks(piece) {
        cancel.check()?;
        body.push(p, &mut out)?;
      }
      Ok(())
    };
    step(&head[consumed..n])?;
    read_chunks(
      &src,
      size.map(|s| s.saturating_sub(n as u64)),
      cancel,
      &self.progress,
      &mut step,
    )?;
    cancel.check()?;
    body.finish(&mut out)?;
    out.flush()?;
    let written = out.written;
    self.done = Some(tmp);
    Ok(Output::Number(written as f64))
  }

  fn settle(&mut self, _env: &napi::Env, cancel: &Cancel) -> CryptoResult<()> {
    self.progress.finish();
    match self.done.take() {
      // Aborted after the last segment: the temporary file is removed as it drops.
      Some(_) if cancel.is_cancelled() => Err(crate::task::aborted()),
      Some(tmp) => tmp.commit(&self.dst),
      None => Ok(()),
    }
  }
}
