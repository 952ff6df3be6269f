'use strict'
// Sealed messages on crypto.cipher.aes (AES-256-GCM) and crypto.cipher.xchacha20
// (XChaCha20-Poly1305): a message and a passphrase in one call (`sealSync`/`sealAsync`,
// `openSync`/`openAsync`), and a key derived once from a passphrase that seals many messages
// without running Argon2id again (`deriveKeySync`/`deriveKeyAsync`, a PassphraseKey).
//
// A sealed message is a stream of the library's format, sealed or opened whole in memory
// (docs/stream-format.md, "Sealed messages"): authenticated, versioned and key-committing, its
// Argon2id cost and salt in its header, so `openSync(sealed, { passphrase })` opens every sealed
// message, those of a PassphraseKey included. The work is native (src/formats/seal.rs).
//
// A PassphraseKey holds Argon2id's 32-byte output natively (never the passphrase); dispose() or
// `using` wipes it at once, and the garbage collector wipes it with the key object otherwise. It
// is an explicit object, not a cache: no state hidden in the library keeps a key alive after its
// owner lets go of it, and no passphrase is held to look one up.
const native = require('./native')
const { checkOptions, checkInt } = require('./options')
const { checkDecryptFormat, decryptOutput } = require('./output')
const { BYTES, coded, invalidArgType, invalidArgValue } = require('./errors')
const { runAsync, signalOf } = require('./abort')
const { kind, byteLength } = require('./diagnostics')
const { isBytes } = require('./bytes')

const ALGORITHMS = native.streamAlgorithms()
// What each async call publishes as on the cipher diagnostics channel.
for (const alg of ALGORITHMS) {
  const name = alg.name.toLowerCase()
  alg.traced = { seal: kind('cipher', 'seal', name), open: kind('cipher', 'open', name), deriveKey: kind('cipher', 'deriveKey', name) }
}
const U32 = 2 ** 32 - 1
const SEALED = 'an instance of Buffer, TypedArray, DataView or ArrayBuffer'
const COST = ['memoryCost', 'timeCost', 'parallelism']
const CEILINGS = ['maxMemoryCost', 'maxTimeCost', 'maxParallelism']
const NUMBERS = [...COST, ...CEILINGS]
const withSignal = (list) => new Set([...list, 'signal'])
const ALLOWED = {
  sealSync: new Set(['passphrase', 'aad', ...COST]),
  openSync: new Set(['passphrase', 'aad', 'outputFormat', ...CEILINGS]),
  deriveKeySync: new Set(COST),
  keySealSync: new Set(['aad']),
  keyOpenSync: new Set(['aad', 'outputFormat']),
}
for (const what of Object.keys(ALLOWED)) ALLOWED[what.replace(/Sync$/, 'Async')] = withSignal(ALLOWED[what])

/** The message to seal (bytes or a string, as UTF-8), or the sealed bytes to open. */
function checkData(data, decrypt) {
  if (decrypt) {
    if (!ArrayBuffer.isView(data) && !(data instanceof ArrayBuffer)) throw invalidArgType('sealed', SEALED, data)
  } else if (!isBytes(data)) throw invalidArgType('data', BYTES, data)
  return data
}

/** A non-empty passphrase at `name`. */
function checkPassphrase(passphrase, name) {
  if (!isBytes(passphrase)) throw invalidArgType(name, BYTES, passphrase)
  const n = typeof passphrase === 'string' ? passphrase.length : passphrase.byteLength
  if (n === 0) throw invalidArgValue(name, 'a non-empty passphrase', 'an empty one')
  return passphrase
}

/**
 * The options of `what` (a key of ALLOWED) read into `[native options, output format]`; every
 * option is checked here, so a refused one throws from the call itself (the native side checks
 * again). The native options are undefined when none is set (nothing for the native side to
 * look up).
 */
function read(options, what, where) {
  const o = checkOptions(options, ALLOWED[what], where)
  let out
  if (o.aad !== undefined && o.aad !== null) {
    if (!isBytes(o.aad)) throw invalidArgType('options.aad', BYTES, o.aad)
    out = { aad: o.aad }
  }
  for (const k of NUMBERS) {
    const v = checkInt(o[k], `options.${k}`, 0, U32)
    if (v !== undefined) (out ??= {})[k] = v
  }
  return [out, ALLOWED[what].has('outputFormat') ? checkDecryptFormat(o.outputFormat, 'options.outputFormat') : undefined]
}

/** `options`, checked to be an object with a non-empty passphrase. */
function passphraseOptions(options) {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw invalidArgType('options', 'an object with a "passphrase" property', options)
  }
  checkPassphrase(options.passphrase, 'options.passphrase')
  return options
}


/** One synchronous call: `data` sealed or opened under `secret` (a passphrase or a key handle). */
function runSync(alg, decrypt, secret, data, options, what, where) {
  const [o, fmt] = read(options, what, where)
  const out = native.sealedMessage(alg.id, decrypt, secret, checkData(data, decrypt), o)
  return decrypt ? decryptOutput(out, fmt) : out
}

/** The same on the libuv pool: the inputs are copied at call time. */
function runPooled(alg, decrypt, secret, data, options, what, where) {
  return runAsync(signalOf(options), async (token, ctx) => {
    const [o, fmt] = read(options, what, where)
    if (ctx !== undefined) ctx.bytesIn = byteLength(data)
    const out = await native.sealedMessageAsync(alg.id, decrypt, secret(), checkData(data, decrypt), o, token())
    return decrypt ? decryptOutput(out, fmt) : out
  }, decrypt ? alg.traced.open : alg.traced.seal)
}

