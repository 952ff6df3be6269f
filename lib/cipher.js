'use strict'
// crypto.cipher: AES (every common mode), ChaCha20-Poly1305 / XChaCha20-Poly1305, DES / 3DES;
// the streaming AEAD's streams and files on aes and xchacha20 come from ./cipher-stream.js.
// Built from the native mode table (src/cipher/modes.rs, `cipherModes()`): one factory per
// namespace, nothing per mode. The native side checks key/IV/tag lengths and does all the work;
// this layer reads options, sizes the output buffer and formats the result.
const native = require('./native')
const { checkOptions, checkInt } = require('./options')
const { checkFormat, checkDecryptFormat, decryptOutput, outputTarget, refuseAsyncOutput } = require('./output')
const { BYTES, invalidArgType, invalidArgValue } = require('./errors')
const { runAsync: runWithSignal, signalOf } = require('./abort')
const { asBuffer, viewLength } = require('./bytes')
const { explicit } = require('./forms')
const { streamMethods } = require('./cipher-stream')
const { sealMethods } = require('./seal')
const { checkList, isSmallBatch, joinParts } = require('./batch')
const { kind, totalLength } = require('./diagnostics')

const MODES = native.cipherModes()
const nativeCipher = native.cipher
const nativeCipherAsync = native.cipherAsync
// The op bits and key family ids of the native calls (src/contract.rs).
const { cipherOpDecrypt: OP_DECRYPT, cipherOpNoPadding: OP_NO_PADDING, cipherFamilies } = native.nativeContract()
const FAMILY_ID = Object.fromEntries(cipherFamilies.map((name, id) => [name, id]))

const byFamily = { aes: new Map(), chacha20: new Map(), des: new Map() }
const byId = new Map()
for (const m of MODES) {
  m.aead = m.tagLengths.length > 0
  // The name diagnostics publish: 'aes-gcm', 'des-cbc', 'chacha20-poly1305'.
  m.algorithm = m.name.includes(m.family) ? m.name : `${m.family}-${m.name}`
  byFamily[m.family].set(m.name, m)
  byId.set(m.id, m)
}

/** Strings are UTF-8; views and ArrayBuffers are read as Buffers over the caller's memory (their length sizes the output). */
function toBytes(data) {
  if (typeof data === 'string') return Buffer.from(data, 'utf8')
  const b = asBuffer(data)
  if (b === undefined) throw invalidArgType('data', BYTES, data)
  return b
}

function checkPadding(padding) {
  if (padding === undefined || padding === null) return 0
  if (padding === 'pkcs7' || padding === 'PKCS7') return 0
  if (padding === 'none') return OP_NO_PADDING
  throw invalidArgValue('options.padding', "'pkcs7' or 'none'", padding)
}

const format = decryptOutput

/** The mode row the options name (`spec` describes the namespace: default or fixed mode). */
function modeOf(spec, o) {
  if (spec.fixed !== undefined) return spec.fixed
  const mode = o.mode
  if (mode === undefined || mode === null) return spec.modes.get(spec.defaultMode)
  if (typeof mode !== 'string') throw invalidArgType('options.mode', 'of type string', mode)
  const m = spec.modes.get(mode) ?? spec.modes.get(mode.toLowerCase())
  if (m === undefined) {
    throw invalidArgValue('options.mode', `one of ${[...spec.modes.keys()].map((k) => `'${k}'`).join(', ')}`, mode)
  }
  return m
}

/** [mode row, op bits, output format] of one call's options. */
function opOf(spec, decrypt, o) {
  const m = modeOf(spec, o)
  const noPad = checkPadding(o.padding)
  const fmt = decrypt ? checkDecryptFormat(o.outputFormat) : checkFormat(o.outputFormat)
  return [m, m.id | (decrypt ? OP_DECRYPT : 0) | noPad, fmt]
}

/**
 * `[input, its length]` for the native call: a view or this realm's ArrayBuffer as it is (the
 * native side reads exactly its bytes, so no Buffer is made over it per call), anything else
 * (a string as its UTF-8 bytes, a SharedArrayBuffer, another realm's ArrayBuffer) through
 * `toBytes`.
 */
function inputOf(data) {
  const n = viewLength(data)
  if (n !== undefined) return [data, n]
  const bytes = toBytes(data)
  return [bytes, bytes.length]
}

/**
 * The length `cipher()` writes for `n` input bytes under `bits` with mode row `m`: exact when
 * encrypting, an upper bound when decrypting. The native rule (`Op::output_len`,
 * src/cipher/modes.rs) over the row's facts: the generated IV in front when none is given, the
 * body padded to whole blocks, the tag behind. __test__/native-contract.spec.js holds the two
 * equal through the native `cipherOutputLength`, which the hot path does not call.
 */
