'use strict'
// The streaming AEAD (docs/stream-format.md): encryptStream / decryptStream / encryptFile /
// decryptFile on cipher.aes and cipher.xchacha20. Round trips at 0 / 1 / segment ± 1 / many
// segments in every chunking; the committed vectors (versions 1 and 2) and random streams of ours
// decoded by an INDEPENDENT implementation written from the spec (helpers/stream-format.js, over
// node:crypto), and random streams it seals decoded by ours; every refusal (flipped bits, truncation, reordered,
// duplicated and appended segments, wrong key / passphrase / aad, empty input, hostile headers);
// plaintext released only after its tag; the temporary-file rule of decryptFile and encryptFile
// after failures and aborts; progress, abort, node-style errors, refused options; and the memory
// of 256 MiB files and streams in a child process (the streams against node's own).
const test = require('ava')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const nodeCrypto = require('node:crypto')
const { Readable, Writable } = require('node:stream')
const { once } = require('node:events')
const { pipeline } = require('node:stream/promises')
const { xchacha20poly1305 } = require('@noble/ciphers/chacha')
const { cipher, kdf } = require('..')
const { AbortError } = require('../lib/abort')
const { isError, rejects } = require('./helpers/assert')
const { checkChild, judgePair, runChild } = require('./helpers/rss')
const independent = require('./helpers/stream-format')

const NS = ['aes', 'xchacha20']
const MiB = 1 << 20
const KEY = Buffer.alloc(32, 0x42)
const FAILED = { instanceOf: Error, code: 'ERR_CRYPTO_DECRYPT_FAILED' }
// Version-2 header lengths (docs/stream-format.md), both algorithms: with a key, with a passphrase.
const HEADER = 79
const PASS_HEADER = 91
// Small Argon2id costs for tests (the default is 64 MiB, t = 3).
const CHEAP = { memoryCost: 64, timeCost: 1, parallelism: 1 }
// Decrypt ceilings low enough that a flipped bit in a header's m or t never starts a large hash.
const LOW_CEILINGS = { maxMemoryCost: 1024, maxTimeCost: 4, maxParallelism: 8 }
const DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'cryptographer-stream-'))
const BIG_DIR = fs.existsSync('/dev/shm') ? fs.mkdtempSync('/dev/shm/cryptographer-stream-') : DIR
test.after.always(() => {
  fs.rmSync(DIR, { recursive: true, force: true })
  fs.rmSync(BIG_DIR, { recursive: true, force: true })
})

const rnd = (n) => (n ? nodeCrypto.randomBytes(n) : Buffer.alloc(0))
let dirs = 0
const freshDir = () => fs.mkdtempSync(path.join(DIR, `d${dirs++}-`))

/** `data` cut at the given piece sizes (cycled), as a list of Buffers. */
function cut(data, sizes = [data.length || 1]) {
  const out = []
  for (let o = 0, i = 0; o < data.length; i++) {
    const n = Math.max(1, sizes[i % sizes.length])
    out.push(data.subarray(o, o + n))
    o += n
  }
  return out
}

/** Runs `chunks` through `transform`; resolves to the output, or rejects with the stream's error. */
async function through(transform, chunks) {
  const out = []
  await pipeline(
    Readable.from(chunks),
    transform,
    new Writable({
      write(c, e, cb) {
        out.push(c)
        cb()
      },
    }),
  )
  return Buffer.concat(out)
}

/** The options of the decrypting side (the segment size and Argon2 cost come from the header). */
const forOpen = ({ segmentSize, memoryCost, timeCost, parallelism, ...rest } = {}) => rest
const seal = (ns, plain, options, sizes) => through(cipher[ns].encryptStream(options), cut(plain, sizes))
const open = (ns, sealed, options, sizes) => through(cipher[ns].decryptStream(forOpen(options)), cut(sealed, sizes))

// ---- the independent implementation (helpers/stream-format.js, from docs/stream-format.md) ---

if (independent.argon2Backend() === null) {
  console.warn('[cipher-stream] no Argon2id here (node:crypto < 24.7 and no loadable argon2 package): passphrase streams are not checked by the independent implementation')
}

test('the independent implementation: its HKDF equals node\'s hkdfSync, its HChaCha20 the draft\'s vector and its XChaCha20-Poly1305 @noble/ciphers\'', (t) => {
  const ikm = rnd(32)
  const salt = rnd(32)
  const info = rnd(600)
  t.deepEqual(independent.hkdf(ikm, salt, info, 83), Buffer.from(nodeCrypto.hkdfSync('sha256', ikm, salt, info, 83)))
  // draft-irtf-cfrg-xchacha-03, 2.2.1.
  const key = Buffer.from([...Array(32).keys()])
  t.is(independent.hchacha20(key, Buffer.from('000000090000004a0000000031415927', 'hex')).toString('hex'), '82413b4227b27bfed30e42508a877d73a0f9e4d58a74a853c12ec41326d3ecdc')
  // XChaCha20-Poly1305 as the implementation builds it (ChaCha20-Poly1305 under the HChaCha20
  // subkey) opens what @noble/ciphers' XChaCha20-Poly1305 sealed.
  const k = rnd(32)
  const nonce = rnd(24)
  const plain = rnd(100)
  const sealed = Buffer.from(xchacha20poly1305(k, nonce).encrypt(plain))
  const d = nodeCrypto.createDecipheriv('chacha20-poly1305', independent.hchacha20(k, nonce.subarray(0, 16)), Buffer.concat([Buffer.alloc(4), nonce.subarray(16)]), { authTagLength: 16 })
  d.setAuthTag(sealed.subarray(100))
  t.deepEqual(Buffer.concat([d.update(sealed.subarray(0, 100)), d.final()]), plain)
})

const independentOpen = independent.open

// ---- vectors ------------------------------------------------------------------------------

