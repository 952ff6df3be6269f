//! Argon2 (RFC 9106) on the `argon2-rust` crate: a port of the reference implementation with
//! run-time-dispatched AVX-512/AVX2/SSE2 block functions (the backend `@node-rs/argon2` uses).
//! Chosen by measurement over the `argon2` crate 0.6 (`parallel`), whose block function is
//! auto-vectorised AVX2 only: on this machine one lane of t=3, m=64 MiB took about 100 ms there
//! and about 57 ms here (see the report in the PR / README benchmark section).
//!
//! Speed and memory:
//! - Lanes run on parallel threads, as the reference implementation does, but the thread count
//!   adapts to load: `available cores / Argon2 jobs submitted and unfinished` (at least 1, at
//!   most p). One call alone uses every core (lowest latency); many concurrent calls (libuv
//!   runs up to 4) use one thread each, so the cores are never oversubscribed.
//! - The Argon2 memory (64 MiB at the default cost) lives in a small pool of reused arenas,
//!   cancellable hashes included:
//!   allocating and first-touching 64 MiB costs about 55 ms here, longer than half a hash. The
//!   crate wipes the memory after every hash (`zeroize-memory`), at most
//!   `UV_THREADPOOL_SIZE + 1` arenas are kept, and arenas idle for 5 s are freed by a
//!   janitor thread that exits once the pool is empty, so RSS stays bounded and an idle
//!   process gives the memory back.
//! - Every arena is leased from the process's memory budget (`crate::budget`) when it is
//!   allocated and given back when it is freed; pooled arenas stay leased, and are freed when
//!   a lease would not fit otherwise.
//! - PHC strings (`$argon2id$v=19$m=..,t=..,p=..$salt$hash`) are encoded and parsed here;
//!   a malformed string given to `verify` is a `TypeError` (`ERR_INVALID_ARG_VALUE`).

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::OnceLock;

use argon2_rust::__internal::Workspace;
use argon2_rust::params::{Memory, TagLen};
use argon2_rust::{Algorithm, Version};
use napi::bindgen_prelude::Unknown;
use napi::Env;
use napi_derive::napi;
use zeroize::Zeroizing;

use super::{opt_secret, secret, Secret, MAX_KEY_LEN, PHC_B64};
use crate::arch::{argon2_in, Argon2Input};
use crate::budget::{self, Lease};
use crate::ct;
use crate::error::{Code, CryptoError, CryptoResult, OrThrow};
use crate::pool::{IdlePool, Pooled};
use crate::task::{aborted, twins, Cancel, Job, Output};

/// Arenas larger than this (1 GiB) are never pooled.
const MAX_POOLED_BLOCKS: usize = 1 << 20;

/// Everything that determines an Argon2 tag except the password and secret.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Argon2Params {
  pub algorithm: Algorithm,
  pub version: Version,
  /// Memory in KiB, ≥ 8·p.
  pub m: u32,
  /// Passes, ≥ 1.
  pub t: u32,
  /// Lanes, 1..2^24-1.
  pub p: u32,
  pub salt: Vec<u8>,
  pub ad: Vec<u8>,
  pub key_length: u32,
}

/// The variants by the id the JS layer passes (`variant` of [`Argon2Options`]), with their PHC
/// names.
pub const VARIANTS: [(Algorithm, &str); 3] = [
  (Algorithm::Argon2d, "argon2d"),
  (Algorithm::Argon2i, "argon2i"),
  (Algorithm::Argon2id, "argon2id"),
];

/// The versions, the default (and the only one written by default) first.
pub const VERSIONS: [(Version, u32); 2] = [(Version::V0x13, 0x13), (Version::V0x10, 0x10)];

fn algorithm(id: u32) -> CryptoResult<Algorithm> {
  VARIANTS
    .get(id as usize)
    .map(|&(a, _)| a)
    .ok_or_else(|| CryptoError::invalid_value("variant", "'id', 'i' or 'd'", id))
}

fn version(v: u32) -> CryptoResult<Version> {
  VERSIONS
    .iter()
    .find(|&&(_, n)| n == v)
    .map(|&(version, _)| version)
    .ok_or_else(|| CryptoError::invalid_value("version", "19 (0x13) or 16 (0x10)", v))
}

