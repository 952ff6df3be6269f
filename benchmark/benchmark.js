#!/usr/bin/env node
'use strict'
// cryptographer.js benchmark: every suite in benchmark/suites, side by side with its peers.
//
//   node benchmark/benchmark.js [--quick] [--suite hash,kdf] [--filter regex] [--json file] [--md file]
//                               [--out dir] [--no-report] [--compare baseline.json] [--compare-mode rate|speedup]
//   node benchmark/benchmark.js --redo results/latest.json    (the suites with a noisy row, again)
//   node benchmark/benchmark.js --resume results/partial.json (the suites a stopped run had left)
//
// Prints tables as it goes (with a progress line), then writes benchmark/results/latest.{json,md},
// report.html and plots/ (or the given files; --out moves the report and plots). With --compare,
// prints the rows that moved beyond their noise against the baseline and exits 2 on a regression.
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { execFileSync } = require('node:child_process')
const { pathToFileURL } = require('node:url')
const { Harness, machineLine, markdownOf } = require('./harness')
const { assess, describe } = require('../lib/bench/noise')
const { noisySuites, mergeRedo } = require('./redo')
const { Progress } = require('./progress')
const { compareRuns, formatComparison } = require('./compare')

function parseArgs(argv) {
  const args = { quick: false, suites: null, filter: null, json: null, md: null, out: null, report: true, compare: null, compareMode: 'auto', redo: null, resume: null }
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    if (a === '--quick') args.quick = true
    else if (a === '--out') args.out = argv[++i]
    else if (a === '--no-report') args.report = false
    else if (a === '--compare') args.compare = argv[++i]
    else if (a === '--compare-mode') args.compareMode = argv[++i]
    else if (a === '--suite') args.suites = argv[++i].split(',')
    else if (a === '--filter') args.filter = new RegExp(argv[++i], 'i')
    else if (a === '--json') args.json = argv[++i]
    else if (a === '--md') args.md = argv[++i]
    else if (a === '--redo') args.redo = argv[++i]
    else if (a === '--resume') args.resume = argv[++i]
    else throw new Error(`unknown argument ${a}`)
  }
  return args
}

/** The checked-out commit, with "+changes" when the tree differs from it (null outside git). */
function commit() {
  try {
    const head = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: __dirname, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: __dirname, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()
    return dirty ? `${head}+changes` : head
  } catch {
    return null
  }
}

function rustc() {
  try {
    return execFileSync('rustc', ['-V'], { encoding: 'utf8' }).trim()
  } catch {
    return null
  }
}

/** A suite file's title, as the run records it. */
const titleOf = (dir, f) => require(path.join(dir, f)).title || f

/**
 * --redo: the run to complete, and the suites (files and titles) to run again: those named by
 * --suite (after a change to the code they measure), or else those with a row that broke a noise
 * bound; the new run takes the old one's mode.
 */
function redoPlan(args, dir, files) {
  const old = JSON.parse(fs.readFileSync(args.redo, 'utf8'))
  if (!old.noise?.before) throw new Error(`${args.redo} recorded no load figures: run the benchmark again in full`)
  if (old.config.filter || args.filter) throw new Error(`${args.redo}: --redo completes whole runs, without --filter`)
  const titles = args.suites ? files.map((f) => titleOf(dir, f)) : noisySuites(old)
  args.quick = Boolean(old.config.quick)
  return { old, titles, files: files.filter((f) => titles.includes(titleOf(dir, f))) }
}

/**
 * --resume: a run that stopped part-way (the process ended: a fatal error, a kill), saved after
 * each of its suites as results/partial.json, and the suites it had left; the new part takes the
 * run's mode.
 */
function resumePlan(args, dir, files) {
  const old = JSON.parse(fs.readFileSync(args.resume, 'utf8'))
  const left = old.config?.partial?.remaining
  if (!left) throw new Error(`${args.resume} is not a run that stopped part-way (no config.partial)`)
  if (old.config.filter || args.filter || args.suites) throw new Error('--resume completes the run as it was started, without --filter or --suite')
  args.quick = Boolean(old.config.quick)
  const todo = files.filter((f) => left.includes(f))
  return { old, titles: todo.map((f) => titleOf(dir, f)), files: todo }
}

