'use strict'
// Peak memory of one piece of work, measured in a fresh child process so that neither the
// benchmark's own buffers nor earlier rows count: the child loads the library, warms the work up
// on a tiny input, records its RSS, runs the work once, and reports the peak RSS the kernel saw
// (`resourceUsage().maxRSS`) minus that baseline, with the wall time of the run, and each
// `process.memoryUsage()` figure (heap used and total, external, array buffers, RSS) before and
// after the run, with no collection in between.
//
//   const { peak } = require('./memory'); await peak('file', { alg: 'md5', path, impl: 'ours' })
//
// The work kinds are the `WORK` table below; each takes one options object. `WARM` gives the
// smaller work a kind warms up on (default: the same files, one at a time).
const { execFileSync } = require('node:child_process')
const fs = require('node:fs')
const nodeCrypto = require('node:crypto')
const { pipeline } = require('node:stream/promises')
const { Readable } = require('node:stream')

const MiB = 1 << 20
const os = require('node:os')
const path = require('node:path')

/** A peer from benchmark/node_modules (the child runs from this directory's file). */
const peer = (name) => require(require.resolve(name, { paths: [__dirname] }))

/**
 * The memory table's operations: fresh random input (and, for the ciphers, key and IV) in every
 * iteration, as an application hashing or encrypting requests does. `impl`: ours, node,
 * crypto-js, node-forge; each gets (cryptographer.js, the peer module).
 */
const OPS = {
  sha256: {
    ours: (c) => c.sha.sha256(nodeCrypto.randomBytes(1024)),
    node: () => nodeCrypto.createHash('sha256').update(nodeCrypto.randomBytes(1024)).digest('hex'),
    'crypto-js': (c, CryptoJS) => CryptoJS.SHA256(CryptoJS.lib.WordArray.create(nodeCrypto.randomBytes(1024))).toString(),
    'node-forge': (c, forge) => forge.md.sha256.create().update(nodeCrypto.randomBytes(1024).toString('binary')).digest().toHex(),
  },
  sha3_256: {
    ours: (c) => c.sha.sha3_256(nodeCrypto.randomBytes(1024)),
    node: () => nodeCrypto.createHash('sha3-256').update(nodeCrypto.randomBytes(1024)).digest('hex'),
  },
  blake3: { ours: (c) => c.sha.blake3(nodeCrypto.randomBytes(1024)) },
  ...Object.fromEntries(
    ['cbc', 'ctr'].map((mode) => [
      `aes-256-${mode}`,
      {
        ours: (c) => c.cipher.aes.encrypt(nodeCrypto.randomBytes(1024), { key: nodeCrypto.randomBytes(32), iv: nodeCrypto.randomBytes(16), mode }),
        node: () => {
          const x = nodeCrypto.createCipheriv(`aes-256-${mode}`, nodeCrypto.randomBytes(32), nodeCrypto.randomBytes(16))
          return Buffer.concat([x.update(nodeCrypto.randomBytes(1024)), x.final()])
        },
        'crypto-js': (c, CryptoJS) => {
          const wa = (n) => CryptoJS.lib.WordArray.create(nodeCrypto.randomBytes(n))
          const padding = mode === 'ctr' ? CryptoJS.pad.NoPadding : CryptoJS.pad.Pkcs7
          return CryptoJS.AES.encrypt(wa(1024), wa(32), { iv: wa(16), mode: CryptoJS.mode[mode.toUpperCase()], padding }).ciphertext
        },
        'node-forge': (c, forge) => {
          const bin = (n) => nodeCrypto.randomBytes(n).toString('binary')
          const x = forge.cipher.createCipher(`AES-${mode.toUpperCase()}`, bin(32))
          x.start({ iv: bin(16) })
          x.update(forge.util.createBuffer(bin(1024)))
          x.finish()
          return x.output.getBytes()
        },
      },
    ]),
  ),
}

const FILE_KEY = Buffer.alloc(32, 7)
const FILE_IV = Buffer.alloc(16, 9)

/**
 * File processing: SHA-256 or AES-256-CBC of a file read from disk. Ours: `file()`
 * for hashing (read and hashed off the event loop); no file API for AES-CBC, so the file is read
 * and encrypted in one call. node: createReadStream piped into createHash/createCipheriv. crypto-js:
 * the file read, converted to a WordArray, hashed or encrypted.
 */
