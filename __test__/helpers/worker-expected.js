'use strict'
// Inputs for the worker tests and the answers node:crypto gives for them (never our own).
const nodeCrypto = require('node:crypto')
const { PBKDF2_CASE } = require('./kdf-probe')

const KEY = 'worker-key'
// Fixed-seed pseudo-random inputs of the lengths around block boundaries, plus a large one.
let seed = 0x2545f491
const bytes = (n) => {
  const out = Buffer.alloc(n)
  for (let i = 0; i < n; i++) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0
    out[i] = seed >>> 24
  }
  return out
}
const inputs = [0, 1, 13, 55, 64, 65, 200, 1000, 4096, 65537].map(bytes)

const hash = (alg, data, enc = 'hex') => nodeCrypto.createHash(alg).update(data).digest(enc)
const expected = inputs.map((data) => ({
  sha256: hash('sha256', data),
  sha512: hash('sha512', data),
  sha512Prefix: hash('sha512', data.subarray(0, 13)),
  sha3_256: hash('sha3-256', data, 'base64'),
  hmacSha256: nodeCrypto.createHmac('sha256', KEY).update(data).digest('hex'),
  md5: hash('md5', data),
}))
const c = PBKDF2_CASE
const expectedKdf = nodeCrypto.pbkdf2Sync(c.password, c.salt, c.iterations, c.keyLength, c.hash).toString('hex')

/** Throws unless a worker's `{ digests, kdf }` equal node:crypto's; returns how many it checked. */
function verify(msg) {
  const got = JSON.stringify(msg.digests)
  const want = JSON.stringify(expected)
  if (got !== want) throw new Error(`worker digests differ from node:crypto:\n${got.slice(0, 500)}\n${want.slice(0, 500)}`)
  if (msg.kdf !== null && msg.kdf !== expectedKdf) throw new Error(`async PBKDF2 in a worker gave ${msg.kdf}, node:crypto ${expectedKdf}`)
  return expected.length * Object.keys(expected[0]).length + (msg.kdf !== null ? 1 : 0)
}

module.exports = { inputs, KEY, expected, expectedKdf, verify }
