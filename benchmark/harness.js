'use strict'
// Benchmark harness: side-by-side, interleaved timing of contestants whose outputs were first
// checked equal. Results go to the console (tables like the seed's), to JSON and to Markdown.
const os = require('node:os')
const path = require('node:path')
const { performance } = require('node:perf_hooks')
const stats = require('./stats')

const toComparable = (v) => {
  if (Buffer.isBuffer(v)) return v.toString('hex')
  if (v instanceof Uint8Array) return Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex')
  if (v instanceof ArrayBuffer) return Buffer.from(v).toString('hex')
  if (v && typeof v.toString === 'function' && v.sigBytes !== undefined) return v.toString() // crypto-js WordArray
  return typeof v === 'string' ? v.toLowerCase() : JSON.stringify(v)
}

function fmtOps(x) {
  if (x >= 1e6) return `${(x / 1e6).toFixed(2)} M`
  if (x >= 1e3) return `${(x / 1e3).toFixed(1)} k`
  if (x >= 10) return x.toFixed(0)
  return x.toFixed(2)
}

const fmtRatio = (r) => (r >= 10 ? `${r.toFixed(0)}×` : `${r.toFixed(2)}×`)
/** A ratio with its interval; a tie (the interval includes 1) reads as one. */
const fmtRatioCi = (r) =>
  r.ratioLo === undefined || r.ratioLo === null
    ? fmtRatio(r.ratio)
    : `${r.verdict === 'tie' ? 'tie ' : ''}${fmtRatio(r.ratio)} [${fmtRatio(r.ratioLo)}–${fmtRatio(r.ratioHi)}]`

/** The CPU's feature flags (/proc/cpuinfo), or null where there is no such file. */
function cpuFlags() {
  try {
    const info = require('node:fs').readFileSync('/proc/cpuinfo', 'utf8')
    return new Set((/^flags\s*:(.*)$/m.exec(info) || ['', ''])[1].trim().split(/\s+/))
  } catch {
    return null
  }
}

/** Writes a file of `size` random bytes at `file`, in 64 MiB pieces (so it is in the page cache). */
function makeFile(file, size) {
  const fs = require('node:fs')
  const fd = fs.openSync(file, 'w')
  try {
    const piece = Buffer.allocUnsafe(Math.min(size, 64 << 20))
    for (let done = 0; done < size; done += piece.length) {
      require('node:crypto').randomFillSync(piece)
      fs.writeSync(fd, piece, 0, Math.min(piece.length, size - done))
    }
  } finally {
    fs.closeSync(fd)
  }
  return file
}

/** The flags the fast paths here depend on, as the process sees them. */
const SIMD_FLAGS = /^(avx2|avx512.*|sha_ni|vaes|vpclmulqdq)$/

class Harness {
  constructor({ quick = false, filter = null, time } = {}) {
    this.quick = quick
    this.filter = filter
    // Time per contestant per group, split over interleaved rounds.
    this.time = time ?? (quick ? 120 : 600)
    // Five rounds at least: the fewest whose range is a ~94 % interval for the median (stats.js).
    this.rounds = quick ? 5 : 7
    this.level = 0.95
    this.results = []
    /** Plots the report draws from `results` (see `plot()`). */
    this.plots = []
    /** Called with the label of each row before it is timed (benchmark.js's progress line). */
    this.onRow = null
    /** Tables of figures that are not rates (times, memory), from `table()`. */
    this.tables = []
    this.failures = []
    this.suite = ''
  }

  /** The peer module, or null when it is not installed (its contestants are then skipped). */
  peer(name) {
    try {
      return require(require.resolve(name, { paths: [__dirname] }))
    } catch {
      return null
    }
  }

  peerVersion(name) {
    try {
      return require(require.resolve(`${name}/package.json`, { paths: [__dirname] })).version
    } catch {
      return null
    }
  }

