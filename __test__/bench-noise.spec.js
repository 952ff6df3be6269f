'use strict'
// The benchmark's noise gate (lib/bench/noise.js, benchmark/report.mjs docsGate/writeDocs), the
// findings under its tables (lib/bench/findings.js) and its guide (benchmark/guide.js), on
// synthetic result JSON whose answers are worked out by hand in the comments.
const test = require('ava')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { pathToFileURL } = require('node:url')
const { spawnSync } = require('node:child_process')
const noise = require('../lib/bench/noise')
const { tableFinding } = require('../lib/bench/findings')
const { guideOf } = require('../benchmark/guide')
const { cpuFeatures } = require('../lib/bench/harness')

const root = path.join(__dirname, '..')
const report = () => import(pathToFileURL(path.join(root, 'benchmark', 'report.mjs')).href)
const chartLibraries = ['vega', 'vega-lite'].every((m) => fs.existsSync(path.join(root, 'benchmark', 'node_modules', m, 'package.json')))
const withCharts = chartLibraries ? test : test.skip
if (!chartLibraries) console.warn('bench-noise.spec.js: vega/vega-lite are not installed in benchmark/ (npm --prefix benchmark ci): the published page was not written')

test('/proc/stat and /proc/self/stat are read in ticks', (t) => {
  // busy = user + nice + system + irq + softirq = 100 + 0 + 50 + 0 + 0; idle = idle + iowait.
  t.deepEqual(noise.machineTicks('cpu  100 0 50 800 50 0 0 7 0 0\ncpu0 1 2 3 4'), { busy: 150, idle: 850, steal: 7, total: 1007 })
  // The command may hold ") ": fields count from the last ')'. utime..cstime are fields 14-17.
  const stat = `1234 (a) b) R ${Array.from({ length: 10 }, (_, i) => i + 1).join(' ')} 40 10 5 5 20 0 1`
  t.is(noise.processTicks(stat), 60)
})

test('between two samples: the CPU share of other processes and of steal', (t) => {
  const a = { t: 0, load: [1, 1, 1], machine: { busy: 150, idle: 850, steal: 0, total: 1000 }, self: 60 }
  const b = { t: 5000, load: [1.5, 1, 1], machine: { busy: 750, idle: 1150, steal: 100, total: 2000 }, self: 360 }
  // 1000 ticks passed: 600 busy, 300 of them ours → others 300 / 1000; steal 100 / 1000.
  t.deepEqual(noise.between(a, b), { seconds: 5, others: 0.3, steal: 0.1, load: [1, 1.5] })
  // No /proc (macOS, Windows): no shares, only the load averages.
  t.deepEqual(noise.between({ ...a, machine: null, self: null }, { ...b, machine: null, self: null }), { seconds: 5, others: null, steal: null, load: [1, 1.5] })
})

const quietWindow = { others: 0.02, steal: 0, load: [0.3, 0.4] }
const rec = (extra) => ({ opsPerSec: 100, lo: 95, hi: 110, ratio: null, ratioLo: null, ratioHi: null, ours: false, ...extra })

