//! `X.file(path)` / `X.fileSync(path)`: a file hashed (or HMACed) by native code, on the libuv
//! pool for the async form. No byte of the file passes through JavaScript.
//!
//! The reading (read-ahead thread, reused wiped buffers, cancellation, progress counters,
//! node-style errors) is `file_io.rs`, shared with the streaming AEAD's files. BLAKE3 hashes
//! regular files larger than 1 MiB on several cores (`blake3_tree.rs`).

use std::fs::File;
use std::path::PathBuf;
use std::sync::Arc;

use napi::bindgen_prelude::{AsyncTask, Unknown};
use napi::Env;
use napi_derive::napi;

use super::api::{digest_output, known_alg, Engine, HashOptions};
use super::blake3_tree::{self, TreeMode};
use super::core::{HashCore, Hmac};
use super::list::{Alg, State};
use crate::error::{CryptoError, CryptoResult, OrThrow};
use crate::file_io::{open_error, path_arg, read_chunks, Counters, FileProgress};
use crate::js::{self, Cx};
use crate::task::{run_sync, Cancel, CancelToken, Job, Output, Work};

/// One file hashed on the pool (or on the calling thread for `fileSync`).
pub struct HashFileJob {
  path: PathBuf,
  engine: Option<Engine>,
  /// BLAKE3 only: how to hash a large file as a tree, on several cores.
  tree: Option<TreeMode>,
  progress: Arc<Counters>,
}

impl Job for HashFileJob {
  fn run(&mut self, cancel: &Cancel) -> CryptoResult<Output> {
    let mut engine = self.engine.take().ok_or_else(CryptoError::internal)?;
    let file = File::open(&self.path).map_err(|e| open_error(&e, &self.path))?;
    // The size of a regular file; none for pipes and devices (read to their end).
    let size = file
      .metadata()
      .ok()
      .filter(|m| m.is_file())
      .map(|m| m.len());
    if let Some(n) = size {
      self.progress.set_total(n);
    }
    if let (Some(mode), Some(len)) = (&self.tree, size) {
      if let Some(out) = blake3_tree::hash(
        &file,
        len,
        mode,
        engine.output_len(),
        cancel,
        &self.progress,
      ) {
        return out;
      }
    }
    read_chunks(&file, size, cancel, &self.progress, |piece| {
      engine.update(piece);
      Ok(())
    })?;
    digest_output(engine)
  }

  fn settle(&mut self, _env: &Env, _cancel: &Cancel) -> CryptoResult<()> {
    self.progress.finish();
    Ok(())
  }
}

/// The job for `(alg, hmac, path, options)`: `options` is `{ key }` for an HMAC, else the hash's
/// `{ key, salt, personalization, context, outputLength }`. Options are read before the path.
fn job<'js>(
  env: &'js Env,
  alg: u32,
  hmac: bool,
  path: &Unknown<'js>,
  options: Option<&Unknown<'js>>,
  progress: Arc<Counters>,
) -> CryptoResult<HashFileJob> {
  let alg = known_alg(alg)?;
  let options = js::Object::new(env, options)?;
  let (engine, tree) = if hmac {
    let [key] = options.values([c"key"])?;
    let key = Cx::from(env).bytes(key, "key")?;
    (
      Engine::Hmac(Hmac::new(State::new(alg), key.as_slice())?),
      None,
    )
  } else {
    let opts = HashOptions::from_object(Cx::from(env), &options)?;
    let params = opts.params();
    let state = State::with_params(alg, &params)?;
    let tree = if alg == Alg::Blake3 {
      Some(TreeMode::new(&params)?)
    } else {
      None
    };
    (Engine::Hash(state), tree)
  };
  Ok(HashFileJob {
    path: path_arg(env, path)?,
    engine: Some(engine),
    tree,
    progress,
  })
}

/// `hashFile(alg, hmac, path, options?, token?, progress?)`: the digest of the file as a Buffer,
/// read and hashed on the libuv pool.
#[napi(ts_return_type = "Promise<Buffer>")]
pub fn hash_file<'js>(
  env: &'js Env,
  alg: u32,
  hmac: bool,
  path: Unknown<'js>,
  options: Option<Unknown<'js>>,
  token: Option<&CancelToken>,
  progress: Option<&FileProgress>,
) -> napi::Result<AsyncTask<Work<HashFileJob>>> {
  let counters = FileProgress::counters(progress);
  let job = job(env, alg, hmac, &path, options.as_ref(), counters).or_throw(env)?;
  Ok(Work::new(job, token))
}

/// `hashFileSync(alg, hmac, path, options?)`: as `hashFile`, on the calling thread.
#[napi(ts_return_type = "Buffer")]
pub fn hash_file_sync<'js>(
  env: &'js Env,
  alg: u32,
  hmac: bool,
  path: Unknown<'js>,
  options: Option<Unknown<'js>>,
) -> napi::Result<Unknown<'js>> {
  let job = job(env, alg, hmac, &path, options.as_ref(), Default::default()).or_throw(env)?;
  run_sync(env, job)
}
