'use strict'
// The hash algorithms (the native list, src/hash/list.rs) and the one reader of hash names
// options take (`hash` of PBKDF2, HKDF, ECDSA, RSA, the password policy), with its one alias
// table: every family accepts the same spellings.
const native = require('./native')
const { invalidArgType, invalidArgValue } = require('./errors')

/** `{ id, name, outputLength, blockLength, maxOutputLength, options }` of every hash, in native order. */
const ALGORITHMS = native.algorithms()
const BY_NAME = new Map(ALGORITHMS.map((a) => [a.name, a]))

/** Other spellings of the names of `crypto.sha` (matched after lower-casing), as node:crypto, WebCrypto and JOSE write them. */
const ALIASES = Object.freeze({
  'sha-1': 'sha1',
  'sha-224': 'sha224',
  'sha-256': 'sha256',
  'sha-384': 'sha384',
  'sha-512': 'sha512',
  'sha512-224': 'sha512_224',
  'sha512/224': 'sha512_224',
  'sha-512/224': 'sha512_224',
  'sha512-256': 'sha512_256',
  'sha512/256': 'sha512_256',
  'sha-512/256': 'sha512_256',
  'sha3-224': 'sha3_224',
  'sha3-256': 'sha3_256',
  'sha3-384': 'sha3_384',
  'sha3-512': 'sha3_512',
  'ripemd-160': 'ripemd160',
  rmd160: 'ripemd160',
})

/**
 * The hash `value` names (a name of `crypto.sha` or one of its ALIASES, any case); `fallback`
 * when undefined. `accept(info)` narrows the hashes an option takes, `what` says which they are
 * in the error message.
 */
function readHash(value, { name = 'options.hash', fallback = 'sha256', accept = () => true, what = 'a hash of crypto.sha' } = {}) {
  if (value === undefined || value === null) return BY_NAME.get(fallback)
  if (typeof value !== 'string') throw invalidArgType(name, 'of type string', value)
  const lower = value.toLowerCase()
  const info = BY_NAME.get(ALIASES[lower] ?? lower)
  if (info === undefined || !accept(info)) {
    const names = ALGORITHMS.filter(accept).map((a) => a.name)
    throw invalidArgValue(name, `${what} (${names.join(', ')})`, value)
  }
  return info
}

/** Hashes with HMAC: every hash but the XOFs (SHAKE, BLAKE3). */
const hasHmac = (info) => info.blockLength > 0

module.exports = { ALGORITHMS, readHash, hasHmac }
