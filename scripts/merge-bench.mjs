#!/usr/bin/env node
// Merges benchmark result files from several machines (`node benchmark/benchmark.js --json f`,
// one per CI platform) into one markdown table: a row per platform, a column per headline
// algorithm at 1 KiB, cryptographer.js throughput in each cell.
//
// Usage: node scripts/merge-bench.mjs [--out table.md] result.json [result.json ...]
// Each file is { machine: { platform, cpu, cores, node, ... }, results: [ { suite, table?, group,
// name, opsPerSec, mbPerSec } ] }. A row is labelled from machine.label when present, else from
// machine.platform (plus "musl" when the file name says so, since the platform string does not).
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const OURS = 'cryptographer.js'
// Headline columns: which result records are "SHA-256 at 1 KiB" and so on. A record matches when
// its suite/table/group text matches `match` and not `exclude`; the size must read 1 KiB.
export const COLUMNS = [
  { title: 'SHA-256', match: /(^|[^\w-])sha-?256($|[^\w-])/i, exclude: /hmac|sha3|sha512|pbkdf|hkdf|keccak/i },
  { title: 'AES-256-CBC', match: /aes[-_ ]?256[-_ ]?cbc/i, exclude: /decrypt|hmac/i },
  { title: 'BLAKE3', match: /blake3/i, exclude: /hmac|keyed|derive|kdf|mac/i },
]
const ONE_KIB = /(^|[^\d.])1 ?(KiB|KB|k)\b|(^|\D)1024 ?B\b/i

const PLATFORM_NAMES = { linux: 'Linux', darwin: 'macOS', win32: 'Windows', freebsd: 'FreeBSD' }

export function rowLabel(machine, file = '') {
  if (machine.label) return machine.label
  const [os, arch] = String(machine.platform || 'unknown').split('-')
  const libc = os === 'linux' && /musl/i.test(path.basename(file)) ? ', musl' : ''
  return `${PLATFORM_NAMES[os] || os} (${arch || '?'}${libc})`
}

export function formatOps(ops) {
  if (!Number.isFinite(ops)) return 'n/a'
  if (ops >= 1e6) return `${(ops / 1e6).toFixed(ops >= 1e7 ? 1 : 2)} M ops/s`
  if (ops >= 1e3) return `${(ops / 1e3).toFixed(ops >= 1e4 ? 0 : 1)} k ops/s`
  return `${ops.toFixed(ops >= 10 ? 0 : 1)} ops/s`
}

/** The cryptographer.js record for a column in one result file, or null. */
export function pick(results, column) {
  const text = (r) => [r.suite, r.table, r.group].filter(Boolean).join(' | ')
  const hits = results.filter((r) => r.name === OURS && column.match.test(text(r)) && !column.exclude.test(text(r)) && ONE_KIB.test(text(r)))
  // Prefer hex output (the default API) when several 1 KiB variants exist.
  return hits.find((r) => /hex/i.test(text(r))) || hits[0] || null
}

export function mergeTable(files) {
  const rows = files.map(({ file, data }) => {
    const machine = data.machine || {}
    const cells = COLUMNS.map((c) => {
      const r = pick(data.results || [], c)
      return r ? formatOps(r.opsPerSec) + (r.mbPerSec ? ` (${Math.round(r.mbPerSec)} MB/s)` : '') : 'n/a'
    })
    const cpu = `${machine.cpu || '?'}${machine.cores ? ` (${machine.cores} cores)` : ''}`
    return [rowLabel(machine, file), cpu, machine.node || '?', ...cells]
  })
  rows.sort((a, b) => a[0].localeCompare(b[0]))
  const header = ['Platform', 'CPU', 'Node', ...COLUMNS.map((c) => `${c.title} (1 KiB)`)]
  return [
    `| ${header.join(' | ')} |`,
    `|${header.map((_, i) => (i < 3 ? '---' : '--:')).join('|')}|`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n')
}

function main(argv) {
  let out = null
  const files = []
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--out') out = argv[++i]
    else files.push(argv[i])
  }
  if (files.length === 0) {
    console.error('usage: node scripts/merge-bench.mjs [--out table.md] result.json [...]')
    process.exit(2)
  }
  const loaded = files.map((file) => ({ file, data: JSON.parse(fs.readFileSync(file, 'utf8')) }))
  const table = `### Platform Performance\n\ncryptographer.js throughput, 1 KiB input, hex output (median of interleaved rounds; ` +
    `one CI runner per platform, so read across rows with care: shared runners differ in CPU and load).\n\n${mergeTable(loaded)}\n`
  if (out) fs.writeFileSync(out, table)
  process.stdout.write(table)
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) main(process.argv.slice(2))
