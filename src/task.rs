//! The one async-task helper every expensive operation uses (KDFs, async hashing and ciphers).
//!
//! A [`Job`] is plain Rust work over owned inputs (the entry point copies everything out of the
//! JS heap before building it). [`Work`] runs it as a napi `AsyncTask` on the libuv thread pool
//! and turns its result, or its [`CryptoError`], into the JS value / JS error on the main thread.
//!
//! Cancellation is cooperative and lock-free: the JS layer creates a [`CancelToken`] when the
//! caller passes an `AbortSignal` and calls `cancel()` from the signal's `abort` listener.
//! - If the job has not started yet (still queued behind other work), `cancel()` returns true,
//!   the JS promise is rejected at once, and the worker skips the job when it dequeues it.
//! - If it is running, the job sees [`Cancel::is_cancelled`] at its next check (hashing every
//!   4 MiB, PBKDF2, scrypt and bcrypt every few milliseconds, Argon2 between passes when the hash
//!   is long: `kdf/argon2.rs`) and returns `ABORT_ERR`, which the JS layer turns into an
//!   `AbortError`.
//! - If it is waiting for memory (below), it leaves the budget's queue at once and its promise
//!   rejects with `ABORT_ERR`.
//! - The job completes on the main thread ([`Work`]'s `resolve`, where a file job renames its
//!   output into place: [`Job::settle`]). A cancellation requested before that rejects with
//!   `ABORT_ERR` even when the pool finished the work; after it, the result stands. So an abort
//!   and a completion are ordered on one thread, and the promise's outcome says which came first.
//!
//! Memory: a job whose Argon2 or scrypt memory does not fit in the process's budget
//! (`budget.rs`) stops before allocating, its pool thread goes back to libuv, and it waits in
//! the budget's queue ([`Waiting`]); its caller's promise then follows a second promise, settled
//! on the JS thread when the memory is granted, which runs the job again holding that memory. A
//! job runs again from the start, so everything it does before its memory is leased must be
//! repeatable (the file jobs lease it right after reading the header: `budget::reserve`).
//!
//! Timing: a token made `timed` (the JS layer does so while someone subscribes to the call's
//! diagnostics channel, `lib/diagnostics.js`) carries a [`Clock`]. Each job of the call stamps it
//! when it is queued, when a pool thread picks it, and when it finishes on the pool; the JS layer
//! reads the stamps once the promise settles (`times()`). Nothing crosses into JavaScript from
//! the pool for this, and an untimed call pays one `Option` check per stamp.
//!
//! `worker.terminate()` waits for a worker's queued and running jobs: Node drains pending
//! thread-pool work before it runs an environment's cleanup hooks (measured: a hook registered
//! with `napi_add_env_cleanup_hook` ran only after the work ended), so no hook can cancel them.
//! What bounds that wait is the callers' `signal` and the cost ceilings on stored hashes.

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};
use std::sync::Arc;
use std::time::Instant;

use napi::bindgen_prelude::{PromiseRaw, Unknown};
use napi::{AsyncWorkPromise, Env, JsDeferred, JsValue, ScopedTask};
use napi_derive::napi;
use zeroize::Zeroizing;

use crate::budget::{self, Lease};
use crate::error::{Code, CryptoError, CryptoResult};

const QUEUED: u8 = 0;
const RUNNING: u8 = 1;
const CANCELLED_BEFORE_START: u8 = 2;
const CANCEL_REQUESTED: u8 = 3;

/// The worker's view of a cancellation token (cheap to clone, checkable from any thread).
#[derive(Clone, Default)]
pub struct Cancel(Option<Arc<AtomicU8>>);

impl Cancel {
  /// A token that is never cancelled (sync calls, tests).
  pub const NEVER: Cancel = Cancel(None);

  /// True once the caller aborted. Cheap (one relaxed load): call it every few milliseconds.
  #[inline]
  pub fn is_cancelled(&self) -> bool {
    match &self.0 {
      Some(s) => s.load(Ordering::Relaxed) >= CANCELLED_BEFORE_START,
      None => false,
    }
  }

  /// True when something can cancel the job (an async call with a `signal`).
  #[inline]
  pub fn can_cancel(&self) -> bool {
    self.0.is_some()
  }

