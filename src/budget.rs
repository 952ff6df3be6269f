//! One memory budget for the whole process: the working memory of the memory-hard functions
//! (Argon2's arena, scrypt's vector), in every call that allocates it (hashing, verifying,
//! stream headers, age; sync or async; in any thread or worker of the process), is leased from
//! it first and given back when freed.
//!
//! - A [`Lease`] is taken by the code that allocates the memory ([`lease`]), for its size, and
//!   given back when it drops. Memory kept for reuse (Argon2's pooled arenas) keeps its lease
//!   while pooled, so the budget counts what is allocated, not only what is working; that memory
//!   is freed when a lease would not fit otherwise ([`on_short`]).
//! - A request larger than the whole budget is refused (`ERR_CRYPTO_MEMORY_BUDGET`), sync or
//!   async, naming the settings that raise it.
//! - A request that does not fit now: a synchronous call is refused
//!   (`ERR_CRYPTO_MEMORY_BUDGET_BUSY`): it could only wait by blocking its event loop. An async
//!   job ([`in_job`], run by `task.rs`) instead stops before allocating anything, gives its pool
//!   thread back, and waits in a queue ([`Budget::wait`]) that no thread blocks on; when memory
//!   is given back, the oldest waiters that fit are granted their lease and run again. So the
//!   libuv pool never starves waiting for memory.
//! - Order: first come, first served. A request that fits but finds others waiting waits behind
//!   them, so a large request is not starved by a stream of small ones.
//!
//! The limit is set by the JS layer when it loads (`lib/memory.js`: the environment variable, or
//! the default derived from the host's memory) and by `setMemoryBudget`.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::sync::{Mutex, MutexGuard};

use napi_derive::napi;

use crate::error::{Code, CryptoError, CryptoResult};

/// The limit until the JS layer sets one (the Rust tests run with it): 1 GiB.
const DEFAULT_LIMIT: u64 = 1 << 30;

/// The process's budget.
pub static BUDGET: Budget = Budget::new(DEFAULT_LIMIT);

/// Memory leased from a budget; given back when dropped.
#[must_use]
pub struct Lease {
  bytes: u64,
  from: &'static Budget,
}

impl Drop for Lease {
  fn drop(&mut self) {
    if self.bytes > 0 {
      self.from.release(self.bytes);
    }
  }
}

/// An async job waiting for memory (implemented by `task.rs`). Exactly one of the three is
/// called, never with the budget's lock held.
pub trait Waiter: Send {
  /// True once the caller aborted: the waiter then leaves the queue ([`Waiter::cancel`]).
  fn cancelled(&self) -> bool;
  /// Its memory is free: `lease` is now its own.
  fn grant(self: Box<Self>, lease: Lease);
  /// Aborted while waiting: it took nothing, so it gives nothing back.
  fn cancel(self: Box<Self>);
  /// It can never be granted (the limit went below its request).
  fn refuse(self: Box<Self>, error: CryptoError);
}

struct Waiting {
  bytes: u64,
  what: &'static str,
  waiter: Box<dyn Waiter>,
}

struct State {
  limit: u64,
  /// True once the limit was set (by the JS layer's default, or by the caller).
  set: bool,
  in_use: u64,
  peak: u64,
  queue: VecDeque<Waiting>,
}

/// A memory budget: a limit, the leases out, the async jobs waiting.
pub struct Budget {
  state: Mutex<State>,
  /// Functions that free memory kept for reuse, and with it its leases (Argon2's idle
  /// arenas): run when a lease does not fit.
  reclaim: Mutex<Vec<fn()>>,
}

/// Why [`Budget::take`] failed.
enum Short {
  TooLarge(CryptoError),
  Busy(CryptoError),
}

fn mib(bytes: u64) -> String {
  let m = bytes as f64 / f64::from(1 << 20);
  if m >= 10.0 {
    format!("{m:.0} MiB")
  } else {
    format!("{m:.2} MiB")
  }
}

