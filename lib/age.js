'use strict'
// crypto.cipher.age: age v1 files (age-encryption.org/v1) encrypted to a passphrase or to X25519
// recipients (`age1…`, decrypted with `AGE-SECRET-KEY-1…` identities), readable
// by the `age` and `rage` tools and writing files they read. All the work is native
// (src/formats/age/): this layer reads options and formats results. scrypt at age's work
// factors costs 0.1-1 s, so `encrypt`/`decrypt` return Promises and run on the libuv pool
// (`signal` stops them); `encryptSync`/`decryptSync` block the calling thread (as
// password.hash/hashSync). `encryptFile`/`decryptFile` stream files on disk natively on the pool
// (src/formats/file.rs, through the file runner of ./files.js), in the binary form only.
const native = require('./native')
const { checkOptions, checkInt } = require('./options')
const { checkDecryptFormat, decryptOutput } = require('./output')
const { BYTES, invalidArgType, invalidArgValue } = require('./errors')
const { runAsync, signalOf } = require('./abort')
const diagnostics = require('./diagnostics')
const { explicit } = require('./forms')
const { runFile } = require('./files')

/**
 * Encrypting: scrypt N = 2^18, age's default (256 MiB, about 0.3-1 s). Decrypting: files above
 * 2^19 are refused before any work (512 MiB). An untrusted file decides what scrypt costs: the
 * age tool's own ceiling, 22, lets one file take 4 GiB and 16 times the default's time, which
 * suits a person at a terminal, not a server. 19 opens what the age CLI writes (18) and what
 * rage writes when it sizes scrypt to take a second (18 or 19 on current machines), and fits the
 * default memory budget.
 */
const DEFAULTS = Object.freeze({ workFactor: 18, maxWorkFactor: 19 })
const MIN_WORK_FACTOR = 1
const MAX_WORK_FACTOR = 30

const ENCRYPT = new Set(['passphrase', 'recipients', 'workFactor', 'armor'])
const DECRYPT = new Set(['passphrase', 'identity', 'identities', 'maxWorkFactor', 'outputFormat'])
const ASYNC = (set) => new Set([...set, 'signal'])
const ENCRYPT_ASYNC = ASYNC(ENCRYPT)
const DECRYPT_ASYNC = ASYNC(DECRYPT)
const FILE = (set) => new Set([...ASYNC(set), 'onProgress'])
const ENCRYPT_FILE = FILE(ENCRYPT)
const DECRYPT_FILE = FILE(new Set(['passphrase', 'identity', 'identities', 'maxWorkFactor']))
const IN_MEMORY = 'use cipher.age.encrypt/decrypt (in memory) for armored files'

const KEYS = {
  encrypt: { list: 'recipients', what: 'a passphrase or X25519 recipients ("age1…" strings)' },
  decrypt: { list: 'identities', what: 'a passphrase or X25519 identities ("AGE-SECRET-KEY-1…" strings)' },
}

/** A non-empty array of strings at `name`. */
function keyList(v, name) {
  if (!Array.isArray(v) || v.length === 0 || !v.every((k) => typeof k === 'string')) {
    throw invalidArgType(name, 'a non-empty array of strings', v)
  }
  return [...v]
}

/**
 * The options object, with `o.keys`: the passphrase as [passphrase, undefined], or X25519 key
 * strings as [undefined, strings] (`recipients` when encrypting; `identity` or `identities`
 * when decrypting); exactly one of them.
 */
function readOptions(options, allowed, what) {
  const kind = allowed.has('recipients') ? KEYS.encrypt : KEYS.decrypt
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw invalidArgType('options', `an object with ${kind.what}`, options)
  }
  const o = checkOptions(options, allowed, what)
  const given = (v) => v !== undefined && v !== null
  let list
  if (given(o.identity)) {
    if (typeof o.identity !== 'string') throw invalidArgType('options.identity', 'of type string', o.identity)
    if (given(o.identities)) throw invalidArgValue('options', 'identity or identities, not both', 'both')
    list = [o.identity]
  } else if (given(o[kind.list])) {
    list = keyList(o[kind.list], `options.${kind.list}`)
  }
  if (list !== undefined) {
    if (given(o.passphrase)) {
      throw invalidArgValue('options', `${kind.what}, not both`, 'a passphrase and keys')
    }
    return { ...o, keys: [undefined, list] }
  }
  if (!given(o.passphrase)) throw invalidArgType('options.passphrase', BYTES, o.passphrase)
  return { ...o, keys: [o.passphrase, undefined] }
}

const workFactor = (v, name, dflt) => checkInt(v, name, MIN_WORK_FACTOR, MAX_WORK_FACTOR) ?? dflt

/** The scrypt work factor of an encrypt call; refused with recipients, which have none (X25519). */
function encryptWorkFactor(o) {
  if (o.keys[1] !== undefined && o.workFactor !== undefined) {
    throw invalidArgValue('options.workFactor', 'only with a passphrase (the scrypt work factor; X25519 recipients take none)', o.workFactor)
  }
  return workFactor(o.workFactor, 'options.workFactor', DEFAULTS.workFactor)
}

/** [data, passphrase, keys, workFactor, armor] of an encrypt call. */
function encryptArgs(data, options, allowed, what) {
  const o = readOptions(options, allowed, what)
  const armor = o.armor ?? false
  if (typeof armor !== 'boolean') throw invalidArgType('options.armor', 'of type boolean', armor)
  return [data, ...o.keys, encryptWorkFactor(o), armor]
}

/** [[data, passphrase, keys, maxWorkFactor], output format] of a decrypt call. */
function decryptArgs(data, options, allowed, what) {
  const o = readOptions(options, allowed, what)
  const max = workFactor(o.maxWorkFactor, 'options.maxWorkFactor', DEFAULTS.maxWorkFactor)
  return [[data, ...o.keys, max], checkDecryptFormat(o.outputFormat, 'options.outputFormat')]
}

