'use strict'
// Batch calls: sha.X.batch / batchAsync and hmac.X.batch / batchAsync against the one-shot form
// (every algorithm, every output format, the packed layout, every input type mixed in one array)
// and against node:crypto (createHash / createHmac, an independent implementation); async against
// sync, across parts and thread-pool sizes; errors naming the item; abort; inputs copied at call
// time. cipher.*.encryptBatch / decryptBatch: round trips in every mode, fresh IVs, each message
// decrypted by node:crypto, node's ciphertexts decrypted in a batch, tamper refusal, `ivs`.
const test = require('ava')
const path = require('node:path')
const nodeCrypto = require('node:crypto')
const { execFileSync } = require('node:child_process')
const { nodeName, nodeEncrypt, nodeDecrypt } = require('./helpers/node-reference')
const { sha, hmac, cipher, kdf } = require('..')

const FORMATS = ['hex', 'base64', 'base64url', 'binary', 'buffer']
const TYPE = { instanceOf: TypeError, code: 'ERR_INVALID_ARG_TYPE' }
const VALUE = { instanceOf: TypeError, code: 'ERR_INVALID_ARG_VALUE' }
const rnd = (n) => (n ? nodeCrypto.randomBytes(n) : Buffer.alloc(0))

// Deterministic PRNG so failures reproduce (the seed is in the assertion messages).
function rng(seed) {
  let s = seed >>> 0
  return (n) => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0
    return s % n
  }
}

// Lengths around every block size here (64, 72, 104, 128, 136, 144, 168 bytes).
const LENGTHS = [0, 1, 3, 55, 56, 63, 64, 65, 71, 72, 103, 104, 111, 112, 119, 127, 128, 129, 135, 136, 143, 144, 167, 168, 200, 1000]

/** The same bytes as `buf`, as input type number `k`: mixed types in one array. */
function asType(buf, k) {
  switch (k % 7) {
    case 0:
      return buf
    case 1: {
      // A view at an odd offset of a larger buffer.
      const backing = Buffer.alloc(buf.length + 9, 0xee)
      buf.copy(backing, 5)
      return new Uint8Array(backing.buffer, backing.byteOffset + 5, buf.length)
    }
    case 2:
      return new DataView(Uint8Array.from(buf).buffer)
    case 3:
      return Uint8Array.from(buf).buffer
    case 4:
      // A string whose UTF-8 encoding is these bytes (latin1 bytes < 0x80 only) or a Buffer.
      return buf.every((b) => b < 0x80) ? buf.toString('latin1') : buf
    case 5:
      return buf.length % 2 === 0 ? new Uint16Array(Uint8Array.from(buf).buffer) : new Int8Array(Uint8Array.from(buf).buffer)
    default:
      return Buffer.from(buf)
  }
}

/** Random inputs of every length in LENGTHS plus `extra` random ones, some ASCII (so strings occur). */
function inputsFor(rand, extra = 8) {
  const lengths = [...LENGTHS]
  for (let i = 0; i < extra; i++) lengths.push(rand(3000))
  return lengths.map((n, i) => (i % 3 === 0 ? Buffer.from(nodeCrypto.randomBytes(n).map((b) => b & 0x7f)) : rnd(n)))
}

const mixed = (bufs) => bufs.map((b, i) => asType(b, i))

/** The options each hash is checked with: defaults and its own options. */
function optionSets(name) {
  const info = sha[name]
  if (name.startsWith('shake')) return [undefined, { outputLength: 1 }, { outputLength: 100 }]
  if (name === 'blake2b' || name === 'blake2s') {
    const max = info.outputLength
    return [undefined, { key: 'k', outputLength: 20 }, { key: rnd(max), salt: rnd(max / 4), personalization: 'p', outputLength: max }]
  }
  if (name === 'blake3') return [undefined, { key: rnd(32) }, { context: 'batch test 2026', outputLength: 77 }]
  return [undefined]
}

const outputLength = (name, opts) => (opts && opts.outputLength) || sha[name].outputLength

