'use strict'
// crypto.kdf key derivation: PBKDF2 (RFC 6070 / RFC 7914), scrypt (RFC 7914), HKDF (RFC 5869,
// Wycheproof); differential tests against node:crypto; error paths; AbortSignal behaviour.
// Argon2 and bcrypt are in kdf-passwords.spec.js.
const test = require('ava')
const nodeCrypto = require('node:crypto')
const { kdf } = require('..')

const vectors = require('./helpers/vectors')
const { isError, rejects } = require('./helpers/assert')
const { scaled } = require('./helpers/time')

const json = (name) => vectors.json(`kdf/${name}`)
const { hex } = vectors
const SLOW = process.env.KDF_SLOW_TESTS === '1'

// ---- PBKDF2 ---------------------------------------------------------------------------------

const PRF = { 'HMAC-SHA-1': 'sha1', 'HMAC-SHA-256': 'sha256' }

test('PBKDF2: RFC 6070 (SHA-1) and RFC 7914 §11 (SHA-256), sync and async', async (t) => {
  let ran = 0
  for (const v of json('pbkdf2_rfc6070_rfc7914.json').tests) {
    if (v.slow && !SLOW) continue // 16,777,216 iterations: set KDF_SLOW_TESTS=1
    const o = { salt: hex(v.salt), iterations: v.iterations, keyLength: v.dkLen, hash: PRF[v.prf] }
    t.is(kdf.pbkdf2(hex(v.password), o), v.dk, `tcId ${v.tcId}`)
    t.is(await kdf.pbkdf2Async(hex(v.password), o), v.dk, `tcId ${v.tcId} async`)
    ran++
  }
  t.true(ran >= 7)
})

test('PBKDF2: defaults are SHA-256, 100,000 iterations, 32 bytes, hex', (t) => {
  const expected = nodeCrypto.pbkdf2Sync('password', 'salt', 100000, 32, 'sha256').toString('hex')
  t.is(kdf.pbkdf2('password', { salt: 'salt' }), expected)
})

const DIFF_HASHES = ['sha1', 'sha224', 'sha256', 'sha384', 'sha512', 'sha512_256', 'sha3_256', 'sha3_512', 'md5', 'ripemd160']
const NODE_NAME = { sha512_256: 'sha512-256', sha3_256: 'sha3-256', sha3_512: 'sha3-512' }

test('PBKDF2: differential vs node:crypto.pbkdf2Sync (random inputs, every fast path and the generic one)', (t) => {
  for (const hash of DIFF_HASHES) {
    for (let i = 0; i < 6; i++) {
      // Key lengths around the block size exercise "hash the key first" in every PRF.
      const password = nodeCrypto.randomBytes([0, 1, 20, 64, 65, 129, 200][i % 7])
      const salt = nodeCrypto.randomBytes(i * 7)
      const iterations = 1 + nodeCrypto.randomInt(300)
      const keyLength = 1 + nodeCrypto.randomInt(150)
      const expected = nodeCrypto.pbkdf2Sync(password, salt, iterations, keyLength, NODE_NAME[hash] || hash)
      const got = kdf.pbkdf2(password, { salt, iterations, keyLength, hash, outputFormat: 'buffer' })
      t.true(Buffer.isBuffer(got))
      t.is(got.toString('hex'), expected.toString('hex'), `${hash} ${password.length} ${iterations} ${keyLength}`)
    }
  }
})

test('PBKDF2: output formats, input types and hash-name aliases', async (t) => {
  const ref = nodeCrypto.pbkdf2Sync('pässword', 'salt', 10, 20, 'sha256')
  const o = { salt: 'salt', iterations: 10, keyLength: 20 }
  t.is(kdf.pbkdf2('pässword', { ...o, outputFormat: 'base64' }), ref.toString('base64'))
  t.is(kdf.pbkdf2('pässword', { ...o, outputFormat: 'base64url' }), ref.toString('base64url'))
  t.is(kdf.pbkdf2(Buffer.from('pässword'), { ...o, hash: 'SHA-256' }), ref.toString('hex'))
  t.is(kdf.pbkdf2(new Uint8Array(Buffer.from('pässword')), { ...o, salt: new TextEncoder().encode('salt').buffer }), ref.toString('hex'))
  t.deepEqual(await kdf.pbkdf2Async('pässword', { ...o, outputFormat: 'buffer' }), ref)
})

