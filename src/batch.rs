//! Batch calls: many inputs through one crossing of the JS boundary (`sha.X.batch`,
//! `hmac.X.batch`, `cipher.*.encryptBatch`...), and their async forms split across the libuv
//! pool.
//!
//! One loop for every family: an [`ItemWork`] says what happens to one item (hash it, encrypt
//! it) and [`run_items`] runs it over a list, writing the outputs back to back into one buffer
//! ([`Output::Buffer`] when every output has the same length, else [`Output::Items`] with the
//! lengths). The synchronous form runs it on the items read in place; the async form
//! ([`parts`]) divides the items into contiguous parts of about equal cost, one per libuv thread
//! (`UV_THREADPOOL_SIZE`), copies each part's items into one staged buffer at call time, and
//! queues one task per part: the JS layer joins their outputs in order. The parts share the
//! caller's cancel token (`signal` stops all of them) and a flag that stops the others when one
//! fails, so that a failed batch stops early and releases nothing.
//!
//! The hash and HMAC entry points are in `hash/batch.rs`, the cipher ones in `cipher/batch.rs`.

use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use napi::bindgen_prelude::AsyncTask;

use crate::error::{Code, CryptoError, CryptoResult};
use crate::js::{Bytes, Cx, Value};
use crate::staging::Staged;
use crate::task::{aborted, Cancel, CancelToken, Job, Output, Work};

/// The name of the inputs list in error messages.
pub const INPUTS: &str = "inputs";

/// Items handed to [`ItemWork::item4`] together.
pub const LANES: usize = 4;

/// The inputs of a group of [`LANES`] items, and their outputs.
pub type Group<'a> = [&'a [u8]; LANES];
pub type GroupOut<'a> = [&'a mut [u8]; LANES];

/// What a batch does to each of its items.
pub trait ItemWork {
  /// The output length when it is the same for every item (a digest), so that no lengths need
  /// to be returned.
  fn fixed_len(&self) -> Option<usize>;
  /// Room needed for the output of an item of `n` bytes (its exact length, or a bound).
  fn out_len(&self, n: usize) -> usize;
  /// Writes the output of item `i` (counted from the start of this list) into `out`, which is
  /// `out_len(input.len())` bytes long; returns the number of bytes written.
  fn item(&mut self, i: usize, input: &[u8], out: &mut [u8]) -> CryptoResult<usize>;
  /// Whether [`ItemWork::item4`] is faster than four `item` calls (fixed-length work only).
  fn has_lanes(&self) -> bool {
    false
  }
  /// Items `i..i + LANES` at once, each output `fixed_len` bytes long.
  fn item4(&mut self, i: usize, inputs: Group<'_>, outs: GroupOut<'_>) -> CryptoResult<()> {
    for (k, (input, out)) in inputs.into_iter().zip(outs).enumerate() {
      self.item(i + k, input, out)?;
    }
    Ok(())
  }
}

/// `e` for the item `name[index]` (a decryption failure, a wrong IV length).
pub fn at_item(e: CryptoError, name: &str, index: usize) -> CryptoError {
  CryptoError {
    message: format!("{} ({name}[{index}])", e.message),
    ..e
  }
}

/// Where a batch's items come from, and how its loop is named in errors.
pub struct Items<'n, R, R4> {
  /// The list's name in error messages (`inputs`, `messages`).
  pub name: &'n str,
  /// The index of the first item in the caller's whole list (an async part's offset).
  pub first: usize,
  /// Item `i`.
  pub read: R,
  /// Items `i..i + LANES`, all read before any is converted to bytes (reading a JS element may
  /// run JavaScript).
  pub read4: R4,
}

/// A new output buffer of `len` bytes; an allocation failure is an error, not an abort.
fn output(len: usize) -> CryptoResult<Vec<u8>> {
  let mut out = Vec::new();
  out
    .try_reserve_exact(len)
    .map_err(|_| CryptoError::new(Code::Operation, "cannot allocate the output"))?;
  out.resize(len, 0);
  Ok(out)
}