const TRACE = {
  encrypt: diagnostics.kind('age', 'encrypt', 'age'),
  decrypt: diagnostics.kind('age', 'decrypt', 'age'),
  encryptFile: diagnostics.kind('file', 'encryptFile', 'age'),
  decryptFile: diagnostics.kind('file', 'decryptFile', 'age'),
}

/**
 * encryptFile / decryptFile: `src` through the native file job into `dst`; resolves to
 * `{ bytes }`. `args(o)` gives the job's work factor (or ceiling) from the read options.
 */
function ageFile(src, dst, options, allowed, what, decrypt, args) {
  return runFile(src, dst, () => {
    const o = readOptions(options, allowed, what)
    const n = args(o)
    return {
      start: (from, to, token, counter) => native.ageFile({ decrypt, keys: o.keys[1], workFactor: n }, from, to, o.keys[0], token, counter),
      signal: signalOf(o),
      onProgress: o.onProgress ?? undefined,
    }
  }, decrypt ? TRACE.decryptFile : TRACE.encryptFile)
}

const age = {
  /**
   * Encrypts `data` to `options.passphrase` as an age file: a Buffer, or with `armor: true` the
   * PEM text (a string). scrypt at N = 2^workFactor (default 18, as age), on the libuv pool.
   */
  encrypt(data, options) {
    return runAsync(signalOf(options), (token, ctx) => {
      const args = encryptArgs(data, options, ENCRYPT_ASYNC, 'cipher.age.encrypt')
      if (ctx !== undefined) {
        ctx.bytesIn = diagnostics.byteLength(data)
        // The scrypt work factor of a passphrase (X25519 recipients have none).
        if (args[1] !== undefined) ctx.params = { workFactor: args[3] }
      }
      return native.ageEncryptAsync(...args, token())
    }, TRACE.encrypt)
  },
  /**
   * Decrypts an age file (binary or armored, detected) encrypted to `options.passphrase`; a
   * Buffer unless `outputFormat`. Files whose scrypt work factor exceeds `maxWorkFactor`
   * (default 19) are refused before any work. Every failure to decrypt (wrong passphrase,
   * damaged, truncated or extended file) rejects with one ERR_CRYPTO_DECRYPT_FAILED.
   */
  decrypt(data, options) {
    return runAsync(signalOf(options), async (token, ctx) => {
      const [args, format] = decryptArgs(data, options, DECRYPT_ASYNC, 'cipher.age.decrypt')
      if (ctx !== undefined) {
        ctx.bytesIn = diagnostics.byteLength(data)
        ctx.params = { maxWorkFactor: args[3] }
      }
      return decryptOutput(await native.ageDecryptAsync(...args, token()), format)
    }, TRACE.decrypt)
  },
  /** `encrypt`, synchronously: blocks the calling thread for the scrypt work (~0.1-1 s at 18). */
  encryptSync(data, options) {
    return native.ageEncrypt(...encryptArgs(data, options, ENCRYPT, 'cipher.age.encryptSync'))
  },
  /** `decrypt`, synchronously. */
  decryptSync(data, options) {
    const [args, format] = decryptArgs(data, options, DECRYPT, 'cipher.age.decryptSync')
    return decryptOutput(native.ageDecrypt(...args), format)
  },
  /**
   * Encrypts the file `src` to `options.passphrase` into `dst` (a binary age file), natively on
   * the pool; resolves to `{ bytes }` written. The output goes to a temporary file beside `dst`,
   * renamed over it at the end: after a failure or an abort (`signal`) no `dst` and no temporary
   * file remain and an existing `dst` is untouched. `armor: true` is refused (use `encrypt`).
   */
  encryptFile(src, dst, options) {
    return ageFile(src, dst, options, ENCRYPT_FILE, 'cipher.age.encryptFile', false, (o) => {
      if (o.armor !== undefined && o.armor !== false) {
        throw invalidArgValue('options.armor', `false (encryptFile writes the binary form; ${IN_MEMORY})`, o.armor)
      }
      return encryptWorkFactor(o)
    })
  },
  /**
   * Decrypts the binary age file `src` into `dst`, natively on the pool; resolves to `{ bytes }`
   * written. `dst` appears only after the last chunk verified (renamed from a temporary file
   * beside it); every failure to decrypt is ERR_CRYPTO_DECRYPT_FAILED with no `dst` left. An
   * armored file is refused with ERR_INVALID_ARG_VALUE (use `decrypt`).
   */
  decryptFile(src, dst, options) {
    return ageFile(src, dst, options, DECRYPT_FILE, 'cipher.age.decryptFile', true, (o) =>
      workFactor(o.maxWorkFactor, 'options.maxWorkFactor', DEFAULTS.maxWorkFactor),
    )
  },
  /**
   * A new X25519 identity: `{ identity: 'AGE-SECRET-KEY-1…', recipient: 'age1…' }`, the strings
   * the `age-keygen` tool writes. Keep `identity` secret; give `recipient` to those who encrypt.
   */
  generateIdentity() {
    const identity = native.ageGenerateIdentity()
    return { identity, recipient: native.ageToRecipient(identity) }
  },
  /** The `age1…` recipient of an `AGE-SECRET-KEY-1…` identity (as `age-keygen -y`). */
  toRecipient(identity) {
    if (typeof identity !== 'string') throw invalidArgType('identity', 'of type string', identity)
    return native.ageToRecipient(identity)
  },
  defaults: DEFAULTS,
}

module.exports = Object.freeze(explicit(age, { async: ['encrypt', 'decrypt'] }))
