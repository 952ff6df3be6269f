#!/usr/bin/env node
// npm run fuzz: coverage-guided fuzzing of every parser of untrusted input (docs/fuzzing.md).
//
// Rust parsers: the libFuzzer targets of fuzz/ (cargo fuzz, nightly). JavaScript parsers: the
// targets of fuzz/js/targets/ under jsfuzz (istanbul coverage). Each target starts from its seeds
// (fuzz/seeds/<target>/) and the inputs earlier runs kept (fuzz/corpus/<target>/, not committed),
// with its dictionary when it has one (fuzz/dict/<target>.dict), and runs for the time given;
// `--jobs` targets run side by side. A crash, a failed property or a timeout fails the run: the
// input is kept under fuzz/artifacts/<target>/ and the command that replays it is printed.
//
// Usage: node scripts/fuzz.mjs [--seconds N | --minutes N] [--jobs N] [--only a,b]
//                              [--rust | --js] [--build-only] [--list]
// Defaults: 30 seconds a target, as many jobs as cores. `.ci/run` runs `--seconds 20`.
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const fuzzDir = path.join(root, 'fuzz')
const args = process.argv.slice(2)
const opt = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined)
const seconds = opt('--minutes') ? Number(opt('--minutes')) * 60 : Number(opt('--seconds') ?? 30)
const jobs = Number(opt('--jobs') ?? os.availableParallelism?.() ?? os.cpus().length)
const only = opt('--only')?.split(',')
if (!(seconds > 0) || !(jobs >= 1)) {
  console.error('usage: node scripts/fuzz.mjs [--seconds N | --minutes N] [--jobs N] [--only a,b] [--rust | --js] [--build-only] [--list]')
  process.exit(2)
}

// ---- the targets ------------------------------------------------------------------------------