const VECTORS = ['aes-256-gcm', 'xchacha20-poly1305'].flatMap((f) => [1, 2].map((v) => [`${f}-v${v}`, v, require(`./vectors/stream/${f}-v${v}.json`)]))
const nsOf = { 'AES-256-GCM': 'aes', 'XChaCha20-Poly1305': 'xchacha20' }

function vectorOptions(v) {
  const o = v.key ? { key: Buffer.from(v.key, 'hex') } : { passphrase: v.passphrase }
  if (v.aad) o.aad = Buffer.from(v.aad, 'hex')
  return o
}

for (const [file, version, doc] of VECTORS) {
  test(`vectors/stream/${file}.json: every vector decodes, by the library (stream and file) and by the independent decoder`, async (t) => {
    const ns = nsOf[doc.algorithm]
    t.true(doc.vectors.length >= 12)
    // Version 1 is read only on request.
    const v1 = version === 1 ? { allowV1: true } : {}
    for (const v of doc.vectors) {
      const stream = Buffer.from(v.stream, 'hex')
      const plaintext = Buffer.from(v.plaintext, 'hex')
      const o = vectorOptions(v)
      t.is(stream[8], version, v.name)
      t.is(stream.readUInt32BE(10), v.segmentSize, v.name)
      t.deepEqual(await open(ns, stream, { ...o, ...v1 }), plaintext, `${v.name}: decryptStream`)
      t.deepEqual(await open(ns, stream, { ...o, ...v1 }, [1, 7, 100]), plaintext, `${v.name}: decryptStream, small chunks`)
      const dir = freshDir()
      fs.writeFileSync(path.join(dir, 'in'), stream)
      const r = await cipher[ns].decryptFile(path.join(dir, 'in'), path.join(dir, 'out'), { ...o, ...v1 })
      t.is(r.bytes, plaintext.length)
      t.deepEqual(fs.readFileSync(path.join(dir, 'out')), plaintext, `${v.name}: decryptFile`)
      const theirs = await independentOpen(stream, o)
      if (theirs !== null) t.deepEqual(theirs, plaintext, `${v.name}: independent decoder`)
      // A vector under another aad, or changed anywhere, is refused by both.
      await t.throwsAsync(open(ns, stream, { ...o, ...v1, aad: 'other' }), FAILED)
      // (The independent decoder needs the argon2 package for a passphrase; without it, it
      // returns null and checks nothing.)
      if (theirs !== null) await t.throwsAsync(independentOpen(stream, { ...o, aad: 'other' }))
      if (version === 1) {
        const e = await t.throwsAsync(open(ns, stream, o), FAILED)
        t.regex(e.message, /version-1 stream, which does not commit to its key.*\{ allowV1: true \}/)
      }
    }
  })
}

// ---- round trips --------------------------------------------------------------------------

const S = 1024
const SIZES = [0, 1, S - 1, S, S + 1, 2 * S, 5 * S + 7, 64 * S + 3]

