#!/usr/bin/env node
// npm run bench:node-matrix — the Node.js-versions table: the same built addon under Node
// 20, 22, 24 and 26 (the official binaries `test:node-matrix` installs, scripts/node-runtimes.mjs),
// each running the benchmark's headline suite (SHA-256, AES-256-CBC, BLAKE3 at 1 KiB, ours beside
// node:crypto / hash-wasm of that runtime).
//
// Runtimes cannot be interleaved inside one process, so the versions are run in `--passes`
// passes (default 3), the order rotated each pass; a figure is the median over the passes of each
// pass's median. The addon is not rebuilt: its SHA-256 is checked unchanged after every run. The
// load is recorded over all passes (lib/bench/noise.js), the children's CPU time counted as ours,
// so the table carries the same noise verdict as a benchmark run.
//
// Usage: node scripts/bench-node-matrix.mjs [20 22 24 26] [--passes 3] [--full] [--update]
// Writes benchmark/results/node-matrix.json (+ node-matrix/report.html, plots and .md); the next
// `npm run bench` report includes its table.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { createRequire } from 'node:module'
import { builtAddon, ensureRuntime, root, sha256 } from './node-runtimes.mjs'

const require = createRequire(import.meta.url)
const stats = require('../lib/bench/stats.js')
const noise = require('../lib/bench/noise.js')
const argv = process.argv.slice(2)
const opt = (name, dflt) => {
  const i = argv.indexOf(name)
  return i === -1 ? dflt : argv.splice(i, 2)[1]
}
const passes = Number(opt('--passes', '3'))
const full = argv.includes('--full')
const update = argv.includes('--update')
const majors = argv.filter((a) => /^\d+$/.test(a)).map(Number)
if (majors.length === 0) majors.push(20, 22, 24, 26)

const results = path.join(root, 'benchmark', 'results')
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-node-matrix-'))
const addon = builtAddon()
const addonHash = sha256(addon)
console.log(`addon under test: ${path.relative(root, addon)} sha256 ${addonHash}`)
const runtimes = majors.map((m) => ({ major: m, node: ensureRuntime(m, update) }))

const runs = new Map(majors.map((m) => [m, []]))
const monitor = new noise.Monitor().start()
for (let p = 0; p < passes; p++) {
  for (let k = 0; k < runtimes.length; k++) {
    const { major, node } = runtimes[(k + p) % runtimes.length]
    const json = path.join(tmp, `node-${major}-${p}.json`)
    console.log(`pass ${p + 1}/${passes}: Node ${major}`)
    execFileSync(node, [path.join(root, 'benchmark', 'benchmark.js'), '--suite', 'headline', ...(full ? [] : ['--quick']), '--no-report', '--json', json, '--md', path.join(tmp, 'x.md')], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
    })
    if (sha256(addon) !== addonHash) throw new Error('the addon changed during the run')
    runs.get(major).push(JSON.parse(fs.readFileSync(json, 'utf8')))
  }
}
fs.rmSync(tmp, { recursive: true, force: true })
const load = monitor.stop()
// One window for every row: the passes interleave the versions, so each row spans the whole run.
const window = noise.between(monitor.before, monitor.after)

// One record per (version, row, contestant): the median over passes, its rounds all kept.
const records = []
const machine = { ...runs.get(majors[0])[0].machine, node: majors.map((m) => runs.get(m)[0].machine.node).join(', ') }
for (const major of majors) {
  const list = runs.get(major)
  const version = list[0].machine.node
  for (const r of list[0].results) {
    const same = list.map((run) => run.results.find((x) => x.group === r.group && x.name === r.name)).filter(Boolean)
    const medians = same.map((x) => x.opsPerSec)
    const s = stats.summarize(medians)
    const ours = list.map((run) => run.results.find((x) => x.group === r.group && x.name === 'cryptographer.js')?.opsPerSec)
    const vs = r.name === 'cryptographer.js' ? null : stats.ratioOf(ours, medians)
    records.push({
      suite: 'Node.js versions',
      table: `Node.js versions: ${r.group}, 1 KiB (ops/s; one figure per pass, median of ${passes})`,
      group: `Node ${version}`,
      name: r.name,
      opsPerSec: s.median,
      mbPerSec: (s.median * 1024) / 1e6,
      ratio: vs?.ratio ?? null,
      ratioLo: vs?.lo ?? null,
      ratioHi: vs?.hi ?? null,
      verdict: vs?.verdict ?? null,
      q1: s.q1,
      q3: s.q3,
      lo: s.lo,
      hi: s.hi,
      level: s.level,
      rounds: medians,
      bytes: 1024,
      x: null,
      ours: r.name === 'cryptographer.js',
    })
  }
}
for (const r of records) {
  const row = records.filter((x) => x.table === r.table && x.group === r.group)
  r.noise = noise.rowNoise(window, row)
}
const fmt = (x) => (x >= 1e6 ? `${(x / 1e6).toFixed(2)} M ops/s` : `${(x / 1e3).toFixed(0)} k ops/s`)
const rows = majors.map((major) => {
  const version = runs.get(major)[0].machine.node
  const cell = (group) => {
    const r = records.find((x) => x.group === `Node ${version}` && x.name === 'cryptographer.js' && x.table.includes(`${group},`))
    return r ? fmt(r.opsPerSec) : 'n/a'
  }
  return [`Node.js ${version}`, cell('sha256'), cell('aes-256-cbc encrypt'), cell('blake3')]
})
const table = {
  suite: 'Node.js versions',
  title: `Node.js versions: cryptographer.js, one addon (sha256 ${addonHash.slice(0, 12)}…), 1 KiB, median of ${passes} passes`,
  columns: ['Node.js version', 'SHA-256', 'AES-256-CBC', 'BLAKE3'],
  rows,
  finding: (() => {
    const spread = ['sha256', 'aes-256-cbc encrypt', 'blake3'].map((g) => {
      const v = records.filter((x) => x.name === 'cryptographer.js' && x.table.includes(`${g},`)).map((x) => x.opsPerSec)
      return { g, lo: Math.min(...v), hi: Math.max(...v) }
    })
    return (
      `One addon under Node ${majors.join(', ')}: ` +
      spread.map(({ g, lo, hi }) => `${g} ${fmt(lo)} to ${fmt(hi)} (${(hi / lo).toFixed(2)}×)`).join('; ') +
      '. The native code is the same; what differs is each runtime\'s cost of a call into it.'
    )
  })(),
}
const run = {
  machine,
  noise: load,
  config: { quick: !full, passes, majors, addon: addonHash, date: new Date().toISOString() },
  results: records,
  tables: [table],
  plots: [],
  failures: majors.flatMap((m) => runs.get(m).flatMap((r) => r.failures || [])),
}
fs.mkdirSync(results, { recursive: true })
fs.writeFileSync(path.join(results, 'node-matrix.json'), JSON.stringify(run, null, 2))
console.log(`\n${table.title}\n| ${table.columns.join(' | ')} |\n|---|--:|--:|--:|\n${rows.map((r) => `| ${r.join(' | ')} |`).join('\n')}`)
try {
  const report = await import('../benchmark/report.mjs')
  const dir = path.join(results, 'node-matrix')
  await report.writeReport(run, dir, { md: path.join(dir, 'node-matrix.md') })
  console.log(`\nwrote ${path.join(results, 'node-matrix.json')} and ${path.join(dir, 'report.html')}`)
} catch (err) {
  console.log(`\nwrote ${path.join(results, 'node-matrix.json')}; no report (${err.message})`)
}
