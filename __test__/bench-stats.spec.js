'use strict'
// lib/bench/stats.js, benchmark/compare.js and benchmark/progress.js: the benchmark's statistics, regression rule and
// time-left estimate, on inputs whose answers are worked out by hand in the comments.
const test = require('ava')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { execFileSync } = require('node:child_process')
const stats = require('../lib/bench/stats')
const { compareRuns, formatComparison } = require('../benchmark/compare')
const { Progress, clock } = require('../benchmark/progress')

test('quantiles interpolate between order statistics (R type 7)', (t) => {
  // h = (n-1)p: [1,2,3,4] at p=.25 → h=.75 → 1 + .75·(2-1).
  t.is(stats.quantile([1, 2, 3, 4], 0.25), 1.75)
  t.is(stats.quantile([1, 2, 3, 4], 0.5), 2.5)
  t.is(stats.median([5, 1, 3]), 3)
  const s = stats.summarize([10, 40, 20, 50, 30])
  t.deepEqual([s.median, s.q1, s.q3], [30, 20, 40])
})

test('the interval of the median is the widest pair of order statistics reaching 95 %', (t) => {
  t.is(stats.binomialHalfCdf(5, 0), 1 / 32)
  // n = 5: the range covers 1 - 2/32 = 93.75 %, below 95 %, and nothing does better: the range.
  t.deepEqual(stats.medianInterval([5, 1, 4, 2, 3]), { lo: 1, hi: 5, level: 0.9375 })
  // n = 3: the range, 75 %.
  t.deepEqual(stats.medianInterval([3, 1, 2]), { lo: 1, hi: 3, level: 0.75 })
  // n = 9: x(2)..x(8) covers 1 - 2·(1 + 9)/512 = 96.09 %; x(3)..x(7) only 1 - 2·(1+9+36)/512 = 82 %.
  const nine = stats.medianInterval([9, 8, 7, 6, 5, 4, 3, 2, 1])
  t.deepEqual([nine.lo, nine.hi], [2, 8])
  t.is(nine.level, 1 - 20 / 512)
})

test('a ratio carries the interval of the paired per-round ratios; an interval over 1 is a tie', (t) => {
  const win = stats.ratioOf([4, 4.2, 3.8, 4.1, 3.9], [2, 2, 2, 2, 2])
  t.is(win.ratio, 2)
  t.deepEqual([win.lo, win.hi, win.verdict], [1.9, 2.1, 'win'])
  // Per round: 1.1, 0.9, 1, 1.05, 0.95 → range 0.9..1.1 holds 1.
  const tie = stats.ratioOf([1.1, 0.9, 1, 1.05, 0.95], [1, 1, 1, 1, 1])
  t.is(tie.verdict, 'tie')
  t.deepEqual([tie.lo, tie.hi], [0.9, 1.1])
  t.is(stats.ratioOf([1, 1, 1], [2, 2.1, 1.9]).verdict, 'loss')
})

test('the regression rule: a regression is a move beyond 10 % over the whole interval of the change', (t) => {
  const base = { value: 100, lo: 95, hi: 105 }
  // 84 / 95 = 0.884 < 0.9 at best: a regression.
  t.is(stats.change(base, { value: 80, lo: 78, hi: 84 }).status, 'regression')
  // 92 / 95 = 0.968: could be noise or a small move: not flagged.
  t.is(stats.change(base, { value: 88, lo: 85, hi: 92 }).status, 'same')
  // 125 / 105 = 1.19 > 1.1 at worst: an improvement.
  t.is(stats.change(base, { value: 130, lo: 125, hi: 135 }).status, 'improvement')
  // For times (lower is better) the same move is an improvement.
  t.is(stats.change(base, { value: 80, lo: 78, hi: 84 }, { higherIsBetter: false }).status, 'improvement')
})