for (const name of Object.keys(sha)) {
  test(`sha.${name}.batch equals the one-shot digest, every output format and the packed layout, mixed input types`, (t) => {
    const rand = rng(0xba7c + name.length)
    const bufs = inputsFor(rand)
    const inputs = mixed(bufs)
    for (const opts of optionSets(name)) {
      const n = outputLength(name, opts)
      for (const outputFormat of FORMATS) {
        const o = { ...opts, outputFormat }
        const got = sha[name].batch(inputs, o)
        t.is(got.length, inputs.length)
        got.forEach((d, i) => t.deepEqual(d, sha[name](bufs[i], o), `${name} ${JSON.stringify(o)} item ${i} len ${bufs[i].length}`))
      }
      // Default format: hex.
      t.deepEqual(sha[name].batch(inputs, opts), bufs.map((b) => sha[name](b, opts)))
      const packed = sha[name].batch(inputs, { ...opts, outputFormat: 'buffer', packed: true })
      t.true(Buffer.isBuffer(packed))
      t.is(packed.length, inputs.length * n)
      t.true(packed.equals(Buffer.concat(bufs.map((b) => sha[name](b, { ...opts, outputFormat: 'buffer' })))))
    }
  })

  const node = nodeName(name)
  ;(node ? test : test.skip)(`sha.${name}.batch equals node:crypto createHash on random inputs`, (t) => {
    const rand = rng(0x5eed + name.length)
    const bufs = inputsFor(rand, 40)
    const xof = name.startsWith('shake')
    const opts = xof ? { outputLength: 33 } : undefined
    const want = bufs.map((b) => nodeCrypto.createHash(node, opts).update(b).digest('hex'))
    t.deepEqual(sha[name].batch(mixed(bufs), opts), want)
    // Many equal-length items (whole groups of lanes) and a few of other lengths.
    const same = Array.from({ length: 37 }, (_, i) => rnd(i % 5 === 0 ? 64 + i : 64))
    t.deepEqual(sha[name].batch(same, opts), same.map((b) => nodeCrypto.createHash(node, opts).update(b).digest('hex')))
  })
}

for (const name of Object.keys(hmac)) {
  test(`hmac.${name}.batch equals the one-shot MAC and node:crypto createHmac, keys of every length`, (t) => {
    const rand = rng(0x4ac + name.length)
    const bufs = inputsFor(rand)
    const inputs = mixed(bufs)
    const node = nodeName(name)
    for (const key of ['', 'k', rnd(hmac[name].blockLength), rnd(hmac[name].blockLength + 1), rnd(300)]) {
      for (const outputFormat of FORMATS) {
        const o = { key, outputFormat }
        t.deepEqual(hmac[name].batch(inputs, o), bufs.map((b) => hmac[name](b, o)), `hmac ${name} ${outputFormat} key ${key.length}`)
      }
      const packed = hmac[name].batch(inputs, { key, outputFormat: 'buffer', packed: true })
      t.is(packed.length, inputs.length * hmac[name].outputLength)
      if (node) {
        const want = Buffer.concat(bufs.map((b) => nodeCrypto.createHmac(node, key).update(b).digest()))
        t.true(packed.equals(want), `hmac ${name} vs node, key ${key.length}`)
      }
    }
    if (!node) t.log(`node has no ${name}: hmac.${name}.batch checked against the one-shot form only`)
  })
}

test('empty batches give empty results in every form', async (t) => {
  t.deepEqual(sha.sha256.batch([]), [])
  t.deepEqual(sha.blake3.batch([], { outputFormat: 'buffer' }), [])
  t.is(sha.md5.batch([], { outputFormat: 'buffer', packed: true }).length, 0)
  t.deepEqual(hmac.sha1.batch([], { key: 'k' }), [])
  t.deepEqual(await sha.sha512.batchAsync([]), [])
  t.deepEqual(await hmac.sha256.batchAsync([], { key: 'k', outputFormat: 'base64' }), [])
  // Empty items are hashed as empty messages.
  t.deepEqual(sha.sha256.batch(['', new Uint8Array(0)]), [sha.sha256(''), sha.sha256('')])
})

