'use strict'
// Run by hash-stream-files.spec.js in a child process (Linux: /proc/self/status, clear_refs):
// hashes a sparse file of argv[2] bytes with file() (sequential and BLAKE3's tree), and as many
// bytes through stream() and async(iterable), and prints, per case, how far the peak RSS rose
// above the RSS before it (in bytes) and the time it took. The stream sources hand out one
// reused 64 KiB buffer, so what is measured is the hashing side, not a source's garbage.
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { pipeline } = require('node:stream/promises')
const { sha, hmac } = require('../..')
const { peakGrowth, reusedSource } = require('./rss')

const SIZE = Number(process.argv[2])
const CHUNK = Buffer.alloc(64 * 1024, 0x5a)
const dir = fs.existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir()
const file = path.join(dir, `cryptographer-rss-${process.pid}.bin`)

const source = (size) => reusedSource(size, CHUNK)

async function* chunks(size) {
  for (let left = size; left > 0; left -= CHUNK.length) yield left >= CHUNK.length ? CHUNK : CHUNK.subarray(0, left)
}

/** The cases, over the file `f` of `size` bytes and sources of as many. */
const cases = (f, size) => ({
  'sha256.file': () => sha.sha256.file(f),
  'blake3.file': () => sha.blake3.file(f),
  'hmac.sha512.fileSync': () => hmac.sha512.fileSync(f, { key: 'k' }),
  'sha256.stream': () => pipeline(source(size), sha.sha256.stream(), async (digests) => { for await (const d of digests) void d }),
  'blake3.async(async generator)': () => sha.blake3.async(chunks(size)),
})

async function main() {
  fs.closeSync(fs.openSync(file, 'w'))
  try {
    // Warm-up on 8 MiB: the addon, the pools and the stream classes are loaded before the first
    // baseline.
    fs.truncateSync(file, 8 << 20)
    for (const run of Object.values(cases(file, 8 << 20))) await run()
    fs.truncateSync(file, SIZE)
    const out = await peakGrowth(cases(file, SIZE))
    process.stdout.write(JSON.stringify(out))
  } finally {
    fs.rmSync(file, { force: true })
  }
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
