'use strict'
// crypto.cipher.age: age v1 files (age-encryption.org/v1) encrypted to a passphrase, readable
// by the `age` and `rage` tools and writing files they read. All the work is native
// (src/cipher/age/): this layer reads options and formats results. scrypt at age's work
// factors costs 0.1-1 s, so `encrypt`/`decrypt` return Promises and run on the libuv pool
// (`signal` stops them); `encryptSync`/`decryptSync` block the calling thread (as
// password.hash/hashSync).
const native = require('./native')
const { checkOptions, checkInt } = require('./options')
const { checkDecryptFormat, decryptOutput } = require('./output')
const { BYTES, invalidArgType } = require('./errors')
const { runAsync } = require('./abort')

/** age's defaults: scrypt N = 2^18 when encrypting; files above 2^22 refused when decrypting. */
const DEFAULTS = Object.freeze({ workFactor: 18, maxWorkFactor: 22 })
const MIN_WORK_FACTOR = 1
const MAX_WORK_FACTOR = 30

const ENCRYPT = new Set(['passphrase', 'workFactor', 'armor'])
const DECRYPT = new Set(['passphrase', 'maxWorkFactor', 'outputFormat'])
const ASYNC = (set) => new Set([...set, 'signal'])
const ENCRYPT_ASYNC = ASYNC(ENCRYPT)
const DECRYPT_ASYNC = ASYNC(DECRYPT)

function readOptions(options, allowed, what) {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw invalidArgType('options', 'an object with a "passphrase" property', options)
  }
  const o = checkOptions(options, allowed, what)
  if (o.passphrase === undefined || o.passphrase === null) {
    throw invalidArgType('options.passphrase', BYTES, o.passphrase)
  }
  return o
}

const workFactor = (v, name, dflt) => checkInt(v, name, MIN_WORK_FACTOR, MAX_WORK_FACTOR) ?? dflt

/** [data, passphrase, workFactor, armor] of an encrypt call. */
function encryptArgs(data, options, allowed, what) {
  const o = readOptions(options, allowed, what)
  const armor = o.armor ?? false
  if (typeof armor !== 'boolean') throw invalidArgType('options.armor', 'of type boolean', armor)
  return [data, o.passphrase, workFactor(o.workFactor, 'options.workFactor', DEFAULTS.workFactor), armor]
}

/** [[data, passphrase, maxWorkFactor], output format] of a decrypt call. */
function decryptArgs(data, options, allowed, what) {
  const o = readOptions(options, allowed, what)
  const max = workFactor(o.maxWorkFactor, 'options.maxWorkFactor', DEFAULTS.maxWorkFactor)
  return [[data, o.passphrase, max], checkDecryptFormat(o.outputFormat, 'options.outputFormat')]
}

const signalOf = (options) => (options !== null && typeof options === 'object' ? options.signal ?? undefined : undefined)

const age = {
  /**
   * Encrypts `data` to `options.passphrase` as an age file: a Buffer, or with `armor: true` the
   * PEM text (a string). scrypt at N = 2^workFactor (default 18, as age), on the libuv pool.
   */
  encrypt(data, options) {
    return runAsync(signalOf(options), (token) =>
      native.ageEncryptAsync(...encryptArgs(data, options, ENCRYPT_ASYNC, 'cipher.age.encrypt'), token),
    )
  },
  /**
   * Decrypts an age file (binary or armored, detected) encrypted to `options.passphrase`; a
   * Buffer unless `outputFormat`. Files whose scrypt work factor exceeds `maxWorkFactor`
   * (default 22) are refused before any work. Every failure to decrypt (wrong passphrase,
   * damaged, truncated or extended file) rejects with one ERR_CRYPTO_DECRYPT_FAILED.
   */
  decrypt(data, options) {
    return runAsync(signalOf(options), async (token) => {
      const [args, format] = decryptArgs(data, options, DECRYPT_ASYNC, 'cipher.age.decrypt')
      return decryptOutput(await native.ageDecryptAsync(...args, token), format)
    })
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
  defaults: DEFAULTS,
}

module.exports = Object.freeze(age)
