'use strict'
// `options.output` (the result written into the caller's buffer): every hash, HMAC and cipher mode
// against node:crypto where node has the algorithm (else against the allocating form, which the
// vector and differential specs cover), random sizes, views at offsets in larger buffers of every
// ArrayBufferView kind; refusals (too small, overlapping each input, wrong types and formats,
// async and batch forms); a failed decryption leaving the output zeroed; the index.d.ts types;
// cpuPaths() against the CPU's features (/proc/cpuinfo on x86-64, AT_HWCAP on arm64).
const test = require('ava')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const nodeCrypto = require('node:crypto')
const ts = require('typescript')
const { nodeName, nodeEncrypt } = require('./helpers/node-reference')
const crypto = require('..')

const { sha, hmac, cipher } = crypto
const rnd = (n) => (n ? nodeCrypto.randomBytes(n) : Buffer.alloc(0))
const RANGE = { instanceOf: RangeError, code: 'ERR_OUT_OF_RANGE' }
const VALUE = { instanceOf: TypeError, code: 'ERR_INVALID_ARG_VALUE' }
const TYPE = { instanceOf: TypeError, code: 'ERR_INVALID_ARG_TYPE' }
const FAILED = { instanceOf: Error, code: 'ERR_CRYPTO_DECRYPT_FAILED' }

/** Random lengths: the edges of blocks plus a few random ones up to 70 000. */
function lengths() {
  const out = [0, 1, 15, 16, 17, 63, 64, 65, 127, 128, 129, 1000]
  for (let i = 0; i < 4; i++) out.push(nodeCrypto.randomInt(70000))
  return out
}

/**
 * An output of at least `n` bytes as a view of kind `kind` at a random offset inside a larger
 * buffer, filled with 0xA5; returns [view, its bytes as a Uint8Array].
 */
function outputOf(n, kind) {
  const width = { Buffer: 1, Uint8Array: 1, Uint32Array: 4, Float64Array: 8, DataView: 1 }[kind]
  const elems = Math.ceil((n + nodeCrypto.randomInt(9)) / width)
  const offset = nodeCrypto.randomInt(4) * 8
  const ab = new ArrayBuffer(offset + elems * width + 16)
  new Uint8Array(ab).fill(0xa5)
  const view =
    kind === 'Buffer'
      ? Buffer.from(ab, offset, elems)
      : kind === 'DataView'
        ? new DataView(ab, offset, elems)
        : new globalThis[kind](ab, offset, elems)
  return [view, new Uint8Array(ab, offset, elems * width)]
}

const KINDS = ['Buffer', 'Uint8Array', 'Uint32Array', 'Float64Array', 'DataView']

/** Checks the result of a call with `output`: a Buffer over the start of `view`, equal to `want`. */
function checkView(t, got, view, want, what) {
  t.true(Buffer.isBuffer(got), `${what}: a Buffer`)
  t.is(got.buffer, view.buffer, `${what}: a view of the output`)
  t.is(got.byteOffset, view.byteOffset, `${what}: at the output's start`)
  t.is(got.toString('hex'), Buffer.from(want).toString('hex'), what)
}

// ---- hashes and HMACs --------------------------------------------------------------------------

function nodeHash(name, data) {
  const n = nodeName(name)
  if (!n) return null
  const opts = name.startsWith('shake') ? { outputLength: sha[name].outputLength } : undefined
  return nodeCrypto.createHash(n, opts).update(data).digest()
}

for (const name of Object.keys(sha)) {
  test(`sha.${name} with output equals ${nodeName(name) ? 'node:crypto' : 'the allocating form'} (random sizes, every view kind)`, (t) => {
    for (const n of lengths()) {
      const data = rnd(n)
      const want = nodeHash(name, data) ?? sha[name](data, { outputFormat: 'buffer' })
      const kind = KINDS[n % KINDS.length]
      const [view, bytes] = outputOf(want.length, kind)
      const got = sha[name](data, { output: view })
      checkView(t, got, view, want, `${name}, ${n} bytes into a ${kind}`)
      // Bytes past the result are untouched.
      t.true(bytes.subarray(want.length).every((b) => b === 0xa5), `${name}: nothing written past the digest`)
      // outputFormat 'buffer' is accepted with output (into a fresh view: the same view would
      // compare the result with itself).
      const [again] = outputOf(want.length, kind)
      t.deepEqual(Buffer.from(sha[name](data, { output: again, outputFormat: 'buffer' })), want)
    }
  })
}

