'use strict'
// Property tests (fast-check) over every public function, each against an independent
// implementation (node:crypto, @noble/hashes, the npm packages argon2 and bcryptjs, or an
// RFC construction written here) or a round trip: random sizes (0..4 KiB, sometimes up to
// 256 KiB), every input type (views at odd offsets over larger buffers, Buffer slices, plain and
// resizable ArrayBuffers, UTF-8 strings with lone surrogates), random option combinations.
//
// Budget: a fixed `numRuns` per property (the file runs in well under a minute on 2 cores).
// Seed: random per run, or FC_SEED=<int>. A failure reports the seed, the counterexample and its
// shrink path; to replay exactly one property:
//   FC_SEED=<seed> FC_PATH=<path> npx ava __test__/properties.spec.js --match '<title>'
// Every generated value is a small description ({ n, seed, kind, offset } for bytes), so a
// counterexample prints in a few lines and rebuilds the same bytes.
const test = require('ava')
const fc = require('fast-check')
const assert = require('node:assert/strict')
const nodeCrypto = require('node:crypto')
const { nodeEncrypt, nodeDecrypt, nodeHas } = require('./helpers/node-reference')
const { scaled } = require('./helpers/time')
const independentStream = require('./helpers/stream-format')
const { spawnSync } = require('node:child_process')
const { keccak_256 } = require('@noble/hashes/sha3')
const { blake2b: nobleBlake2b, blake2s: nobleBlake2s } = require('@noble/hashes/blake2')
const { blake3: nobleBlake3 } = require('@noble/hashes/blake3')
const { hmac: nobleHmac } = require('@noble/hashes/hmac')
const bcryptjs = require('bcryptjs')
const crypto = require('..')

const { sha, hmac, cipher, kdf, randomBytes, timingSafeEqual } = crypto

// ---- seed, budget, reporting ------------------------------------------------------------------

function readSeed() {
  const env = process.env.FC_SEED
  if (env === undefined || env === '') return nodeCrypto.randomInt(0, 2 ** 31 - 1)
  const n = Number(env)
  if (!Number.isSafeInteger(n)) throw new Error(`FC_SEED must be an integer, got ${JSON.stringify(env)}`)
  return n
}

const SEED = readSeed()
const PATH = process.env.FC_PATH || undefined
const REPRODUCE = `FC_SEED=${SEED} npx ava __test__/properties.spec.js`

test('fast-check seed (reproduce a run with FC_SEED)', (t) => {
  t.log(`fast-check seed ${SEED}; reproduce: ${REPRODUCE}`)
  t.true(Number.isSafeInteger(SEED))
})

/**
 * One ava test running one fast-check property `numRuns` times with the file's seed. `body`
 * (sync or async) throws (node:assert) when the property does not hold. A failure message has
 * the seed, the shrunk counterexample, the path, and the command that replays it.
 */
function property(title, numRuns, arbitrary, body) {
  test(title, async (t) => {
    const prop = fc.asyncProperty(arbitrary, async (value) => {
      await body(value)
    })
    const details = await fc.check(prop, { numRuns, seed: SEED, path: PATH })
    if (details.failed) {
      const replay = `FC_SEED=${details.seed} FC_PATH=${details.counterexamplePath} npx ava __test__/properties.spec.js --match '${title.replace(/'/g, "'\\''")}'`
      const err = details.errorInstance
      const why = err instanceof Error ? err.stack || err.message : String(err)
      t.fail(`${fc.defaultReportMessage(details)}\n${why}\nReplay: ${replay}`)
    } else {
      t.pass()
    }
  })
}

// ---- inputs -----------------------------------------------------------------------------------

/** Deterministic bytes for (n, seed): xorshift32. */
function bytesOf(n, seed) {
  const out = Buffer.allocUnsafe(n)
  let x = (seed ^ 0x9e3779b9) >>> 0 || 1
  for (let i = 0; i < n; i++) {
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    x >>>= 0
    out[i] = x >>> 24
  }
  return out
}

/**
 * A string whose UTF-8 encoding is exactly `n` bytes: ASCII, 2-, 3- and 4-byte characters and
 * lone surrogates (encoded as U+FFFD, as Buffer.from and TextEncoder do). `noNul` avoids U+0000.
 */
function stringOf(n, seed, noNul = false) {
  const rnd = bytesOf(4 * n + 8, seed)
  // Code units collected in an array and joined once (appending to a string character by
  // character makes V8 build and flatten cons strings: slow and page-fault heavy for 256 KiB).
  const units = []
  let left = n
  let i = 0
  let prevHigh = false
  while (left > 0) {
    const r = rnd.readUInt32LE((i++ * 4) % (rnd.length - 4))
    const cls = r & 15
    let wasHigh = false
    if (cls <= 7 || left < 2) {
      const c = (r >>> 8) & 0x7f
      units.push(noNul && c === 0 ? 0x41 : c)
      left -= 1
    } else if (cls <= 10 || left < 3) {
      units.push(0x80 + ((r >>> 8) % 0x780))
      left -= 2
    } else if (cls <= 12 || left < 4) {
      let c = 0x800 + ((r >>> 8) % 0xf800)
      if (c >= 0xd800 && c <= 0xdfff) c += 0x800
      units.push(c)
      left -= 3
    } else if (cls <= 14) {
      const cp = 0x10000 + ((r >>> 8) % 0x100000)
      units.push(0xd800 + ((cp - 0x10000) >> 10), 0xdc00 + ((cp - 0x10000) & 0x3ff))
      left -= 4
    } else {
      // A lone surrogate (high or low), encoded as U+FFFD (3 bytes). A low one right after a
      // lone high one would pair with it: skipped.
      const c = 0xd800 + ((r >>> 8) % 0x800)
      if (c >= 0xdc00 && prevHigh) continue
      units.push(c)
      wasHigh = c < 0xdc00
      left -= 3
    }
    prevHigh = wasHigh
  }
  let s = ''
  for (let k = 0; k < units.length; k += 8192) s += String.fromCharCode.apply(null, units.slice(k, k + 8192))
  return s
}

const TYPED = {
  uint16: Uint16Array,
  int16: Int16Array,
  uint32: Uint32Array,
  int32: Int32Array,
  float32: Float32Array,
  float64: Float64Array,
  bigint64: BigInt64Array,
  biguint64: BigUint64Array,
}
/** Byte-input kinds: every form of `Input`. Views sit inside larger, garbage-filled buffers. */
const VIEW_KINDS = ['buffer', 'bufferSlice', 'uint8', 'int8', 'uint8clamped', 'dataview', ...Object.keys(TYPED), 'arraybuffer', 'resizable', 'resizableView']
const KINDS = [...VIEW_KINDS, 'string', 'string']

/** `buf`'s bytes as an input of `kind`, `offset` bytes into a larger backing store. */
function wrap(buf, kind, offset = 0) {
  const n = buf.length
  const backing = (size) => {
    const ab = new ArrayBuffer(size)
    new Uint8Array(ab).fill(0xa5)
    return ab
  }
  const place = (ab, at) => {
    new Uint8Array(ab, at, n).set(buf)
    return ab
  }
  switch (kind) {
    case 'buffer':
      return Buffer.from(buf)
    case 'bufferSlice': {
      const big = Buffer.allocUnsafe(offset + n + 7).fill(0x5a)
      buf.copy(big, offset)
      return big.subarray(offset, offset + n)
    }
    case 'uint8':
      return new Uint8Array(place(backing(offset + n + 5), offset), offset, n)
    case 'int8':
      return new Int8Array(place(backing(offset + n + 5), offset), offset, n)
    case 'uint8clamped':
      return new Uint8ClampedArray(place(backing(offset + n + 5), offset), offset, n)
    case 'dataview':
      return new DataView(place(backing(offset + n + 5), offset), offset, n)
    case 'arraybuffer':
      return place(backing(n), 0)
    case 'resizable': {
      const ab = new ArrayBuffer(n, { maxByteLength: n + 64 })
      new Uint8Array(ab).set(buf)
      return ab
    }
    case 'resizableView': {
      // A length-tracking view at an offset into a resizable buffer.
      const ab = new ArrayBuffer(offset + n, { maxByteLength: offset + n + 64 })
      new Uint8Array(ab).fill(0xa5).set(buf, offset)
      return new Uint8Array(ab, offset)
    }
    default: {
      const T = TYPED[kind]
      const size = T.BYTES_PER_ELEMENT
      const at = offset * size
      const ab = place(backing(at + n + 2 * size), at)
      // A length that is not a whole number of elements cannot be this type: a DataView then.
      return n % size === 0 ? new T(ab, at, n / size) : new DataView(ab, at, n)
    }
  }
}

/** { n, seed, kind, offset } → { input, bytes }: `input` of that kind holding exactly `bytes` (n bytes). */
function make(spec, { noNul = false } = {}) {
  if (spec.kind === 'string') {
    const input = stringOf(spec.n, spec.seed, noNul)
    return { input, bytes: Buffer.from(input, 'utf8') }
  }
  if (spec.utf8) {
    // Valid UTF-8 (a string's encoding) in a byte view.
    const bytes = Buffer.from(stringOf(spec.n, spec.seed, noNul), 'utf8')
    return { input: wrap(bytes, spec.kind, spec.offset), bytes }
  }
  let bytes = bytesOf(spec.n, spec.seed)
  if (noNul) bytes = Buffer.from(bytes.map((b) => b || 1))
  return { input: wrap(bytes, spec.kind, spec.offset), bytes }
}

// Lengths next to block sizes (16, 64, 72, 104, 128, 136, 144), the hashers' lazy buffering
// (8 KiB), the async inline limit (16 KiB) and a few large ones.
const EDGES = [0, 1, 2, 3, 7, 8, 15, 16, 17, 31, 32, 33, 55, 56, 57, 63, 64, 65, 71, 72, 73, 103, 104, 105, 111, 112,
  113, 119, 120, 127, 128, 129, 135, 136, 137, 143, 144, 145, 255, 256, 257, 1023, 1024, 1025, 4095, 4096]
const BIG_EDGES = [8191, 8192, 8193, 16383, 16384, 16385, 65535, 65536, 65537, 262144]

/** A length in [min, max]: often next to a block boundary, sometimes (if `big`) 4 KiB..256 KiB. */
function lengthArb(min = 0, max = 4096, big = false) {
  const edges = EDGES.filter((n) => n >= min && n <= max)
  const parts = [{ weight: 5, arbitrary: fc.integer({ min, max }) }]
  if (edges.length) parts.push({ weight: 3, arbitrary: fc.constantFrom(...edges) })
  if (big) {
    parts.push({ weight: 1, arbitrary: fc.integer({ min: 4097, max: 256 * 1024 }) })
    parts.push({ weight: 1, arbitrary: fc.constantFrom(...BIG_EDGES) })
  }
  return fc.oneof(...parts)
}

/** A description of `n` bytes of some input kind. */
function bytesArb({ min = 0, max = 4096, big = false, kinds = KINDS, n } = {}) {
  return fc.record({
    n: n === undefined ? lengthArb(min, max, big) : fc.constant(n),
    seed: fc.nat(),
    kind: fc.constantFrom(...kinds),
    offset: fc.nat({ max: 37 }),
  })
}