const rustTargets = [...fs.readFileSync(path.join(fuzzDir, 'Cargo.toml'), 'utf8').matchAll(/^name = "([a-z0-9_]+)"\npath = "fuzz_targets\//gm)].map((m) => m[1])
const jsTargets = fs
  .readdirSync(path.join(fuzzDir, 'js', 'targets'))
  .filter((f) => f.endsWith('.js'))
  .map((f) => f.slice(0, -3))
const targets = [
  ...(args.includes('--js') ? [] : rustTargets.map((name) => ({ name, kind: 'rust' }))),
  ...(args.includes('--rust') ? [] : jsTargets.map((name) => ({ name, kind: 'js' }))),
].filter((t) => !only || only.includes(t.name))
if (args.includes('--list')) {
  for (const t of targets) console.log(`${t.kind}\t${t.name}`)
  process.exit(0)
}
if (targets.length === 0) {
  console.error(`no target named ${only}: ${[...rustTargets, ...jsTargets].join(', ')}`)
  process.exit(2)
}

const run = (cmd, argv, opts = {}) => {
  const r = spawnSync(cmd, argv, { stdio: 'inherit', ...opts })
  if (r.status !== 0) {
    console.error(`${cmd} ${argv.join(' ')}: exit ${r.status ?? r.signal}`)
    process.exit(1)
  }
}

// ---- building the Rust targets ----------------------------------------------------------------

/**
 * The library as a Rust library for the fuzz crate to link: the root manifest with
 * `crate-type = ["rlib"]`, its sources and build script named by path. (The root package stays a
 * cdylib only: an rlib beside it would turn off its link-time optimisation.) The fuzz crate's
 * lock file starts as the root one, so the library's dependencies are the locked versions.
 */
function prepareLibrary() {
  const manifest = fs.readFileSync(path.join(root, 'Cargo.toml'), 'utf8')
  const lib = manifest
    .replace(/^crate-type = \["cdylib"\]$/m, `crate-type = ["rlib"]\npath = ${JSON.stringify(path.join(root, 'src', 'lib.rs'))}`)
    .replace(/^\[package\]$/m, `[package]\nbuild = ${JSON.stringify(path.join(root, 'build.rs'))}`)
    // Profiles are the fuzz workspace's.
    .replace(/^\[profile\.[^\n]*\n(?:(?!\[)[^\n]*\n?)*/gm, '')
  if (!lib.includes('crate-type = ["rlib"]') || !lib.includes('build = ')) {
    throw new Error('Cargo.toml: expected [package] and crate-type = ["cdylib"] under [lib]')
  }
  const dir = path.join(fuzzDir, 'target', 'lib')
  fs.mkdirSync(dir, { recursive: true })
  // Written only when changed: a new mtime would rebuild the library.
  const write = (file, text) => {
    if (!fs.existsSync(file) || fs.readFileSync(file, 'utf8') !== text) fs.writeFileSync(file, text)
  }
  write(path.join(dir, 'Cargo.toml'), `# Written by scripts/fuzz.mjs from the root Cargo.toml.\n${lib}`)
  // The fuzz lock file: the root one plus the fuzz crate's own packages (added by cargo on top).
  const lock = path.join(fuzzDir, 'Cargo.lock')
  const rootLock = fs.readFileSync(path.join(root, 'Cargo.lock'), 'utf8')
  const stamp = path.join(fuzzDir, 'target', 'root-lock')
  if (!fs.existsSync(lock) || !fs.existsSync(stamp) || fs.readFileSync(stamp, 'utf8') !== rootLock) {
    fs.writeFileSync(lock, rootLock)
    fs.writeFileSync(stamp, rootLock)
  }
}

// Built as the shipped code is (no `cfg(fuzzing)`), optimised, with debug assertions and overflow
// checks. No sanitizer: the crate is safe Rust outside its N-API boundary (not reached here) and
// its assembly kernels, which need every register AddressSanitizer's frame pointer takes; the
// targets' allocator (fuzz/fuzz_targets/bounded.rs) refuses oversized allocations instead.
const CARGO_FUZZ = ['+nightly', 'fuzz', 'build', '--fuzz-dir', fuzzDir, '--no-cfg-fuzzing', '--sanitizer', 'none']

function buildRust() {
  prepareLibrary()
  const started = Date.now()
  run('cargo', CARGO_FUZZ, { cwd: root })
  console.log(`fuzz targets built in ${((Date.now() - started) / 1000).toFixed(0)} s`)
}

// ---- running ----------------------------------------------------------------------------------

const triple = spawnSync('rustc', ['-vV'], { encoding: 'utf8' }).stdout.match(/^host: (.+)$/m)?.[1]
const binary = (name) => path.join(fuzzDir, 'target', triple, 'release', name)

/** The directories of a target: where new inputs go (first), then its committed seeds. */
function corpora(name) {
  const work = path.join(fuzzDir, 'corpus', name)
  fs.mkdirSync(work, { recursive: true })
  const seeds = path.join(fuzzDir, 'seeds', name)
  return fs.existsSync(seeds) ? [work, seeds] : [work]
}

function artifacts(name) {
  const dir = path.join(fuzzDir, 'artifacts', name)
  fs.mkdirSync(dir, { recursive: true })
  return dir
}

// libFuzzer options: the run time; inputs up to 64 KiB (an age header of many stanzas needs
// room); one input may take 10 s; -print_final_stats for the summary.
function rustCommand(name) {
  const dict = path.join(fuzzDir, 'dict', `${name}.dict`)
  return [
    binary(name),
    [
      `-max_total_time=${seconds}`,
      '-max_len=65536',
      '-timeout=10',
      '-rss_limit_mb=2048',
      '-print_final_stats=1',
      `-artifact_prefix=${artifacts(name)}${path.sep}`,
      ...(fs.existsSync(dict) ? [`-dict=${dict}`] : []),
      ...corpora(name),
    ],
  ]
}

const jsfuzz = path.join(fuzzDir, 'js', 'node_modules', 'jsfuzz', 'build', 'src', 'index.js')

// jsfuzz reads the target relative to its working directory (`scratch`).
function jsCommand(name, scratch) {
  const target = path.relative(scratch, path.join(fuzzDir, 'js', 'targets', `${name}.js`))
  return [process.execPath, [jsfuzz, target, ...corpora(name), '--timeout', '60', '--versifier', 'false', '--exact-artifact-path', path.join(artifacts(name), 'crash')]]
}

/** Runs one target for `seconds`; resolves to its summary. */
function fuzz(t) {
  return new Promise((resolve) => {
    // jsfuzz has no time limit: it is stopped by SIGINT to its process group (its worker then
    // exits cleanly at the next input). libFuzzer stops by itself.
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), `fuzz-${t.name}-`))
    const [cmd, argv] = t.kind === 'rust' ? rustCommand(t.name) : jsCommand(t.name, scratch)
    const child = spawn(cmd, argv, { cwd: scratch, detached: t.kind === 'js', stdio: ['ignore', 'pipe', 'pipe'] })
    const log = []
    const keep = (chunk) => {
      log.push(chunk)
      if (log.length > 4000) log.splice(0, 1000)
    }
    child.stdout.on('data', keep)
    child.stderr.on('data', keep)
    const started = Date.now()
    const timer = t.kind === 'js' ? setTimeout(() => process.kill(-child.pid, 'SIGINT'), seconds * 1000) : setTimeout(() => child.kill('SIGKILL'), (seconds + 120) * 1000)
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      fs.rmSync(scratch, { recursive: true, force: true })
      const text = Buffer.concat(log).toString('utf8')
      resolve({ ...t, code, signal, text, secs: (Date.now() - started) / 1000, ...stats(t.kind, text) })
    })
  })
}

