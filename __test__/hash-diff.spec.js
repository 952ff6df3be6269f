'use strict'
// Differential tests against node:crypto (OpenSSL) on random inputs: lengths from 0 to past
// 64 KiB across block boundaries, one-shot vs incremental with random chunking, views at odd
// offsets, every input type and output format, copy() forks.
const test = require('ava')
const nodeCrypto = require('node:crypto')
const { nodeHas } = require('./helpers/node-reference')
const { sha, hash, hmac } = require('..')

// Our name -> node's name (and extra options). Only algorithms node has here are checked.
const NODE_NAMES = {
  md4: 'md4',
  md5: 'md5',
  sha1: 'sha1',
  sha224: 'sha224',
  sha256: 'sha256',
  sha384: 'sha384',
  sha512: 'sha512',
  sha512_224: 'sha512-224',
  sha512_256: 'sha512-256',
  sha3_224: 'sha3-224',
  sha3_256: 'sha3-256',
  sha3_384: 'sha3-384',
  sha3_512: 'sha3-512',
  shake128: 'shake128',
  shake256: 'shake256',
  blake2b: 'blake2b512',
  blake2s: 'blake2s256',
  ripemd160: 'ripemd160',
  whirlpool: 'whirlpool',
}


// Deterministic PRNG so failures reproduce (seed printed in the assertion messages).
function rng(seed) {
  let s = seed >>> 0
  return (n) => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0
    return s % n
  }
}

const LENGTHS = [0, 1, 3, 55, 56, 63, 64, 65, 111, 112, 127, 128, 129, 135, 136, 137, 143, 144, 1000, 4096, 65535, 65536, 65537, 70000]

function inputsFor(rand) {
  const lengths = [...LENGTHS]
  for (let i = 0; i < 12; i++) lengths.push(rand(70001))
  return lengths.map((n) => nodeCrypto.randomBytes(n))
}

function nodeDigest(name, data, outputLength) {
  const opts = outputLength === undefined ? undefined : { outputLength }
  return nodeCrypto.createHash(NODE_NAMES[name], opts).update(data).digest('hex')
}

for (const name of Object.keys(NODE_NAMES)) {
  const available = nodeHas(NODE_NAMES[name])
  const maybe = available ? test : test.skip
  maybe(`${name} equals node:crypto on random inputs, every input type, chunking and format`, (t) => {
    const f = sha[name]
    const rand = rng(0x5eed + name.length)
    const xof = name.startsWith('shake')
    for (const data of inputsFor(rand)) {
      const outputLength = xof ? 1 + rand(200) : undefined
      const opts = xof ? { outputLength } : {}
      const expected = nodeDigest(name, data, outputLength)
      const label = `${name} len=${data.length}`
      t.is(f(data, xof ? opts : undefined), expected, label)

      // The same bytes through every input type, including views at odd offsets.
      const backing = Buffer.alloc(data.length + 11)
      data.copy(backing, 5)
      const view = new Uint8Array(backing.buffer, backing.byteOffset + 5, data.length)
      t.is(f(view, opts), expected, `${label} Uint8Array view at offset 5`)
      t.is(f(new DataView(backing.buffer, backing.byteOffset + 5, data.length), opts), expected, `${label} DataView`)
      t.is(f(Uint8Array.from(data).buffer, opts), expected, `${label} ArrayBuffer`)
      if (data.length % 4 === 0) {
        const aligned = new Uint8Array(data.length)
        aligned.set(data)
        t.is(f(new Uint32Array(aligned.buffer), opts), expected, `${label} Uint32Array`)
      }

      // Output formats.
      const raw = Buffer.from(expected, 'hex')
      t.deepEqual(f(data, { ...opts, outputFormat: 'buffer' }), raw)
      t.is(f(data, { ...opts, outputFormat: 'base64' }), raw.toString('base64'))
      t.is(f(data, { ...opts, outputFormat: 'base64url' }), raw.toString('base64url'))
      t.is(f(data, { ...opts, outputFormat: 'binary' }), raw.toString('latin1'))

      // Incremental with random chunk sizes, and a copy() fork half way.
      const h = f.create(opts)
      let pos = 0
      let fork
      while (pos < data.length) {
        const step = 1 + rand(Math.max(1, Math.min(9000, data.length - pos)))
        h.update(data.subarray(pos, pos + step))
        pos += step
        if (!fork && pos >= data.length / 2) fork = { at: pos, h: h.copy() }
      }
      t.is(h.digest(), expected, `${label} incremental`)
      if (fork) {
        fork.h.update('tail')
        t.is(fork.h.digest(), nodeDigest(name, Buffer.concat([data.subarray(0, fork.at), Buffer.from('tail')]), outputLength))
      }
    }
  })
}