const optionalArb = (arb) => fc.option(arb, { nil: undefined })

// ---- output formats ---------------------------------------------------------------------------

const FORMATS = [undefined, 'hex', 'base64', 'base64url', 'binary', 'buffer']
const formatArb = fc.constantFrom(...FORMATS)

/** What `buf` looks like in `format` (undefined = hex for hashes, KDFs). */
function encodeAs(buf, format, dflt = 'hex') {
  const f = format ?? dflt
  if (f === 'buffer') return Buffer.from(buf)
  return Buffer.from(buf).toString(f === 'binary' ? 'latin1' : f)
}

/** A result in some format back to bytes (undefined = hex). */
function decodeFrom(value, format, dflt = 'hex') {
  const f = format ?? dflt
  if (f === 'buffer') {
    assert.ok(Buffer.isBuffer(value), 'a Buffer')
    return value
  }
  assert.equal(typeof value, 'string')
  return Buffer.from(value, f === 'binary' ? 'latin1' : f)
}

/** Asserts `actual` is `expected` (bytes) in `format`. */
function assertFormatted(actual, expected, format, message, dflt = 'hex') {
  const want = encodeAs(expected, format, dflt)
  if (Buffer.isBuffer(want)) {
    assert.ok(Buffer.isBuffer(actual), `${message}: expected a Buffer`)
    assert.equal(actual.toString('hex'), want.toString('hex'), message)
  } else {
    assert.equal(actual, want, message)
  }
}

const withFormat = (options, format) => (format === undefined ? options : { ...options, outputFormat: format })

// ---- hashes -----------------------------------------------------------------------------------


/** node:crypto names of crypto.sha's algorithms (checked against getHashes() and a real call). */
const NODE_NAMES = {
  md4: 'md4', md5: 'md5', sha1: 'sha1', sha224: 'sha224', sha256: 'sha256', sha384: 'sha384', sha512: 'sha512',
  sha512_224: 'sha512-224', sha512_256: 'sha512-256', sha3_224: 'sha3-224', sha3_256: 'sha3-256',
  sha3_384: 'sha3-384', sha3_512: 'sha3-512', shake128: 'shake128', shake256: 'shake256', blake2b: 'blake2b512',
  blake2s: 'blake2s256', ripemd160: 'ripemd160', whirlpool: 'whirlpool',
}
const NODE_HASH = {}
for (const [ours, theirs] of Object.entries(NODE_NAMES)) {
  if (nodeCrypto.getHashes().includes(theirs) && nodeHas(theirs)) NODE_HASH[ours] = theirs
}

const pad = (bytes, size) => {
  const out = new Uint8Array(size)
  out.set(bytes)
  return out
}

/**
 * The reference digest of `bytes` for `sha[name]` with options `o` (bytes already materialised),
 * or null when there is no independent implementation (then only the forms are compared).
 */
function referenceDigest(name, bytes, o) {
  const u8 = new Uint8Array(bytes)
  switch (name) {
    case 'keccak256':
      return Buffer.from(keccak_256(u8))
    case 'blake3':
      if (o.key === undefined && o.context === undefined && o.outputLength === undefined) break
      return Buffer.from(nobleBlake3(u8, { dkLen: o.outputLength ?? 32, key: o.key, context: o.context }))
    case 'blake2b':
    case 'blake2s': {
      const plain = o.key === undefined && o.salt === undefined && o.personalization === undefined && o.outputLength === undefined
      if (plain && NODE_HASH[name]) break
      const [fn, full, field] = name === 'blake2b' ? [nobleBlake2b, 64, 16] : [nobleBlake2s, 32, 8]
      return Buffer.from(fn(u8, {
        dkLen: o.outputLength ?? full,
        key: o.key && o.key.length ? o.key : undefined,
        salt: pad(o.salt ?? [], field),
        personalization: pad(o.personalization ?? [], field),
      }))
    }
  }
  if (name === 'blake3') return Buffer.from(nobleBlake3(u8))
  const theirs = NODE_HASH[name]
  if (!theirs) return null
  const h = o.outputLength === undefined ? nodeCrypto.createHash(theirs) : nodeCrypto.createHash(theirs, { outputLength: o.outputLength })
  return h.update(bytes).digest()
}

/** Per-algorithm options: { ours: the options object's byte/number fields (as inputs), plain: as bytes }. */
function hashOptionsArb(name) {
  const field = (max) => optionalArb(bytesArb({ max }))
  switch (name) {
    case 'shake128':
    case 'shake256':
      return fc.record({ outputLength: optionalArb(fc.oneof(fc.integer({ min: 1, max: 600 }), fc.constantFrom(1, 167, 168, 169, 135, 136, 137))) })
    case 'blake2b':
    case 'blake2s': {
      const [k, s, len] = name === 'blake2b' ? [64, 16, 64] : [32, 8, 32]
      return fc.record({ key: field(k), salt: field(s), personalization: field(s), outputLength: optionalArb(fc.integer({ min: 1, max: len })) })
    }
    case 'blake3':
      return fc.record({
        key: optionalArb(bytesArb({ n: 32 })),
        // The context is a string (the blake3 crate takes &str): bytes must be valid UTF-8.
        context: optionalArb(bytesArb({ max: 100 }).map((c) => ({ ...c, utf8: true }))),
        outputLength: optionalArb(fc.oneof(fc.integer({ min: 1, max: 2100 }), fc.constantFrom(1, 31, 32, 33, 64, 65, 1024, 1025))),
      }).map((o) => (o.key && o.context ? { ...o, context: undefined } : o))
    default:
      return fc.constant({})
  }
}

/** Materialises option descriptions: [options for our API, the same with plain bytes]. */
function materialiseOptions(desc) {
  const ours = {}
  const plain = {}
  for (const [k, v] of Object.entries(desc)) {
    if (v === undefined) continue
    if (typeof v === 'object') {
      const { input, bytes } = make(v)
      ours[k] = input
      plain[k] = new Uint8Array(bytes)
    } else {
      ours[k] = v
      plain[k] = v
    }
  }
  return [ours, plain]
}

/** Cut points for splitting `n` bytes into chunks (each chunk of some view kind). */
const chunkingArb = fc.record({
  cuts: fc.array(fc.nat(), { maxLength: 9 }),
  kinds: fc.array(fc.constantFrom(...VIEW_KINDS), { minLength: 1, maxLength: 4 }),
  copyAt: fc.nat(),
})

function chunksOf(bytes, { cuts, kinds }, offset) {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b)
  const out = []
  let prev = 0
  for (const p of [...points, bytes.length]) {
    const part = bytes.subarray(prev, p)
    out.push({ input: wrap(Buffer.from(part), kinds[out.length % kinds.length], offset + out.length), end: p })
    prev = p
  }
  return out
}

const HASH_RUNS = 100

for (const name of Object.keys(sha)) {
  const ref = name in NODE_HASH ? `node:crypto ${NODE_HASH[name]}` : name === 'keccak256' || name === 'blake3' ? '@noble/hashes' : null
  const title = ref
    ? `sha.${name}: one-shot in every format, create() in random chunks (copy, reset) and .async equal ${ref}${name.startsWith('blake2') ? ' / @noble/hashes with key, salt, personalization, outputLength' : ''}`
    : `sha.${name}: create() in random chunks (copy, reset) and .async equal the one-shot form (node:crypto lacks ${name})`
  property(
    title,
    HASH_RUNS,
    fc.record({
      data: bytesArb({ big: true }),
      options: hashOptionsArb(name),
      format: formatArb,
      format2: formatArb,
      chunking: chunkingArb,
    }),
    async ({ data, options, format, format2, chunking }) => {
      const { input, bytes } = make(data)
      const [o, plain] = materialiseOptions(options)
      const expected = referenceDigest(name, bytes, plain) ?? sha[name](bytes, { ...o, outputFormat: 'buffer' })
      assert.equal(expected.length, plain.outputLength ?? sha[name].outputLength)

      // One-shot, in `format` (no options object at all when there is nothing to pass).
      const opts = withFormat(o, format)
      const oneShot = Object.keys(opts).length ? sha[name](input, opts) : sha[name](input)
      assertFormatted(oneShot, expected, format, 'one-shot')
      // sha and hash are the same namespace.
      assertFormatted(crypto.hash[name](input, withFormat(o, format2)), expected, format2, 'crypto.hash alias')

      // Incremental: random chunks of random view kinds; a copy taken part-way; reset.
      const chunks = chunksOf(bytes, chunking, data.offset)
      const h = sha[name].create(withFormat(o, format))
      assert.equal(h.outputLength, expected.length)
      const copyAfter = chunking.copyAt % chunks.length
      let twin = null
      let twinEnd = 0
      chunks.forEach((c, i) => {
        assert.equal(h.update(c.input), h)
        if (i === copyAfter) {
          twin = h.copy()
          twinEnd = c.end
        }
      })
      assertFormatted(h.digest(), expected, format, 'create().update()...digest()')
      assert.throws(() => h.update(bytes), { code: 'ERR_HASH_FINALIZED' })
      const prefix = referenceDigest(name, bytes.subarray(0, twinEnd), plain) ?? sha[name](bytes.subarray(0, twinEnd), { ...o, outputFormat: 'buffer' })
      assertFormatted(twin.digest(format2), prefix, format2 ?? format, `copy() after ${twinEnd} bytes`)
      h.reset()
      // digest() without a format uses the one given to create().
      assertFormatted(h.update(input).digest(format2), expected, format2 ?? format, 'reset() then update(all)')

      // .async (inline below 16 KiB, the thread pool above), in `format2`.
      assertFormatted(await sha[name].async(input, withFormat(o, format2)), expected, format2, '.async')
    },
  )
}

// ---- HMAC -------------------------------------------------------------------------------------

/** RFC 2104 over crypto.sha[name] (for hashes node:crypto has no HMAC with). */
function rfc2104(name, key, data) {
  const H = (x) => sha[name](x, { outputFormat: 'buffer' })
  const B = sha[name].blockLength
  let k = Buffer.from(key)
  if (k.length > B) k = H(k)
  k = Buffer.concat([k, Buffer.alloc(B - k.length)])
  const x = (c) => Buffer.from(k.map((b) => b ^ c))
  return H(Buffer.concat([x(0x5c), H(Buffer.concat([x(0x36), data]))]))
}

function referenceHmac(name, key, data) {
  if (NODE_HASH[name]) return nodeCrypto.createHmac(NODE_HASH[name], key).update(data).digest()
  if (name === 'keccak256') return Buffer.from(nobleHmac(keccak_256, new Uint8Array(key), new Uint8Array(data)))
  return rfc2104(name, key, data)
}

