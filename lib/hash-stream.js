'use strict'
// Streams, async iterables and files for every hash and HMAC: `X.stream()`, `X.async(iterable)`,
// `X.file(path)` and `X.fileSync(path)`, added to the functions lib/hash.js builds.
//
// - stream() is a Transform over the incremental hasher (`create()`), and the digest is the one
//   chunk pushed when the input ends. Chunks of 4 KiB or more go to the hasher as they are (it
//   opens its native state once 8 KiB have arrived, so 64 KiB chunks are never copied); smaller
//   ones are copied into a 16 KiB buffer that reaches the hasher when full (`Gather`).
// - async(iterable) pulls chunks with the iterator's next() and feeds the same way; an abort
//   rejects at once, even while the source is waiting for data, and closes the source.
// - file() and fileSync() hand the path to native code (src/hash/file.rs), which opens, reads
//   and hashes the file on the libuv pool: no byte of it passes through JavaScript.
//   (The path, progress and error machinery of files is ./files.js, shared with the ciphers.)
const { Transform } = require('node:stream')
const native = require('./native')
const { encode } = require('./output')
const { BYTES, invalidArgType } = require('./errors')
const { abortError, checkSignal, signalOf } = require('./abort')
const { isUint8Array } = require('node:util').types
const { asBuffer, byteLength, isBytes, viewLength } = require('./bytes')
const { PROGRESS_MS, checkPath, checkProgress, fileAsync, fsError } = require('./files')

const { hashFile, hashFileSync } = native

/** Options every streaming form accepts besides the synchronous form's. */
const ASYNC_OPTIONS = ['signal', 'onProgress']

/** `{ ...options }` without the keys only the streaming forms take (for `create()`). */
function syncOptions(options) {
  if (options === undefined || options === null) return options
  const { signal, onProgress, ...rest } = options
  return rest
}

// A chunk below SMALL bytes is copied into a SCRATCH-byte buffer rather than handed to the
// hasher: a native update costs the same whatever its size, and copying a few bytes costs less.
// On the benchmark page (MD5 of 1 MB, AMD EPYC Zen 4) 1-256 B chunks went from 383-3.0 ms to
// 95-2.3 ms this way, ahead of node's Hash stream (1.11-1.56×).
const SMALL = 4 * 1024
const SCRATCH = 16 * 1024

/** A hasher fed by chunks of any size, which gathers small ones (see SMALL) before updating it. */
class Gather {
  #hasher
  #scratch = null
  #used = 0

  constructor(hasher) {
    this.#hasher = hasher
  }