/** Construction of a PassphraseKey is the library's (deriveKeySync / deriveKeyAsync). */
const MAKE = Symbol('PassphraseKey')

/**
 * A key derived once from a passphrase (Argon2id under its own random salt and the cost it was
 * derived with): it seals many messages without running Argon2id again, each message under its
 * own random salt, so its own key and nonces. Its messages carry that salt and cost, so the
 * one-call `openSync`/`openAsync` opens them with the passphrase; the key opens its own messages
 * only. `dispose()` (or `using`) wipes it; a key never disposed is wiped when it is collected.
 */
class PassphraseKey {
  #alg
  #handle

  constructor(make, alg, handle) {
    if (make !== MAKE) {
      throw coded(TypeError, 'ERR_ILLEGAL_CONSTRUCTOR', `Illegal constructor: use cipher.${alg?.namespace ?? 'aes'}.deriveKeySync() or deriveKeyAsync()`)
    }
    this.#alg = alg
    this.#handle = handle
  }

  /** The native handle, or the error of a disposed key. */
  #live() {
    if (this.#handle === null) {
      throw coded(Error, 'ERR_INVALID_STATE', 'The key was disposed: derive a new one with deriveKeySync() or deriveKeyAsync()')
    }
    return this.#handle
  }

  #where(method) {
    return `cipher.${this.#alg.namespace} key ${method}`
  }

  /** Seals `data` (a string is sealed as its UTF-8 bytes): a Buffer. */
  sealSync(data, options) {
    return runSync(this.#alg, false, this.#live(), data, options, 'keySealSync', this.#where('sealSync'))
  }

  /** `sealSync` on the libuv pool. */
  sealAsync(data, options) {
    return runPooled(this.#alg, false, () => this.#live(), data, options, 'keySealAsync', this.#where('sealAsync'))
  }

  /** Opens a message this key sealed: a Buffer unless `outputFormat`. */
  openSync(sealed, options) {
    return runSync(this.#alg, true, this.#live(), sealed, options, 'keyOpenSync', this.#where('openSync'))
  }

  /** `openSync` on the libuv pool. */
  openAsync(sealed, options) {
    return runPooled(this.#alg, true, () => this.#live(), sealed, options, 'keyOpenAsync', this.#where('openAsync'))
  }

  /** Wipes the key now; every later call throws ERR_INVALID_STATE. Calls already running finish. */
  dispose() {
    if (this.#handle === null) return
    native.derivedKeyDispose(this.#handle)
    this.#handle = null
  }

  [Symbol.dispose]() {
    this.dispose()
  }

  /** True once disposed. */
  get disposed() {
    return this.#handle === null
  }

  get [Symbol.toStringTag]() {
    return 'PassphraseKey'
  }
}

/** The sealing methods of the namespace `name` ('aes', 'xchacha20'), or none. */
function sealMethods(name) {
  const alg = ALGORITHMS.find((a) => a.namespace === name)
  if (!alg) return {}
  const where = (method) => `cipher.${name}.${method}`
  return {
    /**
     * Seals `data` with `options.passphrase` (Argon2id at the library's policy unless
     * `memoryCost`/`timeCost`/`parallelism`, over a new random salt): a Buffer. Blocks for the
     * Argon2id hash (about 85 ms of one core at the default cost, docs/password.md); `sealAsync` does not.
     */
    sealSync(data, options) {
      const o = passphraseOptions(options)
      return runSync(alg, false, o.passphrase, data, o, 'sealSync', where('sealSync'))
    },
    sealAsync(data, options) {
      return runPooled(alg, false, () => passphraseOptions(options).passphrase, data, options, 'sealAsync', where('sealAsync'))
    },
    /**
     * Opens a sealed message (or any stream of the format in memory) with `options.passphrase`;
     * a Buffer unless `outputFormat`. Every failure (wrong passphrase or aad, damaged, cut or
     * extended message) is ERR_CRYPTO_DECRYPT_FAILED; Argon2id costs above the ceilings
     * (`maxMemoryCost`, `maxTimeCost`, `maxParallelism`) are refused before any work.
     */
    openSync(sealed, options) {
      const o = passphraseOptions(options)
      return runSync(alg, true, o.passphrase, sealed, o, 'openSync', where('openSync'))
    },
    openAsync(sealed, options) {
      return runPooled(alg, true, () => passphraseOptions(options).passphrase, sealed, options, 'openAsync', where('openAsync'))
    },
    /** A PassphraseKey: Argon2id of `passphrase` once, for many messages. Blocks for the hash. */
    deriveKeySync(passphrase, options) {
      checkPassphrase(passphrase, 'passphrase')
      const [o] = read(options, 'deriveKeySync', where('deriveKeySync'))
      return new PassphraseKey(MAKE, alg, native.derivedKey(passphrase, o))
    },
    /** `deriveKeySync` on the libuv pool. */
    deriveKeyAsync(passphrase, options) {
      return runAsync(signalOf(options), async (token) => {
        checkPassphrase(passphrase, 'passphrase')
        const [o] = read(options, 'deriveKeyAsync', where('deriveKeyAsync'))
        return new PassphraseKey(MAKE, alg, await native.derivedKeyAsync(passphrase, o, token()))
      }, alg.traced.deriveKey)
    },
  }
}

module.exports = { sealMethods, PassphraseKey }