test('a row breaks a bound: other processes, steal, our interval or a tie\'s wider than 1.25×; variable rows keep the others', (t) => {
  const calm = [rec({ ours: true }), rec({ ratio: 1.2, ratioLo: 1.1, ratioHi: 1.3 })]
  t.deepEqual(noise.rowNoise(quietWindow, calm).flags, [])
  // Ours 110 / 95 = 1.158; the ratio 1.3 / 1.1 = 1.18, not a tie.
  t.is(noise.rowNoise(quietWindow, calm).spread, 110 / 95)
  t.is(noise.rowNoise(quietWindow, calm).ratioSpread, 1.3 / 1.1)
  t.is(noise.rowNoise(quietWindow, calm).tieSpread, null)
  t.deepEqual(noise.rowNoise({ ...quietWindow, others: 0.35 }, calm).flags, ['other processes took 35 % of the CPU'])
  t.deepEqual(noise.rowNoise({ ...quietWindow, steal: 0.08 }, calm).flags, ['steal 8.0 %'])
  // Our figure spreads 120 / 80 = 1.5×; a tie spreads 1.4 / 0.7 = 2×.
  const wide = [rec({ ours: true, lo: 80, hi: 120 }), rec({ ratio: 1, ratioLo: 0.7, ratioHi: 1.4 })]
  t.deepEqual(noise.rowNoise(quietWindow, wide).flags, ['our interval spans 1.50×', "a tie's interval spans 2.00×"])
  t.deepEqual(noise.rowNoise(quietWindow, wide, { variable: true }).flags, [])
  t.deepEqual(noise.rowNoise({ ...quietWindow, others: 0.2 }, wide, { variable: true }).flags, ['other processes took 20 % of the CPU'])
  // A peer's own spread, and a wide win, are not bounded: who leads is not in doubt.
  const peerWide = [rec({ ours: true }), rec({ lo: 50, hi: 150, ratio: 3, ratioLo: 2, ratioHi: 4 })]
  t.deepEqual(noise.rowNoise(quietWindow, peerWide).flags, [])
  t.is(noise.rowNoise(quietWindow, peerWide).ratioSpread, 2)
})

/** A run of `rows` rows (two contestants each), quiet unless `change` says otherwise. */
function run({ rows = 3, cores = 2, before = 0.5, after = 0.8, others = 0.03, steal = 0, flagged = 0, quick = false, suites = ['hash'], nodeMatrix = true } = {}) {
  const results = []
  for (let i = 0; i < rows; i++) {
    const n = { ...noise.rowNoise(quietWindow, []), flags: i < flagged ? ['an interval spans 1.40×'] : [] }
    results.push(
      { suite: 'Hashing', table: 'Hash, 1 KiB input, hex output', group: `alg${i}`, name: 'cryptographer.js', opsPerSec: 2e6, lo: 1.9e6, hi: 2.1e6, ratio: null, ours: true, bytes: 1024, mbPerSec: 2048, x: null, noise: n },
      { suite: 'Hashing', table: 'Hash, 1 KiB input, hex output', group: `alg${i}`, name: 'node crypto.hash', opsPerSec: 1e6, lo: 0.95e6, hi: 1.05e6, ratio: 2, ratioLo: 1.9, ratioHi: 2.1, verdict: 'win', ours: false, bytes: 1024, mbPerSec: 1024, x: null, noise: n },
    )
  }
  if (nodeMatrix) {
    results.push({ suite: 'Node.js versions', table: 'Node.js versions: sha256, 1 KiB', group: 'Node v22.1.0', name: 'cryptographer.js', opsPerSec: 1e6, lo: 0.99e6, hi: 1.01e6, ratio: null, ours: true, bytes: 1024, mbPerSec: 1024, x: null, noise: { flags: [] } })
  }
  return {
    machine: { cpu: 'Test CPU', cores, platform: 'linux-x64', node: 'v22.1.0', features: ['avx2', 'sha_ni'], date: '2026-01-01T00:00:00.000Z' },
    config: { quick, filter: null, suites, rounds: 7 },
    noise: { cores, before: { load: [before, before, before] }, after: { load: [after, after, after] }, during: { load: [0.9, 1, 1.1], others, steal, seconds: 600 } },
    results,
    tables: [],
    plots: [],
    failures: [],
  }
}