  /** Adds a byte input (as `Hasher.update` takes it). */
  update(chunk) {
    if (typeof chunk === 'string') {
      this.#drain()
      this.#hasher.update(chunk)
      return
    }
    // viewLength is undefined for a SharedArrayBuffer: its bytes are viewed as a Buffer.
    const n = viewLength(chunk) ?? asBuffer(chunk).length
    if (n >= SMALL) {
      this.#drain()
      this.#hasher.update(chunk)
      return
    }
    if (this.#used + n > SCRATCH) this.#drain()
    if (this.#scratch === null) this.#scratch = Buffer.allocUnsafeSlow(SCRATCH)
    // set() of a Uint8Array copies its bytes; any other view or ArrayBuffer is viewed as bytes first.
    const bytes = isUint8Array(chunk) ? chunk : asBuffer(chunk)
    if (n === 1) this.#scratch[this.#used] = bytes[0]
    else this.#scratch.set(bytes, this.#used)
    this.#used += n
  }

  digest() {
    this.#drain()
    return this.#hasher.digest()
  }

  // The hasher copies or hashes what it is given before returning, so the buffer is reused.
  #drain() {
    if (this.#used === 0) return
    this.#hasher.update(this.#scratch.subarray(0, this.#used))
    this.#used = 0
  }
}

/** `X.stream()`: a Transform from byte chunks to the one digest chunk. */
class DigestStream extends Transform {
  #hasher

  constructor(hasher) {
    // Object mode on both sides: chunks may be any byte input (DataView, ArrayBuffer, any
    // TypedArray), and the digest comes out as one value in its format (a hex string, a Buffer).
    super({ objectMode: true })
    this.#hasher = new Gather(hasher)
  }

  // Writable's _write, not _transform: nothing is pushed before the end, so Transform's
  // per-chunk callback (a closure that checks the readable side) has nothing to do.
  _write(chunk, encoding, callback) {
    try {
      if (!isBytes(chunk)) throw invalidArgType('chunk', BYTES, chunk)
      if (typeof chunk === 'string' && encoding !== 'utf8' && encoding !== 'utf-8' && Buffer.isEncoding(encoding)) {
        chunk = Buffer.from(chunk, encoding)
      }
      this.#hasher.update(chunk)
    } catch (err) {
      return callback(err)
    }
    callback()
  }

  _flush(callback) {
    let digest
    try {
      digest = this.#hasher.digest()
    } catch (err) {
      return callback(err)
    }
    callback(null, digest)
  }
}

const isIterable = (x) =>
  x !== null &&
  typeof x === 'object' &&
  !isBytes(x) &&
  (typeof x[Symbol.asyncIterator] === 'function' || typeof x.getReader === 'function')

/** An async iterator over `source` (a WHATWG ReadableStream without one gets a reader). */
function iteratorOf(source) {
  if (typeof source[Symbol.asyncIterator] === 'function') return source[Symbol.asyncIterator]()
  const reader = source.getReader()
  return {
    next: () => reader.read(),
    return: () => reader.cancel().then(() => ({ done: true, value: undefined })),
  }
}

/**
 * Closes a source left early, ignoring what its cleanup says. A Node stream is destroyed: its
 * iterator's return() would wait for a pending read, which may never come.
 */
function close(source, it) {
  try {
    if (typeof source.destroy === 'function') source.destroy()
    else if (typeof it.return === 'function') Promise.resolve(it.return()).catch(() => {})
  } catch {}
}

/** The digest of the chunks of `source`, fed to `hasher` as they come. */
async function digestIterable(source, hasher, signal, onProgress) {
  hasher = new Gather(hasher)
  signal = checkSignal(signal)
  checkProgress(onProgress)
  if (signal && signal.aborted) throw abortError(signal)
  const it = iteratorOf(source)
  let onAbort
  const aborted =
    signal &&
    new Promise((_, reject) => {
      onAbort = () => reject(abortError(signal))
      signal.addEventListener('abort', onAbort, { once: true })
    })
  if (aborted) aborted.catch(() => {})
  let bytes = 0
  let last = performance.now()
  try {
    for (;;) {
      const step = await (aborted ? Promise.race([it.next(), aborted]) : it.next())
      if (step.done) break
      const chunk = step.value
      if (!isBytes(chunk)) throw invalidArgType('chunk', BYTES, chunk)
      hasher.update(chunk)
      if (onProgress) {
        bytes += byteLength(chunk)
        const now = performance.now()
        if (now - last >= PROGRESS_MS) {
          last = now
          onProgress({ bytes, total: undefined })
        }
      }
    }
    return hasher.digest()
  } catch (err) {
    close(source, it)
    throw err
  } finally {
    if (onAbort) signal.removeEventListener('abort', onAbort)
  }
}

/**
 * Adds stream(), file() and fileSync() to `fn` (a hash or HMAC function of lib/hash.js, before
 * it is frozen) and extends fn.async to async iterables. `accepted` is the set of options of the
 * synchronous form; `read(options, accepted)` checks them and returns `[format, nativeOptions]`
 * (the object the native file functions take); `hmac` says which `nativeOptions` those are.
 */
function addStreaming(fn, { id, hmac, accepted, read, kind }) {
  const streaming = new Set([...accepted, ...ASYNC_OPTIONS])
  const asyncBytes = fn.async

  fn.stream = (options) => new DigestStream(fn.create(options))

  fn.async = (source, options) => {
    if (!isIterable(source)) return asyncBytes(source, options)
    try {
      read(options, streaming)
      const hasher = fn.create(syncOptions(options))
      return digestIterable(source, hasher, signalOf(options), options && options.onProgress)
    } catch (err) {
      return Promise.reject(err)
    }
  }

  fn.file = (path, options) => {
    try {
      const [format, nativeOptions] = read(options, streaming)
      const p = checkPath(path)
      return fileAsync(
        (token, counter) => hashFile(id, hmac, p, nativeOptions, token, counter),
        signalOf(options),
        options && options.onProgress,
        kind,
      ).then(
        (digest) => encode(digest, format),
        (err) => {
          throw fsError(err, p)
        },
      )
    } catch (err) {
      return Promise.reject(err)
    }
  }

  fn.fileSync = (path, options) => {
    const [format, nativeOptions] = read(options, accepted)
    const p = checkPath(path)
    try {
      return encode(hashFileSync(id, hmac, p, nativeOptions), format)
    } catch (err) {
      throw fsError(err, p)
    }
  }
}

module.exports = { addStreaming }
