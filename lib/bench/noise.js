'use strict'
// How busy the machine was while the benchmark ran, and whether its figures can be trusted.
//
// A sample holds the load averages, the machine's CPU time by kind (/proc/stat: busy, idle,
// steal) and this process's own CPU time, its threads and the children it waited for
// (/proc/self/stat), all in clock ticks. Between two samples:
// - `others`: the share of the machine's CPU time that went to other processes (busy time less
//   ours, over all the time of every core). The load average cannot say this while the benchmark
//   runs: it counts the benchmark's own threads (a thread-pool row runs 4 to 16 of them), and on
//   a 2-core machine those alone lift it above the core count.
// - `steal`: the share a hypervisor gave to other guests (a busy host).
// Where /proc is missing (macOS, Windows) both are null, and only the load averages before and
// after the run and the spread of each row speak.
//
// The bounds (BOUNDS) a run is judged by:
// - the 1-minute load average before and after the run is at most the number of cores;
// - other processes took at most 10 % of the CPU time, and steal at most 5 %, over the run and in
//   every row;
// - in every row, each cryptographer.js figure's interval (the median's distribution-free
//   interval, the range of the rounds at 5 or 7 rounds) spans at most 1.25× (hi ÷ lo), and so
//   does each tie's: a ratio whose interval includes 1 and spans more is a tie the noise may have
//   made. A wide ratio wholly above or below 1 still says who leads (its interval is printed), and
//   a peer's own spread (its garbage collector, say) is the peer's. Rows whose work varies by
//   nature from call to call (RSA key generation: the prime search) are marked `variable` and
//   exempt from this bound.
// A run that breaks any bound is `noisy`: the page says so per row and for the run, and
// `npm run bench:docs` refuses it.
const fs = require('node:fs')
const os = require('node:os')

const BOUNDS = Object.freeze({ others: 0.1, steal: 0.05, spread: 1.25 })

/** The aggregate `cpu` line of /proc/stat in ticks: { busy, idle, steal, total }, or null. */
function machineTicks(text) {
  const m = /^cpu\s+(.*)$/m.exec(text)
  if (!m) return null
  // user nice system idle iowait irq softirq steal (guest time is already in user)
  const [user, nice, system, idle, iowait = 0, irq = 0, softirq = 0, steal = 0] = m[1].trim().split(/\s+/).map(Number)
  const busy = user + nice + system + irq + softirq
  return { busy, idle: idle + iowait, steal, total: busy + idle + iowait + steal }
}

/** utime + stime + cutime + cstime of /proc/<pid>/stat in ticks, or null. */
function processTicks(text) {
  // The command name (field 2) may hold spaces and parentheses: count from the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ')
  // fields[0] is field 3 (state); utime is field 14.
  const t = fields.slice(11, 15).map(Number)
  return t.length === 4 && t.every(Number.isFinite) ? t[0] + t[1] + t[2] + t[3] : null
}

/** A text file's content, or null where it cannot be read (no /proc here). */
function readText(file) {
  try {
    return fs.readFileSync(file, 'utf8')
  } catch {
    return null
  }
}

/** One sample of the machine's state now. */
function sample() {
  const stat = readText('/proc/stat')
  const self = readText('/proc/self/stat')
  return {
    t: Date.now(),
    load: os.loadavg(),
    machine: stat && machineTicks(stat),
    self: self && processTicks(self),
  }
}

/** What happened between two samples: { seconds, others, steal, load: [from, to] } (shares 0..1, or null). */
function between(a, b) {
  const out = { seconds: (b.t - a.t) / 1000, others: null, steal: null, load: [a.load[0], b.load[0]] }
  if (a.machine && b.machine && a.self !== null && b.self !== null) {
    const total = b.machine.total - a.machine.total
    if (total > 0) {
      const busy = b.machine.busy - a.machine.busy
      out.others = Math.min(1, Math.max(0, (busy - (b.self - a.self)) / total))
      out.steal = Math.min(1, Math.max(0, (b.machine.steal - a.machine.steal) / total))
    }
  }
  return out
}

/**
 * The widest intervals of a row's records, as hi ÷ lo (null without one): `spread`, of
 * cryptographer.js's figures; `ratioSpread`, of every ratio; `tieSpread`, of the ratios whose
 * interval includes 1.
 */
function spreadOf(records) {
  const widest = (list, lo, hi) => list.filter((r) => r[lo] > 0 && r[hi] > 0).reduce((w, r) => Math.max(w ?? 0, r[hi] / r[lo]), null)
  const ratios = records.filter((r) => r.ratioLo > 0 && r.ratioHi > 0)
  return {
    spread: widest(records.filter((r) => r.ours), 'lo', 'hi'),
    ratioSpread: widest(ratios, 'ratioLo', 'ratioHi'),
    tieSpread: widest(ratios.filter((r) => r.ratioLo <= 1 && r.ratioHi >= 1), 'ratioLo', 'ratioHi'),
  }
}

const pct = (x) => `${(100 * x).toFixed(x < 0.1 ? 1 : 0)} %`

/**
 * The row's noise: the window's figures, its spread, and `flags`, the bounds it broke (empty: a
 * quiet row). `variable`: the row's work varies by nature, so its spread is not held to the bound.
 */