test('the verdict on a run: quiet within every bound, noisy with each reason, unknown without load figures', (t) => {
  const quiet = noise.assess(run())
  t.is(quiet.verdict, 'quiet')
  t.deepEqual(quiet.reasons, [])
  t.is(quiet.rows, 4)
  t.deepEqual(noise.assess(run({ before: 2.5 })).reasons, ['the 1-minute load average was 2.50 before the run, above the 2 cores'])
  t.deepEqual(noise.assess(run({ after: 3 })).reasons, ['the 1-minute load average was 3.00 after the run, above the 2 cores'])
  t.deepEqual(noise.assess(run({ others: 0.4 })).reasons, ['other processes took 40 % of the CPU time during the run (bound 10 %)'])
  t.deepEqual(noise.assess(run({ steal: 0.06 })).reasons, ['the hypervisor stole 6.0 % of the CPU time (bound 5.0 %)'])
  const one = noise.assess(run({ flagged: 1 }))
  t.is(one.verdict, 'noisy')
  t.deepEqual(one.reasons, ['1 of 4 rows broke a bound'])
  t.is(one.noisyRows[0].group, 'alg0')
  t.is(noise.assess({ ...run(), noise: undefined }).verdict, 'unknown')
  // The same load on 8 cores is quiet.
  t.is(noise.assess(run({ before: 2.5, cores: 8 })).verdict, 'quiet')
})

test('docsGate: noisy and partial runs, each with its reasons', async (t) => {
  const { docsGate } = await report()
  t.deepEqual(docsGate(run(), { suites: ['hash'] }), { noisy: [], partial: [] })
  t.deepEqual(docsGate(run({ others: 0.5 }), { suites: ['hash'] }).noisy, ['other processes took 50 % of the CPU time during the run (bound 10 %)'])
  const partial = docsGate(run({ quick: true, suites: ['hash'], nodeMatrix: false }), { suites: ['hash', 'kdf'] }).partial
  t.is(partial.length, 3)
  t.regex(partial[0], /--quick run/)
  t.regex(partial[1], /lacks the suites kdf/)
  t.regex(partial[2], /no Node\.js-versions table/)
  // The Node.js-versions run beside it is judged by the same bounds.
  const matrix = { ...run(), nodeMatrix: { noise: run({ before: 4 }).noise, results: [] } }
  t.deepEqual(docsGate(matrix, { suites: ['hash'] }).noisy, ['the Node.js-versions run: the 1-minute load average was 4.00 before the run, above the 2 cores'])
  const empty = run()
  empty.config.emptySuites = ['hash']
  t.deepEqual(docsGate(empty, { suites: ['hash'] }).partial, ['the suites hash put no figure on the page'])
  // A suite that could not run here says why.
  empty.config.skippedSuites = { hash: 'no Bun' }
  t.deepEqual(docsGate(empty, { suites: ['hash'] }).partial, ['the suites hash (no Bun) put no figure on the page'])
})

withCharts('writeDocs publishes a quiet complete run and refuses a noisy one unless told, stamping it', async (t) => {
  const { writeDocs } = await report()
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-docs-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  const out = path.join(dir, 'quiet')
  await writeDocs(run(), { out, suites: ['hash'] })
  const readme = fs.readFileSync(path.join(out, 'README.md'), 'utf8')
  t.regex(readme, /^> Quiet run: every noise bound held over the run and its 4 rows/m)
  t.notRegex(readme, /NOISY|PARTIAL/)
  t.regex(readme, /^\*cryptographer\.js is the fastest on 3 of 3 rows \(2\.00× the next fastest: node crypto\.hash\)\.\*$/m)
  t.regex(fs.readFileSync(path.join(out, 'report.html'), 'utf8'), /<p class="verdict quiet" id="verdict">Quiet run/)
  t.is(JSON.parse(fs.readFileSync(path.join(out, 'results.json'), 'utf8')).published.stamp, null)

  const noisy = run({ flagged: 2, others: 0.3 })
  const err = await t.throwsAsync(writeDocs(noisy, { out: path.join(dir, 'refused'), suites: ['hash'] }))
  t.is(err.code, 'ERR_BENCH_NOT_PUBLISHABLE')
  t.regex(err.message, /^This run is not published: other processes took 30 % of the CPU time during the run \(bound 10 %\); 2 of 4 rows broke a bound\. .*pass --allow-noisy to publish it stamped as such\.$/)
  t.false(fs.existsSync(path.join(dir, 'refused')))

  await writeDocs(noisy, { out: path.join(dir, 'stamped'), suites: ['hash'], allowNoisy: true })
  const stamped = fs.readFileSync(path.join(dir, 'stamped', 'README.md'), 'utf8')
  t.regex(stamped, /^> \*\*Published from a NOISY run \(--allow-noisy\): other processes took 30 %/m)
  t.is((stamped.match(/⚠ noisy \(an interval spans 1\.40×\)/g) || []).length, 2)
  const html = fs.readFileSync(path.join(dir, 'stamped', 'report.html'), 'utf8')
  t.regex(html, /<p class="verdict noisy" id="stamp"><b>Published from a NOISY run/)
  t.is((html.match(/<tr class="noisy">/g) || []).length, 2)
})

