'use strict'
// crypto.sha / crypto.hash and crypto.hmac, built from the native algorithm list
// (src/hash/list.rs): one factory per kind of API, nothing per algorithm.
const native = require('./native')
const { checkFormat, encode, outputTarget, refuseAsyncOutput } = require('./output')
const { checkOptions, checkInt } = require('./options')
const { BYTES, coded, invalidArgType } = require('./errors')
const { runAsync, signalOf } = require('./abort')
const { kind, byteLength } = require('./diagnostics')
const { copyBytes, isBytes, asBuffer } = require('./bytes')
const { ALGORITHMS, hasHmac } = require('./algorithms')
const { addStreaming } = require('./hash-stream')
const { addBatch } = require('./batch')

const nativeHash = native.hash
const nativeHashWith = native.hashWith
const nativeHmac = native.hmac
const { hasherNew, hmacNew, hasherUpdate, hasherDigest, hasherCopy, hasherReset, hashAsync, hmacAsync } = native
const { hashBatch, hashBatchAsync } = native

const EMPTY = Buffer.alloc(0)
// Below this many buffered bytes, a hasher keeps copies of its input in JS and digests them with
// one one-shot call: creating a native state costs about 1.5 µs (an N-API external and its GC
// finalizer), more than copying and hashing a few KiB. Larger streams get a native state.
const LAZY_LIMIT = 8 * 1024

const finalized = () =>
  coded(Error, 'ERR_HASH_FINALIZED', 'Digest already called: call reset() before update() or digest() again')

// Below this many bytes an async hash is computed on the calling thread (at most tens of µs
// even for the slowest hash here): the hop to the thread pool and back costs more than that.
const INLINE_LIMIT = 16 * 1024

function isSmall(data) {
  if (typeof data === 'string') return data.length * 3 < INLINE_LIMIT
  const b = asBuffer(data)
  return b !== undefined && b.length < INLINE_LIMIT
}

/**
 * The object `create()` returns: incremental hash or HMAC. `spec` knows how to open a native
 * state (`open()`) and how to hash buffered input in one shot (`once(data, out?)`).
 */
class Hasher {
  #spec
  #format
  #state = null
  #chunks = []
  #size = 0
  #done = false

  constructor(spec, format, state = null) {
    this.#spec = spec
    this.#format = format
    this.#state = state
  }

