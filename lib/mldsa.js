'use strict'
// crypto.dsa.mldsa44 / mldsa65 / mldsa87: ML-DSA (FIPS 204, pure mode; HashML-DSA is not offered),
// one object per row of the native table (src/pk/mldsa.rs, `mldsaSets()`), no per-set code.
// Keys go through the key layer (./keys): raw seed / expanded / public keys told apart by their
// length, DER PKCS#8 / SPKI, PEM, JWK (AKP), KeyObject. A private key's expanded form is computed
// once per key the key layer keeps (a KeyObject, a byte key passed again), as node keeps its
// EVP_PKEY, and held natively (`mldsaPrepare`, wiped when collected). Argument orders are the
// library's (./forms.js): sign(message, privateKey, options), verify(message, publicKey,
// signature, options), or the key (and signature) in the options object.
const native = require('./native')
const { asBuffer, split } = require('./bytes')
const { parseKey, preparedKey, encodeKey, publicOf, MLDSA_SETS, FORMATS } = require('./keys')
const { checkOptions } = require('./options')
const { runAsync, signalOf } = require('./abort')
const { kind } = require('./diagnostics')
const { explicit, keyed } = require('./forms')
const { BYTES, invalidArgType, invalidArgValue } = require('./errors')

const EMPTY = Buffer.alloc(0)
const GENERATE = new Set(['seed', 'privateKeyFormat', 'format'])
const GENERATE_ASYNC = new Set([...GENERATE, 'signal'])
const SIGN = new Set(['context', 'deterministic'])
const VERIFY = new Set(['context'])
const SIGN_ASYNC = new Set([...SIGN, 'signal'])
const VERIFY_ASYNC = new Set([...VERIFY, 'signal'])

/** `options.context`: bytes, or a string as UTF-8 (its length, at most 255 bytes, is checked natively). */
function context(v) {
  if (v === undefined) return EMPTY
  if (typeof v === 'string' || asBuffer(v)) return v
  throw invalidArgType('options.context', BYTES, v)
}

function deterministic(v) {
  if (v === undefined) return false
  if (typeof v !== 'boolean') throw invalidArgType('options.deterministic', 'of type boolean', v)
  return v
}