withCharts('npm run bench:docs (report.mjs --docs) exits 3 on a refused run and names the flags that publish it', (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-docs-cli-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  const file = path.join(dir, 'latest.json')
  fs.writeFileSync(file, JSON.stringify(run({ before: 9, quick: true })))
  const script = path.join(root, 'benchmark', 'report.mjs')
  const refused = spawnSync(process.execPath, [script, '--docs', file, '--out', path.join(dir, 'docs')], { encoding: 'utf8' })
  t.is(refused.status, 3)
  t.regex(refused.stderr, /the 1-minute load average was 9\.00 before the run, above the 2 cores; it is a --quick run/)
  t.regex(refused.stderr, /pass --allow-noisy and --allow-partial/)
  t.false(fs.existsSync(path.join(dir, 'docs')))
  const allowed = spawnSync(process.execPath, [script, '--docs', file, '--out', path.join(dir, 'docs'), '--allow-noisy', '--allow-partial'], { encoding: 'utf8' })
  t.is(allowed.status, 0, allowed.stderr)
  const readme = fs.readFileSync(path.join(dir, 'docs', 'README.md'), 'utf8')
  t.regex(readme, /Published from a NOISY run .* Published from a PARTIAL run \(--allow-partial\): it is a --quick run/)
})

// ---- findings

const row = (table, group, x, cells) =>
  cells.map(([name, opsPerSec, ratio, lo, hi, extra]) => ({
    table,
    group,
    x,
    name,
    opsPerSec,
    ours: name.startsWith('cryptographer.js'),
    ratio: ratio ?? null,
    ratioLo: lo ?? null,
    ratioHi: hi ?? null,
    verdict: ratio === undefined ? null : lo > 1 ? 'win' : hi < 1 ? 'loss' : 'tie',
    noise: { flags: [] },
    ...extra,
  }))

test('finding of a series: where ours leads the fastest other library and from where it ties, with the CPU feature both run', (t) => {
  const table = 'SHA-256 one-shot by input size, hex output'
  const recs = [
    ...row(table, '16 MiB', 16 << 20, [['cryptographer.js', 125], ['node crypto.hash', 124, 1.008, 0.98, 1.05]]),
    ...row(table, '64 B', 64, [['cryptographer.js', 1e6], ['node crypto.hash', 5e5, 2, 1.8, 2.2], ['hash-wasm', 3e5, 3.33, 3, 3.6]]),
    ...row(table, '1 KiB', 1024, [['cryptographer.js', 6e5], ['node crypto.hash', 4e5, 1.5, 1.4, 1.6]]),
    ...row(table, '1 MiB', 1 << 20, [['cryptographer.js', 2000], ['node crypto.hash', 2000, 1, 0.97, 1.03]]),
  ]
  t.is(
    tableFinding(recs, { features: ['avx2', 'sha_ni'] }),
    'Against the fastest other library in each row, cryptographer.js leads node crypto.hash by 1.50–2.00× from 64 B to 1 KiB; ' +
      'ties with node crypto.hash from 1 MiB to 16 MiB (both run SHA-NI, so the CPU sets the pace).',
  )
  // Without SHA-NI nothing is said of the CPU.
  t.notRegex(tableFinding(recs, { features: ['avx2'] }), /SHA-NI/)
})

