'use strict'
// The diagnostics channels (docs/diagnostics.md): every family of async calls publishes on its
// TracingChannel the events and context fields the page lists, with the documented types and
// in TracingChannel's order; failures and aborts publish `error`; and no published object holds
// a secret. Every secret below (keys, passwords, passphrases, salts, plaintexts) is built from
// one recognisable marker, and every published context is searched for it, deep (nested
// objects, errors, byte views; as bytes, text, hex and base64), after the call settled. The
// calls' results (derived keys, plaintexts, signatures) are searched for too: a context carries
// no result.
const test = require('ava')
const dc = require('node:diagnostics_channel')
const nodeCrypto = require('node:crypto')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { once } = require('node:events')
const crypto = require('..')

const { sha, hmac, kdf, cipher, dsa, kem, hybrid, diagnosticsChannels } = crypto

const MARK = 'S3cr3t-M4rker-7f3a9c'
/** `n` bytes of the marker repeated: any 8 consecutive bytes of it contain a recognisable run. */
const secret = (n) => Buffer.from(MARK.repeat(Math.ceil(n / MARK.length)).slice(0, n))
const KEY32 = secret(32)
const PASSWORD = `${MARK}-password`
const SALT = secret(16)
const PLAIN = secret(64 * 1024)

const FAMILIES = ['hash', 'hmac', 'cipher', 'kdf', 'password', 'pk', 'kem', 'hybrid', 'age', 'stream', 'file']
const EVENTS = ['start', 'end', 'asyncStart', 'asyncEnd', 'error']

// Every event of every family, in order: { family, event, ctx, seen } (`seen`: the fields
// present at that event).
const log = []
const handlers = {}
for (const family of FAMILIES) {
  const ch = dc.tracingChannel(`cryptographer:${family}`)
  handlers[family] = Object.fromEntries(
    EVENTS.map((event) => [event, (ctx) => log.push({ family, event, ctx, seen: { ...ctx } })]),
  )
  ch.subscribe(handlers[family])
}

/** The events published while `fn` ran and its Promise settled (the tests run serially). */
async function traced(fn) {
  const from = log.length
  let result
  let error
  try {
    result = await fn()
  } catch (err) {
    error = err
  }
  // asyncEnd is published before the caller's continuation runs; one turn for nested calls.
  await new Promise((resolve) => setImmediate(resolve))
  return { events: log.slice(from), result, error }
}

/** The contexts of `family` among `events`, each once, in order of their start. */
const contexts = (events, family) => [...new Set(events.filter((e) => e.family === family).map((e) => e.ctx))]

// ---- the deep search ------------------------------------------------------------------------

/** Every needle form of `bytes`: the bytes, and their UTF-8, hex and base64 texts. */
function needles(bytes) {
  const b = Buffer.from(bytes)
  const probe = b.length > 24 ? b.subarray(0, 24) : b
  return { bytes: [probe], text: [probe.toString('utf8'), probe.toString('hex'), probe.toString('base64').slice(0, 16)] }
}

/** Paths in `value` (deep) where one of `needle`'s forms occurs. */
function search(value, needle, at = 'ctx', seen = new Set(), hits = []) {
  if (value === null || value === undefined) return hits
  if (typeof value === 'string') {
    if (needle.text.some((n) => n.length > 0 && value.includes(n))) hits.push(at)
    return hits
  }
  if (typeof value !== 'object' && typeof value !== 'function') return hits
  if (seen.has(value)) return hits
  seen.add(value)
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) {
    const buf = value instanceof ArrayBuffer ? Buffer.from(value) : Buffer.from(value.buffer, value.byteOffset, value.byteLength)
    if (needle.bytes.some((n) => buf.indexOf(n) >= 0)) hits.push(at)
    return hits
  }
  const keys = new Set(Reflect.ownKeys(value))
  if (value instanceof Error) for (const k of ['message', 'stack', 'cause', 'code']) keys.add(k)
  for (const k of keys) {
    let v
    try {
      v = value[k]
    } catch {
      continue
    }
    search(v, needle, `${at}.${String(k)}`, seen, hits)
  }
  return hits
}

