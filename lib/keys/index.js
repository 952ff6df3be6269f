'use strict'
// crypto.keys and the key layer of every public-key function: the ONE place where keys are
// parsed and produced, in every form (raw, SEC1, DER PKCS#8 / SPKI / SEC1 / PKCS#1, PEM, JWK,
// node:crypto KeyObject and CryptoKey).
//
// Why here, in JavaScript, and not in Rust: two of the forms exist only as JS values (a KeyObject
// can be turned into bytes only by calling its `export()`, a JWK is an object), PEM is text whose
// base64 Buffer decodes natively, and the DER structures are a few hundred bytes, so parsing them
// costs nothing next to the signature. Native code then sees exactly one canonical form per
// algorithm (src/pk/mod.rs): 32-byte Ed25519 / X25519 keys, EC private scalars and SEC1 points,
// which it validates (on the curve, in range). Everything is bounded before any work: at most
// MAX_KEY_BYTES of DER (MAX_PEM_CHARS of PEM), lengths checked before copies, DER strictly
// definite and minimal.
//
// One table (ALGORITHMS below) says what each key algorithm's encodings are: its OID, its JWK
// fields, how its private and public keys sit in PKCS#8 / SPKI. RSA (part 2) is one more row: its
// PKCS#8/SPKI/PKCS#1 framing and JWK fields plug into the same reader, writer and dispatch; ML-DSA
const nodeCrypto = require('crypto')
const native = require('../native')
const { BYTES, coded, describe, invalidArgType, invalidArgValue } = require('../errors')
const { checkOptions } = require('../options')
const { asBuffer } = require('../bytes')
const { DerReader, TAG, der, derBits, derOctets, derSmall, invalidJwk, invalidKey, invalidKeyType } = require('./der')
const { PEM_LABELS, PKCS1_LABELS, armor, toPem, unarmor } = require('./pem')
const {
  ALGORITHMS,
  BY_ALG,
  BY_OID,
  CURVES,
  KEMS,
  KEM_ROWS,
  MLDSA_SETS,
  NATIVE,
  RSA,
  ecPrivateKey,
  ed25519Canonical,
  point,
  publicOf,
  readCurve,
  rsaInts,
  sec1PrivateKey,
  x25519Canonical,
} = require('./rows')

const MAX_KEY_BYTES = 16 * 1024

// ---- DER containers -------------------------------------------------------------------------

const ALG_ID_WHAT = 'a PKCS#8, SPKI or SEC1 DER key'

function algorithmIdentifier(r) {
  const a = r.sub(TAG.SEQUENCE)
  const oid = a.read(TAG.OID).toString('hex')
  let params
  if (!a.done()) {
    const start = a.pos
    a.read(a.peek())
    params = a.buf.subarray(start, a.pos)
    if (params.length === 2 && params[0] === TAG.NULL) params = undefined
  }
  a.end()
  const alg = BY_OID.get(oid)
  if (!alg) throw invalidKey(r.name, r.what, `Unsupported key algorithm OID ${oid}`)
  return { alg, params }
}

