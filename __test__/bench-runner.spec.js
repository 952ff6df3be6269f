'use strict'
// `npx cryptographer.js bench` (bin/cryptographer.js → lib/bench/run.js), run briefly (--quick,
// 5 ms a contestant) from an empty directory, so no peer library is found: the output has the
// machine line, the Markdown tables of the page with a ratio and interval per node:crypto cell and
// a finding under each table, the load and the noise verdict; --json writes every round and the
// load; a wrong option exits 2 with the usage.
const test = require('ava')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawnSync } = require('node:child_process')

const BIN = path.join(__dirname, '..', 'bin', 'cryptographer.js')
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-runner-'))
test.after.always(() => fs.rmSync(dir, { recursive: true, force: true }))

const bench = (...args) => spawnSync(process.execPath, [BIN, ...args], { cwd: dir, encoding: 'utf8', timeout: 240000 })

test('bench --quick prints the page\'s tables, a finding under each, the load and the verdict; --json keeps every round', (t) => {
  const json = path.join(dir, 'run.json')
  const r = bench('bench', '--quick', '--time', '5', '--json', json)
  t.is(r.status, 0, r.stderr)
  const out = r.stdout
  t.regex(out, /^Machine: .+, \d+ cores; CPU features seen: .+; (linux|darwin|win32)-\w+; code paths \(cpuPaths\(\)\): .*sha256 /m)
  // Tables: a heading, a header with cryptographer.js first, one row per algorithm.
  const tables = out.split(/^### /m).slice(1)
  t.true(tables.length >= 5, `${tables.length} tables`)
  for (const table of tables) {
    const lines = table.split('\n')
    t.regex(lines[2], /^\| \| cryptographer\.js( \||$)/, lines[0])
    const rows = lines.filter((l) => /^\| [^|]/.test(l))
    t.true(rows.length >= 1, lines[0])
    // Every node:crypto cell carries ours ÷ node with its interval.
    for (const row of rows.filter((l) => l.split('|').length > 3)) {
      for (const cell of row.split('|').slice(3, -1)) {
        if (cell.trim() !== 'n/a') t.regex(cell, /\*\*(tie )?[\d.]+× \[[\d.]+×–[\d.]+×\]\*\*/, row)
      }
    }
    // The finding: an italic sentence under the table.
    t.truthy(lines.find((l) => /^\*[^*].+[.)]\*$/.test(l)), `${lines[0]} has a finding`)
  }
  t.regex(out, /^### Hash, 64 B, hex output$/m)
  t.regex(out, /^\| sha256( ⚠ noisy \([^)]*\))? \| [\d.]+ [Mk]? ?\(/m)
  // Slow or sizeless operations read as a time per operation.
  t.regex(out, /^\| PBKDF2-SHA-256, 10,000 iterations( ⚠ noisy \([^)]*\))? \| [\d.]+ (ms|µs|s) \(/m)
  t.regex(out, /^Load: load average \(1 min\) [\d.]+ before/m)
  t.regex(out, /^Noise: (quiet|NOISY)/m)

  const run = JSON.parse(fs.readFileSync(json, 'utf8'))
  t.is(run.config.rounds, 5)
  t.is(run.noise.before.load.length, 3)
  t.true(run.results.length >= 20)
  for (const rec of run.results) {
    t.is(rec.rounds.length, 5)
    t.true(rec.opsPerSec > 0)
    t.true(Array.isArray(rec.noise.flags))
  }
  // Ratios are ours ÷ that contestant, from the same rows.
  const row = run.results.filter((x) => x.table === 'Hash, 64 B, hex output' && x.group === 'sha256')
  const ours = row.find((x) => x.name === 'cryptographer.js')
  const node = row.find((x) => x.name === 'node createHash')
  t.is(node.ratio, ours.opsPerSec / node.opsPerSec)
})

test('bench --help, a wrong option and a wrong command', (t) => {
  const help = bench('bench', '--help')
  t.is(help.status, 0)
  t.regex(help.stdout, /^Usage: npx cryptographer\.js bench \[--quick\] \[--json file\] \[--time ms\]/)
  const wrong = bench('bench', '--fast')
  t.is(wrong.status, 2)
  t.regex(wrong.stderr, /unknown or incomplete option "--fast"/)
  t.regex(wrong.stderr, /Usage: npx cryptographer\.js bench/)
  const missing = bench('bench', '--json')
  t.is(missing.status, 2)
  const command = bench('benchmark')
  t.is(command.status, 2)
  t.regex(command.stderr, /unknown command "benchmark"/)
})