impl Argon2Params {
  /// Range checks with the JS option names (RangeError `ERR_OUT_OF_RANGE`).
  pub fn check(&self) -> CryptoResult<()> {
    super::check_range("timeCost", self.t, 1, u32::MAX)?;
    super::check_range("parallelism", self.p, 1, 0xFF_FFFF)?;
    if u64::from(self.m) < 8 * u64::from(self.p) {
      return Err(CryptoError::out_of_range(
        "memoryCost",
        format!(">= 8 * parallelism = {} (KiB)", 8 * u64::from(self.p)),
        self.m,
      ));
    }
    super::check_range("keyLength", self.key_length, 4, MAX_KEY_LEN)?;
    if self.salt.len() < 8 || self.salt.len() > u32::MAX as usize {
      return Err(CryptoError::out_of_range(
        "salt.length",
        ">= 8 bytes",
        self.salt.len(),
      ));
    }
    if self.ad.len() > u32::MAX as usize {
      return Err(CryptoError::out_of_range(
        "associatedData.length",
        "< 2^32 bytes",
        self.ad.len(),
      ));
    }
    Ok(())
  }

  /// The most working memory a hash with these parameters takes, in bytes (m KiB; Argon2 rounds
  /// m down to a multiple of 4·p blocks): what a job reserves of the memory budget before it
  /// hashes.
  pub fn memory(&self) -> u64 {
    u64::from(self.m) * 1024
  }

  fn variant_name(&self) -> &'static str {
    match self.algorithm {
      Algorithm::Argon2d => "argon2d",
      Algorithm::Argon2i => "argon2i",
      _ => "argon2id",
    }
  }

  /// The PHC string for `tag`.
  pub fn encode(&self, tag: &[u8]) -> String {
    let mut s = format!(
      "${}$v={}$m={},t={},p={}",
      self.variant_name(),
      self.version.as_u32(),
      self.m,
      self.t,
      self.p
    );
    if !self.ad.is_empty() {
      s.push_str(",data=");
      s.push_str(&PHC_B64.encode(&self.ad));
    }
    s.push('$');
    s.push_str(&PHC_B64.encode(&self.salt));
    s.push('$');
    s.push_str(&PHC_B64.encode(tag));
    s
  }
}

/// The longest PHC string `parse` reads (bounds the salt, tag and data it decodes).
pub const MAX_PHC_LEN: usize = 4096;

/// Default ceilings for parameters read from a stored hash. They accept every setting RFC 9106
/// and OWASP recommend (m = 2 GiB t = 1; m = 64 MiB t = 3; m = 19 MiB t = 2; libsodium's
/// "sensitive" t = 4..8) and refuse the rest before any work: one string with t = 2^32 - 1 would
/// otherwise pin a core for hours.
pub const DEFAULT_MAX_MEMORY_COST: u32 = 2 << 20;
pub const DEFAULT_MAX_TIME_COST: u32 = 10;
pub const DEFAULT_MAX_PARALLELISM: u32 = 64;

/// Ceilings on the parameters of a stored (untrusted) PHC string; absent fields take the
/// defaults above.
#[napi(object)]
#[derive(Default)]
pub struct Argon2Limits {
  /// Largest memoryCost (KiB) accepted; default 2097152 (2 GiB).
  pub max_memory_cost: Option<u32>,
  /// Largest timeCost accepted; default 10.
  pub max_time_cost: Option<u32>,
  /// Largest parallelism accepted; default 64.
  pub max_parallelism: Option<u32>,
}

impl Argon2Limits {
  /// `ERR_OUT_OF_RANGE` naming the parameter and the option that would allow it.
  fn check(&self, p: &Argon2Params) -> CryptoResult<()> {
    self.check_for(p, "for a stored hash")
  }

