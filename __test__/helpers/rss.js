'use strict'
// Memory measurement shared by the child processes rss-child.js (hashing) and rss-stream-child.js
// (the streaming AEAD), Linux only (/proc/self/status, clear_refs), and the specs' checks of what
// they print.
//
// What the file APIs use is native and fixed: their bound is absolute. What a Transform uses is
// mostly garbage, the output chunks handed to JavaScript, and how much of it piles up before V8
// collects it depends on the Node version (measured on one 2-vCPU machine: node's own
// createCipheriv stream over 256 MiB raised the peak RSS by 22-44 MiB on Node 20, 65-86 MiB on
// Node 24 and 26).
// So a stream case is measured twice over, each time against the same work done by node's own
// classes in the same process ("the reference"), the two in alternating order:
// - `held`: the RSS above the start with half the input through, right after a forced
//   collection. Garbage is gone then; what stays is what the pipeline holds on to (a Transform
//   that buffered its input would hold half of it). Ours must stay within the reference's + 32 MiB
//   (the first large run in a process keeps up to 9 MiB for good on Node 26, in V8 or malloc, so
//   whichever side runs first can hold that much more).
// - `peak`: the rise of the peak RSS over the whole run, garbage included. Ours must have stayed
//   within the reference's largest + 64 MiB (the collector's swing) at least once.
//
// `runChild` runs the children with glibc's malloc handing every block of 64 KiB and more back to
// the kernel when it is freed (an mmap of its own), so the RSS follows the memory in use. Otherwise
// what one case freed stays in the process, and the next case's growth depends on it.
const fs = require('node:fs')
const path = require('node:path')
const { execFileSync } = require('node:child_process')
const { Readable, Transform } = require('node:stream')
const { scaled } = require('./time')

const MiB = 1 << 20
/** How far the memory a stream holds mid-stream may exceed the reference's. */
const HELD_SLACK = 32 * MiB
/** How far the peak RSS rise of a stream may exceed the reference's largest. */
const PEAK_SLACK = 64 * MiB

const status = (field) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(fs.readFileSync('/proc/self/status', 'utf8'))[1]) * 1024

/** A full collection, twice: the second one finishes freeing what the first found dead. */
function collect() {
  global.gc()
  global.gc()
}

/** A Readable of `size` bytes that hands out one reused 64 KiB buffer (its garbage is nil). */
function reusedSource(size, chunk = Buffer.alloc(64 * 1024, 0x5a)) {
  let left = size
  return new Readable({
    read() {
      const n = Math.min(left, chunk.length)
      left -= n
      this.push(n === 0 ? null : n === chunk.length ? chunk : chunk.subarray(0, n))
    },
  })
}

/**
 * Runs `run(mark)` and returns how far the peak RSS rose above the RSS before it (`peak`, bytes),
 * the RSS above that start after a collection at the moment `run` called `mark()` (`held`; the
 * first call counts), and the time it took (`ms`).
 */
async function measure(run) {
  collect()
  fs.writeFileSync('/proc/self/clear_refs', '5') // resets the peak RSS (VmHWM) to the RSS now
  const before = status('VmRSS')
  let held = null
  const mark = () => {
    if (held !== null) return
    collect()
    held = status('VmRSS') - before
  }
  const t0 = performance.now()
  await run(mark)
  return { peak: status('VmHWM') - before, held, ms: Math.round(performance.now() - t0) }
}

/** Runs each case of `cases` (name -> async function) in turn; their `measure`s. */
async function peakGrowth(cases) {
  const out = {}
  for (const [name, run] of Object.entries(cases)) out[name] = await measure(run)
  return out
}

/**
 * Each pair of `pairs` (name -> { ours, reference }, functions of `mark` doing the same streaming
 * work) measured `rounds` times, ours first in even rounds and the reference first in odd ones:
 * name -> { ours: [measure...], reference: [measure...] }.
 */