  /// `Err(ABORT_ERR)` when cancelled: `cancel.check()?` inside loops.
  #[inline]
  pub fn check(&self) -> CryptoResult<()> {
    if self.is_cancelled() {
      Err(aborted())
    } else {
      Ok(())
    }
  }

  /// Marks the job as started; false when it was cancelled while queued. The parts of one batch
  /// call (`crate::batch`) share a token: a part starting after another one (state already
  /// `RUNNING`) starts too, and once `cancel()` ran no part starts.
  fn start(&self) -> bool {
    match &self.0 {
      Some(s) => match s.compare_exchange(QUEUED, RUNNING, Ordering::AcqRel, Ordering::Acquire) {
        Ok(_) => true,
        Err(state) => state == RUNNING,
      },
      None => true,
    }
  }
}

pub fn aborted() -> CryptoError {
  CryptoError::new(Code::Aborted, "The operation was aborted")
}

/// When the jobs of one call were queued, first picked by a pool thread, and last finished there:
/// nanoseconds since the token was made, plus one (0: not yet). Written from any thread; read on
/// the JS thread after the call settled (libuv's completion orders the writes before that).
struct Clock {
  origin: Instant,
  queued: AtomicU64,
  running: AtomicU64,
  finished: AtomicU64,
}

impl Clock {
  fn new() -> Self {
    Clock {
      origin: Instant::now(),
      queued: AtomicU64::new(0),
      running: AtomicU64::new(0),
      finished: AtomicU64::new(0),
    }
  }

  fn now(&self) -> u64 {
    u64::try_from(self.origin.elapsed().as_nanos())
      .unwrap_or(u64::MAX - 1)
      .saturating_add(1)
  }

  /// Stamps `slot` unless an earlier job of the call did.
  fn first(&self, slot: &AtomicU64) {
    let _ = slot.compare_exchange(0, self.now(), Ordering::Relaxed, Ordering::Relaxed);
  }

  /// Stamps `slot` unless a later job of the call did.
  fn last(&self, slot: &AtomicU64) {
    slot.fetch_max(self.now(), Ordering::Relaxed);
  }

  /// Milliseconds since the token was made; NaN when not stamped.
  fn ms(slot: &AtomicU64) -> f64 {
    match slot.load(Ordering::Relaxed) {
      0 => f64::NAN,
      t => (t - 1) as f64 / 1e6,
    }
  }
}

/// The handle of one async call: cancellation for a caller's `signal` (created by the JS layer
/// when there is one), and the call's [`Clock`] when it is timed.
#[napi]
pub struct CancelToken {
  state: Arc<AtomicU8>,
  /// False for a token made only to time a call: its jobs get [`Cancel::NEVER`], so they run as
  /// a call without a signal does (Argon2 picks its uncancellable fill).
  cancellable: bool,
  clock: Option<Arc<Clock>>,
}

#[napi]
impl CancelToken {
  /// `cancellable` (default true): the caller passed a signal. `timed` (default false): stamp
  /// the call's jobs, for `times()`.
  #[napi(constructor)]
  #[allow(clippy::new_without_default)]
  pub fn new(cancellable: Option<bool>, timed: Option<bool>) -> Self {
    CancelToken {
      state: Arc::new(AtomicU8::new(QUEUED)),
      cancellable: cancellable.unwrap_or(true),
      clock: timed.unwrap_or(false).then(|| Arc::new(Clock::new())),
    }
  }

  /// `[queued, running, finished]`: milliseconds from the token's making to the first job's
  /// queueing, to the first pick of a job by a pool thread, and to the last job's end on the
  /// pool; NaN for what did not happen (or an untimed token).
  #[napi]
  pub fn times(&self) -> Vec<f64> {
    match &self.clock {
      Some(c) => vec![
        Clock::ms(&c.queued),
        Clock::ms(&c.running),
        Clock::ms(&c.finished),
      ],
      None => vec![f64::NAN; 3],
    }
  }

  /// Requests cancellation. Returns true when the job had not started (it never will, and the
  /// caller may settle the promise now); false when it is running or finished: the running job
  /// stops at its next check, and the promise rejects with `ABORT_ERR` unless the job already
  /// completed (its result was handed to JavaScript, a file renamed). For the parts of a
  /// batch: true when none had started (none will), else every part still queued or running
  /// rejects with `ABORT_ERR`.
  #[napi]
  pub fn cancel(&self) -> bool {
    match self.state.compare_exchange(
      QUEUED,
      CANCELLED_BEFORE_START,
      Ordering::AcqRel,
      Ordering::Acquire,
    ) {
      Ok(_) => true,
      Err(_) => {
        let was_running = self
          .state
          .compare_exchange(
            RUNNING,
            CANCEL_REQUESTED,
            Ordering::AcqRel,
            Ordering::Acquire,
          )
          .is_ok();
        if was_running {
          // It may be waiting for memory, off the pool: it leaves that queue now.
          budget::BUDGET.forget_cancelled();
        }
        false
      }
    }
  }
}

