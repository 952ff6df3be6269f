'use strict'
// Benchmark harness: side-by-side, interleaved timing of contestants whose outputs were first
// checked equal. Shared by the repository's benchmark (benchmark/) and the runner installed with
// the package (`npx cryptographer.js bench`). No dependencies. Results go to the console, to
// JSON and to Markdown; every row carries the load it ran under (noise.js).
const os = require('node:os')
const { execFileSync } = require('node:child_process')
const { performance } = require('node:perf_hooks')
const stats = require('./stats')
const noise = require('./noise')
const { tableFinding } = require('./findings')
const { fmtOps, fmtRatio, fmtRatioCi, fmtTime, fmtMb, showsTime } = require('./format')

const toComparable = (v) => {
  if (Buffer.isBuffer(v)) return v.toString('hex')
  if (v instanceof Uint8Array) return Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex')
  if (v instanceof ArrayBuffer) return Buffer.from(v).toString('hex')
  if (v && typeof v.toString === 'function' && v.sigBytes !== undefined) return v.toString() // crypto-js WordArray
  return typeof v === 'string' ? v.toLowerCase() : JSON.stringify(v)
}

/** The CPU's feature flags (/proc/cpuinfo: x86 `flags`, arm64 `Features`), or null where there is no such file. */
function cpuFlags() {
  const info = noise.readText('/proc/cpuinfo')
  if (info === null) return null
  return new Set((/^(?:flags|Features)\s*:(.*)$/m.exec(info) || ['', ''])[1].trim().split(/\s+/).filter(Boolean))
}