function outputLength(m, bits, n, ivGiven, tag) {
  const prefix = ivGiven ? 0 : m.ivLength
  const t = m.aead ? tag : 0
  if (bits & OP_DECRYPT) return Math.max(0, n - prefix - t)
  const padded = m.blockSize > 0 && (bits & OP_NO_PADDING) === 0
  return prefix + (padded ? (Math.floor(n / m.blockSize) + 1) * m.blockSize : n) + t
}

/**
 * Reads one call's options into a plan: [op bits, output length, input bytes, format].
 * `spec` describes the namespace (allowed options, default or fixed mode).
 */
function plan(spec, decrypt, data, o) {
  const [m, bits, fmt] = opOf(spec, decrypt, o)
  const [bytes, n] = inputOf(data)
  // The native side checks the tag length against the mode; one it refuses sizes no more than 16.
  const tag = checkInt(o.tagLength, 'options.tagLength', 0, 0xffffffff) ?? 16
  const outLen = outputLength(m, bits, n, o.iv !== undefined && o.iv !== null, tag <= 16 ? tag : 16)
  return [bits, outLen, bytes, fmt]
}

function runSync(spec, decrypt, data, options, key) {
  // With a caller's output, the options are read once, into a copy, before its view is made: no
  // getter runs after that (one could detach the buffer the view is over, or change a length).
  const caller = options.output != null
  const o = caller ? { ...options } : options
  const [bits, outLen, bytes, fmt] = plan(spec, decrypt, data, o)
  const out = caller ? outputTarget(o.output, fmt, outLen) : Buffer.allocUnsafe(outLen)
  const written = nativeCipher(bits, key, o.iv, bytes, o.aad, out, o.tagLength, caller)
  return format(written === outLen ? out : out.subarray(0, written), fmt)
}

/** The async form: inputs are copied at call time and the work runs on the libuv pool. */
function runAsync(spec, decrypt, data, options, key) {
  return runWithSignal(signalOf(options), async (token, ctx) => {
    refuseAsyncOutput(options)
    const [bits, , bytes, fmt] = plan(spec, decrypt, data, options)
    if (ctx !== undefined) {
      ctx.algorithm = byId.get(bits & ~(OP_DECRYPT | OP_NO_PADDING)).algorithm
      ctx.bytesIn = bytes.length
    }
    const params = { iv: options.iv, aad: options.aad, tagLength: options.tagLength }
    const out = await nativeCipherAsync(bits, key, bytes, params, token())
    return format(out, fmt)
  }, decrypt ? spec.kinds.decrypt : spec.kinds.encrypt)
}

// --- batches -----------------------------------------------------------------------------------

/** Each message's output, sliced from the outputs back to back (`data`) by their lengths. */
function splitOutputs(data, lens, fmt, out = [], at = 0) {
  for (let i = 0; i < lens.length; i++) {
    const end = at + lens[i]
    out.push(format(data.subarray(at, end), fmt))
    at = end
  }
  return out
}

/** `messages` through one native call: an array of results, each as `encrypt`/`decrypt` returns it. */
function runBatchSync(spec, decrypt, messages, o) {
  checkList(messages, 'messages')
  const [, bits, fmt] = opOf(spec, decrypt, o)
  checkInt(o.tagLength, 'options.tagLength', 0, 0xffffffff)
  const [data, lens] = native.cipherBatch(bits, o.key, o.ivs, messages, o.aad, o.tagLength)
  return splitOutputs(data, lens, fmt)
}

/** The async form: messages copied at call time, one part per libuv thread. */
function runBatchAsync(spec, decrypt, messages, o) {
  return runWithSignal(signalOf(o), async (token, ctx) => {
    checkList(messages, 'messages')
    if (ctx !== undefined) {
      ctx.bytesIn = totalLength(messages)
      ctx.params = { items: messages.length }
    }
    if (isSmallBatch(messages)) return runBatchSync(spec, decrypt, messages, o)
    const [, bits, fmt] = opOf(spec, decrypt, o)
    if (ctx !== undefined) ctx.algorithm = byId.get(bits & ~(OP_DECRYPT | OP_NO_PADDING)).algorithm
    checkInt(o.tagLength, 'options.tagLength', 0, 0xffffffff)
    const params = { ivs: o.ivs, aad: o.aad, tagLength: o.tagLength }
    const parts = await joinParts(native.cipherBatchAsync(bits, o.key, messages, params, token()))
    const out = []
    for (const [data, lens] of parts) splitOutputs(data, lens, fmt, out)
    return out
  }, decrypt ? spec.kinds.decryptBatch : spec.kinds.encryptBatch)
}

// --- crypto-js / OpenSSL passphrase format (legacy) ------------------------------------------------

