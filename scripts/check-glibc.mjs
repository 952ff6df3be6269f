#!/usr/bin/env node
// Prints the highest GLIBC_ symbol version each Linux gnu .node file needs, and fails when it is
// above the floor (default 2.17, the glibc of CentOS 7 / RHEL 7, which napi-rs targets too).
//
// Usage: node scripts/check-glibc.mjs [--max 2.17] [file.node ...]
// Without files it checks every cryptographer.linux-*-gnu.node in the repo root and npm/*/.
// Reads the dynamic symbol table with `readelf --dyn-syms -W` (binutils; reads any ELF machine, so
// an aarch64 build can be checked on an x64 host), else `objdump -T`.
import { execFileSync } from 'node:child_process'
import path from 'node:path'
import { builtFiles } from './built-files.mjs'

const args = process.argv.slice(2)
let max = '2.17'
const named = []
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--max') max = args[++i]
  else named.push(args[i])
}
const files = builtFiles(named, /^cryptographer\.linux-.*-gnu\.node$/, 'check-glibc')

const compare = (a, b) => {
  const x = a.split('.').map(Number)
  const y = b.split('.').map(Number)
  for (let i = 0; i < Math.max(x.length, y.length); i++) if ((x[i] || 0) !== (y[i] || 0)) return (x[i] || 0) - (y[i] || 0)
  return 0
}

function dynamicSymbols(file) {
  for (const [cmd, argv] of [['readelf', ['--dyn-syms', '-W', file]], ['objdump', ['-T', file]]]) {
    try {
      return execFileSync(cmd, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20 })
    } catch (err) {
      if (err.code !== 'ENOENT') throw new Error(`${cmd} failed on ${file}: ${err.stderr || err.message}`)
    }
  }
  throw new Error('neither objdump nor readelf is installed (apt-get install binutils)')
}

let failed = false
for (const file of files) {
  // Lines look like `0000 DF *UND* 0000 (GLIBC_2.14) memcpy` (objdump) or `memcpy@GLIBC_2.14 (3)` (readelf).
  const needs = new Map()
  for (const line of dynamicSymbols(file).split('\n')) {
    const elf = line.match(/(\S+)@GLIBC_(\d+(?:\.\d+)+)/)
    const obj = !elf && line.match(/\(GLIBC_(\d+(?:\.\d+)+)\)\s+(\S+)/)
    if (!elf && !obj) continue
    const [version, symbol] = elf ? [elf[2], elf[1]] : [obj[1], obj[2]]
    if (!needs.has(version)) needs.set(version, [])
    if (symbol) needs.get(version).push(symbol)
  }
  const versions = [...needs.keys()].sort(compare)
  const highest = versions[versions.length - 1]
  const rel = path.relative(process.cwd(), file) || file
  if (!highest) {
    console.log(`${rel}: no GLIBC_ symbol versions (not a glibc binary?)`)
    failed = true
    continue
  }
  const over = versions.filter((v) => compare(v, max) > 0)
  if (over.length === 0) {
    console.log(`${rel}: highest GLIBC_${highest} <= ${max}: ok`)
  } else {
    failed = true
    console.log(`${rel}: highest GLIBC_${highest} > ${max}: FAIL`)
    for (const v of over) console.log(`  GLIBC_${v}: ${[...new Set(needs.get(v))].sort().join(', ')}`)
  }
}
process.exit(failed ? 1 : 0)