/** No published context of `events` holds `MARK`, the extra `secrets` or the call's `result`. */
function noSecret(t, events, secrets = [], result = undefined) {
  const forms = [needles(Buffer.from(MARK)), ...secrets.map(needles)]
  if (result !== undefined) {
    for (const r of Array.isArray(result) ? result : [result]) {
      if (typeof r === 'string' && r.length >= 16) {
        // A hex result (a digest) may sit in a context as the bytes it encodes.
        const bytes = /^(?:[0-9a-f]{2})+$/.test(r) ? [Buffer.from(r, 'hex').subarray(0, 24)] : []
        forms.push({ bytes, text: [r.slice(0, 24)] })
      }
      else if (ArrayBuffer.isView(r) && r.byteLength >= 16) forms.push(needles(r))
      else if (r && typeof r === 'object' && !ArrayBuffer.isView(r)) {
        for (const v of Object.values(r)) if (ArrayBuffer.isView(v) && v.byteLength >= 16) forms.push(needles(v))
      }
    }
  }
  for (const { ctx, family, event } of events) {
    for (const needle of forms) t.deepEqual(search(ctx, needle), [], `${family} ${event}: a secret or result in the context`)
  }
}

// ---- the documented fields ------------------------------------------------------------------

const isNum = (v) => typeof v === 'number' && Number.isFinite(v)
const numOrUndef = (v) => v === undefined || isNum(v)

/**
 * One call's events: start, end, then asyncStart and asyncEnd (error first when it failed), all
 * with the same context; the context's fields of the documented types; the times in order.
 */
function checkCall(t, events, ctx, { family, operation, algorithm, pooled, failed }) {
  const mine = events.filter((e) => e.ctx === ctx).map((e) => e.event)
  const want = failed ? ['start', 'end', 'error', 'asyncStart', 'asyncEnd'] : ['start', 'end', 'asyncStart', 'asyncEnd']
  t.deepEqual(mine, want, `${family} ${operation}: events`)
  t.is(ctx.family, family)
  t.is(ctx.operation, operation)
  if (algorithm instanceof RegExp) t.regex(ctx.algorithm, algorithm)
  else t.is(ctx.algorithm, algorithm)
  t.true(numOrUndef(ctx.bytesIn), `${family} bytesIn`)
  t.true(ctx.params === undefined || (typeof ctx.params === 'object' && Object.values(ctx.params).every((v) => typeof v === 'number' || typeof v === 'string')), `${family} params`)
  t.true(isNum(ctx.startedAt), `${family} startedAt`)
  t.true(isNum(ctx.settledAt), `${family} settledAt`)
  t.true(ctx.startedAt <= ctx.settledAt)
  for (const k of ['queuedAt', 'runningAt', 'finishedAt']) t.true(numOrUndef(ctx[k]), `${family} ${k}`)
  if (pooled) {
    t.true(isNum(ctx.queuedAt) && isNum(ctx.runningAt) && isNum(ctx.finishedAt), `${family} ${operation}: pool times`)
    // The native stamps are read against performance.now() taken just before the token was
    // made: allow the few microseconds between the two clocks' reads.
    const slack = 0.05
    t.true(ctx.startedAt <= ctx.queuedAt + slack, `${family} started <= queued`)
    t.true(ctx.queuedAt <= ctx.runningAt, `${family} queued <= running`)
    t.true(ctx.runningAt <= ctx.finishedAt, `${family} running <= finished`)
    t.true(ctx.finishedAt <= ctx.settledAt + slack, `${family} finished <= settled`)
  }
  // The start event saw the identity of the call.
  const start = events.find((e) => e.ctx === ctx && e.event === 'start')
  t.is(start.seen.family, family)
  t.is(start.seen.operation, operation)
  t.is(typeof start.seen.algorithm, 'string')
  t.false('result' in ctx, 'no result is published')
  if (failed) t.truthy(ctx.error)
  else t.false('error' in ctx)
}