const rec = (name, opsPerSec, spread, extra = {}) => ({
  suite: 'Hashing',
  table: 'Hash, 1 KiB',
  group: 'sha256',
  name,
  opsPerSec,
  lo: opsPerSec * (1 - spread),
  hi: opsPerSec * (1 + spread),
  ...extra,
})
const machine = { cpu: 'AMD EPYC', platform: 'linux-x64', cores: 2 }

test('compareRuns: on the same machine, our rates; on another, our speed-ups over each peer', (t) => {
  const base = {
    machine,
    results: [rec('cryptographer.js', 1000, 0.02), rec('node crypto.hash', 800, 0.02, { ratio: 1.25, ratioLo: 1.2, ratioHi: 1.3 })],
  }
  const slower = {
    machine,
    results: [rec('cryptographer.js', 700, 0.02), rec('node crypto.hash', 800, 0.02, { ratio: 0.875, ratioLo: 0.85, ratioHi: 0.9 })],
  }
  const same = compareRuns(base, slower)
  t.is(same.mode, 'rate')
  t.is(same.rows.length, 1) // the peer's own rate is not ours to regress
  t.is(same.regressions.length, 1)
  t.regex(formatComparison(same), /Regressions: 1\n {2}Hashing \| Hash, 1 KiB \| sha256 \| cryptographer\.js: -30\.0 %/)
  // A faster machine: every absolute rate is up 50 %, but the speed-up over node fell: a regression.
  const other = {
    machine: { ...machine, cpu: 'Apple M4' },
    results: [rec('cryptographer.js', 1500, 0.02), rec('node crypto.hash', 1700, 0.02, { ratio: 0.88, ratioLo: 0.86, ratioHi: 0.9 })],
  }
  const across = compareRuns(base, other)
  t.is(across.mode, 'speedup')
  t.deepEqual(across.regressions.map((r) => r.key), ['Hashing | Hash, 1 KiB | sha256 | ours ÷ node crypto.hash'])
  // Same figures within the noise: nothing flagged.
  t.is(compareRuns(base, base).regressions.length, 0)
})

test('benchmark/compare.js exits 2 on a regression and 0 without one', (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-compare-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  const write = (name, ops) => {
    const f = path.join(dir, name)
    fs.writeFileSync(f, JSON.stringify({ machine, results: [rec('cryptographer.js', ops, 0.01)] }))
    return f
  }
  const base = write('base.json', 1000)
  const script = path.join(__dirname, '..', 'benchmark', 'compare.js')
  t.regex(execFileSync(process.execPath, [script, base, write('same.json', 1010)], { encoding: 'utf8' }), /Regressions: 0/)
  const err = t.throws(() => execFileSync(process.execPath, [script, base, write('slow.json', 500)], { encoding: 'utf8' }))
  t.is(err.status, 2)
  t.regex(err.stdout, /Regressions: 1/)
})

test('progress: time left from the same selection\'s last run; plain lines when not a terminal', (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-progress-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  const file = path.join(dir, 'timing.json')
  fs.writeFileSync(file, JSON.stringify({ quick: { hash: 100, kdf: 200 } }))
  let text = ''
  const stream = { write: (s) => (text += s) }
  const p = new Progress({ suites: ['hash', 'kdf', 'new'], key: 'quick', file, tty: false, stream })
  p.suite(0)
  t.regex(text, /^-- progress \[1\/3 hash\] row 0: starting · elapsed 0:00 · time left unknown/)
  t.true(Number.isNaN(p.left())) // 'new' was never timed
  const q = new Progress({ suites: ['hash', 'kdf'], key: 'quick', file, tty: false, stream })
  q.suite(0)
  t.true(Math.abs(q.left() - 300) < 2) // 100 + 200 s, less the few ms elapsed
  q.suite(1)
  q.finish()
  const saved = JSON.parse(fs.readFileSync(file, 'utf8')).quick
  t.true(saved.hash < 5 && saved.kdf < 5 && saved.new === undefined)
  t.is(clock(3725), '1:02:05')
  t.is(clock(65), '1:05')
})