test('long batches (passed to the native side in slices) keep their order; an error names the index in the whole list', (t) => {
  const inputs = Array.from({ length: 20001 }, (_, i) => (i % 3 === 0 ? `item ${i}` : Buffer.from([i & 255, i >> 8, 7])))
  const want = inputs.map((x) => nodeCrypto.createHash('sha256').update(x).digest())
  t.deepEqual(sha.sha256.batch(inputs), want.map((d) => d.toString('hex')))
  t.true(sha.sha256.batch(inputs, { outputFormat: 'buffer', packed: true }).equals(Buffer.concat(want)))
  t.deepEqual(sha.sha256.batch(inputs, { outputFormat: 'base64' }), want.map((d) => d.toString('base64')))
  // A hash whose digests make longer hex strings (fewer per slice), and an HMAC.
  t.deepEqual(sha.sha512.batch(inputs.slice(0, 3000)), inputs.slice(0, 3000).map((x) => nodeCrypto.createHash('sha512').update(x).digest('hex')))
  t.deepEqual(hmac.sha1.batch(inputs, { key: 'k' }), inputs.map((x) => nodeCrypto.createHmac('sha1', 'k').update(x).digest('hex')))
  for (const at of [8191, 8192, 17000, 20000]) {
    const bad = [...inputs]
    bad[at] = 42
    const message = new RegExp(`"inputs\\[${at}\\]"`)
    t.throws(() => sha.sha256.batch(bad, { outputFormat: 'buffer' }), { ...TYPE, message })
    t.throws(() => sha.sha256.batch(bad), { ...TYPE, message })
    t.throws(() => sha.md5.batch(bad, { outputFormat: 'binary' }), { ...TYPE, message })
    t.throws(() => hmac.sha256.batch(bad, { key: 'k' }), { ...TYPE, message })
  }
})

test('buffer results are views of one packed buffer, in order', (t) => {
  const inputs = ['a', 'b', 'c']
  const list = sha.sha1.batch(inputs, { outputFormat: 'buffer' })
  const packed = sha.sha1.batch(inputs, { outputFormat: 'buffer', packed: true })
  t.true(Buffer.concat(list).equals(packed))
  list.forEach((d, i) => t.true(d.equals(sha.sha1(inputs[i], { outputFormat: 'buffer' }))))
})

test('errors: not an array, an item that is not bytes (named by its index), bad options', async (t) => {
  for (const bad of ['abc', Buffer.from('abc'), { length: 1, 0: 'a' }, undefined, null, 5]) {
    t.throws(() => sha.sha256.batch(bad), { ...TYPE, message: /"inputs" argument must be an instance of Array/ })
    await t.throwsAsync(sha.sha256.batchAsync(bad), TYPE)
    t.throws(() => hmac.sha256.batch(bad, { key: 'k' }), TYPE)
  }
  for (const [i, item] of [[0, 5], [2, null], [1, {}], [3, [1, 2]], [4, undefined], [5, Symbol('s')]]) {
    const inputs = ['a', 'b', 'c', 'd', 'e', 'f', 'g']
    inputs[i] = item
    const message = new RegExp(`"inputs\\[${i}\\]" argument must be of type string or an instance of Buffer`)
    t.throws(() => sha.sha256.batch(inputs), { ...TYPE, message })
    t.throws(() => sha.md5.batch(inputs), { ...TYPE, message })
    t.throws(() => sha.blake2b.batch(inputs, { key: 'k' }), { ...TYPE, message })
    t.throws(() => hmac.sha256.batch(inputs, { key: 'k' }), { ...TYPE, message })
    await t.throwsAsync(sha.sha256.batchAsync(inputs), { ...TYPE, message })
    await t.throwsAsync(hmac.sha512.batchAsync(inputs, { key: 'k' }), { ...TYPE, message })
  }
  // A hole reads as undefined.
  t.throws(() => sha.sha256.batch(['a', , 'c']), { ...TYPE, message: /"inputs\[1\]"/ }) // eslint-disable-line no-sparse-arrays
  // Past the first group of lanes, and in the remainder.
  for (const i of [6, 9]) {
    const inputs = Array(10).fill('x')
    inputs[i] = 1
    t.throws(() => sha.sha256.batch(inputs), { ...TYPE, message: new RegExp(`"inputs\\[${i}\\]"`) })
  }
  t.throws(() => sha.sha256.batch(['a'], { packed: true }), { ...VALUE, message: /options\.packed/ })
  t.throws(() => sha.sha256.batch(['a'], { outputFormat: 'hex', packed: true }), VALUE)
  t.throws(() => sha.sha256.batch(['a'], { outputFormat: 'buffer', packed: 1 }), TYPE)
  t.throws(() => sha.sha256.batch(['a'], { outputFormat: 'bogus' }), VALUE)
  t.throws(() => sha.sha256.batch(['a'], { key: 'k' }), VALUE)
  t.throws(() => sha.sha256.batch(['a'], { signal: new AbortController().signal }), VALUE)
  t.throws(() => sha.shake128.batch(['a'], { outputLength: 0 }), { instanceOf: RangeError, code: 'ERR_OUT_OF_RANGE' })
  t.throws(() => sha.blake3.batch(['a'], { key: 'short' }), { instanceOf: RangeError, code: 'ERR_OUT_OF_RANGE' })
  t.throws(() => hmac.sha256.batch(['a']), TYPE)
  t.throws(() => hmac.sha256.batch(['a'], { key: 5 }), TYPE)
  await t.throwsAsync(hmac.sha256.batchAsync(['a']), TYPE)
  await t.throwsAsync(sha.sha256.batchAsync(['a'], { packed: 'yes', outputFormat: 'buffer' }), TYPE)
  // XOF output past what one Buffer holds is refused before any work.
  t.throws(() => sha.shake256.batch(Array(8).fill('a'), { outputLength: 1 << 30 }), { instanceOf: RangeError, code: 'ERR_OUT_OF_RANGE' })
})

