'use strict'
// Batch calls: an array of inputs in, an array of results out, through one native call
// (src/batch.rs; the hash ones in src/hash/batch.rs). `addBatch` gives every hash and HMAC
// function its `batch` and `batchAsync`; cipher.js uses `checkList`, `joinParts` and
// `isSmallBatch` for encryptBatch/decryptBatch.
const { invalidArgType, invalidArgValue } = require('./errors')
const { runAsync, signalOf } = require('./abort')
const { totalLength } = require('./diagnostics')
const { asBuffer } = require('./bytes')

const ENCODING = { hex: 'hex', base64: 'base64', base64url: 'base64url', binary: 'latin1' }

// Below this many input bytes in all, an async batch runs on the calling thread (as `X.async`
// does for one small input): the hop to the thread pool and back would cost more.
const INLINE_LIMIT = 16 * 1024

/** Throws unless `list` is an array (the native side checks it again, and every item). */
function checkList(list, name) {
  if (!Array.isArray(list)) throw invalidArgType(name, 'an instance of Array', list)
}

/** Whether the items add up to fewer than INLINE_LIMIT bytes (strings counted at 3 bytes a character). */
function isSmallBatch(items) {
  let n = 0
  for (let i = 0; i < items.length && n < INLINE_LIMIT; i++) {
    const item = items[i]
    n += typeof item === 'string' ? item.length * 3 : asBuffer(item)?.length ?? 0
  }
  return n < INLINE_LIMIT
}

/**
 * The outputs of the parts of an async batch, in order. When a part fails, the outputs that did
 * arrive are wiped (they may be plaintext) and the failure is thrown: the first that is not a
 * part stopping because of it (ABORT_ERR), unless every part was aborted.
 */
async function joinParts(promises) {
  const results = await Promise.allSettled(promises)
  const failed = results.filter((r) => r.status === 'rejected')
  if (failed.length === 0) return results.map((r) => r.value)
  for (const r of results) {
    if (r.status === 'fulfilled') (Array.isArray(r.value) ? r.value[0] : r.value).fill(0)
  }
  const cause = failed.find((r) => !(r.reason && r.reason.code === 'ABORT_ERR')) ?? failed[0]
  throw cause.reason
}

function checkPacked(packed, format) {
  if (packed === undefined || packed === null || packed === false) return false
  if (packed !== true) throw invalidArgType('options.packed', 'of type boolean', packed)
  if (format !== 'buffer') {
    throw invalidArgValue('options.packed', "true only with outputFormat 'buffer' (one Buffer of every digest)", packed)
  }
  return true
}

/** The digests packed in `buf` (`n` bytes each) as the batch result in `format` (not hex). */
function digests(buf, n, format, packed) {
  if (packed) return buf
  const count = buf.length / n
  const out = new Array(count)
  if (format === 'buffer') {
    for (let i = 0, at = 0; i < count; i++, at += n) out[i] = buf.subarray(at, at + n)
  } else {
    const encoding = ENCODING[format]
    for (let i = 0, at = 0; i < count; i++, at += n) out[i] = buf.toString(encoding, at, at + n)
  }
  return out
}

// The items go to the native side as the arguments of the call (one N-API call reads them all;
// reading the elements of an array costs an N-API call each): at most ARGS_CHUNK per call, which
// keeps each call's arguments to 64 KiB of stack.
const ARGS_CHUNK = 8192
// Hex output comes back as one string per call, which the digests are sliced from (V8 makes a
// slice a view of its string: no copy). At most HEX_CHUNK characters each, so that the strings
// are ordinary young-generation objects and one digest kept alive holds little else.
const HEX_CHUNK = 1 << 15

/**
 * The digests of `inputs` (`n` bytes each) through `call(first, hex, items)`, the native batch
 * call over the items `first..` (src/batch.rs): an array in `format`, or the packed Buffer.
 */
function syncDigests(call, inputs, n, format, packed) {
  const count = inputs.length
  if (format === undefined || format === 'hex') {
    const per = Math.max(1, Math.floor(HEX_CHUNK / (2 * n)))
    const out = new Array(count)
    const w = 2 * n
    for (let s = 0; s < count; s += per) {
      const hex = call(s, true, count <= per ? inputs : inputs.slice(s, s + per))
      for (let i = s, at = 0; at < hex.length; i++, at += w) out[i] = hex.slice(at, at + w)
    }
    return out
  }
  let buf
  if (count <= ARGS_CHUNK) buf = call(0, false, inputs)
  else {
    const parts = []
    for (let s = 0; s < count; s += ARGS_CHUNK) parts.push(call(s, false, inputs.slice(s, s + ARGS_CHUNK)))
    buf = Buffer.concat(parts)
  }
  return digests(buf, n, format, packed)
}

/**
 * Adds `fn.batch(inputs, options?)` and `fn.batchAsync(inputs, options?)` to a hash or HMAC
 * function. `spec.read(options, accepted)` reads the options into `{ format, length, ... }`
 * (`length`: each digest's), `spec.call(read)` gives the native batch call for those options
 * (see `syncDigests`), and `spec.async(inputs, read, token)` the promises of the parts
 * (src/batch.rs).
 */
function addBatch(fn, spec) {
  const accepted = new Set([...spec.accepted, 'packed'])
  const acceptedAsync = new Set([...accepted, 'signal'])
  const read = (inputs, options, allowed) => {
    const r = spec.read(options, allowed)
    checkList(inputs, 'inputs')
    return [r, checkPacked(options == null ? undefined : options.packed, r.format)]
  }

  fn.batch = (inputs, options) => {
    const [r, packed] = read(inputs, options, accepted)
    return syncDigests(spec.call(r), inputs, r.length, r.format, packed)
  }

  // The items are copied at call time and hashed on the libuv pool, in one part per pool thread
  // (UV_THREADPOOL_SIZE); small batches are hashed right here.
  fn.batchAsync = (inputs, options) =>
    runAsync(signalOf(options), async (token, ctx) => {
      const [r, packed] = read(inputs, options, acceptedAsync)
      if (ctx !== undefined) {
        ctx.bytesIn = totalLength(inputs)
        ctx.params = { items: inputs.length }
      }
      if (isSmallBatch(inputs)) return syncDigests(spec.call(r), inputs, r.length, r.format, packed)
      const parts = await joinParts(spec.async(inputs, r, token()))
      const buf = parts.length === 1 ? parts[0] : Buffer.concat(parts)
      return r.format === undefined || r.format === 'hex' ? digests(buf, r.length, 'hex') : digests(buf, r.length, r.format, packed)
    }, spec.kind)
}

module.exports = { addBatch, checkList, isSmallBatch, joinParts }
