'use strict'
// The misbehaviours of the hardening issue, each tried as a user would. Every reproduction that
// could crash the process runs in a child process (`node --expose-gc`), so a crash (SIGSEGV,
// abort) fails the test instead of killing the runner; the child prints JSON that is checked here.
const test = require('ava')
const path = require('node:path')
const nodeCrypto = require('node:crypto')
const { execFileSync, spawnSync } = require('node:child_process')
const { performance } = require('node:perf_hooks')
const c = require('..')
const { scaled } = require('./helpers/time')

const ROOT = path.join(__dirname, '..')
// 53 characters of bcrypt's alphabet in canonical base64 (the salt's last character 'e' has its
// 4 unused bits clear, the checksum's 'a' its 2): a well-formed string whose cost is what a test sets.
const BCRYPT_BODY = 'a'.repeat(21) + 'e' + 'a'.repeat(31)

/** Runs `body` (an async function's source) in a child; returns what it printed as JSON. */
function inChild(t, body, { timeout = scaled(120_000), flags = ['--expose-gc'] } = {}) {
  const src = `const c = require(${JSON.stringify(ROOT)});
const nodeCrypto = require('node:crypto');
(async () => { const out = await (async () => { ${body} })(); process.stdout.write(JSON.stringify(out)) })()
  .catch((e) => { process.stdout.write(JSON.stringify({ error: { name: e.name, code: e.code, message: e.message } })) })`
  const r = spawnSync(process.execPath, [...flags, '-e', src], { encoding: 'utf8', timeout })
  t.is(r.signal, null, `child killed by ${r.signal}; stderr: ${r.stderr}`)
  t.is(r.status, 0, `child exited ${r.status}; stderr: ${r.stderr}`)
  return JSON.parse(r.stdout)
}

// ---- 1. async inputs are copied at call time -----------------------------------------------

test('async hash of a buffer transferred and garbage-collected meanwhile: no crash, digest of the call-time bytes', (t) => {
  const out = inChild(
    t,
    `const results = []
    for (const alg of ['whirlpool', 'sha3_256', 'blake3']) {
      let u8 = new Uint8Array(64 << 20).fill(7)
      const want = c.sha[alg](u8)
      const p = c.sha[alg].async(u8)
      let moved = structuredClone(u8.buffer, { transfer: [u8.buffer] }); moved = null
      global.gc()
      for (let i = 0; i < 8; i++) Buffer.alloc(8 << 20, i)
      results.push((await p) === want)
    }
    return results`,
  )
  t.deepEqual(out, [true, true, true])
})

test('async hash: writes after the call, a shrunk resizable buffer behind a shadowed .buffer, a SharedArrayBuffer', (t) => {
  const out = inChild(
    t,
    `const v = new Uint8Array(64 << 20).fill(7); const want = c.sha.sha3_256(v)
    const q = c.sha.sha3_256.async(v); setTimeout(() => v.fill(1), 5)
    const written = (await q) === want
    const rab = new ArrayBuffer(64 << 20, { maxByteLength: 128 << 20 }); const view = new Uint8Array(rab).fill(9)
    const want2 = c.sha.whirlpool(view)
    Object.defineProperty(view, 'buffer', { value: new ArrayBuffer(8) })
    const p = c.sha.whirlpool.async(view); rab.resize(0); global.gc()
    const shrunk = (await p) === want2
    const sab = new SharedArrayBuffer(32 << 20); const s8 = new Uint8Array(sab).fill(5)
    const want3 = c.hmac.sha256(s8, { key: 'k' })
    const r = c.hmac.sha256.async(s8, { key: 'k' }); s8.fill(6)
    const shared = (await r) === want3
    return { written, shrunk, shared }`,
  )
  t.deepEqual(out, { written: true, shrunk: true, shared: true })
})

test('async cipher and KDF inputs are copied at call time too', async (t) => {
  const key = nodeCrypto.randomBytes(32)
  const iv = nodeCrypto.randomBytes(12)
  const aad = Buffer.from('header')
  const data = nodeCrypto.randomBytes(4 << 20)
  const want = c.cipher.aes.encrypt(data, { key, iv, aad })
  const p = c.cipher.aes.encryptAsync(data, { key, iv, aad })
  data.fill(0)
  key.fill(0)
  aad.fill(0)
  t.true((await p).equals(want))
  const pw = Buffer.from('password')
  const salt = Buffer.from('saltsaltsalt')
  const k = c.kdf.pbkdf2Async(pw, { salt, iterations: 1000 })
  pw.fill(0)
  salt.fill(0)
  t.is(await k, nodeCrypto.pbkdf2Sync('password', 'saltsaltsalt', 1000, 32, 'sha256').toString('hex'))
})