/** A DER key: PKCS#8 (v1 or v2), SPKI, or SEC1 ECPrivateKey, told apart by their structure. */
function parseDer(buf, name) {
  if (buf.length > MAX_KEY_BYTES) throw invalidKey(name, ALG_ID_WHAT, `Received ${buf.length} bytes (at most ${MAX_KEY_BYTES})`)
  const r = new DerReader(buf, name, ALG_ID_WHAT)
  const top = new DerReader(buf, name, ALG_ID_WHAT)
  const s = r.sub(TAG.SEQUENCE)
  r.end()
  if (s.peek() === TAG.SEQUENCE) {
    // SubjectPublicKeyInfo ::= SEQUENCE { algorithm AlgorithmIdentifier, subjectPublicKey BIT STRING }
    const { alg, params } = algorithmIdentifier(s)
    const bits = s.bitString()
    s.end()
    return alg.fromSpki(params, bits, s)
  }
  // PKCS#1 (RSAPublicKey / RSAPrivateKey): INTEGERs only (PKCS#8 and SEC1 have a SEQUENCE or
  // an OCTET STRING second).
  const probe = new DerReader(s.buf, name, ALG_ID_WHAT)
  probe.pos = s.pos
  probe.read(TAG.INTEGER)
  if (probe.peek() === TAG.INTEGER) return RSA.fromPkcs1(buf, top)
  const version = s.small()
  if (s.peek() === TAG.OCTET_STRING && version === 1) return ecPrivateKey(top, undefined) // SEC1
  // OneAsymmetricKey ::= SEQUENCE { version 0|1, algorithm, privateKey OCTET STRING,
  //   [0] attributes OPTIONAL, [1] publicKey OPTIONAL (v2 only) }
  if (version > 1) s.fail('unsupported PKCS#8 version')
  const { alg, params } = algorithmIdentifier(s)
  const inner = s.read(TAG.OCTET_STRING)
  s.optional(0)
  const pubBits = version === 1 ? s.peek() === 0x81 && s.read(0x81) : undefined
  s.end()
  const k = alg.fromPkcs8(params, inner, s)
  if (pubBits) {
    if (pubBits.length === 0 || pubBits[0] !== 0) s.fail('bad publicKey BIT STRING')
    const pub = alg.fromSpki(params, pubBits.subarray(1), s)
    if (!pub.key.equals(publicOf(k))) s.fail('the public key is not that of the private key')
  }
  return k
}

/** PKCS#8 (v1, as node:crypto writes it) or SPKI for a parsed key. */
function toDer(k, type) {
  const a = BY_ALG.get(k.alg)
  if (type === 'spki') return der(TAG.SEQUENCE, a.algorithmIdentifier(k), derBits(a.spkiBits({ ...k, key: publicOf(k) })))
  if (type === 'sec1') return sec1PrivateKey(k, true)
  if (type === 'pkcs1') return k.private ? Buffer.from(k.key) : publicOf(k)
  return der(TAG.SEQUENCE, derSmall(0), a.algorithmIdentifier(k), derOctets(a.pkcs8Inner(k)))
}


function parsePem(text, name) {
  const { label, bytes } = unarmor(text, name)
  if (label === 'ENCRYPTED PRIVATE KEY') {
    throw invalidKey(name, 'an unencrypted key', 'Encrypted PEM: decrypt it with node:crypto createPrivateKey({ key, passphrase }) and pass the KeyObject')
  }
  const labels = [...Object.values(PEM_LABELS), ...Object.values(PKCS1_LABELS)]
  if (!labels.includes(label)) throw invalidKey(name, `a PEM ${labels.join(' / ')}`, `Received label "${label}"`)
  const k = parseDer(bytes, name)
  const expected =
    label === 'PUBLIC KEY' ? !k.private
    : label === 'EC PRIVATE KEY' ? k.private && k.alg === 'ec'
    : label === PKCS1_LABELS.true ? k.private && k.alg === 'rsa'
    : label === PKCS1_LABELS.false ? !k.private && k.alg === 'rsa'
    : k.private
  if (!expected) throw invalidKey(name, `the structure the label "${label}" names`, 'The PEM label and its content disagree')
  return k
}

function parseJwk(jwk, name) {
  const alg = ALGORITHMS.find((a) => a.jwkKty === jwk.kty)
  if (!alg) throw invalidJwk(name, `unsupported "kty" ${JSON.stringify(jwk.kty)}`)
  const k = ALGORITHMS.filter((a) => a.jwkKty === jwk.kty).reduce((found, a) => found || a.fromJwk(jwk, name), undefined)
  const by = jwk.kty === 'AKP' ? 'alg' : 'crv'
  if (!k) throw invalidJwk(name, `unsupported "${by}" ${JSON.stringify(jwk[by])}`)
  return k
}

// ---- any input ------------------------------------------------------------------------------

const KEY_INPUT = `a Buffer, TypedArray, DataView or ArrayBuffer, a PEM string, a JWK object or a KeyObject`
const fromKeyObject = new WeakMap()