/// Runs fixed-length `work` (outputs of `n` bytes) over the items, into `out` (`n` bytes per
/// item): `LANES` at a time when the work has lanes. Stops with `ABORT_ERR` when `stop()` says
/// so (checked before each item or group).
fn fixed_loop<W, B, R, R4>(
  work: &mut W,
  n: usize,
  out: &mut [u8],
  mut items: Items<'_, R, R4>,
  stop: &impl Fn() -> bool,
) -> CryptoResult<()>
where
  W: ItemWork + ?Sized,
  B: AsRef<[u8]>,
  R: FnMut(usize) -> CryptoResult<B>,
  R4: FnMut(usize) -> CryptoResult<[B; LANES]>,
{
  let (name, first) = (items.name, items.first);
  let check = |stop: &dyn Fn() -> bool| if stop() { Err(aborted()) } else { Ok(()) };
  let mut i = 0;
  let n = n.max(1);
  if work.has_lanes() {
    for group in out.chunks_exact_mut(n * LANES) {
      check(stop)?;
      let inputs = (items.read4)(i)?;
      let mut slots = group.chunks_exact_mut(n);
      let outs = std::array::from_fn(|_| slots.next().unwrap_or_default());
      let inputs = inputs.each_ref().map(AsRef::as_ref);
      work
        .item4(i, inputs, outs)
        .map_err(|e| at_item(e, name, first + i))?;
      i += LANES;
    }
  }
  let done = i * n;
  for slot in out[done..].chunks_exact_mut(n) {
    check(stop)?;
    let input = (items.read)(i)?;
    work
      .item(i, input.as_ref(), slot)
      .map_err(|e| at_item(e, name, first + i))?;
    i += 1;
  }
  Ok(())
}

/// Runs `work` over `items`, stopping (with `ABORT_ERR`) as soon as `stop()` says so. `first` is
/// the index of the first item in the caller's whole list and `name` that list's name, for
/// errors. On any failure the outputs written so far are wiped (they may be plaintext).
pub fn run_items<W: ItemWork + ?Sized>(
  work: &mut W,
  items: &[&[u8]],
  name: &str,
  first: usize,
  stop: impl Fn() -> bool,
) -> CryptoResult<Output> {
  if let Some(n) = work.fixed_len() {
    let mut out = output(n * items.len())?;
    let source = Items {
      name,
      first,
      read: |i: usize| Ok(items[i]),
      read4: |i: usize| Ok(std::array::from_fn(|k| items[i + k])),
    };
    if let Err(e) = fixed_loop(work, n, &mut out, source, &stop) {
      crate::staging::wipe(&mut out);
      return Err(e);
    }
    return Ok(Output::Buffer(out));
  }
  let room: usize = items.iter().map(|it| work.out_len(it.len())).sum();
  let mut out = output(room)?;
  let mut lens = Vec::with_capacity(items.len());
  let mut at = 0;
  for (i, input) in items.iter().enumerate() {
    let result = if stop() {
      Err(aborted())
    } else {
      let end = at + work.out_len(input.len());
      work
        .item(i, input, &mut out[at..end])
        .map_err(|e| at_item(e, name, first + i))
    };
    match result {
      Ok(n) => {
        at += n;
        // Lengths are below 2^32: the entry points refuse larger items before they get here.
        lens.push(n as u32);
      }
      Err(e) => {
        crate::staging::wipe(&mut out);
        return Err(e);
      }
    }
  }
  out.truncate(at);
  Ok(Output::Items(out, lens))
}

/// The synchronous form for fixed-length work (digests) over JS values (the call's arguments:
/// no element of an array is read, so no JavaScript runs meanwhile), as one Buffer of every
/// output or, with `hex`, the lower-case hex of that buffer as one string. `first` is the index
/// of `items[0]` in the caller's list (the JS layer passes long lists in slices).
pub fn run_values<'js, W: ItemWork + ?Sized>(
  cx: Cx<'js>,
  work: &mut W,
  items: &[Value<'js>],
  first: usize,
  hex: bool,
) -> CryptoResult<Value<'js>> {
  let n = work.fixed_len().ok_or_else(CryptoError::internal)?;
  let mut out = output(n * items.len())?;
  let read = |i: usize| cx.item_bytes(items[i], INPUTS, first + i);
  let source = Items {
    name: INPUTS,
    first,
    read,
    read4: |i: usize| Ok([read(i)?, read(i + 1)?, read(i + 2)?, read(i + 3)?]),
  };
  fixed_loop(work, n, &mut out, source, &|| false)?;
  if hex {
    cx.hex(&out)
  } else {
    cx.output(Output::Buffer(out))
  }
}

