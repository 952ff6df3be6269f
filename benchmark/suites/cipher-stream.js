'use strict'
// Streaming authenticated encryption (cipher.aes / cipher.xchacha20 encryptFile, decryptFile,
// encryptStream; docs/stream-format.md).
//
// 1. Seed 002's table: streaming encryption of 10 MB and 100 MB files, per segment size: time,
//    peak memory (the rise of the peak RSS of a fresh process, benchmark/stream-child.js) and
//    throughput, for encryptFile, encryptStream between node's file streams, and one-shot
//    aes.encrypt of the file read whole. Median of 3 runs each.
// 2. The targets, side by side in interleaved rounds on a 1 GiB file in the page cache (256 MiB
//    with --quick): aes.encryptFile against node's pipeline(createReadStream,
//    createCipheriv('aes-256-gcm'), createWriteStream) (which authenticates nothing until its
//    end) and against one-shot aes.encrypt of the same bytes in memory; decryptFile; XChaCha20.
// 3. The peak RSS growth of 1 GiB through every form (__test__/helpers/rss-stream-child.js).
//
//   node benchmark/benchmark.js --suite cipher-stream      (BENCH_FILE_DIR=<dir> to place the files)
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const nodeCrypto = require('node:crypto')
const { execFileSync } = require('node:child_process')
const { pipeline } = require('node:stream/promises')
const { cipher } = require('../..')
const { makeFile } = require('../harness')
const { runChild } = require('../../__test__/helpers/rss')

const MiB = 1 << 20
const KEY = Buffer.alloc(32, 9)
const dir = () => process.env.BENCH_FILE_DIR || os.tmpdir()
const file = (name) => path.join(dir(), `cryptographer-bench-stream-${process.pid}-${name}`)

const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1]
const rate = (rows, name) => (rows || []).find((r) => r.name === name)?.opsPerSec

function child(kind, src, dst, segment) {
  return JSON.parse(execFileSync(process.execPath, [path.join(__dirname, '..', 'stream-child.js'), kind, src, dst, String(segment || '')], { encoding: 'utf8' }))
}

/** Seed 002's table for one file size. */
function seedTable(h, size, label) {
  if (h.filter && !h.filter.test(`${label} file`)) return
  const src = makeFile(file(`seed-${size}`), size)
  const dst = file(`seed-${size}.out`)
  const rows = []
  const runs = h.quick ? 1 : 3
  const cases = [
    ...[64 * 1024, 512 * 1024, MiB, 2 * MiB, 16 * MiB].map((s) => ['encryptFile', s]),
    ...[64 * 1024, MiB].map((s) => ['encryptStream', s]),
    ['oneShot', 0],
  ]
  try {
    for (const [kind, seg] of cases) {
      const results = Array.from({ length: runs }, () => child(kind, src, dst, seg))
      const ms = median(results.map((r) => r.ms))
      const growth = median(results.map((r) => r.growth ?? NaN))
      rows.push({
        method: kind === 'oneShot' ? 'one-shot aes.encrypt (readFile, writeFile)' : `aes.${kind} (${seg >= MiB ? `${seg / MiB} MiB` : `${seg / 1024} KiB`} segments)`,
        ms,
        peak: growth,
        mbps: size / 1e6 / (ms / 1000),
      })
    }
  } finally {
    fs.rmSync(src, { force: true })
    fs.rmSync(dst, { force: true })
  }
  console.log(`  ${label} file encryption (median of ${runs} runs, each in a fresh process):`)
  console.log('  | method | time | peak memory (RSS rise) | throughput |')
  console.log('  |---|---:|---:|---:|')
  for (const r of rows) {
    console.log(`  | ${r.method} | ${r.ms.toFixed(0)} ms | ${Number.isNaN(r.peak) ? 'n/a' : `${(r.peak / MiB).toFixed(1)} MiB`} | ${r.mbps.toFixed(0)} MB/s |`)
  }
  h.results.push(...rows.map((r) => ({ suite: h.suite, table: `${label} file`, group: r.method, name: 'seed table', opsPerSec: 1000 / r.ms, ratio: null, ms: r.ms, peakRssGrowth: r.peak, mbPerSec: r.mbps })))
}