function rowNoise(window, records, { variable = false, bounds = BOUNDS } = {}) {
  const { spread, ratioSpread, tieSpread } = spreadOf(records)
  const flags = []
  if (window.others !== null && window.others > bounds.others) flags.push(`other processes took ${pct(window.others)} of the CPU`)
  if (window.steal !== null && window.steal > bounds.steal) flags.push(`steal ${pct(window.steal)}`)
  if (!variable && spread !== null && spread > bounds.spread) flags.push(`our interval spans ${spread.toFixed(2)}×`)
  if (!variable && tieSpread !== null && tieSpread > bounds.spread) flags.push(`a tie's interval spans ${tieSpread.toFixed(2)}×`)
  return { others: window.others, steal: window.steal, load: window.load, spread, ratioSpread, tieSpread, variable, flags }
}

/** Watches a whole run: a sample before, one per row (load averages during), one after. */
class Monitor {
  constructor() {
    this.before = null
    this.after = null
    this.loads = []
  }

  start() {
    this.before = sample()
    return this
  }

  /** A sample taken at the start of a row; the load average joins the run's record. */
  mark() {
    const s = sample()
    this.loads.push(s.load[0])
    return s
  }

  stop() {
    this.after = sample()
    return this.summary()
  }

  /** The summary so far, as if the run ended now (for a run saved after each suite). */
  snapshot() {
    const after = this.after
    this.after = sample()
    try {
      return this.summary()
    } finally {
      this.after = after
    }
  }

  /** { cores, before, after, during: { load: [min, median, max], others, steal, seconds } } */
  summary() {
    const sorted = [...this.loads].sort((a, b) => a - b)
    const whole = this.before && this.after ? between(this.before, this.after) : null
    return {
      cores: os.cpus().length,
      before: this.before && { load: this.before.load },
      after: this.after && { load: this.after.load },
      during: {
        load: sorted.length ? [sorted[0], sorted[sorted.length >> 1], sorted[sorted.length - 1]] : null,
        others: whole?.others ?? null,
        steal: whole?.steal ?? null,
        seconds: whole?.seconds ?? null,
      },
    }
  }
}

/** The rows of a run: its records grouped by table and row, with the row's noise. */
function rowsOf(results) {
  const rows = new Map()
  for (const r of results) {
    const key = `${r.table}\u0000${r.group}`
    if (!rows.has(key)) rows.set(key, { table: r.table, group: r.group, noise: r.noise || null })
  }
  return [...rows.values()]
}

/**
 * The verdict on a run (its JSON: `noise` from the Monitor, `results` with each row's noise):
 * `{ verdict: 'quiet' | 'noisy' | 'unknown', reasons, noisyRows, rows, bounds, machineQuiet }`
 * (`machineQuiet`: the load, other processes and steal held their bounds over the run). `unknown`: the
 * run recorded no load (an older file): it cannot be judged, so it is not published either.
 */
function assess(run, bounds = BOUNDS) {
  const n = run.noise
  const rows = rowsOf(run.results || [])
  const noisyRows = rows.filter((r) => r.noise?.flags?.length)
  if (!n || !n.before) return { verdict: 'unknown', reasons: ['the run recorded no load figures'], noisyRows, rows: rows.length, bounds }
  const reasons = []
  const cores = n.cores
  if (n.before.load[0] > cores) reasons.push(`the 1-minute load average was ${n.before.load[0].toFixed(2)} before the run, above the ${cores} cores`)
  if (n.after && n.after.load[0] > cores) reasons.push(`the 1-minute load average was ${n.after.load[0].toFixed(2)} after the run, above the ${cores} cores`)
  if (n.during.others !== null && n.during.others > bounds.others) reasons.push(`other processes took ${pct(n.during.others)} of the CPU time during the run (bound ${pct(bounds.others)})`)
  if (n.during.steal !== null && n.during.steal > bounds.steal) reasons.push(`the hypervisor stole ${pct(n.during.steal)} of the CPU time (bound ${pct(bounds.steal)})`)
  // Every bound on the machine as a whole held: whatever is noisy is some rows' own spread.
  const machineQuiet = reasons.length === 0
  if (noisyRows.length) reasons.push(`${noisyRows.length} of ${rows.length} rows broke a bound`)
  return { verdict: reasons.length ? 'noisy' : 'quiet', reasons, noisyRows, rows: rows.length, bounds, machineQuiet }
}

/** One line on the load, for the console and the page. */
function describe(n) {
  if (!n || !n.before) return 'load not recorded'
  const l = (x) => x.toFixed(2)
  const parts = [`load average (1 min) ${l(n.before.load[0])} before`]
  if (n.during.load) parts.push(`${l(n.during.load[0])}–${l(n.during.load[2])} during (median ${l(n.during.load[1])})`)
  if (n.after) parts.push(`${l(n.after.load[0])} after, on ${n.cores} cores`)
  if (n.during.others !== null) parts.push(`other processes ${pct(n.during.others)} of the CPU time`)
  if (n.during.steal !== null) parts.push(`steal ${pct(n.during.steal)}`)
  if (n.during.others === null) parts.push('CPU time of other processes not visible here (no /proc/stat)')
  return parts.join(', ')
}

module.exports = { BOUNDS, Monitor, sample, between, rowNoise, spreadOf, assess, describe, machineTicks, processTicks, pct, readText }
