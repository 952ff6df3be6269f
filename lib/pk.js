'use strict'
// crypto.dsa.{ed25519, ecdsa} and crypto.cipher.{x25519, ecdh}: argument shaping over the native
// public-key entry points (src/pk/). Keys go through the key layer (./keys.js) unless they are
// already in the native form (raw bytes of the right length), which is passed as it is.
// Names and argument orders are those of the original cryptographer.js (docs: README.md).
const native = require('./native')
const { ALGORITHMS: HASH_LIST } = require('./hash')
const { asBuffer, parseKey, preparedKey, encodeKey, readCurve, NATIVE, FORMATS } = require('./keys')
const { checkOptions } = require('./options')
const { invalidArgType, invalidArgValue } = require('./errors')

const ED25519 = NATIVE.get('ed25519')
const X25519 = NATIVE.get('x25519')

// ---- keys -----------------------------------------------------------------------------------

/** Raw bytes of exactly one of `lengths`, which native code takes as they are. */
function rawOf(v, lengths) {
  return (Buffer.isBuffer(v) || v instanceof Uint8Array) && lengths.includes(v.length) ? v : undefined
}

/** The native form of a key input for `want` = { alg, curve, private }. */
function keyBytes(input, want, name) {
  const size = want.curve ? want.curve.size : 32
  const raw = rawOf(input, want.private ? [size] : want.curve ? [1 + size, 1 + 2 * size] : [32])
  return raw || parseKey(input, want, name).key
}

/** A private Ed25519/X25519 key for native code, expanded once per kept key (keys.js `preparedKey`). */
const privateKeyFor = (input, alg, name) =>
  preparedKey(input, { alg, private: true }, name, (key) => native.pkPrepare(NATIVE.get(alg).id, key))

const GENERATE_OPTIONS = new Set(['format'])

/** A new key pair in `options.format` ('raw' by default: see keys.js for the forms). */
function generate(alg, curve, options, what) {
  const o = checkOptions(options, GENERATE_OPTIONS, what)
  const format = o.format === undefined ? 'raw' : o.format
  if (!FORMATS.includes(format)) throw invalidArgValue('options.format', `one of ${FORMATS.map((f) => `'${f}'`).join(', ')}`, format)
  const [d, q] = native.pkGenerate(curve ? curve.id : NATIVE.get(alg).id)
  return {
    privateKey: encodeKey({ alg, curve, private: true, key: d, pub: q }, format),
    publicKey: encodeKey({ alg, curve, private: false, key: q }, format),
  }
}

// ---- hashes for signatures --------------------------------------------------------------------

// Every hash of crypto.sha at its fixed output length (SHAKE128/256: 256/512 bits, RFC 8692).
const HASHES = new Map(HASH_LIST.map((h) => [h.name, h]))

function readHash(value, what = 'options.hash', dflt = 'sha256') {
  if (value === undefined) return HASHES.get(dflt)
  const direct = HASHES.get(value)
  if (direct) return direct
  if (typeof value !== 'string') throw invalidArgType(what, 'of type string', value)
  const name = value
    .toLowerCase()
    .replace(/^sha-(\d)/, 'sha$1')
    .replace(/^sha3-/, 'sha3_')
    .replace(/^sha512[-/](224|256)$/, 'sha512_$1')
  const h = HASHES.get(name)
  if (!h) throw invalidArgValue(what, `a hash of crypto.sha (${[...HASHES.keys()].join(', ')})`, value)
  return h
}

// Hashes with practical collisions. A signature over a collision-broken hash also signs the
// colliding message: MD4 and MD5 are refused for signing and verifying, SHA-1 (chosen-prefix
// collisions since 2020) for signing; verifying old SHA-1 signatures stays allowed.
const BROKEN = new Set(['md4', 'md5'])
const BROKEN_FOR_SIGNING = new Set([...BROKEN, 'sha1'])

/**
 * Throws unless `hash` may be used for signing (`signing` true) or verifying: hashes with
 * collisions need `options.allowWeakHash: true` (ECDSA and RSA alike).
 */
function refuseWeakHash(hash, o, signing) {
  if (o.allowWeakHash !== undefined && typeof o.allowWeakHash !== 'boolean') {
    throw invalidArgType('options.allowWeakHash', 'of type boolean', o.allowWeakHash)
  }
  if (o.allowWeakHash || !(signing ? BROKEN_FOR_SIGNING : BROKEN).has(hash.name)) return
  throw invalidArgValue(
    'options.hash',
    `a collision-resistant hash (SHA-2, SHA-3, ...): ${hash.name} is refused for ${signing ? 'signing' : 'verifying'} ` +
      'because its collisions let one signature cover two messages; pass allowWeakHash: true to use it for legacy signatures',
    o.hash,
  )
}

// ---- Ed25519 ----------------------------------------------------------------------------------

const ed25519 = Object.freeze({
  /** { privateKey: 32-byte seed, publicKey: 32 bytes } (or `options.format`). */
  generateKeypair(options) {
    return generate('ed25519', undefined, options, 'dsa.ed25519.generateKeypair')
  },
  /** The 64-byte RFC 8032 signature of `message`. */
  sign(privateKey, message) {
    return native.pkSign(ED25519.id, privateKeyFor(privateKey, 'ed25519', 'privateKey'), message, 0, 0)
  },
  /** Strict RFC 8032 verification: false for any invalid signature. */
  verify(publicKey, message, signature) {
    const key = keyBytes(publicKey, { alg: 'ed25519', private: false }, 'publicKey')
    return native.pkVerify(ED25519.id, key, message, signature, 0, 0)
  },
})