test('strings are hashed as UTF-8 (as node:crypto does)', (t) => {
  for (const s of ['', 'abc', 'héllo wörld', '日本語テキスト', '😀 emoji', 'a'.repeat(100000), 'lone \ud800 surrogate']) {
    t.is(sha.sha256(s), nodeCrypto.createHash('sha256').update(s, 'utf8').digest('hex'))
    t.is(sha.sha256.create().update(s).digest(), nodeCrypto.createHash('sha256').update(s).digest('hex'))
    t.is(hmac.sha256(s, { key: s }), nodeCrypto.createHmac('sha256', s).update(s).digest('hex'))
  }
})

test('same length, different inputs give different digests (the original library hashed zeros)', (t) => {
  const seen = new Set()
  for (const name of Object.keys(sha)) {
    seen.clear()
    for (const s of ['aaaa', 'aaab', 'baaa', 'zzzz']) seen.add(sha[name](s))
    t.is(seen.size, 4, name)
  }
})

test('crypto.hash is the same namespace as crypto.sha', (t) => {
  t.is(hash, sha)
  t.is(require('..').hash, require('..').sha)
})

test('one-shot options object may carry outputFormat only; create() honours a default outputFormat', (t) => {
  const d = Buffer.from('abc')
  t.deepEqual(sha.sha256.create({ outputFormat: 'buffer' }).update(d).digest(), nodeCrypto.createHash('sha256').update(d).digest())
  t.is(sha.sha256.create({ outputFormat: 'buffer' }).update(d).digest('hex'), nodeCrypto.createHash('sha256').update(d).digest('hex'))
  t.is(sha.sha256(d, {}), sha.sha256(d))
  t.is(sha.sha256(d, null), sha.sha256(d))
})

test('reset() starts over with the same key and options; digest() can then run again', (t) => {
  const h = sha.blake2b.create({ key: 'k', outputLength: 20 })
  const first = h.update('abc').digest()
  t.is(h.reset().update('abc').digest(), first)
  t.is(first, sha.blake2b('abc', { key: 'k', outputLength: 20 }))
  const m = hmac.sha512.create({ key: 'secret' })
  const tag = m.update('data').digest()
  t.is(m.reset().update('data').digest(), tag)
  t.is(tag, nodeCrypto.createHmac('sha512', 'secret').update('data').digest('hex'))
})

const HMAC_NODE = Object.fromEntries(Object.entries(NODE_NAMES).filter(([n]) => !n.startsWith('shake')))

for (const name of Object.keys(HMAC_NODE)) {
  const maybe = nodeHas(HMAC_NODE[name]) ? test : test.skip
  maybe(`hmac.${name} equals node:crypto createHmac for random keys (0..300 bytes) and data`, (t) => {
    const rand = rng(0xbeef + name.length)
    for (const data of inputsFor(rand).slice(0, 28)) {
      const key = nodeCrypto.randomBytes(rand(301))
      const expected = nodeCrypto.createHmac(HMAC_NODE[name], key).update(data).digest('hex')
      t.is(hmac[name](data, { key }), expected, `${name} key=${key.length} len=${data.length}`)
      t.deepEqual(hmac[name](data, { key, outputFormat: 'buffer' }), Buffer.from(expected, 'hex'))
      const m = hmac[name].create({ key })
      const cut = rand(data.length + 1)
      m.update(data.subarray(0, cut))
      const fork = m.copy()
      m.update(data.subarray(cut))
      t.is(m.digest(), expected)
      t.is(fork.update(data.subarray(cut)).digest(), expected)
    }
    t.is(hmac[name]('x', { key: '' }), nodeCrypto.createHmac(HMAC_NODE[name], '').update('x').digest('hex'), 'empty key')
  })
}