const RAISE: &str =
  "raise it with setMemoryBudget(bytes) or the CRYPTOGRAPHER_MEMORY_BUDGET environment variable";

/// The request can never fit.
fn too_large(what: &str, bytes: u64, limit: u64) -> CryptoError {
  CryptoError::new(
    Code::MemoryBudget,
    format!(
      "{what} needs {bytes} bytes ({}) of working memory, more than the whole memory budget of \
       {limit} bytes ({}): {RAISE}",
      mib(bytes),
      mib(limit)
    ),
  )
}

/// A synchronous request that does not fit now.
fn busy(what: &str, bytes: u64, s: &State) -> CryptoError {
  let waiting = match s.queue.len() {
    0 => String::new(),
    n => format!(" and {n} async call(s) wait for it"),
  };
  CryptoError::new(
    Code::MemoryBudgetBusy,
    format!(
      "{what} needs {bytes} bytes ({}) of working memory, but {} of the memory budget's {} are \
       in use{waiting}: a synchronous call cannot wait for memory without blocking the event \
       loop. Use the async form (it waits its turn), or {RAISE}",
      mib(bytes),
      mib(s.in_use),
      mib(s.limit)
    ),
  )
}

impl Budget {
  pub const fn new(limit: u64) -> Budget {
    Budget {
      state: Mutex::new(State {
        limit,
        set: false,
        in_use: 0,
        peak: 0,
        queue: VecDeque::new(),
      }),
      reclaim: Mutex::new(Vec::new()),
    }
  }

  fn state(&self) -> MutexGuard<'_, State> {
    self.state.lock().unwrap_or_else(|e| e.into_inner())
  }

  /// Registers `free_idle` to run when a lease does not fit (once per function).
  pub fn on_short(&self, free_idle: fn()) {
    let mut list = self.reclaim.lock().unwrap_or_else(|e| e.into_inner());
    if !list.contains(&free_idle) {
      list.push(free_idle);
    }
  }

  fn reclaim(&self) {
    let list = self
      .reclaim
      .lock()
      .unwrap_or_else(|e| e.into_inner())
      .clone();
    for free_idle in list {
      free_idle();
    }
  }

  /// A lease of `bytes` if it fits now and nobody waits; idle memory is freed once to make room.
  fn take(&'static self, what: &str, bytes: u64) -> Result<Lease, Short> {
    if bytes == 0 {
      return Ok(Lease { bytes, from: self });
    }
    let mut reclaimed = false;
    loop {
      {
        let mut s = self.state();
        if bytes > s.limit {
          return Err(Short::TooLarge(too_large(what, bytes, s.limit)));
        }
        if s.queue.is_empty() && s.in_use + bytes <= s.limit {
          s.in_use += bytes;
          s.peak = s.peak.max(s.in_use);
          return Ok(Lease { bytes, from: self });
        }
        if reclaimed {
          return Err(Short::Busy(busy(what, bytes, &s)));
        }
      }
      self.reclaim();
      reclaimed = true;
    }
  }

  fn release(&'static self, bytes: u64) {
    {
      let mut s = self.state();
      s.in_use = s.in_use.saturating_sub(bytes);
    }
    self.pump();
  }

  /// Settles the waiters that can be settled now, in order: the cancelled ones (anywhere in the
  /// queue), those asking for more than the limit, then the oldest ones while they fit.
  fn pump(&'static self) {
    let mut cancelled = Vec::new();
    let mut refused = Vec::new();
    let mut granted = Vec::new();
    {
      let mut s = self.state();
      let limit = s.limit;
      let queue = std::mem::take(&mut s.queue);
      for w in queue {
        if w.waiter.cancelled() {
          cancelled.push(w.waiter);
        } else if w.bytes > limit {
          refused.push((too_large(w.what, w.bytes, limit), w.waiter));
        } else {
          s.queue.push_back(w);
        }
      }
      while s.queue.front().is_some_and(|w| s.in_use + w.bytes <= limit) {
        let w = s.queue.pop_front().expect("the front exists");
        s.in_use += w.bytes;
        s.peak = s.peak.max(s.in_use);
        granted.push((w.bytes, w.waiter));
      }
    }
    for w in cancelled {
      w.cancel();
    }
    for (e, w) in refused {
      w.refuse(e);
    }
    for (bytes, w) in granted {
      w.grant(Lease { bytes, from: self });
    }
  }

  /// Queues `waiter` for a lease of `bytes` (granted at once when it fits and nobody is ahead).
  pub fn wait(&'static self, what: &'static str, bytes: u64, waiter: Box<dyn Waiter>) {
    self.state().queue.push_back(Waiting {
      bytes,
      what,
      waiter,
    });
    self.pump();
    if !self.state().queue.is_empty() {
      // Idle memory may be what stands in the way (freeing it pumps again).
      self.reclaim();
    }
  }

  /// Settles the cancelled waiters now (a caller aborted one).
  pub fn forget_cancelled(&'static self) {
    self.pump();
  }

  /// Sets the limit; with `only_if_unset`, only when nothing set it before. Waiters that can no
  /// longer fit are refused, and any that now fit are granted. The peak restarts from now.
  fn set_limit(&'static self, bytes: u64, only_if_unset: bool) {
    {
      let mut s = self.state();
      if only_if_unset && s.set {
        return;
      }
      s.limit = bytes;
      s.set = true;
      s.peak = s.in_use;
    }
    self.pump();
  }

  pub fn figures(&self) -> MemoryBudget {
    let s = self.state();
    MemoryBudget {
      limit: s.limit as f64,
      in_use: s.in_use as f64,
      peak: s.peak as f64,
      waiting: s.queue.len() as u32,
    }
  }
}

