'use strict'
// `--compare <baseline.json>`: the regression rule between this run and a baseline run.
//
// A row regressed when the interval of current ÷ baseline lies wholly below 0.9 (it moved by more
// than 10 % beyond the noise of both runs; stats.js `change`). On the same machine (same CPU
// model and platform) the figures compared are cryptographer.js's own rates. Across machines
// (CI's runner against the last release's artifact: a runner is not the same computer twice),
// absolute rates say more about the runner than about the code, so the figures compared are the
// speed-ups over each peer measured in the same run (ours ÷ node:crypto, ours ÷ hash-wasm...),
// which cancel the machine's speed. `mode` forces one or the other.
const stats = require('../lib/bench/stats')

const keyOf = (r) => [r.suite, r.table, r.group, r.name].join(' | ')
const isOurs = (r) => r.ours ?? r.name.startsWith('cryptographer.js')
/** Old result files have no intervals: a figure without one is taken as exact. */
const figure = (value, lo, hi) => ({ value, lo: lo ?? value, hi: hi ?? value })

function sameMachine(a = {}, b = {}) {
  return a.cpu === b.cpu && a.platform === b.platform && a.cores === b.cores
}

/**
 * Rows of `current` against `baseline` (two runs' JSON). Returns `{ mode, rows, regressions,
 * improvements, unmatched }`; each row `{ key, base, cur, ratio, lo, hi, status }`.
 */
function compareRuns(baseline, current, { threshold = 0.1, mode = 'auto' } = {}) {
  if (mode === 'auto') mode = sameMachine(baseline.machine, current.machine) ? 'rate' : 'speedup'
  const pick =
    mode === 'rate'
      ? (r) => (isOurs(r) && r.opsPerSec ? figure(r.opsPerSec, r.lo, r.hi) : null)
      : (r) => (r.ratio ? figure(r.ratio, r.ratioLo, r.ratioHi) : null)
  const base = new Map()
  for (const r of baseline.results || []) {
    const f = pick(r)
    if (f) base.set(keyOf(r), f)
  }
  const rows = []
  let unmatched = 0
  for (const r of current.results || []) {
    const cur = pick(r)
    if (!cur) continue
    const b = base.get(keyOf(r))
    if (!b) {
      unmatched++
      continue
    }
    const label = mode === 'rate' ? keyOf(r) : `${r.suite} | ${r.table} | ${r.group} | ours ÷ ${r.name}`
    rows.push({ key: label, base: b.value, cur: cur.value, ...stats.change(b, cur, { threshold }) })
  }
  return {
    mode,
    threshold,
    rows,
    regressions: rows.filter((r) => r.status === 'regression'),
    improvements: rows.filter((r) => r.status === 'improvement'),
    unmatched,
  }
}

const pct = (x) => `${x >= 1 ? '+' : ''}${((x - 1) * 100).toFixed(1)} %`

/** The comparison as text: the rows that moved, with their intervals. */
function formatComparison(c, baselineName = 'baseline') {
  const what = c.mode === 'rate' ? "cryptographer.js's rates (same machine)" : 'speed-ups over each peer (another machine: absolute rates are not comparable)'
  const lines = [
    `Compared with ${baselineName}: ${c.rows.length} rows of ${what}; a row moved when current ÷ baseline is beyond ` +
      `±${(c.threshold * 100).toFixed(0)} % over its whole interval.`,
  ]
  for (const [title, list] of [
    ['Regressions', c.regressions],
    ['Improvements', c.improvements],
  ]) {
    lines.push(`${title}: ${list.length}`)
    for (const r of list) lines.push(`  ${r.key}: ${pct(r.ratio)} (interval ${pct(r.lo)} .. ${pct(r.hi)})`)
  }
  if (c.unmatched) lines.push(`${c.unmatched} rows of this run are not in the baseline.`)
  return lines.join('\n')
}

module.exports = { compareRuns, formatComparison, sameMachine }

// node benchmark/compare.js baseline.json current.json [--mode rate|speedup] [--threshold 0.1]
// Prints the comparison; exits 2 when a row regressed.
if (require.main === module) {
  const fs = require('node:fs')
  const args = process.argv.slice(2)
  const opt = (name, dflt) => {
    const i = args.indexOf(name)
    return i === -1 ? dflt : args.splice(i, 2)[1]
  }
  const mode = opt('--mode', 'auto')
  const threshold = Number(opt('--threshold', '0.1'))
  if (args.length !== 2) {
    console.error('usage: node benchmark/compare.js baseline.json current.json [--mode rate|speedup] [--threshold 0.1]')
    process.exit(64)
  }
  const [base, cur] = args.map((f) => JSON.parse(fs.readFileSync(f, 'utf8')))
  const c = compareRuns(base, cur, { mode, threshold })
  console.log(formatComparison(c, args[0]))
  process.exitCode = c.regressions.length ? 2 : 0
}