for (const name of Object.keys(hmac)) {
  const ref = NODE_HASH[name] ? `node:crypto createHmac(${NODE_HASH[name]})` : name === 'keccak256' ? '@noble/hashes hmac(keccak_256)' : `RFC 2104 over sha.${name}`
  property(
    `hmac.${name}: one-shot (keys 0..200 bytes), create() in random chunks (copy, reset) and .async equal ${ref}`,
    HASH_RUNS,
    fc.record({
      data: bytesArb({ big: true }),
      key: bytesArb({ max: 200 }),
      format: formatArb,
      format2: formatArb,
      chunking: chunkingArb,
    }),
    async ({ data, key, format, format2, chunking }) => {
      const { input, bytes } = make(data)
      const k = make(key)
      const expected = referenceHmac(name, k.bytes, bytes)
      assertFormatted(hmac[name](input, withFormat({ key: k.input }, format)), expected, format, 'one-shot')

      const chunks = chunksOf(bytes, chunking, data.offset)
      const h = hmac[name].create(withFormat({ key: k.input }, format))
      assert.equal(h.algorithm, `hmac-${name}`)
      const copyAfter = chunking.copyAt % chunks.length
      let twin = null
      let twinEnd = 0
      chunks.forEach((c, i) => {
        h.update(c.input)
        if (i === copyAfter) {
          twin = h.copy()
          twinEnd = c.end
        }
      })
      assertFormatted(h.digest(), expected, format, 'create().update()...digest()')
      assertFormatted(twin.digest(format2), referenceHmac(name, k.bytes, bytes.subarray(0, twinEnd)), format2 ?? format, `copy() after ${twinEnd} bytes`)
      h.reset()
      // digest() without a format uses the one given to create().
      assertFormatted(h.update(input).digest(format2), expected, format2 ?? format, 'reset() then update(all)')
      assertFormatted(await hmac[name].async(input, withFormat({ key: k.input }, format2)), expected, format2, '.async')
    },
  )
}

// ---- ciphers ----------------------------------------------------------------------------------

const { aes, chacha20, xchacha20, des } = cipher
/** node:assert validator: an Error with code ERR_CRYPTO_DECRYPT_FAILED. */
const DECRYPT_FAILED = (err) => err instanceof Error && err.code === 'ERR_CRYPTO_DECRYPT_FAILED'
const DECRYPT_FORMATS = [...FORMATS, 'utf8']



const same = (a, b, message) => assert.ok(Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0, `${message}: ${Buffer.from(a).toString('hex').slice(0, 80)} != ${Buffer.from(b).toString('hex').slice(0, 80)}`)

/** A decrypt result in `format` compared with the plaintext. */
function assertPlain(actual, plain, format, message) {
  if (format === 'utf8') assert.equal(actual, plain.toString('utf8'), message)
  else same(decodeFrom(actual, format, 'buffer'), plain, message)
}

/**
 * Cipher configurations node:crypto also has. `nodeName(keyLength)` and `nodeKey(key)` give
 * node's cipher for our key; `ivs` the IV lengths (null: no IV); `tags` the tag lengths (AEAD).
 */
const NODE_CIPHERS = []
for (const mode of ['ecb', 'cbc', 'ctr', 'cfb', 'cfb8', 'ofb']) {
  NODE_CIPHERS.push({
    label: `aes ${mode}`, ns: aes, mode, keys: [16, 24, 32], nodeName: (k) => `aes-${k * 8}-${mode}`,
    ivs: mode === 'ecb' ? null : fc.constant(16), defaultIv: mode === 'ecb' ? 0 : 16, block: mode === 'ecb' || mode === 'cbc' ? 16 : 0,
  })
}
NODE_CIPHERS.push({
  label: 'aes gcm', ns: aes, mode: 'gcm', keys: [16, 24, 32], nodeName: (k) => `aes-${k * 8}-gcm`,
  ivs: fc.oneof(fc.constant(12), fc.integer({ min: 1, max: 64 })), defaultIv: 12, tags: [12, 13, 14, 15, 16],
})
NODE_CIPHERS.push({
  label: 'aes ccm', ns: aes, mode: 'ccm', keys: [16, 24, 32], nodeName: (k) => `aes-${k * 8}-ccm`,
  ivs: fc.integer({ min: 7, max: 13 }), defaultIv: 12, tags: [12, 14, 16], small: true,
})
NODE_CIPHERS.push({
  label: 'chacha20 (ChaCha20-Poly1305)', ns: chacha20, keys: [32], nodeName: () => 'chacha20-poly1305',
  ivs: fc.constant(12), defaultIv: 12, tags: [16],
})
for (const mode of ['ecb', 'cbc']) {
  // DES = 3DES with one key three times; 16 bytes = two-key 3DES (des-ede), 24 = des-ede3.
  NODE_CIPHERS.push({
    label: `des ${mode} (DES as 3DES k‖k‖k, 2- and 3-key 3DES)`, ns: des, mode, keys: [8, 16, 24],
    nodeName: (k) => `des-ede${k === 16 ? '' : '3'}${mode === 'cbc' ? '-cbc' : ''}`,
    nodeKey: (key) => (key.length === 8 ? Buffer.concat([key, key, key]) : key),
    ivs: mode === 'ecb' ? null : fc.constant(8), defaultIv: mode === 'ecb' ? 0 : 8, block: 8,
  })
}

const CIPHER_RUNS = 75

for (const c of NODE_CIPHERS) {
  const aead = Boolean(c.tags)
  property(
    `cipher.${c.label}: equals node:crypto both ways (random key size, IV${aead ? ', AAD, tag length' : ''}${c.block ? ', padding' : ''}; generated IV prepended), kept key and async forms agree`,
    CIPHER_RUNS,
    fc.record({
      keyLength: fc.constantFrom(...c.keys),
      keySeed: bytesArb({ n: 0 }),
      ivLength: c.ivs ?? fc.constant(0),
      ivSeed: bytesArb({ n: 0 }),
      giveIv: c.ivs ? fc.boolean() : fc.constant(false),
      aad: aead ? optionalArb(bytesArb({ max: 100 })) : fc.constant(undefined),
      tagLength: aead ? optionalArb(fc.constantFrom(...c.tags)) : fc.constant(undefined),
      noPadding: c.block ? fc.boolean() : fc.constant(false),
      data: bytesArb({ big: !c.small }),
      format: formatArb,
      decryptFormat: fc.constantFrom(...DECRYPT_FORMATS),
      kind: fc.constantFrom(...VIEW_KINDS),
    }),
    async (v) => {
      const key = make({ ...v.keySeed, n: v.keyLength })
      const iv = make({ ...v.ivSeed, n: v.ivLength })
      // Without padding, the data must be whole blocks.
      const { input, bytes: plain } = make(v.noPadding ? { ...v.data, n: v.data.n - (v.data.n % c.block) } : v.data)
      const aad = v.aad && make(v.aad)
      const tagLength = v.tagLength ?? 16
      const base = {
        ...(c.mode ? { mode: c.mode } : {}),
        ...(v.giveIv ? { iv: iv.input } : {}),
        ...(aad ? { aad: aad.input } : {}),
        ...(v.tagLength ? { tagLength: v.tagLength } : {}),
        ...(v.noPadding ? { padding: 'none' } : {}),
      }
      const opts = { ...base, key: key.input }
      const out = decodeFrom(c.ns.encrypt(input, withFormat(opts, v.format)), v.format, 'buffer')
      const prepended = v.giveIv ? 0 : c.defaultIv
      const usedIv = c.ivs ? (v.giveIv ? iv.bytes : out.subarray(0, prepended)) : null
      const body = out.subarray(prepended)
      const name = c.nodeName(v.keyLength)
      const nodeKey = c.nodeKey ? c.nodeKey(key.bytes) : key.bytes
      const nodeOpts = { aad: aad && aad.bytes, tagLength, padding: !v.noPadding }

      // Ours = node's; node decrypts ours; ours decrypts node's (from another view kind).
      const expected = nodeEncrypt(name, nodeKey, usedIv, plain, nodeOpts)
      same(body, expected, `${name} ciphertext`)
      same(nodeDecrypt(name, nodeKey, usedIv, body, nodeOpts), plain, `node decrypts ours (${name})`)
      const theirs = wrap(prepended ? Buffer.concat([usedIv, expected]) : expected, v.kind, 3)
      assertPlain(c.ns.decrypt(theirs, withFormat(opts, v.decryptFormat)), plain, v.decryptFormat, 'ours decrypts node\'s')

      // A kept key: the same bytes as the one-shot call (given IV), and decrypts it.
      const kept = c.ns.key(key.input)
      if (v.giveIv || !c.ivs) same(kept.encrypt(input, base), out, 'kept key encrypt')
      same(kept.decrypt(out, base), plain, 'kept key decrypt')

      // Async forms.
      const outAsync = await c.ns.encryptAsync(input, opts)
      if (v.giveIv || !c.ivs) same(outAsync, out, 'encryptAsync')
      same(await c.ns.decryptAsync(outAsync, opts), plain, 'decryptAsync')
      same(await kept.decryptAsync(out, base), plain, 'kept key decryptAsync')
      const keptAsync = await kept.encryptAsync(input, base)
      if (v.giveIv || !c.ivs) same(keptAsync, out, 'kept key encryptAsync')
      else same(kept.decrypt(keptAsync, base), plain, 'kept key encryptAsync round trip')
    },
  )
}

/** Every AEAD, including those node:crypto lacks: round trip, exact output length, any flipped bit fails. */
const AEADS = [
  { label: 'aes gcm', ns: aes, mode: 'gcm', keys: [16, 24, 32], ivs: fc.integer({ min: 1, max: 32 }), defaultIv: 12, tags: [12, 13, 14, 15, 16] },
  { label: 'aes ccm', ns: aes, mode: 'ccm', keys: [16, 24, 32], ivs: fc.integer({ min: 7, max: 13 }), defaultIv: 12, tags: [12, 14, 16], small: true },
  { label: 'aes gcm-siv', ns: aes, mode: 'gcm-siv', keys: [16, 32], ivs: fc.constant(12), defaultIv: 12, tags: [16] },
  { label: 'aes siv', ns: aes, mode: 'siv', keys: [32, 64], ivs: fc.integer({ min: 0, max: 32 }), defaultIv: 16, tags: [16] },
  { label: 'chacha20', ns: chacha20, keys: [32], ivs: fc.constantFrom(12, 24), defaultIv: 12, tags: [16] },
  { label: 'xchacha20', ns: xchacha20, keys: [32], ivs: fc.constant(24), defaultIv: 24, tags: [16] },
]