test("'buffer' results are distinct buffers: later calls and writes to one result leave the others as they were", (t) => {
  for (const name of ['md5', 'sha256', 'sha512', 'blake2b', 'sha3_256']) {
    const inputs = Array.from({ length: 200 }, (_, i) => rnd(i % 130))
    const results = inputs.map((d) => sha[name](d, { outputFormat: 'buffer' }))
    // Enough later calls to go through several 8 KiB pool slabs.
    const later = rnd(64)
    for (let i = 0; i < 1500; i++) sha[name](later, { outputFormat: 'buffer' })
    results[0].fill(0)
    results.slice(1).forEach((r, i) => t.deepEqual(r, nodeHash(name, inputs[i + 1]), `${name}: result ${i + 1}`))
    // No two results share a byte of memory.
    const byMemory = new Map()
    for (const r of results) byMemory.set(r.buffer, [...(byMemory.get(r.buffer) ?? []), [r.byteOffset, r.byteOffset + r.length]])
    for (const ranges of byMemory.values()) {
      ranges.sort((a, b) => a[0] - b[0])
      ranges.slice(1).forEach(([start], i) => t.true(start >= ranges[i][1], `${name}: results ${i} and ${i + 1} of one memory overlap`))
    }
  }
})

test('keyed and parameterised hashes with output equal the allocating form and node:crypto', (t) => {
  const data = rnd(777)
  const cases = [
    ['blake2b', { key: rnd(32), salt: rnd(16), personalization: rnd(16), outputLength: 40 }],
    ['blake2s', { key: rnd(16), outputLength: 20 }],
    ['blake3', { key: rnd(32), outputLength: 100 }],
    ['blake3', { context: 'output spec 2026', outputLength: 33 }],
    ['shake256', { outputLength: 300 }],
  ]
  for (const [name, opts] of cases) {
    const want = sha[name](data, { ...opts, outputFormat: 'buffer' })
    t.is(want.length, opts.outputLength)
    const [view] = outputOf(want.length, 'Uint8Array')
    checkView(t, sha[name](data, { ...opts, output: view }), view, want, name)
  }
  const shake = nodeCrypto.createHash('shake256', { outputLength: 300 }).update(data).digest()
  const [view] = outputOf(300, 'Buffer')
  checkView(t, sha.shake256(data, { outputLength: 300, output: view }), view, shake, 'shake256 vs node')
})

for (const name of Object.keys(hmac)) {
  test(`hmac.${name} with output equals ${nodeName(name) ? 'node:crypto' : 'the allocating form'}`, (t) => {
    for (const n of lengths()) {
      const key = rnd(nodeCrypto.randomInt(200))
      const data = rnd(n)
      const node = nodeName(name)
      const want = node ? nodeCrypto.createHmac(node, key).update(data).digest() : hmac[name](data, { key, outputFormat: 'buffer' })
      const [view] = outputOf(want.length, KINDS[n % KINDS.length])
      checkView(t, hmac[name](data, { key, output: view }), view, want, `hmac ${name}, ${n} bytes`)
    }
  })
}

// ---- ciphers ------------------------------------------------------------------------------------

/** Every mode of every namespace, with node's name for it at this key length when node has one. */
const MODES = [
  ...cipher.aes.modes.map((mode) => {
    const keyLen = mode === 'siv' ? 64 : 32
    const nodeNames = { ecb: 'aes-256-ecb', cbc: 'aes-256-cbc', ctr: 'aes-256-ctr', cfb: 'aes-256-cfb', cfb8: 'aes-256-cfb8', ofb: 'aes-256-ofb', gcm: 'aes-256-gcm', ccm: 'aes-256-ccm' }
    return { ns: 'aes', mode, keyLen, node: nodeNames[mode] }
  }),
  ...cipher.des.modes.map((mode) => ({ ns: 'des', mode, keyLen: 24, node: null })),
  { ns: 'chacha20', keyLen: 32, node: 'chacha20-poly1305' },
  { ns: 'xchacha20', keyLen: 32, node: null },
]
const AEAD = new Set(['gcm', 'ccm', 'gcm-siv', 'siv', undefined])
const ivLen = (m) => ({ ecb: 0, ccm: 12, 'gcm-siv': 12, gcm: 12, siv: 16 })[m.mode] ?? (m.ns === 'des' ? 8 : m.ns === 'xchacha20' ? 24 : m.ns === 'chacha20' ? 12 : 16)
const label = (m) => `${m.ns}${m.mode ? `-${m.mode}` : ''}`