test('an array whose elements run JavaScript when read is read safely (accessors, a detaching getter)', (t) => {
  const items = ['a', 'b', 'c', 'd', 'e']
  const inputs = [...items]
  let reads = 0
  Object.defineProperty(inputs, 2, { get: () => (reads++, 'c') })
  t.deepEqual(sha.sha256.batch(inputs), items.map((x) => sha.sha256(x)))
  t.true(reads >= 1)
  // A getter that detaches the buffer of an earlier item: that item is then hashed as what it
  // is when read (empty), never from freed memory.
  const victim = new Uint8Array(1 << 16).fill(9)
  const hostile = [victim, 'x', 'y']
  Object.defineProperty(hostile, 1, {
    get: () => {
      if (victim.byteLength) structuredClone(victim.buffer, { transfer: [victim.buffer] })
      return 'x'
    },
  })
  const got = sha.sha256.batch(hostile)
  t.is(victim.byteLength, 0)
  t.true(got[0] === sha.sha256('') || got[0] === sha.sha256(new Uint8Array(1 << 16).fill(9)))
  t.deepEqual(got.slice(1), [sha.sha256('x'), sha.sha256('y')])
})

// ---- async --------------------------------------------------------------------------------

test('batchAsync equals batch for every algorithm, on one part and on several (mixed sizes, strings)', async (t) => {
  const rand = rng(0xa51c)
  // About 1.2 MiB in all: several parts on the default pool of 4 threads.
  const bufs = Array.from({ length: 90 }, (_, i) => rnd(i % 10 === 0 ? 60000 + rand(40000) : rand(20000)))
  const inputs = mixed(bufs)
  for (const name of Object.keys(sha)) {
    for (const opts of optionSets(name).slice(0, 2)) {
      const o = { ...opts, outputFormat: 'buffer', packed: true }
      const want = sha[name].batch(inputs, o)
      t.true((await sha[name].batchAsync(inputs, o)).equals(want), `${name} ${JSON.stringify(opts)}`)
      t.deepEqual(await sha[name].batchAsync(inputs, opts), sha[name].batch(inputs, opts))
      // Small batches run inline: the same results.
      t.deepEqual(await sha[name].batchAsync(['abc', 'de'], opts), sha[name].batch(['abc', 'de'], opts))
    }
  }
  for (const name of Object.keys(hmac)) {
    const o = { key: 'key', outputFormat: 'base64' }
    t.deepEqual(await hmac[name].batchAsync(inputs, o), hmac[name].batch(inputs, o), `hmac ${name}`)
  }
})

test('batchAsync splits the work into one part per pool thread (at least 256 KiB each): parts and results for UV_THREADPOOL_SIZE 1, 2, 3, 4 and 8', (t) => {
  const script = `
    const { sha, hmac } = require(${JSON.stringify(path.join(__dirname, '..'))})
    const crypto = require('node:crypto')
    const inputs = Array.from({ length: 257 }, (_, i) => Buffer.alloc(4096 + (i % 7) * 1000, i))
    Promise.all([
      sha.sha256.batchAsync(inputs, { outputFormat: 'buffer', packed: true }),
      hmac.sha512.batchAsync(inputs, { key: 'k', outputFormat: 'buffer', packed: true }),
    ]).then(async ([a, b]) => {
      const want = Buffer.concat(inputs.map((x) => crypto.createHash('sha256').update(x).digest()))
      const mac = Buffer.concat(inputs.map((x) => crypto.createHmac('sha512', 'k').update(x).digest()))
      // The native call returns one promise per part.
      const parts = require(${JSON.stringify(path.join(__dirname, '..', 'binding.js'))}).hashBatchAsync(4, inputs, {}, false)
      await Promise.all(parts)
      process.stdout.write(JSON.stringify({ equal: a.equals(want) && b.equals(mac), parts: parts.length }))
    })`
  // 257 items of 4-10 KB (1.8 MB): parts of at least 256 KiB of work, so at most 7 of them.
  for (const [threads, parts] of [[1, 1], [2, 2], [3, 3], [4, 4], [8, 7]]) {
    const out = execFileSync(process.execPath, ['-e', script], { env: { ...process.env, UV_THREADPOOL_SIZE: String(threads) }, encoding: 'utf8' })
    t.deepEqual(JSON.parse(out), { equal: true, parts }, `UV_THREADPOOL_SIZE=${threads}`)
  }
})

