'use strict'
// Streams, async iterables and files for every hash and HMAC: `X.stream()`, `X.async(iterable)`,
// `X.file(path)` and `X.fileSync(path)`, added to the functions lib/hash.js builds.
//
// - stream() is a Transform over the incremental hasher (`create()`): chunks go to the native
//   state as they are (a hasher opens its native state once 8 KiB have arrived, so 64 KiB
//   chunks are never copied), and the digest is the one chunk pushed when the input ends.
// - async(iterable) pulls chunks with the iterator's next() and feeds the same hasher; an abort
//   rejects at once, even while the source is waiting for data, and closes the source.
// - file() and fileSync() hand the path to native code (src/hash/file.rs), which opens, reads
//   and hashes the file on the libuv pool: no byte of it passes through JavaScript.
//
// File progress is polled: the native job adds to an atomic counter (`FileProgress`) and a
// 50 ms timer here reads it. A thread-safe function called from the pool would queue calls that
// can still arrive after the Promise settled, and would need a flag to drop them; the timer is
// stopped before the Promise settles, so no callback can follow it, and a job without
// `onProgress` pays nothing (no timer, no counter reads).
const { Transform } = require('node:stream')
const { fileURLToPath } = require('node:url')
const { getSystemErrorMap } = require('node:util')
const native = require('./native')
const { encode } = require('./output')
const { BYTES, invalidArgType, invalidArgValue } = require('./errors')
const { AbortError, checkSignal, runAsync } = require('./abort')

const { hashFile, hashFileSync, FileProgress } = native

/** Options every streaming form accepts besides the synchronous form's. */
const ASYNC_OPTIONS = ['signal', 'onProgress']
// The most often onProgress is called.
const PROGRESS_MS = 50

const isBytes = (x) => typeof x === 'string' || ArrayBuffer.isView(x) || x instanceof ArrayBuffer

const byteLength = (x) => (typeof x === 'string' ? Buffer.byteLength(x, 'utf8') : x.byteLength)

const abortError = (signal) => new AbortError(undefined, { cause: signal.reason })

function checkProgress(onProgress) {
  if (onProgress !== undefined && typeof onProgress !== 'function') {
    throw invalidArgType('options.onProgress', 'of type function', onProgress)
  }
  return onProgress
}

/** `{ ...options }` without the keys only the streaming forms take (for `create()`). */
function syncOptions(options) {
  if (options === undefined || options === null) return options
  const { signal, onProgress, ...rest } = options
  return rest
}

/** `X.stream()`: a Transform from byte chunks to the one digest chunk. */
class DigestStream extends Transform {
  #hasher

  constructor(hasher) {
    // Object mode on both sides: chunks may be any byte input (DataView, ArrayBuffer, any
    // TypedArray), and the digest comes out as one value in its format (a hex string, a Buffer).
    super({ objectMode: true })
    this.#hasher = hasher
  }

  _transform(chunk, encoding, callback) {
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
  checkSignal(signal)
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

/** The path argument as native code takes it: a string or the bytes of a Buffer. */
function checkPath(path) {
  if (path instanceof URL) path = fileURLToPath(path)
  if (typeof path !== 'string' && !(path instanceof Uint8Array)) {
    throw invalidArgType('path', 'of type string or an instance of Buffer or URL', path)
  }
  if (typeof path === 'string' ? path.includes('\0') : path.includes(0)) {
    throw invalidArgValue('path', 'a string, Uint8Array, or URL without null bytes', path)
  }
  return path
}

/**
 * A native system error (`code` ENOENT..., `errno`, `syscall`) as node's fs errors are: node's
 * name and description for the errno, and the path, in node's message format. A job with two
 * paths (encryptFile's source and destination) reports both, as node's copyFile does:
 * `ENOENT: no such file or directory, open 'src' -> 'dst'`, with `path` and `dest`.
 */
function fsError(err, path, dest) {
  if (err === null || typeof err !== 'object' || typeof err.syscall !== 'string') return err
  const map = getSystemErrorMap()
  let errno = err.errno
  let entry = errno ? map.get(errno) : undefined
  if (!entry) {
    // Where the OS error number is not libuv's (Windows), native code names the error instead.
    for (const [n, e] of map) {
      if (e[0] === err.code) {
        errno = n
        entry = e
        break
      }
    }
  }
  const [code, description] = entry ?? [err.code, err.message]
  const shown = (p) => (typeof p === 'string' ? p : Buffer.from(p).toString())
  const to = dest === undefined ? '' : ` -> '${shown(dest)}'`
  const out = new Error(`${code}: ${description}, ${err.syscall} '${shown(path)}'${to}`)
  out.errno = errno
  out.code = code
  out.syscall = err.syscall
  out.path = shown(path)
  if (dest !== undefined) out.dest = shown(dest)
  return out
}

/**
 * Runs a native file job (`start(token, counter)`: hashFile, aeadStreamFile) with a signal and,
 * when there is `onProgress`, the timer that polls the job's counter. An exception in onProgress
 * cancels the job and becomes the rejection.
 */
function fileAsync(start, signal, onProgress) {
  checkSignal(signal)
  checkProgress(onProgress)
  if (!onProgress) return runAsync(signal, (token) => start(token, undefined))
  if (signal && signal.aborted) return Promise.reject(abortError(signal))
  // One controller for both causes of cancellation: the caller's signal and a throwing callback.
  const controller = new AbortController()
  const forward = () => controller.abort(signal.reason)
  if (signal) signal.addEventListener('abort', forward, { once: true })
  const counter = new FileProgress()
  let reported = 0
  let thrown
  const timer = setInterval(() => {
    const bytes = counter.bytes
    if (bytes <= reported) return
    reported = bytes
    const total = counter.total
    try {
      onProgress({ bytes, total: total < 0 ? undefined : total })
    } catch (err) {
      thrown = { err }
      clearInterval(timer)
      controller.abort(err)
    }
  }, PROGRESS_MS)
  timer.unref()
  const settle = () => {
    clearInterval(timer)
    if (signal) signal.removeEventListener('abort', forward)
  }
  return runAsync(controller.signal, (token) => start(token, counter)).then(
    (value) => {
      settle()
      if (thrown) throw thrown.err
      return value
    },
    (err) => {
      settle()
      throw thrown ? thrown.err : err
    },
  )
}

/**
 * Adds stream(), file() and fileSync() to `fn` (a hash or HMAC function of lib/hash.js, before
 * it is frozen) and extends fn.async to async iterables. `accepted` is the set of options of the
 * synchronous form; `read(options, accepted)` checks them and returns `[format, nativeOptions]`
 * (the object the native file functions take); `hmac` says which `nativeOptions` those are.
 */
function addStreaming(fn, { id, hmac, accepted, read }) {
  const streaming = new Set([...accepted, ...ASYNC_OPTIONS])
  const asyncBytes = fn.async

  fn.stream = (options) => new DigestStream(fn.create(options))

  fn.async = (source, options) => {
    if (!isIterable(source)) return asyncBytes(source, options)
    try {
      read(options, streaming)
      const hasher = fn.create(syncOptions(options))
      return digestIterable(source, hasher, options && options.signal, options && options.onProgress)
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
        options && options.signal,
        options && options.onProgress,
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

module.exports = { addStreaming, DigestStream, checkPath, checkProgress, fileAsync, fsError, isBytes }