test('PBKDF2: error paths (class and code)', async (t) => {
  isError(t, () => kdf.pbkdf2('pw', { salt: 's', iterations: 0 }), RangeError, 'ERR_OUT_OF_RANGE')
  isError(t, () => kdf.pbkdf2('pw', { salt: 's', iterations: 1.5 }), RangeError, 'ERR_OUT_OF_RANGE')
  isError(t, () => kdf.pbkdf2('pw', { salt: 's', iterations: '10' }), TypeError, 'ERR_INVALID_ARG_TYPE')
  isError(t, () => kdf.pbkdf2('pw', { salt: 's', keyLength: 0 }), RangeError, 'ERR_OUT_OF_RANGE')
  isError(t, () => kdf.pbkdf2('pw', { salt: 's', keyLength: 2 ** 31 }), RangeError, 'ERR_OUT_OF_RANGE')
  isError(t, () => kdf.pbkdf2('pw', {}), TypeError, 'ERR_INVALID_ARG_TYPE')
  isError(t, () => kdf.pbkdf2('pw'), TypeError, 'ERR_INVALID_ARG_TYPE')
  isError(t, () => kdf.pbkdf2(42, { salt: 's' }), TypeError, 'ERR_INVALID_ARG_TYPE')
  isError(t, () => kdf.pbkdf2('pw', { salt: 42 }), TypeError, 'ERR_INVALID_ARG_TYPE')
  isError(t, () => kdf.pbkdf2('pw', { salt: 's', hash: 'shake128' }), TypeError, 'ERR_INVALID_ARG_VALUE')
  isError(t, () => kdf.pbkdf2('pw', { salt: 's', hash: 'blake3' }), TypeError, 'ERR_INVALID_ARG_VALUE')
  isError(t, () => kdf.pbkdf2('pw', { salt: 's', hash: 'nope' }), TypeError, 'ERR_INVALID_ARG_VALUE')
  isError(t, () => kdf.pbkdf2('pw', { salt: 's', outputFormat: 'utf8' }), TypeError, 'ERR_INVALID_ARG_VALUE')
  isError(t, () => kdf.pbkdf2('pw', { salt: 's', iteration: 5 }), TypeError, 'ERR_INVALID_ARG_VALUE')
  isError(t, () => kdf.pbkdf2('pw', { salt: 's', signal: new AbortController().signal }), TypeError, 'ERR_INVALID_ARG_VALUE')
  // Async forms reject (never throw synchronously).
  await rejects(t, kdf.pbkdf2Async('pw', { salt: 's', iterations: 0 }), RangeError, 'ERR_OUT_OF_RANGE')
  await rejects(t, kdf.pbkdf2Async('pw', { salt: 's', signal: 'x' }), TypeError, 'ERR_INVALID_ARG_TYPE')
  await rejects(t, kdf.pbkdf2Async(null, { salt: 's' }), TypeError, 'ERR_INVALID_ARG_TYPE')
})

// ---- scrypt ---------------------------------------------------------------------------------

test('scrypt: RFC 7914 §12 vectors, sync and async', async (t) => {
  let ran = 0
  for (const v of json('scrypt_rfc7914.json').tests) {
    if (v.memory_bytes > 64 << 20 && !SLOW) continue // tcId 4 needs 1 GiB: set KDF_SLOW_TESTS=1
    const o = { salt: hex(v.salt), N: v.N, r: v.r, p: v.p, keyLength: v.dkLen, maxmem: 2 * v.memory_bytes + (1 << 20) }
    t.is(kdf.scrypt(hex(v.password), o), v.dk, `tcId ${v.tcId}`)
    t.is(await kdf.scryptAsync(hex(v.password), o), v.dk, `tcId ${v.tcId} async`)
    ran++
  }
  t.true(ran >= 3)
})