  /// As `check`, for parameters read from `place` ("for a stored hash").
  pub fn check_for(&self, p: &Argon2Params, place: &str) -> CryptoResult<()> {
    let limits = [
      (
        "memoryCost",
        p.m,
        self.max_memory_cost,
        DEFAULT_MAX_MEMORY_COST,
        "maxMemoryCost",
      ),
      (
        "timeCost",
        p.t,
        self.max_time_cost,
        DEFAULT_MAX_TIME_COST,
        "maxTimeCost",
      ),
      (
        "parallelism",
        p.p,
        self.max_parallelism,
        DEFAULT_MAX_PARALLELISM,
        "maxParallelism",
      ),
    ];
    for (name, value, max, default, option) in limits {
      let max = max.unwrap_or(default);
      if value > max {
        return Err(CryptoError::out_of_range(
          name,
          format!("<= {max} {place} (raise options.{option} to accept it)"),
          value,
        ));
      }
    }
    Ok(())
  }
}

/// [`parse`], then the ceilings: what every entry point that reads a stored string uses.
pub fn parse_bounded(phc: &str, limits: &Argon2Limits) -> CryptoResult<(Argon2Params, Vec<u8>)> {
  let parsed = parse(phc)?;
  limits.check(&parsed.0)?;
  Ok(parsed)
}

fn malformed(why: impl std::fmt::Display) -> CryptoError {
  CryptoError::new(
    Code::InvalidArgValue,
    format!("The argument \"hash\" is invalid: expected a PHC string $argon2{{id,i,d}}$v=19$m=<KiB>,t=<passes>,p=<lanes>$<salt>$<hash>. {why}"),
  )
}

fn number(s: &str, what: &str) -> CryptoResult<u32> {
  if s.is_empty()
    || s.len() > 10
    || !s.bytes().all(|c| c.is_ascii_digit())
    || (s.len() > 1 && s.starts_with('0'))
  {
    return Err(malformed(format_args!("Received {what}={s}")));
  }
  s.parse::<u32>()
    .map_err(|_| malformed(format_args!("Received {what}={s}")))
}

/// Parses a PHC string into its parameters and tag. Everything malformed, including values
/// Argon2 cannot have (m < 8p, salt < 8 bytes, tag < 4 bytes), is `ERR_INVALID_ARG_VALUE`.
pub fn parse(phc: &str) -> CryptoResult<(Argon2Params, Vec<u8>)> {
  if phc.len() > MAX_PHC_LEN {
    return Err(malformed(format_args!(
      "Received a string of {} characters (at most {MAX_PHC_LEN})",
      phc.len()
    )));
  }
  let mut parts = phc.split('$');
  if parts.next() != Some("") {
    return Err(malformed("Received a string that does not start with '$'"));
  }
  let algorithm = match parts.next() {
    Some("argon2id") => Algorithm::Argon2id,
    Some("argon2i") => Algorithm::Argon2i,
    Some("argon2d") => Algorithm::Argon2d,
    other => {
      return Err(malformed(format_args!(
        "Received the algorithm {:?}",
        other.unwrap_or("")
      )))
    }
  };
  let mut field = parts
    .next()
    .ok_or_else(|| malformed("Received no parameters"))?;
  let mut version = Version::V0x10; // no "v=" means version 16 (reference implementation)
  if let Some(v) = field.strip_prefix("v=") {
    version = match number(v, "v")? {
      16 => Version::V0x10,
      19 => Version::V0x13,
      n => return Err(malformed(format_args!("Received the version {n}"))),
    };
    field = parts
      .next()
      .ok_or_else(|| malformed("Received no parameters"))?;
  }
  // m, t, p (any order: the reference writes m,t,p; some libraries sort them), then the
  // optional data=; each at most once.
  let (mut m, mut t, mut p, mut ad) = (None, None, None, None);
  for kv in field.split(',') {
    let (k, v) = kv
      .split_once('=')
      .ok_or_else(|| malformed(format_args!("Received the parameter {kv:?}")))?;
    let slot = match k {
      "m" => &mut m,
      "t" => &mut t,
      "p" => &mut p,
      "data" if ad.is_none() => {
        ad = Some(
          PHC_B64
            .decode(v)
            .map_err(|e| malformed(format_args!("Received data= {}", e.what())))?,
        );
        continue;
      }
      "keyid" => return Err(malformed("Received a keyid parameter (not supported)")),
      _ => return Err(malformed(format_args!("Received the parameter {kv:?}"))),
    };
    if slot.is_some() {
      return Err(malformed(format_args!("Received {k}= twice")));
    }
    *slot = Some(number(v, k)?);
  }
  let (Some(m), Some(t), Some(p)) = (m, t, p) else {
    return Err(malformed("Received parameters without all of m, t and p"));
  };
  let ad = ad.unwrap_or_default();
  let salt = parts.next().ok_or_else(|| malformed("Received no salt"))?;
  let tag = parts.next().ok_or_else(|| malformed("Received no hash"))?;
  if parts.next().is_some() {
    return Err(malformed("Received extra '$' fields"));
  }
  let salt = PHC_B64
    .decode(salt)
    .map_err(|e| malformed(format_args!("Received a salt {}", e.what())))?;
  let tag = PHC_B64
    .decode(tag)
    .map_err(|e| malformed(format_args!("Received a hash {}", e.what())))?;
  let params = Argon2Params {
    algorithm,
    version,
    m,
    t,
    p,
    salt,
    ad,
    key_length: u32::try_from(tag.len()).unwrap_or(u32::MAX),
  };
  params.check().map_err(|e| malformed(e.message))?;
  Ok((params, tag))
}