/// The synchronous form: `work` over `items` read in place, as a JS value.
pub fn run_sync<'js, W: ItemWork>(
  cx: Cx<'js>,
  mut work: W,
  items: &[Bytes<'js>],
  name: &str,
) -> CryptoResult<Value<'js>> {
  let items: Vec<&[u8]> = items.iter().map(Bytes::as_slice).collect();
  cx.output(run_items(&mut work, &items, name, 0, || false)?)
}

// ---- async: parts on the libuv pool --------------------------------------------------------

/// What an item costs beyond its bytes, in bytes (a digest's finalisation, the loop), when the
/// items are divided into parts of about equal cost.
const ITEM_COST: usize = 128;
/// Work worth a task of its own (about 0.1-0.3 ms of hashing): smaller batches make fewer parts.
const MIN_PART_COST: usize = 256 << 10;

/// The items `0..lens.len()` divided into at most `max_parts` contiguous, non-empty ranges of
/// about equal cost (bytes plus [`ITEM_COST`] per item), each worth at least [`MIN_PART_COST`]
/// unless there is only one.
pub fn split(lens: &[usize], max_parts: usize) -> Vec<Range<usize>> {
  let cost = |n: usize| n.saturating_add(ITEM_COST);
  let total: usize = lens.iter().map(|&n| cost(n)).fold(0, usize::saturating_add);
  let parts = (total / MIN_PART_COST)
    .clamp(1, max_parts.max(1))
    .min(lens.len().max(1));
  let mut out = Vec::with_capacity(parts);
  let (mut start, mut done) = (0, 0usize);
  for (i, &n) in lens.iter().enumerate() {
    done = done.saturating_add(cost(n));
    // Close part k once the cost so far reaches k/parts of the total, keeping one item at
    // least for each part still to come.
    let k = out.len() + 1;
    let left = lens.len() - (i + 1);
    let target = (total as u128 * k as u128 / parts as u128) as usize;
    if k < parts && (done >= target || left == parts - k) && left >= parts - k {
      out.push(start..i + 1);
      start = i + 1;
    }
  }
  out.push(start..lens.len());
  out
}

/// Copies of one part's items, made at call time: back to back in staged buffers of at most
/// `staging::POOL_MAX` bytes each (an item is never split), so that every buffer can return to
/// the staging pool and the next batch copies into warm memory whatever its size.
pub struct StagedItems {
  chunks: Vec<Staged>,
  /// Per item: its chunk and its end in that chunk.
  ends: Vec<(usize, usize)>,
}

impl StagedItems {
  pub fn copy_of(items: &[&[u8]]) -> CryptoResult<Self> {
    Self::copy_in_chunks(items, crate::staging::POOL_MAX)
  }

  /// As `copy_of`, with chunks of at most `max` bytes (unless one item is larger).
  fn copy_in_chunks(items: &[&[u8]], max: usize) -> CryptoResult<Self> {
    let mut chunks = Vec::new();
    let mut ends = Vec::with_capacity(items.len());
    let mut start = 0;
    while start < items.len() {
      // The items of this chunk: at least one, and up to the size a pooled buffer can have.
      let mut size = 0;
      let mut end = start;
      while end < items.len() {
        let n = items[end].len();
        if end > start && size + n > max {
          break;
        }
        size += n;
        end += 1;
        ends.push((chunks.len(), size));
      }
      chunks.push(Staged::copy_all(items[start..end].iter().copied())?);
      start = end;
    }
    Ok(StagedItems { chunks, ends })
  }

  fn slices(&self) -> Vec<&[u8]> {
    let mut start = (usize::MAX, 0);
    self
      .ends
      .iter()
      .map(|&(chunk, end)| {
        let from = if start.0 == chunk { start.1 } else { 0 };
        start = (chunk, end);
        &self.chunks[chunk].as_slice()[from..end]
      })
      .collect()
  }
}