// ---- the families -----------------------------------------------------------------------------

test.serial('the channel names are exported, one per family', (t) => {
  t.deepEqual(Object.keys(diagnosticsChannels).sort(), [...FAMILIES].sort())
  for (const f of FAMILIES) t.is(diagnosticsChannels[f], `cryptographer:${f}`)
  t.true(Object.isFrozen(diagnosticsChannels))
})

test.serial('hash and hmac: data length, pool times, no key and no digest published', async (t) => {
  let r = await traced(() => sha.sha256.async(PLAIN))
  let [ctx] = contexts(r.events, 'hash')
  checkCall(t, r.events, ctx, { family: 'hash', operation: 'digest', algorithm: 'sha256', pooled: true })
  t.is(ctx.bytesIn, PLAIN.length)
  noSecret(t, r.events, [], r.result)

  r = await traced(() => hmac.sha512.async(PLAIN, { key: KEY32, outputFormat: 'buffer' }))
  ;[ctx] = contexts(r.events, 'hmac')
  checkCall(t, r.events, ctx, { family: 'hmac', operation: 'mac', algorithm: 'sha512', pooled: true })
  t.is(ctx.bytesIn, PLAIN.length)
  noSecret(t, r.events, [KEY32], r.result)

  // Under 16 KiB the hash runs inline: no pool times.
  r = await traced(() => sha.sha256.async(secret(64)))
  ;[ctx] = contexts(r.events, 'hash')
  checkCall(t, r.events, ctx, { family: 'hash', operation: 'digest', algorithm: 'sha256', pooled: false })
  t.is(ctx.bytesIn, 64)
  t.is(ctx.queuedAt, undefined)

  // Batches publish their item count and total length.
  const items = [secret(40000), secret(50000), Buffer.from('x')]
  r = await traced(() => sha.sha256.batchAsync(items))
  ;[ctx] = contexts(r.events, 'hash')
  checkCall(t, r.events, ctx, { family: 'hash', operation: 'batch', algorithm: 'sha256', pooled: true })
  t.deepEqual(ctx.params, { items: 3 })
  t.is(ctx.bytesIn, 90001)
  noSecret(t, r.events, [], r.result)
})

test.serial('a call computed on the calling thread makes no cancel token and reports no pool times; a pooled call makes one', async (t) => {
  // Count the native tokens made (lib/abort.js and lib/diagnostics.js make them through the
  // module object, at call time).
  const native = require('../lib/native')
  const Real = native.CancelToken
  let made = 0
  native.CancelToken = function CancelToken(...args) {
    made++
    return new Real(...args)
  }
  t.teardown(() => {
    native.CancelToken = Real
  })
  t.not(native.CancelToken, Real, 'the constructor can be wrapped')
  const signal = new AbortController().signal
  const small = secret(100)
  const hex = (alg, b) => nodeCrypto.createHash(alg).update(b).digest('hex')
  for (const [what, family, call, pooled, want] of [
    ['inline hash', 'hash', () => sha.sha256.async(small), false, hex('sha256', small)],
    ['inline hash with a signal', 'hash', () => sha.sha256.async(small, { signal }), false, hex('sha256', small)],
    ['inline HMAC with a signal', 'hmac', () => hmac.sha256.async(small, { key: KEY32, signal }), false, nodeCrypto.createHmac('sha256', KEY32).update(small).digest('hex')],
    ['inline batch with a signal', 'hash', () => sha.sha256.batchAsync([small, small], { signal }), false, [hex('sha256', small), hex('sha256', small)]],
    ['pooled hash', 'hash', () => sha.sha256.async(PLAIN), true, hex('sha256', PLAIN)],
    ['pooled batch with a signal', 'hash', () => sha.sha256.batchAsync([PLAIN, PLAIN], { signal }), true, [hex('sha256', PLAIN), hex('sha256', PLAIN)]],
  ]) {
    made = 0
    const r = await traced(call)
    t.deepEqual(r.result, want, what)
    t.is(made, pooled ? 1 : 0, `${what}: tokens made`)
    const [ctx] = contexts(r.events, family)
    checkCall(t, r.events, ctx, { family, operation: what.includes('batch') ? 'batch' : family === 'hash' ? 'digest' : 'mac', algorithm: 'sha256', pooled })
    if (!pooled) t.deepEqual([ctx.queuedAt, ctx.runningAt, ctx.finishedAt], [undefined, undefined, undefined], `${what}: no pool times`)
  }
})

