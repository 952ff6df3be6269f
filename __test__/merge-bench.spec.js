'use strict'
// scripts/merge-bench.mjs: several machines' benchmark JSON files → one platform table.
const test = require('ava')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { execFileSync } = require('node:child_process')

const SCRIPT = path.join(__dirname, '..', 'scripts', 'merge-bench.mjs')
const rec = (table, group, name, opsPerSec, bytes = 1024) => ({ suite: table.split(',')[0], table, group, name, opsPerSec, mbPerSec: (opsPerSec * bytes) / 1e6 })

// Shaped like benchmark/benchmark.js output; the distractors must not be picked.
const linux = {
  machine: { platform: 'linux-x64', cpu: 'Xeon', cores: 4, node: 'v22.1.0' },
  results: [
    rec('Hash, 64 B input, hex output', 'sha256', 'cryptographer.js', 9e6, 64),
    rec('Hash, 1 KiB input, hex output', 'sha256', 'node createHash', 1e6),
    rec('Hash, 1 KiB input, hex output', 'sha512_256', 'cryptographer.js', 7e5),
    rec('Hash, 1 KiB input, hex output', 'sha3_256', 'cryptographer.js', 6e5),
    rec('Hash, 1 KiB input, hex output', 'sha256', 'cryptographer.js', 1_234_000),
    rec('Hash, 1 KiB input, Buffer output', 'sha256', 'cryptographer.js', 2e6),
    rec('HMAC, 1 KiB input, hex output', 'sha256', 'cryptographer.js', 5e5),
    rec('Hash, 1 KiB input, hex output', 'blake3', 'cryptographer.js', 2_100_000),
    rec('Cipher, 1 KiB', 'aes-256-cbc decrypt', 'cryptographer.js', 3e6),
    rec('Cipher, 1 KiB', 'aes-256-cbc encrypt', 'cryptographer.js', 850_000),
  ],
}
const mac = {
  machine: { platform: 'darwin-arm64', cpu: 'Apple M1', cores: 8, node: 'v24.0.0' },
  results: [rec('Hash, 1 KiB input, hex output', 'sha256', 'cryptographer.js', 15_500)],
}

test('one row per platform, SHA-256 / AES-256-CBC / BLAKE3 at 1 KiB for cryptographer.js only', (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'merge-bench-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  const a = path.join(dir, 'bench-linux-x64-musl.json')
  const b = path.join(dir, 'bench-darwin-arm64.json')
  fs.writeFileSync(a, JSON.stringify(linux))
  fs.writeFileSync(b, JSON.stringify(mac))
  const outFile = path.join(dir, 'table.md')
  const stdout = execFileSync(process.execPath, [SCRIPT, '--out', outFile, a, b], { encoding: 'utf8' })
  t.is(fs.readFileSync(outFile, 'utf8'), stdout)
  const lines = stdout.split('\n').filter((l) => l.startsWith('|'))
  t.deepEqual(lines, [
    '| Platform | CPU | Node | SHA-256 (1 KiB) | AES-256-CBC (1 KiB) | BLAKE3 (1 KiB) |',
    '|---|---|---|--:|--:|--:|',
    '| Linux (x64, musl) | Xeon (4 cores) | v22.1.0 | 1.23 M ops/s (1264 MB/s) | 850 k ops/s (870 MB/s) | 2.10 M ops/s (2150 MB/s) |',
    '| macOS (arm64) | Apple M1 (8 cores) | v24.0.0 | 16 k ops/s (16 MB/s) | n/a | n/a |',
  ])
})

test('no files: usage message and exit code 2', (t) => {
  const err = t.throws(() => execFileSync(process.execPath, [SCRIPT], { encoding: 'utf8', stdio: 'pipe' }))
  t.is(err.status, 2)
  t.regex(err.stderr, /usage: node scripts\/merge-bench\.mjs/)
})