test('scrypt: differential vs node:crypto.scryptSync, and the defaults', (t) => {
  for (const [N, r, p] of [[2, 1, 1], [16, 1, 3], [256, 2, 2], [1024, 8, 1], [64, 3, 5]]) {
    const password = nodeCrypto.randomBytes(nodeCrypto.randomInt(100))
    const salt = nodeCrypto.randomBytes(nodeCrypto.randomInt(40))
    const keyLength = 1 + nodeCrypto.randomInt(200)
    const expected = nodeCrypto.scryptSync(password, salt, keyLength, { N, r, p })
    t.is(kdf.scrypt(password, { salt, N, r, p, keyLength }), expected.toString('hex'), `${N} ${r} ${p}`)
  }
  t.is(kdf.scrypt('pw', { salt: 'salt' }), nodeCrypto.scryptSync('pw', 'salt', 64).toString('hex'))
})

test('scrypt: error paths, maxmem as in Node', async (t) => {
  isError(t, () => kdf.scrypt('pw', { salt: 's', N: 1000 }), RangeError, 'ERR_OUT_OF_RANGE')
  isError(t, () => kdf.scrypt('pw', { salt: 's', N: 1 }), RangeError, 'ERR_OUT_OF_RANGE')
  isError(t, () => kdf.scrypt('pw', { salt: 's', r: 0 }), RangeError, 'ERR_OUT_OF_RANGE')
  isError(t, () => kdf.scrypt('pw', { salt: 's', p: 0 }), RangeError, 'ERR_OUT_OF_RANGE')
  isError(t, () => kdf.scrypt('pw', { salt: 's', keyLength: 0 }), RangeError, 'ERR_OUT_OF_RANGE')
  isError(t, () => kdf.scrypt('pw', { salt: 's', N: 2 ** 16, r: 1 }), RangeError, 'ERR_OUT_OF_RANGE') // N < 2^(16r)
  // N = 2^15, r = 8 needs 32 MiB + 2 KiB + 1 KiB: over the default 32 MiB, as in Node.
  t.throws(() => nodeCrypto.scryptSync('pw', 's', 64, { N: 2 ** 15 }))
  isError(t, () => kdf.scrypt('pw', { salt: 's', N: 2 ** 15 }), RangeError, 'ERR_OUT_OF_RANGE')
  isError(t, () => kdf.scrypt('pw', { salt: 's', maxmem: '1' }), TypeError, 'ERR_INVALID_ARG_TYPE')
  isError(t, () => kdf.scrypt('pw', { N: 16 }), TypeError, 'ERR_INVALID_ARG_TYPE')
  isError(t, () => kdf.scrypt('pw', { salt: 's', cost: 16 }), TypeError, 'ERR_INVALID_ARG_VALUE')
  await rejects(t, kdf.scryptAsync('pw', { salt: 's', N: 3 }), RangeError, 'ERR_OUT_OF_RANGE')
})

// ---- HKDF -----------------------------------------------------------------------------------

test('HKDF: RFC 5869 Appendix A', async (t) => {
  for (const v of json('hkdf_rfc5869.json').tests) {
    const hash = v.hash.toLowerCase().replace('-', '')
    const o = { salt: v.salt === '' ? undefined : hex(v.salt), info: hex(v.info), keyLength: v.L, hash }
    t.is(kdf.hkdf(hex(v.ikm), o), v.okm, `case ${v.rfc_test_case}`)
    t.is(await kdf.hkdfAsync(hex(v.ikm), o), v.okm, `case ${v.rfc_test_case} async`)
  }
})

for (const h of ['sha1', 'sha256', 'sha384', 'sha512']) {
  test(`HKDF: Wycheproof hkdf_${h}_test.json`, (t) => {
    let valid = 0
    let invalid = 0
    for (const group of json(`hkdf_${h}_test.json`).testGroups) {
      for (const v of group.tests) {
        const o = { salt: hex(v.salt), info: hex(v.info), keyLength: v.size, hash: h }
        if (v.result === 'invalid') {
          isError(t, () => kdf.hkdf(hex(v.ikm), o), RangeError, 'ERR_OUT_OF_RANGE')
          invalid++
        } else {
          t.is(kdf.hkdf(hex(v.ikm), o), v.okm, `tcId ${v.tcId}`)
          valid++
        }
      }
    }
    t.true(valid > 70 && invalid >= 3)
  })
}

