'use strict'
// crypto.dsa.{ed25519, ecdsa} and crypto.cipher.{x25519, ecdh}: argument shaping over the native
// public-key entry points (src/pk/). Keys go through the key layer (./keys) unless they are
// already in the native form (raw bytes of the right length), which is passed as it is.
// Every operation has a Sync and an Async form (./forms.js); the plain names and argument
// orders are those of the original cryptographer.js (ed25519.sign(privateKey, message),
// ecdsa.sign(message, { privateKey })), and the library's `sign(message, privateKey, options)`
// / `sign(message, { privateKey, ...options })` forms are taken where they can be told apart.
const native = require('./native')
const { readHash } = require('./algorithms')
const { asBuffer, split } = require('./bytes')
const { parseKey, preparedKey, encodeKey, readCurve, NATIVE, FORMATS } = require('./keys')
const { checkOptions } = require('./options')
const { runAsync, signalOf } = require('./abort')
const { kind } = require('./diagnostics')
const { carries, explicit, keyed } = require('./forms')
const { invalidArgType, invalidArgValue } = require('./errors')

const ED25519 = NATIVE.get('ed25519')
const X25519 = NATIVE.get('x25519')
const SIGNAL = new Set(['signal'])
const withSignal = (set) => new Set([...set, 'signal'])

// ---- keys -----------------------------------------------------------------------------------

/** The native form of a key input for `want` = { alg, curve, private }: raw bytes of the right length as they are, else parsed. */
function keyBytes(input, want, name) {
  const size = want.curve ? want.curve.size : 32
  const lengths = want.private ? [size] : want.curve ? [1 + size, 1 + 2 * size] : [32]
  const raw = asBuffer(input)
  return raw !== undefined && lengths.includes(raw.length) ? raw : parseKey(input, want, name).key
}

/** A private Ed25519/X25519 key for native code, expanded once per kept key (keys `preparedKey`). */
const privateKeyFor = (input, alg, name) =>
  preparedKey(input, { alg, private: true }, name, (key) => native.pkPrepare(NATIVE.get(alg).id, key))

const GENERATE_OPTIONS = new Set(['format'])

/** A key pair `[d, q]` in `options.format` ('raw' by default: see ./keys for the forms). */
function keypairOut(alg, curve, [d, q], format) {
  return {
    privateKey: encodeKey({ alg, curve, private: true, key: d, pub: q }, format),
    publicKey: encodeKey({ alg, curve, private: false, key: q }, format),
  }
}

function readFormat(o) {
  const format = o.format === undefined ? 'raw' : o.format
  if (!FORMATS.includes(format)) throw invalidArgValue('options.format', `one of ${FORMATS.map((f) => `'${f}'`).join(', ')}`, format)
  return format
}

/** `generateKeypair` and `generateKeypairAsync` of `alg` (EC: of the curve, the first argument). */
function generators(alg, withCurve, what) {
  const traced = kind('pk', 'generateKeypair', what.split('.')[1])
  const args = (a) => (withCurve ? [readCurve(a[0] === undefined ? 'p256' : a[0]), a[1]] : [undefined, a[0]])
  const id = (curve) => (curve ? curve.id : NATIVE.get(alg).id)
  return {
    generateKeypair(...a) {
      const [curve, options] = args(a)
      const format = readFormat(checkOptions(options, GENERATE_OPTIONS, `${what}.generateKeypair`))
      return keypairOut(alg, curve, native.pkGenerate(id(curve)), format)
    },
    generateKeypairAsync(...a) {
      const options = a[withCurve ? 1 : 0]
      return runAsync(signalOf(options), async (token, ctx) => {
        const [curve] = args(a)
        const format = readFormat(checkOptions(options, withSignal(GENERATE_OPTIONS), `${what}.generateKeypairAsync`))
        if (ctx !== undefined && curve) ctx.params = { curve: curve.name }
        return keypairOut(alg, curve, split(await native.pkGenerateAsync(id(curve), token())), format)
      }, traced)
    },
  }
}

// ---- hashes for signatures --------------------------------------------------------------------

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

