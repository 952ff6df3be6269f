//! A small pool of large reusable allocations (Argon2 arenas, staged async inputs).
//!
//! Allocating and first-touching tens of MiB costs about 1 ms per MiB here (page faults), as much
//! as the work itself for Argon2 at its default cost or for hashing a copied input. A pool keeps a
//! few such allocations warm between calls. Bounds: at most `UV_THREADPOOL_SIZE + 1` items (one per
//! pool thread that can be using one, plus one), items larger than the pool's `max_item` are never
//! kept, and items unused for [`IDLE`] are freed by a janitor thread that exits once its pool is
//! empty, so an idle process gives the memory back. Where the crate starts no threads of its own
//! ([`OWN_THREADS`]), stale items are freed the next time the pool is used instead.

use std::sync::{Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};

/// Pooled items unused for this long are freed.
pub const IDLE: Duration = Duration::from_secs(5);

/// Whether the crate starts threads of its own: a pool's janitor, the rayon pool (BLAKE3 of large
/// inputs, large batch copies). Not in the WebAssembly build, where every thread is a Worker that
/// the JavaScript thread creates: a thread started from a pool thread waits inside
/// `pthread_create` until the JavaScript thread has made it, and when the JavaScript thread is
/// starting a thread at that moment too, neither goes on (a stall for good, seen with a few async
/// batches in flight beside synchronous calls). The work runs on the calling thread instead.
pub const OWN_THREADS: bool = !cfg!(target_family = "wasm");

/// What a pool holds: something with a size in the pool's unit (bytes, Argon2 blocks).
pub trait Pooled: Send + 'static {
  fn size(&self) -> usize;
}

struct Slots<T> {
  free: Vec<(Instant, T)>,
  janitor: bool,
}

pub struct IdlePool<T: Pooled> {
  name: &'static str,
  max_item: usize,
  slots: Mutex<Slots<T>>,
}

/// The number of libuv pool threads: `UV_THREADPOOL_SIZE` as libuv reads it (default 4,
/// 1..=1024), read once.
pub fn uv_threads() -> usize {
  static N: OnceLock<usize> = OnceLock::new();
  *N.get_or_init(|| {
    let uv = std::env::var("UV_THREADPOOL_SIZE")
      .ok()
      .and_then(|s| s.trim().parse::<usize>().ok());
    uv.unwrap_or(4).clamp(1, 1024)
  })
}

/// How many items a pool keeps: one per libuv pool thread, plus one.
fn max_items() -> usize {
  uv_threads() + 1
}

impl<T: Pooled> IdlePool<T> {
  /// A pool named `name` (its janitor thread's name) that keeps items of size ≤ `max_item`.
  pub const fn new(name: &'static str, max_item: usize) -> Self {
    IdlePool {
      name,
      max_item,
      slots: Mutex::new(Slots {
        free: Vec::new(),
        janitor: false,
      }),
    }
  }

  fn lock(&self) -> MutexGuard<'_, Slots<T>> {
    self.slots.lock().unwrap_or_else(|e| e.into_inner())
  }

  /// The smallest pooled item of size ≥ `need` (so a one-off large item goes idle and is freed);
  /// with `or_largest`, else the largest one (for items that can grow in place).
  pub fn take(&self, need: usize, or_largest: bool) -> Option<T> {
    let mut slots = self.lock();
    let size = |i: usize| slots.free[i].1.size();
    let fit = (0..slots.free.len())
      .filter(|&i| size(i) >= need)
      .min_by_key(|&i| size(i));
    let pick = match fit {
      Some(i) => Some(i),
      None if or_largest => (0..slots.free.len()).max_by_key(|&i| size(i)),
      None => None,
    };
    pick.map(|i| slots.free.swap_remove(i).1)
  }

  /// Keeps `item` for reuse (dropping the least recently used one if the pool is full), or drops
  /// it when it is larger than the pool keeps. Items must already be wiped of secrets.
  pub fn give_back(&'static self, item: T) {
    if item.size() > self.max_item {
      return;
    }
    let mut slots = self.lock();
    let mut stale = if OWN_THREADS {
      Vec::new()
    } else {
      take_stale(&mut slots.free)
    };
    slots.free.push((Instant::now(), item));
    if slots.free.len() > max_items() {
      if let Some(i) = (0..slots.free.len()).min_by_key(|&i| slots.free[i].0) {
        stale.push(slots.free.swap_remove(i));
      }
    }
    let start_janitor = OWN_THREADS && !slots.janitor;
    slots.janitor |= start_janitor;
    drop(slots);
    drop(stale);
    if start_janitor {
      let spawned = std::thread::Builder::new()
        .name(self.name.into())
        .spawn(move || self.janitor());
      if spawned.is_err() {
        self.lock().janitor = false;
      }
    }
  }

  /// Frees every pooled item now; returns how many were freed.
  pub fn clear(&self) -> usize {
    let freed: Vec<_> = self.lock().free.drain(..).collect();
    freed.len()
  }

  fn janitor(&self) {
    loop {
      std::thread::sleep(IDLE / 5);
      let stale = {
        let mut slots = self.lock();
        let stale = take_stale(&mut slots.free);
        if slots.free.is_empty() {
          slots.janitor = false;
          drop(slots);
          drop(stale);
          return;
        }
        stale
      };
      drop(stale);
    }
  }
}

/// The items unused for [`IDLE`], taken out of `free` (to be dropped once the lock is released).
fn take_stale<T>(free: &mut Vec<(Instant, T)>) -> Vec<(Instant, T)> {
  let (keep, stale) = std::mem::take(free)
    .into_iter()
    .partition(|(t, _)| t.elapsed() < IDLE);
  *free = keep;
  stale
}

#[cfg(test)]
mod tests {
  use super::*;

  struct Item(usize);
  impl Pooled for Item {
    fn size(&self) -> usize {
      self.0
    }
  }

  #[test]
  fn takes_the_smallest_fit_and_bounds_items() {
    static POOL: IdlePool<Item> = IdlePool::new("test-pool", 100);
    POOL.give_back(Item(10));
    POOL.give_back(Item(50));
    POOL.give_back(Item(30));
    POOL.give_back(Item(1000)); // over max_item: not kept
    assert_eq!(POOL.take(20, false).map(|i| i.0), Some(30));
    assert!(POOL.take(60, false).is_none());
    assert_eq!(POOL.take(60, true).map(|i| i.0), Some(50));
    assert_eq!(POOL.clear(), 1);
    for i in 0..100 {
      POOL.give_back(Item(i));
    }
    assert_eq!(POOL.clear(), max_items());
  }

  #[test]
  fn stale_items_are_taken_out_and_fresh_ones_kept() {
    let now = Instant::now();
    let Some(old) = now.checked_sub(IDLE * 2) else {
      return;
    };
    let mut free = vec![(old, Item(1)), (now, Item(2)), (old, Item(3))];
    let stale = take_stale(&mut free);
    assert_eq!(free.iter().map(|(_, i)| i.0).collect::<Vec<_>>(), [2]);
    assert_eq!(stale.iter().map(|(_, i)| i.0).collect::<Vec<_>>(), [1, 3]);
  }
}
