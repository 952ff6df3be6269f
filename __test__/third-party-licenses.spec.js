'use strict'
// npm/<target>/THIRD-PARTY-LICENSES against the crates' own files, read here from Cargo's registry
// (not through scripts/third-party-licenses.mjs, which writes them): the notices the licences of
// the statically linked C and assembly code require are there, word for word, in every platform
// package. Needs cargo (for the crates' source directories); without it the test says what it
// did not check.
const test = require('ava')
const fs = require('node:fs')
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const { parseTriple } = require('@napi-rs/cli')

const root = path.join(__dirname, '..')
const pkg = require('../package.json')
const targets = pkg.napi.targets.map((triple) => parseTriple(triple))
const noticesOf = (t) => fs.readFileSync(path.join(root, 'npm', t.platformArchABI, 'THIRD-PARTY-LICENSES'), 'utf8')

test('every platform package lists THIRD-PARTY-LICENSES in its files, and the root package ships no compiled code', (t) => {
  for (const target of targets) {
    const manifest = require(`../npm/${target.platformArchABI}/package.json`)
    t.true(manifest.files.includes('THIRD-PARTY-LICENSES'), target.platformArchABI)
    t.true(noticesOf(target).startsWith(`Third-party software in ${pkg.napi.packageName}-${target.platformArchABI}\n`), target.platformArchABI)
  }
  t.false(pkg.files.some((f) => /\.(node|wasm|so|dylib|dll)$/.test(f)), 'root files')
})

test('AWS-LC, ring, fiat-crypto, once_cell and BLAKE3 notices are in every platform package verbatim', (t) => {
  const meta = spawnSync('cargo', ['metadata', '--locked', '--format-version', '1'], { cwd: root, encoding: 'utf8', maxBuffer: 256 << 20 })
  if (meta.status !== 0) {
    t.log(`SKIPPED: cargo metadata failed (${(meta.error && meta.error.message) || meta.stderr.trim().split('\n').pop()}); the notices were not compared with the crates' files`)
    t.pass()
    return
  }
  const dirOf = (name) => {
    const p = JSON.parse(meta.stdout).packages.find((x) => x.name === name)
    return path.dirname(p.manifest_path)
  }
  const required = [
    ['aws-lc-sys', 'aws-lc/LICENSE'], // AWS-LC: its own, BoringSSL's, OpenSSL's and the others' notices
    ['aws-lc-sys', 'aws-lc/third_party/fiat/LICENSE'],
    ['ring', 'LICENSE'],
    ['ring', 'LICENSE-BoringSSL'],
    ['ring', 'LICENSE-other-bits'],
    ['ring', 'src/polyfill/once_cell/LICENSE-MIT'],
    ['ring', 'third_party/fiat/LICENSE'],
    ['blake3', 'LICENSE_A2'],
    ['subtle', 'LICENSE'], // BSD-3-Clause
  ]
  // A text several crates share is printed once, so compare modulo trailing whitespace.
  const norm = (s) => s.replace(/\r\n/g, '\n').replace(/[ \t]+$/gm, '').trim()
  for (const target of targets) {
    const notices = norm(noticesOf(target))
    for (const [crate, file] of required) {
      t.true(notices.includes(norm(fs.readFileSync(path.join(dirOf(crate), file), 'utf8'))), `${target.platformArchABI}: ${crate} ${file}`)
    }
  }
})