/// One part of an async batch.
pub struct PartJob<W: ?Sized> {
  work: Box<W>,
  items: StagedItems,
  name: &'static str,
  first: usize,
  /// Set by the first part that fails: the others stop at their next item.
  failed: Arc<AtomicBool>,
}

impl<W: ItemWork + Send + ?Sized + 'static> Job for PartJob<W> {
  fn run(&mut self, cancel: &Cancel) -> CryptoResult<Output> {
    let failed = &self.failed;
    let stop = || cancel.is_cancelled() || failed.load(Ordering::Relaxed);
    let items = self.items.slices();
    let result = run_items(&mut *self.work, &items, self.name, self.first, stop);
    drop(items);
    if result.is_err() {
      failed.store(true, Ordering::Relaxed);
    }
    for chunk in self.items.chunks.drain(..) {
      chunk.recycle();
    }
    result
  }
}

/// The tasks of an async batch call: JS receives an array of promises, one per part.
pub type Parts<W> = Vec<AsyncTask<Work<PartJob<W>>>>;

/// The async form: `items` divided into parts (at most one per libuv thread), each part's
/// items copied now, and one task queued per part, made by `work(range)` (the part's items
/// `range` of the whole list). The promises resolve, in order, to the parts' outputs.
pub fn parts<W: ItemWork + Send + ?Sized + 'static>(
  items: &[Bytes<'_>],
  name: &'static str,
  token: Option<&CancelToken>,
  mut work: impl FnMut(Range<usize>) -> CryptoResult<Box<W>>,
) -> CryptoResult<Parts<W>> {
  let slices: Vec<&[u8]> = items.iter().map(Bytes::as_slice).collect();
  let ranges = split(
    &slices.iter().map(|s| s.len()).collect::<Vec<_>>(),
    crate::pool::uv_threads(),
  );
  let failed = Arc::new(AtomicBool::new(false));
  // Everything is made (and every item copied) before anything is queued, so a failure here
  // queues nothing.
  let works = ranges
    .iter()
    .map(|r| work(r.clone()))
    .collect::<CryptoResult<Vec<_>>>()?;
  let copies = copy_parts(&slices, &ranges);
  let mut jobs = Vec::with_capacity(ranges.len());
  for ((work, items), range) in works.into_iter().zip(copies).zip(ranges) {
    jobs.push(PartJob {
      work,
      items: items?,
      name,
      first: range.start,
      failed: failed.clone(),
    });
  }
  Ok(jobs.into_iter().map(|j| Work::new(j, token)).collect())
}

/// Below this many bytes in all, the parts' items are copied one part after the other.
const PARALLEL_COPY_MIN: usize = 16 << 20;

/// The items of each part, copied now. Large batches are copied on the rayon pool, a part per
/// task, while this (the JS) thread waits: JavaScript cannot run meanwhile, so the bytes cannot
/// change or go away under the copy (as `update_rayon` hashes a large one-shot input in place),
/// and the event loop is held for less of the time a copy of hundreds of MiB takes.
fn copy_parts(slices: &[&[u8]], ranges: &[Range<usize>]) -> Vec<CryptoResult<StagedItems>> {
  let total: usize = slices.iter().map(|s| s.len()).sum();
  if ranges.len() < 2 || total < PARALLEL_COPY_MIN || !crate::pool::OWN_THREADS {
    return ranges
      .iter()
      .map(|r| StagedItems::copy_of(&slices[r.clone()]))
      .collect();
  }
  let mut copies: Vec<Option<CryptoResult<StagedItems>>> = ranges.iter().map(|_| None).collect();
  rayon_core::scope(|scope| {
    for (slot, range) in copies.iter_mut().zip(ranges) {
      scope.spawn(move |_| *slot = Some(StagedItems::copy_of(&slices[range.clone()])));
    }
  });
  copies
    .into_iter()
    .map(|c| c.unwrap_or_else(|| Err(CryptoError::internal())))
    .collect()
}

#[cfg(test)]
mod tests {
  use super::*;

  fn check_split(lens: &[usize], max: usize) -> Vec<Range<usize>> {
    let parts = split(lens, max);
    assert!(!parts.is_empty() && parts.len() <= max.max(1));
    assert_eq!(parts[0].start, 0);
    assert_eq!(parts.last().unwrap().end, lens.len());
    for w in parts.windows(2) {
      assert_eq!(w[0].end, w[1].start);
    }
    if !lens.is_empty() {
      assert!(parts.iter().all(|r| !r.is_empty()), "{parts:?}");
    }
    parts
  }

