'use strict'
// Streaming authenticated encryption: `encryptStream`, `decryptStream`, `encryptFile` and
// `decryptFile` on crypto.cipher.aes (AES-256-GCM) and crypto.cipher.xchacha20
// (XChaCha20-Poly1305), from the native list (`streamAlgorithms()`, src/formats/aead_stream.rs).
// The format (header, key derivation, STREAM segments) is docs/stream-format.md.
//
// - The Transforms hold a native state (src/formats/aead_stream_api.rs): each chunk goes in as it is,
//   and what comes out is the sealed segments it completed, or the plaintext of segments whose
//   tags verified (never a byte before its segment's tag). The state is made on the libuv pool
//   (a passphrase's Argon2id, before the first segment); decryptStream collects the header's
//   bytes before it makes its state.
// - The files are read, sealed or opened and written natively on the pool
//   (src/formats/file.rs), with the progress, abort and error machinery of X.file()
//   (./hash-stream.js). decryptFile writes to a temporary file beside dst and renames it over
//   dst only after the last segment verified.
const { Transform } = require('node:stream')
const native = require('./native')
const { checkOptions, checkInt } = require('./options')
const { BYTES, invalidArgType, invalidArgValue, outOfRange } = require('./errors')
const { checkSignal, startAsync } = require('./abort')
const { kind } = require('./diagnostics')
const { byteLength, isBytes } = require('./bytes')
const { checkProgress, runFile } = require('./files')
const { ARGON2_DEFAULTS } = require('./kdf')

const { aeadStreamNewAsync, aeadStreamUpdate, aeadStreamFinal, aeadStreamFile } = native
const ALGORITHMS = native.streamAlgorithms()
// What each async call publishes as (./diagnostics.js): the key setup of a stream (Argon2id for
// a passphrase) on the stream channel, the files on the file channel.
for (const alg of ALGORITHMS) {
  const name = alg.name.toLowerCase()
  alg.traced = {
    encryptStream: kind('stream', 'encryptStream', name),
    decryptStream: kind('stream', 'decryptStream', name),
    encryptFile: kind('file', 'encryptFile', name),
    decryptFile: kind('file', 'decryptFile', name),
  }
}
// An option only other modules of the library can pass (a Symbol key): the bytes of an enclosing
// format before the stream header (crypto.hybrid's envelope head). Sealing, and opening a file
// whose lead is known: those bytes (`Buffer`), written first / required and skipped. Opening a
// Transform: `{ length, secret(lead) }`: the stream collects `length` bytes of lead with the
// header, and `secret` resolves the key from them, a Buffer the stream fills with zeros once its
// native state holds a copy (the lead then checked and skipped as above).
const LEAD = Symbol('lead')
const EMPTY = Buffer.alloc(0)
const U32 = 2 ** 32 - 1

const BOTH = ['key', 'passphrase', 'aad', 'signal']
const SEAL = ['segmentSize', 'memoryCost', 'timeCost', 'parallelism']
const OPEN = ['maxMemoryCost', 'maxTimeCost', 'maxParallelism', 'allowV1']
const ALLOWED = {
  encryptStream: new Set([...BOTH, ...SEAL]),
  decryptStream: new Set([...BOTH, ...OPEN]),
  encryptFile: new Set([...BOTH, ...SEAL, 'onProgress']),
  decryptFile: new Set([...BOTH, ...OPEN, 'onProgress']),
}

function checkBytes(value, name) {
  if (!isBytes(value)) throw invalidArgType(name, BYTES, value)
  return value
}

/**
 * Reads the options of `what` on `alg`: the secret (exactly one of `key`, 32 bytes, and a
 * non-empty `passphrase`) and the plain object of numeric and byte options the native side
 * reads. Everything is checked here, so a refused option throws from the call itself; the native
 * side checks again.
 */
function read(alg, what, options) {
  const where = `cipher.${alg.namespace}.${what}`
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw invalidArgType('options', 'an object with a "key" or "passphrase" property', options)
  }
  const o = checkOptions(options, ALLOWED[what], where)
  const lead = options[LEAD]
  // The enclosing format (crypto.hybrid) derives the key from its own KEM ciphertexts: nobody can
  // choose it or guess it, so version 1's missing key commitment gives no attack there.
  if (lead && lead.secret) return { lead, passphrase: false, nativeOptions: { aad: o.aad ?? undefined, allowV1: true }, signal: checkSignal(o.signal) }
  const hasKey = o.key !== undefined && o.key !== null
  const hasPass = o.passphrase !== undefined && o.passphrase !== null
  if (!hasKey && !hasPass) throw invalidArgType('options.key', `${BYTES} (or options.passphrase)`, o.key)
  if (hasKey && hasPass) {
    throw invalidArgValue('options', `exactly one of "key" and "passphrase" for ${where}`, 'both')
  }
  const secret = hasKey ? checkBytes(o.key, 'options.key') : checkBytes(o.passphrase, 'options.passphrase')
  const n = byteLength(secret)
  if (hasKey && n !== 32) {
    throw outOfRange('options.key.length', `32 bytes (${alg.name} streams take 256-bit keys)`, n)
  }
  if (hasPass && n === 0) throw invalidArgValue('options.passphrase', 'a non-empty passphrase', 'an empty one')
  if (o.aad !== undefined && o.aad !== null) checkBytes(o.aad, 'options.aad')
  const nativeOptions = {
    aad: o.aad ?? undefined,
    segmentSize: checkInt(o.segmentSize, 'options.segmentSize', alg.minSegmentSize, alg.maxSegmentSize),
    lead,
  }
  for (const k of ['memoryCost', 'timeCost', 'parallelism', 'maxMemoryCost', 'maxTimeCost', 'maxParallelism']) {
    nativeOptions[k] = checkInt(o[k], `options.${k}`, 0, U32)
  }
  if (o.allowV1 !== undefined && typeof o.allowV1 !== 'boolean') throw invalidArgType('options.allowV1', 'of type boolean', o.allowV1)
  nativeOptions.allowV1 = o.allowV1
  for (const k of ['memoryCost', 'timeCost', 'parallelism']) {
    if (!hasPass && o[k] !== undefined) throw invalidArgValue(`options.${k}`, 'no Argon2id cost without a passphrase', o[k])
    // A passphrase's key: the library's Argon2 parameters unless the call sets them.
    if (hasPass && ALLOWED[what].has(k)) nativeOptions[k] ??= ARGON2_DEFAULTS[k]
  }
  return { secret, passphrase: hasPass, nativeOptions, signal: checkSignal(o.signal), onProgress: checkProgress(o.onProgress) }
}