async function main() {
  const args = parseArgs(process.argv.slice(2))
  const dir = path.join(__dirname, 'suites')
  // The last suites run one thread: the load average after the run is then the machine's.
  const order = ['hash', 'batch', 'files', 'streams', 'kdf', 'password', 'cipher', 'cipher-stream', 'age', 'pk', 'pq', 'pq-dsa', 'hybrid', 'diagnostics', 'reuse', 'bun', 'wasm', 'app', 'memory', 'first-call', 'headline']
  let files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.js'))
    .map((f) => f.slice(0, -3))
    .sort((a, b) => (order.indexOf(a) + 1 || 99) - (order.indexOf(b) + 1 || 99))
    .filter((f) => !args.suites || args.suites.includes(f))
  if (args.redo && args.resume) throw new Error('--redo and --resume cannot be combined: resume the run first')
  const redo = args.redo ? redoPlan(args, dir, files) : args.resume ? { ...resumePlan(args, dir, files), how: 'resumed' } : null
  if (redo?.how === 'resumed') {
    files = redo.files
    console.log(`Running the suites the run had left: ${redo.titles.join(', ')}`)
  } else if (redo) {
    if (!redo.files.length) {
      console.log(`${args.redo}: no row broke a noise bound; nothing to run again.`)
      return
    }
    files = redo.files
    console.log(`Running again the suites with a noisy row: ${redo.titles.join(', ')}`)
  }
  const h = new Harness({ quick: args.quick, filter: args.filter })

  const ours = require('../package.json')
  const peers = ['hash-wasm', '@noble/hashes', 'crypto-js', ...Object.keys(require('./package.json').dependencies || {})]
  const versions = {}
  for (const p of new Set(peers)) versions[p] = h.peerVersion(p)
  // The code path each of our backends took here (src/cpu.rs), so a fall back to portable code shows.
  const cpuPaths = require('..').cpuPaths()
  const machine = { ...h.machine(), cpuPaths, rustc: rustc(), 'cryptographer.js': ours.version, commit: commit(), peers: versions }
  console.log(`Machine: ${machineLine(machine)}`)
  console.log(
    `Mode: ${args.quick ? 'quick' : 'full'}; each contestant is timed in ${h.rounds} interleaved rounds ` +
      '(median; interquartile range and the ratios\' intervals in brackets, "tie" when an interval includes 1).',
  )
  h.begin()
  console.log(`Load before the run: load average ${os.loadavg().map((x) => x.toFixed(2)).join(' / ')} (1 / 5 / 15 min) on ${os.cpus().length} cores`)

  const outDir = path.join(__dirname, 'results')
  fs.mkdirSync(outDir, { recursive: true })
  const progress = new Progress({
    suites: files,
    key: `${args.quick ? 'quick' : 'full'} ${args.filter ? args.filter.source : ''}`.trim(),
    file: path.join(outDir, 'timing.json'),
  })
  progress.attach()
  h.onRow = (label) => progress.row(label)
  const started = Date.now()
  // Suites that put nothing on the page (a filter left none of their rows, they failed to, or
  // they could not run here: `skipped`, the reason a suite's run returned).
  const empty = []
  const skipped = {}
  const jsonFile = args.json || path.join(outDir, 'latest.json')
  const mdFile = args.md || path.join(outDir, 'latest.md')
  const configOf = () => ({
    quick: args.quick,
    filter: args.filter ? args.filter.source : null,
    suites: files,
    emptySuites: empty,
    skippedSuites: skipped,
    rounds: h.rounds,
    timePerContestantMs: h.time,
    level: h.level,
    seconds: (Date.now() - started) / 1000,
    argv: process.argv.slice(2).join(' '),
  })
  const runOf = (noiseSummary, config) => {
    const fresh = { machine, config, noise: noiseSummary, results: h.results, tables: h.tables, plots: h.plots, facts: h.facts, notes: h.notes, failures: h.failures }
    return redo ? mergeRedo(redo.old, fresh, redo.titles, files, redo.how) : fresh
  }
  // Saved after every suite, so that a process that ends part-way (a fatal error in a peer, a
  // kill) loses one suite's figures, not the run's: --resume runs the suites it had left.
  const partialFile = path.join(path.dirname(jsonFile), 'partial.json')
  const checkpoint = (done) => {
    const config = { ...configOf(), partial: { remaining: files.slice(done) } }
    const run = runOf(h.monitor.snapshot(), config)
    // A resumed run's own record of what is left replaces the old one.
    run.config = { ...run.config, partial: config.partial }
    fs.writeFileSync(partialFile, JSON.stringify(run))
  }
  try {
    for (const [i, f] of files.entries()) {
      const suite = require(path.join(dir, f))
      h.suite = suite.title || f
      progress.suite(i)
      console.log(`\n== ${h.suite} ==`)
      const before = h.results.length + h.tables.length
      let why
      try {
        why = await suite.run(h)
      } catch (err) {
        // One suite's failure costs its own figures, not the run's: the others still run and are
        // saved, the failure is listed (and bench:docs refuses the run), and --redo --suite can
        // run that suite again once it is fixed.
        console.error(err)
        h.failures.push(`${h.suite}: the suite stopped: ${err?.message ?? err}`)
      }
      if (h.results.length + h.tables.length === before) empty.push(f)
      if (typeof why === 'string') skipped[f] = why
      if (!args.filter && i + 1 < files.length) checkpoint(i + 1)
    }
  } finally {
    progress.finish()
  }

  const config = configOf()
  h.end()
  const run = runOf(h.noise, config)
  const verdict = assess(run)
  console.log(`\nLoad: ${describe(run.noise)}`)
  console.log(
    verdict.verdict === 'quiet'
      ? `Noise: quiet (every bound held over the run and its ${verdict.rows} rows)`
      : `Noise: NOISY: ${verdict.reasons.join('; ')}. npm run bench:docs will refuse this run.`,
  )
  fs.writeFileSync(jsonFile, JSON.stringify(run, null, 2))
  fs.rmSync(partialFile, { force: true })
  console.log(`\nResults: ${jsonFile}`)
  if (args.report) {
    // The report needs vega, vega-lite and @resvg/resvg-js from benchmark/package.json.
    try {
      const report = await import(pathToFileURL(path.join(__dirname, 'report.mjs')).href)
      const dirOut = args.out || path.dirname(args.json ? path.resolve(args.json) : jsonFile)
      // A whole run's report also shows the Node.js-versions table (npm run bench:node-matrix) of this machine.
      const whole = !args.suites && !args.filter ? report.withNodeMatrix(run, path.join(outDir, 'node-matrix.json')) : run
      const plots = await report.writeReport(whole, dirOut, { md: mdFile })
      console.log(`Report: ${path.join(dirOut, 'report.html')}, ${mdFile}, ${plots.length} plots in ${path.join(dirOut, 'plots')}`)
    } catch (err) {
      fs.writeFileSync(mdFile, `Machine: ${machineLine(machine)}\n\n${markdownOf(run)}`)
      console.log(`Report not written (${err.message}); ${mdFile} written`)
      process.exitCode = 1
    }
  } else {
    fs.writeFileSync(mdFile, `Machine: ${machineLine(machine)}\n\n${markdownOf(run)}`)
  }
  if (h.failures.length) {
    console.log(`\n${h.failures.length} contestant(s) were not timed:\n  ${h.failures.join('\n  ')}`)
    process.exitCode = 1
  }
  if (args.compare) {
    const baseline = JSON.parse(fs.readFileSync(args.compare, 'utf8'))
    const c = compareRuns(baseline, run, { mode: args.compareMode })
    console.log(`\n${formatComparison(c, args.compare)}`)
    if (c.regressions.length) process.exitCode = 2
  }
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