// ---- memory and threads ---------------------------------------------------------------------

/// A reusable Argon2 arena (the crate's workspace, sized in 1 KiB blocks, wiped after every
/// hash), with the memory budget's lease for it: pooled arenas stay counted in the budget until
/// they are freed.
struct Arena {
  workspace: Workspace,
  _lease: Lease,
}

impl Pooled for Arena {
  fn size(&self) -> usize {
    self.workspace.capacity()
  }
}

static ARENAS: IdlePool<Arena> = IdlePool::new("cryptographer-argon2-janitor", MAX_POOLED_BLOCKS);

/// Frees the idle arenas, and so their leases: run by the budget when a lease does not fit.
fn free_idle_arenas() {
  ARENAS.clear();
}

/// The smallest pooled arena of at least `need` blocks (so a one-off large hash's arena goes
/// idle and is freed), or a new one under a new lease of the memory budget (allocated by the
/// hash).
fn take(need: usize) -> CryptoResult<Arena> {
  match ARENAS.take(need, false) {
    Some(arena) => {
      // Its memory has its own lease: what the job reserved for a new one goes back.
      budget::unreserve();
      Ok(arena)
    }
    None => Ok(Arena {
      _lease: budget::lease("Argon2", need as u64 * 1024)?,
      workspace: Workspace::new(),
    }),
  }
}

/// Returns an arena (its memory already wiped by the crate) to the pool, or frees it: always
/// when calls wait for memory, which then goes to them.
fn give_back(arena: Arena) {
  if arena.workspace.capacity() > MAX_POOLED_BLOCKS {
    return;
  }
  budget::BUDGET.on_short(free_idle_arenas);
  ARENAS.give_back(arena);
  // Checked after pooling: a call that starts waiting meanwhile frees the idle arenas itself
  // once it is queued (`Budget::wait`), so one of the two sees the other.
  if budget::BUDGET.figures().waiting > 0 {
    free_idle_arenas();
  }
}

/// Argon2 jobs submitted and not yet finished (queued async ones included), which decides how
/// many threads one hash may use. Counting at submission matters: 8 calls made in one tick are
/// all counted before the first one starts, so none of them takes every core.
static LOAD: AtomicUsize = AtomicUsize::new(0);

/// Held by every Argon2 job from creation to drop.
pub struct Load(());

impl Load {
  pub fn new() -> Load {
    LOAD.fetch_add(1, Ordering::AcqRel);
    Load(())
  }
}

impl Drop for Load {
  fn drop(&mut self) {
    LOAD.fetch_sub(1, Ordering::AcqRel);
  }
}

fn cores() -> u32 {
  static N: OnceLock<u32> = OnceLock::new();
  *N.get_or_init(|| {
    std::thread::available_parallelism()
      .map_or(1, |n| n.get())
      .min(64) as u32
  })
}

/// Hashes whose block work (memory × passes) exceeds this many KiB stop between passes once
/// cancelled, when they can be (async calls): 512 MiB of block passes (64 MiB x 8 took 168 ms on
/// one lane, 99 ms on four, on an AMD EPYC Zen 4 VM with AVX-512). Smaller ones are not
/// interrupted: they end within that.
const CANCELLABLE_WORK: u64 = 1 << 19;