test.serial('cipher: the mode named, errors and aborts publish error', async (t) => {
  let r = await traced(() => cipher.aes.encryptAsync(PLAIN, { key: KEY32, mode: 'gcm', outputFormat: 'buffer' }))
  let [ctx] = contexts(r.events, 'cipher')
  checkCall(t, r.events, ctx, { family: 'cipher', operation: 'encrypt', algorithm: 'aes-gcm', pooled: true })
  t.is(ctx.bytesIn, PLAIN.length)
  noSecret(t, r.events, [KEY32], r.result)
  const sealed = r.result

  // A tampered message: the rejection is published as `error`, and no plaintext.
  const bad = Buffer.from(sealed)
  bad[bad.length - 1] ^= 1
  r = await traced(() => cipher.aes.decryptAsync(bad, { key: KEY32, mode: 'gcm' }))
  t.truthy(r.error)
  ;[ctx] = contexts(r.events, 'cipher')
  checkCall(t, r.events, ctx, { family: 'cipher', operation: 'decrypt', algorithm: 'aes-gcm', pooled: true, failed: true })
  t.is(ctx.error, r.error)
  noSecret(t, r.events, [KEY32])

  r = await traced(() => cipher.chacha20.decryptAsync(bad, { key: KEY32, signal: AbortSignal.abort() }))
  t.is(r.error.name, 'AbortError')
  ;[ctx] = contexts(r.events, 'cipher')
  checkCall(t, r.events, ctx, { family: 'cipher', operation: 'decrypt', algorithm: 'chacha20', pooled: false, failed: true })
  t.is(ctx.error, r.error, 'the abort error is the published error')
  t.is(ctx.error.code, 'ABORT_ERR')
  t.is(ctx.queuedAt, undefined)
})