/// What a job produces; converted to a JS value on the main thread (`src/js/task.rs`).
pub enum Output {
  /// Secret bytes (wiped after they are copied into the JS Buffer).
  Bytes(Zeroizing<Vec<u8>>),
  /// Bytes handed to JS as they are (no copy): ciphertext, plaintext the caller asked for.
  Buffer(Vec<u8>),
  Text(String),
  Bool(bool),
  Number(f64),
  /// Native state made on the pool (a stream whose key took Argon2), handed to JS as a handle.
  Kept(Box<dyn crate::js::KeepLater>),
  /// The outputs of a batch's items, back to back, and the length of each: a JS
  /// `[Buffer, Uint32Array]` (handed over as they are, as [`Output::Buffer`]).
  Items(Vec<u8>, Vec<u32>),
}

/// Expensive work over owned inputs, runnable on any thread.
pub trait Job: Send + 'static {
  fn run(&mut self, cancel: &Cancel) -> CryptoResult<Output>;

  /// Runs on the main thread once the work is done, before the result is returned: releases
  /// what the job holds of the JS heap, may veto the result, and may make its effect visible
  /// (a file job's rename) after a last look at `cancel`, on the thread where aborts happen.
  fn settle(&mut self, _env: &Env, _cancel: &Cancel) -> CryptoResult<()> {
    Ok(())
  }
}

/// Runs `job` right here (the `*Sync` forms), converting errors for napi-rs.
pub fn run_sync<J: Job>(env: &Env, mut job: J) -> napi::Result<Unknown<'_>> {
  let output = job.run(&Cancel::NEVER);
  let settled = job.settle(env, &Cancel::NEVER);
  match output.and_then(|v| settled.map(|()| v)) {
    Ok(out) => out.into_js(env),
    Err(e) => Err(e.into_napi(env)),
  }
}

/// A [`Job`] as a napi `AsyncTask` (libuv pool).
pub struct Work<J: Job> {
  /// Taken when the job waits for memory (it then moves into the queue, [`Waiting`]).
  job: Option<J>,
  cancel: Cancel,
  /// Memory the job waited for, granted by the budget: its next run's lease takes it.
  granted: Option<Lease>,
  /// The call's clock when it is timed.
  clock: Option<Arc<Clock>>,
}

impl<J: Job> Work<J> {
  /// `job` as an AsyncTask, cancelled by `token` (the caller's signal) if there is one.
  pub fn new(job: J, token: Option<&CancelToken>) -> napi::bindgen_prelude::AsyncTask<Self> {
    napi::bindgen_prelude::AsyncTask::new(Self::queued(job, token))
  }

  /// The work of `job`, its queueing stamped on a timed token.
  fn queued(job: J, token: Option<&CancelToken>) -> Self {
    let clock = token.and_then(|t| t.clock.clone());
    if let Some(c) = &clock {
      c.first(&c.queued);
    }
    Work {
      job: Some(job),
      cancel: Cancel(token.filter(|t| t.cancellable).map(|t| t.state.clone())),
      granted: None,
      clock,
    }
  }

  /// One run of the job on a pool thread (`compute`), its pick and end stamped on a timed token.
  fn run(&mut self) -> Ran {
    if !self.cancel.start() {
      return Ran::Done(Err(aborted()));
    }
    if let Some(c) = &self.clock {
      c.first(&c.running);
    }
    let Some(job) = self.job.as_mut() else {
      return Ran::Done(Err(CryptoError::internal()));
    };
    let cancel = &self.cancel;
    // A panic here would abort the process; every job is written not to panic on user input,
    // and this is the backstop that turns a bug into a rejected promise instead.
    let (output, wants) = budget::in_job(self.granted.take(), || {
      std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| job.run(cancel)))
        .unwrap_or_else(|_| Err(CryptoError::internal()))
    });
    let ran = match wants {
      Some(_) if cancel.is_cancelled() => Ran::Done(Err(aborted())),
      Some((what, bytes)) => Ran::Waits(what, bytes),
      None => Ran::Done(output),
    };
    if let (Some(c), Ran::Done(_)) = (&self.clock, &ran) {
      c.last(&c.finished);
    }
    ran
  }
}