test('batchAsync hashes the bytes as they were at call time (inputs detached, overwritten, shrunk meanwhile)', async (t) => {
  const a = new Uint8Array(1 << 20).fill(1)
  const b = Buffer.alloc(1 << 20, 2)
  const rab = new ArrayBuffer(1 << 20, { maxByteLength: 2 << 20 })
  new Uint8Array(rab).fill(3)
  const want = [a, b, new Uint8Array(rab)].map((x) => nodeCrypto.createHash('sha256').update(x).digest('hex'))
  const pending = sha.sha256.batchAsync([a, b, new Uint8Array(rab)])
  structuredClone(a.buffer, { transfer: [a.buffer] })
  b.fill(9)
  rab.resize(5)
  t.deepEqual(await pending, want)
})

test('signal: an aborted signal rejects at once; aborting stops every part', async (t) => {
  const done = new AbortController()
  done.abort()
  const e1 = await t.throwsAsync(sha.sha256.batchAsync(['x'], { signal: done.signal }))
  t.is(e1.name, 'AbortError')
  t.true(e1 instanceof kdf.AbortError)
  await t.throwsAsync(hmac.sha256.batchAsync(['x'], { key: 'k', signal: done.signal }), { name: 'AbortError' })
  // About 200 MiB of SHA3-512 in 4 MiB items over several parts: abort while queued (at once) or
  // running (on the next turn of the event loop). A loaded machine can stall this process for
  // longer than the whole batch takes (a timer came after the batch under Deno, a setImmediate
  // under Bun): the batch then finished, correctly, before the abort, and had nothing to stop;
  // the running case is then tried again, up to three times.
  const item = Buffer.alloc(4 << 20, 5)
  const inputs = Array(48).fill(item)
  const expected = nodeCrypto.createHash('sha3-512').update(item).digest('hex')
  for (const queued of [true, false]) {
    let stopped = false
    for (let attempt = 0; attempt < (queued ? 1 : 3) && !stopped; attempt++) {
      const ac = new AbortController()
      const running = sha.sha3_512.batchAsync(inputs, { signal: ac.signal })
      if (!queued) await new Promise(setImmediate)
      ac.abort(new Error('enough'))
      const outcome = await running.then((value) => ({ value }), (error) => ({ error }))
      if (outcome.error === undefined) {
        t.false(queued, 'an abort before the first turn of the event loop stops the batch')
        t.deepEqual(outcome.value, inputs.map(() => expected), 'a batch that finished before the abort is whole and right')
        t.log(`attempt ${attempt + 1}: the batch finished before the abort arrived`)
        continue
      }
      const e = outcome.error
      t.is(e.name, 'AbortError')
      t.is(e.code, 'ABORT_ERR')
      t.is(e.cause.message, 'enough')
      stopped = true
    }
    t.true(stopped, queued ? 'aborted while queued' : 'aborted while running, in one of three attempts')
  }
  // A signal that never fires changes nothing.
  t.deepEqual(await sha.md5.batchAsync(['abc'], { signal: new AbortController().signal }), ['900150983cd24fb0d6963f7d28e17f72'])
})

// ---- ciphers ------------------------------------------------------------------------------

const FAILED = { instanceOf: Error, code: 'ERR_CRYPTO_DECRYPT_FAILED' }
const AES_MODES = [...cipher.aes.modes]
const keyFor = (mode) => rnd(mode === 'siv' ? 64 : 32)

/** Messages of lengths around the block size, as mixed input types. */
const messagesFor = (count = 24) => Array.from({ length: count }, (_, i) => rnd([0, 1, 15, 16, 17, 31, 32, 33, 100, 1000][i % 10] + (i >> 3)))