const PASSPHRASE_OPTIONS = new Set(['passphrase', 'outputFormat'])
const PASSPHRASE_ASYNC_OPTIONS = new Set([...PASSPHRASE_OPTIONS, 'signal'])
const LEGACY = 'cipher.legacy.cryptoJs'

/** [raw input, output format] of a crypto-js passphrase call (its strings are base64). */
function passphraseArgs(decrypt, data, o, allowed) {
  for (const k in o) {
    if (!allowed.has(k)) {
      throw invalidArgValue(`options.${k}`, `one of the options of ${LEGACY} (${[...allowed].join(', ')})`, o[k])
    }
  }
  if (decrypt) return [typeof data === 'string' ? Buffer.from(data, 'base64') : toBytes(data), checkDecryptFormat(o.outputFormat)]
  // The crypto-js string form (base64) unless another format is asked for.
  return [toBytes(data), checkFormat(o.outputFormat ?? 'base64')]
}

function passphraseSync(decrypt, data, options) {
  const o = readOptions(options, 'a "passphrase" property')
  const [raw, fmt] = passphraseArgs(decrypt, data, o, PASSPHRASE_OPTIONS)
  return format(native.passphraseCipher(decrypt, raw, o.passphrase), fmt)
}

const CRYPTO_JS = { encrypt: kind('cipher', 'encrypt', 'crypto-js'), decrypt: kind('cipher', 'decrypt', 'crypto-js') }

function passphraseAsync(decrypt, data, options) {
  return runWithSignal(signalOf(options), async (token, ctx) => {
    const o = readOptions(options, 'a "passphrase" property')
    const [raw, fmt] = passphraseArgs(decrypt, data, o, PASSPHRASE_ASYNC_OPTIONS)
    if (ctx !== undefined) ctx.bytesIn = raw.length
    return format(await native.passphraseCipherAsync(decrypt, raw, o.passphrase, token()), fmt)
  }, decrypt ? CRYPTO_JS.decrypt : CRYPTO_JS.encrypt)
}

/**
 * The crypto-js / OpenSSL `Salted__` passphrase format (`CryptoJS.AES.encrypt(text, passphrase)`):
 * AES-256-CBC under a key from one round of MD5, with no integrity protection. For reading and
 * migrating data that is already in that format; new data belongs in `cipher.aes` (GCM) with a key
 * from `kdf.argon2` or `kdf.scrypt`.
 */
const cryptoJs = Object.freeze(
  explicit(
    {
      encrypt: (data, options) => passphraseSync(false, data, options),
      decrypt: (data, options) => passphraseSync(true, data, options),
      encryptAsync: (data, options) => passphraseAsync(false, data, options),
      decryptAsync: (data, options) => passphraseAsync(true, data, options),
    },
    { sync: ['encrypt', 'decrypt'] },
  ),
)

function readOptions(options, what) {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw invalidArgType('options', `an object with ${what}`, options)
  }
  return options
}

/**
 * `cipher.aes.encrypt` / `decrypt` (and their async forms) with `passphrase`: refused, pointing at
 * the legacy name (`op`: 'encrypt' or 'decrypt'). The crypto-js format has no MAC, so a main-API
 * decrypt would accept modified data.
 */
function passphraseRefused(op, value) {
  const why =
    op === 'encrypt'
      ? `to encrypt with a passphrase, use cipher.aes.sealAsync() or sealSync() (Argon2id, authenticated); encryption in the weak crypto-js passphrase format is only available as ${LEGACY}.encrypt()`
      : `cipher.aes.openAsync() or openSync() open what sealAsync() sealed; the weak crypto-js passphrase format (unauthenticated CBC: modified data decrypts without an error) is only read by ${LEGACY}.decrypt()`
  return invalidArgValue('options.passphrase', `a key: ${why}`, value)
}

// --- namespaces -------------------------------------------------------------------------------------

/** Kept key: the expanded key is built once per mode and reused (`crypto.cipher.aes.key(key)`). */
class CipherKey {
  #handle
  #spec
  #family

  constructor(handle, spec, family) {
    this.#handle = handle
    this.#spec = spec
    this.#family = family
  }

  #options(options) {
    return checkOptions(options, this.#spec.keyOptions, `cipher.${this.#family} key`)
  }

