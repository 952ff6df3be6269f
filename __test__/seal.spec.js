'use strict'
// Sealed messages (docs/stream-format.md, "Sealed messages"): sealSync/sealAsync,
// openSync/openAsync and deriveKeySync/deriveKeyAsync on cipher.aes and cipher.xchacha20.
// Round trips and the exact overhead; the committed vectors and random messages of ours opened by
// an INDEPENDENT implementation written from the spec (helpers/stream-format.js: node:crypto and
// an independent Argon2id), and its messages opened by ours, in both key sources; every refusal
// (wrong passphrase or aad, every cut, every flipped bit, the two-key forgery, hostile Argon2id
// costs refused before any hash); a derived key seals 1,000 messages for one Argon2id hash (the
// native counter, not timing); disposal; bad arguments.
const test = require('ava')
const nodeCrypto = require('node:crypto')
const { Readable, Writable } = require('node:stream')
const { pipeline } = require('node:stream/promises')
const { cipher } = require('..')
const native = require('../lib/native')
const { AbortError } = require('../lib/abort')
const independent = require('./helpers/stream-format')
const { forge } = require('./helpers/gcm-forgery')
const { typeErrors } = require('./helpers/typecheck')

const NS = ['aes', 'xchacha20']
const FAILED = { instanceOf: Error, code: 'ERR_CRYPTO_DECRYPT_FAILED' }
// Small Argon2id costs for tests (the default is 64 MiB, t = 3).
const CHEAP = { memoryCost: 64, timeCost: 1, parallelism: 1 }
const COST = { m: 64, t: 1, p: 1 }
// Header lengths (docs/stream-format.md): a passphrase (key source 1), a derived key (2).
const PASS_HEADER = 91
const KEY_HEADER = 107
const TAG = 16
const SEGMENT = 65536
const runs = () => native.argon2Runs()

/** decryptStream over the whole of `sealed`: a sealed message is a stream of the format. */
async function openStream(ns, sealed, options) {
  const out = []
  await pipeline(Readable.from([sealed]), cipher[ns].decryptStream(options), new Writable({ write: (c, e, cb) => cb(null, out.push(c)) }))
  return Buffer.concat(out)
}

// ---- the derived key: one Argon2id hash for many messages (serial: it reads the process's counter)

test.serial('a derived key seals 1,000 messages after one Argon2id hash; each opens with the key (no hash) and with the passphrase', async (t) => {
  for (const ns of NS) {
    const before = runs()
    const key = await cipher[ns].deriveKeyAsync('correct horse', CHEAP)
    const messages = Array.from({ length: 1000 }, (_, i) => Buffer.from(`message ${i}`))
    const sealed = messages.map((m) => key.sealSync(m))
    t.is(runs() - before, 1, `${ns}: one Argon2id hash for the key and 1,000 messages`)
    for (let i = 0; i < sealed.length; i++) t.deepEqual(key.openSync(sealed[i]), messages[i])
    t.is(runs() - before, 1, `${ns}: the key opens its messages without hashing`)
    // Self-describing: the one-call open reads the Argon2id salt and cost from the header.
    t.deepEqual(cipher[ns].openSync(sealed[7], { passphrase: 'correct horse' }), messages[7])
    t.is(runs() - before, 2)
    // One Argon2id salt and cost in every message; a new message salt each (so new keys, nonces).
    const argon2Fields = new Set(sealed.map((s) => s.subarray(15, 43).toString('hex')))
    const salts = new Set(sealed.map((s) => s.subarray(43, 75).toString('hex')))
    t.is(argon2Fields.size, 1)
    t.is(salts.size, 1000)
    t.is(sealed[0].length, KEY_HEADER + messages[0].length + TAG)
    key.dispose()
  }
})

test.serial('the one-call seal and open run one Argon2id hash each; a refused header runs none', async (t) => {
  const before = runs()
  const sealed = await cipher.aes.sealAsync('x', { passphrase: 'p', ...CHEAP })
  await cipher.aes.openAsync(sealed, { passphrase: 'p' })
  t.is(runs() - before, 2)
  const hostile = Buffer.from(sealed)
  hostile.writeUInt32BE(4 << 20, 15) // m = 4 GiB
  const e = t.throws(() => cipher.aes.openSync(hostile, { passphrase: 'p' }), FAILED)
  t.regex(e.message, /memoryCost.*maxMemoryCost/)
  t.is(runs() - before, 2, 'refused before any hash')
})