test.serial('kdf and password: cost parameters, never the password or salt', async (t) => {
  let r = await traced(() => kdf.pbkdf2Async(PASSWORD, { salt: SALT, iterations: 1000, keyLength: 32 }))
  let [ctx] = contexts(r.events, 'kdf')
  checkCall(t, r.events, ctx, { family: 'kdf', operation: 'derive', algorithm: 'pbkdf2', pooled: true })
  t.deepEqual(ctx.params, { iterations: 1000, keyLength: 32, hash: 'sha256' })
  noSecret(t, r.events, [SALT], r.result)

  r = await traced(() => kdf.scryptAsync(PASSWORD, { salt: SALT, N: 1024, r: 8, p: 1 }))
  ;[ctx] = contexts(r.events, 'kdf')
  checkCall(t, r.events, ctx, { family: 'kdf', operation: 'derive', algorithm: 'scrypt', pooled: true })
  t.like(ctx.params, { N: 1024, r: 8, p: 1, keyLength: 64 })
  noSecret(t, r.events, [SALT], r.result)

  r = await traced(() => kdf.hkdfAsync(KEY32, { salt: SALT, info: secret(10), keyLength: 42 }))
  ;[ctx] = contexts(r.events, 'kdf')
  checkCall(t, r.events, ctx, { family: 'kdf', operation: 'derive', algorithm: 'hkdf', pooled: true })
  t.deepEqual(ctx.params, { keyLength: 42, hash: 'sha256' })
  noSecret(t, r.events, [KEY32, SALT], r.result)

  const argon = { salt: SALT, memoryCost: 1024, timeCost: 2, parallelism: 1 }
  r = await traced(() => kdf.argon2(PASSWORD, argon))
  ;[ctx] = contexts(r.events, 'password')
  checkCall(t, r.events, ctx, { family: 'password', operation: 'hash', algorithm: 'argon2', pooled: true })
  t.deepEqual(ctx.params, { variant: 'argon2id', version: 19, memoryCost: 1024, timeCost: 2, parallelism: 1, keyLength: 32 })
  t.is(ctx.bytesIn, undefined, 'no password length')
  noSecret(t, r.events, [SALT, Buffer.from(PASSWORD)], r.result)
  const phc = r.result

  r = await traced(() => kdf.argon2.verify(PASSWORD, phc))
  ;[ctx] = contexts(r.events, 'password')
  checkCall(t, r.events, ctx, { family: 'password', operation: 'verify', algorithm: 'argon2', pooled: true })
  t.like(ctx.params, { memoryCost: 1024, timeCost: 2, parallelism: 1 })
  // The stored string holds the salt (base64) and the tag: neither is published.
  noSecret(t, r.events, [SALT, Buffer.from(phc.split('$').pop(), 'base64')])

  r = await traced(() => kdf.bcrypt.hashAsync(PASSWORD, { rounds: 4 }))
  ;[ctx] = contexts(r.events, 'password')
  checkCall(t, r.events, ctx, { family: 'password', operation: 'hash', algorithm: 'bcrypt', pooled: true })
  t.deepEqual(ctx.params, { cost: 4 })
  noSecret(t, r.events, [], r.result)
  const stored = r.result

  r = await traced(() => kdf.bcrypt.verifyAsync(`${PASSWORD}-wrong`, stored))
  t.false(r.result)
  ;[ctx] = contexts(r.events, 'password')
  checkCall(t, r.events, ctx, { family: 'password', operation: 'verify', algorithm: 'bcrypt', pooled: true })
  t.deepEqual(ctx.params, { cost: 4 })
  noSecret(t, r.events, [Buffer.from(stored.slice(7))])

  // password.hash goes through the same functions: it publishes on the password channel.
  r = await traced(() => crypto.password.hash(PASSWORD, { memoryCost: 1024, timeCost: 1, parallelism: 1 }))
  t.true(contexts(r.events, 'password').length >= 1)
  noSecret(t, r.events, [], r.result)

  // An abort while Argon2 runs (long enough to be cancellable between passes): the AbortError
  // is the published error.
  const ctl = new AbortController()
  r = await traced(() => {
    const running = kdf.argon2(PASSWORD, { memoryCost: 256 * 1024, timeCost: 8, parallelism: 1, signal: ctl.signal })
    setTimeout(() => ctl.abort(), 30)
    return running
  })
  t.is(r.error.name, 'AbortError')
  ;[ctx] = contexts(r.events, 'password')
  checkCall(t, r.events, ctx, { family: 'password', operation: 'hash', algorithm: 'argon2', pooled: false, failed: true })
  t.is(ctx.error, r.error)
  t.true(isNum(ctx.queuedAt))
})