// ---- the job running on this thread ----------------------------------------------------------

/// What this thread's async job holds of the budget while it runs.
struct Job {
  /// A lease granted while the job waited, or reserved early by the job ([`reserve`]), for the
  /// allocation to come.
  held: Option<Lease>,
  /// Set when a lease did not fit: the job stops, and waits for this many bytes.
  wants: Option<(&'static str, u64)>,
}

thread_local! {
  static JOB: RefCell<Option<Job>> = const { RefCell::new(None) };
}

/// Runs `f` as an async job holding `granted` (the lease it waited for, if any). Returns `f`'s
/// result and, when a lease did not fit meanwhile, what the job must wait for before it runs
/// again (its result is then only the error that stopped it before it allocated).
pub fn in_job<R>(
  granted: Option<Lease>,
  f: impl FnOnce() -> R,
) -> (R, Option<(&'static str, u64)>) {
  let outer = JOB.with(|j| {
    j.replace(Some(Job {
      held: granted,
      wants: None,
    }))
  });
  let result = f();
  let job = JOB.with(|j| j.replace(outer));
  (result, job.and_then(|j| j.wants))
}

/// The error a job's lease returns when the job must wait (it never reaches JavaScript: the
/// job's task sees [`in_job`]'s answer and queues the job instead).
fn must_wait() -> CryptoError {
  CryptoError::new(Code::Operation, "waiting for the memory budget")
}

fn lease_from(budget: &'static Budget, what: &'static str, bytes: u64) -> CryptoResult<Lease> {
  let held = JOB.with(|j| j.borrow_mut().as_mut().and_then(|job| job.held.take()));
  match held {
    Some(h) if h.bytes >= bytes => return Ok(h),
    Some(h) => drop(h),
    None => {}
  }
  match budget.take(what, bytes) {
    Ok(lease) => Ok(lease),
    Err(Short::TooLarge(e)) => Err(e),
    Err(Short::Busy(e)) => {
      let waits = JOB.with(|j| match j.borrow_mut().as_mut() {
        Some(job) => {
          job.wants = Some((what, bytes));
          true
        }
        None => false,
      });
      Err(if waits { must_wait() } else { e })
    }
  }
}

/// A lease of `bytes` for memory `what` ("Argon2", "scrypt") is about to allocate: the one this
/// thread's job holds when it is large enough, else a new one if it fits. When it does not fit,
/// an async job is marked to wait for it and gets an error that stops it; a synchronous call
/// gets `ERR_CRYPTO_MEMORY_BUDGET_BUSY`. Larger than the whole budget: `ERR_CRYPTO_MEMORY_BUDGET`.
pub fn lease(what: &'static str, bytes: u64) -> CryptoResult<Lease> {
  lease_from(&BUDGET, what, bytes)
}

/// Leases `bytes` now for memory this thread's job will allocate later (where [`lease`] takes
/// it): what a job calls before anything it cannot do twice, so that any waiting for memory
/// comes first. Outside an async job it does nothing (the allocation's own lease decides).
pub fn reserve(what: &'static str, bytes: u64) -> CryptoResult<()> {
  if bytes == 0 || JOB.with(|j| j.borrow().is_none()) {
    return Ok(());
  }
  let lease = lease(what, bytes)?;
  JOB.with(|j| {
    if let Some(job) = j.borrow_mut().as_mut() {
      job.held = Some(lease);
    }
  });
  Ok(())
}

/// True when this thread's job stopped to wait for memory: it will run again, on the same inputs.
pub fn job_waits() -> bool {
  JOB.with(|j| j.borrow().as_ref().is_some_and(|job| job.wants.is_some()))
}

/// Gives back what this thread's job reserved and will not use (it found the memory pooled, with
/// the memory's own lease).
pub fn unreserve() {
  let held = JOB.with(|j| j.borrow_mut().as_mut().and_then(|job| job.held.take()));
  drop(held);
}

// ---- JavaScript ------------------------------------------------------------------------------

/// The budget's figures, in bytes.
#[napi(object)]
pub struct MemoryBudget {
  /// The limit.
  pub limit: f64,
  /// Leased now: working memory, and memory pooled for reuse.
  pub in_use: f64,
  /// The most leased at once since the limit was last set.
  pub peak: f64,
  /// Async calls waiting for memory.
  pub waiting: u32,
}

/// `memoryBudget()`: the limit, and what is leased and waiting now.
#[napi]
pub fn memory_budget() -> MemoryBudget {
  BUDGET.figures()
}

/// `setMemoryBudget(bytes, onlyIfUnset)`: sets the limit (an integer number of bytes, 0..2^53,
/// checked by the JS layer).
#[napi]
pub fn set_memory_budget(bytes: f64, only_if_unset: bool) {
  BUDGET.set_limit(
    bytes.clamp(0.0, 9_007_199_254_740_991.0) as u64,
    only_if_unset,
  );
}

#[cfg(test)]
mod tests {
  use super::*;
  use std::sync::atomic::{AtomicBool, Ordering};
  use std::sync::Arc;

  /// A budget of its own for one test (the process's one is shared by every test running).
  fn budget(limit: u64) -> &'static Budget {
    Box::leak(Box::new(Budget::new(limit)))
  }

  type Log = Arc<Mutex<Vec<String>>>;

  struct Recorder {
    name: &'static str,
    log: Log,
    cancelled: Arc<AtomicBool>,
    keep: Arc<Mutex<Vec<Lease>>>,
  }

  impl Waiter for Recorder {
    fn cancelled(&self) -> bool {
      self.cancelled.load(Ordering::SeqCst)
    }
    fn grant(self: Box<Self>, lease: Lease) {
      let line = format!("{} granted {}", self.name, lease.bytes);
      self.log.lock().unwrap().push(line);
      self.keep.lock().unwrap().push(lease);
    }
    fn cancel(self: Box<Self>) {
      self
        .log
        .lock()
        .unwrap()
        .push(format!("{} cancelled", self.name));
    }
    fn refuse(self: Box<Self>, e: CryptoError) {
      let line = format!("{} refused {}", self.name, e.code.as_str());
      self.log.lock().unwrap().push(line);
    }
  }

  #[test]
  fn leases_wait_in_order_and_are_counted_exactly() {
    let b = budget(1000);
    let log = Log::default();
    let keep = Arc::new(Mutex::new(Vec::new()));
    let flags: Vec<_> = (0..4).map(|_| Arc::new(AtomicBool::new(false))).collect();
    let waiter = |name, i: usize| {
      Box::new(Recorder {
        name,
        log: log.clone(),
        cancelled: flags[i].clone(),
        keep: keep.clone(),
      })
    };
    let code = |r: CryptoResult<Lease>| r.err().map(|e| e.code);

    let a = lease_from(b, "test", 600).unwrap();
    assert_eq!(b.figures().in_use, 600.0);
    // Larger than the whole budget: refused.
    assert_eq!(code(lease_from(b, "test", 1001)), Some(Code::MemoryBudget));
    // Does not fit now: a synchronous lease is refused and takes nothing.
    assert_eq!(
      code(lease_from(b, "test", 500)),
      Some(Code::MemoryBudgetBusy)
    );
    assert_eq!(b.figures().in_use, 600.0);

    b.wait("test", 500, waiter("b", 0)); // does not fit: waits
    b.wait("test", 100, waiter("c", 1)); // would fit, but b is ahead: waits
    b.wait("test", 300, waiter("d", 2));
    b.wait("test", 50, waiter("e", 3));
    assert_eq!(b.figures().waiting, 4);
    // A synchronous lease that would fit finds others waiting.
    assert_eq!(
      code(lease_from(b, "test", 10)),
      Some(Code::MemoryBudgetBusy)
    );
    // d aborts while waiting: it leaves at once, giving nothing back.
    flags[2].store(true, Ordering::SeqCst);
    b.forget_cancelled();
    assert_eq!((b.figures().waiting, b.figures().in_use), (3, 600.0));

    drop(a); // 1000 free: b, c and e in their order
    assert_eq!(
      *log.lock().unwrap(),
      [
        "d cancelled",
        "b granted 500",
        "c granted 100",
        "e granted 50"
      ]
    );
    let f = b.figures();
    assert_eq!((f.in_use, f.waiting, f.peak), (650.0, 0, 650.0));

    // A limit lowered below a waiter's request refuses it.
    b.wait("test", 400, waiter("f", 0));
    b.set_limit(300, false);
    assert_eq!(
      log.lock().unwrap().last().unwrap(),
      "f refused ERR_CRYPTO_MEMORY_BUDGET"
    );
    keep.lock().unwrap().clear();
    assert_eq!(b.figures().in_use, 0.0);
  }

  #[test]
  fn idle_memory_is_freed_to_make_room() {
    static IDLE: Mutex<Vec<Lease>> = Mutex::new(Vec::new());
    fn free_idle() {
      IDLE.lock().unwrap().clear();
    }
    let b = budget(1000);
    b.on_short(free_idle);
    IDLE
      .lock()
      .unwrap()
      .push(lease_from(b, "test", 700).unwrap());
    let l = lease_from(b, "test", 500).unwrap();
    assert_eq!(b.figures().in_use, 500.0);
    drop(l);
  }

  #[test]
  fn a_job_waits_instead_of_failing_and_runs_again_with_its_grant() {
    let b = budget(1000);
    let other = lease_from(b, "test", 900).unwrap();
    let (r, wants) = in_job(None, || lease_from(b, "test", 200).map(|l| l.bytes));
    assert!(r.is_err());
    assert_eq!(wants, Some(("test", 200)));
    assert_eq!(b.figures().in_use, 900.0);
    drop(other);
    // The grant it waited for is what its next run's lease takes (no second lease).
    let granted = b.take("test", 200).ok().unwrap();
    let (r, wants) = in_job(Some(granted), || {
      let l = lease_from(b, "test", 150).unwrap();
      (l.bytes, b.figures().in_use)
    });
    assert_eq!((r, wants), ((200, 200.0), None));
    assert_eq!(b.figures().in_use, 0.0);
  }
}
