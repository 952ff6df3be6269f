'use strict'
// crypto.kem.{mlkem512, mlkem768, mlkem1024, xwing}: key encapsulation over the native KEMs
// (src/pk/kem.rs: ML-KEM of FIPS 203, X-Wing), built from their table (`kemAlgorithms()`, with
// the key encodings ./keys adds) with no per-algorithm code.
//
// Keys: raw public keys of the algorithm's length go to native code as they are; private keys
// (a seed or, for ML-KEM, the expanded FIPS 203 decapsulation key, as bytes; DER PKCS#8, PEM,
// KeyObject) and other public key forms (SPKI, PEM, KeyObject) through the key layer, which keeps
// a private key expanded once (`kemPrepare`) for a KeyObject or a Buffer passed again.
// Every call has a Sync and an Async form (./forms.js; the plain names block): the async forms
// copy their inputs and run on the libuv pool.
const native = require('./native')
const { asBuffer, split } = require('./bytes')
const { parseKey, preparedKey, encodeKey, KEMS, FORMATS } = require('./keys')
const { checkOptions } = require('./options')
const { runAsync, signalOf } = require('./abort')
const { kind } = require('./diagnostics')
const { explicit, keyed } = require('./forms')
const { BYTES, invalidArgType, invalidArgValue } = require('./errors')

const GENERATE_OPTIONS = new Set(['seed', 'privateKeyFormat', 'format'])
const GENERATE_ASYNC_OPTIONS = new Set([...GENERATE_OPTIONS, 'signal'])
const NONE = new Set()
const SIGNAL = new Set(['signal'])
const KEY_FORMATS = FORMATS.filter((f) => f !== 'jwk')

/** `input` itself when it is bytes of one of `lengths`. */
function rawOf(input, lengths) {
  const buf = asBuffer(input)
  return buf && lengths.includes(buf.length) ? buf : undefined
}

function bytes(v, name) {
  const buf = asBuffer(v)
  if (!buf) throw invalidArgType(name, BYTES.replace('string or ', ''), v)
  return buf
}

function kem(a) {
  const privateFormats = a.expandedLength > 0 ? ['seed', 'expanded'] : ['seed']
  // Expanded once into a native handle per kept key (./keys `preparedKey`).
  const privateKey = (input) =>
    preparedKey(input, { alg: a.alg, private: true }, 'privateKey', (key) => native.kemPrepare(a.id, key))
  const publicKey = (input) => rawOf(input, [a.publicLength]) || parseKey(input, { alg: a.alg, private: false }, 'publicKey').key
  const what = (f) => `kem.${a.alg.replace(/-/g, '')}.${f}`
  const traced = {}
  for (const op of ['generateKeypair', 'encapsulate', 'decapsulate']) traced[op] = kind('kem', op, a.alg)

  const generateArgs = (options, allowed, f) => {
    const o = checkOptions(options, allowed, what(f))
    const pf = o.privateKeyFormat === undefined ? 'seed' : o.privateKeyFormat
    if (!privateFormats.includes(pf)) throw invalidArgValue('options.privateKeyFormat', privateFormats.map((x) => `'${x}'`).join(' or '), pf)
    const format = o.format === undefined ? 'raw' : o.format
    if (!KEY_FORMATS.includes(format)) throw invalidArgValue('options.format', `one of ${KEY_FORMATS.map((x) => `'${x}'`).join(', ')}`, format)
    const seed = o.seed === undefined ? undefined : bytes(o.seed, 'options.seed')
    return [seed, pf === 'expanded', format]
  }
  const keypair = ([d, q], format) => {
    if (format === 'raw') return { publicKey: q, privateKey: d }
    return {
      publicKey: encodeKey({ alg: a.alg, private: false, key: q }, format),
      privateKey: encodeKey({ alg: a.alg, private: true, key: d, pub: q }, format),
    }
  }
  // decapsulate(ciphertext, privateKey, options?) or decapsulate(ciphertext, { privateKey, ...options }).
  const decapsulateArgs = (args) => [args[0], ...keyed(args.slice(1), ['privateKey'], 'decapsulate')]
  // encapsulate(publicKey, options?) or encapsulate({ publicKey, ...options }).
  const encapsulateArgs = (args) => keyed(args, ['publicKey'], 'encapsulate')

  return Object.freeze(
    explicit(
      {
        /** This KEM's lengths in bytes. */
        lengths: Object.freeze({
          seed: a.seedLength,
          expandedPrivateKey: a.expandedLength || undefined,
          publicKey: a.publicLength,
          ciphertext: a.ciphertextLength,
          sharedSecret: a.sharedLength,
        }),
        /**
         * { publicKey, privateKey }: from `seed` (random when absent); the private key is the seed
         * unless `privateKeyFormat: 'expanded'`; `format` as crypto.keys ('raw' by default).
         */
        generateKeypair(options) {
          const [seed, expanded, format] = generateArgs(options, GENERATE_OPTIONS, 'generateKeypair')
          return keypair(native.kemGenerate(a.id, seed, expanded), format)
        },
        generateKeypairAsync(options) {
          return runAsync(signalOf(options), async (token) => {
            const [seed, expanded, format] = generateArgs(options, GENERATE_ASYNC_OPTIONS, 'generateKeypairAsync')
            return keypair(split(await native.kemGenerateAsync(a.id, seed, expanded, token())), format)
          }, traced.generateKeypair)
        },
        /** { ciphertext, sharedSecret } for `publicKey`, with fresh randomness. */
        encapsulate(...args) {
          const [key, options] = encapsulateArgs(args)
          checkOptions(options, NONE, what('encapsulate'))
          const [ciphertext, sharedSecret] = native.kemEncapsulate(a.id, publicKey(key))
          return { ciphertext, sharedSecret }
        },
        encapsulateAsync(...args) {
          const [key, options] = encapsulateArgs(args)
          return runAsync(signalOf(options), async (token) => {
            checkOptions(options, SIGNAL, what('encapsulateAsync'))
            const [ciphertext, sharedSecret] = split(await native.kemEncapsulateAsync(a.id, publicKey(key), token()))
            return { ciphertext, sharedSecret }
          }, traced.encapsulate)
        },
        /** The shared secret of `ciphertext` (a wrong one gives FIPS 203's implicit-rejection secret). */
        decapsulate(...args) {
          const [ciphertext, key, options] = decapsulateArgs(args)
          checkOptions(options, NONE, what('decapsulate'))
          return native.kemDecapsulate(a.id, bytes(ciphertext, 'ciphertext'), privateKey(key))
        },
        decapsulateAsync(...args) {
          const [ciphertext, key, options] = decapsulateArgs(args)
          return runAsync(signalOf(options), (token) => {
            checkOptions(options, SIGNAL, what('decapsulateAsync'))
            return native.kemDecapsulateAsync(a.id, bytes(ciphertext, 'ciphertext'), privateKey(key), token())
          }, traced.decapsulate)
        },
      },
      { sync: ['generateKeypair', 'encapsulate', 'decapsulate'] },
    ),
  )
}

// crypto.kem: mlkem512, mlkem768, mlkem1024, xwing (the native names without dashes).
const kemApi = Object.freeze(Object.fromEntries(KEMS.map((a) => [a.alg.replace(/-/g, ''), kem(a)])))

module.exports = { kem: kemApi }