  /** Adds data (string as UTF-8, Buffer, TypedArray, DataView or ArrayBuffer); chainable. */
  update(data) {
    if (this.#done) throw finalized()
    if (this.#state === null) {
      const n = typeof data === 'string' ? data.length * 3 : isBytes(data) ? asBuffer(data).length : undefined
      if (n === undefined || this.#size + n < LAZY_LIMIT) {
        const bytes = copyBytes(data, 'data')
        this.#chunks.push(bytes)
        this.#size += bytes.length
        return this
      }
      this.#open()
    }
    // Native code reads an ArrayBuffer but not a SharedArrayBuffer: that one goes as a view.
    hasherUpdate(this.#state, typeof SharedArrayBuffer === 'function' && data instanceof SharedArrayBuffer ? asBuffer(data) : data)
    return this
  }

  #open() {
    this.#state = this.#spec.open()
    for (const chunk of this.#chunks) hasherUpdate(this.#state, chunk)
    this.#chunks = []
    this.#size = 0
  }

  /** Finalises; after this, `update`/`digest` throw ERR_HASH_FINALIZED until `reset()`. */
  digest(outputFormat = this.#format) {
    checkFormat(outputFormat)
    if (this.#done) throw finalized()
    const hex = outputFormat === undefined || outputFormat === 'hex'
    const out = hex ? undefined : Buffer.allocUnsafe(this.#spec.outputLength)
    let result
    if (this.#state !== null) {
      result = hasherDigest(this.#state, out)
    } else {
      const chunks = this.#chunks
      const data = chunks.length === 0 ? EMPTY : chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, this.#size)
      result = this.#spec.once(data, out)
    }
    this.#done = true
    if (hex) return result
    return outputFormat === 'buffer' ? out : encode(out, outputFormat)
  }

  /** An independent clone of the current state. */
  copy() {
    const twin = new Hasher(this.#spec, this.#format, this.#state === null ? null : hasherCopy(this.#state))
    twin.#chunks = [...this.#chunks]
    twin.#size = this.#size
    twin.#done = this.#done
    return twin
  }

  /** Starts over with the same algorithm, key and options; chainable. */
  reset() {
    if (this.#state !== null) hasherReset(this.#state)
    this.#chunks = []
    this.#size = 0
    this.#done = false
    return this
  }

  get outputLength() {
    return this.#spec.outputLength
  }

  get algorithm() {
    return this.#spec.algorithm
  }

  get [Symbol.toStringTag]() {
    return 'Hasher'
  }
}

/**
 * Finishes a hash or HMAC function: its name, sizes and the explicit names of its forms
 * (`X.sync`, `X.batchSync`, `X.fileAsync`; `X.async`, `X.batchAsync`, `X.file` and `X.fileSync`
 * are made with the function).
 */
function describeAlgorithm(fn, info, name) {
  Object.defineProperty(fn, 'name', { value: name })
  fn.sync = function sync(data, options) {
    return fn(data, options)
  }
  fn.batchSync = fn.batch
  fn.fileAsync = fn.file
  fn.outputLength = info.outputLength
  fn.blockLength = info.blockLength
  return Object.freeze(fn)
}

const NO_PARAMS = Object.freeze({})

/** `sha.X(data, options?)` and `sha.X.create(options?)` for one algorithm. */
function makeHash(info) {
  const { id, name, outputLength, maxOutputLength } = info
  const allowed = new Set(['outputFormat', ...info.options])
  // `output` (the caller's buffer) only on the synchronous one-shot call.
  const allowedOnce = new Set([...allowed, 'output'])
  const allowedAsync = new Set([...allowed, 'signal'])
  const parameterised = info.options.length > 0

  /**
   * Reads the family's options: `format`, `length` (the digest's) and `params`, the hash's own
   * options as the native calls take them (`outputLength` only when given).
   */
  const read = (options, accepted = allowed) => {
    const o = checkOptions(options, accepted, name)
    const format = checkFormat(o.outputFormat)
    if (!parameterised) return { format, length: outputLength, params: NO_PARAMS }
    const len = checkInt(o.outputLength, 'options.outputLength', 1, maxOutputLength)
    const params = { key: o.key, salt: o.salt, personalization: o.personalization, context: o.context, outputLength: len }
    return { format, length: len ?? outputLength, params }
  }
  const plain = (p) => p.key == null && p.salt == null && p.personalization == null && p.context == null
  /** The native parameterised one-shot: `data` into `out` (hex when undefined). */
  const withParams = (data, out, p, caller) =>
    nativeHashWith(id, data, out, p.key, p.salt, p.personalization, p.context, p.outputLength, caller)

  const digest = parameterised
    ? function (data, options) {
        if (options === undefined) return nativeHash(id, data)
        const { format, length, params } = read(options, allowedOnce)
        const output = options === null ? undefined : options.output
        if (output != null) {
          const view = outputTarget(output, format, length)
          withParams(data, view, params, true)
          return view
        }
        if (format === undefined || format === 'hex') return withParams(data, undefined, params)
        const out = Buffer.allocUnsafe(length)
        withParams(data, out, params)
        return format === 'buffer' ? out : encode(out, format)
      }
    : function (data, options) {
        if (options === undefined) return nativeHash(id, data)
        // Read here rather than through `read()`: no object per call on this hot path.
        const o = checkOptions(options, allowedOnce, name)
        const format = checkFormat(o.outputFormat)
        if (o.output != null) {
          const view = outputTarget(o.output, format, outputLength)
          nativeHash(id, data, view, true)
          return view
        }
        if (format === undefined || format === 'hex') return nativeHash(id, data)
        const out = Buffer.allocUnsafe(outputLength)
        nativeHash(id, data, out)
        return format === 'buffer' ? out : encode(out, format)
      }

  // The spec of a hash without options: made once, and its one-shot takes the two-argument
  // native call (the parameterised one reads five more arguments).
  const plainSpec = Object.freeze({
    algorithm: name,
    outputLength,
    open: () => hasherNew(id),
    once: (data, out) => (out === undefined ? nativeHash(id, data) : nativeHash(id, data, out)),
  })
  digest.create = (options) => {
    const { format, length, params: p } = read(options)
    if (plain(p) && p.outputLength == null) return new Hasher(plainSpec, format, null)
    const spec = {
      algorithm: name,
      outputLength: length,
      open: () => hasherNew(id, p.key, p.salt, p.personalization, p.context, p.outputLength),
      once: (data, out) => withParams(data, out, p),
    }
    // Byte options (keys, salts) are checked and copied by the native state, so open it now.
    return new Hasher(spec, format, plain(p) ? null : spec.open())
  }

  // For large inputs: the native side copies the bytes at call time (into a reused buffer) and
  // hashes the copy on the libuv pool, so the digest is of the bytes as they were when the call
  // was made (as node:crypto and WebCrypto). Inputs under INLINE_LIMIT are hashed right here.
  const traced = kind('hash', 'digest', name)
  digest.async = (data, options) =>
    runAsync(signalOf(options), async (token, ctx) => {
      refuseAsyncOutput(options)
      if (ctx !== undefined) ctx.bytesIn = byteLength(data)
      const { format, length, params } = read(options, allowedAsync)
      if (isSmall(data)) {
        const out = Buffer.allocUnsafe(length)
        withParams(data, out, params)
        return encode(out, format)
      }
      return encode(await hashAsync(id, data, params, token()), format)
    }, traced)
  addStreaming(digest, {
    id,
    hmac: false,
    kind: kind('file', 'hashFile', name),
    accepted: allowed,
    read: (options, accepted) => {
      const { format, params } = read(options, accepted)
      return [format, params]
    },
  })
  addBatch(digest, {
    kind: kind('hash', 'batch', name),
    accepted: allowed,
    read,
    call: ({ params: p }) => (first, hex, items) =>
      hashBatch(id, first, hex, false, p.key, p.salt, p.personalization, p.context, p.outputLength, ...items),
    async: (inputs, { params }, token) => hashBatchAsync(id, inputs, params, false, token),
  })
  return describeAlgorithm(digest, info, name)
}

const HMAC_OPTIONS = new Set(['key', 'outputFormat'])
const HMAC_ONCE_OPTIONS = new Set([...HMAC_OPTIONS, 'output'])
const HMAC_ASYNC_OPTIONS = new Set([...HMAC_OPTIONS, 'signal'])

function readHmacOptions(options, name, accepted = HMAC_OPTIONS) {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw invalidArgType('options', 'an object with a "key" property', options)
  }
  checkOptions(options, accepted, `hmac.${name}`)
  if (options.key === undefined || options.key === null) {
    throw invalidArgType('options.key', BYTES, options.key)
  }
  return checkFormat(options.outputFormat)
}

/** `hmac.X(data, { key, outputFormat? })` and `hmac.X.create({ key })` for one algorithm. */
function makeHmac(info) {
  const { id, name, outputLength } = info
  const mac = function (data, options) {
    const format = readHmacOptions(options, name, HMAC_ONCE_OPTIONS)
    const output = options.output
    if (output != null) {
      // The key is read before the view is made: no getter runs after it.
      const key = options.key
      const view = outputTarget(output, format, outputLength)
      nativeHmac(id, key, data, view, true)
      return view
    }
    if (format === undefined || format === 'hex') return nativeHmac(id, options.key, data)
    const out = Buffer.allocUnsafe(outputLength)
    nativeHmac(id, options.key, data, out)
    return format === 'buffer' ? out : encode(out, format)
  }
  mac.create = (options) => {
    const format = readHmacOptions(options, name)
    const key = copyBytes(options.key, 'key')
    const spec = {
      algorithm: `hmac-${name}`,
      outputLength,
      open: () => hmacNew(id, key),
      once: (data, out) => nativeHmac(id, key, data, out),
    }
    return new Hasher(spec, format)
  }
  const traced = kind('hmac', 'mac', name)
  mac.async = (data, options) =>
    runAsync(signalOf(options), async (token, ctx) => {
      refuseAsyncOutput(options)
      if (ctx !== undefined) ctx.bytesIn = byteLength(data)
      const format = readHmacOptions(options, name, HMAC_ASYNC_OPTIONS)
      if (isSmall(data)) {
        const out = Buffer.allocUnsafe(outputLength)
        nativeHmac(id, options.key, data, out)
        return encode(out, format)
      }
      return encode(await hmacAsync(id, options.key, data, token()), format)
    }, traced)
  addStreaming(mac, {
    id,
    hmac: true,
    kind: kind('file', 'hashFile', `hmac-${name}`),
    accepted: HMAC_OPTIONS,
    read: (options, accepted) => [readHmacOptions(options, name, accepted), { key: options.key }],
  })
  addBatch(mac, {
    kind: kind('hmac', 'batch', name),
    accepted: HMAC_OPTIONS,
    read: (options, accepted) => ({ format: readHmacOptions(options, name, accepted), length: outputLength, key: options.key }),
    call: ({ key }) => (first, hex, items) =>
      hashBatch(id, first, hex, true, key, undefined, undefined, undefined, undefined, ...items),
    async: (inputs, { key }, token) => hashBatchAsync(id, inputs, { key }, true, token),
  })
  return describeAlgorithm(mac, info, name)
}

const sha = {}
const hmac = {}
for (const info of ALGORITHMS) {
  sha[info.name] = makeHash(info)
  // HMAC is defined over block hashes; SHAKE and BLAKE3 (blockLength 0) have none.
  if (hasHmac(info)) hmac[info.name] = makeHmac(info)
}

module.exports = { sha: Object.freeze(sha), hmac: Object.freeze(hmac) }