// ---- round trips and the format

test('sealSync / openSync and the async forms round-trip, with aad, strings and output formats; the overhead is 107 bytes (one segment)', async (t) => {
  for (const ns of NS) {
    for (const n of [0, 1, 100, SEGMENT - 1, SEGMENT]) {
      const msg = nodeCrypto.randomBytes(n)
      const sealed = cipher[ns].sealSync(msg, { passphrase: 'pw', aad: 'ctx', ...CHEAP })
      t.true(Buffer.isBuffer(sealed))
      t.is(sealed.length, PASS_HEADER + n + TAG, `${ns} ${n}: header and one tag`)
      t.deepEqual(cipher[ns].openSync(sealed, { passphrase: 'pw', aad: 'ctx' }), msg)
      t.deepEqual(await cipher[ns].openAsync(sealed, { passphrase: 'pw', aad: Buffer.from('ctx') }), msg)
    }
    // Past one segment: 16 bytes more per 64 KiB.
    const big = nodeCrypto.randomBytes(2 * SEGMENT + 1)
    const sealed = await cipher[ns].sealAsync(big, { passphrase: 'pw', ...CHEAP })
    t.is(sealed.length, PASS_HEADER + big.length + 3 * TAG)
    t.deepEqual(await cipher[ns].openAsync(sealed, { passphrase: 'pw' }), big)
    // Strings are UTF-8; opening returns text with outputFormat 'utf8'.
    const text = cipher[ns].sealSync('naïve café', { passphrase: 'pässwörd', ...CHEAP })
    t.is(cipher[ns].openSync(text, { passphrase: 'pässwörd', outputFormat: 'utf8' }), 'naïve café')
    t.is(cipher[ns].openSync(new Uint8Array(text), { passphrase: Buffer.from('pässwörd'), outputFormat: 'hex' }), Buffer.from('naïve café').toString('hex'))
  }
})

test('the header says what the one-call seal did: version 2, the algorithm, 64 KiB segments, key source 1, the library\'s Argon2id policy by default', async (t) => {
  for (const [i, ns] of NS.entries()) {
    const sealed = await cipher[ns].sealAsync('x', { passphrase: 'pw' })
    t.deepEqual(sealed.subarray(0, 9), Buffer.from('cjs.aead\x02'))
    t.is(sealed[9], i + 1)
    t.is(sealed.readUInt32BE(10), SEGMENT)
    t.is(sealed[14], 1)
    t.deepEqual([sealed.readUInt32BE(15), sealed.readUInt32BE(19), sealed.readUInt32BE(23)], [65536, 3, 4]) // kdf.argon2.defaults
    const key = await cipher[ns].deriveKeyAsync('pw', { memoryCost: 128, timeCost: 2 })
    const byKey = key.sealSync('x')
    t.is(byKey[14], 2)
    t.deepEqual([byKey.readUInt32BE(15), byKey.readUInt32BE(19), byKey.readUInt32BE(23)], [128, 2, 4])
  }
})

test('a sealed message is a stream of the format: decryptStream opens both key sources, and openSync opens a stream', async (t) => {
  for (const ns of NS) {
    const msg = nodeCrypto.randomBytes(3000)
    const sealed = cipher[ns].sealSync(msg, { passphrase: 'pw', aad: 'a', ...CHEAP })
    t.deepEqual(await openStream(ns, sealed, { passphrase: 'pw', aad: 'a' }), msg)
    const key = cipher[ns].deriveKeySync('pw', CHEAP)
    t.deepEqual(await openStream(ns, key.sealSync(msg, { aad: 'a' }), { passphrase: 'pw', aad: 'a' }), msg)
    const out = []
    const enc = cipher[ns].encryptStream({ passphrase: 'pw', segmentSize: 1024, ...CHEAP })
    await pipeline(Readable.from([msg]), enc, new Writable({ write: (c, e, cb) => cb(null, out.push(c)) }))
    t.deepEqual(cipher[ns].openSync(Buffer.concat(out), { passphrase: 'pw' }), msg)
  }
})