property(
  'AEADs (AES-GCM, CCM, GCM-SIV, SIV, ChaCha20-, XChaCha20-Poly1305): round trip, output length, kept key; flipping any bit of IV, ciphertext, tag or AAD fails with ERR_CRYPTO_DECRYPT_FAILED',
  200,
  fc.record({
    which: fc.nat({ max: AEADS.length - 1 }),
    keyPick: fc.nat(),
    keySeed: bytesArb({ n: 0 }),
    ivLength: fc.nat(),
    ivSeed: bytesArb({ n: 0 }),
    giveIv: fc.boolean(),
    aad: optionalArb(bytesArb({ max: 100 })),
    tagPick: optionalArb(fc.nat()),
    data: bytesArb({ max: 2048 }),
    flip: fc.nat(),
    flipAad: fc.boolean(),
  }).chain((v) => AEADS[v.which].ivs.map((ivLength) => ({ ...v, ivLength }))),
  async (v) => {
    const c = AEADS[v.which]
    const key = make({ ...v.keySeed, n: c.keys[v.keyPick % c.keys.length] })
    const iv = make({ ...v.ivSeed, n: v.ivLength })
    const { input, bytes: plain } = make(v.data)
    const aad = v.aad && make(v.aad)
    const tagLength = v.tagPick === undefined ? undefined : c.tags[v.tagPick % c.tags.length]
    const base = {
      ...(c.mode ? { mode: c.mode } : {}),
      ...(v.giveIv ? { iv: iv.input } : {}),
      ...(aad ? { aad: aad.input } : {}),
      ...(tagLength ? { tagLength } : {}),
    }
    const opts = { ...base, key: key.input }
    const out = c.ns.encrypt(input, opts)
    assert.equal(out.length, (v.giveIv ? 0 : c.defaultIv) + plain.length + (tagLength ?? 16), 'output length')
    same(c.ns.decrypt(out, opts), plain, 'round trip')
    const kept = c.ns.key(key.input)
    if (v.giveIv) same(kept.encrypt(input, base), out, 'kept key = one-shot')
    same(await kept.decryptAsync(out, base), plain, 'kept key decryptAsync')
    if (c.ns === xchacha20 && v.giveIv) same(chacha20.encrypt(input, opts), out, 'xchacha20 = chacha20 with a 24-byte nonce')

    if (v.flipAad && aad && aad.bytes.length > 0) {
      const bad = Buffer.from(aad.bytes)
      bad[(v.flip >>> 3) % bad.length] ^= 1 << (v.flip & 7)
      assert.throws(() => c.ns.decrypt(out, { ...opts, aad: bad }), DECRYPT_FAILED, 'flipped AAD bit')
    } else if (v.flipAad && !aad) {
      assert.throws(() => c.ns.decrypt(out, { ...opts, aad: Buffer.from([v.flip & 255]) }), DECRYPT_FAILED, 'AAD added')
    } else {
      const bad = Buffer.from(out)
      const bit = v.flip % (bad.length * 8)
      bad[bit >>> 3] ^= 1 << (bit & 7)
      assert.throws(() => c.ns.decrypt(bad, opts), DECRYPT_FAILED, `flipped bit ${bit} of ${bad.length * 8}`)
      await assert.rejects(c.ns.decryptAsync(bad, opts), DECRYPT_FAILED, 'decryptAsync, flipped bit')
    }
  },
)

property(
  'sealed messages: random algorithm, message, aad and passphrase of every input kind, sealed in one call or by a derived key; openSync (and the key) give the message back, the independent decoder too; a flipped bit is refused',
  30,
  fc.record({
    ns: fc.constantFrom('aes', 'xchacha20'),
    message: bytesArb({ max: 3000 }),
    aad: optionalArb(bytesArb({ max: 64 })),
    passphrase: bytesArb({ min: 1, max: 40 }),
    derived: fc.boolean(),
    flip: fc.nat(),
  }),
  async (v) => {
    const ns = cipher[v.ns]
    const [msg, pw] = [make(v.message), make(v.passphrase)]
    const aad = v.aad && make(v.aad)
    const withAad = aad ? { aad: aad.input } : {}
    const cheap = { memoryCost: 8, timeCost: 1, parallelism: 1 }
    const key = v.derived ? ns.deriveKeySync(pw.input, cheap) : null
    const sealed = key ? key.sealSync(msg.input, withAad) : ns.sealSync(msg.input, { passphrase: pw.input, ...withAad, ...cheap })
    const segments = Math.max(1, Math.ceil(msg.bytes.length / 65536))
    assert.equal(sealed.length, (key ? 107 : 91) + msg.bytes.length + 16 * segments)
    same(ns.openSync(sealed, { passphrase: pw.input, ...withAad }), msg.bytes, 'openSync')
    if (key) same(key.openSync(sealed, withAad), msg.bytes, 'key.openSync')
    const theirs = await independentStream.open(sealed, { passphrase: pw.bytes, aad: aad?.bytes })
    if (theirs !== null) same(theirs, msg.bytes, 'independent decoder')
    const bad = Buffer.from(sealed)
    const bit = v.flip % (bad.length * 8)
    bad[bit >> 3] ^= 1 << (bit & 7)
    // Low ceilings: a flipped bit in the header's Argon2id cost must not start a large hash.
    const low = { maxMemoryCost: 1024, maxTimeCost: 4, maxParallelism: 8 }
    assert.throws(() => ns.openSync(bad, { passphrase: pw.input, ...withAad, ...low }), (e) => e.code === 'ERR_CRYPTO_DECRYPT_FAILED')
    key?.dispose()
  },
)

// ---- KDFs -------------------------------------------------------------------------------------

const KDF_HASHES = Object.keys(hmac)
/** Other spellings `options.hash` accepts for some hashes (readHash lower-cases). */
const HASH_SPELLINGS = {
  sha1: ['sha-1', 'SHA1'], sha224: ['sha-224'], sha256: ['sha-256', 'SHA-256'], sha384: ['sha-384'], sha512: ['sha-512', 'SHA512'],
  sha512_224: ['sha512-224', 'sha512/224'], sha512_256: ['sha512-256', 'SHA512/256'], sha3_224: ['sha3-224'],
  sha3_256: ['sha3-256', 'SHA3-256'], sha3_384: ['sha3-384'], sha3_512: ['sha3-512'], ripemd160: ['rmd160', 'ripemd-160'],
}
const hashSpellingArb = fc.constantFrom(...KDF_HASHES).chain((name) =>
  fc.constantFrom(name, ...(HASH_SPELLINGS[name] ?? [])).map((spelling) => ({ name, spelling })))

/** RFC 8018 §5.2 PBKDF2 over referenceHmac (for hashes node:crypto lacks). */
function rfc8018(name, password, salt, iterations, keyLength) {
  const blocks = []
  for (let i = 1; blocks.length * sha[name].outputLength < keyLength; i++) {
    const index = Buffer.alloc(4)
    index.writeUInt32BE(i)
    let u = referenceHmac(name, password, Buffer.concat([salt, index]))
    const t = Buffer.from(u)
    for (let j = 1; j < iterations; j++) {
      u = referenceHmac(name, password, u)
      for (let k = 0; k < t.length; k++) t[k] ^= u[k]
    }
    blocks.push(t)
  }
  return Buffer.concat(blocks).subarray(0, keyLength)
}

/** RFC 5869 HKDF over referenceHmac (for hashes node:crypto lacks). */
function rfc5869(name, ikm, salt, info, keyLength) {
  const prk = referenceHmac(name, salt ?? Buffer.alloc(sha[name].outputLength), ikm)
  const blocks = []
  let t = Buffer.alloc(0)
  for (let i = 1; blocks.length * sha[name].outputLength < keyLength; i++) {
    t = referenceHmac(name, prk, Buffer.concat([t, info, Buffer.from([i])]))
    blocks.push(t)
  }
  return Buffer.concat(blocks).subarray(0, keyLength)
}

property(
  'kdf.pbkdf2 / pbkdf2Async: every hash (and its other spellings), iterations 1..50, key lengths 1..300, equal node:crypto pbkdf2Sync (RFC 8018 over the reference HMAC where node lacks the hash)',
  100,
  fc.record({
    hash: hashSpellingArb,
    password: bytesArb({ max: 200 }),
    salt: bytesArb({ max: 100 }),
    iterations: fc.integer({ min: 1, max: 50 }),
    keyLength: optionalArb(fc.oneof(fc.integer({ min: 1, max: 300 }), fc.constantFrom(1, 20, 32, 64, 65, 128, 129))),
    format: formatArb,
  }),
  async ({ hash, password, salt, iterations, keyLength, format }) => {
    const pw = make(password)
    const s = make(salt)
    const len = keyLength ?? 32
    const theirs = NODE_HASH[hash.name]
    const expected = theirs
      ? nodeCrypto.pbkdf2Sync(pw.bytes, s.bytes, iterations, len, theirs)
      : rfc8018(hash.name, pw.bytes, s.bytes, iterations, len)
    const options = { salt: s.input, iterations, hash: hash.spelling, ...(keyLength ? { keyLength } : {}) }
    assertFormatted(kdf.pbkdf2(pw.input, withFormat(options, format)), expected, format, 'pbkdf2')
    assertFormatted(await kdf.pbkdf2Async(pw.input, withFormat(options, format)), expected, format, 'pbkdf2Async')
  },
)

property(
  'kdf.hkdf / hkdfAsync: every hash, random salt (or none: HashLen zeros), info and key length, equal node:crypto hkdfSync (RFC 5869 over the reference HMAC where node lacks the hash)',
  100,
  fc.record({
    hash: hashSpellingArb,
    ikm: bytesArb({ max: 300 }),
    salt: optionalArb(bytesArb({ max: 200 })),
    info: optionalArb(bytesArb({ max: 200 })),
    lengthPick: optionalArb(fc.nat()),
    format: formatArb,
  }),
  async ({ hash, ikm, salt, info, lengthPick, format }) => {
    const k = make(ikm)
    const s = salt && make(salt)
    const i = info && make(info)
    const hashLen = sha[hash.name].outputLength
    // Up to 255·HashLen, at most 2000 bytes here.
    const keyLength = lengthPick === undefined ? undefined : 1 + (lengthPick % Math.min(255 * hashLen, 2000))
    const len = keyLength ?? hashLen
    const theirs = NODE_HASH[hash.name]
    const infoBytes = i ? i.bytes : Buffer.alloc(0)
    const expected = theirs
      ? Buffer.from(nodeCrypto.hkdfSync(theirs, k.bytes, s ? s.bytes : Buffer.alloc(0), infoBytes, len))
      : rfc5869(hash.name, k.bytes, s && s.bytes, infoBytes, len)
    const options = { hash: hash.spelling, ...(s ? { salt: s.input } : {}), ...(i ? { info: i.input } : {}), ...(keyLength ? { keyLength } : {}) }
    assertFormatted(kdf.hkdf(k.input, withFormat(options, format)), expected, format, 'hkdf')
    assertFormatted(await kdf.hkdfAsync(k.input, withFormat(options, format)), expected, format, 'hkdfAsync')
  },
)

property(
  'kdf.scrypt / scryptAsync: N 2..64, r 1..4, p 1..2, random key lengths, equal node:crypto scryptSync; maxmem is exactly 128·r·(N + 2 + p)',
  40,
  fc.record({
    password: bytesArb({ max: 100 }),
    salt: bytesArb({ max: 100 }),
    logN: fc.integer({ min: 1, max: 6 }),
    r: fc.integer({ min: 1, max: 4 }),
    p: fc.integer({ min: 1, max: 2 }),
    keyLength: optionalArb(fc.integer({ min: 1, max: 200 })),
    format: formatArb,
  }),
  async ({ password, salt, logN, r, p, keyLength, format }) => {
    const pw = make(password)
    const s = make(salt)
    const N = 2 ** logN
    const expected = nodeCrypto.scryptSync(pw.bytes, s.bytes, keyLength ?? 64, { N, r, p })
    const options = { salt: s.input, N, r, p, ...(keyLength ? { keyLength } : {}) }
    assertFormatted(kdf.scrypt(pw.input, withFormat(options, format)), expected, format, 'scrypt')
    assertFormatted(await kdf.scryptAsync(pw.input, withFormat(options, format)), expected, format, 'scryptAsync')

    // maxmem: exactly 128·r·(N + 2 + p) bytes is enough, one byte less a RangeError.
    const need = 128 * r * (N + 2 + p)
    same(kdf.scrypt(pw.input, { ...options, maxmem: need, outputFormat: 'buffer' }), expected, 'maxmem = need')
    assert.throws(() => kdf.scrypt(pw.input, { ...options, maxmem: need - 1 }), (e) => e instanceof RangeError && e.code === 'ERR_OUT_OF_RANGE')
  },
)