/// Argon2 hashes started by this process, by every caller: what shows that a key derived once
/// seals many messages with one hash (`argon2Runs()`, read by the tests and the benchmark).
static RUNS: AtomicU64 = AtomicU64::new(0);

/// `argon2Runs()`: the number of Argon2 hashes this process has started.
#[napi]
pub fn argon2_runs() -> f64 {
  RUNS.load(Ordering::Relaxed) as f64
}

/// Computes the tag into `out` (`params.key_length` bytes). Long async hashes stop between
/// passes once `cancel` is cancelled ([`compute_cancellable`]).
pub fn compute(
  params: &Argon2Params,
  password: &[u8],
  secret: &[u8],
  out: &mut [u8],
  cancel: &Cancel,
) -> CryptoResult<()> {
  params.check()?;
  RUNS.fetch_add(1, Ordering::Relaxed);
  let load = LOAD.load(Ordering::Acquire).max(1) as u32;
  let threads = (cores() / load).clamp(1, params.p.min(cores()).max(1));
  let p = argon2_rust::Params::builder()
    .memory(Memory::kib(u64::from(params.m)))
    .passes(params.t)
    .lanes(params.p)
    .threads(threads)
    .tag_len(TagLen::bytes(out.len() as u64))
    .build()
    .map_err(|e| CryptoError::new(Code::OutOfRange, format!("Invalid Argon2 parameters: {e}")))?;
  let input = Argon2Input {
    algorithm: params.algorithm,
    version: params.version,
    password,
    salt: &params.salt,
    secret,
    ad: &params.ad,
  };
  let mut arena = take(p.memory_blocks() as usize)?;
  let result =
    if cancel.can_cancel() && u64::from(params.m) * u64::from(params.t) > CANCELLABLE_WORK {
      compute_cancellable(&mut arena.workspace, &p, &input, out, cancel)
    } else {
      argon2_in(&mut arena.workspace, &p, &input, out, None).map_err(failed)
    };
  give_back(arena);
  result
}

fn failed(e: argon2_rust::Error) -> CryptoError {
  CryptoError::new(Code::Operation, format!("Argon2 failed: {e}"))
}

/// The unwind payload that stops a cancelled hash.
struct Cancelled;

/// Argon2 through the crate's per-pass hook (`internal-api`, pinned to an exact version in
/// Cargo.toml because that API is unstable): after each pass, with every lane thread parked, the
/// hook checks `cancel` and unwinds out of the hash when it is set. The crate supports an
/// unwinding hook (it releases its lane threads, and the arena guard wipes the arena and parks
/// it in `workspace` on the way out, so the pooled arena serves the next hash);
/// `resume_unwind` raises no panic message.
fn compute_cancellable(
  workspace: &mut Workspace,
  p: &argon2_rust::Params,
  input: &Argon2Input<'_>,
  out: &mut [u8],
  cancel: &Cancel,
) -> CryptoResult<()> {
  use argon2_rust::__internal::Block;
  let mut at_pass_end = |_pass: u32, _arena: &[Block]| {
    if cancel.is_cancelled() {
      std::panic::resume_unwind(Box::new(Cancelled));
    }
  };
  let run =
    std::panic::AssertUnwindSafe(|| argon2_in(workspace, p, input, out, Some(&mut at_pass_end)));
  match std::panic::catch_unwind(run) {
    Ok(result) => result.map_err(failed),
    Err(payload) if payload.is::<Cancelled>() => Err(aborted()),
    Err(payload) => std::panic::resume_unwind(payload),
  }
}

pub struct HashJob {
  _load: Load,
  params: Argon2Params,
  password: Secret,
  secret: Secret,
  phc: bool,
}

impl Job for HashJob {
  fn run(&mut self, cancel: &Cancel) -> CryptoResult<Output> {
    cancel.check()?;
    let mut tag = Zeroizing::new(vec![0u8; self.params.key_length as usize]);
    compute(&self.params, &self.password, &self.secret, &mut tag, cancel)?;
    Ok(if self.phc {
      Output::Text(self.params.encode(&tag))
    } else {
      Output::Bytes(tag)
    })
  }
}

pub struct VerifyJob {
  _load: Load,
  params: Argon2Params,
  tag: Vec<u8>,
  password: Secret,
  secret: Secret,
}

