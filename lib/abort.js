'use strict'
// Async work with an AbortSignal: the JS half of src/task.rs. Every async form of an expensive
// operation goes through `runAsync`, so cancellation behaves the same everywhere.
const native = require('./native')
const { invalidArgType } = require('./errors')

/** The error a cancelled operation rejects with (same name and code as Node's AbortError). */
class AbortError extends Error {
  constructor(message = 'The operation was aborted', options = undefined) {
    super(message, options)
    this.code = 'ABORT_ERR'
    this.name = 'AbortError'
  }
}

const abortError = (signal) => new AbortError(undefined, { cause: signal.reason })

/** Validates an optional `signal` option: undefined (none) for undefined and null. */
function checkSignal(signal, name = 'options.signal') {
  if (signal === undefined || signal === null) return undefined
  if (
    typeof signal !== 'object' ||
    typeof signal.aborted !== 'boolean' ||
    typeof signal.addEventListener !== 'function'
  ) {
    throw invalidArgType(name, 'an instance of AbortSignal', signal)
  }
  return signal
}

/**
 * The `signal` of an options argument (undefined when there is no options object), for
 * `runAsync`, which checks it: undefined and null mean no signal, anything but an AbortSignal is
 * a TypeError that rejects the call's Promise. Every async form reads its signal with this.
 */
function signalOf(options) {
  return options === null || typeof options !== 'object' ? undefined : options.signal
}

/**
 * Runs `start(token)` (a native function returning the Promise of an AsyncTask) with an
 * optional AbortSignal. On abort: work still queued is skipped and the Promise rejects at
 * once; running work stops at its next cancellation check (hashing every 4 MiB, PBKDF2, scrypt,
 * bcrypt, RSA key generation, Argon2 between passes when the hash is long: src/task.rs), and the
 * Promise then rejects with an AbortError. Synchronous validation errors become rejections too.
 */
function runAsync(signal, start) {
  try {
    return startAsync(signal, start)
  } catch (err) {
    return Promise.reject(err)
  }
}

/** As `runAsync`, but an error thrown by `start` (a refused argument) is thrown, not returned. */
function startAsync(signal, start) {
  signal = checkSignal(signal)
  if (signal === undefined) return start(undefined)
  if (signal.aborted) return Promise.reject(abortError(signal))
  const token = new native.CancelToken()
  const promise = start(token)
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      if (token.cancel()) reject(abortError(signal))
    }
    signal.addEventListener('abort', onAbort, { once: true })
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort)
        if (signal.aborted) reject(abortError(signal))
        else resolve(value)
      },
      (err) => {
        signal.removeEventListener('abort', onAbort)
        reject(err && err.code === 'ABORT_ERR' ? abortError(signal) : err)
      },
    )
  })
}

module.exports = { AbortError, abortError, checkSignal, signalOf, runAsync, startAsync }