// ---- 2. cost ceilings for stored hashes --------------------------------------------------

const ARGON2_T_MAX = '$argon2id$v=19$m=65536,t=4294967295,p=1$c29tZXNhbHRzb21lc2FsdA$YWJjZGVmZ2hpamtsbW5vcHFyc3R1dnd4eXphYmNkZWY'
const phc = (m, t, p) => `$argon2id$v=19$m=${m},t=${t},p=${p}$c29tZXNhbHRzb21lc2FsdA$YWJjZGVmZ2hpamtsbW5vcHFyc3R1dnd4eXphYmNkZWY`

test('argon2: absurd parameters in a stored hash are refused at once (ERR_OUT_OF_RANGE), by every reader', async (t) => {
  const { argon2 } = c.kdf
  // No timing here (a loaded machine makes any bound flaky): ARGON2_T_MAX would run for days if
  // any work were done before the refusal, so its call returning at all proves the order.
  for (const bad of [ARGON2_T_MAX, phc(4194304, 1, 4), phc(65536, 11, 4), phc(65536, 3, 65)]) {
    await t.throwsAsync(argon2.verify('pw', bad), { instanceOf: RangeError, code: 'ERR_OUT_OF_RANGE' })
    t.throws(() => argon2.verifySync('pw', bad), { instanceOf: RangeError, code: 'ERR_OUT_OF_RANGE' })
    t.throws(() => argon2.needsRehash(bad), { instanceOf: RangeError, code: 'ERR_OUT_OF_RANGE' })
    t.throws(() => argon2.parse(bad), { instanceOf: RangeError, code: 'ERR_OUT_OF_RANGE' })
  }
  const e = t.throws(() => argon2.parse(ARGON2_T_MAX))
  t.regex(e.message, /timeCost.*maxTimeCost/)
  // Raised ceilings accept them (parse only: no work).
  t.is(argon2.parse(phc(65536, 11, 4), { maxTimeCost: 11 }).timeCost, 11)
  t.is(argon2.parse(phc(4194304, 1, 4), { maxMemoryCost: 4194304 }).memoryCost, 4194304)
  // Every RFC 9106 / OWASP setting is accepted by default.
  for (const [m, tc, p] of [[2097152, 1, 4], [65536, 3, 4], [19456, 2, 1], [12288, 3, 1], [7168, 5, 1], [262144, 4, 8]]) {
    t.is(argon2.parse(phc(m, tc, p)).memoryCost, m)
  }
  // Lower ceilings refuse what the defaults accept; bad ceiling values are typed errors.
  t.throws(() => argon2.parse(phc(65536, 3, 4), { maxMemoryCost: 65535 }), { code: 'ERR_OUT_OF_RANGE' })
  t.throws(() => argon2.parse(phc(65536, 3, 4), { maxTimeCost: 'x' }), { code: 'ERR_INVALID_ARG_TYPE' })
  t.throws(() => argon2.parse('$argon2id$v=19$m=65536,t=3,p=4$' + 'A'.repeat(5000) + '$AAAA'), { code: 'ERR_INVALID_ARG_VALUE' })
  // Verification within the ceilings still works, and a real hash made at a setting verifies.
  const good = await argon2('pw', { memoryCost: 1024, timeCost: 2, parallelism: 1 })
  t.true(await argon2.verify('pw', good, { maxMemoryCost: 1024, maxTimeCost: 2, maxParallelism: 1 }))
  t.false(argon2.verifySync('nope', good))
})

test('bcrypt: a cost above maxRounds (default 16) is refused at once; 10-14 verify', async (t) => {
  const { bcrypt } = c.kdf
  const evil = '$2b$31$' + BCRYPT_BODY
  t.throws(() => bcrypt.verify('pw', evil), { instanceOf: RangeError, code: 'ERR_OUT_OF_RANGE' })
  await t.throwsAsync(bcrypt.verifyAsync('pw', evil), { instanceOf: RangeError, code: 'ERR_OUT_OF_RANGE' })
  const e = t.throws(() => bcrypt.verify('pw', '$2b$17$' + BCRYPT_BODY))
  t.regex(e.message, /maxRounds/)
  const h5 = bcrypt.hash('pw', { rounds: 5 })
  t.throws(() => bcrypt.verify('pw', h5, { maxRounds: 4 }), { code: 'ERR_OUT_OF_RANGE' })
  t.true(bcrypt.verify('pw', h5, { maxRounds: 5 }))
  t.throws(() => bcrypt.verify('pw', h5, { maxRounds: 40 }), { code: 'ERR_OUT_OF_RANGE' })
  // A real cost-10 hash made by the C bcrypt package verifies under the default ceiling.
  const theirs = require('bcrypt').hashSync('pw', 10)
  t.true(await bcrypt.verifyAsync('pw', theirs))
})

