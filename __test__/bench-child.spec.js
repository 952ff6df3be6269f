'use strict'
// Rows timed in a child process (benchmark/child.js: the Bun and WebAssembly suites): the child's
// harness hands back every round, the load it measured around each row, its tables, findings and
// failures, and the parent records them with the same statistics and noise bounds as its own rows.
const test = require('ava')
const path = require('node:path')
const { Harness } = require('../benchmark/harness')
const { childReport, recordReport, runChild } = require('../benchmark/child')

const HELPER = path.join(__dirname, 'helpers', 'bench-child.js')

test('a report round-trips: the parent records the rounds, ratios, intervals and load the child had', (t) => {
  const child = new Harness({ rounds: 7 })
  child.suite = 'Child'
  const where = { table: 'T', row: 'r' }
  // Ours at 100 ops/s, the peer at half: the ratio is 2 (every round's quotient is 2).
  const ours = [100, 101, 99, 100, 102, 98, 100]
  // Other processes took half the CPU while the child timed the row: the row is noisy.
  child.record(where, [{ name: 'cryptographer.js', rates: ours, ours: true }, { name: 'peer', rates: ours.map((r) => r / 2) }], { bytes: 64, x: 64, window: { others: 0.5, steal: 0, load: [1, 1] } })
  child.failures.push('T / r: wrong threw')
  const report = JSON.parse(JSON.stringify(childReport(child)))
  t.is(report.rows.length, 1)
  t.is(report.rows[0].reference, 0)

  const parent = new Harness({ rounds: 7 })
  parent.suite = 'Parent'
  recordReport(parent, report, 'Child run')
  const [a, b] = parent.results
  const [ca, cb] = child.results
  t.is(a.suite, 'Parent')
  for (const k of ['name', 'opsPerSec', 'mbPerSec', 'ratio', 'ratioLo', 'ratioHi', 'verdict', 'lo', 'hi', 'x', 'ours']) {
    t.deepEqual(a[k], ca[k], k)
    t.deepEqual(b[k], cb[k], k)
  }
  t.is(b.ratio, 2)
  t.is(a.noise.others, 0.5)
  t.deepEqual(a.noise.flags, ['other processes took 50 % of the CPU'])
  t.deepEqual(parent.failures, ['Child run: T / r: wrong threw'])
})

test('runChild: the child gets --quick and --filter, its rows, tables, findings and failures land in the parent', (t) => {
  const h = new Harness({ quick: true, filter: /sum|figures/ })
  h.suite = 'Parent'
  const report = runChild(h, 'child', process.execPath, [HELPER])
  t.truthy(report)
  // --filter left the "copy" row out; the contestant whose output differs was not timed.
  t.deepEqual([...new Set(h.results.map((r) => r.group))], ['sum'])
  t.deepEqual(h.results.map((r) => r.name), ['cryptographer.js', 'loop'])
  for (const r of h.results) t.is(r.rounds.length, 5)
  t.true(h.results[1].ratio > 0)
  t.deepEqual(h.failures, ['child: Child table / sum: wrong output differs from cryptographer.js'])
  t.deepEqual(h.tables.map((x) => [x.title, x.rows]), [['Child figures', [['argv', '--quick --filter']]]])
  t.regex(h.notes['Child table'], /^In a child: /)
})

test('runChild: a child that fails is one failure of the run, with no row', (t) => {
  const h = new Harness({ quick: true })
  t.is(runChild(h, 'broken', process.execPath, [HELPER], { env: { ...process.env, BENCH_CHILD_EXIT: '3' } }), null)
  t.deepEqual(h.results, [])
  t.deepEqual(h.failures, ['broken: node bench-child.js failed (exit 3)'])
})
