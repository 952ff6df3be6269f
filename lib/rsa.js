'use strict'
// crypto.dsa.rsa (PSS, PKCS#1 v1.5, key generation) and crypto.cipher.rsa_oaep: argument shaping
// over the native RSA entry points (src/pk/rsa.rs, AWS-LC). Keys go through the key layer
// (./keys): DER PKCS#8 / SPKI / PKCS#1, PEM, JWK, KeyObject; the parsed key keeps its native
// handle, so a KeyObject or a byte key passed again (both cached by the key layer) is parsed and
// checked once.
// Names and argument orders are those of the original cryptographer.js (data, then key, then
// signature, then options), and each call also takes its key in the options object
// (`signPSS(message, { privateKey, hash })`, ./forms.js).
const native = require('./native')
const { readHash } = require('./algorithms')
const { parseKey, encodeKey, publicOf, FORMATS } = require('./keys')
const { checkOptions } = require('./options')
const { runAsync, signalOf } = require('./abort')
const diagnostics = require('./diagnostics')
const { explicit, keyed } = require('./forms')
const { refuseWeakHash } = require('./pk')
const { invalidArgType, invalidArgValue, outOfRange } = require('./errors')

// Operation ids of src/pk/rsa.rs (`KINDS`).
const OP = { signPSS: 0, signPKCS1v15: 1, verifyPSS: 2, verifyPKCS1v15: 3, encrypt: 4, decrypt: 5 }
const SALT_DIGEST = -1
const SALT_AUTO = -2
const EMPTY = Buffer.alloc(0)

function handle(input, isPrivate, name) {
  return parseKey(input, { alg: 'rsa', private: isPrivate }, name).handle
}

function options(o, allowed, what) {
  if (o === undefined) return {}
  if (o === null || typeof o !== 'object') throw invalidArgType('options', 'of type object', o)
  return checkOptions(o, allowed, what)
}

// The hashes RSA takes: SHA-1, SHA-2, SHA-3 (AWS-LC's digests; src/pk/rsa.rs refuses the others
// too). Read here first so that MD4 and MD5 get this error, not the weak-hash one.
const RSA_HASH = /^sha(1|224|256|384|512|512_224|512_256|3_224|3_256|3_384|3_512)$/
const rsaHashes = (h) => RSA_HASH.test(h.name)

const rsaHash = (value, name, fallback = 'sha256') =>
  readHash(value, { name, fallback, accept: rsaHashes, what: 'a SHA-1, SHA-2 or SHA-3 hash' })

/**
 * [hash id, MGF1 hash id] of options (`mgf1Hash` defaults to `hash`, `hash` to SHA-256); for
 * signatures (`signing` true or false) SHA-1 passes the weak-hash rule of ./pk.js.
 */
function hashes(o, signing) {
  const hash = rsaHash(o.hash, 'options.hash')
  if (signing !== undefined) refuseWeakHash(hash, o, signing)
  return [hash.id, rsaHash(o.mgf1Hash, 'options.mgf1Hash', hash.name).id]
}

function saltLength(v, verify) {
  if (v === undefined) return SALT_DIGEST
  if (verify && v === 'auto') return SALT_AUTO
  if (typeof v !== 'number') throw invalidArgType('options.saltLength', `of type number${verify ? " or 'auto'" : ''}`, v)
  if (!Number.isInteger(v) || v < 0 || v > 0x7fffffff) throw outOfRange('options.saltLength', '>= 0 and an integer', v)
  return v
}

function label(v) {
  if (v === undefined || v === null) return EMPTY
  if (typeof v === 'string') return Buffer.from(v, 'utf8')
  return v
}

/**
 * One operation's sync and async forms. Its arguments are the data, then `positional` (the key,
 * a signature), then options, or the data and one options object carrying them (./forms.js);
 * `args(o, data, ...positional)` gives [key handle, data, extra, hash, mgf1, salt]. The async
 * form also takes `signal` and copies its inputs before the pool runs it.
 */
function operation(kind, names, what, args, positional) {
  const allowed = new Set(names)
  const allowedAsync = new Set([...names, 'signal'])
  // 'dsa.rsa.signPSS': sign with rsa-pss; 'cipher.rsa_oaep.encrypt': encrypt with rsa-oaep.
  const [op, scheme = 'oaep'] = what.slice(what.lastIndexOf('.') + 1).split(/(?=PSS|PKCS1v15)/)
  const traced = diagnostics.kind('pk', op, `rsa-${scheme.toLowerCase()}`)
  const read = (a) => {
    const values = keyed(a.slice(1), positional, what.slice(what.lastIndexOf('.') + 1))
    return [a[0], values.slice(0, -1), values[values.length - 1]]
  }
  const call = (o, data, values) => {
    const [key, input, extra, hash, mgf1Hash, saltLength] = args(o, data, ...values)
    return [key, input, extra, { kind, hash, mgf1Hash, saltLength }]
  }
  const sync = (...a) => {
    const [data, values, o] = read(a)
    return native.rsa(...call(options(o, allowed, what), data, values))
  }
  const async = (...a) => {
    const [data, values, o] = read(a)
    return runAsync(signalOf(o), (token) => native.rsaAsync(...call(options(o, allowedAsync, `${what}Async`), data, values), token()), traced)
  }
  return [sync, async]
}

