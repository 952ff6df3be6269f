'use strict'
// Peak memory of one piece of work, measured in a fresh child process so that neither the
// benchmark's own buffers nor earlier rows count: the child loads the library, warms the work up
// on a tiny input, records its RSS, runs the work once, and reports the peak RSS the kernel saw
// (`resourceUsage().maxRSS`) minus that baseline, with the wall time of the run.
//
//   const { peak } = require('./memory'); await peak('file', { alg: 'md5', path, impl: 'ours' })
//
// The work kinds are the `WORK` table below; each takes one options object.
const { execFileSync } = require('node:child_process')
const fs = require('node:fs')
const nodeCrypto = require('node:crypto')
const { pipeline } = require('node:stream/promises')
const { Readable } = require('node:stream')

const MiB = 1 << 20

/** Hashes a file with ours (`X.file`) or node's pipeline(createReadStream, createHash). */
function hashFile(crypto, { alg, path, impl }) {
  if (impl === 'ours') return crypto.sha[alg].file(path)
  const h = nodeCrypto.createHash(alg)
  return pipeline(fs.createReadStream(path), h).then(() => h.read().toString('hex'))
}

const WORK = {
  /** One file hashed. */
  file: (crypto, o) => hashFile(crypto, o),
  /** `files` hashed, `concurrency` at a time. */
  async concurrency(crypto, { alg, files, concurrency, impl }) {
    const queue = [...files]
    const worker = async () => {
      while (queue.length) await hashFile(crypto, { alg, path: queue.shift(), impl })
    }
    await Promise.all(Array.from({ length: concurrency }, worker))
  },
  /** `size` bytes in `chunk`-byte pieces through a digest stream. */
  async chunks(crypto, { alg, size, chunk, impl }) {
    const data = nodeCrypto.randomBytes(size)
    const pieces = []
    for (let o = 0; o < size; o += chunk) pieces.push(data.subarray(o, o + chunk))
    const sink = impl === 'ours' ? crypto.sha[alg].stream() : nodeCrypto.createHash(alg)
    await pipeline(Readable.from(pieces), sink)
    return sink.read()
  },
}

/** In the child: warm up, take the baseline, run once, print the figures. */
async function child(kind, options) {
  const crypto = require('..')
  const o = JSON.parse(options)
  const work = WORK[kind]
  if (kind === 'chunks') await work(crypto, { ...o, size: Math.min(o.size, 4096), chunk: Math.min(o.chunk, 64) })
  else await work(crypto, { ...o, files: o.files?.slice(0, 1), concurrency: 1 })
  global.gc?.()
  const base = process.memoryUsage().rss
  const t0 = process.hrtime.bigint()
  await work(crypto, o)
  const ms = Number(process.hrtime.bigint() - t0) / 1e6
  const after = process.memoryUsage().rss
  // maxRSS is the process's peak so far: the run's peak, unless start-up peaked higher, so
  // `peak` is exact when the run set it and an upper bound otherwise.
  const peak = Math.max(0, process.resourceUsage().maxRSS * 1024 - base)
  process.stdout.write(JSON.stringify({ ms, base, after, peak }))
}

/** Runs `kind` with `options` in a child process; resolves to `{ ms, base, after, peak }` (bytes). */
function peak(kind, options) {
  const out = execFileSync(process.execPath, ['--expose-gc', __filename, kind, JSON.stringify(options)], {
    encoding: 'utf8',
    maxBuffer: MiB,
  })
  return JSON.parse(out)
}

if (require.main === module) {
  child(process.argv[2], process.argv[3]).catch((err) => {
    console.error(err)
    process.exit(1)
  })
}

module.exports = { peak, MiB }