test.serial('pk, kem, hybrid: every operation, no key and no shared secret', async (t) => {
  const ed = dsa.ed25519.generateKeypair()
  let r = await traced(() => dsa.ed25519.signAsync(PLAIN, ed.privateKey))
  let [ctx] = contexts(r.events, 'pk')
  checkCall(t, r.events, ctx, { family: 'pk', operation: 'sign', algorithm: 'ed25519', pooled: true })
  noSecret(t, r.events, [ed.privateKey], r.result)

  r = await traced(() => dsa.ecdsa.generateKeypairAsync('p384'))
  ;[ctx] = contexts(r.events, 'pk')
  checkCall(t, r.events, ctx, { family: 'pk', operation: 'generateKeypair', algorithm: 'ecdsa', pooled: true })
  t.deepEqual(ctx.params, { curve: 'p384' })
  noSecret(t, r.events, [], r.result)

  r = await traced(() => dsa.rsa.generateKeypairAsync({ modulusLength: 1024 }))
  ;[ctx] = contexts(r.events, 'pk')
  checkCall(t, r.events, ctx, { family: 'pk', operation: 'generateKeypair', algorithm: 'rsa', pooled: true })
  t.deepEqual(ctx.params, { modulusLength: 1024, publicExponent: 65537 })
  noSecret(t, r.events, [], r.result)
  const rsaKeys = r.result

  r = await traced(() => dsa.rsa.signPSSAsync(PLAIN, rsaKeys.privateKey))
  ;[ctx] = contexts(r.events, 'pk')
  checkCall(t, r.events, ctx, { family: 'pk', operation: 'sign', algorithm: 'rsa-pss', pooled: true })
  r = await traced(() => cipher.rsa_oaep.encryptAsync(KEY32, rsaKeys.publicKey))
  ;[ctx] = contexts(r.events, 'pk')
  checkCall(t, r.events, ctx, { family: 'pk', operation: 'encrypt', algorithm: 'rsa-oaep', pooled: true })
  noSecret(t, r.events, [KEY32])

  r = await traced(() => dsa.mldsa65.signAsync(PLAIN, dsa.mldsa65.generateKeypair().privateKey))
  ;[ctx] = contexts(r.events, 'pk')
  checkCall(t, r.events, ctx, { family: 'pk', operation: 'sign', algorithm: 'ml-dsa-65', pooled: true })

  const x = cipher.x25519.generateKeypair()
  r = await traced(() => cipher.x25519.deriveSharedSecretAsync(x.privateKey, cipher.x25519.generateKeypair().publicKey))
  ;[ctx] = contexts(r.events, 'pk')
  checkCall(t, r.events, ctx, { family: 'pk', operation: 'deriveSharedSecret', algorithm: 'x25519', pooled: true })
  noSecret(t, r.events, [x.privateKey], r.result)

  const k = kem.mlkem768.generateKeypair()
  r = await traced(() => kem.mlkem768.encapsulateAsync(k.publicKey))
  ;[ctx] = contexts(r.events, 'kem')
  checkCall(t, r.events, ctx, { family: 'kem', operation: 'encapsulate', algorithm: 'ml-kem-768', pooled: true })
  noSecret(t, r.events, [k.privateKey], r.result)
  r = await traced(() => kem.mlkem768.decapsulateAsync(r.result.ciphertext, k.privateKey))
  ;[ctx] = contexts(r.events, 'kem')
  checkCall(t, r.events, ctx, { family: 'kem', operation: 'decapsulate', algorithm: 'ml-kem-768', pooled: true })
  noSecret(t, r.events, [k.privateKey], r.result)

  const h = hybrid.generateKeypair()
  r = await traced(() => hybrid.encryptAsync(PLAIN, h.publicKey))
  ;[ctx] = contexts(r.events, 'hybrid')
  // The hybrid call's own work is its parts' calls, published on their channels inside it.
  checkCall(t, r.events, ctx, { family: 'hybrid', operation: 'encrypt', algorithm: 'x25519-mlkem768', pooled: false })
  t.is(ctx.bytesIn, PLAIN.length)
  t.true(contexts(r.events, 'kem').length >= 1, 'the encapsulation is published on the kem channel')
  t.true(contexts(r.events, 'cipher').length >= 1, 'the payload on the cipher channel')
  noSecret(t, r.events, [h.privateKey])
  r = await traced(() => hybrid.decryptAsync(r.result, h.privateKey))
  ;[ctx] = contexts(r.events, 'hybrid')
  checkCall(t, r.events, ctx, { family: 'hybrid', operation: 'decrypt', algorithm: 'x25519-mlkem768', pooled: false })
  noSecret(t, r.events, [h.privateKey], r.result)
})