for (const ns of NS) {
  test(`${ns}: round trips at 0 / 1 / segment ± 1 / many segments, in every chunking, decoded by the independent decoder`, async (t) => {
    for (const n of SIZES) {
      const plain = rnd(n)
      const aad = n % 2 ? rnd(n % 50) : undefined
      const o = { key: rnd(32), aad, segmentSize: S }
      const whole = await seal(ns, plain, o)
      // The sealed size: the header, every segment's tag, at least one segment.
      t.is(whole.length, HEADER + n + 16 * Math.max(1, Math.ceil(n / S)), `n=${n}`)
      t.deepEqual(await independentOpen(whole, o), plain, `n=${n}: independent decoder`)
      for (const sizes of [[1], [7, 1, 300], [S - 1], [S], [S + 1], [3 * S + 5], [65536]]) {
        const sealed = await seal(ns, plain, o, sizes)
        t.deepEqual(await open(ns, sealed, o, sizes), plain, `n=${n}, pieces ${sizes}`)
        t.deepEqual(await open(ns, whole, o, [...sizes].reverse()), plain, `n=${n}, pieces ${sizes}`)
      }
    }
  })

  test(`${ns}: random streams of ours (random sizes, segment sizes, aad up to 3 KiB, chunkings) decode with the independent decoder`, async (t) => {
    for (let i = 0; i < 40; i++) {
      const segmentSize = [1024, 1025, 4096, 65536, 100000][i % 5]
      const plain = rnd(nodeCrypto.randomInt(0, 5 * segmentSize))
      const o = { key: rnd(32), segmentSize, aad: i % 3 ? rnd(nodeCrypto.randomInt(0, 3072)) : undefined }
      const sizes = Array.from({ length: 5 }, () => nodeCrypto.randomInt(1, 2 * segmentSize))
      const sealed = await seal(ns, plain, o, sizes)
      t.deepEqual(await independentOpen(sealed, o), plain)
      t.deepEqual(await open(ns, sealed, o, sizes.reverse()), plain)
    }
  })

  test(`${ns}: random streams the independent encoder seals (version 2: random sizes, segment sizes, aad, keys and passphrases) open with ours`, async (t) => {
    for (let i = 0; i < 40; i++) {
      const segmentSize = [1024, 1025, 4096, 65536, 100000][i % 5]
      const plain = rnd(nodeCrypto.randomInt(0, 5 * segmentSize))
      const aad = i % 3 ? rnd(nodeCrypto.randomInt(0, 3072)) : undefined
      const secret = i % 4 === 3 ? { passphrase: `pässwörd ${i}` } : { key: rnd(32) }
      const sealed = await independent.seal(plain, { alg: ns, ...secret, aad, segmentSize, cost: { m: 64 + i, t: 1 + (i % 2), p: 1 + (i % 3) } })
      if (sealed === null) continue // no Argon2id here (warned above)
      t.is(sealed.length, (secret.key ? HEADER : PASS_HEADER) + plain.length + 16 * Math.max(1, Math.ceil(plain.length / segmentSize)))
      const sizes = Array.from({ length: 3 }, () => nodeCrypto.randomInt(1, 2 * segmentSize))
      t.deepEqual(await open(ns, sealed, { ...secret, aad }, sizes), plain, `stream ${i}`)
      // And a wrong aad (or its absence) is refused by the commitment.
      const e = await t.throwsAsync(open(ns, sealed, { ...secret, aad: Buffer.concat([aad ?? Buffer.alloc(0), Buffer.from('!')]) }), FAILED)
      t.regex(e.message, /not the one it was sealed with/)
    }
  })

  test(`${ns}: passphrase streams (Argon2id, its parameters and salt in the header) round trip and decode with the independent decoder`, async (t) => {
    for (const [n, cost] of [[0, CHEAP], [S + 1, { memoryCost: 256, timeCost: 2, parallelism: 2 }]]) {
      const plain = rnd(n)
      const sealed = await seal(ns, plain, { passphrase: 'correct horse', aad: 'x', segmentSize: S, ...cost })
      const h = PASS_HEADER
      t.is(sealed[14], 1)
      t.deepEqual([sealed.readUInt32BE(15), sealed.readUInt32BE(19), sealed.readUInt32BE(23)], [cost.memoryCost, cost.timeCost, cost.parallelism])
      t.is(sealed.length, h + n + 16 * Math.max(1, Math.ceil(n / S)))
      t.deepEqual(await open(ns, sealed, { passphrase: Buffer.from('correct horse'), aad: 'x' }), plain)
      const theirs = await independentOpen(sealed, { passphrase: 'correct horse', aad: 'x' })
      if (theirs !== null) t.deepEqual(theirs, plain)
      await t.throwsAsync(open(ns, sealed, { passphrase: 'correct horsE', aad: 'x' }), FAILED)
    }
    // The default cost is the library's one Argon2 parameter set: Argon2id 64 MiB, t = 3, p = 4.
    const sealed = await seal(ns, Buffer.from('x'), { passphrase: 'p' })
    t.deepEqual([sealed.readUInt32BE(15), sealed.readUInt32BE(19), sealed.readUInt32BE(23)], [65536, 3, 4])
    t.deepEqual([65536, 3, 4], [kdf.argon2.defaults.memoryCost, kdf.argon2.defaults.timeCost, kdf.argon2.defaults.parallelism])
    t.is(sealed.readUInt32BE(10), 65536)
  })

  test(`${ns}: files round trip at 0 / 1 / segment ± 1 / many segments, and equal the streams' format both ways`, async (t) => {
    const dir = freshDir()
    const p = (name) => path.join(dir, name)
    for (const n of [...SIZES, 3 * MiB + 17]) {
      const plain = rnd(n)
      const o = { key: KEY, segmentSize: S, aad: 'file' }
      fs.writeFileSync(p('plain'), plain)
      const enc = await cipher[ns].encryptFile(p('plain'), p('sealed'), o)
      const sealed = fs.readFileSync(p('sealed'))
      t.is(enc.bytes, sealed.length)
      t.deepEqual(await independentOpen(sealed, o), plain, `n=${n}: encryptFile, independent decoder`)
      t.deepEqual(await open(ns, sealed, o), plain, `n=${n}: encryptFile, decryptStream`)
      const dec = await cipher[ns].decryptFile(p('sealed'), p('back'), forOpen(o))
      t.is(dec.bytes, n)
      t.deepEqual(fs.readFileSync(p('back')), plain, `n=${n}: decryptFile`)
      fs.writeFileSync(p('from-stream'), await seal(ns, plain, o, [4000]))
      await cipher[ns].decryptFile(p('from-stream'), p('back2'), forOpen(o))
      t.deepEqual(fs.readFileSync(p('back2')), plain, `n=${n}: encryptStream, decryptFile`)
    }
    // Default segment size (64 KiB) and a passphrase.
    const plain = rnd(200000)
    fs.writeFileSync(p('plain'), plain)
    await cipher[ns].encryptFile(p('plain'), p('sealed'), { passphrase: 'pw', ...CHEAP })
    t.is(fs.readFileSync(p('sealed')).readUInt32BE(10), 65536)
    await cipher[ns].decryptFile(p('sealed'), p('back'), { passphrase: 'pw' })
    t.deepEqual(fs.readFileSync(p('back')), plain)
    // In place: src and dst the same path.
    await cipher[ns].encryptFile(p('plain'), p('plain'), { key: KEY })
    await cipher[ns].decryptFile(p('plain'), p('plain'), { key: KEY })
    t.deepEqual(fs.readFileSync(p('plain')), plain)
  })

  test(`${ns}: every stream has fresh salts and nonce prefixes: one key seals any number of streams`, async (t) => {
    const plain = Buffer.alloc(100)
    const a = await seal(ns, plain, { key: KEY })
    const b = await seal(ns, plain, { key: KEY })
    t.notDeepEqual(a.subarray(15), b.subarray(15))
    t.deepEqual(a.subarray(0, 15), b.subarray(0, 15))
  })
}

// ---- refusals -----------------------------------------------------------------------------

/** Each refusal is checked through decryptStream and decryptFile (which must leave nothing behind). */
async function refused(t, ns, sealed, options, what) {
  await t.throwsAsync(open(ns, sealed, options), FAILED, `${what}: decryptStream`)
  const dir = freshDir()
  fs.writeFileSync(path.join(dir, 'in'), sealed)
  await t.throwsAsync(cipher[ns].decryptFile(path.join(dir, 'in'), path.join(dir, 'out'), forOpen(options)), FAILED, `${what}: decryptFile`)
  t.deepEqual(fs.readdirSync(dir), ['in'], `${what}: decryptFile leaves no dst and no temporary file`)
}

/** Segment `i` of a sealed stream with header length `h` and segment size `s`. */
const segment = (sealed, h, s, i) => sealed.subarray(h + i * (s + 16), h + (i + 1) * (s + 16))