test('finding of a table of operations: fastest, ties and trails against the fastest other library of each row; variants; noisy rows', (t) => {
  const table = 'Hash, 1 KiB input, hex output'
  const recs = [
    // The fastest other library of this row is hash-wasm (8e5 > 5e5): ours ÷ it = 1.25.
    ...row(table, 'sha256', null, [['cryptographer.js', 1e6], ['node createHash', 5e5, 2, 1.8, 2.2], ['hash-wasm', 8e5, 1.25, 1.1, 1.4]]),
    ...row(table, 'sha512', null, [['cryptographer.js', 4e5], ['node createHash', 5e5, 0.8, 0.75, 0.85]]),
    ...row(table, 'md5', null, [['cryptographer.js', 7e5], ['node createHash', 7e5, 1, 0.95, 1.05]]),
  ]
  t.is(
    tableFinding(recs),
    'cryptographer.js is the fastest on 1 of 3 rows (1.25× the next fastest: hash-wasm); ties on 1 (md5 with node createHash); ' +
      'trails on 1: sha512, 1.25× slower than node createHash.',
  )
  // A variant of ours (ratio = first contestant ÷ it = 0.5: it runs at twice the rate).
  const kept = row(table, 'sha256', null, [['cryptographer.js (kept key)', 2e6, 0.5, 0.45, 0.55]])
  t.regex(tableFinding([...recs, ...kept]), / cryptographer\.js \(kept key\) runs at 2\.00× the rate of cryptographer\.js\.$/)
  recs[0].noise = { flags: ['steal 9.0 %'] }
  t.regex(tableFinding(recs), / 1 of 3 rows broke a noise bound \(marked\): read them with care\.$/)
  // One contestant a row: the spread of its times.
  t.is(tableFinding(row('Parse', 'a', null, [['password.parse', 1e6]]).concat(row('Parse', 'b', null, [['password.parse', 2.5e5]]))), 'From 1.00 µs per operation (a) to 4.00 µs (b).')
})