for (const [ns, modes] of [['aes', AES_MODES], ['chacha20', [undefined]], ['xchacha20', [undefined]], ['des', ['ecb', 'cbc']]]) {
  for (const mode of modes) {
    const label = `cipher.${ns}${mode ? ` ${mode}` : ''}`
    test(`${label}: encryptBatch/decryptBatch round trip, each result shaped as encrypt makes it, async equals sync`, async (t) => {
      const api = cipher[ns]
      const key = ns === 'des' ? rnd(24) : ns === 'aes' ? keyFor(mode) : rnd(32)
      const bufs = messagesFor()
      const aead = ns !== 'des' && !['ecb', 'cbc', 'ctr', 'cfb', 'cfb8', 'ofb'].includes(mode)
      const o = { key, ...(mode ? { mode } : {}), ...(aead ? { aad: 'header' } : {}) }
      const sealed = api.encryptBatch(mixed(bufs), o)
      t.is(sealed.length, bufs.length)
      sealed.forEach((c, i) => {
        t.true(Buffer.isBuffer(c))
        // Same length as one encrypt call (IV prepended, padding, tag) and readable by it.
        t.is(c.length, api.encrypt(bufs[i], o).length)
        t.true(api.decrypt(c, o).equals(bufs[i]), `${label} message ${i}`)
      })
      const opened = api.decryptBatch(sealed, o)
      opened.forEach((p, i) => t.true(p.equals(bufs[i])))
      // Async, on parts: copies made at call time; results equal.
      const big = Array.from({ length: 40 }, (_, i) => rnd(20000 + i))
      const sealedAsync = await api.encryptBatchAsync(big, o)
      t.deepEqual(api.decryptBatch(sealedAsync, o).map((b) => b.toString('hex')), big.map((b) => b.toString('hex')))
      t.deepEqual((await api.decryptBatchAsync(sealedAsync, o)).map((b) => b.toString('hex')), big.map((b) => b.toString('hex')))
      // Output formats.
      const b64 = api.encryptBatch(['hi', 'there'], { ...o, outputFormat: 'base64' })
      t.deepEqual(api.decryptBatch(b64.map((s) => Buffer.from(s, 'base64')), { ...o, outputFormat: 'utf8' }), ['hi', 'there'])
      t.deepEqual(api.encryptBatch([], o), [])
      t.deepEqual(await api.decryptBatchAsync([], o), [])
    })
  }
}

test('encryptBatch: a fresh random IV per message (GCM, 2,000 messages; CBC; XChaCha20)', (t) => {
  const key = rnd(32)
  const same = Array(2000).fill('the same message')
  const gcm = cipher.aes.encryptBatch(same, { key })
  t.is(new Set(gcm.map((c) => c.subarray(0, 12).toString('hex'))).size, 2000)
  t.is(new Set(gcm.map((c) => c.toString('hex'))).size, 2000)
  const cbc = cipher.aes.encryptBatch(same.slice(0, 500), { key, mode: 'cbc' })
  t.is(new Set(cbc.map((c) => c.subarray(0, 16).toString('hex'))).size, 500)
  const x = cipher.xchacha20.encryptBatch(same.slice(0, 500), { key })
  t.is(new Set(x.map((c) => c.subarray(0, 24).toString('hex'))).size, 500)
})

test('encryptBatch output is read by node:crypto, message by message (IV ‖ ciphertext ‖ tag)', (t) => {
  const bufs = messagesFor(30)
  for (const [mode, name, ivLen, tag] of [
    ['gcm', 'aes-256-gcm', 12, 16],
    ['cbc', 'aes-256-cbc', 16, 0],
    ['ctr', 'aes-256-ctr', 16, 0],
    ['ccm', 'aes-256-ccm', 12, 16],
  ]) {
    const key = rnd(32)
    const aad = tag ? rnd(20) : undefined
    const sealed = cipher.aes.encryptBatch(bufs, { key, mode, ...(aad ? { aad } : {}) })
    sealed.forEach((c, i) => {
      const plain = nodeDecrypt(name, key, c.subarray(0, ivLen), c.subarray(ivLen), { aad })
      t.true(plain.equals(bufs[i]), `${name} message ${i}`)
    })
  }
  const key = rnd(32)
  cipher.chacha20.encryptBatch(bufs, { key }).forEach((c, i) => {
    t.true(nodeDecrypt('chacha20-poly1305', key, c.subarray(0, 12), c.subarray(12)).equals(bufs[i]))
  })
})

