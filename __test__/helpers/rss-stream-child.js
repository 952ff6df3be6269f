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
const { Readable, Writable } = require('node:stream')
const { pipeline } = require('node:stream/promises')
const { cipher } = require('../..')

const SIZE = Number(process.argv[2])
const SEGMENT = Number(process.argv[3] || 65536)
const KEY = Buffer.alloc(32, 7)
const CHUNK = Buffer.alloc(64 * 1024, 0x5a)
const dir = fs.existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir()
const file = (name) => path.join(dir, `cryptographer-rss-${process.pid}-${name}`)

const status = (field) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(fs.readFileSync('/proc/self/status', 'utf8'))[1]) * 1024

function source(size) {
  let left = size
  return new Readable({
    read() {
      const n = Math.min(left, CHUNK.length)
      left -= n
      this.push(n === 0 ? null : n === CHUNK.length ? CHUNK : CHUNK.subarray(0, n))
    },
  })
}

const sink = () => new Writable({ write: (c, e, cb) => cb() })

/** The cases: the file pair, then the stream pair (decryptStream reads the sealed file). */
const cases = (size) => ({
  'aes.encryptFile': () => cipher.aes.encryptFile(file('plain'), file('sealed'), { key: KEY, segmentSize: SEGMENT }),
  'aes.decryptFile': () => cipher.aes.decryptFile(file('sealed'), file('back'), { key: KEY }),
  'aes.encryptStream': () => pipeline(source(size), cipher.aes.encryptStream({ key: KEY, segmentSize: SEGMENT }), sink()),
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
    const out = {}
    for (const [name, run] of Object.entries(cases(SIZE))) {
      global.gc?.()
      fs.writeFileSync('/proc/self/clear_refs', '5') // resets the peak RSS (VmHWM) to the RSS now
      const before = status('VmRSS')
      const t0 = performance.now()
      await run()
      out[name] = { growth: status('VmHWM') - before, ms: Math.round(performance.now() - t0) }
      // The page cache of /dev/shm files is shared memory, counted in RSS only when mapped: it
      // is not (reads and writes copy), so the files do not show here.
    }
    process.stdout.write(JSON.stringify(out))
  } finally {
    for (const n of ['plain', 'sealed', 'back', 'sealed2']) fs.rmSync(file(n), { force: true })
  }
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
