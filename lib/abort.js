'use strict'
// Async work with an AbortSignal: the JS half of src/task.rs. Every async form of an expensive
// operation goes through `runAsync`, so cancellation behaves the same everywhere.
const native = require('./native')
const { invalidArgType } = require('./errors')
const { Trace } = require('./diagnostics')

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
 * Runs `start(token, ctx)` (a function returning the Promise of the call's work, usually a
 * native AsyncTask's) with an optional AbortSignal. Synchronous validation errors become
 * rejections.
 *
 * `token()` gives the native CancelToken to hand to the pool (undefined when there is neither a
 * signal nor a subscriber), made on its first call: work done on the calling thread (a small
 * hash or batch), or only through other async calls given the same signal (hybrid), never makes
 * one. Once the signal aborted, `token()` throws the AbortError instead.
 *
 * An abort that comes before the work completed rejects the Promise with an AbortError, and the
 * work leaves nothing behind: a job still queued is skipped and the Promise rejects at once; a
 * running job stops at its next cancellation check (hashing every 4 MiB, PBKDF2, scrypt, bcrypt,
 * RSA key generation, Argon2 between passes when the hash is long) and rejects. A pool job
 * completes on this thread, when its result is handed over (src/task.rs: a file job renames its
 * output into place there), and work done here completes as it returns; both are ordered with
 * the abort, on one thread. An abort after that changes nothing, even before the Promise's
 * callbacks ran: the result stands, as with node's fs.promises and stream.pipeline.
 *
 * `kind` (from ./diagnostics.js `kind()`) names the call on its family's diagnostics channel.
 * When that channel has subscribers, the call is traced: `ctx` is the context it publishes (the
 * start callback may add `algorithm`, `bytesIn` and `params` once it has read its arguments;
 * never a secret) and the token, if the call makes one, is timed. Otherwise `ctx` is undefined
 * and nothing else is done.
 */
function runAsync(signal, start, kind) {
  try {
    return startAsync(signal, start, kind)
  } catch (err) {
    return Promise.reject(err)
  }
}

/** As `runAsync`, but an error thrown by `start` (a refused argument) is thrown, not returned. */
function startAsync(signal, start, kind) {
  if (kind !== undefined && kind.channel.hasSubscribers) return traced(kind, signal, start)
  return begin(signal, start, undefined)
}

/** The token of a call with neither a signal nor a subscriber. */
const noToken = () => undefined

function begin(signal, start, trace) {
  signal = checkSignal(signal)
  if (signal === undefined && trace === undefined) return start(noToken, undefined)
  if (signal !== undefined && signal.aborted) return Promise.reject(abortError(signal))
  let token
  const take = () => {
    if (token === undefined) {
      if (signal !== undefined && signal.aborted) throw abortError(signal)
      token = trace === undefined ? new native.CancelToken() : trace.token(signal !== undefined)
    }
    return token
  }
  const ctx = trace === undefined ? undefined : trace.ctx
  if (signal === undefined) return start(take, ctx)
  const promise = start(take, ctx)
  return new Promise((resolve, reject) => {
    // Work the token holds back from the pool (not started: it never will) rejects now; other
    // work settles as it does: a running job with its result or ABORT_ERR (src/task.rs), work
    // done here, or through other calls given the signal, as it ends.
    const onAbort = () => {
      if (token !== undefined && token.cancel()) reject(abortError(signal))
    }
    signal.addEventListener('abort', onAbort, { once: true })
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort)
        resolve(value)
      },
      (err) => {
        signal.removeEventListener('abort', onAbort)
        reject(err && err.code === 'ABORT_ERR' ? abortError(signal) : err)
      },
    )
  })
}

/**
 * `begin` published on `kind`'s TracingChannel as `tracePromise` publishes a call, with one
 * difference: the context gets no `result` (a derived key, a plaintext). start (with the stores
 * bound to it), end when the Promise is returned; error and end when `start` throws; error (on
 * a rejection), asyncStart and asyncEnd when the Promise settles, the native stamps read first.
 */
function traced(kind, signal, start) {
  const { start: starting, end, asyncStart, asyncEnd, error } = kind.channel
  const trace = new Trace(kind)
  const ctx = trace.ctx
  const settled = (value) => {
    trace.settle()
    asyncStart.publish(ctx)
    asyncEnd.publish(ctx)
    return value
  }
  const failed = (err) => {
    trace.settle()
    ctx.error = err
    error.publish(ctx)
    asyncStart.publish(ctx)
    asyncEnd.publish(ctx)
    throw err
  }
  return starting.runStores(ctx, () => {
    try {
      return Promise.resolve(begin(signal, start, trace)).then(settled, failed)
    } catch (err) {
      trace.settle()
      ctx.error = err
      error.publish(ctx)
      throw err
    } finally {
      end.publish(ctx)
    }
  })
}

module.exports = { AbortError, abortError, checkSignal, signalOf, runAsync, startAsync }