module.exports = {
  title: 'Streaming AEAD',
  async run(h) {
    seedTable(h, 10e6, '10 MB')
    seedTable(h, 100e6, '100 MB')

    const size = h.quick ? 256 * MiB : 1024 * MiB
    const label = h.quick ? '256 MiB' : '1 GiB'
    const src = makeFile(file('big'), size)
    const dst = file('big.out')
    const sealed = file('big.sealed')
    try {
      await cipher.aes.encryptFile(src, sealed, { key: KEY })
      const data = fs.readFileSync(src)
      const table = `File of ${label} in the page cache (ops/s; bold: our speed-up)`
      const time = h.quick ? 1500 : 4000
      const node = (alg, ivLen) => async () => {
        const c = nodeCrypto.createCipheriv(alg, KEY, nodeCrypto.randomBytes(ivLen), { authTagLength: 16 })
        await pipeline(fs.createReadStream(src), c, fs.createWriteStream(dst))
        return c.getAuthTag()
      }
      // Outputs differ (random nonces): not compared, and not turned into strings either.
      const none = (list) => list.map((c) => ({ ...c, out: () => '' }))
      const aes = await h.compare(
        { table, row: 'AES-256-GCM seal' },
        none([
          { name: 'encryptFile', fn: () => cipher.aes.encryptFile(src, dst, { key: KEY }) },
          { name: "node pipeline(createReadStream, createCipheriv('aes-256-gcm'), createWriteStream)", fn: node('aes-256-gcm', 12) },
          { name: 'one-shot aes.encrypt, in memory', fn: async () => cipher.aes.encrypt(data, { key: KEY }) },
          { name: 'encryptStream between node file streams', fn: () => pipeline(fs.createReadStream(src), cipher.aes.encryptStream({ key: KEY }), fs.createWriteStream(dst)) },
        ]),
        { bytes: size, async: true, check: false, time },
      )
      await h.compare(
        { table, row: 'AES-256-GCM open' },
        none([
          { name: 'decryptFile', fn: () => cipher.aes.decryptFile(sealed, dst, { key: KEY }) },
          { name: 'decryptStream between node file streams', fn: () => pipeline(fs.createReadStream(sealed), cipher.aes.decryptStream({ key: KEY }), fs.createWriteStream(dst)) },
        ]),
        { bytes: size, async: true, check: false, time },
      )
      await h.compare(
        { table, row: 'XChaCha20-Poly1305 seal' },
        none([
          { name: 'encryptFile', fn: () => cipher.xchacha20.encryptFile(src, dst, { key: KEY }) },
          { name: "node pipeline(createReadStream, createCipheriv('chacha20-poly1305'), createWriteStream)", fn: node('chacha20-poly1305', 12) },
        ]),
        { bytes: size, async: true, check: false, time },
      )
      const ratio = (a, b) => (a && b ? `${(a / b).toFixed(2)}×` : 'n/a')
      console.log('  Ratios of this run (the targets in brackets):')
      console.log(`    aes.encryptFile / node pipeline(createReadStream, createCipheriv, createWriteStream): ${ratio(rate(aes, 'encryptFile'), rate(aes, "node pipeline(createReadStream, createCipheriv('aes-256-gcm'), createWriteStream)"))} [≥ 1.5×]`)
      console.log(`    aes.encryptFile / one-shot aes.encrypt in memory: ${ratio(rate(aes, 'encryptFile'), rate(aes, 'one-shot aes.encrypt, in memory'))} [≥ 0.7×]`)
    } finally {
      for (const p of [src, dst, sealed]) fs.rmSync(p, { force: true })
    }

    if (process.platform === 'linux') {
      const out = runChild('rss-stream-child.js', [size, 65536, 1])
      // The files, then each stream and after it node's own cipher stream doing the same work.
      const rows = Object.entries(out.files)
      for (const [name, { ours, reference }] of Object.entries(out.streams)) rows.push([name, ours[0]], [`node's own stream (as ${name})`, reference[0]])
      console.log(`  Peak RSS growth over ${label} (a sparse file in /dev/shm; target < 32 MiB for the files):`)
      for (const [name, { peak, ms }] of rows) console.log(`    ${name}: +${(peak / MiB).toFixed(1)} MiB (${ms} ms)`)
      h.results.push(...rows.map(([name, r]) => ({ suite: h.suite, table: `peak RSS, ${label}`, group: name, name, opsPerSec: 1000 / r.ms, ratio: null, mbPerSec: null, peakRssGrowth: r.peak, ms: r.ms })))
    }
  },
}