test('decryptBatch reads node:crypto ciphertexts given their IVs (ivs), and encryptBatch with ivs equals encrypt with iv', (t) => {
  const bufs = messagesFor(20)
  const key = rnd(16)
  const ivs = bufs.map(() => rnd(12))
  const fromNode = bufs.map((b, i) => nodeEncrypt('aes-128-gcm', key, ivs[i], b, { aad: Buffer.from('a') }))
  const plain = cipher.aes.decryptBatch(fromNode, { key, ivs, aad: 'a' })
  plain.forEach((p, i) => t.true(p.equals(bufs[i])))
  const ours = cipher.aes.encryptBatch(bufs, { key, ivs, aad: 'a' })
  ours.forEach((c, i) => t.true(c.equals(fromNode[i])))
  const cbcIvs = bufs.map(() => rnd(16))
  const cbc = cipher.aes.encryptBatch(bufs, { key, ivs: cbcIvs, mode: 'cbc' })
  cbc.forEach((c, i) => t.true(c.equals(cipher.aes.encrypt(bufs[i], { key, iv: cbcIvs[i], mode: 'cbc' }))))
  // ECB takes no IV: none is prepended either way.
  t.deepEqual(cipher.aes.encryptBatch(['x'], { key, mode: 'ecb' }), [cipher.aes.encrypt('x', { key, mode: 'ecb' })])
})

test('decryptBatch: a failed tag anywhere fails the whole call, names the message and releases nothing', async (t) => {
  const key = rnd(32)
  const bufs = messagesFor(12)
  for (const mode of ['gcm', 'cbc', 'gcm-siv', 'ccm']) {
    const sealed = cipher.aes.encryptBatch(bufs, { key, mode })
    for (const at of [0, 5, 11]) {
      const bad = sealed.map((c) => Buffer.from(c))
      // CBC has no tag: flip the last byte of the block before the last (the IV for a one-block
      // message), which flips the padding byte itself, always invalid (flipping the last block
      // instead scrambles it, valid padding one time in about 256).
      bad[at][bad[at].length - (mode === 'cbc' ? 17 : 1)] ^= 1
      const e = t.throws(() => cipher.aes.decryptBatch(bad, { key, mode }), FAILED)
      t.regex(e.message, new RegExp(`\\(messages\\[${at}\\]\\)$`))
      await t.throwsAsync(cipher.aes.decryptBatchAsync(bad, { key, mode }), FAILED)
    }
    // Wrong key, truncated message.
    t.throws(() => cipher.aes.decryptBatch(sealed, { key: rnd(32), mode }), FAILED)
    t.throws(() => cipher.aes.decryptBatch([...sealed, Buffer.alloc(3)], { key, mode }), { ...FAILED, message: /messages\[12\]/ })
  }
  // Across parts: the failing message in a late part; every part's plaintext is withheld.
  const big = Array.from({ length: 64 }, () => rnd(30000))
  const sealed = cipher.aes.encryptBatch(big, { key })
  sealed[60][40] ^= 1
  const e = await t.throwsAsync(cipher.aes.decryptBatchAsync(sealed, { key }), FAILED)
  t.regex(e.message, /messages\[60\]/)
})

test('cipher batch errors: lists, items, ivs, options', async (t) => {
  const key = rnd(32)
  t.throws(() => cipher.aes.encryptBatch('x', { key }), { ...TYPE, message: /"messages" argument must be an instance of Array/ })
  t.throws(() => cipher.aes.encryptBatch(['x', 5], { key }), { ...TYPE, message: /"messages\[1\]"/ })
  await t.throwsAsync(cipher.aes.encryptBatchAsync(['x', 5], { key }), { ...TYPE, message: /"messages\[1\]"/ })
  t.throws(() => cipher.aes.encryptBatch(['x'], { key, iv: rnd(12) }), { ...VALUE, message: /options\.iv/ })
  t.throws(() => cipher.aes.encryptBatch(['x'], { passphrase: 'p' }), VALUE)
  t.throws(() => cipher.aes.encryptBatch(['x'], undefined), TYPE)
  t.throws(() => cipher.aes.encryptBatch(['x'], { key: rnd(5) }), { instanceOf: RangeError, code: 'ERR_OUT_OF_RANGE' })
  t.throws(() => cipher.aes.encryptBatch(['x', 'y'], { key, ivs: [rnd(12)] }), { instanceOf: RangeError, message: /ivs\.length/ })
  t.throws(() => cipher.aes.encryptBatch(['x', 'y'], { key, ivs: rnd(24) }), { ...TYPE, message: /"options\.ivs" argument must be an instance of Array/ })
  t.throws(() => cipher.aes.encryptBatch(['x', 'y'], { key, ivs: [rnd(12), 7] }), { ...TYPE, message: /"options\.ivs\[1\]"/ })
  t.throws(() => cipher.aes.encryptBatch(['x', 'y'], { key, mode: 'cbc', ivs: [rnd(16), rnd(12)] }), {
    instanceOf: RangeError,
    message: /Invalid IV length for aes-cbc.*\(options\.ivs\[1\]\)/,
  })
  // A repeated IV under one key is refused before anything is encrypted.
  const iv = rnd(12)
  t.throws(() => cipher.aes.encryptBatch(['x', 'y', 'z'], { key, ivs: [rnd(12), iv, iv] }), { ...VALUE, message: /options\.ivs\[2\].*options\.ivs\[1\]/ })
  await t.throwsAsync(cipher.aes.encryptBatchAsync(['x', 'y'], { key, ivs: [iv, iv] }), VALUE)
  // Decrypting with repeated IVs is allowed (nothing new is encrypted).
  const c = cipher.aes.encrypt('x', { key, iv })
  t.deepEqual(cipher.aes.decryptBatch([c, c], { key, ivs: [iv, iv], outputFormat: 'utf8' }), ['x', 'x'])
  t.throws(() => cipher.aes.encryptBatch(['x'], { key, mode: 'cbc', aad: 'a' }), VALUE)
  t.throws(() => cipher.aes.encryptBatch(['x'], { key, tagLength: 11 }), { instanceOf: RangeError })
  const done = new AbortController()
  done.abort()
  await t.throwsAsync(cipher.aes.encryptBatchAsync(['x'], { key, signal: done.signal }), { name: 'AbortError' })
})