test('the guide quotes the run\'s own figures, and leaves out what the run lacks', (t) => {
  const hash = (size, alg, mbPerSec) => ({ table: `Hash, ${size} input, hex output (ops/s; bold: cryptographer.js speed-up)`, group: alg, name: 'cryptographer.js', mbPerSec, opsPerSec: (mbPerSec * 1e6) / (size === '1 MiB' ? 1 << 20 : 64) })
  const results = [
    hash('1 MiB', 'blake3', 6000),
    hash('1 MiB', 'sha256', 2000),
    hash('1 MiB', 'sha512_256', 900),
    hash('1 MiB', 'sha3_256', 500),
    hash('64 B', 'blake3', 128),
    hash('64 B', 'sha256', 256),
    hash('64 B', 'sha512_256', 64),
    hash('64 B', 'sha3_256', 64),
  ]
  const guide = guideOf({ machine: { features: ['sha_ni'] }, results })
  t.deepEqual(guide.map((g) => g.title), ['Which hash'])
  const [facts, blake3, sha256, sha3] = guide[0].paragraphs
  // 256 MB/s on 64 B inputs: 4 M calls a second, 250 ns a call.
  t.is(facts, 'One call on 1 MiB: BLAKE3 6.00 GB/s, SHA-256 2.00 GB/s, SHA-512/256 900 MB/s, SHA3-256 500 MB/s; on 64 B: BLAKE3 500 ns, SHA-256 250 ns, SHA-512/256 1.00 µs, SHA3-256 1.00 µs a call.')
  t.regex(blake3, /^BLAKE3 is 3\.00× SHA-256's rate on 1 MiB inputs here \(from 1 MiB one input is hashed on every core\)/)
  t.regex(sha256, /and this CPU runs it in hardware: here it is 2\.22× SHA-512\/256's rate/)
  t.regex(sha3, /^SHA3-256 runs at 0\.25× SHA-256's rate here/)
  // Where SHA-512/256 is the faster (no SHA instructions), the guide says that instead.
  results[1].mbPerSec = 600
  t.regex(guideOf({ machine: { features: [] }, results })[0].paragraphs[2], /^SHA-512\/256 is 1\.50× SHA-256's rate here \(a 64-bit CPU without SHA instructions\)/)
})

test('the machine line\'s features are the /proc/cpuinfo flags that matter here', (t) => {
  const info = (() => {
    try {
      return fs.readFileSync('/proc/cpuinfo', 'utf8')
    } catch {
      return null
    }
  })()
  if (!info || process.arch !== 'x64') return t.pass('no /proc/cpuinfo on x64 here: the macOS and Windows paths were not checked')
  const flags = /^flags\s*:(.*)$/m.exec(info)[1].trim().split(/\s+/)
  const wanted = flags.filter((f) => ['aes', 'pclmulqdq', 'avx2', 'sha_ni', 'vaes', 'vpclmulqdq', 'bmi1', 'bmi2'].includes(f) || f.startsWith('avx512'))
  t.deepEqual(cpuFeatures(), wanted)
})

// ---- --redo: the suites with a noisy row, run again and put back in place

test('--redo: the noisy suites are found, their figures replaced in place, and the noise is the worse of both runs', (t) => {
  const { noisySuites, mergeRedo } = require('../benchmark/redo')
  const suiteRows = (suite, table, flags, opsPerSec) => ({ suite, table, group: 'r', name: 'cryptographer.js', opsPerSec, ours: true, noise: { flags } })
  const old = run()
  old.results = [suiteRows('A', 'a', [], 1), suiteRows('B', 'b', ['our interval spans 1.40×'], 2), suiteRows('C', 'c', [], 3)]
  old.tables = [{ suite: 'B', title: 'b plain', columns: ['x'], rows: [['1']] }]
  old.notes = { b: 'old note', a: 'kept note' }
  old.facts = { f: 1, g: 2 }
  old.failures = ['b / r: peer threw', 'a / r: other threw', 'B: the suite stopped: x is not a function']
  t.deepEqual(noisySuites(old), ['B'])
  const fresh = run({ others: 0.2, before: 0.1, after: 1.5 })
  fresh.results = [suiteRows('B', 'b', [], 20)]
  fresh.tables = [{ suite: 'B', title: 'b plain', columns: ['x'], rows: [['2']] }]
  fresh.notes = { b: 'new note' }
  fresh.facts = { g: 3 }
  fresh.failures = []
  fresh.config.seconds = 12
  fresh.machine.commit = '0123456789ab'
  // A backend that changed between the runs is named with the suites run again.
  old.machine.cpuPaths = { sha256: 'sha-ni', chacha20: 'avx2' }
  fresh.machine.cpuPaths = { sha256: 'sha-ni', chacha20: 'avx512-ifma' }
  const merged = mergeRedo(old, fresh, ['B'], ['b-file'])
  t.deepEqual(merged.results.map((r) => [r.suite, r.opsPerSec]), [['A', 1], ['B', 20], ['C', 3]])
  t.deepEqual(merged.tables[0].rows, [['2']])
  t.deepEqual(merged.notes, { a: 'kept note', b: 'new note' })
  t.deepEqual(merged.facts, { f: 1, g: 3 })
  t.deepEqual(merged.failures, ['a / r: other threw'])
  t.deepEqual(merged.config.redone, [{ suites: ['B'], date: fresh.machine.date, commit: '0123456789ab', seconds: 12, paths: { chacha20: 'avx512-ifma' } }])
  // The worse of both: load before 0.5 (old) and after 1.5 (redo); other processes 20 % (redo).
  t.deepEqual([merged.noise.before.load[0], merged.noise.after.load[0], merged.noise.during.others], [0.5, 1.5, 0.2])
  t.is(merged.noise.segments.length, 2)
  t.deepEqual(noise.assess(merged).reasons, ['other processes took 20 % of the CPU time during the run (bound 10 %)'])
  t.throws(() => mergeRedo(old, { ...fresh, machine: { ...fresh.machine, cpu: 'Other CPU' } }, ['B']), { message: /--redo needs the same machine/ })
})

test('--resume: a run that stopped part-way is refused by bench:docs, and completed in its order by the suites it had left', async (t) => {
  const { mergeRedo } = require('../benchmark/redo')
  const { docsGate } = await report()
  const rows = (suite, table, opsPerSec) => ({ suite, table, group: 'r', name: 'cryptographer.js', opsPerSec, ours: true, noise: { flags: [] } })
  const stopped = run({ suites: ['hash', 'kdf'] })
  stopped.results.push(rows('A', 'a', 1))
  stopped.config.partial = { remaining: ['kdf'] }
  t.deepEqual(docsGate(stopped, { suites: ['hash', 'kdf'] }).partial, ['it stopped part-way, before the suites kdf (node benchmark/benchmark.js --resume completes it)'])
  const rest = run({ after: 1.5 })
  rest.results = [rows('K', 'k', 2)]
  rest.config.seconds = 30
  rest.machine.commit = 'abcdef012345'
  const whole = mergeRedo(stopped, rest, ['K'], ['kdf'], 'resumed')
  t.deepEqual(whole.results.filter((r) => r.suite.length === 1).map((r) => [r.suite, r.opsPerSec]), [['A', 1], ['K', 2]])
  t.is(whole.results.at(-1).suite, 'K')
  t.is(whole.config.partial, undefined)
  t.is(whole.config.redone, undefined)
  t.deepEqual(whole.config.resumed, [{ suites: ['K'], date: rest.machine.date, commit: 'abcdef012345', seconds: 30, paths: {} }])
  t.deepEqual(whole.config.suites, ['hash', 'kdf'])
  // Both parts' load is kept, and the worse counts: the second part's 1.5 after.
  t.is(whole.noise.after.load[0], 1.5)
  t.deepEqual(docsGate(whole, { suites: ['hash', 'kdf'] }), { noisy: [], partial: [] })
})

test('a quiet machine with rows over a bound is called that, not a noisy run; a busy one is a noisy run', async (t) => {
  const { verdictLine } = await report()
  t.regex(verdictLine(run({ flagged: 1 })).text, /^Quiet machine, rows over a bound: 1 of 4 rows broke a bound/)
  t.regex(verdictLine(run({ flagged: 1, others: 0.5 })).text, /^Noisy run: other processes took 50 %/)
  t.regex(verdictLine(run()).text, /^Quiet run/)
})

withCharts('a page published with rows over a bound says the machine-wide bounds held; a busy run is stamped NOISY', async (t) => {
  const { writeDocs } = await report()
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-docs-rows-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  await writeDocs(run({ flagged: 1 }), { out: path.join(dir, 'rows'), suites: ['hash'], allowNoisy: true })
  const rows = fs.readFileSync(path.join(dir, 'rows', 'README.md'), 'utf8')
  t.regex(rows, /Published with rows over a noise bound \(--allow-noisy\): 1 of 4 rows broke a bound\. The machine-wide bounds held/)
  t.notRegex(rows, /NOISY run/)
  await writeDocs(run({ flagged: 1, before: 3 }), { out: path.join(dir, 'busy'), suites: ['hash'], allowNoisy: true })
  t.regex(fs.readFileSync(path.join(dir, 'busy', 'README.md'), 'utf8'), /Published from a NOISY run \(--allow-noisy\): the 1-minute load average was 3\.00 before the run/)
})