for (const m of MODES) {
  const aead = m.ns !== 'des' && AEAD.has(m.mode)
  test(`cipher ${label(m)}: encrypt and decrypt with output equal ${m.node ? 'node:crypto' : 'the allocating form'} (random sizes)`, (t) => {
    const ns = cipher[m.ns]
    for (const n of lengths()) {
      const key = rnd(m.keyLen)
      const iv = ivLen(m) ? rnd(ivLen(m)) : undefined
      const aad = aead ? rnd(nodeCrypto.randomInt(40)) : undefined
      const data = rnd(n)
      const opts = { key, ...(m.mode ? { mode: m.mode } : {}), ...(iv ? { iv } : {}), ...(aad ? { aad } : {}) }
      const want = m.node ? nodeEncrypt(m.node, key, iv ?? null, data, { aad }) : ns.encrypt(data, opts)
      const [view, bytes] = outputOf(want.length, KINDS[n % KINDS.length])
      const ct = ns.encrypt(data, { ...opts, output: view })
      checkView(t, ct, view, want, `${label(m)} encrypt ${n}`)
      t.true(bytes.subarray(want.length).every((b) => b === 0xa5), 'nothing written past the ciphertext')
      // Decrypt into an output exactly as long as the input less the tag.
      const need = aead ? ct.length - 16 : ct.length
      const [pview] = outputOf(need, 'Uint8Array')
      const pt = ns.decrypt(Buffer.from(ct), { ...opts, output: new Uint8Array(pview.buffer, pview.byteOffset, need) })
      checkView(t, pt, pview, data, `${label(m)} decrypt ${n}`)
    }
    // A generated IV is prepended and read back, through outputs of the exact lengths.
    const data = rnd(1000)
    const opts = { key: rnd(m.keyLen), ...(m.mode ? { mode: m.mode } : {}) }
    const size = ns.encrypt(data, opts).length
    const ct = ns.encrypt(data, { ...opts, output: Buffer.alloc(size) })
    t.is(ct.length, size)
    const pt = ns.decrypt(ct, { ...opts, output: Buffer.alloc(size - (aead ? 16 : 0) - ivLen(m)) })
    t.deepEqual(pt, data)
  })
}

test('kept keys accept output too', (t) => {
  const key = rnd(32)
  const k = cipher.aes.key(key)
  const iv = rnd(12)
  const data = rnd(5000)
  const want = nodeEncrypt('aes-256-gcm', key, iv, data)
  const out = Buffer.alloc(want.length)
  t.is(k.encrypt(data, { iv, output: out }).toString('hex'), want.toString('hex'))
  t.deepEqual(k.decrypt(want, { iv, output: Buffer.alloc(5000) }), data)
})

// ---- refusals -----------------------------------------------------------------------------------

test('an output shorter than the result is refused with ERR_OUT_OF_RANGE, nothing written', (t) => {
  const out = Buffer.alloc(63, 7)
  t.throws(() => crypto.sha.sha512('abc', { output: out }), { ...RANGE, message: /options\.output\.byteLength.*>= 64.*63/ })
  t.throws(() => crypto.hmac.sha256('abc', { key: 'k', output: out.subarray(0, 31) }), RANGE)
  t.throws(() => crypto.sha.blake3('abc', { outputLength: 64, output: out }), RANGE)
  const key = rnd(32)
  t.throws(() => cipher.aes.encrypt(rnd(100), { key, output: out }), RANGE) // needs 12 + 100 + 16
  t.throws(() => cipher.aes.decrypt(rnd(100), { key, output: Buffer.alloc(71) }), RANGE) // needs 100 - 12 - 16
  t.throws(() => cipher.aes.encrypt(rnd(16), { key, mode: 'cbc', output: Buffer.alloc(47) }), RANGE) // 16 + 32
  t.true(out.every((b) => b === 7))
})