for (const ns of NS) {
  const H = HEADER

  test(`${ns}: refuses a flipped bit anywhere: every bit of the header, a bit of every byte after it`, async (t) => {
    const plain = rnd(2 * S + 500)
    const o = { key: KEY, aad: 'a', segmentSize: S }
    const sealed = await seal(ns, plain, o)
    for (let bit = 0; bit < sealed.length * 8; bit += bit < H * 8 ? 1 : 9) {
      const bad = Buffer.from(sealed)
      bad[bit >> 3] ^= 1 << (bit & 7)
      await t.throwsAsync(open(ns, bad, o), FAILED, `bit ${bit}`)
    }
    await refused(t, ns, Buffer.concat([sealed.subarray(0, 20), Buffer.from([sealed[20] ^ 0x80]), sealed.subarray(21)]), o, 'a header bit')
    const bad = Buffer.from(sealed)
    bad[sealed.length - 1] ^= 1
    await refused(t, ns, bad, o, 'the last tag')
  })

  test(`${ns}: refuses a flipped bit in every bit of a passphrase header (Argon2id fields included) without a large hash`, async (t) => {
    const o = { passphrase: 'pw', segmentSize: S }
    const sealed = await seal(ns, rnd(100), { ...o, ...CHEAP })
    for (let bit = 0; bit < PASS_HEADER * 8; bit++) {
      const bad = Buffer.from(sealed)
      bad[bit >> 3] ^= 1 << (bit & 7)
      await t.throwsAsync(open(ns, bad, { ...o, ...LOW_CEILINGS }), FAILED, `bit ${bit}`)
    }
  })

  test(`${ns}: refuses truncation anywhere (at and between segment boundaries, inside the header), reordered, duplicated and appended segments`, async (t) => {
    const o = { key: KEY, segmentSize: S }
    const sealed = await seal(ns, rnd(3 * S + 10), o)
    const seg = (i) => segment(sealed, H, S, i)
    const header = sealed.subarray(0, H)
    for (let n = 0; n < sealed.length; n++) {
      await t.throwsAsync(open(ns, sealed.subarray(0, n), o, [n % 2000 || 1]), FAILED, `cut at ${n}`)
    }
    for (const n of [0, 1, H - 1, H, H + 1, H + S + 16, H + 2 * (S + 16), sealed.length - 1]) {
      await refused(t, ns, sealed.subarray(0, n), o, `cut at ${n}`)
    }
    const cases = {
      'segments 0 and 1 swapped': [header, seg(1), seg(0), seg(2), seg(3)],
      'segment 0 twice': [header, seg(0), seg(0), seg(2), seg(3)],
      'segment 1 dropped': [header, seg(0), seg(2), seg(3)],
      'the last segment twice': [header, seg(0), seg(1), seg(2), seg(3), seg(3)],
      'one byte appended': [sealed, Buffer.from([0])],
      'a whole segment appended': [sealed, seg(1)],
      '16 bytes appended (an empty last segment)': [sealed, sealed.subarray(sealed.length - 16)],
    }
    for (const [what, parts] of Object.entries(cases)) await refused(t, ns, Buffer.concat(parts), o, what)
    // A segment of another stream under the same key, at the same position.
    const other = await seal(ns, rnd(3 * S + 10), o)
    await refused(t, ns, Buffer.concat([header, seg(0), segment(other, H, S, 1), seg(2), seg(3)]), o, 'a segment of another stream')
  })

  test(`${ns}: refuses a wrong key, passphrase or aad, an empty input, a header alone, the other algorithm and the other key source`, async (t) => {
    const o = { key: KEY, aad: 'a' }
    const sealed = await seal(ns, rnd(500), o)
    await refused(t, ns, sealed, { key: rnd(32), aad: 'a' }, 'wrong key')
    await refused(t, ns, sealed, { key: KEY, aad: 'b' }, 'wrong aad')
    await refused(t, ns, sealed, { key: KEY }, 'missing aad')
    await refused(t, ns, Buffer.alloc(0), o, 'empty input')
    await refused(t, ns, sealed.subarray(0, H), o, 'a header alone')
    await refused(t, ns, sealed, { passphrase: 'k', aad: 'a' }, 'a passphrase for a key stream')
    const other = NS.find((x) => x !== ns)
    const err = await t.throwsAsync(open(other, sealed, o), FAILED)
    t.regex(err.message, /sealed with/)
    const pw = await seal(ns, rnd(10), { passphrase: 'right', ...CHEAP })
    await refused(t, ns, pw, { passphrase: 'wrong' }, 'wrong passphrase')
    await refused(t, ns, pw, { key: KEY }, 'a key for a passphrase stream')
    // Not this format at all.
    await refused(t, ns, rnd(200), o, 'random bytes')
  })

  // Serial: timed against a reference measured just before, with no other test on the pool.
  test.serial(`${ns}: a header asking for more Argon2id than the ceilings is refused before any work; raising the ceiling accepts it`, async (t) => {
    const sealed = await seal(ns, Buffer.from('hi'), { passphrase: 'pw', memoryCost: 2048, timeCost: 2, parallelism: 1 })
    const err = await t.throwsAsync(open(ns, sealed, { passphrase: 'pw', maxMemoryCost: 1024 }), FAILED)
    t.regex(err.message, /maxMemoryCost/)
    const e2 = await t.throwsAsync(open(ns, sealed, { passphrase: 'pw', maxTimeCost: 1 }), FAILED)
    t.regex(e2.message, /maxTimeCost/)
    t.deepEqual(await open(ns, sealed, { passphrase: 'pw', maxMemoryCost: 2048 }), Buffer.from('hi'))
    // The default ceilings refuse a 4 GiB header (forged: the hash would never run anyway). Its
    // Argon2id (t = 2) would cost at least 128 times one pass over 64 MiB, timed here first.
    const s = performance.now()
    await seal(ns, Buffer.from('x'), { passphrase: 'pw', memoryCost: 65536, timeCost: 1, parallelism: 1 })
    const pass = performance.now() - s
    const forged = Buffer.from(sealed)
    forged.writeUInt32BE(4 << 20, 15)
    const t0 = performance.now()
    const e3 = await t.throwsAsync(open(ns, forged, { passphrase: 'pw' }), FAILED)
    t.regex(e3.message, /memoryCost.*2097152/)
    const took = performance.now() - t0
    t.true(took < 16 * pass, `refused after ${took.toFixed(0)} ms; one 64 MiB pass takes ${pass.toFixed(0)} ms`)
  })

  test(`${ns}: decryptStream pushes a segment's plaintext only after its tag verified, whatever the chunking`, async (t) => {
    const o = { key: KEY, segmentSize: S }
    const plain = rnd(6 * S + 100)
    const sealed = await seal(ns, plain, o)
    for (const k of [0, 2, 5, 6]) {
      const bad = Buffer.from(sealed)
      bad[H + k * (S + 16) + 5] ^= 4
      for (const sizes of [[1], [S + 16], [3000], [bad.length]]) {
        const pushed = []
        const d = cipher[ns].decryptStream(forOpen(o))
        d.on('data', (c) => pushed.push(c))
        await t.throwsAsync(pipeline(Readable.from(cut(bad, sizes)), d), FAILED)
        const got = Buffer.concat(pushed)
        // Whole segments before k, nothing else (a chunk that completes good segments and the
        // bad one fails whole: what it completed is not released either).
        t.true(got.length <= k * S && got.length % S === 0, `segment ${k} bad, pieces ${sizes}: ${got.length} bytes`)
        t.deepEqual(got, plain.subarray(0, got.length))
        if (sizes[0] <= S + 16) t.is(got.length, k * S, `segment ${k} bad, pieces ${sizes}`)
      }
    }
  })
}