/** The npm package `argon2` (native), or null when it does not load here (checked in a child process). */
/**
 * A native npm package, or null (with a warning saying what is then not checked) when `probe`
 * fails in a child process: a broken prebuild could crash this one.
 */
function nativePeer(name, probe, unchecked) {
  const r = spawnSync(process.execPath, ['-e', probe], { cwd: __dirname, timeout: scaled(60000) })
  if (r.status !== 0) {
    console.warn(`[properties] the npm package "${name}" does not load here: ${unchecked}`)
    return null
  }
  return require(name)
}

const peerArgon2 = nativePeer(
  'argon2',
  "require('argon2').hash('x', { memoryCost: 1024 }).then(() => process.exit(0), () => process.exit(1))",
  'Argon2 is checked by its own round trips only',
)
const ARGON2_TYPES = { d: 0, i: 1, id: 2, argon2d: 0, argon2i: 1, argon2id: 2 }

property(
  `kdf.argon2 / argon2Sync / verify / verifySync: random variant, version, tiny m and t, lanes, salt, secret, associated data and tag length; raw tag ${peerArgon2 ? 'equals the npm argon2 package, whose PHC strings verify here and ours there' : 'sync = async'}; a wrong password does not verify`,
  40,
  fc.record({
    password: bytesArb({ max: 64 }),
    salt: bytesArb({ min: 8, max: 32 }),
    secret: optionalArb(bytesArb({ min: 1, max: 32 })),
    associatedData: optionalArb(bytesArb({ min: 1, max: 32 })),
    variant: fc.constantFrom(...Object.keys(ARGON2_TYPES)),
    version: fc.constantFrom(16, 19),
    timeCost: fc.integer({ min: 1, max: 3 }),
    parallelism: fc.integer({ min: 1, max: 3 }),
    extraMemory: fc.nat({ max: 40 }),
    keyLength: fc.integer({ min: 4, max: 80 }),
    format: fc.constantFrom(...FORMATS.filter(Boolean)),
  }),
  async (v) => {
    const pw = make(v.password)
    const salt = make(v.salt)
    const secret = v.secret && make(v.secret)
    const ad = v.associatedData && make(v.associatedData)
    const params = {
      variant: v.variant, version: v.version, timeCost: v.timeCost, parallelism: v.parallelism,
      memoryCost: 8 * v.parallelism + v.extraMemory, keyLength: v.keyLength,
    }
    const options = { ...params, salt: salt.input, ...(secret ? { secret: secret.input } : {}), ...(ad ? { associatedData: ad.input } : {}) }
    const raw = kdf.argon2Sync(pw.input, { ...options, outputFormat: 'buffer' })
    assert.equal(raw.length, v.keyLength)
    assertFormatted(await kdf.argon2(pw.input, { ...options, outputFormat: v.format }), raw, v.format, 'argon2 (async)')
    const phc = kdf.argon2Sync(pw.input, options)
    assert.deepEqual(kdf.argon2.parse(phc), {
      variant: `argon2${v.variant.replace('argon2', '')}`, version: v.version, memoryCost: params.memoryCost,
      timeCost: v.timeCost, parallelism: v.parallelism, saltLength: salt.bytes.length, keyLength: v.keyLength,
    })
    // A salt shorter than the default 16 bytes is weaker: rehash.
    assert.equal(kdf.argon2.needsRehash(phc, params), salt.bytes.length < kdf.argon2.defaults.saltLength)
    assert.equal(kdf.argon2.needsRehash(phc, { ...params, timeCost: v.timeCost + 1 }), true, 'needsRehash, other timeCost')
    assert.equal(kdf.argon2.needsRehash(phc, { ...params, memoryCost: params.memoryCost + 8 }), true, 'needsRehash, other memoryCost')
    const verifyOptions = secret ? { secret: secret.input } : undefined
    assert.equal(kdf.argon2.verifySync(pw.input, phc, verifyOptions), true, 'verifySync')
    assert.equal(await kdf.argon2.verify(pw.input, phc, verifyOptions), true, 'verify')
    const wrong = Buffer.concat([pw.bytes, Buffer.from([1])])
    assert.equal(kdf.argon2.verifySync(wrong, phc, verifyOptions), false, 'wrong password')
    if (secret) assert.equal(kdf.argon2.verifySync(pw.input, phc), false, 'secret missing')

    if (peerArgon2) {
      const theirOptions = {
        type: ARGON2_TYPES[v.variant], version: v.version, timeCost: v.timeCost, parallelism: v.parallelism,
        memoryCost: params.memoryCost, hashLength: v.keyLength, salt: salt.bytes,
        ...(secret ? { secret: secret.bytes } : {}), ...(ad ? { associatedData: ad.bytes } : {}),
      }
      same(await peerArgon2.hash(pw.bytes, { ...theirOptions, raw: true }), raw, 'npm argon2 raw tag')
      // The npm package's PHC parser (@phc/format) turns a parameter of digits only into a
      // number, and then fails on `Buffer.from(number)`: an associated data field whose base64 is
      // all digits ("data=208") cannot be verified there. Its own hashes of the same data are
      // checked below.
      if (!/[$,]data=\d+[,$]/.test(phc)) {
        assert.equal(await peerArgon2.verify(phc, pw.bytes, secret ? { secret: secret.bytes } : undefined), true, 'npm argon2 verifies ours')
      }
      const theirs = await peerArgon2.hash(pw.bytes, theirOptions)
      assert.equal(kdf.argon2.verifySync(pw.input, theirs, verifyOptions), true, 'ours verifies npm argon2')
    }
  },
)

property(
  'kdf.bcrypt: rounds 4..6, passwords 0..72 bytes (strings or their UTF-8 bytes), given or random salt: bcryptjs computes the same hash from our salt and verifies ours; ours verifies bcryptjs ($2b$, $2a$, $2y$); a wrong password does not verify; async forms agree',
  30,
  fc.record({
    password: bytesArb({ max: 72 }),
    rounds: fc.constantFrom(4, 5, 6),
    salt: optionalArb(bytesArb({ n: 16, kinds: VIEW_KINDS })),
    asNumber: fc.boolean(),
  }),
  async (v) => {
    // bcryptjs takes strings: the password is a well-formed string (bcryptjs has its own UTF-8
    // encoder, which encodes lone surrogates differently from Buffer/TextEncoder) without U+0000
    // (which C bcrypt cannot take), given to us as the string or as its UTF-8 bytes. U+FFFD
    // replaces a lone surrogate: the same 3 bytes, so the length stays.
    const text = stringOf(v.password.n, v.password.seed, true).toWellFormed()
    const input = v.password.kind === 'string' ? text : wrap(Buffer.from(text), v.password.kind, v.password.offset)
    const options = v.salt ? { rounds: v.rounds, salt: make(v.salt).input } : v.asNumber ? v.rounds : { rounds: v.rounds }
    const ours = kdf.bcrypt.hash(input, options)
    assert.match(ours, /^\$2b\$0[4-6]\$[./A-Za-z0-9]{53}$/)
    assert.equal(kdf.bcrypt.rounds(ours), v.rounds)
    assert.equal(bcryptjs.hashSync(text, ours.slice(0, 29)), ours, 'bcryptjs, same salt')
    assert.equal(bcryptjs.compareSync(text, ours), true, 'bcryptjs verifies ours')
    if (v.salt) assert.equal(await kdf.bcrypt.hashAsync(input, options), ours, 'hashAsync, same salt')

    const theirs = bcryptjs.hashSync(text, v.rounds)
    for (const prefix of ['$2b$', '$2a$', '$2y$']) {
      assert.equal(kdf.bcrypt.verify(input, prefix + theirs.slice(4)), true, `ours verifies bcryptjs ${prefix}`)
    }
    assert.equal(await kdf.bcrypt.verifyAsync(input, theirs), true, 'verifyAsync')
    const wrong = Buffer.from(text.length ? text : 'a')
    wrong[0] ^= text.length ? 2 : 0
    assert.equal(kdf.bcrypt.verify(wrong, ours), false, 'wrong password')
    assert.equal(await kdf.bcrypt.verifyAsync(wrong, theirs), false, 'wrong password (async)')
  },
)

const peerBcrypt = nativePeer('bcrypt', "require('bcrypt').hashSync('x', 4); process.exit(0)", 'bcrypt is not compared with C code')
const bcryptC = 'kdf.bcrypt: rounds 4..6, binary passwords 0..100 bytes (NUL, invalid UTF-8; over 72 with truncate) and salts: the same string as the `bcrypt` npm package (C, OpenBSD code) from our salt; ours verifies its hashes, not with a changed byte'
;(peerBcrypt ? property : test.skip)(
  bcryptC,
  40,
  fc.record({
    password: bytesArb({ max: 100, kinds: VIEW_KINDS }),
    salt: bytesArb({ n: 16, kinds: VIEW_KINDS }),
    rounds: fc.constantFrom(4, 5, 6),
  }),
  (v) => {
    const pw = make(v.password)
    const ours = kdf.bcrypt.hash(pw.input, { rounds: v.rounds, salt: make(v.salt).input, truncate: true })
    assert.equal(peerBcrypt.hashSync(Buffer.from(pw.bytes), ours.slice(0, 29)), ours, 'C bcrypt, same salt')
    const theirs = peerBcrypt.hashSync(Buffer.from(pw.bytes), v.rounds)
    assert.equal(kdf.bcrypt.verify(pw.input, theirs), true, 'ours verifies C bcrypt')
    const wrong = Buffer.concat([pw.bytes.subarray(0, 72), Buffer.from('x')])
    wrong[0] ^= 1
    assert.equal(kdf.bcrypt.verify(wrong, theirs), false, 'a changed first byte does not verify')
  },
)

property(
  'kdf.bcrypt: passwords over 72 bytes throw RangeError, or with truncate hash as their first 72 bytes',
  15,
  fc.record({ password: bytesArb({ min: 73, max: 300, kinds: VIEW_KINDS }), salt: bytesArb({ n: 16, kinds: VIEW_KINDS }) }),
  (v) => {
    const pw = make(v.password)
    const salt = make(v.salt).input
    assert.throws(() => kdf.bcrypt.hash(pw.input, { rounds: 4, salt }), (e) => e instanceof RangeError)
    assert.equal(kdf.bcrypt.hash(pw.input, { rounds: 4, salt, truncate: true }), kdf.bcrypt.hash(pw.bytes.subarray(0, 72), { rounds: 4, salt }))
  },
)