/**
 * The sync and async forms of one operation: `read(args, allowed, what)` checks the arguments
 * and returns the native call's (after the algorithm id: `[id, ...rest]`); `run` and `runAsync`
 * are the native entry points.
 */
function operation(what, allowed, read, run, runNative) {
  const allowedAsync = withSignal(allowed)
  const [, algorithm, op] = what.split('.')
  const traced = kind('pk', op, algorithm)
  const sync = (...args) => run(...read(args, allowed, what))
  const async = (...args) =>
    runAsync(signalOf(read.options(args)), (token) => runNative(...read(args, allowedAsync, `${what}Async`), token()), traced)
  return [sync, async]
}

// ---- Ed25519 ----------------------------------------------------------------------------------

// signSync/signAsync(message, privateKey, options?) or (message, { privateKey, ...options }), as
// every signature of the library; verify(message, publicKey, signature, options?) or
// (message, { publicKey, signature, ...options }).
// The native SignatureOptions of Ed25519: no hash, no flags.
const ED25519_SIGNATURE = { hash: 0, flags: 0 }
const edSignArgs = (a) => [a[0], ...keyed(a.slice(1), ['privateKey'], 'sign')]
const edVerifyArgs = (a) => [a[0], ...keyed(a.slice(1), ['publicKey', 'signature'], 'verify')]
const edSign = (args, allowed, what) => {
  const [message, key, options] = edSignArgs(args)
  checkOptions(options, allowed, what)
  return [ED25519.id, privateKeyFor(key, 'ed25519', 'privateKey'), message, ED25519_SIGNATURE]
}
edSign.options = (args) => edSignArgs(args)[2]
const edVerify = (args, allowed, what) => {
  const [message, key, signature, options] = edVerifyArgs(args)
  checkOptions(options, allowed, what)
  return [ED25519.id, keyBytes(key, { alg: 'ed25519', private: false }, 'publicKey'), message, signature, ED25519_SIGNATURE]
}
edVerify.options = (args) => edVerifyArgs(args)[3]

const [edSignSync, edSignAsync] = operation('dsa.ed25519.sign', new Set(), edSign, native.pkSign, native.pkSignAsync)
const [edVerifySync, edVerifyAsync] = operation('dsa.ed25519.verify', new Set(), edVerify, native.pkVerify, native.pkVerifyAsync)

const ed25519 = Object.freeze(
  explicit(
    {
      ...generators('ed25519', false, 'dsa.ed25519'),
      /**
       * The 64-byte RFC 8032 signature of `message`. The plain name keeps the original library's
       * order, `sign(privateKey, message)`; `sign(message, { privateKey })` is read too.
       */
      sign: (...a) => (carries(a[1], 'privateKey') ? edSignSync(...a) : edSignSync(a[1], a[0], a[2])),
      signSync: edSignSync,
      signAsync: edSignAsync,
      /**
       * Strict RFC 8032 verification: false for any invalid signature. The plain name keeps the
       * original order, `verify(publicKey, message, signature)`; `verify(message, { publicKey,
       * signature })` is read too.
       */
      verify: (...a) => (carries(a[1], 'publicKey') ? edVerifySync(...a) : edVerifySync(a[1], a[0], a[2], a[3])),
      verifySync: edVerifySync,
      verifyAsync: edVerifyAsync,
    },
    { sync: ['generateKeypair'] },
  ),
)

// ---- ECDSA ------------------------------------------------------------------------------------

const SIGN_OPTIONS = new Set(['curve', 'hash', 'format', 'lowS', 'allowWeakHash'])
const VERIFY_OPTIONS = SIGN_OPTIONS
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