const PSS = ['hash', 'mgf1Hash', 'saltLength', 'allowWeakHash']
const PKCS1 = ['hash', 'allowWeakHash']

// sign(message, privateKey, options) / verify(message, publicKey, signature, options)
const signArgs = (pss) => (o, message, privateKey) => {
  const [h, m] = hashes(o, true)
  return [handle(privateKey, true, 'privateKey'), message, EMPTY, h, m, pss ? saltLength(o.saltLength, false) : 0]
}
const verifyArgs = (pss) => (o, message, publicKey, signature) => {
  const [h, m] = hashes(o, false)
  return [handle(publicKey, false, 'publicKey'), message, signature, h, m, pss ? saltLength(o.saltLength, true) : 0]
}

const SIGN = ['privateKey']
const VERIFY = ['publicKey', 'signature']
const [signPSS, signPSSAsync] = operation(OP.signPSS, PSS, 'dsa.rsa.signPSS', signArgs(true), SIGN)
const [verifyPSS, verifyPSSAsync] = operation(OP.verifyPSS, PSS, 'dsa.rsa.verifyPSS', verifyArgs(true), VERIFY)
const [signPKCS1v15, signPKCS1v15Async] = operation(OP.signPKCS1v15, PKCS1, 'dsa.rsa.signPKCS1v15', signArgs(false), SIGN)
const [verifyPKCS1v15, verifyPKCS1v15Async] = operation(OP.verifyPKCS1v15, PKCS1, 'dsa.rsa.verifyPKCS1v15', verifyArgs(false), VERIFY)

const OAEP = ['hash', 'mgf1Hash', 'label']
const oaepArgs = (isPrivate, keyName) => (o, data, key) => {
  const [h, m] = hashes(o)
  return [handle(key, isPrivate, keyName), data, label(o.label), h, m, 0]
}
const [encrypt, encryptAsync] = operation(OP.encrypt, OAEP, 'cipher.rsa_oaep.encrypt', oaepArgs(false, 'publicKey'), ['publicKey'])
const [decrypt, decryptAsync] = operation(OP.decrypt, OAEP, 'cipher.rsa_oaep.decrypt', oaepArgs(true, 'privateKey'), ['privateKey'])

// ---- key generation ---------------------------------------------------------------------------

const GENERATE = ['modulusLength', 'publicExponent', 'format', 'type']

function generateArgs(o) {
  const bits = o.modulusLength === undefined ? 2048 : o.modulusLength
  if (typeof bits !== 'number') throw invalidArgType('options.modulusLength', 'of type number', bits)
  if (!Number.isInteger(bits) || bits < 1024 || bits > 16384 || bits % 128 !== 0) {
    throw outOfRange('options.modulusLength', 'a multiple of 128 from 1024 to 16384', bits)
  }
  const e = o.publicExponent === undefined ? 65537 : o.publicExponent
  if (typeof e !== 'number') throw invalidArgType('options.publicExponent', 'of type number', e)
  if (!Number.isInteger(e) || e < 3 || e > 0xffffffff || e % 2 === 0) {
    throw outOfRange('options.publicExponent', 'an odd integer from 3 to 2^32 - 1', e)
  }
  const format = o.format === undefined ? 'der' : o.format
  if (!FORMATS.includes(format)) throw invalidArgValue('options.format', `one of ${FORMATS.map((f) => `'${f}'`).join(', ')}`, format)
  return [bits, e, format, o.type]
}

/** { privateKey, publicKey } from a PKCS#1 private key, in `format` (DER: PKCS#8 / SPKI). */
function keypair(pkcs1, format, type) {
  const k = parseKey(pkcs1, { alg: 'rsa', private: true }, 'privateKey')
  const pub = { alg: 'rsa', private: false, key: publicOf(k) }
  return {
    privateKey: encodeKey(k, format, type),
    publicKey: encodeKey(pub, format, type === 'pkcs1' ? 'pkcs1' : undefined),
  }
}

function generateKeypair(o) {
  const [bits, e, format, type] = generateArgs(options(o, new Set(GENERATE), 'dsa.rsa.generateKeypair'))
  return keypair(native.rsaGenerate(bits, e), format, type)
}

const GENERATE_TRACE = diagnostics.kind('pk', 'generateKeypair', 'rsa')

function generateKeypairAsync(o) {
  return runAsync(signalOf(o), async (token, ctx) => {
    const [bits, e, format, type] = generateArgs(options(o, new Set([...GENERATE, 'signal']), 'dsa.rsa.generateKeypairAsync'))
    if (ctx !== undefined) ctx.params = { modulusLength: bits, publicExponent: e }
    return keypair(await native.rsaGenerateAsync(bits, e, token()), format, type)
  }, GENERATE_TRACE)
}

const rsa = Object.freeze(
  explicit(
    {
      generateKeypair,
      generateKeypairAsync,
      signPSS,
      signPSSAsync,
      verifyPSS,
      verifyPSSAsync,
      signPKCS1v15,
      signPKCS1v15Async,
      verifyPKCS1v15,
      verifyPKCS1v15Async,
    },
    { sync: ['generateKeypair', 'signPSS', 'verifyPSS', 'signPKCS1v15', 'verifyPKCS1v15'] },
  ),
)

const rsa_oaep = Object.freeze(explicit({ encrypt, encryptAsync, decrypt, decryptAsync }, { sync: ['encrypt', 'decrypt'] }))

module.exports = { rsa, rsa_oaep }