  /** As `encrypt(data, options)` of the namespace, with this key. */
  encrypt(data, options) {
    return runSync(this.#spec, false, data, this.#options(options), this.#handle)
  }

  decrypt(data, options) {
    return runSync(this.#spec, true, data, this.#options(options), this.#handle)
  }

  async encryptAsync(data, options) {
    return runAsync(this.#spec, false, data, this.#options(options), this.#handle)
  }

  async decryptAsync(data, options) {
    return runAsync(this.#spec, true, data, this.#options(options), this.#handle)
  }

  get [Symbol.toStringTag]() {
    return 'CipherKey'
  }
}
CipherKey.prototype.encryptSync = CipherKey.prototype.encrypt
CipherKey.prototype.decryptSync = CipherKey.prototype.decrypt

function makeNamespace(family, { defaultMode, fixed, modeOption }) {
  const modes = byFamily[family]
  const base = ['key', 'iv', 'aad', 'tagLength', 'outputFormat', 'signal', 'output']
  if (modeOption) base.push('mode', 'padding')
  if (family === 'aes') base.push('passphrase')
  const allowed = new Set(base)
  const keyOptions = new Set(base.filter((k) => k !== 'key' && k !== 'passphrase'))
  const kinds = {}
  for (const op of ['encrypt', 'decrypt', 'encryptBatch', 'decryptBatch']) kinds[op] = kind('cipher', op, family)
  const spec = { modes, defaultMode, fixed: fixed && modes.get(fixed), keyOptions, kinds }
  const what = `cipher.${fixed ? fixed.split('-')[0] : family}`

  const read = (options) => checkOptions(readOptions(options, 'a "key" property'), allowed, what)
  // Batches: one key, `ivs` (one IV per message) instead of `iv`, no passphrase.
  const batchAllowed = new Set([...base.filter((k) => k !== 'iv' && k !== 'passphrase' && k !== 'output'), 'ivs'])
  const readBatch = (options) => checkOptions(readOptions(options, 'a "key" property'), batchAllowed, `${what} batch`)

  const ns = {
    /** Encrypts `data`; see index.d.ts for the options. */
    encrypt(data, options) {
      const o = read(options)
      if (o.passphrase !== undefined) throw passphraseRefused('encrypt', o.passphrase)
      return runSync(spec, false, data, o, o.key)
    },
    /** Decrypts `data`; see index.d.ts for the options. */
    decrypt(data, options) {
      const o = read(options)
      if (o.passphrase !== undefined) throw passphraseRefused('decrypt', o.passphrase)
      return runSync(spec, true, data, o, o.key)
    },
    async encryptAsync(data, options) {
      const o = read(options)
      if (o.passphrase !== undefined) throw passphraseRefused('encrypt', o.passphrase)
      return runAsync(spec, false, data, o, o.key)
    },
    async decryptAsync(data, options) {
      const o = read(options)
      if (o.passphrase !== undefined) throw passphraseRefused('decrypt', o.passphrase)
      return runAsync(spec, true, data, o, o.key)
    },
    /**
     * Encrypts every message of an array under one key (a fresh random IV each, prepended as
     * `encrypt` does, unless `ivs` gives one per message); returns the array of results.
     */
    encryptBatch(messages, options) {
      return runBatchSync(spec, false, messages, readBatch(options))
    },
    /** Decrypts every message; any failure fails the whole call and releases no plaintext. */
    decryptBatch(messages, options) {
      return runBatchSync(spec, true, messages, readBatch(options))
    },
    async encryptBatchAsync(messages, options) {
      return runBatchAsync(spec, false, messages, readBatch(options))
    },
    async decryptBatchAsync(messages, options) {
      return runBatchAsync(spec, true, messages, readBatch(options))
    },
    /** A kept key: expands the key schedule once, for many calls. */
    key(key) {
      return new CipherKey(native.cipherKey(FAMILY_ID[family], key), spec, family)
    },
    /** The modes this namespace accepts. */
    modes: Object.freeze(fixed ? [fixed] : [...modes.keys()]),
    // encryptStream, decryptStream, encryptFile, decryptFile, and the sealed messages (sealSync,
    // openSync, deriveKeySync and their async forms) where the streaming format has an algorithm
    // for this namespace (./cipher-stream.js, ./seal.js).
    ...streamMethods(what.slice('cipher.'.length)),
    ...sealMethods(what.slice('cipher.'.length)),
  }
  return Object.freeze(explicit(ns, { sync: ['encrypt', 'decrypt', 'encryptBatch', 'decryptBatch'] }))
}

const cipher = Object.freeze({
  aes: makeNamespace('aes', { defaultMode: 'gcm', modeOption: true }),
  /** ChaCha20-Poly1305 (12-byte nonce) or XChaCha20-Poly1305 (24-byte nonce). */
  chacha20: makeNamespace('chacha20', { fixed: 'chacha20-poly1305' }),
  xchacha20: makeNamespace('chacha20', { fixed: 'xchacha20-poly1305' }),
  des: makeNamespace('des', { defaultMode: 'cbc', modeOption: true }),
  /** Formats kept for compatibility with other libraries' weak constructions: read old data, migrate it. */
  legacy: Object.freeze({ cryptoJs }),
  /** age v1 files (age-encryption.org/v1) with a passphrase: ./age.js. */
  age: require('./age'),
})

module.exports = { cipher, outputLength }