// sign(message, privateKey, options?) or sign(message, { privateKey, ...options }) (the original form).
const ecSignArgs = (a) => [a[0], ...keyed(a.slice(1), ['privateKey'], 'sign')]
const ecVerifyArgs = (a) => [a[0], ...keyed(a.slice(1), ['publicKey', 'signature'], 'verify')]
const ecSign = (args, allowed, what) => {
  const [message, privateKey, options] = ecSignArgs(args)
  const o = checkOptions(options, allowed, what)
  const hash = readHash(o.hash)
  refuseWeakHash(hash, o, true)
  const { curve, key } = ecKey(o.curve, privateKey, true, 'privateKey')
  return [curve.id, key, message, { hash: hash.id, flags: ecdsaFlags(o, curve, true) }]
}
ecSign.options = (args) => ecSignArgs(args)[2]
const ecVerify = (args, allowed, what) => {
  const [message, publicKey, signature, options] = ecVerifyArgs(args)
  const o = checkOptions(options, allowed, what)
  const hash = readHash(o.hash)
  refuseWeakHash(hash, o, false)
  const { curve, key } = ecKey(o.curve, publicKey, false, 'publicKey')
  return [curve.id, key, message, signature, { hash: hash.id, flags: ecdsaFlags(o, curve, false) }]
}
ecVerify.options = (args) => ecVerifyArgs(args)[3]

const [ecSignSync, ecSignAsync] = operation('dsa.ecdsa.sign', SIGN_OPTIONS, ecSign, native.pkSign, native.pkSignAsync)
const [ecVerifySync, ecVerifyAsync] = operation('dsa.ecdsa.verify', VERIFY_OPTIONS, ecVerify, native.pkVerify, native.pkVerifyAsync)

const ecdsa = Object.freeze(
  explicit(
    {
      ...generators('ec', true, 'dsa.ecdsa'),
      /** A deterministic (RFC 6979) signature with s <= n/2 (unless `lowS: false`), DER by default. */
      sign: ecSignSync,
      signAsync: ecSignAsync,
      /** False for any invalid signature; s > n/2 is invalid on secp256k1 (unless `lowS: false`) or with `lowS: true`. */
      verify: ecVerifySync,
      verifyAsync: ecVerifyAsync,
    },
    { sync: ['generateKeypair', 'sign', 'verify'] },
  ),
)

// ---- key agreement ----------------------------------------------------------------------------

// x25519.deriveSharedSecret(privateKey, peerPublicKey, options?)
const xDerive = (args, allowed, what) => {
  checkOptions(args[2], allowed, what)
  const d = privateKeyFor(args[0], 'x25519', 'privateKey')
  return [X25519.id, d, keyBytes(args[1], { alg: 'x25519', private: false }, 'peerPublicKey')]
}
xDerive.options = (args) => args[2]
// ecdh.deriveSharedSecret(curve, privateKey, peerPublicKey, options?), as the original library.
const ecDerive = (args, allowed, what) => {
  checkOptions(args[3], allowed, what)
  const c = readCurve(args[0])
  const d = keyBytes(args[1], { alg: 'ec', curve: c, private: true }, 'privateKey')
  return [c.id, d, keyBytes(args[2], { alg: 'ec', curve: c, private: false }, 'peerPublicKey')]
}
ecDerive.options = (args) => args[3]

const [xDeriveSync, xDeriveAsync] = operation('cipher.x25519.deriveSharedSecret', new Set(), xDerive, native.pkDerive, native.pkDeriveAsync)
const [ecDeriveSync, ecDeriveAsync] = operation('cipher.ecdh.deriveSharedSecret', new Set(), ecDerive, native.pkDerive, native.pkDeriveAsync)

const x25519 = Object.freeze(
  explicit(
    {
      ...generators('x25519', false, 'cipher.x25519'),
      /** The 32-byte shared secret; a low-order peer key (all-zero secret) throws. */
      deriveSharedSecret: xDeriveSync,
      deriveSharedSecretAsync: xDeriveAsync,
    },
    { sync: ['generateKeypair', 'deriveSharedSecret'] },
  ),
)

const ecdh = Object.freeze(
  explicit(
    {
      ...generators('ec', true, 'cipher.ecdh'),
      /** The shared x-coordinate; a peer point off the curve throws. */
      deriveSharedSecret: ecDeriveSync,
      deriveSharedSecretAsync: ecDeriveAsync,
    },
    { sync: ['generateKeypair', 'deriveSharedSecret'] },
  ),
)

module.exports = { dsa: Object.freeze({ ed25519, ecdsa }), x25519, ecdh, refuseWeakHash, SIGNAL }