impl Job for VerifyJob {
  fn run(&mut self, cancel: &Cancel) -> CryptoResult<Output> {
    cancel.check()?;
    let mut tag = Zeroizing::new(vec![0u8; self.tag.len()]);
    compute(&self.params, &self.password, &self.secret, &mut tag, cancel)?;
    Ok(Output::Bool(ct::eq(&tag, &self.tag)))
  }
}

/// The numeric options of `argon2()`, already defaulted by the JS layer.
#[napi(object)]
pub struct Argon2Options {
  /// 0 = argon2d, 1 = argon2i, 2 = argon2id.
  pub variant: u32,
  /// 19 (0x13, default) or 16 (0x10).
  pub version: u32,
  /// Memory in KiB.
  pub memory_cost: u32,
  pub time_cost: u32,
  pub parallelism: u32,
  /// Tag length in bytes.
  pub key_length: u32,
  /// Return the PHC string (true) or the raw tag (false).
  pub phc: bool,
}

fn hash_job(
  env: &Env,
  password: Unknown,
  salt: Option<Unknown>,
  secret_v: Option<Unknown>,
  ad: Option<Unknown>,
  o: Argon2Options,
) -> CryptoResult<HashJob> {
  let salt = match opt_secret(env, &salt, "salt")? {
    Some(s) => s.to_vec(),
    None => crate::random::bytes(16)?,
  };
  let params = Argon2Params {
    algorithm: algorithm(o.variant)?,
    version: version(o.version)?,
    m: o.memory_cost,
    t: o.time_cost,
    p: o.parallelism,
    salt,
    ad: opt_secret(env, &ad, "associatedData")?
      .map(|a| a.to_vec())
      .unwrap_or_default(),
    key_length: o.key_length,
  };
  params.check()?;
  Ok(HashJob {
    _load: Load::new(),
    params,
    password: secret(env, &password, "password")?,
    secret: opt_secret(env, &secret_v, "secret")?.unwrap_or_default(),
    phc: o.phc,
  })
}

fn verify_job(
  env: &Env,
  phc: String,
  password: Unknown,
  secret_v: Option<Unknown>,
  limits: Option<Argon2Limits>,
) -> CryptoResult<VerifyJob> {
  let (params, tag) = parse_bounded(&phc, &limits.unwrap_or_default())?;
  Ok(VerifyJob {
    _load: Load::new(),
    params,
    tag,
    password: secret(env, &password, "password")?,
    secret: opt_secret(env, &secret_v, "secret")?.unwrap_or_default(),
  })
}

twins! {
  #[doc = " Argon2 hash, synchronous (blocks the calling thread). Returns the PHC string or a Buffer."]
  #[napi]
  pub fn argon2_hash;
  #[doc = " Argon2 hash on the libuv pool (inputs copied first). `token` cancels queued work, and a"]
  #[doc = " long running hash between two passes ([`compute`])."]
  #[napi]
  pub fn argon2_hash_async;
  (
    env,
    password: Unknown,
    salt: Option<Unknown>,
    secret: Option<Unknown>,
    associated_data: Option<Unknown>,
    options: Argon2Options,
  ) -> HashJob {
    hash_job(env, password, salt, secret, associated_data, options)
  }
}

twins! {
  #[doc = " Checks `password` against a PHC string (constant-time compare of the tags). Parameters"]
  #[doc = " above `limits` are refused before any work."]
  #[napi]
  pub fn argon2_verify;
  #[doc = " `argon2Verify` on the libuv pool."]
  #[napi]
  pub fn argon2_verify_async;
  (
    env,
    phc: String,
    password: Unknown,
    secret: Option<Unknown>,
    limits: Option<Argon2Limits>,
  ) -> VerifyJob {
    verify_job(env, phc, password, secret, limits)
  }
}

/// The parameters of a PHC string (for `needsRehash`).
#[napi(object)]
pub struct Argon2Info {
  /// 'argon2id', 'argon2i' or 'argon2d'.
  pub variant: String,
  pub version: u32,
  pub memory_cost: u32,
  pub time_cost: u32,
  pub parallelism: u32,
  pub salt_length: u32,
  pub key_length: u32,
}