  /** Runs `fn` for about `ms` milliseconds; returns operations per second. */
  async measure(fn, isAsync, ms) {
    // Calibrate a batch size that takes about 1/10 of the slot.
    let batch = 1
    for (;;) {
      const t0 = performance.now()
      if (isAsync) for (let i = 0; i < batch; i++) await fn()
      else for (let i = 0; i < batch; i++) fn()
      const dt = performance.now() - t0
      // One call longer than the slot: that call is the round's sample (no second run).
      if (batch === 1 && dt >= ms) return 1000 / dt
      if (dt >= ms / 10 || batch >= 1 << 24) break
      batch *= dt < ms / 100 ? 8 : 2
    }
    let ops = 0
    const start = performance.now()
    let now = start
    while (now - start < ms) {
      if (isAsync) for (let i = 0; i < batch; i++) await fn()
      else for (let i = 0; i < batch; i++) fn()
      ops += batch
      now = performance.now()
    }
    return (ops * 1000) / (now - start)
  }

  /**
   * Times contestants side by side. `group` is a string (row label; the table is the suite) or
   * `{ table, row }`. contestants[0] is cryptographer.js. Options: `bytes` (input size, for MB/s),
   * `async` (fns return promises), `check` (default true: outputs must be equal first), `time`
   * (ms per contestant, all rounds), `x` (the row's abscissa in a series plot: a size, a count).
   * A contestant may override `async` and `check` for itself, and set `ours: true` (a
   * cryptographer.js variant other than the first, for `--compare`).
   * Returns one record per timed contestant: `{ name, opsPerSec (median), mbPerSec, ratio, ... }`
   * plus the spread (`rounds`, `q1`, `q3`, `lo`, `hi`) and the ratio's interval (`ratioLo`,
   * `ratioHi`, `verdict`), as stats.js defines them.
   */
  async compare(group, contestants, { bytes = 0, async: isAsync = false, check = true, time, x } = {}) {
    const { table, row } = typeof group === 'string' ? { table: this.suite, row: group } : group
    const label = `${table} / ${row}`
    if (this.filter && !this.filter.test(label)) return null
    this.onRow?.(label)
    const list = contestants.filter((c) => c && typeof c.fn === 'function')
    const asyncOf = (c) => c.async ?? isAsync
    // 1. Outputs checked equal before anything is timed.
    let reference
    const ok = []
    for (const c of list) {
      try {
        let out = c.fn()
        if (asyncOf(c)) out = await out
        const v = c.out ? c.out(out) : toComparable(out)
        if (reference === undefined && (c.check ?? check)) reference = v
        if ((c.check ?? check) && v !== reference) {
          this.failures.push(`${label}: ${c.name} output differs from cryptographer.js`)
          console.log(`  ! ${label}: ${c.name} gives a different output; not timed`)
          continue
        }
        ok.push(c)
      } catch (err) {
        this.failures.push(`${label}: ${c.name} threw ${err.message}`)
        console.log(`  ! ${label}: ${c.name} threw ${err.message}; not timed`)
      }
    }
    // 2. Interleaved rounds, rotating the start; every round's rate is kept.
    const slot = (time ?? this.time) / this.rounds
    const rates = ok.map(() => [])
    for (let r = 0; r < this.rounds; r++) {
      for (let k = 0; k < ok.length; k++) {
        const i = (k + r) % ok.length
        rates[i].push(await this.measure(ok[i].fn, asyncOf(ok[i]), slot))
      }
    }
    const oursAt = ok.indexOf(list[0])
    const out = ok.map((c, i) => {
      const s = stats.summarize(rates[i], this.level)
      const vs = oursAt >= 0 && i !== oursAt ? stats.ratioOf(rates[oursAt], rates[i], this.level) : null
      const rec = {
        suite: this.suite,
        table,
        group: row,
        name: c.name,
        opsPerSec: s.median,
        mbPerSec: bytes ? (s.median * bytes) / 1e6 : null,
        ratio: vs ? vs.ratio : null,
        ratioLo: vs ? vs.lo : null,
        ratioHi: vs ? vs.hi : null,
        verdict: vs ? vs.verdict : null,
        q1: s.q1,
        q3: s.q3,
        lo: s.lo,
        hi: s.hi,
        level: s.level,
        rounds: rates[i],
        bytes: bytes || null,
        x: x ?? null,
        ours: c === list[0] || c.ours === true || c.name.startsWith('cryptographer.js'),
      }
      this.results.push(rec)
      return rec
    })
    const cells = out.map(
      (r) =>
        `${r.name} ${fmtOps(r.opsPerSec)} ops/s${r.mbPerSec ? ` ${r.mbPerSec.toFixed(0)} MB/s` : ''}${
          r.ratio ? ` (ours ${fmtRatioCi(r)})` : ''
        }`,
    )
    console.log(`  ${row.padEnd(28)} ${cells.join(' | ')}`)
    return out
  }

