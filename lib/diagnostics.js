'use strict'
// Runtime metrics the Node way: one diagnostics_channel TracingChannel per family of async
// operations (`cryptographer:hash`, ... ; its events are `tracing:cryptographer:hash:start`,
// `:end`, `:asyncStart`, `:asyncEnd` and `:error`). Every async form runs through ./abort.js,
// which asks the family's channel `hasSubscribers` and, only when someone listens, times the call
// natively (src/task.rs: when its job was queued, picked by a pool thread, finished) and
// publishes one context object per call. docs/diagnostics.md lists the channels and fields.
//
// The context never holds a secret: no argument is put in it, only names, byte counts and cost
// parameters, and no result (TracingChannel.tracePromise would publish the result as `result`:
// a derived key or a plaintext, so it is not used).
const dc = require('node:diagnostics_channel')
const { performance } = require('node:perf_hooks')
const native = require('./native')

const FAMILIES = ['hash', 'hmac', 'cipher', 'kdf', 'password', 'pk', 'kem', 'hybrid', 'age', 'stream', 'file']

/** The TracingChannel name of each family: `cryptographer:<family>`. */
const channels = Object.freeze(Object.fromEntries(FAMILIES.map((f) => [f, `cryptographer:${f}`])))
// A runtime without TracingChannel (Node before 19.9; some Bun and Deno versions): channels no one
// can subscribe to, so every call takes the untraced path.
const tracingChannel = typeof dc.tracingChannel === 'function' ? dc.tracingChannel : () => ({ hasSubscribers: false })
const tracing = Object.fromEntries(FAMILIES.map((f) => [f, tracingChannel(channels[f])]))

// TracingChannel#hasSubscribers arrived in Node 20.13 and 22.0; before, it is the same question
// asked of the five channels.
if (!('hasSubscribers' in tracing.hash)) {
  for (const c of Object.values(tracing)) {
    Object.defineProperty(c, 'hasSubscribers', {
      get() {
        return (
          this.start.hasSubscribers ||
          this.end.hasSubscribers ||
          this.asyncStart.hasSubscribers ||
          this.asyncEnd.hasSubscribers ||
          this.error.hasSubscribers
        )
      },
    })
  }
}

/**
 * What one async function publishes as: its family, operation and algorithm. Made once per
 * function (not per call), and passed to `runAsync`.
 */
function kind(family, operation, algorithm) {
  const channel = tracing[family]
  if (channel === undefined) throw new Error(`no diagnostics channel for ${family}`)
  return Object.freeze({ channel, family, operation, algorithm })
}

/** The byte length of an input (a string's in UTF-8); undefined for anything else. */
function byteLength(data) {
  if (typeof data === 'string') return Buffer.byteLength(data, 'utf8')
  if (ArrayBuffer.isView(data) || data instanceof ArrayBuffer) return data.byteLength
  return undefined
}

/** The byte length of a list of inputs. */
function totalLength(list) {
  let n = 0
  for (const item of list) n += byteLength(item) ?? 0
  return n
}

const at = (origin, ms) => (ms >= 0 ? origin + ms : undefined)

/**
 * One traced call: its context (what subscribers receive) and its timed cancel token. The token
 * is made by `token()` when the call first hands work to the pool, so a call that does its work
 * on the calling thread (a small hash or batch) makes none and its pool times stay undefined;
 * the stamps are read into the context when the call settles.
 */
class Trace {
  #token = undefined
  #origin = 0

  constructor(k) {
    this.ctx = {
      family: k.family,
      operation: k.operation,
      algorithm: k.algorithm,
      bytesIn: undefined,
      params: undefined,
      startedAt: performance.now(),
      queuedAt: undefined,
      runningAt: undefined,
      finishedAt: undefined,
      settledAt: undefined,
    }
  }

  /** The call's cancel token, made once (./abort.js): timed, cancellable when the caller passed a signal. */
  token(cancellable) {
    this.#origin = performance.now()
    this.#token = new native.CancelToken(cancellable, true)
    return this.#token
  }

  /** Reads the native stamps into the context (performance.now() milliseconds). */
  settle() {
    const ctx = this.ctx
    ctx.settledAt = performance.now()
    if (this.#token === undefined) return
    const [queued, running, finished] = this.#token.times()
    ctx.queuedAt = at(this.#origin, queued)
    ctx.runningAt = at(this.#origin, running)
    ctx.finishedAt = at(this.#origin, finished)
  }
}

module.exports = { channels, kind, byteLength, totalLength, Trace }