test.serial('age, streams and files', async (t) => {
  let r = await traced(() => cipher.age.encrypt(PLAIN, { passphrase: PASSWORD, workFactor: 2 }))
  let [ctx] = contexts(r.events, 'age')
  checkCall(t, r.events, ctx, { family: 'age', operation: 'encrypt', algorithm: 'age', pooled: true })
  t.deepEqual(ctx.params, { workFactor: 2 })
  t.is(ctx.bytesIn, PLAIN.length)
  noSecret(t, r.events, [])
  const sealed = r.result
  r = await traced(() => cipher.age.decrypt(sealed, { passphrase: `${PASSWORD}-wrong` }))
  t.truthy(r.error)
  ;[ctx] = contexts(r.events, 'age')
  checkCall(t, r.events, ctx, { family: 'age', operation: 'decrypt', algorithm: 'age', pooled: true, failed: true })
  noSecret(t, r.events, [])

  // A stream's key setup (Argon2id of a passphrase) runs on the pool as the stream starts.
  r = await traced(async () => {
    const s = cipher.aes.encryptStream({ passphrase: PASSWORD, memoryCost: 1024, timeCost: 1, parallelism: 1 })
    const chunks = []
    s.on('data', (c) => chunks.push(c))
    s.end(PLAIN)
    await once(s, 'end')
    return Buffer.concat(chunks)
  })
  ;[ctx] = contexts(r.events, 'stream')
  checkCall(t, r.events, ctx, { family: 'stream', operation: 'encryptStream', algorithm: 'aes-256-gcm', pooled: true })
  noSecret(t, r.events, [])

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'diag-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  const src = path.join(dir, 'plain')
  fs.writeFileSync(src, PLAIN)
  r = await traced(() => sha.sha256.file(src))
  ;[ctx] = contexts(r.events, 'file')
  checkCall(t, r.events, ctx, { family: 'file', operation: 'hashFile', algorithm: 'sha256', pooled: true })
  noSecret(t, r.events, [], r.result)
  r = await traced(() => cipher.aes.encryptFile(src, path.join(dir, 'sealed'), { key: KEY32 }))
  ;[ctx] = contexts(r.events, 'file')
  checkCall(t, r.events, ctx, { family: 'file', operation: 'encryptFile', algorithm: 'aes-256-gcm', pooled: true })
  noSecret(t, r.events, [KEY32])
  r = await traced(() => cipher.age.encryptFile(src, path.join(dir, 'age'), { passphrase: PASSWORD, workFactor: 2 }))
  ;[ctx] = contexts(r.events, 'file')
  checkCall(t, r.events, ctx, { family: 'file', operation: 'encryptFile', algorithm: 'age', pooled: true })
})

test.serial('every family published, and every family has a test above', (t) => {
  const published = new Set(log.map((e) => e.family))
  t.deepEqual([...published].sort(), [...FAMILIES].sort())
})

test.serial('without subscribers nothing is published', async (t) => {
  for (const family of FAMILIES) dc.tracingChannel(`cryptographer:${family}`).unsubscribe(handlers[family])
  const from = log.length
  t.is(await sha.sha256.async(PLAIN), nodeCrypto.createHash('sha256').update(PLAIN).digest('hex'))
  await cipher.aes.encryptAsync(PLAIN, { key: KEY32 })
  await kdf.argon2(PASSWORD, { memoryCost: 1024, timeCost: 1, parallelism: 1 })
  t.is(log.length, from)
})