/** Milliseconds from `start()` until its promise settles (either way). */
async function settleTime(start) {
  const s = performance.now()
  await start().then(() => {}, () => {})
  return performance.now() - s
}

/**
 * Aborts `pending` (a call of `passes` Argon2 passes, under `ac`) once it ran `after` ms, and
 * returns how long it took to settle from the abort on, its error, and how long one pass (`onePass`)
 * started at the same moment took beside it: a reference that sees the same load.
 */
async function abortBesidePass(pending, ac, after, onePass) {
  let err
  const settled = pending.catch((e) => {
    err = e
  })
  await new Promise((resolve) => setTimeout(resolve, after))
  ac.abort()
  const [took, pass] = await Promise.all([settleTime(() => settled), onePass()])
  return { took, pass, err }
}

// Serial: no other test of this file is on the pool meanwhile.
test.serial('argon2: a running hash stops when its signal aborts (between passes)', async (t) => {
  const { argon2 } = c.kdf
  // Without cancellation an aborted call still rejects with AbortError (once the work ends), so
  // only the time separates the two. From the abort, a call that stops between passes settles
  // within a pass or two (on a fresh arena, which it wipes on the way out); one that does not,
  // after the rest of its 1000 passes. The bound, 50 passes of a one-pass hash started at the
  // abort beside it (so a load that slows one slows the other too), lies far from both: on a
  // 2-core machine loaded 15 times over, a call that stopped took up to 9 such passes.
  for (const [m, p] of [[65536, 1], [65536, 2]]) {
    const onePass = () => settleTime(() => argon2('pw', { memoryCost: m, timeCost: 1, parallelism: p }))
    await onePass() // a warm arena
    const ac = new AbortController()
    const pending = argon2('pw', { memoryCost: m, timeCost: 1000, parallelism: p, signal: ac.signal })
    const { took, pass, err } = await abortBesidePass(pending, ac, 50, onePass)
    t.log(`m=${m} p=${p}: 1000 passes aborted, settled ${took.toFixed(0)} ms after the abort; one pass beside it ${pass.toFixed(0)} ms`)
    t.true(err instanceof c.kdf.AbortError)
    t.true(took < 50 * pass, `settled ${took.toFixed(0)} ms after the abort; one pass beside it took ${pass.toFixed(0)} ms`)
  }
  // verify reads t from the stored string (raised ceiling), and stops the same way: here a stored
  // hash changed to 1000 passes (its tag is never reached).
  const stored = await argon2('pw', { memoryCost: 65536, timeCost: 2, parallelism: 2 })
  const heavy = stored.replace(',t=2,', ',t=1000,')
  t.not(heavy, stored)
  const onePass = () => settleTime(() => argon2('pw', { memoryCost: 65536, timeCost: 1, parallelism: 2 }))
  const ac = new AbortController()
  const { took, pass, err } = await abortBesidePass(argon2.verify('pw', heavy, { maxTimeCost: 1000, signal: ac.signal }), ac, 30, onePass)
  t.log(`verify of 1000 passes aborted, settled ${took.toFixed(0)} ms after the abort; one pass beside it ${pass.toFixed(0)} ms`)
  t.true(err instanceof c.kdf.AbortError)
  t.true(took < 50 * pass, `verify settled ${took.toFixed(0)} ms after the abort; one pass beside it took ${pass.toFixed(0)} ms`)
  t.true(await argon2.verify('pw', stored, { maxTimeCost: 2, signal: new AbortController().signal }))
  t.false(await argon2.verify('pw2', stored))
})