// ---- an enclosing format's lead (crypto.hybrid) ----------------------------------------------

test('a key resolved from an enclosing format\'s lead (crypto.hybrid.decryptStream) is filled with zeros once the stream holds it', async (t) => {
  const { LEAD } = require('../lib/cipher-stream')
  const head = Buffer.from('enclosing format head')
  const plain = rnd(3000)
  const sealed = await seal('aes', plain, { key: KEY, segmentSize: S, [LEAD]: head })
  t.deepEqual(sealed.subarray(0, head.length), head)
  const handed = []
  const lead = {
    length: head.length,
    async secret(bytes) {
      t.deepEqual(bytes, head)
      handed.push(Buffer.from(KEY))
      return handed.at(-1)
    },
  }
  t.deepEqual(await through(cipher.aes.decryptStream({ [LEAD]: lead }), cut(sealed, [7])), plain)
  // Also when the stream is aborted while the key is being resolved.
  const c = new AbortController()
  const slow = { length: head.length, secret: async () => (c.abort(), handed.push(Buffer.from(KEY)), handed.at(-1)) }
  const aborted = cipher.aes.decryptStream({ [LEAD]: slow, signal: c.signal })
  // pipeline() reports whichever stream failed first (Node 24 on: often the source, with
  // ERR_STREAM_PREMATURE_CLOSE); the decrypting stream itself must end with the AbortError.
  await t.throwsAsync(through(aborted, [sealed]))
  t.is(aborted.errored?.name, 'AbortError')
  t.is(handed.length, 2)
  for (const k of handed) t.true(k.every((b) => b === 0))
})

// ---- files: the temporary-file rule, abort, progress, errors ------------------------------

function bigFile(name, size) {
  const p = path.join(BIG_DIR, name)
  fs.closeSync(fs.openSync(p, 'w'))
  fs.truncateSync(p, size)
  return p
}

const posix = process.platform === 'win32' ? test.skip : test

posix('every file output (aes, xchacha20, age, hybrid) replaces a symlink at dst with a new 0600 file: the link\'s target keeps its content, mode and hard links', async (t) => {
  const { hybrid } = require('..')
  const { publicKey, privateKey } = hybrid.generateKeypair()
  const AGE = { passphrase: 'pw', workFactor: 2 }
  const dir = freshDir()
  const p = (n) => path.join(dir, n)
  fs.writeFileSync(p('plain'), 'new plaintext')
  const outputs = {
    'aes.encryptFile': (dst) => cipher.aes.encryptFile(p('plain'), dst, { key: KEY }),
    'aes.decryptFile': async (dst) => (await cipher.aes.encryptFile(p('plain'), p('aes'), { key: KEY }), cipher.aes.decryptFile(p('aes'), dst, { key: KEY })),
    'xchacha20.decryptFile': async (dst) => (await cipher.xchacha20.encryptFile(p('plain'), p('xc'), { key: KEY }), cipher.xchacha20.decryptFile(p('xc'), dst, { key: KEY })),
    'age.encryptFile': (dst) => cipher.age.encryptFile(p('plain'), dst, AGE),
    'age.decryptFile': async (dst) => (await cipher.age.encryptFile(p('plain'), p('age'), AGE), cipher.age.decryptFile(p('age'), dst, { passphrase: 'pw' })),
    'hybrid.decryptFile': async (dst) => (await hybrid.encryptFile(p('plain'), p('hy'), publicKey), hybrid.decryptFile(p('hy'), dst, privateKey)),
  }
  const umask = process.umask(0o022)
  try {
    for (const [name, write] of Object.entries(outputs)) {
      // A symlink to an existing 0644 file that has a second hard link, and a dangling symlink.
      fs.writeFileSync(p('target'), 'old')
      fs.chmodSync(p('target'), 0o644)
      fs.linkSync(p('target'), p('hard'))
      fs.symlinkSync(p('target'), p('link'))
      fs.symlinkSync(p('nowhere'), p('dangling'))
      for (const dst of ['link', 'dangling']) {
        await write(p(dst))
        const st = fs.lstatSync(p(dst))
        t.true(st.isFile(), `${name} ${dst}: a regular file now`)
        t.is(st.mode & 0o777, 0o600, `${name} ${dst}`)
      }
      t.is(fs.readFileSync(p('target'), 'utf8'), 'old', name)
      t.is(fs.statSync(p('target')).mode & 0o777, 0o644, name)
      t.is(fs.statSync(p('target')).nlink, 2, name)
      t.false(fs.existsSync(p('nowhere')), name)
      // An existing regular file is replaced by a new one, 0600 whatever its mode was.
      await write(p('hard'))
      t.is(fs.statSync(p('hard')).mode & 0o777, 0o600, name)
      t.is(fs.statSync(p('target')).nlink, 1, name)
      t.is(fs.readFileSync(p('target'), 'utf8'), 'old', name)
      if (name.includes('decrypt')) t.is(fs.readFileSync(p('link'), 'utf8'), 'new plaintext', name)
      for (const n of ['target', 'hard', 'link', 'dangling']) fs.rmSync(p(n))
    }
  } finally {
    process.umask(umask)
  }
  t.false(fs.readdirSync(dir).some((n) => n.endsWith('.tmp')))
})