function parseKeyObject(ko, name) {
  let k = fromKeyObject.get(ko)
  if (k) return k
  if (ko.type === 'secret') throw invalidKeyType(name, 'an asymmetric key', 'a secret KeyObject')
  const derBuf = ko.type === 'private' ? ko.export({ format: 'der', type: 'pkcs8' }) : ko.export({ format: 'der', type: 'spki' })
  k = parseDer(derBuf, name)
  fromKeyObject.set(ko, k)
  return k
}

/**
 * Raw bytes in the default form of `want` (see `parseKey`): 32 bytes for Ed25519/X25519, a
 * scalar or a SEC1 point for EC; anything starting with a DER SEQUENCE is parsed as DER.
 */
function parseBytes(buf, want, name) {
  if (want.alg === 'rsa') return parseDer(buf, name)
  const row = BY_ALG.get(want.alg)
  if (row && row.privateLengths) return fixedBytes(row, buf, want, name)
  if (row && row.fromRaw) {
    const k = row.fromRaw(buf)
    if (k) return k
    if (buf[0] === TAG.SEQUENCE && buf.length > 32) return parseDer(buf, name)
    throw invalidKey(name, `${row.rawWhat}, or a DER key`, `Received ${buf.length} bytes`)
  }
  if (want.alg === 'ec' && want.curve) {
    const c = want.curve
    if (buf.length === c.size && want.private) return { alg: 'ec', curve: c, private: true, key: Buffer.from(buf) }
    if ([2, 3, 4].includes(buf[0]) && (buf.length === 1 + c.size || buf.length === 1 + 2 * c.size)) {
      return { alg: 'ec', curve: c, private: false, key: point(c, buf, name) }
    }
  } else if (buf.length === 32) {
    return { alg: want.alg, private: want.private, key: Buffer.from(buf) }
  }
  if (buf[0] === TAG.SEQUENCE && buf.length > 32) return parseDer(buf, name)
  if (want.alg === 'ec' && !want.curve) throw invalidKey(name, 'a DER key', `Received ${buf.length} bytes`)
  const raw = want.alg === 'ec'
    ? `${want.private ? `a ${want.curve.size}-byte private scalar` : `a SEC1 public key (${1 + 2 * want.curve.size} or ${1 + want.curve.size} bytes)`}`
    : `a 32-byte ${want.private ? 'private' : 'public'} key`
  throw invalidKey(name, `${raw} or a DER key`, `Received ${buf.length} bytes`)
}

/** Raw bytes of a fixed-length algorithm (by length: a public key, a seed or an expanded key), else DER. */
function fixedBytes(a, buf, want, name) {
  if (want.private ? a.privateLengths.includes(buf.length) : buf.length === a.publicLength) {
    if (!want.private) a.fromSpki(undefined, buf, new DerReader(buf, name, a.describe()))
    return { alg: a.alg, private: want.private, key: Buffer.from(buf) }
  }
  if (buf[0] === TAG.SEQUENCE && buf.length > 32) return parseDer(buf, name)
  const raw = want.private ? `a ${a.privateLengths.join('- or ')}-byte private key` : `a ${a.publicLength}-byte public key`
  throw invalidKey(name, `${raw} (${a.describe().replace(/^an? /, '')}) or a DER key`, `Received ${buf.length} bytes`)
}

// Byte keys seen before, by the object the caller passed: the same Buffer (TypedArray, DataView,
// ArrayBuffer) holding the same bytes, compared in constant time on every call, and read for the
// same use, gives the same parsed key, with what was computed for it kept on it (an RSA key's
// checked native handle, an expanded Ed25519/X25519 key, a public half), as for a KeyObject. A
// key changed in place, or a new object, is parsed again. Held weakly, like the key it belongs to.
const fromBytes = new WeakMap()

/**
 * `parse(buf)`, once per `input` object and `use` (a string) while the object holds the same
 * bytes, compared in constant time on every call; `cache` is a WeakMap of the caller's. Also
 * crypto.hybrid's key cache.
 */
