#!/usr/bin/env node
// npm run licenses — write npm/<target>/THIRD-PARTY-LICENSES for every target in napi.targets:
// the licence files of every crate compiled into that target's .node, generated from Cargo.lock.
// npm run check:licenses (--check) — regenerate in memory and fail if a committed file differs
// (a crate added, removed or updated in Cargo.lock without regenerating). Where a nightly
// toolchain is installed, --check also compares each target's crate set with Cargo's own unit
// graph of the release cdylib build (`cargo +nightly build --unit-graph`: the crates compiled for
// the target, build scripts and procedural macros aside) and fails if they differ.
//
// Which crates: `cargo tree --locked --target <triple> -e normal,no-proc-macro`, the dependency
// graph of the cdylib as Cargo builds it for that target: normal dependencies only (no dev- or
// build-dependencies, no procedural macros, which run in the compiler and are not linked), with
// per-target `cfg` dependencies and features resolved for that target.
// Their texts: every file a crate's package ships whose name starts with LICENSE, LICENCE,
// COPYING, COPYRIGHT, NOTICE or UNLICENSE, at any depth (ring's and AWS-LC's notices for the
// code they took from BoringSSL, OpenSSL, fiat-crypto and once_cell are in such files), read
// from the crate's source in Cargo's registry (`cargo metadata`). AWS-LC's LICENSE is printed as
// the crate ships it. A text shared by several crates (ignoring trailing whitespace) is printed
// once, under the names of all of them. A crate that ships no such file is accepted only under
// the MIT licence, printed with the authors its Cargo.toml names; any other case fails.
//
// Usage: node scripts/third-party-licenses.mjs [--check]
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const require = createRequire(import.meta.url)
const { parseTriple } = require('@napi-rs/cli')
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'))
const check = process.argv.includes('--check')
export const FILE_NAME = 'THIRD-PARTY-LICENSES'

const cargo = (args) =>
  execFileSync('cargo', args, { cwd: root, encoding: 'utf8', maxBuffer: 256 << 20, stdio: ['ignore', 'pipe', 'inherit'] })

const NOTICE_FILE = /^(licen[cs]e|copying|copyright|notice|unlicense)([-._].*)?$/i
// The standard MIT text, for a crate under MIT whose package ships no licence file.
const MIT_TEXT = `Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to deal
in the Software without restriction, including without limitation the rights
to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all
copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
SOFTWARE.
`
const RULE = '='.repeat(80)
const CRATE_LIST = 'Crate version: licence, as its Cargo.toml declares it'

function noticeFiles(dir) {
  const found = []
  const walk = (d) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const file = path.join(d, entry.name)
      if (entry.isDirectory()) walk(file)
      else if (entry.isFile() && NOTICE_FILE.test(entry.name)) found.push(path.relative(dir, file).split(path.sep).join('/'))
    }
  }
  walk(dir)
  return found
}

// The crates linked into the cdylib for one target triple, as "name version" keys.
function linkedCrates(triple, rootName) {
  const out = cargo(['tree', '--locked', '--target', triple, '-e', 'normal,no-proc-macro', '--prefix', 'none', '-f', '{p}'])
  const crates = new Set()
  for (const line of out.split('\n')) {
    const m = /^(\S+) v(\S+)/.exec(line)
    if (m && m[1] !== rootName) crates.add(`${m[1]} ${m[2]}`)
  }
  return crates
}

