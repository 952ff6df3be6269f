'use strict'
// Run by cipher-stream.spec.js (and benchmark/suites/stream.js) in a child process (Linux:
// /proc/self/status, clear_refs): seals and opens a sparse file of argv[2] bytes with
// encryptFile / decryptFile, and as many bytes through encryptStream / decryptStream, and prints,
// per case, how far the peak RSS rose above the RSS before it (in bytes) and the time it took.
// The stream source hands out one reused 64 KiB buffer, and the sink drops what it gets, so what
// is measured is the cipher side. argv[3]: the segment size (default 64 KiB).
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { Writable } = require('node:stream')
const { pipeline } = require('node:stream/promises')
const { cipher } = require('../..')
const { peakGrowth, reusedSource } = require('./rss')

const SIZE = Number(process.argv[2])
const SEGMENT = Number(process.argv[3] || 65536)
const KEY = Buffer.alloc(32, 7)
const CHUNK = Buffer.alloc(64 * 1024, 0x5a)
const dir = fs.existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir()
const file = (name) => path.join(dir, `cryptographer-rss-${process.pid}-${name}`)

const sink = () => new Writable({ write: (c, e, cb) => cb() })

/** The cases: the file pair, then the stream pair (decryptStream reads the sealed file). */
const cases = (size) => ({
  'aes.encryptFile': () => cipher.aes.encryptFile(file('plain'), file('sealed'), { key: KEY, segmentSize: SEGMENT }),
  'aes.decryptFile': () => cipher.aes.decryptFile(file('sealed'), file('back'), { key: KEY }),
  'aes.encryptStream': () => pipeline(reusedSource(size, CHUNK), cipher.aes.encryptStream({ key: KEY, segmentSize: SEGMENT }), sink()),
  'aes.decryptStream': () => pipeline(fs.createReadStream(file('sealed')), cipher.aes.decryptStream({ key: KEY }), sink()),
  'xchacha20.encryptFile': () => cipher.xchacha20.encryptFile(file('plain'), file('sealed2'), { key: KEY, segmentSize: SEGMENT }),
})

async function main() {
  try {
    // Warm-up on 8 MiB: the addon, the pools and the stream classes are loaded before the first
    // baseline.
    fs.closeSync(fs.openSync(file('plain'), 'w'))
    fs.truncateSync(file('plain'), 8 << 20)
    for (const run of Object.values(cases(8 << 20))) await run()
    fs.truncateSync(file('plain'), SIZE)
    const out = await peakGrowth(cases(SIZE))
    process.stdout.write(JSON.stringify(out))
  } finally {
    for (const n of ['plain', 'sealed', 'back', 'sealed2']) fs.rmSync(file(n), { force: true })
  }
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