/// How one run of a job on the pool ended.
pub enum Ran {
  Done(CryptoResult<Output>),
  /// Memory the job needs (`what`, bytes) was not free in the budget: it stopped before
  /// allocating, and waits off the pool for the memory to run again ([`Waiting`]).
  Waits(&'static str, u64),
}

impl<'task, J: Job> ScopedTask<'task> for Work<J> {
  type Output = Ran;
  type JsValue = Unknown<'task>;

  fn compute(&mut self) -> napi::Result<Ran> {
    Ok(self.run())
  }

  fn resolve(&mut self, env: &'task Env, ran: Ran) -> napi::Result<Self::JsValue> {
    let output = match ran {
      Ran::Waits(what, bytes) => {
        let work = Work {
          job: self.job.take(),
          cancel: self.cancel.clone(),
          granted: None,
          clock: self.clock.clone(),
        };
        return Waiting::queue(env, work, what, bytes);
      }
      // An abort JavaScript made before this completion wins over a result the pool finished
      // without seeing it; one made after it changes nothing (the JS layer follows this
      // outcome). Both run on this thread, so which came first is well defined.
      Ran::Done(Ok(_)) if self.cancel.is_cancelled() => Err(aborted()),
      Ran::Done(output) => output,
    };
    let settled = match self.job.as_mut() {
      Some(job) => job.settle(env, &self.cancel),
      None => Err(CryptoError::internal()),
    };
    match output.and_then(|v| settled.map(|()| v)) {
      Ok(v) => v.into_js(env),
      Err(e) => Err(e.into_napi(env)),
    }
  }
}

/// What the promise of a job that waited for memory resolves to: the promise of its next run.
type Resumed = PromiseRaw<'static, Unknown<'static>>;
type Resume = Box<dyn FnOnce(Env) -> napi::Result<Resumed> + Send>;

/// A job waiting in the budget's queue, with the promise its caller holds. Whatever happens to
/// it, the promise settles: with the job's next run when memory is granted, with `ABORT_ERR`
/// when the caller aborts, with the budget's error when it can never fit, and with an internal
/// error if it is dropped otherwise (an unsettled promise would also keep the loop alive).
struct Waiting<J: Job> {
  work: Option<Work<J>>,
  promise: Option<JsDeferred<Resumed, Resume>>,
}

impl<J: Job> Waiting<J> {
  /// Queues `work` for `bytes` of the budget; returns the promise its caller's promise now
  /// follows.
  fn queue<'e>(
    env: &'e Env,
    work: Work<J>,
    what: &'static str,
    bytes: u64,
  ) -> napi::Result<Unknown<'e>> {
    let (deferred, promise) = env.create_deferred::<Resumed, Resume>()?;
    let waiting = Waiting {
      work: Some(work),
      promise: Some(deferred),
    };
    budget::BUDGET.wait(what, bytes, Box::new(waiting));
    Ok(promise.to_unknown())
  }

  fn settle(&mut self, then: Resume) {
    if let Some(deferred) = self.promise.take() {
      deferred.resolve(then);
    }
  }

  fn fail(&mut self, error: CryptoError) {
    drop(self.work.take());
    self.settle(Box::new(move |env| Err(error.into_napi(&env))));
  }
}

impl<J: Job> budget::Waiter for Waiting<J> {
  fn cancelled(&self) -> bool {
    self.work.as_ref().is_none_or(|w| w.cancel.is_cancelled())
  }

  fn grant(mut self: Box<Self>, lease: Lease) {
    let Some(mut work) = self.work.take() else {
      return;
    };
    work.granted = Some(lease);
    // Runs on this promise's JS thread; if that environment is gone, the closure, the job and
    // the lease are dropped unrun (the lease given back).
    self.settle(Box::new(move |env| {
      let run: AsyncWorkPromise<Unknown<'static>> = env.spawn(work)?;
      Ok(run.promise_object())
    }));
  }

  fn cancel(mut self: Box<Self>) {
    self.fail(aborted());
  }