test('index.d.ts: the batch forms type-check as documented, and misuse does not', (t) => {
  const ts = require('typescript')
  const fs = require('node:fs')
  const os = require('node:os')
  const root = path.join(__dirname, '..')
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cryptographer-batch-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  const file = path.join(dir, 'usage.ts')
  fs.writeFileSync(
    file,
    `import { sha, hmac, cipher } from ${JSON.stringify(root)}
const inputs = ['a', Buffer.from('b'), new Uint8Array(2), new DataView(new ArrayBuffer(1)), new ArrayBuffer(3)]
const a: string[] = sha.sha256.batch(inputs)
const b: Buffer[] = sha.sha256.batch(inputs, { outputFormat: 'buffer' })
const c: Buffer = sha.sha256.batch(inputs, { outputFormat: 'buffer', packed: true })
const d: string[] = sha.blake3.batch(inputs, { key: new Uint8Array(32), outputLength: 64, outputFormat: 'base64' })
const e: Promise<Buffer> = sha.shake256.batchAsync(inputs, { outputLength: 64, outputFormat: 'buffer', packed: true, signal: AbortSignal.timeout(10) })
const f: Promise<string[]> = sha.md5.batchAsync(inputs)
const g: string[] = hmac.sha256.batch(inputs, { key: 'k' })
const h: Promise<Buffer> = hmac.sha512.batchAsync(inputs, { key: 'k', outputFormat: 'buffer', packed: true })
const i: Buffer[] = cipher.aes.encryptBatch(inputs, { key: new Uint8Array(32), aad: 'x' })
const j: string[] = cipher.aes.decryptBatch(i, { key: new Uint8Array(32), mode: 'cbc', outputFormat: 'utf8' })
const k: Promise<string[]> = cipher.xchacha20.encryptBatchAsync(inputs, { key: new Uint8Array(32), outputFormat: 'base64', signal: AbortSignal.timeout(10) })
const l: Promise<Buffer[]> = cipher.aes.decryptBatchAsync(i, { key: new Uint8Array(32), ivs: [new Uint8Array(12)] })
void [a, b, c, d, e, f, g, h, i, j, k, l]
// @ts-expect-error packed needs outputFormat 'buffer'
sha.sha256.batch(inputs, { packed: true })
// @ts-expect-error packed needs outputFormat 'buffer'
sha.sha256.batch(inputs, { outputFormat: 'hex', packed: true })
// @ts-expect-error the inputs are an array
sha.sha256.batch('abc')
// @ts-expect-error an HMAC needs its key
hmac.sha256.batch(inputs)
// @ts-expect-error batch (sync) takes no signal
sha.sha256.batch(inputs, { signal: AbortSignal.timeout(10) })
// @ts-expect-error a batch takes ivs, not iv
cipher.aes.encryptBatch(inputs, { key: 'k', iv: 'x' })
`,
  )
  const program = ts.createProgram([file], { strict: true, noEmit: true, module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, moduleResolution: ts.ModuleResolutionKind.Node10, types: ['node'], typeRoots: [path.join(root, 'node_modules', '@types')] })
  const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))
  t.deepEqual(diagnostics, [])
})