async function pairedGrowth(pairs, rounds) {
  const out = {}
  for (const [name, pair] of Object.entries(pairs)) {
    const r = { ours: [], reference: [] }
    for (let i = 0; i < rounds; i++) {
      for (const side of i % 2 ? ['reference', 'ours'] : ['ours', 'reference']) r[side].push(await measure(pair[side]))
    }
    out[name] = r
  }
  return out
}

/** A pass-through that calls `mark()` once `half` bytes went by (for sources it cannot hook). */
function markAt(half, mark) {
  let seen = 0
  return new Transform({
    transform(chunk, encoding, callback) {
      seen += chunk.length
      if (seen >= half) mark()
      callback(null, chunk)
    },
  })
}

/** A Transform that passes nothing on until its input ended, then all of it: a stream that buffers. */
function bufferingTransform() {
  const kept = []
  return new Transform({
    transform(chunk, encoding, callback) {
      kept.push(chunk)
      callback()
    },
    flush(callback) {
      for (const c of kept.splice(0)) this.push(c)
      callback()
    },
  })
}

const mib = (n) => `${(n / MiB).toFixed(1)} MiB`

/**
 * The verdict on a pair of `pairedGrowth`: the reasons it fails (empty when it passes) and a
 * line of its figures.
 */
function judgePair(name, { ours, reference }) {
  const failures = []
  const heldLimit = Math.max(...reference.map((m) => m.held)) + HELD_SLACK
  for (const m of ours) {
    if (!(m.held < heldLimit)) failures.push(`${name}: holds ${mib(m.held)} mid-stream after a collection; the reference at most ${mib(heldLimit - HELD_SLACK)} (+${mib(HELD_SLACK)} allowed)`)
  }
  const peakLimit = Math.max(...reference.map((m) => m.peak)) + PEAK_SLACK
  if (!ours.some((m) => m.peak < peakLimit)) {
    failures.push(`${name}: peak RSS +${ours.map((m) => mib(m.peak)).join(', +')}; the reference at most +${mib(peakLimit - PEAK_SLACK)} (+${mib(PEAK_SLACK)} allowed)`)
  }
  const list = (side) => side.map((m) => `+${mib(m.peak)} (held ${mib(m.held)}, ${m.ms} ms)`).join(', ')
  return { failures, line: `${name}: peak RSS ${list(ours)}; node's own: ${list(reference)}` }
}

/**
 * The spec side of a child's output: every file case (`files`, in order) under 32 MiB of peak RSS
 * growth, every stream pair (`streams`, in order) passing `judgePair`; each figure logged.
 */
function checkChild(t, out, { files, streams }) {
  t.deepEqual(Object.keys(out.files), files)
  for (const [name, { peak, ms }] of Object.entries(out.files)) {
    t.true(peak < 32 * MiB, `${name}: peak RSS +${mib(peak)}`)
    t.log(`${name}: peak RSS +${mib(peak)}, ${ms} ms`)
  }
  t.deepEqual(Object.keys(out.streams), streams)
  for (const [name, pair] of Object.entries(out.streams)) {
    const { failures, line } = judgePair(name, pair)
    t.log(line)
    t.deepEqual(failures, [], line)
  }
}

/**
 * Runs the child script `name` (in this folder) with `args` under --expose-gc, malloc returning
 * large blocks at once (see above); its JSON output. `timeout` (native milliseconds, scaled as
 * helpers/time.js says) only guards against a hang.
 */
function runChild(name, args, timeout = 600000) {
  const env = { ...process.env, GLIBC_TUNABLES: 'glibc.malloc.mmap_threshold=65536:glibc.malloc.trim_threshold=131072' }
  return JSON.parse(execFileSync(process.execPath, ['--expose-gc', path.join(__dirname, name), ...args.map(String)], { encoding: 'utf8', timeout: scaled(timeout), env }))
}

module.exports = { bufferingTransform, checkChild, judgePair, markAt, measure, pairedGrowth, peakGrowth, reusedSource, runChild, status }