function parsedOnce(cache, input, buf, use, parse) {
  const seen = cache.get(input)
  if (seen && seen.use === use && seen.bytes.length === buf.length && native.timingSafeEqual(seen.bytes, buf)) return seen.value
  const value = parse(buf)
  cache.set(input, { use, bytes: Buffer.from(buf), value })
  return value
}

function parseBytesOnce(input, buf, want, name) {
  const use = `${want.alg} ${want.curve ? want.curve.name : ''} ${want.private}`
  return parsedOnce(fromBytes, input, buf, use, (b) => parseBytes(b, want, name))
}

/**
 * A private key for native code, expanded once (`prepare(bytes)`: a native handle) per key the
 * key layer keeps: a KeyObject (as node keeps its EVP_PKEY) or a byte key passed again with the
 * same bytes (`parseKey`'s cache). PEM strings and JWK objects are parsed on every call and given
 * as their bytes. (Ed25519/X25519 in pk.js, the KEMs in kem.js.)
 */
function preparedKey(input, want, name, prepare) {
  const k = parseKey(input, want, name)
  if (!(input instanceof nodeCrypto.KeyObject) && !asBuffer(input)) return k.key
  if (!k.prepared) k.prepared = prepare(k.key)
  return k.prepared
}

/**
 * Any key input as a parsed key, checked against what the caller needs:
 * `want` = { alg: 'ed25519' | 'x25519' | 'ec', curve (EC), private: bool }.
 * A private key given where a public one is needed stands for its public key.
 */
function parseKey(input, want, name) {
  const buf = asBuffer(input)
  if (buf && buf.length > MAX_KEY_BYTES) throw invalidKey(name, 'a key', `Received ${buf.length} bytes (at most ${MAX_KEY_BYTES})`)
  const k = buf ? parseBytesOnce(input, buf, want, name) : parseAny(input, name)
  const a = BY_ALG.get(want.alg)
  if (k.alg !== want.alg || (want.curve && k.curve !== want.curve)) {
    throw invalidKeyType(name, a.describe(want), BY_ALG.get(k.alg).describe(k))
  }
  if (want.private && !k.private) throw invalidKeyType(name, 'a private key', 'a public key')
  if (!want.private && k.private) return publicKeyOf(k)
  return k
}

/** The public key of a parsed private key, as a parsed key (kept: RSA keeps its native handle). */
function publicKeyOf(k) {
  if (!k.publicKey) {
    const key = publicOf(k)
    k.publicKey = { alg: k.alg, curve: k.curve, private: false, key }
    if (k.alg === 'rsa') k.publicKey.handle = native.rsaKey(key, false, 'publicKey')
  }
  return k.publicKey
}

const isCryptoKey = (v) => {
  const CK = globalThis.CryptoKey || (nodeCrypto.webcrypto && nodeCrypto.webcrypto.CryptoKey)
  return typeof CK === 'function' && v instanceof CK
}

// ---- output forms ---------------------------------------------------------------------------

const FORMATS = ['raw', 'der', 'pem', 'jwk', 'keyobject']
const TYPES = { private: ['pkcs8', 'sec1', 'pkcs1'], public: ['spki', 'pkcs1'], raw: ['compressed', 'uncompressed'] }
/** Whether DER/PEM type `t` exists for key `k` (SEC1: EC only; PKCS#1: RSA only). */
const typeFits = (t, k) => (t === 'sec1' ? k.alg === 'ec' : t === 'pkcs1' ? k.alg === 'rsa' : true)