test('HKDF: differential vs node:crypto.hkdfSync; defaults', (t) => {
  for (const hash of ['sha1', 'sha256', 'sha384', 'sha512', 'sha3_256', 'md5']) {
    const nodeName = NODE_NAME[hash] || hash
    const hlen = nodeCrypto.createHash(nodeName).digest().length
    for (let i = 0; i < 5; i++) {
      const ikm = nodeCrypto.randomBytes(1 + nodeCrypto.randomInt(80))
      const salt = nodeCrypto.randomBytes(nodeCrypto.randomInt(80))
      const info = nodeCrypto.randomBytes(nodeCrypto.randomInt(80))
      const keyLength = 1 + nodeCrypto.randomInt(255 * hlen)
      const expected = Buffer.from(nodeCrypto.hkdfSync(nodeName, ikm, salt, info, keyLength))
      t.is(kdf.hkdf(ikm, { salt, info, keyLength, hash }), expected.toString('hex'), hash)
    }
  }
  // Default: SHA-256, keyLength 32, empty salt (= 32 zero bytes) and info.
  t.is(kdf.hkdf('ikm'), Buffer.from(nodeCrypto.hkdfSync('sha256', 'ikm', '', '', 32)).toString('hex'))
  isError(t, () => kdf.hkdf('ikm', { keyLength: 255 * 32 + 1 }), RangeError, 'ERR_OUT_OF_RANGE')
  isError(t, () => kdf.hkdf('ikm', { keyLength: 0 }), RangeError, 'ERR_OUT_OF_RANGE')
  isError(t, () => kdf.hkdf(undefined), TypeError, 'ERR_INVALID_ARG_TYPE')
  isError(t, () => kdf.hkdf('ikm', { hash: 'shake256' }), TypeError, 'ERR_INVALID_ARG_VALUE')
  isError(t, () => kdf.hkdf('ikm', { info: 5 }), TypeError, 'ERR_INVALID_ARG_TYPE')
})

// ---- async behaviour ------------------------------------------------------------------------

/** One block of scrypt (N = 2^14, r = 8: 16 MiB), on the pool: the yardstick of the bounds below. */
const UNIT = () => kdf.scryptAsync('pw', { salt: 's', N: 2 ** 14, r: 8, p: 1 })

/**
 * Aborts the call `start(signal)` once it ran on a pool thread for a while; returns the
 * milliseconds from abort() to its promise settling, and those of a UNIT call started at the
 * abort beside it (which sees the same load).
 */
async function abortLatency(t, start) {
  const ac = new AbortController()
  const p = start(ac.signal)
  await new Promise((r) => setTimeout(r, 150)) // let the work start on a pool thread
  const t0 = performance.now()
  ac.abort(new Error('stop'))
  const settled = p.then(
    () => t.fail('the aborted call resolved'),
    (err) => {
      const ms = performance.now() - t0
      t.is(err.name, 'AbortError')
      t.is(err.code, 'ABORT_ERR')
      t.true(err instanceof kdf.AbortError)
      t.is(err.cause && err.cause.message, 'stop')
      return ms
    },
  )
  const unit = UNIT().then(() => performance.now() - t0)
  const [ms, unitMs] = await Promise.all([settled, unit])
  return { ms, bound: 20 * unitMs }
}

// Timing in these tests: the work aborted would otherwise run for hours (2^32 - 1 PBKDF2
// iterations) or for 2000 blocks of scrypt, so a bound of 20 UNITs (one scrypt block, timed
// beside the aborted call: a loaded machine slows both) separates "cancelled" from "not
// cancelled" whatever the load. The typical latency (a few ms) is logged, not asserted. Where a
// settle needs no pool thread at all, a bound of a minute only keeps a failure from hanging.
const HANG_MS = scaled(60000)