async function processFile(crypto, { alg, path: file, impl }) {
  if (impl === 'ours') {
    if (alg === 'sha256') return crypto.sha.sha256.file(file)
    return crypto.cipher.aes.encrypt(await fs.promises.readFile(file), { key: FILE_KEY, iv: FILE_IV, mode: 'cbc' })
  }
  if (impl === 'node') {
    const sink = alg === 'sha256' ? nodeCrypto.createHash('sha256') : nodeCrypto.createCipheriv('aes-256-cbc', FILE_KEY, FILE_IV)
    const chunks = []
    sink.on('data', (d) => chunks.push(d))
    await pipeline(fs.createReadStream(file), sink)
    return alg === 'sha256' ? chunks[0].toString('hex') : Buffer.concat(chunks)
  }
  const CryptoJS = peer('crypto-js')
  const data = CryptoJS.lib.WordArray.create(await fs.promises.readFile(file))
  if (alg === 'sha256') return CryptoJS.SHA256(data).toString()
  const wa = (b) => CryptoJS.lib.WordArray.create(b)
  return CryptoJS.AES.encrypt(data, wa(FILE_KEY), { iv: wa(FILE_IV), mode: CryptoJS.mode.CBC, padding: CryptoJS.pad.Pkcs7 }).ciphertext
}

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
  /** `n` of the memory table's operations (`OPS[op][impl]`), in a loop. */
  ops(crypto, { op, impl, n }) {
    const f = OPS[op][impl]
    const lib = impl === 'ours' || impl === 'node' ? null : peer(impl)
    for (let i = 0; i < n; i++) f(crypto, lib)
  },
  /** One file hashed or encrypted (`processFile`). */
  process: (crypto, o) => processFile(crypto, o),
  /** One hybrid key pair of `suite`, with generateKeypair (`form` 'sync') or generateKeypairAsync. */
  hybridKeygen: (crypto, { suite, form }) => (form === 'sync' ? crypto.hybrid.generateKeypair({ suite }) : crypto.hybrid.generateKeypairAsync({ suite })),
}

/** The smaller work each kind warms up on. */
const WARM = {
  // The library's code paths, without an RSA prime search.
  hybridKeygen: (o) => ({ ...o, suite: 'x25519-mlkem768' }),
  chunks: (o) => ({ ...o, size: Math.min(o.size, 4096), chunk: Math.min(o.chunk, 64) }),
  ops: (o) => ({ ...o, n: 10 }),
  process(o) {
    const small = path.join(os.tmpdir(), `cryptographer-warm-${process.pid}.bin`)
    fs.writeFileSync(small, nodeCrypto.randomBytes(4096))
    return { ...o, path: small }
  },
}

/** Resets the kernel's peak RSS of this process to its RSS now (Linux); false where it cannot. */
function resetPeak() {
  try {
    fs.writeFileSync('/proc/self/clear_refs', '5')
    return true
  } catch {
    return false
  }
}

/** The peak RSS in bytes (VmHWM of /proc/self/status), or null. */
function vmHwm() {
  try {
    return Number(/VmHWM:\s+(\d+)/.exec(fs.readFileSync('/proc/self/status', 'utf8'))[1]) * 1024
  } catch {
    return null
  }
}

/** In the child: warm up, take the baseline, run once, print the figures. */
async function child(kind, options) {
  const crypto = require('..')
  const o = JSON.parse(options)
  const work = WORK[kind]
  const warm = WARM[kind] ? WARM[kind](o) : { ...o, files: o.files?.slice(0, 1), concurrency: 1 }
  await work(crypto, warm)
  if (warm.path && warm.path !== o.path) fs.rmSync(warm.path, { force: true })
  global.gc?.()
  // Linux: the peak RSS (VmHWM) reset to the current RSS, so the peak read after is the run's.
  const reset = resetPeak()
  const before = process.memoryUsage()
  const base = before.rss
  const t0 = process.hrtime.bigint()
  await work(crypto, o)
  const ms = Number(process.hrtime.bigint() - t0) / 1e6
  const end = process.memoryUsage()
  const after = end.rss
  // Elsewhere maxRSS is the process's peak so far: the run's peak, unless start-up peaked
  // higher, so `peak` is exact when the run set it and an upper bound otherwise.
  const high = (reset && vmHwm()) || process.resourceUsage().maxRSS * 1024
  const peak = Math.max(0, high - base)
  // Each figure before and after the run, with no collection in between, and its growth.
  const keys = ['heapUsed', 'heapTotal', 'external', 'arrayBuffers', 'rss']
  const growth = Object.fromEntries(keys.map((k) => [k, end[k] - before[k]]))
  const initial = Object.fromEntries(keys.map((k) => [k, before[k]]))
  const final = Object.fromEntries(keys.map((k) => [k, end[k]]))
  process.stdout.write(JSON.stringify({ ms, base, after, peak, growth, initial, final }))
}

/**
 * Runs `kind` with `options` in a child process; returns `{ ms, base, after, peak, growth,
 * initial, final }` (bytes; `initial`, `final`, `growth`: heapUsed, heapTotal, external,
 * arrayBuffers, rss before the run, after it, and the difference).
 */
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

module.exports = { peak, MiB, OPS, processFile }