/** A parsed key in `format` (with `type`: pkcs8 / sec1 / spki, or compressed for raw EC points). */
function encodeKey(k, format = 'raw', type, name = 'options.format') {
  switch (format) {
    case 'raw':
      if (type !== undefined && !TYPES.raw.includes(type)) throw invalidArgValue('options.type', "'compressed' or 'uncompressed' for raw keys", type)
      if (type === 'compressed') {
        if (k.alg !== 'ec' || k.private) throw invalidArgValue('options.type', "'compressed' only for EC public keys", type)
        return native.pkPoint(k.curve.id, k.key, true)
      }
      return Buffer.from(k.key)
    case 'der':
    case 'pem': {
      const types = k.private ? TYPES.private : TYPES.public
      const t = type === undefined ? types[0] : type
      if (!types.includes(t) || !typeFits(t, k)) {
        throw invalidArgValue('options.type', `one of ${types.filter((x) => typeFits(x, k)).map((x) => `'${x}'`).join(', ')} for this key`, type)
      }
      const d = toDer(k, t)
      return format === 'der' ? d : toPem(d, t, k.private)
    }
    case 'jwk':
      return BY_ALG.get(k.alg).toJwk(k)
    case 'keyobject': {
      // Algorithms node may lack (`keyObjectType`): a KeyObject node cannot use is refused too
      // (Node 22 with OpenSSL 3.5 parses an ML-KEM key into a KeyObject of no known type).
      const type = BY_ALG.get(k.alg).keyObjectType
      let ko, why
      try {
        ko = k.private
          ? nodeCrypto.createPrivateKey({ key: toDer(k, 'pkcs8'), format: 'der', type: 'pkcs8' })
          : nodeCrypto.createPublicKey({ key: toDer(k, 'spki'), format: 'der', type: 'spki' })
      } catch (e) {
        if (!type) throw e
        why = e.message
      }
      if (type && !why && ko.asymmetricKeyType !== type) why = `its KeyObject has type ${ko.asymmetricKeyType}`
      if (why) throw coded(Error, 'ERR_FEATURE_UNAVAILABLE_ON_PLATFORM', `This Node.js (${process.version}) has no '${type}' KeyObjects (${why})`)
      return ko
    }
    default:
      throw invalidArgValue(name, `one of ${FORMATS.map((f) => `'${f}'`).join(', ')}`, format)
  }
}

const ALGORITHM_NAMES = { ed25519: 'ed25519', x25519: 'x25519', ec: 'ec', ecdsa: 'ec', ecdh: 'ec', rsa: 'rsa' }
// Fixed-length algorithms by their node name ('ml-kem-768', 'x-wing') and API name ('mlkem768', 'xwing').
for (const a of KEM_ROWS) ALGORITHM_NAMES[a.alg] = ALGORITHM_NAMES[a.alg.replace(/-/g, '')] = a.alg
for (const { name } of MLDSA_SETS) ALGORITHM_NAMES[name] = ALGORITHM_NAMES[name.replace(/-/g, '')] = name

/** What raw bytes mean, for keys.export / keys.import (other forms describe themselves). */
function readWant(o) {
  const name = o.algorithm === undefined ? undefined : ALGORITHM_NAMES[String(o.algorithm).toLowerCase()]
  if (o.algorithm !== undefined && !name) {
    throw invalidArgValue('options.algorithm', `'ed25519', 'x25519', 'ec', 'rsa', ${[...KEM_ROWS.map((a) => a.alg), ...MLDSA_SETS.map((m) => m.name)].map((n) => `'${n}'`).join(', ')}`, o.algorithm)
  }
  if (o.keyType !== undefined && o.keyType !== 'private' && o.keyType !== 'public') {
    throw invalidArgValue('options.keyType', "'private' or 'public'", o.keyType)
  }
  return name
}

