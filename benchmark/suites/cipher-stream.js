'use strict'
// Streaming authenticated encryption (cipher.aes / cipher.xchacha20 encryptFile, decryptFile,
// encryptStream; docs/stream-format.md).
//
// 1. Streaming encryption of 10 MB and 100 MB files, per segment size: time,
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

function child(kind, src, dst, segment) {
  return JSON.parse(execFileSync(process.execPath, [path.join(__dirname, '..', 'stream-child.js'), kind, src, dst, String(segment || '')], { encoding: 'utf8' }))
}

/** The segment-size table for one file size. */
function segmentTable(h, size, label) {
  if (h.filter && !h.filter.test(`${label} file`)) return
  const src = makeFile(file(`segments-${size}`), size)
  const dst = file(`segments-${size}.out`)
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
  const mib = (b) => (Number.isNaN(b) ? 'n/a' : (b / MiB).toFixed(1))
  const files = rows.filter((r) => r.method.startsWith('aes.encryptFile'))
  const one = rows.find((r) => r.method.startsWith('one-shot'))
  const best = files.reduce((a, b) => (b.mbps > a.mbps ? b : a))
  const seg = files.find((r) => r.method.includes('(64 KiB')) || files[0]
  h.fact('sealMemory', { label, fileMBs: seg.mbps, fileMiB: seg.peak / MiB, oneShotMBs: one.mbps, oneShotMiB: one.peak / MiB })
  h.table(
    `${label} file encryption: time, peak memory (RSS rise) and throughput (median of ${runs} runs, each in a fresh process)`,
    ['Method', 'ms', 'peak memory MiB', 'MB/s'],
    rows.map((r) => [r.method, r.ms.toFixed(0), mib(r.peak), r.mbps.toFixed(0)]),
    {
      finding:
        `aes.encryptFile runs ${files.map((r) => r.mbps).reduce((a, b) => Math.min(a, b)).toFixed(0)}–${best.mbps.toFixed(0)} MB/s over these segment sizes ` +
        `(best: ${best.method.replace(/^aes\.encryptFile \((.*)\)$/, '$1')}), with a peak memory of ${mib(Math.min(...files.map((r) => r.peak)))}–${mib(Math.max(...files.map((r) => r.peak)))} MiB; ` +
        `reading the file whole and encrypting it in one call: ${one.mbps.toFixed(0)} MB/s and ${mib(one.peak)} MiB.`,
    },
  )
}

module.exports = {
  title: 'Streaming AEAD',
  async run(h) {
    segmentTable(h, 10e6, '10 MB')
    segmentTable(h, 100e6, '100 MB')

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
      await h.compare(
        { table, row: 'AES-256-GCM seal' },
        none([
          { name: 'encryptFile', fn: () => cipher.aes.encryptFile(src, dst, { key: KEY }) },
          { name: "node pipeline(createReadStream, createCipheriv('aes-256-gcm'), createWriteStream)", fn: node('aes-256-gcm', 12) },
          { name: 'one-shot aes.encrypt, in memory', ours: true, fn: async () => cipher.aes.encrypt(data, { key: KEY }) },
          { name: 'encryptStream between node file streams', ours: true, fn: () => pipeline(fs.createReadStream(src), cipher.aes.encryptStream({ key: KEY }), fs.createWriteStream(dst)) },
        ]),
        { bytes: size, async: true, check: false, time },
      )
      await h.compare(
        { table, row: 'AES-256-GCM open' },
        none([
          { name: 'decryptFile', fn: () => cipher.aes.decryptFile(sealed, dst, { key: KEY }) },
          { name: 'decryptStream between node file streams', ours: true, fn: () => pipeline(fs.createReadStream(sealed), cipher.aes.decryptStream({ key: KEY }), fs.createWriteStream(dst)) },
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
    } finally {
      for (const p of [src, dst, sealed]) fs.rmSync(p, { force: true })
    }

    if (process.platform === 'linux') {
      const out = runChild('rss-stream-child.js', [size, 65536, 1])
      // The files, then each stream and after it node's own cipher stream doing the same work.
      const rows = Object.entries(out.files)
      for (const [name, { ours, reference }] of Object.entries(out.streams)) rows.push([name, ours[0]], [`node's own stream (as ${name})`, reference[0]])
      const worst = rows.filter(([name]) => !name.startsWith("node's")).reduce((a, b) => (b[1].peak > a[1].peak ? b : a))
      h.table(
        `Peak RSS growth over ${label} through every form, and node's own cipher stream doing the same work (a sparse file in /dev/shm; one fresh process)`,
        ['Form', 'peak RSS growth MiB', 'ms'],
        rows.map(([name, { peak, ms }]) => [name, (peak / MiB).toFixed(1), ms]),
        { finding: `Every form of ours keeps its memory bounded: the most, ${(worst[1].peak / MiB).toFixed(1)} MiB (${worst[0]}), for ${label} of data.` },
      )
    }
  },
}