function parameterSet(set) {
  const alg = set.name
  const traced = {}
  for (const op of ['generateKeypair', 'sign', 'verify']) traced[op] = kind('pk', op, alg)
  const what = `dsa.${alg.replace(/-/g, '')}`
  // Expanded (and an expanded key checked whole) once into a native handle per kept key (a
  // KeyObject, a byte key passed again: ./keys `preparedKey`); other forms are expanded and
  // checked by each call.
  const privateKey = (input) =>
    preparedKey(input, { alg, private: true }, 'privateKey', (key) => native.mldsaPrepare(set.id, key))
  // Raw public keys (the usual form) are passed as they are; every other form is parsed.
  const publicKey = (input) => {
    const raw = (Buffer.isBuffer(input) || input instanceof Uint8Array) && input.length === set.publicLength
    return raw ? input : parseKey(input, { alg, private: false }, 'publicKey').key
  }
  // The arguments of sign(message, privateKey, options) / sign(message, { privateKey, ...options })
  // and verify(message, publicKey, signature, options) / verify(message, { publicKey, signature, ...options }).
  const signParts = (a) => [a[0], ...keyed(a.slice(1), ['privateKey'], 'sign')]
  const verifyParts = (a) => [a[0], ...keyed(a.slice(1), ['publicKey', 'signature'], 'verify')]
  // Arguments of native.mldsa / mldsaAsync (src/pk/mldsa.rs): params, [key, message, signature, context].
  const signArgs = (a, allowed, f) => {
    const [message, key, options] = signParts(a)
    const o = checkOptions(options, allowed, `${what}.${f}`)
    return [
      { set: set.id, verify: false, deterministic: deterministic(o.deterministic) },
      [privateKey(key), message, undefined, context(o.context)],
    ]
  }
  const verifyArgs = (a, allowed, f) => {
    const [message, key, signature, options] = verifyParts(a)
    const o = checkOptions(options, allowed, `${what}.${f}`)
    return [{ set: set.id, verify: true, deterministic: false }, [publicKey(key), message, signature, context(o.context)]]
  }
  const generateArgs = (options, allowed, f) => {
    const o = checkOptions(options, allowed, `${what}.${f}`)
    const pkf = o.privateKeyFormat === undefined ? 'seed' : o.privateKeyFormat
    if (pkf !== 'seed' && pkf !== 'expanded') throw invalidArgValue('options.privateKeyFormat', "'seed' or 'expanded'", pkf)
    const format = o.format === undefined ? 'raw' : o.format
    if (!FORMATS.includes(format)) throw invalidArgValue('options.format', `one of ${FORMATS.map((x) => `'${x}'`).join(', ')}`, format)
    let seed
    if (o.seed !== undefined) {
      seed = asBuffer(o.seed)
      if (!seed) throw invalidArgType('options.seed', 'an instance of Buffer, TypedArray, DataView or ArrayBuffer', o.seed)
      if (seed.length !== set.seedLength) throw invalidArgValue('options.seed', `${set.seedLength} bytes`, `${seed.length} bytes`)
    }
    return [seed, pkf, format]
  }
  /** The key pair of the native key forms `{ seed, expanded, publicKey }`, as asked. */
  const keypair = (forms, pkf, format) => {
    const known = { publicKey: forms.publicKey }
    const k = pkf === 'seed'
      ? { alg, private: true, key: forms.seed, seed: forms.seed, forms: known }
      : { alg, private: true, key: forms.expanded, forms: known }
    return {
      privateKey: encodeKey(k, format),
      publicKey: encodeKey({ alg, private: false, key: publicOf(k) }, format),
    }
  }

  return Object.freeze(
    explicit(
      {
        /** Sizes in bytes: seed, expanded private key, public key, signature. */
        lengths: Object.freeze({
          seed: set.seedLength,
          expandedPrivateKey: set.expandedLength,
          publicKey: set.publicLength,
          signature: set.signatureLength,
        }),
        /**
         * { privateKey, publicKey }: raw by default, the private key as the 32-byte seed ξ
         * (`privateKeyFormat: 'expanded'` for the FIPS 204 private key); `seed` makes it
         * deterministic; `format` as the other key pairs ('raw', 'der', 'pem', 'jwk', 'keyobject').
         */
        generateKeypair(options) {
          const [seed, pkf, format] = generateArgs(options, GENERATE, 'generateKeypair')
          return keypair(native.mldsaKeys(set.id, seed), pkf, format)
        },
        generateKeypairAsync(options) {
          return runAsync(signalOf(options), async (token) => {
            const [seed, pkf, format] = generateArgs(options, GENERATE_ASYNC, 'generateKeypairAsync')
            const [s, expanded, pub] = split(await native.mldsaKeysAsync(set.id, seed, token()))
            return keypair({ seed: s.length > 0 ? s : undefined, expanded, publicKey: pub }, pkf, format)
          }, traced.generateKeypair)
        },
        /** The signature of `message` (hedged: fresh randomness; `deterministic: true`: rnd = 0). */
        sign(...a) {
          return native.mldsa(...signArgs(a, SIGN, 'sign'))
        },
        /** `sign` on the libuv pool (inputs copied first), with `signal`. */
        signAsync(...a) {
          return runAsync(signalOf(signParts(a)[2]), (token) => native.mldsaAsync(...signArgs(a, SIGN_ASYNC, 'signAsync'), token()), traced.sign)
        },
        /** False for any invalid signature (wrong length, other key, message or context, context over 255 bytes). */
        verify(...a) {
          return native.mldsa(...verifyArgs(a, VERIFY, 'verify'))
        },
        /** `verify` on the libuv pool, with `signal`. */
        verifyAsync(...a) {
          return runAsync(signalOf(verifyParts(a)[3]), (token) => native.mldsaAsync(...verifyArgs(a, VERIFY_ASYNC, 'verifyAsync'), token()), traced.verify)
        },
      },
      { sync: ['generateKeypair', 'sign', 'verify'] },
    ),
  )
}

// crypto.dsa.mldsa44 etc., from the native table.
const mldsa = Object.fromEntries(MLDSA_SETS.map((set) => [set.name.replace(/-/g, ''), parameterSet(set)]))

module.exports = { mldsa }
