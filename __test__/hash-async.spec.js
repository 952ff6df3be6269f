'use strict'
// sha.X.async / hmac.X.async: hashing on the libuv pool. The published vectors run through
// `.async` in hash-vectors and hmac-vectors; this file checks what is particular to the async
// form: inputs larger than the 4 MiB cancellation slice against node:crypto, views at odd
// offsets read in place, cancellation, a detached input, resizable buffers, and that every
// validation error is a rejection (never a synchronous throw).
const test = require('ava')
const nodeCrypto = require('node:crypto')
const { monitorEventLoopDelay } = require('node:perf_hooks')
const { sha, hmac, kdf } = require('..')
const { rejects } = require('./helpers/assert')

const NODE = { sha1: 'sha1', sha256: 'sha256', sha512: 'sha512', sha3_256: 'sha3-256', blake2b: 'blake2b512', md5: 'md5' }
const SLICE = 4 << 20

test('large inputs (across the 4 MiB slices) equal node:crypto, hash and HMAC, every format', async (t) => {
  const big = nodeCrypto.randomBytes(2 * SLICE + 12345)
  for (const [ours, theirs] of Object.entries(NODE)) {
    const expected = nodeCrypto.createHash(theirs).update(big).digest()
    t.is(await sha[ours].async(big), expected.toString('hex'), ours)
    t.true((await sha[ours].async(big, { outputFormat: 'buffer' })).equals(expected), ours)
    t.is(await sha[ours].async(big, { outputFormat: 'base64url' }), expected.toString('base64url'), ours)
    const key = nodeCrypto.randomBytes(1 + (ours.length * 37) % 200)
    const mac = nodeCrypto.createHmac(theirs, key).update(big).digest('base64')
    t.is(await hmac[ours].async(big, { key, outputFormat: 'base64' }), mac, `hmac ${ours}`)
  }
})

test('every algorithm, both sides of the 16 KiB inline limit and across slices: async equals the sync form', async (t) => {
  // Below 16 KiB `.async` hashes on the calling thread; from 16 KiB on, on the pool (DigestJob).
  // The sync form is itself checked against the published vectors (hash-vectors, hmac-vectors).
  const data = nodeCrypto.randomBytes(SLICE + 16 * 1024 + 3)
  const key = nodeCrypto.randomBytes(80)
  for (const name of Object.keys(sha)) {
    for (const n of [16 * 1024 - 1, 16 * 1024, 70001, SLICE + 16 * 1024 + 3]) {
      const msg = data.subarray(0, n)
      t.is(await sha[name].async(msg), sha[name](msg), `${name} ${n}`)
      if (hmac[name]) t.is(await hmac[name].async(msg, { key }), hmac[name](msg, { key }), `hmac ${name} ${n}`)
    }
  }
  // Strings: the limit counts UTF-8 bytes conservatively (3 per UTF-16 unit).
  const text = 'x€'.repeat(5000)
  t.is(await sha.sha512.async(text), nodeCrypto.createHash('sha512').update(text).digest('hex'))
})

test('views at odd offsets and every input type are read in place, exactly their own bytes', async (t) => {
  const backing = nodeCrypto.randomBytes(SLICE + 100)
  const cases = [
    ['Buffer subarray', backing.subarray(3, SLICE + 61), backing.subarray(3, SLICE + 61)],
    ['DataView', new DataView(backing.buffer, backing.byteOffset + 5, 1000), backing.subarray(5, 1005)],
    ['Uint32Array', new Uint32Array(backing.buffer, backing.byteOffset - (backing.byteOffset % 4) + 8, 7), null],
    ['ArrayBuffer', backing.buffer.slice(backing.byteOffset + 1, backing.byteOffset + 4097), backing.subarray(1, 4097)],
    ['string', 'pässwörd ✓'.repeat(1000), Buffer.from('pässwörd ✓'.repeat(1000))],
    ['empty', new Uint8Array(0), Buffer.alloc(0)],
  ]
  for (const [name, input, bytes] of cases) {
    const ref = bytes ?? Buffer.from(input.buffer, input.byteOffset, input.byteLength)
    t.is(await sha.sha256.async(input), nodeCrypto.createHash('sha256').update(ref).digest('hex'), name)
  }
})

test('options: BLAKE2/BLAKE3 keys and lengths, XOF lengths, as in the one-shot form', async (t) => {
  const data = nodeCrypto.randomBytes(SLICE + 1)
  const key32 = nodeCrypto.randomBytes(32)
  // Lengths and keys cross-checked against node:crypto where it has them.
  t.is(await sha.shake256.async(data, { outputLength: 100 }), nodeCrypto.createHash('shake256', { outputLength: 100 }).update(data).digest('hex'))
  t.is(await sha.shake128.async(data, { outputLength: 1 }), nodeCrypto.createHash('shake128', { outputLength: 1 }).update(data).digest('hex'))
  // The rest against the one-shot form (itself checked against the designers' vectors).
  for (const [f, options] of [
    [sha.blake3, { key: key32, outputLength: 77 }],
    [sha.blake3, { context: 'app 2026-11-22 session keys' }],
    [sha.blake2b, { key: key32, salt: Buffer.alloc(16, 1), personalization: Buffer.alloc(16, 2), outputLength: 20 }],
    [sha.blake2s, { key: key32, outputLength: 16 }],
  ]) {
    t.is(await f.async(data, options), f(data, options))
  }
})