// Serial, as above. Aborting must never make the answer later than letting the hash finish: the
// stopped hash runs in the pooled arena (no allocation, no first touch, no wipe-and-free of a
// fresh one), so from its start it settles within a pass or two of the abort, a fraction of the
// whole hash, which is timed beside it in the same rounds (the same load for both).
test.serial('argon2: an aborted long hash settles before the same hash would have finished', async (t) => {
  const { argon2 } = c.kdf
  // 32 MiB x 20 passes: above the 512 MiB of block work from which a hash with a signal stops
  // between passes.
  const opts = { memoryCost: 32768, timeCost: 20, parallelism: 1, salt: Buffer.alloc(16, 7) }
  const expected = await argon2('pw', opts)
  const whole = []
  const aborted = []
  for (let round = 0; round < 3; round++) {
    let s = performance.now()
    t.is(await argon2('pw', { ...opts, signal: new AbortController().signal }), expected)
    whole.push(performance.now() - s)
    const ac = new AbortController()
    s = performance.now()
    const pending = argon2('pw', { ...opts, signal: ac.signal })
    setTimeout(() => ac.abort(), 20)
    await t.throwsAsync(pending, { name: 'AbortError' })
    aborted.push(performance.now() - s)
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[1]
  t.log(`whole hash ${whole.map((x) => x.toFixed(0)).join(', ')} ms; aborted 20 ms in, settled after ${aborted.map((x) => x.toFixed(0)).join(', ')} ms`)
  t.true(median(aborted) < median(whole) / 2, `aborted ${median(aborted).toFixed(0)} ms, whole ${median(whole).toFixed(0)} ms`)
  // The pooled arena was wiped and reused: the next hash is still right.
  t.is(await argon2('pw', { ...opts, signal: new AbortController().signal }), expected)
})

// ---- 3. no aliasing, no panics --------------------------------------------------------------

test('an input that overlaps the pooled output buffer is read as the caller passed it', (t) => {
  const key = Buffer.alloc(16, 1)
  const iv = Buffer.alloc(12, 3)
  const aadBuf = Buffer.from('x')
  const aad = aadBuf.buffer // the whole Buffer pool: the result is carved from it
  const aadCopy = Buffer.from(new Uint8Array(aad)) // what the caller passed, at call time
  const pt = Buffer.alloc(40, 9)
  const sealed = c.cipher.aes.encrypt(pt, { key, iv, aad })
  const cipher = nodeCrypto.createCipheriv('aes-128-gcm', key, iv)
  cipher.setAAD(aadCopy)
  const expected = Buffer.concat([cipher.update(pt), cipher.final(), cipher.getAuthTag()])
  t.true(sealed.equals(expected))
  t.true(c.cipher.aes.decrypt(sealed, { key, iv, aad: aadCopy }).equals(pt))
  // Data, key and IV given as the pool's whole ArrayBuffer, too.
  const pool = Buffer.from('abc').buffer
  // Each call's result is carved from `pool` itself, so the expected value is computed from a
  // copy taken right before the call (node:crypto allocates nothing from the pool meanwhile).
  const snap = () => Buffer.from(new Uint8Array(pool).slice())
  let before = snap()
  const d = c.sha.sha256(pool, { outputFormat: 'buffer' })
  t.true(d.equals(nodeCrypto.createHash('sha256').update(before).digest()))
  t.is(d.buffer, pool, 'the digest was written into the input\'s own memory')
  before = snap()
  const mac = c.hmac.sha256(pool, { key: pool, outputFormat: 'buffer' })
  t.true(mac.equals(nodeCrypto.createHmac('sha256', before).update(before).digest()))
  before = snap()
  const iv5 = Buffer.alloc(16, 5)
  const expectedCtr = (() => {
    const nc = nodeCrypto.createCipheriv('aes-128-ctr', key, iv5)
    return Buffer.concat([nc.update(before), nc.final()])
  })()
  const ctr = c.cipher.aes.encrypt(pool, { key, iv: iv5, mode: 'ctr' })
  t.true(ctr.equals(expectedCtr))
})

test('typed arrays of every kind are read as exactly their bytes', (t) => {
  const ab = nodeCrypto.randomBytes(64).buffer.slice(0)
  const kinds = [Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array,
    Float32Array, Float64Array, BigInt64Array, BigUint64Array]
  if (typeof globalThis.Float16Array === 'function') kinds.push(globalThis.Float16Array)
  for (const K of kinds) {
    const view = new K(ab, 8, 40 / K.BYTES_PER_ELEMENT)
    const bytes = Buffer.from(ab, 8, 40)
    t.is(c.sha.sha256(view), nodeCrypto.createHash('sha256').update(bytes).digest('hex'), K.name)
  }
})

test('the child-process harness itself detects a crash', (t) => {
  // Guards the tests above: a child killed by a signal must be reported as such.
  const r = spawnSync(process.execPath, ['-e', 'process.kill(process.pid, "SIGSEGV")'], { encoding: 'utf8' })
  // Windows has no signals: process.kill ends the process, and a crash shows only as its exit
  // status (0xC0000005 for an access violation), which inChild checks too.
  if (process.platform === 'win32') t.not(r.status, 0)
  else t.is(r.signal, 'SIGSEGV')
  t.is(execFileSync(process.execPath, ['-e', 'process.stdout.write("ok")'], { encoding: 'utf8' }), 'ok')
})