// ---- randomBytes, timingSafeEqual ---------------------------------------------------------------

property(
  'timingSafeEqual equals node:crypto timingSafeEqual for equal, one-bit-different and unrelated inputs of every kind; different lengths throw RangeError',
  200,
  fc.record({
    a: bytesArb({ max: 300 }),
    relation: fc.constantFrom('equal', 'flip', 'other', 'length'),
    bit: fc.nat(),
    bKind: fc.constantFrom(...KINDS),
    seed: fc.nat(),
  }),
  ({ a, relation, bit, bKind, seed }) => {
    const x = make(a)
    let bBytes
    if (relation === 'equal') bBytes = Buffer.from(x.bytes)
    else if (relation === 'other') bBytes = bytesOf(x.bytes.length, seed)
    else if (relation === 'length') bBytes = bytesOf(x.bytes.length + 1 + (seed % 5), seed)
    else {
      bBytes = Buffer.from(x.bytes)
      if (bBytes.length) bBytes[(bit >>> 3) % bBytes.length] ^= 1 << (bit & 7)
    }
    // A string only where the bytes are valid UTF-8 (then it encodes to exactly them).
    const text = bBytes.toString('utf8')
    const b = bKind === 'string' && Buffer.from(text).equals(bBytes) ? text : wrap(bBytes, bKind === 'string' ? 'dataview' : bKind, seed % 9)
    if (relation === 'length') {
      assert.throws(() => nodeCrypto.timingSafeEqual(x.bytes, bBytes), (e) => e instanceof RangeError)
      assert.throws(() => timingSafeEqual(x.input, b), (e) => e instanceof RangeError)
    } else {
      assert.equal(timingSafeEqual(x.input, b), nodeCrypto.timingSafeEqual(x.bytes, bBytes))
    }
  },
)

property(
  'randomBytes(n): a Buffer of exactly n bytes; two calls of 16+ bytes differ',
  100,
  lengthArb(0, 70000, true),
  (n) => {
    const a = randomBytes(n)
    assert.ok(Buffer.isBuffer(a))
    assert.equal(a.length, n)
    if (n >= 16) assert.notEqual(a.toString('hex'), randomBytes(n).toString('hex'))
  },
)

// ---- wrong types ------------------------------------------------------------------------------

/** Values that are not bytes: numbers, bigints, booleans, null, undefined, symbols, objects (also
 * ones that look like views), arrays, functions, boxed strings, dates, maps. */
const notBytesArb = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.bigInt(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.string().map((s) => Symbol(s)),
  fc.object({ maxDepth: 1 }),
  fc.array(fc.anything({ maxDepth: 1 }), { maxLength: 5 }),
  fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 5 }),
  fc.func(fc.anything({ maxDepth: 0 })),
  fc.string().map((s) => new String(s)), // eslint-disable-line no-new-wrappers
  fc.record({ byteLength: fc.nat(64), byteOffset: fc.nat(8), length: fc.nat(64), buffer: fc.constant(new ArrayBuffer(64)) }, { requiredKeys: [] }),
  fc.constant(new Date(0)),
  fc.constant(new Map([[0, 1]])),
)

const KEY16 = Buffer.alloc(16, 7)
const KEY32 = Buffer.alloc(32, 7)
const BCRYPT_HASH = kdf.bcrypt.hash('pw', 4)
const ARGON2_PHC = kdf.argon2Sync('pw', { memoryCost: 8, timeCost: 1, parallelism: 1 })

/**
 * Every place a public function takes bytes: [label, call(value), async?, optional?]. An optional
 * option treats null/undefined as absent, so those two are not errors there.
 */
