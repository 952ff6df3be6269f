'use strict'
// crypto.sha / crypto.hash and crypto.hmac, built from the native algorithm list
// (src/algorithms.rs): one factory per kind of API, nothing per algorithm.
const native = require('./native')
const { checkFormat, encode } = require('./output')
const { checkOptions, checkInt } = require('./options')
const { invalidArgType } = require('./errors')

const ALGORITHMS = native.algorithms()
const nativeHash = native.hash
const nativeHashWith = native.hashWith
const nativeHmac = native.hmac
const { hasherNew, hmacNew, hasherUpdate, hasherDigest, hasherCopy, hasherReset } = native

/** The object `create()` returns: incremental hash or HMAC. */
class Hasher {
  #state
  #format
  #algorithm
  #outputLength

  // `state` is the native handle (an N-API external).
  constructor(state, algorithm, outputLength, format) {
    this.#state = state
    this.#algorithm = algorithm
    this.#outputLength = outputLength
    this.#format = format
  }

  /** Adds data (string as UTF-8, Buffer, TypedArray, DataView or ArrayBuffer); chainable. */
  update(data) {
    hasherUpdate(this.#state, data)
    return this
  }

  /** Finalises; after this, `update`/`digest` throw ERR_HASH_FINALIZED until `reset()`. */
  digest(outputFormat = this.#format) {
    checkFormat(outputFormat)
    if (outputFormat === undefined || outputFormat === 'hex') return hasherDigest(this.#state)
    const out = Buffer.allocUnsafe(this.#outputLength)
    hasherDigest(this.#state, out)
    return outputFormat === 'buffer' ? out : encode(out, outputFormat)
  }

  /** An independent clone of the current state. */
  copy() {
    return new Hasher(hasherCopy(this.#state), this.#algorithm, this.#outputLength, this.#format)
  }

  /** Starts over with the same algorithm, key and options; chainable. */
  reset() {
    hasherReset(this.#state)
    return this
  }

  get outputLength() {
    return this.#outputLength
  }

  get algorithm() {
    return this.#algorithm
  }

  get [Symbol.toStringTag]() {
    return 'Hasher'
  }
}

function describeAlgorithm(fn, info, name) {
  Object.defineProperty(fn, 'name', { value: name })
  fn.outputLength = info.outputLength
  fn.blockLength = info.blockLength
  return Object.freeze(fn)
}

/** `sha.X(data, options?)` and `sha.X.create(options?)` for one algorithm. */
function makeHash(info) {
  const { id, name, outputLength, maxOutputLength } = info
  const allowed = new Set(['outputFormat', ...info.options])
  const parameterised = info.options.length > 0

  // Reads the family's options; returns [format, outputLength, key, salt, personalization, context].
  const read = (options) => {
    const o = checkOptions(options, allowed, name)
    const format = checkFormat(o.outputFormat)
    if (!parameterised) return [format, outputLength]
    const len = checkInt(o.outputLength, 'options.outputLength', 1, maxOutputLength)
    return [format, len ?? outputLength, o.key, o.salt, o.personalization, o.context, len]
  }

  const digest = parameterised
    ? function (data, options) {
        if (options === undefined) return nativeHash(id, data)
        const [format, len, key, salt, pers, ctx, explicitLen] = read(options)
        if (format === undefined || format === 'hex') {
          return nativeHashWith(id, data, undefined, key, salt, pers, ctx, explicitLen)
        }
        const out = Buffer.allocUnsafe(len)
        nativeHashWith(id, data, out, key, salt, pers, ctx, explicitLen)
        return format === 'buffer' ? out : encode(out, format)
      }
    : function (data, options) {
        if (options === undefined) return nativeHash(id, data)
        const format = read(options)[0]
        if (format === undefined || format === 'hex') return nativeHash(id, data)
        const out = Buffer.allocUnsafe(outputLength)
        nativeHash(id, data, out)
        return format === 'buffer' ? out : encode(out, format)
      }

  digest.create = (options) => {
    const [format, len, key, salt, pers, ctx, explicitLen] = read(options)
    return new Hasher(hasherNew(id, key, salt, pers, ctx, explicitLen), name, len, format)
  }
  return describeAlgorithm(digest, info, name)
}

const HMAC_OPTIONS = new Set(['key', 'outputFormat'])

function readHmacOptions(options, name) {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw invalidArgType('options', 'an object with a "key" property', options)
  }
  checkOptions(options, HMAC_OPTIONS, `hmac.${name}`)
  if (options.key === undefined || options.key === null) {
    throw invalidArgType(
      'options.key',
      'of type string or an instance of Buffer, TypedArray, DataView or ArrayBuffer',
      options.key,
    )
  }
  return checkFormat(options.outputFormat)
}

/** `hmac.X(data, { key, outputFormat? })` and `hmac.X.create({ key })` for one algorithm. */
function makeHmac(info) {
  const { id, name, outputLength } = info
  const mac = function (data, options) {
    const format = readHmacOptions(options, name)
    if (format === undefined || format === 'hex') return nativeHmac(id, options.key, data)
    const out = Buffer.allocUnsafe(outputLength)
    nativeHmac(id, options.key, data, out)
    return format === 'buffer' ? out : encode(out, format)
  }
  mac.create = (options) => {
    const format = readHmacOptions(options, name)
    return new Hasher(hmacNew(id, options.key), `hmac-${name}`, outputLength, format)
  }
  return describeAlgorithm(mac, info, name)
}

const sha = {}
const hmac = {}
for (const info of ALGORITHMS) {
  sha[info.name] = makeHash(info)
  // HMAC is defined over block hashes; SHAKE and BLAKE3 (blockLength 0) have none.
  if (info.blockLength > 0) hmac[info.name] = makeHmac(info)
}

module.exports = {
  sha: Object.freeze(sha),
  hmac: Object.freeze(hmac),
  Hasher,
  ALGORITHMS,
}