  fn refuse(mut self: Box<Self>, error: CryptoError) {
    self.fail(error);
  }
}

impl<J: Job> Drop for Waiting<J> {
  fn drop(&mut self) {
    self.fail(CryptoError::internal());
  }
}

/// The two `#[napi]` entry points of one job: the synchronous one (`run_sync` on the calling
/// thread) and the async one (the libuv pool, with an optional cancel token as the last
/// argument). Both take the same arguments and make the job with the same block, which names
/// the environment as the first identifier in the parentheses:
///
/// ```ignore
/// twins! {
///   #[doc = " scrypt, synchronous."]
///   #[napi(js_name = "scrypt")]
///   pub fn scrypt_sync;
///   #[doc = " scrypt on the libuv pool."]
///   #[napi]
///   pub fn scrypt_async;
///   (env, password: Unknown, salt: Unknown, options: ScryptOptions) -> ScryptJob {
///     job(env, password, salt, options)
///   }
/// }
/// ```
// The docs of the two functions are written `#[doc = " …"]`: a `///` comment inside a macro's
// input reaches napi-rs as a raw string, which its generated declarations would show as `r"…`.
macro_rules! twins {
  (
    $(#[$($sync_attr:tt)*])*
    pub fn $sync:ident;
    $(#[$($async_attr:tt)*])*
    pub fn $async:ident;
    ($env:ident $(, $arg:ident: $ty:ty)* $(,)?) -> $job:ty $make:block
  ) => {
    $(#[$($sync_attr)*])*
    pub fn $sync<'e>(
      $env: &'e napi::Env
      $(, $arg: $ty)*
    ) -> napi::Result<napi::bindgen_prelude::Unknown<'e>> {
      let job: $job = $crate::error::OrThrow::or_throw($make, $env)?;
      $crate::task::run_sync($env, job)
    }

    $(#[$($async_attr)*])*
    pub fn $async(
      $env: &napi::Env
      $(, $arg: $ty)*,
      token: Option<&$crate::task::CancelToken>,
    ) -> napi::Result<napi::bindgen_prelude::AsyncTask<$crate::task::Work<$job>>> {
      let job: $job = $crate::error::OrThrow::or_throw($make, $env)?;
      Ok($crate::task::Work::new(job, token))
    }
  };
}
pub(crate) use twins;

#[cfg(test)]
mod tests {
  use super::*;

  /// A job that reports whether it can be cancelled.
  struct Probe;

  impl Job for Probe {
    fn run(&mut self, cancel: &Cancel) -> CryptoResult<Output> {
      Ok(Output::Bool(cancel.can_cancel()))
    }
  }

  fn ran_cancellable(ran: Ran) -> Option<bool> {
    match ran {
      Ran::Done(Ok(Output::Bool(b))) => Some(b),
      _ => None,
    }
  }

  #[test]
  fn a_timed_token_stamps_queued_running_finished_in_order() {
    let token = CancelToken::new(Some(false), Some(true));
    assert!(token.times().iter().all(|t| t.is_nan()));
    let mut work = Work::queued(Probe, Some(&token));
    let t = token.times();
    assert!(t[0] >= 0.0 && t[1].is_nan() && t[2].is_nan(), "{t:?}");
    // Timed only (no signal): the job runs as one without a token does.
    assert_eq!(ran_cancellable(work.run()), Some(false));
    let t = token.times();
    assert!(0.0 <= t[0] && t[0] <= t[1] && t[1] <= t[2], "{t:?}");
    // A second job of the same call: the first queueing and pick stay, the last end moves.
    let mut again = Work::queued(Probe, Some(&token));
    again.run();
    let u = token.times();
    assert_eq!((u[0], u[1]), (t[0], t[1]));
    assert!(u[2] >= t[2]);
  }

  #[test]
  fn a_signal_token_cancels_a_queued_job_and_is_untimed() {
    let token = CancelToken::new(None, None);
    let mut work = Work::queued(Probe, Some(&token));
    assert!(token.cancel());
    assert!(ran_cancellable(work.run()).is_none());
    assert!(token.times().iter().all(|t| t.is_nan()));
    let timed = CancelToken::new(Some(true), Some(true));
    let mut work = Work::queued(Probe, Some(&timed));
    assert_eq!(ran_cancellable(work.run()), Some(true));
    assert!(timed.times().iter().all(|t| t.is_finite()));
  }
}