test('errors reject with the same class and code as the sync form, never throw', async (t) => {
  const cases = [
    [() => sha.sha256.async(42), TypeError, 'ERR_INVALID_ARG_TYPE'],
    [() => sha.sha256.async(undefined), TypeError, 'ERR_INVALID_ARG_TYPE'],
    [() => sha.sha256.async('x', { outputFormat: 'hex2' }), TypeError, 'ERR_INVALID_ARG_VALUE'],
    [() => sha.sha256.async('x', { nope: 1 }), TypeError, 'ERR_INVALID_ARG_VALUE'],
    [() => sha.sha256.async('x', { signal: 'no' }), TypeError, 'ERR_INVALID_ARG_TYPE'],
    [() => sha.blake3.async('x', { key: Buffer.alloc(31) }), RangeError, 'ERR_OUT_OF_RANGE'],
    [() => sha.blake2b.async('x', { outputLength: 65 }), RangeError, 'ERR_OUT_OF_RANGE'],
    [() => hmac.sha256.async('x'), TypeError, 'ERR_INVALID_ARG_TYPE'],
    [() => hmac.sha256.async('x', { key: 5 }), TypeError, 'ERR_INVALID_ARG_TYPE'],
    [() => hmac.sha256.async({}, { key: 'k' }), TypeError, 'ERR_INVALID_ARG_TYPE'],
  ]
  for (const [call, Class, code] of cases) {
    let promise
    t.notThrows(() => {
      promise = call()
    })
    await rejects(t, promise, Class, code)
  }
})

test('signal: an aborted signal rejects at once; aborting a running hash stops it', async (t) => {
  const done = new AbortController()
  done.abort()
  const e1 = await t.throwsAsync(sha.sha256.async('x', { signal: done.signal }))
  t.is(e1.name, 'AbortError')
  t.true(e1 instanceof kdf.AbortError)
  // 512 MiB of SHA3-512 takes about a second; cancellation is checked every 4 MiB (a few ms).
  const huge = Buffer.alloc(512 << 20)
  const ac = new AbortController()
  const running = hmac.sha3_512.async(huge, { key: 'k', signal: ac.signal })
  await new Promise((r) => setTimeout(r, 50))
  ac.abort(new Error('enough'))
  const e2 = await t.throwsAsync(running)
  t.is(e2.name, 'AbortError')
  t.is(e2.cause.message, 'enough')
  // A signal that never fires changes nothing.
  t.is(await sha.md5.async('abc', { signal: new AbortController().signal }), '900150983cd24fb0d6963f7d28e17f72')
})

test('the digest is of the bytes at call time: an input detached or overwritten meanwhile changes nothing', async (t) => {
  const view = new Uint8Array(64 << 20).fill(7)
  const expected = nodeCrypto.createHash('sha3-512').update(view).digest('hex')
  const pending = sha.sha3_512.async(view)
  const moved = new Uint8Array(structuredClone(view.buffer, { transfer: [view.buffer] }))
  t.is(view.byteLength, 0)
  moved.fill(1)
  t.is(await pending, expected)
  const v2 = new Uint8Array(32 << 20).fill(3)
  const want = hmac.sha256(v2, { key: 'k' })
  const q = hmac.sha256.async(v2, { key: 'k' })
  v2.fill(4)
  t.is(await q, want)
})

test('a resizable ArrayBuffer is copied first: shrinking it meanwhile changes nothing', async (t) => {
  const rab = new ArrayBuffer(SLICE, { maxByteLength: 2 * SLICE })
  const bytes = new Uint8Array(rab)
  nodeCrypto.randomFillSync(bytes)
  const expected = nodeCrypto.createHash('sha256').update(bytes).digest('hex')
  const pending = sha.sha256.async(bytes)
  rab.resize(16)
  t.is(await pending, expected)
})

test.serial('the event loop stays free while a large input is hashed', async (t) => {
  const big = Buffer.alloc(256 << 20, 1)
  const h = monitorEventLoopDelay({ resolution: 5 })
  const elu0 = performance.eventLoopUtilization()
  h.enable()
  const digest = await sha.sha3_256.async(big)
  h.disable()
  const elu = performance.eventLoopUtilization(elu0).utilization
  t.log(`256 MiB SHA3-256 async: loop utilisation ${(elu * 100).toFixed(1)} %, delay max ${(h.max / 1e6).toFixed(1)} ms`)
  t.is(digest, nodeCrypto.createHash('sha3-256').update(big).digest('hex'))
  // Hashing on the loop thread would make this close to 100 %.
  t.true(elu < 0.5, `event loop utilisation ${elu}`)
})