test.serial('abort: running PBKDF2 and scrypt stop, and the pool threads are freed', async (t) => {
  const pb = await abortLatency(t, (signal) => kdf.pbkdf2Async('pw', { salt: 's', iterations: 2 ** 32 - 1, signal }))
  t.true(pb.ms < pb.bound, `PBKDF2 settled ${pb.ms.toFixed(1)} ms after abort (bound ${pb.bound.toFixed(0)} ms)`)
  const pb512 = await abortLatency(t, (signal) => kdf.pbkdf2Async('pw', { salt: 's', iterations: 2 ** 32 - 1, hash: 'sha512', signal }))
  t.true(pb512.ms < pb512.bound, `PBKDF2-SHA512 settled ${pb512.ms.toFixed(1)} ms after abort (bound ${pb512.bound.toFixed(0)} ms)`)
  const sc = await abortLatency(t, (signal) => kdf.scryptAsync('pw', { salt: 's', N: 2 ** 14, r: 8, p: 2000, maxmem: 2 ** 26, signal }))
  t.true(sc.ms < sc.bound, `scrypt settled ${sc.ms.toFixed(1)} ms after abort (bound ${sc.bound.toFixed(0)} ms)`)
  t.log(`abort → rejection: PBKDF2-SHA256 ${pb.ms.toFixed(1)} ms, PBKDF2-SHA512 ${pb512.ms.toFixed(1)} ms, scrypt ${sc.ms.toFixed(1)} ms (bounds ${[pb, pb512, sc].map((x) => x.bound.toFixed(0)).join(', ')} ms)`)
  // The threads are really free (the aborted work stopped, it is not still running detached):
  // occupy every pool thread with hours-long work, abort it, then a short call must complete.
  const size = Number(process.env.UV_THREADPOOL_SIZE) || 4
  const ac = new AbortController()
  const long = Array.from({ length: size }, () =>
    kdf.pbkdf2Async('pw', { salt: 's', iterations: 2 ** 32 - 1, signal: ac.signal }).catch((e) => e),
  )
  await new Promise((r) => setTimeout(r, 100))
  ac.abort()
  for (const e of await Promise.all(long)) t.is(e.name, 'AbortError')
  const t0 = performance.now()
  t.is(await kdf.pbkdf2Async('pw', { salt: 's', iterations: 1000 }), nodeCrypto.pbkdf2Sync('pw', 's', 1000, 32, 'sha256').toString('hex'))
  t.true(performance.now() - t0 < HANG_MS)
})

test.serial('abort: queued work is cancelled without running; an aborted signal rejects at once', async (t) => {
  // Fill the libuv pool (4 threads by default) with long work, then queue one more and abort it.
  const size = Number(process.env.UV_THREADPOOL_SIZE) || 4
  const blockers = new AbortController()
  const running = Array.from({ length: size }, () =>
    kdf.pbkdf2Async('pw', { salt: 's', iterations: 2 ** 32 - 1, signal: blockers.signal }).catch((e) => e),
  )
  const ac = new AbortController()
  const queued = kdf.scryptAsync('pw', { salt: 's', signal: ac.signal })
  await new Promise((r) => setTimeout(r, 50))
  const t0 = performance.now()
  ac.abort()
  const err = await t.throwsAsync(queued)
  t.is(err.name, 'AbortError')
  // Every pool thread is busy for hours: settling at all means it never waited for one.
  t.true(performance.now() - t0 < HANG_MS)
  blockers.abort()
  for (const e of await Promise.all(running)) t.is(e.name, 'AbortError')

  const done = new AbortController()
  done.abort()
  const e2 = await t.throwsAsync(kdf.pbkdf2Async('pw', { salt: 's', signal: done.signal }))
  t.is(e2.name, 'AbortError')
  // A signal that is never aborted changes nothing.
  const ok = await kdf.pbkdf2Async('pw', { salt: 's', iterations: 10, signal: new AbortController().signal })
  t.is(ok, nodeCrypto.pbkdf2Sync('pw', 's', 10, 32, 'sha256').toString('hex'))
})

test('async: inputs are copied before the work leaves the JS thread', async (t) => {
  const password = Buffer.from('password')
  const salt = Buffer.from('salt')
  const p = kdf.pbkdf2Async(password, { salt, iterations: 20000 })
  password.fill(0)
  salt.fill(0)
  t.is(await p, nodeCrypto.pbkdf2Sync('password', 'salt', 20000, 32, 'sha256').toString('hex'))
})
