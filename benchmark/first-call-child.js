'use strict'
// One measurement of benchmark/suites/first-call.js, in a fresh process:
//   node benchmark/first-call-child.js <ours|node> <operation>
// Loads the library (timed, for ours), makes the first call of the operation, then 31 more, and
// prints { requireSeconds, first, warm }: seconds, `warm` the median of the later calls. The
// inputs are made without node:crypto, so node's first call is its own first use of OpenSSL.
const { performance } = require('node:perf_hooks')

const [lib, op] = process.argv.slice(2)
const t0 = performance.now()
const crypto = lib === 'ours' ? require('../') : require('node:crypto')
const requireSeconds = (performance.now() - t0) / 1000

const data = Buffer.alloc(1024, 0x61)
const small = data.subarray(0, 64)
const key = Buffer.alloc(32, 7)
const iv = Buffer.alloc(12, 9)
const NODE_HASH = { sha256: 'sha256', blake2b: 'blake2b512', blake2s: 'blake2s256', sha3_256: 'sha3-256' }

function operation() {
  if (NODE_HASH[op]) return lib === 'ours' ? () => crypto.sha[op](small) : () => crypto.createHash(NODE_HASH[op]).update(small).digest('hex')
  if (op === 'aes-256-gcm') {
    if (lib === 'ours') return () => crypto.cipher.aes.encrypt(data, { key, iv, mode: 'gcm' })
    return () => {
      const c = crypto.createCipheriv('aes-256-gcm', key, iv)
      return Buffer.concat([c.update(data), c.final(), c.getAuthTag()])
    }
  }
  throw new Error(`unknown operation ${op}`)
}

const f = operation()
const time = () => {
  const s = performance.now()
  f()
  return (performance.now() - s) / 1000
}
const first = time()
const later = Array.from({ length: 31 }, time).sort((a, b) => a - b)
process.stdout.write(JSON.stringify({ requireSeconds, first, warm: later[later.length >> 1] }))