const BYTE_ARGUMENTS = []
const arg = (label, call, { async = false, optional = false } = {}) => BYTE_ARGUMENTS.push({ label, call, async, optional })
for (const name of Object.keys(sha)) {
  arg(`sha.${name}(v)`, (v) => sha[name](v))
  arg(`sha.${name}(v, { outputFormat: 'buffer' })`, (v) => sha[name](v, { outputFormat: 'buffer' }))
  arg(`sha.${name}.create().update(v)`, (v) => sha[name].create().update(v))
  arg(`sha.${name}.create().update(big).update(v)`, (v) => sha[name].create().update(Buffer.alloc(9000)).update(v))
  arg(`sha.${name}.async(v)`, (v) => sha[name].async(v), { async: true })
}
for (const option of ['key', 'salt', 'personalization']) {
  arg(`sha.blake2b('x', { ${option}: v })`, (v) => sha.blake2b('x', { [option]: v }), { optional: true })
  arg(`sha.blake2s.create({ ${option}: v })`, (v) => sha.blake2s.create({ [option]: v }), { optional: true })
}
arg("sha.blake3('x', { key: v })", (v) => sha.blake3('x', { key: v }), { optional: true })
arg("sha.blake3('x', { context: v })", (v) => sha.blake3('x', { context: v }), { optional: true })
for (const name of Object.keys(hmac)) {
  arg(`hmac.${name}(v, { key })`, (v) => hmac[name](v, { key: 'k' }))
  arg(`hmac.${name}('x', { key: v })`, (v) => hmac[name]('x', { key: v }))
  arg(`hmac.${name}.create({ key: v })`, (v) => hmac[name].create({ key: v }))
  arg(`hmac.${name}.create({ key }).update(v)`, (v) => hmac[name].create({ key: 'k' }).update(v))
  arg(`hmac.${name}.async(v, { key })`, (v) => hmac[name].async(v, { key: 'k' }), { async: true })
}
for (const [label, ns, key] of [['aes', aes, KEY16], ['chacha20', chacha20, KEY32], ['xchacha20', xchacha20, KEY32], ['des', des, KEY16]]) {
  for (const op of ['encrypt', 'decrypt']) {
    arg(`cipher.${label}.${op}(v, { key })`, (v) => ns[op](v, { key }))
    arg(`cipher.${label}.${op}Async(v, { key })`, (v) => ns[`${op}Async`](v, { key }), { async: true })
    arg(`cipher.${label}.key(key).${op}(v)`, (v) => ns.key(key)[op](v))
  }
  arg(`cipher.${label}.encrypt('x', { key: v })`, (v) => ns.encrypt('x', { key: v }))
  arg(`cipher.${label}.key(v)`, (v) => ns.key(v))
  arg(`cipher.${label}.encrypt('x', { key, iv: v })`, (v) => ns.encrypt('x', { key, iv: v }), { optional: true })
}
for (const label of ['aes', 'xchacha20']) {
  const ns = cipher[label]
  for (const op of ['encryptStream', 'decryptStream']) {
    arg(`cipher.${label}.${op}({ key: v })`, (v) => ns[op]({ key: v }))
    arg(`cipher.${label}.${op}({ passphrase: v })`, (v) => ns[op]({ passphrase: v }))
    arg(`cipher.${label}.${op}({ key, aad: v })`, (v) => ns[op]({ key: KEY32, aad: v }), { optional: true })
  }
  for (const op of ['encryptFile', 'decryptFile']) {
    arg(`cipher.${label}.${op}(src, dst, { key: v })`, (v) => ns[op]('src', 'dst', { key: v }), { async: true })
    arg(`cipher.${label}.${op}(src, dst, { key, aad: v })`, (v) => ns[op]('src', 'dst', { key: KEY32, aad: v }), { async: true, optional: true })
  }
}
for (const label of ['aes', 'xchacha20']) {
  const ns = cipher[label]
  const cheap = { memoryCost: 8, timeCost: 1, parallelism: 1 }
  const sealed = ns.sealSync('x', { passphrase: 'p', ...cheap })
  const key = ns.deriveKeySync('p', cheap)
  arg(`cipher.${label}.sealSync(v, { passphrase })`, (v) => ns.sealSync(v, { passphrase: 'p', ...cheap }))
  arg(`cipher.${label}.sealAsync(v, { passphrase })`, (v) => ns.sealAsync(v, { passphrase: 'p', ...cheap }), { async: true })
  arg(`cipher.${label}.sealSync('x', { passphrase: v })`, (v) => ns.sealSync('x', { passphrase: v, ...cheap }))
  arg(`cipher.${label}.sealSync('x', { passphrase, aad: v })`, (v) => ns.sealSync('x', { passphrase: 'p', aad: v, ...cheap }), { optional: true })
  arg(`cipher.${label}.openSync(v, { passphrase })`, (v) => ns.openSync(v, { passphrase: 'p' }))
  arg(`cipher.${label}.openAsync(v, { passphrase })`, (v) => ns.openAsync(v, { passphrase: 'p' }), { async: true })
  arg(`cipher.${label}.openSync(sealed, { passphrase: v })`, (v) => ns.openSync(sealed, { passphrase: v }))
  arg(`cipher.${label}.deriveKeySync(v)`, (v) => ns.deriveKeySync(v, cheap))
  arg(`cipher.${label}.deriveKeyAsync(v)`, (v) => ns.deriveKeyAsync(v, cheap), { async: true })
  arg(`cipher.${label}.deriveKeySync(p).sealSync(v)`, (v) => key.sealSync(v))
  arg(`cipher.${label}.deriveKeySync(p).sealSync('x', { aad: v })`, (v) => key.sealSync('x', { aad: v }), { optional: true })
  arg(`cipher.${label}.deriveKeySync(p).openAsync(v)`, (v) => key.openAsync(v), { async: true })
}
const { cryptoJs } = cipher.legacy
for (const op of ['encrypt', 'decrypt']) {
  arg(`cipher.legacy.cryptoJs.${op}(v, { passphrase })`, (v) => cryptoJs[op](v, { passphrase: 'p' }))
  arg(`cipher.legacy.cryptoJs.${op}Async(v, { passphrase })`, (v) => cryptoJs[`${op}Async`](v, { passphrase: 'p' }), { async: true })
  arg(`cipher.legacy.cryptoJs.${op}('x', { passphrase: v })`, (v) => cryptoJs[op]('x', { passphrase: v }))
}
for (const op of ['encrypt', 'decrypt']) {
  arg(`cipher.age.${op}Sync(v, { passphrase })`, (v) => cipher.age[`${op}Sync`](v, { passphrase: 'p' }))
  arg(`cipher.age.${op}(v, { passphrase })`, (v) => cipher.age[op](v, { passphrase: 'p' }), { async: true })
  arg(`cipher.age.${op}Sync('x', { passphrase: v })`, (v) => cipher.age[`${op}Sync`]('x', { passphrase: v }))
  arg(`cipher.age.${op}('x', { passphrase: v })`, (v) => cipher.age[op]('x', { passphrase: v }), { async: true })
  arg(`cipher.age.${op}File(src, dst, { passphrase: v })`, (v) => cipher.age[`${op}File`]('src', 'dst', { passphrase: v }), { async: true })
}
arg("cipher.aes.encrypt('x', { key, aad: v })", (v) => aes.encrypt('x', { key: KEY16, aad: v }), { optional: true })
arg("cipher.chacha20.decrypt(ct, { key, aad: v })", (v) => chacha20.decrypt(Buffer.alloc(40), { key: KEY32, aad: v }), { optional: true })
// Batch calls: an item that is not bytes, in the middle of a list (several N-API paths: lanes,
// the items left over, the async copy).
const inList = (v) => ['a', 'b', 'c', 'd', v, 'e']
for (const name of ['sha256', 'md5', 'blake3', 'shake128']) {
  arg(`sha.${name}.batch([..., v])`, (v) => sha[name].batch(inList(v)))
  arg(`sha.${name}.batch([..., v], { outputFormat: 'buffer' })`, (v) => sha[name].batch(inList(v), { outputFormat: 'buffer' }))
  arg(`sha.${name}.batchAsync([..., v])`, (v) => sha[name].batchAsync(inList(v)), { async: true })
}
for (const name of ['sha256', 'sha512']) {
  arg(`hmac.${name}.batch([..., v], { key })`, (v) => hmac[name].batch(inList(v), { key: 'k' }))
  arg(`hmac.${name}.batch(['x'], { key: v })`, (v) => hmac[name].batch(['x'], { key: v }))
  arg(`hmac.${name}.batchAsync([..., v], { key })`, (v) => hmac[name].batchAsync(inList(v), { key: 'k' }), { async: true })
}
for (const op of ['encryptBatch', 'decryptBatch']) {
  arg(`cipher.aes.${op}([..., v], { key })`, (v) => aes[op](inList(v), { key: KEY16 }))
  arg(`cipher.aes.${op}Async([..., v], { key })`, (v) => aes[`${op}Async`](inList(v), { key: KEY16 }), { async: true })
  arg(`cipher.chacha20.${op}(['x'], { key: v })`, (v) => chacha20[op](['x'], { key: v }))
}
arg("cipher.aes.encryptBatch(['x', 'y'], { key, ivs: [iv, v] })", (v) => aes.encryptBatch(['x', 'y'], { key: KEY16, ivs: [Buffer.alloc(12), v] }))
const PBKDF2 = { salt: 's', iterations: 1 }
arg('kdf.pbkdf2(v, options)', (v) => kdf.pbkdf2(v, PBKDF2))
arg("kdf.pbkdf2('pw', { salt: v })", (v) => kdf.pbkdf2('pw', { ...PBKDF2, salt: v }))
arg('kdf.pbkdf2Async(v, options)', (v) => kdf.pbkdf2Async(v, PBKDF2), { async: true })
const SCRYPT = { salt: 's', N: 2, r: 1, p: 1 }
arg('kdf.scrypt(v, options)', (v) => kdf.scrypt(v, SCRYPT))
arg("kdf.scrypt('pw', { salt: v })", (v) => kdf.scrypt('pw', { ...SCRYPT, salt: v }))
arg('kdf.scryptAsync(v, options)', (v) => kdf.scryptAsync(v, SCRYPT), { async: true })
arg('kdf.hkdf(v)', (v) => kdf.hkdf(v))
arg("kdf.hkdf('ikm', { salt: v })", (v) => kdf.hkdf('ikm', { salt: v }), { optional: true })
arg("kdf.hkdf('ikm', { info: v })", (v) => kdf.hkdf('ikm', { info: v }), { optional: true })
arg('kdf.hkdfAsync(v)', (v) => kdf.hkdfAsync(v), { async: true })
const ARGON2 = { memoryCost: 8, timeCost: 1, parallelism: 1 }
arg('kdf.argon2Sync(v, options)', (v) => kdf.argon2Sync(v, ARGON2))
for (const option of ['salt', 'secret', 'associatedData']) {
  arg(`kdf.argon2Sync('pw', { ${option}: v })`, (v) => kdf.argon2Sync('pw', { ...ARGON2, [option]: v }), { optional: true })
}
arg('kdf.argon2(v, options)', (v) => kdf.argon2(v, ARGON2), { async: true })
arg('kdf.argon2.verifySync(v, phc)', (v) => kdf.argon2.verifySync(v, ARGON2_PHC))
arg('kdf.argon2.verify(v, phc)', (v) => kdf.argon2.verify(v, ARGON2_PHC), { async: true })
arg('kdf.bcrypt.hash(v, 4)', (v) => kdf.bcrypt.hash(v, 4))
arg("kdf.bcrypt.hash('pw', { rounds: 4, salt: v })", (v) => kdf.bcrypt.hash('pw', { rounds: 4, salt: v }), { optional: true })
arg('kdf.bcrypt.hashAsync(v, 4)', (v) => kdf.bcrypt.hashAsync(v, 4), { async: true })
arg('kdf.bcrypt.verify(v, hash)', (v) => kdf.bcrypt.verify(v, BCRYPT_HASH))
arg('kdf.bcrypt.verifyAsync(v, hash)', (v) => kdf.bcrypt.verifyAsync(v, BCRYPT_HASH), { async: true })
const PASSWORD_POLICY = crypto.password.createPolicy({ algorithm: 'pbkdf2', pbkdf2: { iterations: { sha256: 1 } } })
const PASSWORD_HASH = crypto.password.hashSync('pw', { policy: PASSWORD_POLICY })
arg('password.hash(v, options)', (v) => crypto.password.hash(v, { policy: PASSWORD_POLICY }), { async: true })
arg('password.hashSync(v, options)', (v) => crypto.password.hashSync(v, { policy: PASSWORD_POLICY }))
arg('password.verify(v, stored)', (v) => crypto.password.verify(v, PASSWORD_HASH), { async: true })
arg('password.verify(v, null)', (v) => crypto.password.verify(v, null, { policy: PASSWORD_POLICY }), { async: true })
arg('password.verifySync(v, stored)', (v) => crypto.password.verifySync(v, PASSWORD_HASH))
const ED = crypto.dsa.ed25519.generateKeypair()
const EC = crypto.dsa.ecdsa.generateKeypair('p256')
const X = crypto.cipher.x25519.generateKeypair()
const ED_SIG = crypto.dsa.ed25519.sign(ED.privateKey, 'm')
const EC_SIG = crypto.dsa.ecdsa.sign('m', { privateKey: EC.privateKey })
arg('dsa.ed25519.sign(v, m)', (v) => crypto.dsa.ed25519.sign(v, 'm'))
arg('dsa.ed25519.sign(key, v)', (v) => crypto.dsa.ed25519.sign(ED.privateKey, v))
arg('dsa.ed25519.verify(v, m, sig)', (v) => crypto.dsa.ed25519.verify(v, 'm', ED_SIG))
arg('dsa.ed25519.verify(key, v, sig)', (v) => crypto.dsa.ed25519.verify(ED.publicKey, v, ED_SIG))
arg('dsa.ed25519.verify(key, m, v)', (v) => crypto.dsa.ed25519.verify(ED.publicKey, 'm', v))
arg('dsa.ecdsa.sign(v, { privateKey })', (v) => crypto.dsa.ecdsa.sign(v, { privateKey: EC.privateKey }))
arg("dsa.ecdsa.sign('m', { privateKey: v })", (v) => crypto.dsa.ecdsa.sign('m', { privateKey: v }))
arg('dsa.ecdsa.verify(v, { publicKey, signature })', (v) => crypto.dsa.ecdsa.verify(v, { publicKey: EC.publicKey, signature: EC_SIG }))
arg("dsa.ecdsa.verify('m', { publicKey: v, signature })", (v) => crypto.dsa.ecdsa.verify('m', { publicKey: v, signature: EC_SIG }))
arg("dsa.ecdsa.verify('m', { publicKey, signature: v })", (v) => crypto.dsa.ecdsa.verify('m', { publicKey: EC.publicKey, signature: v }))
arg('cipher.x25519.deriveSharedSecret(v, pub)', (v) => crypto.cipher.x25519.deriveSharedSecret(v, X.publicKey))
arg('cipher.x25519.deriveSharedSecret(key, v)', (v) => crypto.cipher.x25519.deriveSharedSecret(X.privateKey, v))
for (const set of ['mldsa44', 'mldsa65', 'mldsa87']) {
  const api = crypto.dsa[set]
  const kp = api.generateKeypair()
  const sig = api.sign('m', kp.privateKey)
  arg(`dsa.${set}.generateKeypair({ seed: v })`, (v) => api.generateKeypair({ seed: v }), { optional: true })
  arg(`dsa.${set}.sign(m, v)`, (v) => api.sign('m', v))
  arg(`dsa.${set}.sign(v, key)`, (v) => api.sign(v, kp.privateKey))
  arg(`dsa.${set}.sign(m, key, { context: v })`, (v) => api.sign('m', kp.privateKey, { context: v }), { optional: true })
  arg(`dsa.${set}.signAsync(m, v)`, (v) => api.signAsync('m', v), { async: true })
  arg(`dsa.${set}.signAsync(v, key)`, (v) => api.signAsync(v, kp.privateKey), { async: true })
  arg(`dsa.${set}.verify(m, v, sig)`, (v) => api.verify('m', v, sig))
  arg(`dsa.${set}.verify(v, key, sig)`, (v) => api.verify(v, kp.publicKey, sig))
  arg(`dsa.${set}.verify(m, key, v)`, (v) => api.verify('m', kp.publicKey, v))
  arg(`dsa.${set}.verify(m, key, sig, { context: v })`, (v) => api.verify('m', kp.publicKey, sig, { context: v }), { optional: true })
  arg(`dsa.${set}.verifyAsync(m, key, v)`, (v) => api.verifyAsync('m', kp.publicKey, v), { async: true })
}
const RSA = crypto.dsa.rsa.generateKeypair({ modulusLength: 2048 })
const RSA_SIG = crypto.dsa.rsa.signPSS('m', RSA.privateKey)
const RSA_CT = crypto.cipher.rsa_oaep.encrypt('m', RSA.publicKey)
for (const scheme of ['PSS', 'PKCS1v15']) {
  const sign = crypto.dsa.rsa[`sign${scheme}`]
  const verify = crypto.dsa.rsa[`verify${scheme}`]
  arg(`dsa.rsa.sign${scheme}(v, key)`, (v) => sign(v, RSA.privateKey))
  arg(`dsa.rsa.sign${scheme}(m, v)`, (v) => sign('m', v))
  arg(`dsa.rsa.verify${scheme}(v, key, sig)`, (v) => verify(v, RSA.publicKey, RSA_SIG))
  arg(`dsa.rsa.verify${scheme}(m, v, sig)`, (v) => verify('m', v, RSA_SIG))
  arg(`dsa.rsa.verify${scheme}(m, key, v)`, (v) => verify('m', RSA.publicKey, v))
}
arg('cipher.rsa_oaep.encrypt(v, key)', (v) => crypto.cipher.rsa_oaep.encrypt(v, RSA.publicKey))
arg('cipher.rsa_oaep.encrypt(m, v)', (v) => crypto.cipher.rsa_oaep.encrypt('m', v))
arg('cipher.rsa_oaep.encrypt(m, key, { label: v })', (v) => crypto.cipher.rsa_oaep.encrypt('m', RSA.publicKey, { label: v }), { optional: true })
arg('dsa.rsa.signPSSAsync(v, key)', (v) => crypto.dsa.rsa.signPSSAsync(v, RSA.privateKey), { async: true })
arg('cipher.rsa_oaep.decryptAsync(v, key)', (v) => crypto.cipher.rsa_oaep.decryptAsync(v, RSA.privateKey), { async: true })
arg('cipher.rsa_oaep.decrypt(v, key)', (v) => crypto.cipher.rsa_oaep.decrypt(v, RSA.privateKey))
arg('cipher.rsa_oaep.decrypt(ct, v)', (v) => crypto.cipher.rsa_oaep.decrypt(RSA_CT, v))
arg("cipher.ecdh.deriveSharedSecret('p256', v, pub)", (v) => crypto.cipher.ecdh.deriveSharedSecret('p256', v, EC.publicKey))
arg("cipher.ecdh.deriveSharedSecret('p256', key, v)", (v) => crypto.cipher.ecdh.deriveSharedSecret('p256', EC.privateKey, v))
const KEM = crypto.kem.mlkem768.generateKeypair()
const KEM_CT = crypto.kem.mlkem768.encapsulate(KEM.publicKey).ciphertext
for (const name of Object.keys(crypto.kem)) {
  const k = crypto.kem[name]
  const pair = name === 'mlkem768' ? KEM : k.generateKeypair()
  const ct = name === 'mlkem768' ? KEM_CT : k.encapsulate(pair.publicKey).ciphertext
  arg(`kem.${name}.encapsulate(v)`, (v) => k.encapsulate(v))
  arg(`kem.${name}.decapsulate(v, key)`, (v) => k.decapsulate(v, pair.privateKey))
  arg(`kem.${name}.decapsulate(ct, v)`, (v) => k.decapsulate(ct, v))
  arg(`kem.${name}.generateKeypair({ seed: v })`, (v) => k.generateKeypair({ seed: v }), { optional: true })
}
const HYB = crypto.hybrid.generateKeypair()
const HYB_ENV = crypto.hybrid.encrypt('x', HYB.publicKey)
const HYB_SIG = crypto.hybrid.sign('x', HYB.privateKey)
arg('hybrid.encrypt(v, pub)', (v) => crypto.hybrid.encrypt(v, HYB.publicKey))
arg('hybrid.encrypt(data, v)', (v) => crypto.hybrid.encrypt('x', v))
arg('hybrid.encrypt(data, pub, { aad: v })', (v) => crypto.hybrid.encrypt('x', HYB.publicKey, { aad: v }), { optional: true })
arg('hybrid.encryptAsync(v, pub)', (v) => crypto.hybrid.encryptAsync(v, HYB.publicKey), { async: true })
arg('hybrid.decrypt(v, key)', (v) => crypto.hybrid.decrypt(v, HYB.privateKey))
arg('hybrid.decrypt(env, v)', (v) => crypto.hybrid.decrypt(HYB_ENV, v))
arg('hybrid.decryptAsync(env, v)', (v) => crypto.hybrid.decryptAsync(HYB_ENV, v), { async: true })
arg('hybrid.sign(v, key)', (v) => crypto.hybrid.sign(v, HYB.privateKey))
arg('hybrid.sign(data, v)', (v) => crypto.hybrid.sign('x', v))
arg('hybrid.signAsync(data, v)', (v) => crypto.hybrid.signAsync('x', v), { async: true })
arg('hybrid.verify(v, pub, sig)', (v) => crypto.hybrid.verify(v, HYB.publicKey, HYB_SIG))
arg('hybrid.verify(data, pub, v)', (v) => crypto.hybrid.verify('x', HYB.publicKey, v))
arg('hybrid.verify(data, v, sig)', (v) => crypto.hybrid.verify('x', v, HYB_SIG))
arg('hybrid.verifyAsync(data, pub, v)', (v) => crypto.hybrid.verifyAsync('x', HYB.publicKey, v), { async: true })
arg('dsa.ed25519.signAsync(v, { privateKey })', (v) => crypto.dsa.ed25519.signAsync(v, { privateKey: ED.privateKey }), { async: true })
arg('dsa.ed25519.verifyAsync(m, key, v)', (v) => crypto.dsa.ed25519.verifyAsync('m', ED.publicKey, v), { async: true })
arg('dsa.ecdsa.signAsync(m, v)', (v) => crypto.dsa.ecdsa.signAsync('m', v), { async: true })
arg('cipher.x25519.deriveSharedSecretAsync(key, v)', (v) => crypto.cipher.x25519.deriveSharedSecretAsync(X.privateKey, v), { async: true })
arg('kem.mlkem768.encapsulateAsync(v)', (v) => crypto.kem.mlkem768.encapsulateAsync(v), { async: true })
arg('kem.mlkem768.decapsulateAsync(v, key)', (v) => crypto.kem.mlkem768.decapsulateAsync(v, KEM.privateKey), { async: true })
arg('hybrid.getPublicKey(v)', (v) => crypto.hybrid.getPublicKey(v))
arg('hybrid.encryptStream(v)', (v) => crypto.hybrid.encryptStream(v))
arg('hybrid.decryptStream(v)', (v) => crypto.hybrid.decryptStream(v))
arg('keys.export(v)', (v) => crypto.keys.export(v))
arg('keys.import(v)', (v) => crypto.keys.import(v))
arg("timingSafeEqual(v, 'x')", (v) => timingSafeEqual(v, 'x'))
arg("timingSafeEqual('x', v)", (v) => timingSafeEqual('x', v))