/** Executions, coverage and corpus size from the fuzzer's output. */
function stats(kind, text) {
  if (kind === 'rust') {
    const lines = [...text.matchAll(/^#(\d+)\s+\w+\s+cov: (\d+) ft: (\d+) corp: (\d+)/gm)]
    const last = lines.at(-1)
    const execs = text.match(/^stat::number_of_executed_units: (\d+)$/m)?.[1] ?? last?.[1]
    return { execs: Number(execs ?? 0), cov: last ? `cov ${last[2]} ft ${last[3]}` : '?', corpus: Number(last?.[4] ?? 0) }
  }
  const last = [...text.matchAll(/^#(\d+) \w+\s+cov: (\d+) corp: (\d+)/gm)].at(-1)
  return { execs: Number(last?.[1] ?? 0), cov: last ? `cov ${last[2]}` : '?', corpus: Number(last?.[3] ?? 0) }
}

// A run that executed nothing failed too (a target that does not load, a fuzzer that broke).
const failed = (r) => r.code !== 0 || r.execs === 0 || (r.kind === 'js' && /crash was written to|MEMORY OOM|timeout reached|Error: /.test(r.text))

async function main() {
  const rust = targets.filter((t) => t.kind === 'rust')
  if (rust.length > 0) buildRust()
  if (targets.some((t) => t.kind === 'js') && !fs.existsSync(jsfuzz)) {
    run(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['ci', '--no-audit', '--no-fund'], { cwd: path.join(fuzzDir, 'js') })
  }
  if (args.includes('--build-only')) return
  console.log(`fuzzing ${targets.length} targets for ${seconds} s each, ${jobs} at a time`)
  const queue = [...targets]
  const results = []
  await Promise.all(
    Array.from({ length: Math.min(jobs, queue.length) }, async () => {
      while (queue.length > 0) {
        const r = await fuzz(queue.shift())
        results.push(r)
        console.log(`${failed(r) ? 'FAIL' : 'ok  '} ${r.kind} ${r.name}: ${r.execs} executions in ${r.secs.toFixed(0)} s, ${r.cov}, corpus ${r.corpus}`)
        if (failed(r)) {
          console.log(r.text.split('\n').slice(-60).join('\n'))
          const replay = r.kind === 'rust' ? `${binary(r.name)} <input>` : `node fuzz/js/replay.js ${r.name} <input>`
          console.log(`the input is in ${artifacts(r.name)}; replay it with: ${replay}`)
        }
      }
    }),
  )
  const bad = results.filter(failed)
  console.log(`fuzz: ${results.length - bad.length} passed, ${bad.length} failed`)
  process.exitCode = bad.length > 0 ? 1 : 0
}

main().catch((e) => {
  console.error(e)
  process.exit(1)
})