test('an output overlapping any input is refused with ERR_INVALID_ARG_VALUE, nothing written', (t) => {
  const ab = new ArrayBuffer(4096)
  const all = new Uint8Array(ab)
  nodeCrypto.randomFillSync(all)
  const before = Buffer.from(all)
  const at = (o, n) => Buffer.from(ab, o, n)
  const over = (name) => ({ ...VALUE, message: new RegExp(`options\\.output.*does not overlap ${name.replace('.', '\\.')}`) })
  // Hashes: data (a view and the whole ArrayBuffer), keyed-hash options, HMAC key.
  t.throws(() => sha.sha256(at(0, 100), { output: at(90, 32) }), over('data'))
  t.throws(() => sha.sha256(ab, { output: at(1000, 32) }), over('data'))
  t.throws(() => sha.md5(at(100, 64), { output: new DataView(ab, 90, 40) }), over('data'))
  // Only the bytes the result is written to count: an MD5 into the first 16 of 56 bytes is fine.
  const md5 = sha.md5(at(100, 64), { output: new DataView(ab, 50, 56) })
  t.is(md5.toString('hex'), nodeCrypto.createHash('md5').update(before.subarray(100, 164)).digest('hex'))
  before.set(md5, 50)
  t.throws(() => sha.blake2b(at(0, 10), { key: at(200, 32), output: at(220, 64) }), over('options.key'))
  t.throws(() => sha.blake2b(at(0, 10), { salt: at(300, 16), output: at(250, 64) }), over('options.salt'))
  t.throws(() => sha.blake2s(at(0, 10), { personalization: at(400, 8), output: at(380, 32) }), over('options.personalization'))
  t.throws(() => hmac.sha512(at(0, 10), { key: at(500, 20), output: at(510, 64) }), over('options.key'))
  t.throws(() => hmac.sha512(at(600, 10), { key: 'k', output: at(560, 64) }), over('data'))
  // Ciphers: data, key, IV, AAD.
  const key = at(1000, 32)
  t.throws(() => cipher.aes.encrypt(at(2000, 100), { key, iv: at(1100, 12), output: at(2050, 200) }), over('data'))
  t.throws(() => cipher.aes.encrypt(at(2000, 100), { key, iv: at(1500, 12), output: at(990, 116) }), over('options.key'))
  t.throws(() => cipher.aes.encrypt(at(2000, 100), { key, iv: at(1100, 12), output: at(1105, 200) }), over('options.iv'))
  t.throws(() => cipher.aes.encrypt(at(2000, 100), { key, iv: at(1100, 12), aad: at(3000, 30), output: at(2900, 200) }), over('options.aad'))
  t.throws(() => cipher.chacha20.decrypt(at(2000, 100), { key, output: at(2010, 100) }), over('data'))
  t.throws(() => cipher.aes.key(key).encrypt(at(2000, 100), { mode: 'ctr', output: new Uint32Array(ab, 2048, 40) }), over('data'))
  t.deepEqual(Buffer.from(all), before, 'a refused call writes nothing')
  // The same ArrayBuffer without overlap is fine.
  const d = sha.sha256(at(0, 100), { output: at(100, 32) })
  t.is(d.toString('hex'), nodeCrypto.createHash('sha256').update(at(0, 100)).digest('hex'))
  const c = cipher.aes.encrypt(at(2000, 100), { key, iv: at(1100, 12), aad: at(3000, 30), output: at(3030, 128) })
  t.is(c.toString('hex'), nodeEncrypt('aes-256-gcm', key, at(1100, 12), at(2000, 100), { aad: at(3000, 30) }).toString('hex'))
})

test('wrong output types and formats are refused', (t) => {
  for (const bad of ['abc', 42, new ArrayBuffer(64), [1, 2], {}]) {
    t.throws(() => sha.sha256('x', { output: bad }), { ...TYPE, message: /options\.output.*Buffer, TypedArray or DataView/ })
    t.throws(() => hmac.sha256('x', { key: 'k', output: bad }), TYPE)
    t.throws(() => cipher.aes.encrypt('x', { key: rnd(32), output: bad }), TYPE)
  }
  for (const outputFormat of ['hex', 'base64', 'base64url', 'binary']) {
    t.throws(() => sha.sha256('x', { output: Buffer.alloc(32), outputFormat }), { ...VALUE, message: /outputFormat.*'buffer' or undefined when options\.output/ })
    t.throws(() => hmac.sha1('x', { key: 'k', output: Buffer.alloc(20), outputFormat }), VALUE)
    t.throws(() => cipher.aes.encrypt('x', { key: rnd(32), output: Buffer.alloc(64), outputFormat }), VALUE)
  }
  t.throws(() => cipher.aes.decrypt(rnd(40), { key: rnd(32), output: Buffer.alloc(64), outputFormat: 'utf8' }), VALUE)
  // null and undefined mean no output.
  t.is(sha.sha256('x', { output: undefined }), nodeCrypto.createHash('sha256').update('x').digest('hex'))
  t.is(sha.sha256('x', { output: null }), nodeCrypto.createHash('sha256').update('x').digest('hex'))
})