const isArgTypeError = (err) => err instanceof TypeError && err.code === 'ERR_INVALID_ARG_TYPE'

property(
  'a value that is not bytes, wherever a public function takes bytes, throws (async forms: reject) TypeError ERR_INVALID_ARG_TYPE',
  1000,
  fc.record({ at: fc.nat({ max: BYTE_ARGUMENTS.length - 1 }), value: notBytesArb }).filter(({ at, value }) => !(BYTE_ARGUMENTS[at].optional && value == null)),
  async ({ at, value }) => {
    const { label, call, async } = BYTE_ARGUMENTS[at]
    let result
    try {
      result = call(value)
    } catch (err) {
      assert.ok(!async, `${label}: threw synchronously instead of rejecting: ${err}`)
      assert.ok(isArgTypeError(err), `${label}: threw ${err && err.name} ${err && err.code}: ${err && err.message}`)
      return
    }
    assert.ok(async && result instanceof Promise, `${label}: returned ${typeof result} instead of throwing`)
    await assert.rejects(result, (err) => {
      assert.ok(isArgTypeError(err), `${label}: rejected with ${err && err.name} ${err && err.code}: ${err && err.message}`)
      return true
    })
  },
)

test('the wrong-type property\'s list of byte arguments was written from this API surface', (t) => {
  // The API surface the list was written from; a new public function must be added to it
  // (cpuPaths and memoryBudget take no arguments, setMemoryBudget a number, diagnosticsChannels is
  // a table of names; options.output is not a byte input: __test__/output.spec.js).
  t.deepEqual(Object.keys(crypto).sort(), ['cipher', 'cpuPaths', 'default', 'diagnosticsChannels', 'dsa', 'hash', 'hmac', 'hybrid', 'kdf', 'kem', 'keys',
    'memoryBudget', 'password', 'randomBytes', 'setMemoryBudget', 'sha', 'timingSafeEqual'])
  t.deepEqual(Object.keys(crypto.hybrid).sort(), ['decrypt', 'decryptAsync', 'decryptFile', 'decryptStream', 'decryptSync', 'encrypt', 'encryptAsync',
    'encryptFile', 'encryptStream', 'encryptSync', 'generateKeypair', 'generateKeypairAsync', 'generateKeypairSync', 'getPublicKey', 'sign',
    'signAsync', 'signSync', 'suites', 'verify', 'verifyAsync', 'verifySync'])
  t.deepEqual(Object.keys(crypto.kem).sort(), ['mlkem1024', 'mlkem512', 'mlkem768', 'xwing'])
  for (const k of Object.values(crypto.kem)) {
    t.deepEqual(Object.keys(k).sort(), ['decapsulate', 'decapsulateAsync', 'decapsulateSync', 'encapsulate', 'encapsulateAsync', 'encapsulateSync',
      'generateKeypair', 'generateKeypairAsync', 'generateKeypairSync', 'lengths'])
  }
  t.deepEqual(Object.keys(crypto.password).sort(), ['algorithms', 'ceilings', 'createPolicy', 'hash', 'hashAsync', 'hashSync', 'needsRehash', 'parse',
    'policy', 'verify', 'verifyAsync', 'verifySync'])
  t.deepEqual(Object.keys(cipher).sort(), ['aes', 'age', 'chacha20', 'des', 'ecdh', 'legacy', 'rsa_oaep', 'x25519', 'xchacha20'])
  const sealing = ['deriveKeyAsync', 'deriveKeySync', 'openAsync', 'openSync', 'sealAsync', 'sealSync']
  for (const ns of ['aes', 'xchacha20']) t.deepEqual(Object.keys(cipher[ns]).filter((k) => /^(seal|open|deriveKey)/.test(k)).sort(), sealing)
  t.deepEqual(Object.keys(crypto.dsa).sort(), ['ecdsa', 'ed25519', 'mldsa44', 'mldsa65', 'mldsa87', 'rsa'])
  for (const set of ['mldsa44', 'mldsa65', 'mldsa87']) {
    t.deepEqual(Object.keys(crypto.dsa[set]).sort(), ['generateKeypair', 'generateKeypairAsync', 'generateKeypairSync', 'lengths', 'sign', 'signAsync',
      'signSync', 'verify', 'verifyAsync', 'verifySync'])
  }
  t.deepEqual(Object.keys(crypto.dsa.rsa).sort(), ['generateKeypair', 'generateKeypairAsync', 'generateKeypairSync', 'signPKCS1v15', 'signPKCS1v15Async',
    'signPKCS1v15Sync', 'signPSS', 'signPSSAsync', 'signPSSSync', 'verifyPKCS1v15', 'verifyPKCS1v15Async', 'verifyPKCS1v15Sync', 'verifyPSS',
    'verifyPSSAsync', 'verifyPSSSync'])
  t.deepEqual(Object.keys(crypto.cipher.rsa_oaep).sort(), ['decrypt', 'decryptAsync', 'decryptSync', 'encrypt', 'encryptAsync', 'encryptSync'])
  t.deepEqual(Object.keys(crypto.keys).sort(), ['export', 'import'])
  t.deepEqual(Object.keys(cipher.legacy), ['cryptoJs'])
  t.deepEqual(Object.keys(cipher.age).sort(), ['decrypt', 'decryptAsync', 'decryptFile', 'decryptSync', 'defaults', 'encrypt', 'encryptAsync',
    'encryptFile', 'encryptSync', 'generateIdentity', 'toRecipient'])
  t.deepEqual(Object.keys(kdf).sort(), ['AbortError', 'argon2', 'argon2Async', 'argon2Sync', 'bcrypt', 'hkdf', 'hkdfAsync', 'hkdfSync', 'pbkdf2',
    'pbkdf2Async', 'pbkdf2Sync', 'scrypt', 'scryptAsync', 'scryptSync'])
  t.true(BYTE_ARGUMENTS.length > 200)
})