function sysctl(...names) {
  try {
    return execFileSync('sysctl', names, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
  } catch {
    return null
  }
}

// The features the fast paths here depend on. x86-64: AES-NI and PCLMULQDQ, AVX2, every AVX-512
// subset, SHA-NI, VAES, VPCLMULQDQ, BMI1/BMI2. arm64: the crypto extensions (AES, PMULL, SHA-1,
// SHA-2, SHA-3, SHA-512).
const X86 = /^(aes|pclmulqdq|avx2|avx512.*|sha_ni|vaes|vpclmulqdq|bmi1|bmi2)$/
const ARM = /^(aes|pmull|sha1|sha2|sha3|sha512)$/
// macOS names (sysctl) of the same features.
const MAC_X86 = { AES: 'aes', PCLMULQDQ: 'pclmulqdq', AVX2: 'avx2', BMI1: 'bmi1', BMI2: 'bmi2', SHA: 'sha_ni', VAES: 'vaes', VPCLMULQDQ: 'vpclmulqdq' }
const MAC_ARM = { FEAT_AES: 'aes', FEAT_PMULL: 'pmull', FEAT_SHA1: 'sha1', FEAT_SHA256: 'sha2', FEAT_SHA3: 'sha3', FEAT_SHA512: 'sha512' }

/** The CPU features this process sees that matter here (lower-case, Linux names), or null when unknown. */
function cpuFeatures() {
  const flags = cpuFlags()
  if (flags) return [...flags].filter((f) => (process.arch === 'arm64' ? ARM : X86).test(f))
  if (process.platform !== 'darwin') return null
  if (process.arch === 'arm64') {
    const out = sysctl('hw.optional.arm')
    if (!out) return null
    return Object.entries(MAC_ARM).filter(([k]) => new RegExp(`\\.${k}: 1`).test(out)).map(([, v]) => v)
  }
  const out = sysctl('-n', 'machdep.cpu.features', 'machdep.cpu.leaf7_features')
  if (!out) return null
  const words = out.split(/\s+/)
  return [...new Set(words.map((w) => MAC_X86[w] || (w.startsWith('AVX512') ? w.toLowerCase() : null)).filter(Boolean))]
}

/** The CPU's model, with its family/model/stepping where /proc/cpuinfo gives them. */
function cpuModel() {
  const name = os.cpus()[0]?.model || 'unknown CPU'
  const info = noise.readText('/proc/cpuinfo')
  if (!info) return name
  const field = (k) => (new RegExp(`^${k}\\s*:\\s*(.*)$`, 'm').exec(info) || [])[1]
  const [family, model, stepping] = [field('cpu family'), field('model'), field('stepping')]
  return family && model ? `${name} (family ${family}, model ${model}${stepping ? `, stepping ${stepping}` : ''})` : name
}

/**
 * The machine a run ran on: CPU, its features, cores, platform, Node and OpenSSL. `features` is
 * what the process saw (cpuFeatures), null when this platform does not say.
 */
function machine() {
  return {
    cpu: cpuModel(),
    cores: os.cpus().length,
    platform: `${process.platform}-${process.arch}`,
    node: process.version,
    openssl: process.versions.openssl,
    features: cpuFeatures(),
    date: new Date().toISOString(),
  }
}

class Harness {
  /**
   * `quick`: shorter timing (5 rounds); `filter`: a RegExp on "table / row"; `time`: ms per
   * contestant per row over all rounds; `peerPaths`: where peer libraries are looked up.
   */
  constructor({ quick = false, filter = null, time, rounds, peerPaths = [process.cwd()] } = {}) {
    this.quick = quick
    this.filter = filter
    // Time per contestant per group, split over interleaved rounds.
    this.time = time ?? (quick ? 120 : 600)
    // Five rounds at least: the fewest whose range is a ~94 % interval for the median (stats.js).
    this.rounds = rounds ?? (quick ? 5 : 7)
    this.level = 0.95
    this.peerPaths = peerPaths
    this.results = []
    /** Called with the label of each row before it is timed (benchmark.js's progress line). */
    this.onRow = null
    /** Tables of figures that are not rates (times, memory), from `table()`. */
    this.tables = []
    this.failures = []
    /** Figures a suite measured for the page's guide (`fact()`), by name. */
    this.facts = {}
    /** Findings a suite wrote for a results table (`note()`), by table title. */
    this.notes = {}
    this.suite = ''
    this.monitor = new noise.Monitor()
  }

  /** Keeps a figure for the page's guide (benchmark/guide.js reads it from the run's JSON). */
  fact(name, value) {
    this.facts[name] = value
  }

  /**
   * The finding under the results table `table`, written by the suite from its rows (where the
   * generic one, ours against the fastest other library, would not say what the table shows).
   */
  note(table, finding) {
    this.notes[table] = finding
    console.log(`  → ${finding}`)
  }

  /** Starts the run's load record (the sample before). */
  begin() {
    this.monitor.start()
    return this
  }

  /** Ends it: the run's load summary (noise.js Monitor). */
  end() {
    this.noise = this.monitor.stop()
    return this.noise
  }

  /** The peer module, or null when it is not installed (its contestants are then skipped). */
  peer(name) {
    try {
      return require(require.resolve(name, { paths: this.peerPaths }))
    } catch {
      return null
    }
  }

  peerVersion(name) {
    try {
      return require(require.resolve(`${name}/package.json`, { paths: this.peerPaths })).version
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

  /** Whether the row `{ table, row }` is selected by `--filter`. */
  selected({ table, row }) {
    return !this.filter || this.filter.test(`${table} / ${row}`)
  }

  /**
   * Times contestants side by side. `group` is a string (row label; the table is the suite) or
   * `{ table, row }`. contestants[0] is cryptographer.js. Options: `bytes` (input size, for MB/s),
   * `async` (fns return promises), `check` (default true: outputs must be equal first), `time`
   * (ms per contestant, all rounds), `x` (the row's abscissa in a series plot: a size, a count),
   * `variable` (the work's time varies by nature from call to call: exempt from the spread bound).
   * A contestant may override `async` and `check` for itself, set `ours: true` (a
   * cryptographer.js variant other than the first, for `--compare`), and `ops` (operations one
   * call makes, default 1: its rates are operations a second).
   * Returns one record per timed contestant (`record()`).
   */
  async compare(group, contestants, { bytes = 0, async: isAsync = false, check = true, time, x, variable = false } = {}) {
    const where = typeof group === 'string' ? { table: this.suite, row: group } : group
    const label = `${where.table} / ${where.row}`
    if (!this.selected(where)) return null
    this.onRow?.(label)
    const start = this.monitor.mark()
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
        rates[i].push((ok[i].ops ?? 1) * (await this.measure(ok[i].fn, asyncOf(ok[i]), slot)))
      }
    }
    const oursAt = list[0] && ok.includes(list[0]) ? 0 : -1
    return this.record(
      where,
      ok.map((c, i) => ({ name: c.name, rates: rates[i], ours: c === list[0] || c.ours === true || c.name.startsWith('cryptographer.js') })),
      { bytes, x, variable, start, reference: oursAt },
    )
  }

  /**
   * Records a row timed elsewhere (or by `compare`): `contestants` are `{ name, rates, ours }`
   * with every round's rate (ops/s), rounds interleaved; the one at index `reference` (default 0,
   * -1 for none) is the cryptographer.js figure the ratios are taken against. `start` is the
   * noise sample taken when the row began (default: now, so the window is the recording alone);
   * `window` is the row's load as `noise.between` gives it, when it was measured where the row
   * ran (a child process's own samples; `start` then plays no part).
   * Returns the records: `{ name, opsPerSec (median), mbPerSec, ratio, ... }` with the spread
   * (`rounds`, `q1`, `q3`, `lo`, `hi`), the ratio's interval (`ratioLo`, `ratioHi`, `verdict`)
   * as stats.js defines them, and the row's `noise` (noise.js rowNoise).
   */
  record({ table, row }, contestants, { bytes = 0, x, variable = false, start = this.monitor.mark(), reference = 0, window = noise.between(start, noise.sample()) } = {}) {
    const ref = reference >= 0 ? contestants[reference] : null
    const out = contestants.map((c) => {
      const s = stats.summarize(c.rates, this.level)
      const vs = ref && c !== ref ? stats.ratioOf(ref.rates, c.rates, this.level) : null
      return {
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
        rounds: c.rates,
        bytes: bytes || null,
        x: x ?? null,
        ours: Boolean(c.ours),
      }
    })
    const rowNoise = noise.rowNoise(window, out, { variable })
    for (const r of out) {
      r.noise = rowNoise
      this.results.push(r)
    }
    console.log(`  ${row.padEnd(28)} ${out.map(consoleCell).join(' | ')}${rowNoise.flags.length ? `  [noisy: ${rowNoise.flags.join('; ')}]` : ''}`)
    return out
  }

  /**
   * A table of figures that are not rates (times, memory): `columns` are the headers, `rows`
   * arrays of cells (strings or numbers); `finding`: the sentence under it, computed by the suite
   * from these figures. Printed now, kept for the JSON and the Markdown.
   */
  table(title, columns, rows, { finding = null } = {}) {
    // Under --filter, a table is kept when its title or one of its rows matches.
    if (this.filter && !this.filter.test(`${title}`) && !rows.some((r) => this.filter.test(r.join(' ')))) return
    this.tables.push({ suite: this.suite, title, columns, rows, finding })
    const cells = [columns, ...rows].map((r) => r.map(String))
    const widths = columns.map((_, i) => Math.max(...cells.map((r) => (r[i] || '').length)))
    console.log(`  ${title}`)
    for (const r of cells) console.log(`    ${r.map((c, i) => c.padStart(widths[i])).join('  ')}`)
    if (finding) console.log(`  → ${finding}`)
  }

  machine() {
    return machine()
  }
}

/** One contestant's figures on the console. */
function consoleCell(r) {
  const time = showsTime(r) ? ` ${fmtTime(1 / r.opsPerSec)}/op` : ''
  return `${r.name} ${fmtOps(r.opsPerSec)} ops/s${time}${r.mbPerSec ? ` ${fmtMb(r.mbPerSec)} MB/s` : ''}${r.ratio ? ` (ours ${fmtRatioCi(r)})` : ''}`
}

/** The records of a run by table (in run order), each table's rows and columns. */
function tablesOf(results) {
  const tables = new Map()
  for (const r of results) {
    if (!tables.has(r.table)) tables.set(r.table, { title: r.table, suite: r.suite, cols: [], rows: new Map(), records: [] })
    const t = tables.get(r.table)
    if (!t.cols.includes(r.name)) t.cols.push(r.name)
    if (!t.rows.has(r.group)) t.rows.set(r.group, {})
    t.rows.get(r.group)[r.name] = r
    t.records.push(r)
  }
  return tables
}

/** One Markdown cell: the time per operation where rates are hard to read, the rate, MB/s, the ratio. */
function markdownCell(r) {
  if (!r) return 'n/a'
  const mb = r.mbPerSec ? ` (${fmtMb(r.mbPerSec)} MB/s)` : ''
  const figure = showsTime(r) ? `${fmtTime(1 / r.opsPerSec)} (${fmtOps(r.opsPerSec)}/s)` : `${fmtOps(r.opsPerSec)}${mb}`
  return `${figure}${r.ratio ? ` **${fmtRatioCi(r)}**` : ''}`
}

/**
 * The Markdown of a run (`{ results, tables, notes, machine }`, as in latest.json), suite by
 * suite (a `##` heading each): one table per results table, rows = groups, columns =
 * contestants; cells are the median rate (the time per operation first where the operation is
 * slow or sizeless) and, in bold, ours ÷ that peer with its interval (a tie when the interval
 * includes 1); a row that broke a noise bound is marked; under each table its finding (the
 * suite's `note`, else findings.js's). Then the suite's tables of other figures, each with its
 * finding. `images(suite)`: Markdown lines to put under the suite's heading (its plots).
 */
function markdownOf({ results = [], tables: other = [], notes = {}, machine: m = null }, { images = () => [] } = {}) {
  const lines = []
  const byTitle = tablesOf(results)
  const suites = [...new Set([...results.map((r) => r.suite), ...other.map((t) => t.suite)])]
  for (const suite of suites) {
    if (suite) lines.push(`## ${suite}`, '', ...images(suite))
    for (const [title, t] of [...byTitle].filter(([, x]) => x.suite === suite)) {
      lines.push(`### ${title}`, '')
      lines.push(`| | ${t.cols.join(' | ')} |`)
      lines.push(`|---|${t.cols.map(() => '---:').join('|')}|`)
      for (const [group, cells] of t.rows) {
        const flags = Object.values(cells)[0]?.noise?.flags || []
        const label = flags.length ? `${group} ⚠ noisy (${flags.join('; ')})` : group
        lines.push(`| ${label} | ${t.cols.map((c) => markdownCell(cells[c])).join(' | ')} |`)
      }
      lines.push('', `*${notes[title] || tableFinding(t.records, m)}*`, '')
    }
    for (const t of other.filter((x) => x.suite === suite)) {
      lines.push(`### ${t.title}`, '')
      lines.push(`| ${t.columns.join(' | ')} |`)
      lines.push(`|${t.columns.map(() => '---:').join('|')}|`)
      for (const r of t.rows) lines.push(`| ${r.join(' | ')} |`)
      lines.push('')
      if (t.finding) lines.push(`*${t.finding}*`, '')
    }
  }
  return lines.join('\n')
}

/** The machine as one line: CPU, features, cores, code paths, platform, Node, versions. */
function machineLine(m = {}) {
  const features = m.features || m.flags
  const peers = Object.entries(m.peers || {})
    .filter(([, v]) => v)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ')
  return (
    `${m.cpu || '?'}, ${m.cores || '?'} cores; CPU features seen: ${features?.length ? features.join(' ') : 'unknown'}; ${m.platform || '?'}; ` +
    (m.cpuPaths ? `code paths (cpuPaths()): ${Object.entries(m.cpuPaths).map(([k, v]) => `${k} ${v}`).join(', ')}; ` : '') +
    `Node ${m.node || '?'} (OpenSSL ${m.openssl || '?'})${m.rustc ? `, ${m.rustc}` : ''}; cryptographer.js ${m['cryptographer.js'] || '?'}` +
    (m.commit ? ` (commit ${m.commit})` : '') +
    (peers ? `; ${peers}` : '')
  )
}

module.exports = {
  Harness,
  cpuFlags,
  cpuFeatures,
  machine,
  machineLine,
  toComparable,
  fmtOps,
  fmtRatio,
  fmtRatioCi,
  fmtTime,
  markdownOf,
  tablesOf,
}
