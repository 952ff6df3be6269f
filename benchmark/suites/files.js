'use strict'
// Streams and files: X.file() on a 1 GiB file in the page cache (256 MiB with --quick) against
// node's pipeline(fs.createReadStream(p), crypto.createHash(...)) and one-shot hashing of the same
// bytes already in memory; X.stream() and X.async(Readable) over 64 KiB chunks against one-shot.
// Ends with the ratios the streaming API is held to, from the rows of this run.
//
//   node benchmark/benchmark.js --suite files      (BENCH_FILE_DIR=<dir> to place the file)
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const nodeCrypto = require('node:crypto')
const { Readable } = require('node:stream')
const { pipeline } = require('node:stream/promises')
const { sha } = require('../..')
const { makeFile: writeFile } = require('../harness')

const MiB = 1 << 20
const CHUNK = 64 * 1024

/** A file of `size` random bytes, in the page cache. */
const makeFile = (size) => writeFile(path.join(process.env.BENCH_FILE_DIR || os.tmpdir(), `cryptographer-bench-${process.pid}.bin`), size)

/** The one chunk a digest stream pushes. */
async function drain(readable) {
  let out
  for await (const d of readable) out = d
  return out
}

module.exports = {
  title: 'Hashing files and streams: file(), stream(), async(Readable)',
  async run(h) {
    const size = h.quick ? 256 * MiB : 1024 * MiB
    const label = h.quick ? '256 MiB' : '1 GiB'
    const file = makeFile(size)
    try {
      const data = fs.readFileSync(file)
      const table = `File of ${label} in the page cache (ops/s; bold: file() speed-up)`
      // One operation takes about a second: five rounds of one timed call each.
      const time = h.quick ? 1000 : 2500
      await h.compare(
        { table, row: 'sha256' },
        [
          { name: 'file()', fn: () => sha.sha256.file(file) },
          {
            name: 'node pipeline(createReadStream, createHash)',
            fn: async () => {
              const hash = nodeCrypto.createHash('sha256')
              await pipeline(fs.createReadStream(file), hash)
              return hash.read()
            },
          },
          { name: 'one-shot, in memory', ours: true, fn: async () => sha.sha256(data) },
          { name: 'node createHash, in memory', fn: async () => nodeCrypto.createHash('sha256').update(data).digest('hex') },
        ],
        { bytes: size, async: true, time },
      )
      await h.compare(
        { table, row: 'blake3' },
        [
          { name: 'file()', fn: () => sha.blake3.file(file) },
          { name: 'one-shot, in memory', ours: true, fn: async () => sha.blake3(data) },
        ],
        { bytes: size, async: true, time },
      )

      // Streams over 64 KiB chunks of an in-memory buffer (the source costs the same for all).
      const n = h.quick ? 64 * MiB : 256 * MiB
      const input = data.subarray(0, n)
      const chunks = []
      for (let o = 0; o < n; o += CHUNK) chunks.push(input.subarray(o, o + CHUNK))
      const streamTable = `${n / MiB} MiB in 64 KiB chunks, pipeline(Readable.from(chunks), ...) (ops/s; bold: stream() speed-up)`
      for (const name of ['sha256', 'blake3']) {
        await h.compare(
          { table: streamTable, row: name },
          [
            { name: 'stream()', fn: () => drain(Readable.from(chunks).pipe(sha[name].stream())) },
            { name: 'async(Readable)', ours: true, fn: () => sha[name].async(Readable.from(chunks)) },
            { name: 'one-shot, in memory', ours: true, fn: async () => sha[name](input) },
            {
              name: 'create().update() per chunk',
              ours: true,
              fn: async () => {
                const hasher = sha[name].create()
                for (const c of chunks) hasher.update(c)
                return hasher.digest()
              },
            },
            name === 'sha256' && {
              name: 'node createHash stream',
              fn: async () => {
                const hash = nodeCrypto.createHash('sha256')
                await pipeline(Readable.from(chunks), hash)
                return hash.read()
              },
            },
          ],
          { bytes: n, async: true, time: h.quick ? 600 : 1500 },
        )
      }
    } finally {
      fs.rmSync(file, { force: true })
    }
  },
}