  /**
   * A plot the report draws from this run's records of `table` (all rows, or those whose group
   * matches `rows`), one series per contestant, x from each row's `x` option:
   * `{ id, title, table, rows?, x: 'axis title', y: 'time' | 'throughput' | 'perMs' | 'ops',
   *    yTitle?, note? }`. `perMs`: x per millisecond (iterations/ms), `time`: ms per operation.
   * Tables without a plot get a bar chart.
   */
  plot(spec) {
    if (!this.plots.some((p) => p.id === spec.id)) this.plots.push({ suite: this.suite, ...spec, rows: spec.rows?.source ?? spec.rows ?? null })
  }

  /**
   * A table of figures that are not rates (times, memory): `columns` are the headers, `rows`
   * arrays of cells (strings or numbers). Printed now, kept for the JSON and the Markdown.
   */
  table(title, columns, rows) {
    // Under --filter, a table is kept when its title or one of its rows matches.
    if (this.filter && !this.filter.test(`${title}`) && !rows.some((r) => this.filter.test(r.join(' ')))) return
    this.tables.push({ suite: this.suite, title, columns, rows })
    const cells = [columns, ...rows].map((r) => r.map(String))
    const widths = columns.map((_, i) => Math.max(...cells.map((r) => (r[i] || '').length)))
    console.log(`  ${title}`)
    for (const r of cells) console.log(`    ${r.map((c, i) => c.padStart(widths[i])).join('  ')}`)
  }

  machine() {
    const cpus = os.cpus()
    return {
      cpu: cpus[0] ? cpus[0].model : 'unknown',
      cores: cpus.length,
      platform: `${process.platform}-${process.arch}`,
      node: process.version,
      openssl: process.versions.openssl,
      flags: [...(cpuFlags() ?? [])].filter((f) => SIMD_FLAGS.test(f)),
      date: new Date().toISOString(),
    }
  }

  /** Markdown: one table per (suite table), rows = groups, columns = contestants. */
  markdown() {
    return markdownOf(this)
  }
}

/**
 * The Markdown of a run (`{ results, tables }`, as in latest.json): one table per results table,
 * rows = groups, columns = contestants; cells are the median rate and, in bold, ours ÷ that peer
 * with its interval (a tie when the interval includes 1); then the tables of other figures.
 */
function markdownOf({ results = [], tables: other = [] }) {
  const tables = new Map()
  for (const r of results) {
    if (!tables.has(r.table)) tables.set(r.table, { cols: [], rows: new Map() })
    const t = tables.get(r.table)
    if (!t.cols.includes(r.name)) t.cols.push(r.name)
    if (!t.rows.has(r.group)) t.rows.set(r.group, {})
    t.rows.get(r.group)[r.name] = r
  }
  const lines = []
  for (const [title, t] of tables) {
    lines.push(`### ${title}`, '')
    lines.push(`| | ${t.cols.join(' | ')} |`)
    lines.push(`|---|${t.cols.map(() => '---:').join('|')}|`)
    for (const [group, cells] of t.rows) {
      const vals = t.cols.map((c) => {
        const r = cells[c]
        if (!r) return 'n/a'
        const mb = r.mbPerSec ? ` (${r.mbPerSec >= 100 ? r.mbPerSec.toFixed(0) : r.mbPerSec.toFixed(1)} MB/s)` : ''
        return `${fmtOps(r.opsPerSec)}${mb}${r.ratio ? ` **${fmtRatioCi(r)}**` : ''}`
      })
      lines.push(`| ${group} | ${vals.join(' | ')} |`)
    }
    lines.push('')
  }
  for (const t of other) {
    lines.push(`### ${t.title}`, '')
    lines.push(`| ${t.columns.join(' | ')} |`)
    lines.push(`|${t.columns.map(() => '---:').join('|')}|`)
    for (const r of t.rows) lines.push(`| ${r.join(' | ')} |`)
    lines.push('')
  }
  return lines.join('\n')
}

module.exports = { Harness, cpuFlags, makeFile, toComparable, fmtOps, fmtRatio, fmtRatioCi, markdownOf, path }