// ---- ECDSA ------------------------------------------------------------------------------------

const SIGN_OPTIONS = new Set(['curve', 'privateKey', 'hash', 'format', 'lowS', 'allowWeakHash'])
const VERIFY_OPTIONS = new Set(['curve', 'publicKey', 'signature', 'hash', 'format', 'lowS', 'allowWeakHash'])
const SIG_FORMATS = { der: 0, 'ieee-p1363': 1 }
const LOW_S = 2
// Curves whose verification refuses s > n/2 unless `lowS: false` (Bitcoin's and Ethereum's rule
// for secp256k1, as @noble/curves). On the NIST curves high-S signatures from other signers
// (node:crypto, OpenSSL, WebCrypto) are valid and common, so they verify by default.
const LOW_S_VERIFY = new Set(['secp256k1'])

/** True for key inputs that name their own curve: DER bytes, PEM, JWK, KeyObject. */
function selfDescribing(v) {
  const buf = asBuffer(v)
  if (buf) return buf.length > 33 && buf[0] === 0x30
  return typeof v === 'string' || (v !== null && typeof v === 'object')
}

/**
 * The curve and native key of an ECDSA call: the `curve` option; without one, the key's own
 * curve when the key says (DER, PEM, JWK, KeyObject), else P-256 (the original default).
 */
function ecKey(curveOption, input, isPrivate, name) {
  if (curveOption === undefined && selfDescribing(input)) {
    const k = parseKey(input, { alg: 'ec', private: isPrivate }, name)
    return { curve: k.curve, key: k.key }
  }
  const curve = readCurve(curveOption, 'options.curve', 'p256')
  return { curve, key: keyBytes(input, { alg: 'ec', curve, private: isPrivate }, name) }
}

/**
 * The native flags of a signature operation on `curve`: the format, and low S (signing: always,
 * unless `lowS: false`; verifying: see LOW_S_VERIFY).
 */
function ecdsaFlags(o, curve, signing) {
  const f = o.format === undefined ? 0 : SIG_FORMATS[o.format]
  if (f === undefined) throw invalidArgValue('options.format', "'der' or 'ieee-p1363'", o.format)
  if (o.lowS !== undefined && typeof o.lowS !== 'boolean') throw invalidArgType('options.lowS', 'of type boolean', o.lowS)
  const lowS = o.lowS === undefined ? signing || LOW_S_VERIFY.has(curve.name) : o.lowS
  return f | (lowS ? LOW_S : 0)
}

function readOptions(options, allowed, what) {
  if (options === undefined || options === null || typeof options !== 'object') {
    throw invalidArgType('options', 'of type object', options)
  }
  return checkOptions(options, allowed, what)
}

const ecdsa = Object.freeze({
  /** { privateKey: scalar, publicKey: uncompressed SEC1 point } (or `options.format`). */
  generateKeypair(curve = 'p256', options) {
    return generate('ec', readCurve(curve), options, 'dsa.ecdsa.generateKeypair')
  },
  /** A deterministic (RFC 6979) signature with s <= n/2 (unless `lowS: false`), DER by default. */
  sign(message, options) {
    const o = readOptions(options, SIGN_OPTIONS, 'dsa.ecdsa.sign')
    const hash = readHash(o.hash)
    refuseWeakHash(hash, o, true)
    const { curve, key } = ecKey(o.curve, o.privateKey, true, 'options.privateKey')
    return native.pkSign(curve.id, key, message, hash.id, ecdsaFlags(o, curve, true))
  },
  /** False for any invalid signature; s > n/2 is invalid on secp256k1 (unless `lowS: false`) or with `lowS: true`. */
  verify(message, options) {
    const o = readOptions(options, VERIFY_OPTIONS, 'dsa.ecdsa.verify')
    const hash = readHash(o.hash)
    refuseWeakHash(hash, o, false)
    const { curve, key } = ecKey(o.curve, o.publicKey, false, 'options.publicKey')
    return native.pkVerify(curve.id, key, message, o.signature, hash.id, ecdsaFlags(o, curve, false))
  },
})

// ---- key agreement ----------------------------------------------------------------------------

const x25519 = Object.freeze({
  /** { privateKey: 32 bytes, publicKey: 32 bytes } (or `options.format`). */
  generateKeypair(options) {
    return generate('x25519', undefined, options, 'cipher.x25519.generateKeypair')
  },
  /** The 32-byte shared secret; a low-order peer key (all-zero secret) throws. */
  deriveSharedSecret(privateKey, peerPublicKey) {
    const d = privateKeyFor(privateKey, 'x25519', 'privateKey')
    const q = keyBytes(peerPublicKey, { alg: 'x25519', private: false }, 'peerPublicKey')
    return native.pkDerive(X25519.id, d, q)
  },
})

const ecdh = Object.freeze({
  generateKeypair(curve = 'p256', options) {
    return generate('ec', readCurve(curve), options, 'cipher.ecdh.generateKeypair')
  },
  /** The shared x-coordinate; a peer point off the curve throws. */
  deriveSharedSecret(curve, privateKey, peerPublicKey) {
    const c = readCurve(curve)
    const d = keyBytes(privateKey, { alg: 'ec', curve: c, private: true }, 'privateKey')
    const q = keyBytes(peerPublicKey, { alg: 'ec', curve: c, private: false }, 'peerPublicKey')
    return native.pkDerive(c.id, d, q)
  },
})

module.exports = { dsa: Object.freeze({ ed25519, ecdsa }), x25519, ecdh, readHash, refuseWeakHash, readOptions }