// ---- the independent implementation, both ways

test('the independent decoder opens our sealed messages (both key sources); our open reads its messages', async (t) => {
  t.log(`independent Argon2id: ${independent.argon2Backend()}`)
  for (const ns of NS) {
    for (const n of [0, 1, 5000]) {
      const msg = nodeCrypto.randomBytes(n)
      const aad = n === 1 ? undefined : nodeCrypto.randomBytes(n % 50)
      const o = { passphrase: 'correct horse battery staple', ...(aad ? { aad } : {}) }
      const key = cipher[ns].deriveKeySync(o.passphrase, CHEAP)
      for (const sealed of [cipher[ns].sealSync(msg, { ...o, ...CHEAP }), key.sealSync(msg, aad ? { aad } : {})]) {
        const theirs = await independent.open(sealed, o)
        if (theirs === null) return t.pass('no independent Argon2id here: not checked')
        t.deepEqual(theirs, msg)
        await t.throwsAsync(independent.open(sealed, { ...o, aad: 'other' }))
        await t.throwsAsync(independent.open(sealed, { ...o, passphrase: 'correct horse battery stapler' }))
      }
      // Theirs: key source 1, and key source 2 (a derived key's layout) under one Argon2id salt.
      const argon2Salt = nodeCrypto.randomBytes(16)
      for (const extra of [{}, { argon2Salt }]) {
        const sealed = await independent.seal(msg, { alg: ns, ...o, cost: COST, ...extra })
        t.is(sealed[14], extra.argon2Salt ? 2 : 1)
        t.deepEqual(cipher[ns].openSync(sealed, o), msg)
        t.deepEqual(await cipher[ns].openAsync(sealed, o), msg)
        t.throws(() => cipher[ns].openSync(sealed, { ...o, aad: 'other' }), FAILED)
      }
    }
  }
})

test('vectors/stream/sealed.json: every vector opens, by openSync, by decryptStream and by the independent decoder', async (t) => {
  const doc = require('./vectors/stream/sealed.json')
  t.true(doc.vectors.length >= 8)
  for (const v of doc.vectors) {
    const ns = v.algorithm === 'AES-256-GCM' ? 'aes' : 'xchacha20'
    const sealed = Buffer.from(v.sealed, 'hex')
    const plaintext = Buffer.from(v.plaintext, 'hex')
    const o = { passphrase: v.passphrase, ...(v.aad ? { aad: Buffer.from(v.aad, 'hex') } : {}) }
    t.is(sealed[14], v.keySource, v.name)
    t.is(sealed.length, (v.keySource === 2 ? KEY_HEADER : PASS_HEADER) + plaintext.length + TAG, v.name)
    t.deepEqual(cipher[ns].openSync(sealed, o), plaintext, v.name)
    t.deepEqual(await openStream(ns, sealed, o), plaintext, `${v.name}: decryptStream`)
    const theirs = await independent.open(sealed, o)
    if (theirs !== null) t.deepEqual(theirs, plaintext, `${v.name}: independent decoder`)
    t.throws(() => cipher[ns].openSync(sealed, { ...o, aad: 'other' }), FAILED)
    // The other algorithm's namespace refuses it, saying which it is.
    const other = ns === 'aes' ? 'xchacha20' : 'aes'
    const e = t.throws(() => cipher[other].openSync(sealed, o), FAILED)
    t.regex(e.message, new RegExp(`sealed with ${v.algorithm}`))
  }
})

// ---- refusals