// The same set from Cargo's unit graph of `cargo build --release --lib --target <triple>`
// (nightly only): every library unit compiled for the target and reachable from the cdylib
// without passing through a build script or a procedural macro. null without a nightly toolchain.
function unitGraphCrates(triple, rootName) {
  let out
  try {
    out = execFileSync('cargo', ['+nightly', 'build', '--locked', '--release', '--lib', '--target', triple, '--unit-graph', '-Z', 'unstable-options'], { cwd: root, encoding: 'utf8', maxBuffer: 256 << 20, stdio: ['ignore', 'pipe', 'ignore'] })
  } catch {
    return null
  }
  const { units, roots } = JSON.parse(out)
  const crates = new Set()
  const seen = new Set()
  const stack = [...roots]
  while (stack.length) {
    const i = stack.pop()
    if (seen.has(i)) continue
    seen.add(i)
    const u = units[i]
    if (u.mode !== 'build' || u.platform !== triple || u.target.kind.some((k) => k === 'proc-macro' || k === 'custom-build')) continue
    const m = /#(?:(.+)@)?([^@#]+)$/.exec(u.pkg_id)
    const name = (m && m[1]) || u.pkg_id.replace(/#.*$/, '').split('/').pop()
    if (name !== rootName) crates.add(`${name} ${m[2]}`)
    for (const d of u.dependencies) stack.push(d.index)
  }
  return crates
}

// Each crate's licence texts: [{ file, text }], read once per crate.
function cratesTexts(meta) {
  const texts = new Map()
  return (key) => {
    if (texts.has(key)) return texts.get(key)
    const p = meta.get(key)
    const dir = path.dirname(p.manifest_path)
    let entries = noticeFiles(dir).map((file) => ({ file, text: fs.readFileSync(path.join(dir, file), 'utf8').replace(/\r\n/g, '\n') }))
    if (entries.length === 0) {
      if (p.license !== 'MIT') {
        throw new Error(`${key} (${p.license}) ships no licence file: add its notice to ${path.relative(root, fileURLToPath(import.meta.url))}`)
      }
      const holders = (p.authors || []).map((a) => a.replace(/\s*<[^>]*>/, '')).join(', ') || `the ${p.name} authors`
      entries = [{ file: '(no licence file in the package: the MIT License, with the authors its Cargo.toml names)', text: `MIT License\n\nCopyright (c) ${holders}\n\n${MIT_TEXT}` }]
    }
    texts.set(key, entries)
    return entries
  }
}

function render(target, crates, meta, textsOf) {
  const binary = `${pkg.napi.binaryName}.${target.platformArchABI}.node`
  const keys = [...crates].sort((a, b) => {
    const [an, av] = a.split(' ')
    const [bn, bv] = b.split(' ')
    return an === bn ? (av < bv ? -1 : 1) : an < bn ? -1 : 1
  })
  // Group identical texts (trailing whitespace aside), in the order of their first crate.
  const groups = new Map()
  for (const key of keys) {
    for (const { file, text } of textsOf(key)) {
      const norm = text.replace(/[ \t]+$/gm, '').trim()
      if (!groups.has(norm)) groups.set(norm, { text, users: [] })
      groups.get(norm).users.push(`${key} (${file})`)
    }
  }
  if (![...groups.values()].some((g) => /Apache License\s+Version 2\.0/.test(g.text))) {
    throw new Error(`${target.triple}: no Apache License 2.0 text among the crates, which the Rust standard library paragraph refers to`)
  }
  const width = Math.max(...keys.map((k) => k.length))
  const lines = [
    `Third-party software in ${pkg.napi.packageName}-${target.platformArchABI}`,
    '',
    `The binary in this package, ${binary}, is cryptographer.js's own code (the MIT`,
    `License, in LICENSE) compiled together with the ${keys.length} Rust crates listed below, as Cargo.lock`,
    `resolves them for ${target.triple}, and with the Rust standard library (core, alloc,`,
    'std and the crates they use; Copyright (c) The Rust Project Contributors; used under the Apache',
    'License 2.0, one of its "MIT OR Apache-2.0" options, whose text is below). Each crate\'s licence',
    'and notice files follow as the crate ships them; a text that several crates ship is printed once,',
    'under all of their names.',
    '',
    'Generated from Cargo.lock by scripts/third-party-licenses.mjs (npm run licenses); do not edit.',
    '',
    CRATE_LIST,
    ...keys.map((k) => `  ${k.padEnd(width)}  ${meta.get(k).license}`),
  ]
  for (const { text, users } of groups.values()) {
    lines.push('', RULE, ...users.map((u) => `  ${u}`), RULE, '', text.replace(/\s+$/, ''))
  }
  return lines.join('\n') + '\n'
}

function main() {
  const metadata = JSON.parse(cargo(['metadata', '--locked', '--format-version', '1']))
  const rootPkg = metadata.packages.find((p) => p.id === metadata.resolve.root)
  const meta = new Map()
  for (const p of metadata.packages) {
    const key = `${p.name} ${p.version}`
    if (meta.has(key)) throw new Error(`two packages ${key} in Cargo.lock (different sources): tell them apart here`)
    meta.set(key, p)
  }
  const textsOf = cratesTexts(meta)
  const stale = []
  let crossChecked = true
  for (const triple of pkg.napi.targets) {
    const target = parseTriple(triple)
    const crates = linkedCrates(triple, rootPkg.name)
    const text = render(target, crates, meta, textsOf)
    const file = path.join(root, 'npm', target.platformArchABI, FILE_NAME)
    const rel = path.relative(root, file)
    const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null
    if (check) {
      const graph = unitGraphCrates(triple, rootPkg.name)
      if (graph === null) crossChecked = false
      else {
        const onlyTree = [...crates].filter((k) => !graph.has(k))
        const onlyGraph = [...graph].filter((k) => !crates.has(k))
        if (onlyTree.length || onlyGraph.length) {
          console.log(`FAIL ${triple}: cargo tree and the unit graph disagree: only in cargo tree ${onlyTree.join(', ') || '-'}; only in the unit graph ${onlyGraph.join(', ') || '-'}`)
          stale.push(triple)
          continue
        }
      }
      if (current === text) {
        console.log(`ok   ${rel}: ${crates.size} crates${graph ? ', the same as in the unit graph' : ''}`)
        continue
      }
      const lines = (current || '').split('\n')
      const list = lines.slice(lines.indexOf(CRATE_LIST) + 1, lines.indexOf('', lines.indexOf(CRATE_LIST)))
      const listed = new Set(current === null ? [] : list.map((l) => l.trim().split(/\s+/).slice(0, 2).join(' ')))
      const missing = current === null ? [] : [...crates].filter((k) => !listed.has(k)).sort()
      const extra = [...listed].filter((k) => !crates.has(k))
      console.log(`FAIL ${rel}: ${current === null ? 'missing' : 'stale'}${missing.length ? `; lacks ${missing.join(', ')}` : ''}${extra.length ? `; lists ${extra.join(', ')}, no longer linked` : ''}`)
      stale.push(rel)
    } else if (current !== text) {
      fs.writeFileSync(file, text)
      console.log(`wrote ${rel}: ${crates.size} crates, ${text.length} bytes`)
    } else {
      console.log(`ok   ${rel}: up to date`)
    }
  }
  if (check && !crossChecked) console.log('     not compared with the unit graph: no nightly toolchain (rustup toolchain install nightly)')
  if (stale.length) {
    console.error(`${stale.length} check(s) failed: where a file does not match Cargo.lock, run \`npm run licenses\` and commit it`)
    process.exitCode = 1
  }
}

main()