test('decryptFile after a failure leaves an existing dst untouched and no temporary file; encryptFile likewise', async (t) => {
  const dir = freshDir()
  const p = (n) => path.join(dir, n)
  fs.writeFileSync(p('plain'), rnd(5 * S))
  await cipher.aes.encryptFile(p('plain'), p('sealed'), { key: KEY, segmentSize: S })
  const sealed = fs.readFileSync(p('sealed'))
  fs.writeFileSync(p('dst'), 'precious')
  for (const bad of [sealed.subarray(0, sealed.length - 1), Buffer.concat([sealed, Buffer.from('x')])]) {
    fs.writeFileSync(p('bad'), bad)
    await t.throwsAsync(cipher.aes.decryptFile(p('bad'), p('dst'), { key: KEY }), FAILED)
    t.is(fs.readFileSync(p('dst'), 'utf8'), 'precious')
    t.deepEqual(fs.readdirSync(dir).sort(), ['bad', 'dst', 'plain', 'sealed'])
  }
  // Success replaces dst.
  await cipher.aes.decryptFile(p('sealed'), p('dst'), { key: KEY })
  t.deepEqual(fs.readFileSync(p('dst')), fs.readFileSync(p('plain')))
  // encryptFile of a missing source leaves the existing dst.
  fs.writeFileSync(p('dst'), 'precious')
  await rejects(t, cipher.aes.encryptFile(p('missing'), p('dst'), { key: KEY }), Error, 'ENOENT')
  t.is(fs.readFileSync(p('dst'), 'utf8'), 'precious')
  t.deepEqual(fs.readdirSync(dir).sort(), ['bad', 'dst', 'plain', 'sealed'])
  if (process.platform !== 'win32') t.is(fs.statSync(p('sealed')).mode & 0o777, 0o600)
})

for (const ns of NS) {
  test(`${ns}: abort (queued, at once, after progress) rejects with AbortError and leaves no dst and no temporary file`, async (t) => {
    // 512 MiB: long enough (about 150 ms at 3.3 GB/s) that a report every ~50 ms comes first.
    const src = bigFile(`abort-src-${ns}`, 512 * MiB)
    const dir = fs.mkdtempSync(path.join(BIG_DIR, 'abort-'))
    const sealedPath = path.join(BIG_DIR, `abort-sealed-${ns}`)
    await cipher[ns].encryptFile(src, sealedPath, { key: KEY })
    for (const [op, from] of [['encryptFile', src], ['decryptFile', sealedPath]]) {
      // Before it starts.
      const pre = AbortSignal.abort()
      await t.throwsAsync(cipher[ns][op](from, path.join(dir, 'out'), { key: KEY, signal: pre }), { instanceOf: AbortError })
      // Right after the call, and once progress was reported. On a loaded machine, or a runtime
      // that delivers reports late, the job can complete before its first report: it then
      // fulfilled with its output whole, and the case is tried again, up to three times.
      for (const when of ['now', 'progress']) {
        let stopped = false
        for (let attempt = 0; attempt < 3 && !stopped; attempt++) {
          const c = new AbortController()
          let calls = 0
          let settled = false
          const promise = cipher[ns][op](from, path.join(dir, 'out'), {
            key: KEY,
            signal: c.signal,
            onProgress: ({ bytes, total }) => {
              t.false(settled, 'no progress after the Promise settled')
              t.true(bytes > 0 && bytes <= total)
              if (calls++ === 0) c.abort()
            },
          })
          if (when === 'now') c.abort()
          const outcome = await promise.then((value) => ({ value }), (error) => ({ error }))
          settled = true
          if (outcome.error === undefined) {
            t.is(when, 'progress', 'an abort right after the call stops the job')
            t.is(calls, 0, 'a report came before the job completed, and its abort did not stop it')
            t.is(fs.statSync(path.join(dir, 'out')).size, outcome.value.bytes, 'the output is whole')
            fs.rmSync(path.join(dir, 'out'))
            t.log(`${op}: attempt ${attempt + 1} completed before its first progress report`)
            continue
          }
          t.true(outcome.error instanceof AbortError)
          t.is(outcome.error.code, 'ABORT_ERR')
          t.deepEqual(fs.readdirSync(dir), [], `${op}, abort ${when}`)
          stopped = true
        }
        t.true(stopped, `${op}: aborted ${when}`)
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 120))
    fs.rmSync(src)
    fs.rmSync(sealedPath)
  })
}