test('async, batch, incremental and passphrase forms refuse output', async (t) => {
  const out = Buffer.alloc(1 << 16)
  await t.throwsAsync(sha.sha256.async('x', { output: out }), { ...VALUE, message: /async call/ })
  await t.throwsAsync(hmac.sha256.async('x', { key: 'k', output: out }), { ...VALUE, message: /async call/ })
  await t.throwsAsync(cipher.aes.encryptAsync('x', { key: rnd(32), output: out }), { ...VALUE, message: /async call/ })
  await t.throwsAsync(cipher.aes.key(rnd(32)).decryptAsync(rnd(40), { output: out }), { ...VALUE, message: /async call/ })
  t.throws(() => sha.sha256.create({ output: out }), VALUE)
  t.throws(() => hmac.sha256.create({ key: 'k', output: out }), VALUE)
  t.throws(() => cipher.aes.encryptBatch(['x'], { key: rnd(32), output: out }), VALUE)
  t.throws(() => cipher.legacy.cryptoJs.decrypt('U2FsdGVkX1+abc', { passphrase: 'p', output: out }), VALUE)
  t.true(out.every((b) => b === 0))
})

// ---- failed decryption --------------------------------------------------------------------------

test('a failed decryption leaves the output zeroed (AEAD tags, CBC padding)', (t) => {
  const data = rnd(3000)
  const cases = [
    [cipher.aes, { mode: 'gcm' }, 32],
    [cipher.aes, { mode: 'gcm', iv: rnd(16) }, 32], // the generic GCM (not a 96-bit IV)
    [cipher.aes, { mode: 'ccm' }, 32],
    [cipher.aes, { mode: 'gcm-siv' }, 32],
    [cipher.aes, { mode: 'siv' }, 64],
    [cipher.chacha20, {}, 32],
    [cipher.xchacha20, {}, 32],
  ]
  for (const [ns, extra, keyLen] of cases) {
    const opts = { key: rnd(keyLen), ...extra }
    const ct = Buffer.from(ns.encrypt(data, opts))
    ct[Math.floor(ct.length / 2)] ^= 1 // a ciphertext bit (SIV's tag is in front)
    const out = Buffer.alloc(ct.length, 0xa5)
    t.throws(() => ns.decrypt(ct, { ...opts, output: out }), FAILED, JSON.stringify(extra))
    t.true(out.subarray(0, data.length).every((b) => b === 0), `${JSON.stringify(extra)}: the plaintext bytes are wiped`)
  }
  // CBC: a last block whose plaintext ends in 0x00 is never valid PKCS#7 padding.
  const opts = { key: rnd(32), mode: 'cbc', iv: rnd(16) }
  const plain = rnd(3008)
  plain[plain.length - 1] = 0
  const ct = cipher.aes.encrypt(plain, { ...opts, padding: 'none' })
  const out = Buffer.alloc(ct.length, 0xa5)
  t.throws(() => cipher.aes.decrypt(ct, { ...opts, output: out }), FAILED)
  t.true(out.every((b) => b === 0), 'CBC: the decrypted blocks are wiped')
})

test('a refused argument leaves the output as it was; a SharedArrayBuffer output is refused before any work', (t) => {
  const out = Buffer.alloc(4096, 0xa5)
  const untouched = () => out.every((b) => b === 0xa5)
  const data = rnd(3000)
  t.throws(() => cipher.aes.encrypt(data, { key: rnd(15), output: out }), { code: 'ERR_OUT_OF_RANGE' })
  t.true(untouched(), 'a wrong key length')
  t.throws(() => cipher.aes.decrypt(data, { key: rnd(32), mode: 'gcm', iv: rnd(12), tagLength: 3, output: out }))
  t.true(untouched(), 'a wrong tag length')
  t.throws(() => cipher.aes.encrypt(rnd(30), { key: rnd(32), mode: 'cbc', padding: 'none', output: out }))
  t.true(untouched(), 'a partial block without padding')
  const shared = new Uint8Array(new SharedArrayBuffer(64))
  const SHARED = { code: 'ERR_INVALID_ARG_VALUE', message: /SharedArrayBuffer/ }
  t.throws(() => sha.sha256('x', { output: shared }), SHARED)
  t.throws(() => hmac.sha256('x', { key: 'k', output: shared }), SHARED)
  t.throws(() => cipher.aes.decrypt(rnd(64), { key: rnd(32), output: shared }), SHARED)
  t.true(shared.every((b) => b === 0))
  // An own `buffer` property cannot hide the shared memory; nor can another realm.
  const sab = new SharedArrayBuffer(64)
  const disguised = new Uint8Array(sab)
  Object.defineProperty(disguised, 'buffer', { value: new ArrayBuffer(64) })
  t.throws(() => sha.sha256('x', { output: disguised }), SHARED)
  const foreign = require('node:vm').runInNewContext('new DataView(new SharedArrayBuffer(64))')
  t.throws(() => sha.sha256('x', { output: foreign }), SHARED)
  t.true(new Uint8Array(sab).every((b) => b === 0))
})