/** Parses any key form; raw bytes are read as the `algorithm` / `curve` / `keyType` hints say. */
function anyKey(key, o, name = 'key') {
  const alg = readWant(o)
  const curve = alg === 'ec' || o.curve !== undefined ? readCurve(o.curve, 'options.curve') : undefined
  const buf = asBuffer(key)
  const fixed = alg && BY_ALG.get(alg).privateLengths
  if (buf && fixed && [BY_ALG.get(alg).publicLength, ...fixed].includes(buf.length)) {
    return parseKey(buf, { alg, private: buf.length !== BY_ALG.get(alg).publicLength }, name)
  }
  const own = buf && alg && BY_ALG.get(alg).fromRaw && BY_ALG.get(alg).fromRaw(buf)
  if (own) return parseKey(buf, { alg, private: own.private }, name) // raw ML-DSA: told by length
  const rawLengths = alg === 'ec' ? [curve.size, 1 + curve.size, 1 + 2 * curve.size] : alg && alg !== 'rsa' ? [32] : []
  if (buf && rawLengths.includes(buf.length)) {
    if (alg !== 'ec' && o.keyType === undefined) {
      throw invalidArgValue('options.keyType', "'private' or 'public' (a raw 32-byte key does not say which it is)", o.keyType)
    }
    const isPrivate = alg === 'ec' ? buf.length === curve.size : o.keyType === 'private'
    return parseKey(buf, { alg, curve, private: isPrivate }, name)
  }
  if (buf && !(buf[0] === TAG.SEQUENCE && buf.length > 32)) {
    throw invalidArgValue('options.algorithm', "'ed25519', 'x25519' or 'ec' with curve (raw keys do not say what they are)", o.algorithm)
  }
  const k = parseAny(key, name)
  if ((alg && k.alg !== alg) || (curve && k.curve !== curve)) {
    throw invalidKeyType(name, BY_ALG.get(alg || k.alg).describe({ curve }), BY_ALG.get(k.alg).describe(k))
  }
  return k
}

const EXPORT_OPTIONS = new Set(['format', 'type', 'public', 'algorithm', 'curve', 'keyType'])
const IMPORT_OPTIONS = new Set(['algorithm', 'curve', 'keyType'])

/**
 * crypto.keys.export(key, { format = 'der', type, public, algorithm, curve, keyType }): any key
 * form in another. `public: true` gives the public key of a private key. Raw input needs
 * `algorithm` (and `curve` for EC; `keyType` for 32-byte 25519 keys).
 */
function exportKey(key, options) {
  const o = checkOptions(options, EXPORT_OPTIONS, 'keys.export')
  let k = anyKey(key, o)
  if (o.public !== undefined && typeof o.public !== 'boolean') throw invalidArgType('options.public', 'of type boolean', o.public)
  if (o.public && k.private) k = publicKeyOf(k)
  return encodeKey(k, o.format === undefined ? 'der' : o.format, o.type)
}

/** crypto.keys.import(key, { algorithm, curve, keyType }): any key form as a node:crypto KeyObject. */
function importKey(key, options) {
  const o = checkOptions(options, IMPORT_OPTIONS, 'keys.import')
  return encodeKey(anyKey(key, o), 'keyobject')
}

/** Any self-describing key form (DER, PEM, JWK, KeyObject, CryptoKey). */
function parseAny(input, name) {
  const buf = asBuffer(input)
  if (buf) return parseDer(buf, name)
  if (typeof input === 'string') return parsePem(input, name)
  if (input instanceof nodeCrypto.KeyObject) return parseKeyObject(input, name)
  if (isCryptoKey(input)) return parseKeyObject(nodeCrypto.KeyObject.from(input), name)
  if (input !== null && typeof input === 'object' && typeof input.kty === 'string') return parseJwk(input, name)
  throw invalidArgType(name, KEY_INPUT, input)
}

/** The modulus length in bits of a parsed RSA key (n: the first integer `rsaInts` returns). */
function rsaModulusBits(k) {
  const n = rsaInts(k.key, 'key', 'an RSA key')[0]
  let i = 0
  while (i < n.length - 1 && n[i] === 0) i++
  return (n.length - i - 1) * 8 + (32 - Math.clz32(n[i]))
}

module.exports = {
  asBuffer,
  armor,
  unarmor,
  parsedOnce,
  rsaModulusBits,
  x25519Canonical,
  ed25519Canonical,
  // The DER writer, for the RSA rows.
  der,
  keys: { export: exportKey, import: importKey },
  parseKey,
  preparedKey,
  encodeKey,
  publicOf,
  readCurve,
  NATIVE,
  CURVES,
  KEMS,
  // ML-DSA (lib/mldsa.js)
  MLDSA_SETS,
  FORMATS,
  BYTES,
  describe,
}
