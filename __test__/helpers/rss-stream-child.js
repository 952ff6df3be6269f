'use strict'
// Run by cipher-stream.spec.js (and benchmark/suites/cipher-stream.js) in a child process
// (Linux: /proc/self/status, clear_refs; see rss.js): seals and opens a sparse file of argv[2]
// bytes with encryptFile / decryptFile, and runs as many bytes through encryptStream /
// decryptStream, each against node's own createCipheriv / createDecipheriv stream doing the same
// work, in alternating order (rss.js's pairedGrowth). Prints JSON: `files` (name -> measure),
// `streams` (name -> { ours, reference }) and `buffering`, one measure of encryptStream followed by
// a Transform that buffers its whole output: what the checks must refuse (against encryptStream's
// reference).
// The stream source hands out one reused 64 KiB buffer and the sink drops what it gets, so what
// is measured is the cipher side. argv[3]: the segment size (default 64 KiB); argv[4]: the rounds
// per stream pair (default 2).
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const nodeCrypto = require('node:crypto')
const { Writable } = require('node:stream')
const { pipeline } = require('node:stream/promises')
const { cipher } = require('../..')
const { bufferingTransform, markAt, measure, pairedGrowth, peakGrowth, reusedSource } = require('./rss')

const SIZE = Number(process.argv[2])
const SEGMENT = Number(process.argv[3] || 65536)
const ROUNDS = Number(process.argv[4] || 2)
const KEY = Buffer.alloc(32, 7)
const CHUNK = Buffer.alloc(64 * 1024, 0x5a)
const dir = fs.existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir()
const file = (name) => path.join(dir, `cryptographer-rss-${process.pid}-${name}`)

const sink = () => new Writable({ write: (c, e, cb) => cb() })

/** The file cases: native end to end (decryptFile opens what encryptFile sealed). */
const files = () => ({
  'aes.encryptFile': () => cipher.aes.encryptFile(file('plain'), file('sealed'), { key: KEY, segmentSize: SEGMENT }),
  'aes.decryptFile': () => cipher.aes.decryptFile(file('sealed'), file('back'), { key: KEY }),
  'xchacha20.encryptFile': () => cipher.xchacha20.encryptFile(file('plain'), file('sealed2'), { key: KEY, segmentSize: SEGMENT }),
})

/**
 * The stream pairs over `size` bytes: ours, and node's own cipher stream over the same source
 * (node has no streaming AEAD to decrypt ours with: CTR over the sealed file stands in for it, the
 * same chunks in and out).
 */
const streams = (size) => {
  const seal = (transform) => (mark) => pipeline(reusedSource(size, CHUNK), markAt(size / 2, mark), transform(), sink())
  const open = (transform) => (mark) => pipeline(fs.createReadStream(file('sealed')), markAt(size / 2, mark), transform(), sink())
  return {
    'aes.encryptStream': {
      ours: seal(() => cipher.aes.encryptStream({ key: KEY, segmentSize: SEGMENT })),
      reference: seal(() => nodeCrypto.createCipheriv('aes-256-gcm', KEY, Buffer.alloc(12))),
    },
    'aes.decryptStream': {
      ours: open(() => cipher.aes.decryptStream({ key: KEY })),
      reference: open(() => nodeCrypto.createDecipheriv('aes-256-ctr', KEY, Buffer.alloc(16))),
    },
  }
}

/** encryptStream into a Transform that holds everything until the end. */
const buffering = (size) => (mark) =>
  pipeline(reusedSource(size, CHUNK), markAt(size / 2, mark), cipher.aes.encryptStream({ key: KEY, segmentSize: SEGMENT }), bufferingTransform(), sink())

async function main() {
  try {
    // Warm-up on 8 MiB: the addon, the pools and the stream classes are loaded before the first
    // baseline.
    fs.closeSync(fs.openSync(file('plain'), 'w'))
    fs.truncateSync(file('plain'), 8 << 20)
    for (const run of Object.values(files())) await run()
    for (const pair of Object.values(streams(8 << 20))) {
      await pair.ours(() => {})
      await pair.reference(() => {})
    }
    await buffering(8 << 20)(() => {})
    fs.truncateSync(file('plain'), SIZE)
    const out = { files: await peakGrowth(files()) }
    out.streams = await pairedGrowth(streams(SIZE), ROUNDS)
    out.buffering = await measure(buffering(SIZE))
    process.stdout.write(JSON.stringify(out))
  } finally {
    for (const n of ['plain', 'sealed', 'back', 'sealed2']) fs.rmSync(file(n), { force: true })
  }
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