test('a wrong passphrase or aad, every cut, an appended byte and every flipped bit are refused with ERR_CRYPTO_DECRYPT_FAILED', async (t) => {
  // Low ceilings: a flipped bit in the header's m or t must not start a large hash.
  const low = { maxMemoryCost: 1024, maxTimeCost: 4, maxParallelism: 8 }
  for (const ns of NS) {
    const key = cipher[ns].deriveKeySync('pw', CHEAP)
    const msg = Buffer.from('attack at dawn')
    for (const sealed of [cipher[ns].sealSync(msg, { passphrase: 'pw', aad: 'a', ...CHEAP }), key.sealSync(msg, { aad: 'a' })]) {
      const o = { passphrase: 'pw', aad: 'a', ...low }
      t.deepEqual(cipher[ns].openSync(sealed, o), msg)
      const wrong = t.throws(() => cipher[ns].openSync(sealed, { ...o, passphrase: 'pW' }), FAILED)
      t.regex(wrong.message, /not the one it was sealed with/)
      t.throws(() => cipher[ns].openSync(sealed, { ...o, aad: 'b' }), FAILED)
      t.throws(() => cipher[ns].openSync(sealed, { ...o, aad: undefined }), FAILED)
      await t.throwsAsync(cipher[ns].openAsync(sealed, { ...o, passphrase: 'pW' }), FAILED)
      for (let cut = 0; cut < sealed.length; cut++) t.throws(() => cipher[ns].openSync(sealed.subarray(0, cut), o), FAILED, `cut at ${cut}`)
      t.throws(() => cipher[ns].openSync(Buffer.concat([sealed, Buffer.from([0])]), o), FAILED)
      for (let bit = 0; bit < sealed.length * 8; bit++) {
        const bad = Buffer.from(sealed)
        bad[bit >> 3] ^= 1 << (bit & 7)
        t.throws(() => cipher[ns].openSync(bad, o), FAILED, `bit ${bit}`)
      }
    }
  }
})

test('the two-key forgery (a partitioning oracle) opens under the committed passphrase only, in both key sources', async (t) => {
  for (const argon2Salt of [undefined, nodeCrypto.randomBytes(16)]) {
    for (const commitTo of [0, 1]) {
      const secrets = ['alpha', 'beta']
      const sealed = forge(2, secrets, commitTo, argon2Salt)
      t.is(sealed.length, (argon2Salt ? KEY_HEADER : PASS_HEADER) + 32 + TAG)
      t.is(cipher.aes.openSync(sealed, { passphrase: secrets[commitTo] }).length, 32)
      const e = t.throws(() => cipher.aes.openSync(sealed, { passphrase: secrets[1 - commitTo] }), FAILED)
      // The segment verifies under that passphrase too: only the commitment refused it.
      t.regex(e.message, /not the one it was sealed with/)
      await t.throwsAsync(cipher.aes.openAsync(sealed, { passphrase: secrets[1 - commitTo] }), FAILED)
    }
  }
})

test('Argon2id costs in a header above the ceilings are refused before any work; raising a ceiling opens it', async (t) => {
  const sealed = cipher.xchacha20.sealSync('x', { passphrase: 'p', memoryCost: 2048, timeCost: 2, parallelism: 2 })
  for (const [ceiling, name] of [[{ maxMemoryCost: 2047 }, 'memoryCost'], [{ maxTimeCost: 1 }, 'timeCost'], [{ maxParallelism: 1 }, 'parallelism']]) {
    const e = t.throws(() => cipher.xchacha20.openSync(sealed, { passphrase: 'p', ...ceiling }), FAILED)
    t.regex(e.message, new RegExp(`${name}.*raise options\\.${Object.keys(ceiling)[0]}`))
    await t.throwsAsync(cipher.xchacha20.openAsync(sealed, { passphrase: 'p', ...ceiling }), FAILED)
  }
  t.is(cipher.xchacha20.openSync(sealed, { passphrase: 'p', maxMemoryCost: 2048, outputFormat: 'utf8' }), 'x')
  // The library's default ceilings: 2 GiB, 10 passes, 64 lanes.
  for (const [at, value] of [[15, (2 << 20) + 1], [19, 11], [23, 65]]) {
    const hostile = Buffer.from(sealed)
    hostile.writeUInt32BE(value, at)
    t.throws(() => cipher.xchacha20.openSync(hostile, { passphrase: 'p' }), FAILED)
  }
})

// ---- the derived key