test('an abort made after the pool finished but before the job completed on the main thread still leaves no dst (the rename waits for the main thread)', async (t) => {
  const dir = freshDir()
  const p = (n) => path.join(dir, n)
  fs.writeFileSync(p('plain'), rnd(3 * S))
  await cipher.aes.encryptFile(p('plain'), p('sealed'), { key: KEY, segmentSize: S })
  for (const [op, from] of [['encryptFile', 'plain'], ['decryptFile', 'sealed']]) {
    const c = new AbortController()
    const promise = cipher.aes[op](p(from), p('out'), { key: KEY, signal: c.signal })
    // Hold the main thread while the pool runs the whole job, then abort before it can settle.
    const t0 = Date.now()
    while (Date.now() - t0 < 300) {}
    c.abort()
    await t.throwsAsync(promise, { instanceOf: AbortError }, op)
    t.deepEqual(fs.readdirSync(dir).sort(), ['plain', 'sealed'], op)
  }
  // An abort after the Promise settled changes nothing.
  const c = new AbortController()
  t.is((await cipher.aes.decryptFile(p('sealed'), p('out'), { key: KEY, signal: c.signal })).bytes, 3 * S)
  c.abort()
  t.is(fs.statSync(p('out')).size, 3 * S)
})

test('onProgress reports the source bytes read, with their total, at most every ~50 ms and never after the Promise settled', async (t) => {
  const src = bigFile('progress-src', 128 * MiB)
  const dst = path.join(BIG_DIR, 'progress-dst')
  const seen = []
  let settled = false
  const r = await cipher.aes.encryptFile(src, dst, {
    key: KEY,
    onProgress: (p) => {
      t.false(settled)
      seen.push(p)
    },
  }).finally(() => {
    settled = true
  })
  t.is(r.bytes, 128 * MiB + HEADER + 16 * 2048)
  for (const p of seen) t.is(p.total, 128 * MiB)
  for (let i = 1; i < seen.length; i++) t.true(seen[i].bytes > seen[i - 1].bytes)
  await new Promise((resolve) => setTimeout(resolve, 120))
  t.false(seen.length > 0 && seen.at(-1).bytes > 128 * MiB)
  // An exception in onProgress becomes the rejection and removes the temporary file.
  const boom = new Error('from onProgress')
  const err = await t.throwsAsync(cipher.aes.decryptFile(dst, path.join(BIG_DIR, 'progress-back'), {
    key: KEY,
    onProgress: () => {
      throw boom
    },
  }))
  t.is(err, boom)
  t.false(fs.readdirSync(BIG_DIR).some((n) => n.includes('progress-back')))
  fs.rmSync(src)
  fs.rmSync(dst)
})

test('file errors are node-style (ENOENT, EISDIR) with both paths; refused options throw (streams) or reject (files) with stable codes', async (t) => {
  const dir = freshDir()
  const plain = path.join(dir, 'plain')
  fs.writeFileSync(plain, 'x')
  const e1 = await t.throwsAsync(cipher.aes.encryptFile(path.join(dir, 'nope'), path.join(dir, 'out'), { key: KEY }))
  t.is(e1.code, 'ENOENT')
  t.is(e1.syscall, 'open')
  t.is(e1.path, path.join(dir, 'nope'))
  t.is(e1.dest, path.join(dir, 'out'))
  t.regex(e1.message, /^ENOENT: no such file or directory, open '.*nope' -> '.*out'$/)
  const e2 = await t.throwsAsync(cipher.aes.encryptFile(dir, path.join(dir, 'out'), { key: KEY }))
  t.is(e2.code, 'EISDIR')
  const e3 = await t.throwsAsync(cipher.xchacha20.encryptFile(plain, dir, { key: KEY }))
  t.is(e3.code, 'EISDIR')
  const e4 = await t.throwsAsync(cipher.aes.encryptFile(plain, path.join(dir, 'no', 'such', 'dir'), { key: KEY }))
  t.is(e4.code, 'ENOENT')
  t.deepEqual(fs.readdirSync(dir), ['plain'])
  if (process.platform !== 'win32') {
    // A device is refused (renaming a file over it would replace the device node).
    await rejects(t, cipher.aes.encryptFile(plain, '/dev/null', { key: KEY }), TypeError, 'ERR_INVALID_ARG_VALUE')
    t.true(fs.statSync('/dev/null').isCharacterDevice())
  }

  for (const make of [(o) => cipher.aes.encryptStream(o), (o) => cipher.xchacha20.decryptStream(o)]) {
    isError(t, () => make(), TypeError, 'ERR_INVALID_ARG_TYPE')
    isError(t, () => make({}), TypeError, 'ERR_INVALID_ARG_TYPE')
    isError(t, () => make({ key: KEY, passphrase: 'p' }), TypeError, 'ERR_INVALID_ARG_VALUE')
    isError(t, () => make({ key: rnd(16) }), RangeError, 'ERR_OUT_OF_RANGE')
    isError(t, () => make({ key: 42 }), TypeError, 'ERR_INVALID_ARG_TYPE')
    isError(t, () => make({ passphrase: '' }), TypeError, 'ERR_INVALID_ARG_VALUE')
    isError(t, () => make({ key: KEY, aad: 5 }), TypeError, 'ERR_INVALID_ARG_TYPE')
    isError(t, () => make({ key: KEY, mode: 'gcm' }), TypeError, 'ERR_INVALID_ARG_VALUE')
    isError(t, () => make({ key: KEY, signal: 'no' }), TypeError, 'ERR_INVALID_ARG_TYPE')
  }
  isError(t, () => cipher.aes.encryptStream({ key: KEY, segmentSize: 1023 }), RangeError, 'ERR_OUT_OF_RANGE')
  isError(t, () => cipher.aes.encryptStream({ key: KEY, segmentSize: 16 * MiB + 1 }), RangeError, 'ERR_OUT_OF_RANGE')
  isError(t, () => cipher.aes.encryptStream({ key: KEY, memoryCost: 1024 }), TypeError, 'ERR_INVALID_ARG_VALUE')
  isError(t, () => cipher.aes.encryptStream({ passphrase: 'p', memoryCost: 8, parallelism: 2 }), RangeError, 'ERR_OUT_OF_RANGE')
  isError(t, () => cipher.aes.decryptStream({ key: KEY, segmentSize: 4096 }), TypeError, 'ERR_INVALID_ARG_VALUE')
  isError(t, () => cipher.aes.encryptStream({ key: KEY, allowV1: true }), TypeError, 'ERR_INVALID_ARG_VALUE')
  isError(t, () => cipher.aes.decryptStream({ key: KEY, allowV1: 1 }), TypeError, 'ERR_INVALID_ARG_TYPE')
  await rejects(t, cipher.aes.decryptFile(plain, path.join(dir, 'o'), { key: KEY, allowV1: 'yes' }), TypeError, 'ERR_INVALID_ARG_TYPE')
  await rejects(t, cipher.aes.encryptFile(plain, path.join(dir, 'o'), { key: rnd(31) }), RangeError, 'ERR_OUT_OF_RANGE')
  await rejects(t, cipher.aes.encryptFile(42, path.join(dir, 'o'), { key: KEY }), TypeError, 'ERR_INVALID_ARG_TYPE')
  await rejects(t, cipher.aes.decryptFile(plain, 'a\0b', { key: KEY }), TypeError, 'ERR_INVALID_ARG_VALUE')
  await rejects(t, cipher.aes.encryptFile(plain, path.join(dir, 'o'), { key: KEY, onProgress: 1 }), TypeError, 'ERR_INVALID_ARG_TYPE')
  t.deepEqual(fs.readdirSync(dir), ['plain'])
  // A chunk that is not bytes is refused by the Writable side (a byte stream).
  const s = cipher.aes.encryptStream({ key: KEY })
  s.on('error', () => {})
  isError(t, () => s.write({ not: 'bytes' }), TypeError, 'ERR_INVALID_ARG_TYPE')
})