  #[test]
  fn splits_into_contiguous_parts_of_about_equal_cost() {
    // 10,000 x 64 KiB over 4 threads: four parts of 2,500 items.
    let parts = check_split(&vec![64 << 10; 10_000], 4);
    assert_eq!(parts, vec![0..2500, 2500..5000, 5000..7500, 7500..10_000]);
    // Small batches stay whole; empty ones give one empty part.
    assert_eq!(check_split(&[64; 100], 4), vec![0..100]);
    assert_eq!(check_split(&[], 4), vec![0..0]);
    // Fewer items than threads: one part each at most.
    assert_eq!(check_split(&[1 << 20; 3], 8).len(), 3);
    // Skewed sizes: one large item then small ones; each part's cost is within one item of
    // an equal share.
    let mut lens = vec![4 << 20];
    lens.extend(std::iter::repeat_n(1 << 10, 4096));
    let parts = check_split(&lens, 2);
    assert_eq!(parts.len(), 2);
    let cost = |r: &Range<usize>| lens[r.clone()].iter().map(|n| n + ITEM_COST).sum::<usize>();
    let share = (cost(&parts[0]) + cost(&parts[1])) / 2;
    assert!(
      cost(&parts[0]).abs_diff(share) <= (1 << 10) + ITEM_COST,
      "{parts:?}"
    );
    // Every part has an item even when the last items are the large ones.
    let mut lens = vec![1; 10];
    lens.extend([8 << 20, 8 << 20, 8 << 20]);
    assert_eq!(check_split(&lens, 4).len(), 4);
    for max in 1..9 {
      for n in [1, 2, 5, 17, 300] {
        check_split(&vec![100 << 10; n], max);
      }
    }
  }

  #[test]
  fn staged_items_are_the_items_in_order() {
    let data: Vec<u8> = (0..3000u32).map(|i| i as u8).collect();
    let items: Vec<&[u8]> = [0, 5, 0, 1000, 2999, 1]
      .iter()
      .map(|&n| &data[..n])
      .collect();
    for (max, chunks) in [(usize::MAX, 1), (1500, 3), (1, 6)] {
      let staged = StagedItems::copy_in_chunks(&items, max).unwrap();
      // Chunks of at most `max` bytes unless one item is larger: [0, 5, 0, 1000], [2999], [1].
      assert_eq!(staged.chunks.len(), chunks, "max {max}");
      let slices = staged.slices();
      assert_eq!(slices.len(), items.len());
      assert_eq!(slices, items);
    }
    assert!(StagedItems::copy_of(&[]).unwrap().slices().is_empty());
  }

  struct Fail(usize);
  impl ItemWork for Fail {
    fn fixed_len(&self) -> Option<usize> {
      None
    }
    fn out_len(&self, n: usize) -> usize {
      n
    }
    fn item(&mut self, i: usize, input: &[u8], out: &mut [u8]) -> CryptoResult<usize> {
      if i == self.0 {
        return Err(CryptoError::new(Code::DecryptFailed, "item failed"));
      }
      out.copy_from_slice(input);
      Ok(input.len() / 2)
    }
  }

  #[test]
  fn run_items_packs_outputs_and_names_the_failed_item() {
    let items: [&[u8]; 3] = [b"abcd", b"", b"xyzzy!"];
    match run_items(&mut Fail(9), &items, "messages", 0, || false).unwrap() {
      Output::Items(data, lens) => {
        assert_eq!(lens, [2, 0, 3]);
        assert_eq!(data, b"abxyz");
      }
      _ => panic!("lengths expected"),
    }
    let e = run_items(&mut Fail(1), &items, "messages", 40, || false)
      .err()
      .unwrap();
    assert_eq!(e.code, Code::DecryptFailed);
    assert!(e.message.ends_with("(messages[41])"), "{}", e.message);
    let e = run_items(&mut Fail(9), &items, "messages", 0, || true)
      .err()
      .unwrap();
    assert_eq!(e.code, Code::Aborted);
  }
}
