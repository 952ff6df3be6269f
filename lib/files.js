'use strict'
// Files on the libuv pool, for every family that reads or writes them (hash `X.file()`, the
// streaming AEAD's and age's `encryptFile`/`decryptFile`): the path argument, node-style fs
// errors, and the runner of a native file job with `signal` and a throttled `onProgress`.
//
// Progress is polled: the native job adds to an atomic counter (`FileProgress`) and a 50 ms
// timer here reads it. A thread-safe function called from the pool would queue calls that can
// still arrive after the Promise settled, and would need a flag to drop them; the timer is
// stopped before the Promise settles, so no callback can follow it, and a job without
// `onProgress` pays nothing (no timer, no counter reads).
const { fileURLToPath } = require('node:url')
const { getSystemErrorMap } = require('node:util')
const native = require('./native')
const { invalidArgType, invalidArgValue } = require('./errors')
const { abortError, checkSignal, runAsync } = require('./abort')

const { FileProgress } = native
// The most often onProgress is called.
const PROGRESS_MS = 50

function checkProgress(onProgress) {
  if (onProgress !== undefined && typeof onProgress !== 'function') {
    throw invalidArgType('options.onProgress', 'of type function', onProgress)
  }
  return onProgress
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
 * cancels the job and becomes the rejection. `kind`: what the call publishes as (./diagnostics.js).
 *
 * The job completes on the main thread (a file output is renamed into place then) and sets the
 * counter's `done` there, before its Promise settles: the timer reports nothing after that, so
 * neither an abort nor an exception from onProgress can come after the output was written (a
 * runtime may run timers between a native completion and its Promise's callbacks: Deno does).
 * So a rejection always means no output, and a fulfilment an output in place (./abort.js).
 */
function fileAsync(start, signal, onProgress, kind) {
  signal = checkSignal(signal)
  checkProgress(onProgress)
  if (!onProgress) return runAsync(signal, (token) => start(token(), undefined), kind)
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
    if (bytes <= reported || counter.done) return
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
  return runAsync(controller.signal, (token) => start(token(), counter), kind).then(
    (value) => {
      // The job completed before any exception from onProgress (which would have cancelled it).
      settle()
      return value
    },
    (err) => {
      settle()
      throw thrown ? thrown.err : err
    },
  )
}

/**
 * A native file job (`start(from, to, token, counter)`: aeadStreamFile, ageEncryptFile, ...)
 * from `src` to `dst`, with `signal` and `onProgress`; resolves to `{ bytes }`, the bytes
 * written to `dst`, and rejects with node-style file errors naming the paths. `prepare()` reads
 * the options first (so a refused option rejects before any path is read) and returns
 * `{ start, signal, onProgress }`.
 */
function runFile(src, dst, prepare, kind) {
  try {
    const { start, signal, onProgress } = prepare()
    const from = checkPath(src)
    const to = checkPath(dst)
    return fileAsync((token, counter) => start(from, to, token, counter), signal, onProgress, kind).then(
      (bytes) => ({ bytes }),
      (err) => {
        throw fsError(err, from, to)
      },
    )
  } catch (err) {
    return Promise.reject(err)
  }
}

module.exports = { PROGRESS_MS, checkPath, checkProgress, fileAsync, fsError, runFile }