test('a derived key opens only its own messages; the passphrase opens them all', async (t) => {
  for (const ns of NS) {
    const [a, b] = await Promise.all([cipher[ns].deriveKeyAsync('pw', CHEAP), cipher[ns].deriveKeyAsync('pw', CHEAP)])
    const byA = await a.sealAsync('from a', { aad: 'x' })
    t.is(await a.openAsync(byA, { aad: 'x', outputFormat: 'utf8' }), 'from a')
    t.is(cipher[ns].openSync(byA, { passphrase: 'pw', aad: 'x', outputFormat: 'utf8' }), 'from a')
    // Another derivation of the same passphrase has another Argon2id salt.
    const e = t.throws(() => b.openSync(byA, { aad: 'x' }), FAILED)
    t.regex(e.message, /not sealed by this derived key.*open it with the passphrase/)
    const oneCall = cipher[ns].sealSync('one call', { passphrase: 'pw', ...CHEAP })
    t.throws(() => a.openSync(oneCall), FAILED)
    t.throws(() => a.openSync(byA, { aad: 'y' }), FAILED)
    t.is(String(a), '[object PassphraseKey]')
  }
})

test('dispose() and Symbol.dispose wipe the key: later calls throw ERR_INVALID_STATE; calls already queued finish', async (t) => {
  const key = cipher.aes.deriveKeySync('pw', CHEAP)
  const sealed = key.sealSync('kept')
  const queued = key.openAsync(sealed, { outputFormat: 'utf8' })
  t.false(key.disposed)
  key[Symbol.dispose]()
  t.true(key.disposed)
  t.is(await queued, 'kept')
  const state = { instanceOf: Error, code: 'ERR_INVALID_STATE' }
  t.throws(() => key.sealSync('x'), state)
  t.throws(() => key.openSync(sealed), state)
  await t.throwsAsync(key.sealAsync('x'), state)
  await t.throwsAsync(key.openAsync(sealed), state)
  key.dispose()
  // The message still opens with the passphrase.
  t.is(cipher.aes.openSync(sealed, { passphrase: 'pw', outputFormat: 'utf8' }), 'kept')
})

test('async forms take a signal: an aborted call rejects with AbortError', async (t) => {
  const aborted = AbortSignal.abort()
  await t.throwsAsync(cipher.aes.sealAsync('x', { passphrase: 'p', signal: aborted }), { instanceOf: AbortError })
  await t.throwsAsync(cipher.aes.openAsync(Buffer.alloc(200), { passphrase: 'p', signal: aborted }), { instanceOf: AbortError })
  await t.throwsAsync(cipher.aes.deriveKeyAsync('p', { signal: aborted }), { instanceOf: AbortError })
  const key = cipher.aes.deriveKeySync('p', CHEAP)
  await t.throwsAsync(key.sealAsync('x', { signal: aborted }), { instanceOf: AbortError })
  // A long hash stops between passes.
  const ac = new AbortController()
  const slow = cipher.aes.deriveKeyAsync('p', { memoryCost: 65536, timeCost: 200, signal: ac.signal })
  setTimeout(() => ac.abort(), 50)
  await t.throwsAsync(slow, { instanceOf: AbortError })
})

// ---- bad arguments