/// Parses a PHC string; malformed strings are a TypeError, parameters above `limits` a
/// RangeError.
#[napi]
pub fn argon2_parse(
  env: Env,
  phc: String,
  limits: Option<Argon2Limits>,
) -> napi::Result<Argon2Info> {
  let (p, tag) = parse_bounded(&phc, &limits.unwrap_or_default()).or_throw(&env)?;
  Ok(Argon2Info {
    variant: p.variant_name().to_string(),
    version: p.version.as_u32(),
    memory_cost: p.m,
    time_cost: p.t,
    parallelism: p.p,
    salt_length: p.salt.len() as u32,
    key_length: tag.len() as u32,
  })
}

#[cfg(test)]
mod tests {
  use super::*;

  #[test]
  fn reference_encoded_vector() {
    // phc-winner-argon2 test.c: argon2i v=19 m=65536 t=2 p=1 "password"/"somesalt".
    let phc =
      "$argon2i$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$wWKIMhR9lyDFvRz9YTZweHKfbftvj+qf+YFY4NeBbtA";
    let (params, tag) = parse(phc).unwrap();
    let mut out = vec![0u8; tag.len()];
    compute(&params, b"password", b"", &mut out, &Cancel::NEVER).unwrap();
    assert_eq!(out, tag);
    assert_eq!(params.encode(&out), phc);
    // Parameters in another order (as the `argon2` npm package writes them) parse the same.
    let sorted =
      "$argon2i$v=19$m=65536,p=1,t=2$c29tZXNhbHQ$wWKIMhR9lyDFvRz9YTZweHKfbftvj+qf+YFY4NeBbtA";
    assert_eq!(parse(sorted).unwrap().0, params);
  }

  #[test]
  fn malformed_phc() {
    for s in [
      "",
      "argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$wWKIMhR9lyDFvRz9YTZweHKfbftvj+qf+YFY4NeBbtA",
      "$argon2x$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$wWKIMhR9lyDFvRz9YTZweHKfbftvj+qf+YFY4NeBbtA",
      "$argon2i$v=18$m=65536,t=2,p=1$c29tZXNhbHQ$wWKIMhR9lyDFvRz9YTZweHKfbftvj+qf+YFY4NeBbtA",
      "$argon2i$v=19$m=65536,t=2$c29tZXNhbHQ$wWKIMhR9lyDFvRz9YTZweHKfbftvj+qf+YFY4NeBbtA",
      "$argon2i$v=19$t=2,m=65536,t=1$c29tZXNhbHQ$wWKIMhR9lyDFvRz9YTZweHKfbftvj+qf+YFY4NeBbtA",
      "$argon2i$v=19$m=65536,t=2,p=1,x=1$c29tZXNhbHQ$wWKIMhR9lyDFvRz9YTZweHKfbftvj+qf+YFY4NeBbtA",
      "$argon2i$v=19$m=4,t=2,p=1$c29tZXNhbHQ$wWKIMhR9lyDFvRz9YTZweHKfbftvj+qf+YFY4NeBbtA",
      "$argon2i$v=19$m=65536,t=0,p=1$c29tZXNhbHQ$wWKIMhR9lyDFvRz9YTZweHKfbftvj+qf+YFY4NeBbtA",
      "$argon2i$v=19$m=65536,t=2,p=1$c29tZQ$wWKIMhR9lyDFvRz9YTZweHKfbftvj+qf+YFY4NeBbtA",
      "$argon2i$v=19$m=65536,t=2,p=1$c29tZXNhbHQ",
      "$argon2i$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$wWKI!",
      "$argon2i$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$wWKIMhR9lyDFvRz9YTZweHKfbftvj+qf+YFY4NeBbtA$",
      "$argon2i$v=19$m=99999999999,t=2,p=1$c29tZXNhbHQ$wWKIMhR9lyDFvRz9YTZweHKfbftvj+qf+YFY4NeBbtA",
      "$argon2i$v=19$m=065536,t=2,p=1$c29tZXNhbHQ$wWKIMhR9lyDFvRz9YTZweHKfbftvj+qf+YFY4NeBbtA",
    ] {
      let e = parse(s).err().unwrap_or_else(|| panic!("accepted {s}"));
      assert_eq!(e.code, Code::InvalidArgValue, "{s}");
    }
  }
}