test('DataView outputs, of this realm and of another, receive the result', (t) => {
  const want = sha.sha256('abc', { outputFormat: 'buffer' })
  const local = new DataView(new ArrayBuffer(40), 8)
  t.deepEqual(Buffer.from(sha.sha256('abc', { output: local })), want)
  t.deepEqual(Buffer.from(local.buffer, 8, 32), want)
  const foreign = require('node:vm').runInNewContext('new DataView(new ArrayBuffer(32))')
  sha.sha256('abc', { output: foreign })
  t.deepEqual(Buffer.from(foreign.buffer), want)
})

test('a view whose byteOffset / byteLength properties are shadowed gets the result in its real bytes, or the refusal its real length earns', (t) => {
  const want = sha.sha256('x', { outputFormat: 'buffer' })
  const shadow = (view, props) => {
    for (const [k, value] of Object.entries(props)) Object.defineProperty(view, k, { value })
    return view
  }
  const kinds = [(ab, o, n) => new Uint8Array(ab, o, n), (ab, o, n) => Buffer.from(ab, o, n), (ab, o, n) => new DataView(ab, o, n), (ab, o, n) => new Uint32Array(ab, o, n / 4)]
  for (const make of kinds) {
    // Offset and length claimed elsewhere in the same ArrayBuffer: the result lands in the view.
    for (const props of [{ byteOffset: 64 }, { byteOffset: 0, byteLength: 64 }, { byteOffset: 64, byteLength: 32 }]) {
      const ab = new ArrayBuffer(128)
      const view = shadow(make(ab, 32, 32), props)
      t.is(sha.sha256('x', { output: view }).buffer, ab)
      const all = Buffer.from(ab)
      t.deepEqual(all.subarray(32, 64), want, JSON.stringify(props))
      t.true(all.subarray(0, 32).every((b) => b === 0) && all.subarray(64).every((b) => b === 0), JSON.stringify(props))
    }
    // A view shorter than the result, claiming to be long enough: refused, nothing written.
    const ab = new ArrayBuffer(128)
    t.throws(() => sha.sha256('x', { output: shadow(make(ab, 32, 16), { byteLength: 32 }) }), RANGE)
    t.throws(() => cipher.aes.encrypt('x', { key: rnd(32), output: shadow(make(ab, 32, 16), { byteLength: 64, byteOffset: 0 }) }), RANGE)
    t.true(Buffer.from(ab).every((b) => b === 0))
  }
})

// ---- types and cpuPaths -------------------------------------------------------------------------

test('a getter that detaches the output buffer runs before the output is looked at: a clear refusal', (t) => {
  // Whatever the order of reads, a detached output ends in a clear RangeError, never a write:
  // with options read before the view is made (lib/cipher.js runSync, lib/hash.js) the view sees
  // the empty buffer; the native side would refuse an empty view too (this test passed before
  // that reordering as well, so it pins the outcome, not the order).
  const detaching = (name, value, ab) => ({
    get [name]() {
      if (ab.byteLength > 0) structuredClone(ab, { transfer: [ab] }) // once: the getter may be read more than once
      return value
    },
  })
  const key = rnd(32)
  {
    const ab = new ArrayBuffer(64)
    const o = { key, output: new Uint8Array(ab) }
    Object.defineProperty(o, 'iv', Object.getOwnPropertyDescriptor(detaching('iv', rnd(12), ab), 'iv'))
    t.throws(() => cipher.aes.encrypt(rnd(10), o), RANGE)
    t.is(ab.byteLength, 0)
  }
  {
    const ab = new ArrayBuffer(64)
    const o = { output: new Uint8Array(ab) }
    Object.defineProperty(o, 'key', Object.getOwnPropertyDescriptor(detaching('key', key, ab), 'key'))
    t.throws(() => hmac.sha256('m', o), RANGE)
    t.is(ab.byteLength, 0)
  }
  {
    const ab = new ArrayBuffer(64)
    const o = { output: new Uint8Array(ab), outputLength: 32 }
    Object.defineProperty(o, 'key', Object.getOwnPropertyDescriptor(detaching('key', key, ab), 'key'))
    t.throws(() => sha.blake2b('m', o), RANGE)
  }
})