test('bad arguments throw coded errors saying what was expected', async (t) => {
  const TYPE = { instanceOf: TypeError, code: 'ERR_INVALID_ARG_TYPE' }
  const VALUE = { instanceOf: TypeError, code: 'ERR_INVALID_ARG_VALUE' }
  const RANGE = { instanceOf: RangeError, code: 'ERR_OUT_OF_RANGE' }
  const { aes } = cipher
  t.throws(() => aes.sealSync('x'), TYPE)
  t.throws(() => aes.sealSync('x', { passphrase: 1 }), TYPE)
  t.throws(() => aes.sealSync('x', { passphrase: '' }), VALUE)
  t.throws(() => aes.sealSync(1, { passphrase: 'p' }), TYPE)
  t.throws(() => aes.sealSync('x', { passphrase: 'p', key: Buffer.alloc(32) }), VALUE)
  t.throws(() => aes.sealSync('x', { passphrase: 'p', segmentSize: 1024 }), VALUE)
  t.throws(() => aes.sealSync('x', { passphrase: 'p', maxMemoryCost: 1 }), VALUE)
  t.throws(() => aes.sealSync('x', { passphrase: 'p', memoryCost: 1.5 }), RANGE)
  t.throws(() => aes.sealSync('x', { passphrase: 'p', memoryCost: 4 }), RANGE) // Argon2 needs m >= 8p
  t.throws(() => aes.sealSync('x', { passphrase: 'p', timeCost: 0 }), RANGE)
  t.throws(() => aes.sealSync('x', { passphrase: 'p', aad: 5 }), TYPE)
  t.throws(() => aes.openSync('a string', { passphrase: 'p' }), TYPE)
  t.throws(() => aes.openSync(Buffer.alloc(1), { passphrase: 'p', memoryCost: 64 }), VALUE)
  t.throws(() => aes.openSync(Buffer.alloc(1), { passphrase: 'p', outputFormat: 'base32' }), VALUE)
  await t.throwsAsync(aes.sealAsync('x', { passphrase: '' }), VALUE)
  await t.throwsAsync(aes.openAsync('x', { passphrase: 'p' }), TYPE)
  await t.throwsAsync(aes.sealAsync('x', { passphrase: 'p', signal: 'no' }), TYPE)
  t.throws(() => aes.deriveKeySync(''), VALUE)
  t.throws(() => aes.deriveKeySync({}), TYPE)
  t.throws(() => aes.deriveKeySync('p', { aad: 'x' }), VALUE)
  t.throws(() => aes.deriveKeySync('p', { memoryCost: 4 }), RANGE)
  await t.throwsAsync(aes.deriveKeyAsync('p', { timeCost: -1 }), RANGE)
  const key = aes.deriveKeySync('p', CHEAP)
  t.throws(() => key.sealSync('x', { passphrase: 'p' }), VALUE)
  t.throws(() => key.sealSync('x', { memoryCost: 64 }), VALUE)
  t.throws(() => key.openSync('x'), TYPE)
  t.throws(() => new key.constructor(), { instanceOf: TypeError, code: 'ERR_ILLEGAL_CONSTRUCTOR' })
  // An empty or garbage input is a decryption failure, not a crash.
  t.throws(() => aes.openSync(Buffer.alloc(0), { passphrase: 'p' }), FAILED)
  t.throws(() => key.openSync(nodeCrypto.randomBytes(500)), FAILED)
})

// ---- types

test('index.d.ts: sealed messages and derived keys type-check as documented, and misuse does not', (t) => {
  const errors = typeErrors(`import { cipher, type PassphraseKey } from 'cryptographer.js'
async function main() {
  const a: Buffer = cipher.aes.sealSync('text', { passphrase: 'pw', aad: 'v1', memoryCost: 19456, timeCost: 2 })
  const b: Buffer = await cipher.xchacha20.sealAsync(new Uint8Array(4), { passphrase: Buffer.from('pw'), signal: AbortSignal.timeout(1000) })
  const c: string = cipher.aes.openSync(a, { passphrase: 'pw', aad: 'v1', outputFormat: 'utf8', maxMemoryCost: 1 << 18 })
  const d: Buffer = await cipher.xchacha20.openAsync(b, { passphrase: 'pw' })
  const key: PassphraseKey = await cipher.aes.deriveKeyAsync('pw', { memoryCost: 19456, signal: AbortSignal.timeout(5000) })
  const e: Buffer = key.sealSync('message', { aad: 'ctx' })
  const f: string = await key.openAsync(e, { aad: 'ctx', outputFormat: 'hex' })
  const g: boolean = key.disposed
  key[Symbol.dispose]()
  void [c, d, f, g]
  // @ts-expect-error the passphrase is required
  cipher.aes.sealSync('x', { aad: 'a' })
  // @ts-expect-error a sealed message is bytes, not a string
  cipher.aes.openSync('sealed', { passphrase: 'pw' })
  // @ts-expect-error the cost is the header's when opening
  cipher.aes.openSync(a, { passphrase: 'pw', memoryCost: 1024 })
  // @ts-expect-error a derived key takes no passphrase per message
  key.sealSync('x', { passphrase: 'pw' })
  // @ts-expect-error chacha20 (12-byte nonces) has no sealed messages
  cipher.chacha20.sealSync('x', { passphrase: 'pw' })
}
void main
`)
  t.deepEqual(errors, [])
  t.false('sealSync' in cipher.chacha20)
})
