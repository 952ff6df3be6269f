'use strict'
// Run by hash-stream-files.spec.js in a child process (Linux: /proc/self/status, clear_refs; see
// rss.js): hashes a sparse file of argv[2] bytes with file() (sequential and BLAKE3's tree) and
// fileSync(), and argv[3] bytes through stream() and async(iterable), each against node's own
// createHash fed the same way, in alternating order (rss.js's pairedGrowth). Prints JSON: `files`
// (name -> measure) and `streams` (name -> { ours, reference }). The stream sources hand out one
// reused 64 KiB buffer, so what is measured is the hashing side, not a source's garbage.
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const nodeCrypto = require('node:crypto')
const { pipeline } = require('node:stream/promises')
const { sha, hmac } = require('../..')
const { markAt, pairedGrowth, peakGrowth, reusedSource } = require('./rss')

const SIZE = Number(process.argv[2])
const STREAM_SIZE = Number(process.argv[3] || SIZE)
const ROUNDS = Number(process.argv[4] || 2)
const CHUNK = Buffer.alloc(64 * 1024, 0x5a)
const dir = fs.existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir()
const file = path.join(dir, `cryptographer-rss-${process.pid}.bin`)

/** `size` bytes in 64 KiB pieces of one buffer; `mark()` once half of them went out. */
async function* chunks(size, mark) {
  for (let left = size; left > 0; left -= CHUNK.length) {
    if (left <= size / 2) mark()
    yield left >= CHUNK.length ? CHUNK : CHUNK.subarray(0, left)
  }
}

const drain = async (digests) => {
  for await (const d of digests) void d
}

/** The file cases, over the file `f`. */
const files = (f) => ({
  'sha256.file': () => sha.sha256.file(f),
  'blake3.file': () => sha.blake3.file(f),
  'hmac.sha512.fileSync': () => hmac.sha512.fileSync(f, { key: 'k' }),
})

/** The stream pairs over `size` bytes: ours, and node's createHash fed the same way. */
const streams = (size) => {
  const piped = (transform) => (mark) => pipeline(reusedSource(size, CHUNK), markAt(size / 2, mark), transform(), drain)
  return {
    'sha256.stream': {
      ours: piped(() => sha.sha256.stream()),
      reference: piped(() => nodeCrypto.createHash('sha256')),
    },
    'blake3.async(async generator)': {
      ours: (mark) => sha.blake3.async(chunks(size, mark)),
      reference: async (mark) => {
        const h = nodeCrypto.createHash('sha256')
        for await (const c of chunks(size, mark)) h.update(c)
        return h.digest()
      },
    },
  }
}

async function main() {
  fs.closeSync(fs.openSync(file, 'w'))
  try {
    // Warm-up on 8 MiB: the addon, the pools and the stream classes are loaded before the first
    // baseline.
    fs.truncateSync(file, 8 << 20)
    for (const run of Object.values(files(file))) await run()
    for (const pair of Object.values(streams(8 << 20))) {
      await pair.ours(() => {})
      await pair.reference(() => {})
    }
    fs.truncateSync(file, SIZE)
    const out = { files: await peakGrowth(files(file)) }
    out.streams = await pairedGrowth(streams(STREAM_SIZE), ROUNDS)
    process.stdout.write(JSON.stringify(out))
  } finally {
    fs.rmSync(file, { force: true })
  }
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