test('index.d.ts: output is typed (Buffer result; formats other than buffer and non-views rejected)', (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'output-types-'))
  const file = path.join(dir, 'use.ts')
  const index = path.join(__dirname, '..', 'index').replace(/\\/g, '/')
  fs.writeFileSync(file, `import { sha, hmac, cipher, cpuPaths } from '${index}'
const out = new Uint8Array(64)
const a: Buffer = sha.sha512('x', { output: out })
const b: Buffer = sha.blake3('x', { outputLength: 40, output: new DataView(out.buffer) })
const c: Buffer = hmac.md5('x', { key: 'k', output: out })
const d: Buffer = cipher.aes.encrypt('x', { key: out, output: new Uint32Array(16) })
const p: string = cpuPaths().sha256
// @ts-expect-error only 'buffer' with output
sha.sha256('x', { output: out, outputFormat: 'hex' })
// @ts-expect-error an ArrayBuffer is not a view
sha.sha256('x', { output: new ArrayBuffer(32) })
void [a, b, c, d, p]
`)
  const program = ts.createProgram([file], { strict: true, noEmit: true, types: ['node'], esModuleInterop: true })
  const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))
  fs.rmSync(dir, { recursive: true, force: true })
  t.deepEqual(diagnostics, [])
})

test('cpuPaths() lists every backend with a string path, consistent with /proc/cpuinfo', (t) => {
  const paths = crypto.cpuPaths()
  const file = path.join(__dirname, '..', 'index.d.ts')
  const program = ts.createProgram([file], { strict: true, noEmit: true })
  const checker = program.getTypeChecker()
  let declared
  ts.forEachChild(program.getSourceFile(file), (node) => {
    if (ts.isInterfaceDeclaration(node) && node.name.text === 'CpuPaths') declared = checker.getTypeAtLocation(node.name)
  })
  t.deepEqual(checker.getPropertiesOfType(declared).map((p) => p.name).sort(), Object.keys(paths).sort())
  for (const [k, v] of Object.entries(paths)) t.true(typeof v === 'string' && v.length > 0, k)
  if (process.platform === 'linux' && process.arch === 'arm64') return arm64Paths(t, paths)
  if (process.arch !== 'x64' || !fs.existsSync('/proc/cpuinfo')) {
    t.log('not x86-64 or arm64 Linux: the paths were not checked against the CPU features')
    return
  }
  const info = fs.readFileSync('/proc/cpuinfo', 'utf8')
  const flags = new Set((info.match(/^flags\s*:(.*)$/m)?.[1] ?? '').trim().split(/\s+/))
  const vendor = info.match(/^vendor_id\s*:\s*(\S+)/m)?.[1]
  t.is(paths.sha256 === 'sha-ni', flags.has('sha_ni') && flags.has('sse4_1'))
  t.is(paths.aes === 'vaes512' || paths.aes === 'vaes256', flags.has('vaes'))
  t.is(paths.aes !== 'soft', flags.has('aes'))
  t.is(paths.aesGcm === 'vaes-avx2', ['aes', 'pclmulqdq', 'avx', 'avx2', 'vaes', 'vpclmulqdq'].every((f) => flags.has(f)))
  const ifma = ['avx512f', 'avx512vl', 'avx512ifma'].every((f) => flags.has(f))
  t.is(paths.chacha20, ifma ? 'avx512-ifma' : flags.has('avx2') ? 'avx2' : flags.has('ssse3') ? 'ssse3' : 'nohw')
  // BLAKE2's backend and the Keccak permutation are measured, not derived from the flags: either
  // name is a right answer, but the own Keccak assembly only where BMI1/BMI2 exist.
  for (const v of ['blake2b', 'blake2s']) t.true(['simd', 'scalar'].includes(paths[v]), v)
  t.true(['bmi2-asm', 'aws-lc-asm'].includes(paths.sha3), paths.sha3)
  if (paths.sha3 === 'bmi2-asm') t.true(flags.has('bmi1') && flags.has('bmi2'))
  t.is(paths.scrypt === 'avx512vl', flags.has('avx512f') && flags.has('avx512vl'))
  t.is(paths.bcrypt === 'bextr', (vendor === 'AuthenticAMD' || vendor === 'HygonGenuine') && flags.has('bmi1'))
  t.is(paths.sha512 === 'avx2-bmi2', ['avx2', 'bmi1', 'bmi2'].every((f) => flags.has(f)))
})