test('streams: strings are UTF-8 chunks; the signal option destroys a stream (here one still deriving its passphrase key) with an AbortError', async (t) => {
  const sealed = await through(cipher.aes.encryptStream({ key: KEY }), ['héllo ', 'wörld'])
  t.is((await open('aes', sealed, { key: KEY })).toString(), 'héllo wörld')
  const c = new AbortController()
  const s = cipher.xchacha20.encryptStream({ passphrase: 'p', signal: c.signal })
  // The stream's own error, not what piping into it says afterwards: since Node 24, pipeline()
  // onto a destroyed stream fails with ERR_STREAM_UNABLE_TO_PIPE before that error surfaces.
  const errored = once(s, 'error')
  c.abort()
  const [err] = await errored
  t.is(err.name, 'AbortError')
  t.true(s.destroyed)
  await t.throwsAsync(through(s, [Buffer.from('x')]))
})

// ---- memory ---------------------------------------------------------------------------------

const linux = process.platform === 'linux' && fs.existsSync('/proc/self/clear_refs') ? test : test.skip

linux('encryptFile / decryptFile of 256 MiB raise the peak RSS by less than 32 MiB; 256 MiB through the Transforms hold and pile up no more than node\'s own cipher streams', (t) => {
  const out = runChild('rss-stream-child.js', [256 * MiB])
  // The files are native end to end: one segment and the read buffers, whatever the size and the
  // Node version. The Transforms hand every output chunk to JavaScript as a new Buffer, garbage
  // until V8 collects it, as node's own cipher streams do: each is held to node's stream in the
  // same process (helpers/rss.js says how).
  checkChild(t, out, { files: ['aes.encryptFile', 'aes.decryptFile', 'xchacha20.encryptFile'], streams: ['aes.encryptStream', 'aes.decryptStream'] })
  // The same checks refuse a stream that holds its output: encryptStream followed by a Transform
  // that buffers everything fails both of them.
  const buffered = judgePair('buffering', { ours: [out.buffering], reference: out.streams['aes.encryptStream'].reference })
  t.log(buffered.line)
  t.is(buffered.failures.length, 2, buffered.line)
  t.true(out.buffering.held > 100 * MiB, buffered.line)
})

// ---- types ----------------------------------------------------------------------------------

test('index.d.ts: the streaming AEAD type-checks as documented, and misuse does not', (t) => {
  const ts = require('typescript')
  const root = path.join(__dirname, '..')
  const file = path.join(DIR, 'usage.ts')
  fs.writeFileSync(
    file,
    `import { cipher, type FileProgress, type FileResult } from ${JSON.stringify(root)}
import { Transform } from 'node:stream'
const a: Transform = cipher.aes.encryptStream({ key: Buffer.alloc(32), aad: 'v1', segmentSize: 1 << 20 })
const b: Transform = cipher.xchacha20.decryptStream({ passphrase: 'pw', maxMemoryCost: 1 << 18, signal: AbortSignal.timeout(10) })
const c: Promise<FileResult> = cipher.aes.encryptFile('in', new URL('file:///out'), {
  passphrase: 'pw', memoryCost: 19456, timeCost: 2,
  onProgress: ({ bytes, total }: FileProgress) => { const n: number = bytes + (total ?? 0); void n },
})
const d: Promise<number> = cipher.xchacha20.decryptFile(Buffer.from('in'), 'out', { key: new Uint8Array(32) }).then((r) => r.bytes)
const e: Transform = cipher.aes.decryptStream({ key: Buffer.alloc(32), allowV1: true })
void [a, b, c, d, e]
// @ts-expect-error allowV1 is a decryption option
cipher.aes.encryptStream({ key: 'k', allowV1: true })
// @ts-expect-error a key or a passphrase, not both
cipher.aes.encryptStream({ key: 'k', passphrase: 'p' })
// @ts-expect-error one of them is required
cipher.aes.decryptStream({ aad: 'x' })
// @ts-expect-error the segment size is the header's when decrypting
cipher.aes.decryptStream({ key: 'k', segmentSize: 1024 })
// @ts-expect-error chacha20 (12-byte nonces) has no streaming form
cipher.chacha20.encryptStream({ key: 'k' })
`,
  )
  const program = ts.createProgram([file], { strict: true, noEmit: true, module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, moduleResolution: ts.ModuleResolutionKind.Node10, types: ['node'], typeRoots: [path.join(root, 'node_modules', '@types')] })
  const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))
  t.deepEqual(diagnostics, [])
  t.false('encryptStream' in cipher.chacha20)
})