/** The native request of a stream or file call (`AeadStreamRequest`). */
function request(alg, decrypt, r) {
  return { algorithm: alg.id, decrypt, passphrase: r.passphrase, options: r.nativeOptions }
}

/**
 * A Promise of the native state, made on the pool (a passphrase's Argon2id; HKDF for a key) from
 * `head` when decrypting. A refused argument throws here.
 */
function makeState(alg, decrypt, r, head) {
  return startAsync(
    r.signal,
    (token) => aeadStreamNewAsync(request(alg, decrypt, r), r.secret, head, token()),
    decrypt ? alg.traced.decryptStream : alg.traced.encryptStream,
  )
}

/** `encryptStream()` / `decryptStream()`: byte chunks in, sealed stream (or plaintext) out. */
class AeadStream extends Transform {
  #alg
  #decrypt
  #request
  #state = null
  /** Decrypting: the chunks that came before the header was complete. */
  #head = []
  #headLength = 0

  constructor(alg, decrypt, request) {
    super({ signal: request.signal })
    this.#alg = alg
    this.#decrypt = decrypt
    this.#request = request
    // Sealing: the state (header, key; Argon2id for a passphrase) is made on the pool now,
    // while the first chunks arrive.
    if (!decrypt) {
      this.#state = makeState(alg, false, request, undefined)
      this.#state.catch(() => {})
    }
  }

  /** Runs `step(state)` once the state exists, and passes its output on. */
  #with(step, callback) {
    const run = (state) => {
      this.#state = state
      let out
      try {
        out = step(state)
      } catch (err) {
        return callback(err)
      }
      if (out.length > 0) this.push(out)
      callback()
    }
    if (this.#state instanceof Promise) this.#state.then(run, callback)
    else run(this.#state)
  }

  /**
   * Decrypting: makes the state from the collected head once it holds a whole header, after the
   * lead of an enclosing format if there is one (or at the end).
   */
  #open(final) {
    const lead = this.#request.lead
    const leadLength = lead ? lead.length : 0
    if (!final && this.#headLength < leadLength + this.#alg.maxHeaderLength) return false
    const head = Buffer.concat(this.#head, this.#headLength)
    this.#head = []
    const r = this.#request
    const state = !lead
      ? () => makeState(this.#alg, true, r, head)
      : async () => {
          const bytes = head.subarray(0, leadLength)
          const secret = await lead.secret(bytes)
          try {
            // The native call copies the key as it starts (or is never made, after an abort).
            return makeState(this.#alg, true, { ...r, secret, nativeOptions: { ...r.nativeOptions, lead: bytes } }, head)
          } finally {
            secret.fill(0)
          }
        }
    try {
      this.#state = state()
    } catch (err) {
      this.#state = Promise.reject(err)
    }
    return true
  }

  _transform(chunk, encoding, callback) {
    if (typeof chunk === 'string') chunk = Buffer.from(chunk, encoding)
    if (this.#decrypt && this.#state === null) {
      this.#head.push(chunk)
      this.#headLength += chunk.length
      if (!this.#open(false)) return callback()
      // The bytes past the header went to the state with it; take what they completed.
      chunk = EMPTY
    }
    this.#with((state) => aeadStreamUpdate(state, chunk), callback)
  }

  _flush(callback) {
    if (this.#decrypt && this.#state === null) this.#open(true)
    this.#with((state) => aeadStreamFinal(state), callback)
  }

  get [Symbol.toStringTag]() {
    return this.#decrypt ? 'DecryptStream' : 'EncryptStream'
  }
}

/** encryptFile / decryptFile of the streaming AEAD. */
function aeadFile(alg, decrypt, src, dst, options) {
  return runFile(src, dst, () => {
    const r = read(alg, decrypt ? 'decryptFile' : 'encryptFile', options)
    return {
      start: (from, to, token, counter) =>
        aeadStreamFile(request(alg, decrypt, r), r.secret, from, to, token, counter),
      signal: r.signal,
      onProgress: r.onProgress,
    }
  }, decrypt ? alg.traced.decryptFile : alg.traced.encryptFile)
}

/** The four methods for the namespace `name` ('aes', 'xchacha20'), or none. */
function streamMethods(name) {
  const alg = ALGORITHMS.find((a) => a.namespace === name)
  if (!alg) return {}
  return {
    /** A Transform from plaintext chunks to the sealed stream (header, then segments). */
    encryptStream: (options) => new AeadStream(alg, false, read(alg, 'encryptStream', options)),
    /** A Transform from a sealed stream to its plaintext, released segment by verified segment. */
    decryptStream: (options) => new AeadStream(alg, true, read(alg, 'decryptStream', options)),
    encryptFile: (src, dst, options) => aeadFile(alg, false, src, dst, options),
    decryptFile: (src, dst, options) => aeadFile(alg, true, src, dst, options),
  }
}

module.exports = { streamMethods, LEAD }