// AT_HWCAP bits (Linux arch/arm64/include/uapi/asm/hwcap.h).
const HWCAP = { aes: 3, pmull: 4, sha1: 5, sha2: 6, sha3: 17, sha512: 21 }
// MIDR_EL1 part numbers of the Arm cores AWS-LC gives its Neoverse Keccak (N1, V1, V2, V3).
const NEOVERSE_PARTS = [0xd0c, 0xd40, 0xd4f, 0xd84]

/**
 * arm64 Linux: the paths against AT_HWCAP as the kernel (or qemu-user) gives it in
 * /proc/self/auxv, less the bits scripts/test-arm64.mjs hides from getauxval in its run without
 * crypto extensions (CRYPTOGRAPHER_TEST_HWCAP_CLEAR).
 */
function arm64Paths(t, paths) {
  const auxv = fs.readFileSync('/proc/self/auxv')
  let hwcap = 0n
  for (let i = 0; i + 16 <= auxv.length; i += 16) if (auxv.readBigUInt64LE(i) === 16n) hwcap = auxv.readBigUInt64LE(i + 8)
  t.not(hwcap, 0n, 'AT_HWCAP in /proc/self/auxv')
  hwcap &= ~BigInt(process.env.CRYPTOGRAPHER_TEST_HWCAP_CLEAR || 0)
  const has = (...names) => names.every((n) => (hwcap >> BigInt(HWCAP[n])) & 1n)
  t.log(`AT_HWCAP 0x${hwcap.toString(16)}: ${Object.keys(HWCAP).filter((n) => has(n)).join(' ') || 'no crypto extensions'}`)
  t.is(paths.aes, has('aes', 'pmull') ? 'aes' : 'soft')
  t.is(paths.ghash, has('aes', 'pmull') ? 'pmull' : 'soft')
  t.is(paths.aesGcm, has('aes', 'pmull') ? 'aes+pmull' : 'vpaes-neon')
  // RustCrypto's tests: SHA-1 and SHA-256 on the SHA2 bit, SHA-512 on SHA3 and SHA512.
  t.is(paths.sha1, has('sha2') ? 'sha1' : 'soft')
  t.is(paths.sha256, has('sha2') ? 'sha2' : 'soft')
  t.is(paths.sha512, has('sha3', 'sha512') ? 'sha512' : 'soft')
  // AWS-LC tells a Neoverse core by its MIDR_EL1: sysfs has it on Linux; under qemu-user (whose
  // /sys is the host's) the emulated model is QEMU_CPU.
  const midrFile = '/sys/devices/system/cpu/cpu0/regs/identification/midr_el1'
  const midr = fs.existsSync(midrFile) ? Number.parseInt(fs.readFileSync(midrFile, 'utf8'), 16) : null
  const neoverse = midr !== null ? (midr >>> 24) === 0x41 && NEOVERSE_PARTS.includes((midr >>> 4) & 0xfff) : (process.env.QEMU_CPU || '').startsWith('neoverse-')
  t.is(paths.sha3, neoverse ? 'aws-lc-asm' : has('sha3') ? 'aws-lc-sha3' : 'aws-lc-armv8')
  // Neon is in every aarch64 CPU; the own x86-64 code paths are absent. argon2-rust times its
  // Neon fill against its scalar one on Linux (Neon loses on some cores) and keeps the faster.
  t.like(paths, { blake3: 'neon', chacha20: 'neon', scrypt: 'portable', bcrypt: 'shift', sha256Batch: 'one-by-one', blake2b: 'scalar', blake2s: 'scalar', md5: 'soft' })
  t.true(['neon', 'scalar'].includes(paths.argon2), paths.argon2)
}