test('BLAKE2 key/salt/personalization/outputLength agree between one-shot and incremental', (t) => {
  const opts = { key: nodeCrypto.randomBytes(40), salt: nodeCrypto.randomBytes(16), personalization: 'app v1', outputLength: 33 }
  const d = nodeCrypto.randomBytes(1000)
  const one = sha.blake2b(d, opts)
  t.is(one.length, 66)
  t.is(sha.blake2b.create(opts).update(d.subarray(0, 10)).update(d.subarray(10)).digest(), one)
  t.not(sha.blake2b(d, { ...opts, salt: undefined }), one)
  t.not(sha.blake2b(d, { ...opts, personalization: 'app v2' }), one)
  // The unkeyed, default-length BLAKE2 equals OpenSSL's BLAKE2b-512 / BLAKE2s-256.
  t.is(sha.blake2b(d), nodeCrypto.createHash('blake2b512').update(d).digest('hex'))
  t.is(sha.blake2s(d), nodeCrypto.createHash('blake2s256').update(d).digest('hex'))
})

test('randomBytes returns fresh CSPRNG bytes of the requested size', (t) => {
  const { randomBytes } = require('..')
  t.is(randomBytes(0).length, 0)
  const a = randomBytes(64)
  const b = randomBytes(64)
  t.true(Buffer.isBuffer(a))
  t.is(a.length, 64)
  t.false(a.equals(b))
  // A crude sanity check on distribution: 1 MiB of output has every byte value, none dominant.
  const big = randomBytes(1 << 20)
  const counts = new Uint32Array(256)
  for (const x of big) counts[x]++
  t.true(Math.min(...counts) > 3500 && Math.max(...counts) < 4700)
})

test('timingSafeEqual compares like node:crypto', (t) => {
  const { timingSafeEqual } = require('..')
  const a = nodeCrypto.randomBytes(32)
  const b = Buffer.from(a)
  t.true(timingSafeEqual(a, b))
  b[31] ^= 1
  t.false(timingSafeEqual(a, b))
  t.true(timingSafeEqual('abc', new Uint8Array([97, 98, 99])))
  t.true(timingSafeEqual(Buffer.alloc(0), new ArrayBuffer(0)))
})

test('update() keeps its own copy: mutating the caller buffer afterwards changes nothing', (t) => {
  for (const f of [() => sha.sha256.create(), () => hmac.sha256.create({ key: 'k' })]) {
    const buf = Buffer.from('first part ')
    const h = f().update(buf)
    buf.fill(0)
    h.update('second part')
    const expected = f().update('first part ').update('second part').digest()
    t.is(h.digest(), expected)
  }
  // The HMAC key is copied at create() too.
  const key = Buffer.from('secret')
  const m = hmac.sha256.create({ key })
  key.fill(0)
  t.is(m.update('x').digest(), nodeCrypto.createHmac('sha256', 'secret').update('x').digest('hex'))
})

test('streams that grow past the in-JS buffering limit, with forks before and after it', (t) => {
  const data = nodeCrypto.randomBytes(40000)
  for (const name of ['sha256', 'sha3_512', 'blake3', 'blake2b']) {
    const h = sha[name].create()
    const forks = []
    for (let pos = 0; pos < data.length; pos += 1000) {
      h.update(data.subarray(pos, pos + 1000))
      if (pos % 7000 === 0) forks.push([pos + 1000, h.copy()])
    }
    t.is(h.digest(), sha[name](data))
    for (const [at, fork] of forks) t.is(fork.digest(), sha[name](data.subarray(0, at)), `${name} fork at ${at}`)
  }
})
