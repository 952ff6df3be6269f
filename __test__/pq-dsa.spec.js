'use strict'
// ML-DSA (crypto.dsa.mldsa44/65/87, FIPS 204 pure): the deterministic pure KATs of ML-DSA-65/87
// (keygen from ξ, signature with context, verification), the C2SP/CCTV accumulated tests (100
// iterations per set here; 10 000 per set run in the Rust unit tests, src/pk/mldsa.rs), a
// differential test against @noble/post-quantum in both directions on random inputs, tamper tests
// (every bit of a signature, message and context), the key forms of RFC 9881 (SPKI, PKCS#8 seed /
// expandedKey / both, PEM, JWK), the async forms and the errors. node:crypto (Node >= 24.7) is
// compared in pq-dsa-node.spec.js, which runs under `npm run test:node-matrix`.
const test = require('ava')
const fs = require('node:fs')
const path = require('node:path')
const nodeCrypto = require('node:crypto')
const crypto = require('..')
const { hex } = require('./helpers/vectors')
const noble = require('@noble/post-quantum/ml-dsa.js')

const { dsa, keys } = crypto
const SETS = [
  { name: 'ml-dsa-44', api: dsa.mldsa44, noble: noble.ml_dsa44, oid: 0x11, pk: 1312, sk: 2560, sig: 2420 },
  { name: 'ml-dsa-65', api: dsa.mldsa65, noble: noble.ml_dsa65, oid: 0x12, pk: 1952, sk: 4032, sig: 3309 },
  { name: 'ml-dsa-87', api: dsa.mldsa87, noble: noble.ml_dsa87, oid: 0x13, pk: 2592, sk: 4896, sig: 4627 },
]
const rand = (n) => nodeCrypto.randomBytes(n)
const randInt = (n) => nodeCrypto.randomInt(n)
const VALUE = { instanceOf: TypeError, code: 'ERR_INVALID_ARG_VALUE' }
const TYPE = { instanceOf: TypeError, code: 'ERR_INVALID_ARG_TYPE' }
const KEY_TYPE = { instanceOf: TypeError, code: 'ERR_CRYPTO_INVALID_KEY_TYPE' }
const RANGE = { instanceOf: RangeError, code: 'ERR_OUT_OF_RANGE' }

/** The entries of a .rsp KAT file as objects of hex fields. */
function rsp(file) {
  const text = fs.readFileSync(path.join(__dirname, 'vectors', 'pq', 'mldsa', file), 'utf8')
  return text
    .split(/^count = /m)
    .slice(1)
    .map((block) => Object.fromEntries(block.split('\n').slice(1).filter(Boolean).map((l) => l.split(' = '))))
}

for (const [set, file] of [
  [SETS[1], 'kat_MLDSA_65_det_pure.rsp'],
  [SETS[2], 'kat_MLDSA_87_det_pure.rsp'],
]) {
  test(`${file}: keygen from xi, deterministic signature with context, verification (20 entries)`, (t) => {
    const entries = rsp(file)
    t.is(entries.length, 20)
    for (const [i, v] of entries.entries()) {
      const xi = hex(v.xi)
      const msg = hex(v.msg)
      const sm = hex(v.sm)
      const sig = sm.subarray(0, sm.length - msg.length)
      t.deepEqual(sm.subarray(sig.length), msg)
      const expanded = set.api.generateKeypair({ seed: xi, privateKeyFormat: 'expanded' })
      t.is(expanded.privateKey.toString('hex'), v.sk, `entry ${i} sk`)
      t.is(expanded.publicKey.toString('hex'), v.pk, `entry ${i} pk`)
      const seeded = set.api.generateKeypair({ seed: xi })
      t.deepEqual(seeded.privateKey, xi)
      t.deepEqual(seeded.publicKey, expanded.publicKey)
      const ctx = hex(v.ctx)
      // Either private key form gives the KAT's signature.
      t.is(set.api.sign(msg, xi, { context: ctx, deterministic: true }).toString('hex'), sig.toString('hex'), `entry ${i}`)
      t.deepEqual(set.api.sign(msg, expanded.privateKey, { context: ctx, deterministic: true }), sig)
      t.true(set.api.verify(msg, hex(v.pk), sig, { context: ctx }))
      t.false(set.api.verify(msg, hex(v.pk), sig), 'another (empty) context')
    }
  })
}

test('C2SP/CCTV accumulated ML-DSA tests: 100 iterations per parameter set', (t) => {
  const cctv = JSON.parse(fs.readFileSync(path.join(__dirname, 'vectors', 'pq', 'mldsa', 'cctv_mldsa_accumulated.json'), 'utf8'))
  for (const set of SETS) {
    const N = 100
    const expected = cctv.tests.find((c) => c.parameter_set === set.name.toUpperCase() && c.iterations === N).digest
    // seed_i = bytes [32i, 32i + 32) of SHAKE128(""); the accumulator absorbs pk ‖ sig of each.
    const seeds = nodeCrypto.createHash('shake128', { outputLength: 32 * N }).digest()
    const acc = nodeCrypto.createHash('shake128', { outputLength: 32 })
    for (let i = 0; i < N; i++) {
      const seed = seeds.subarray(32 * i, 32 * i + 32)
      const { privateKey, publicKey } = set.api.generateKeypair({ seed })
      const sig = set.api.sign('', privateKey, { deterministic: true })
      t.true(set.api.verify('', publicKey, sig))
      acc.update(publicKey).update(sig)
    }
    t.is(acc.digest('hex'), expected, set.name)
  }
})

test('@noble/post-quantum: same keys from the same seed, equal deterministic signatures, hedged ones verify both ways', (t) => {
  for (const set of SETS) {
    for (let i = 0; i < 12; i++) {
      const seed = rand(32)
      const msg = rand(randInt(2048))
      const context = rand(randInt(256))
      const ours = set.api.generateKeypair({ seed, privateKeyFormat: 'expanded' })
      const theirs = set.noble.keygen(seed)
      t.deepEqual(ours.publicKey, Buffer.from(theirs.publicKey))
      t.deepEqual(ours.privateKey, Buffer.from(theirs.secretKey))
      // Deterministic: byte-equal; from the seed and from the expanded key.
      const det = set.api.sign(msg, seed, { context, deterministic: true })
      t.deepEqual(det, Buffer.from(set.noble.sign(msg, theirs.secretKey, { context, extraEntropy: false })))
      // Hedged: ours verified by noble, noble's verified by ours.
      const hedged = set.api.sign(msg, i % 2 ? seed : ours.privateKey, { context })
      t.is(hedged.length, set.sig)
      t.true(set.noble.verify(hedged, msg, theirs.publicKey, { context }))
      const nobleSig = set.noble.sign(msg, theirs.secretKey, { context })
      t.true(set.api.verify(msg, ours.publicKey, nobleSig, { context }))
      t.false(set.api.verify(msg, ours.publicKey, nobleSig, { context: Buffer.concat([context, Buffer.from([1])]) }))
      // noble's public key from an expanded key (no seed) equals ours.
      t.deepEqual(keys.export(ours.privateKey, { algorithm: set.name, format: 'raw', public: true }), Buffer.from(set.noble.getPublicKey(theirs.secretKey)))
    }
    // Keys made by noble's own keygen (its randomness) sign here and verify there.
    const nk = set.noble.keygen()
    const msg = rand(100)
    t.true(set.noble.verify(set.api.sign(msg, Buffer.from(nk.secretKey)), msg, nk.publicKey))
  }
})

test('hedged signing uses fresh randomness; deterministic signing does not', (t) => {
  const { privateKey, publicKey } = dsa.mldsa44.generateKeypair()
  const a = dsa.mldsa44.sign('msg', privateKey)
  const b = dsa.mldsa44.sign('msg', privateKey)
  t.notDeepEqual(a, b)
  t.true(dsa.mldsa44.verify('msg', publicKey, a) && dsa.mldsa44.verify('msg', publicKey, b))
  t.deepEqual(dsa.mldsa44.sign('msg', privateKey, { deterministic: true }), dsa.mldsa44.sign('msg', privateKey, { deterministic: true }))
  t.notDeepEqual(dsa.mldsa44.generateKeypair().privateKey, dsa.mldsa44.generateKeypair().privateKey)
})

test('tampering: every flipped bit of the signature, message and context makes verification false', (t) => {
  for (const set of SETS) {
    const { privateKey, publicKey } = set.api.generateKeypair()
    const msg = rand(16)
    const context = rand(8)
    const sig = set.api.sign(msg, privateKey, { context })
    t.true(set.api.verify(msg, publicKey, sig, { context }))
    let accepted = 0
    const flip = (buf, bit) => {
      const b = Buffer.from(buf)
      b[bit >> 3] ^= 1 << (bit & 7)
      return b
    }
    for (let bit = 0; bit < sig.length * 8; bit++) accepted += set.api.verify(msg, publicKey, flip(sig, bit), { context })
    for (let bit = 0; bit < msg.length * 8; bit++) accepted += set.api.verify(flip(msg, bit), publicKey, sig, { context })
    for (let bit = 0; bit < context.length * 8; bit++) accepted += set.api.verify(msg, publicKey, sig, { context: flip(context, bit) })
    for (let bit = 0; bit < set.pk * 8; bit += 61) accepted += set.api.verify(msg, flip(publicKey, bit), sig, { context })
    t.is(accepted, 0, set.name)
    // Truncated, extended and empty signatures; another set's signature.
    t.false(set.api.verify(msg, publicKey, sig.subarray(0, sig.length - 1), { context }))
    t.false(set.api.verify(msg, publicKey, Buffer.concat([sig, Buffer.alloc(1)]), { context }))
    t.false(set.api.verify(msg, publicKey, Buffer.alloc(0), { context }))
    t.false(set.api.verify(msg, publicKey, Buffer.alloc(set.sig), { context }))
  }
})

test('context: 0..255 bytes, a string is its UTF-8; a longer one is refused when signing and false when verifying', (t) => {
  const { privateKey, publicKey } = dsa.mldsa65.generateKeypair()
  const ctx255 = 'é'.repeat(127) + 'x' // 255 bytes of UTF-8
  const sig = dsa.mldsa65.sign('m', privateKey, { context: ctx255, deterministic: true })
  t.deepEqual(sig, dsa.mldsa65.sign('m', privateKey, { context: Buffer.from(ctx255, 'utf8'), deterministic: true }))
  t.true(dsa.mldsa65.verify('m', publicKey, sig, { context: new Uint8Array(Buffer.from(ctx255)) }))
  t.throws(() => dsa.mldsa65.sign('m', privateKey, { context: 'é'.repeat(128) }), RANGE)
  t.throws(() => dsa.mldsa65.sign('m', privateKey, { context: Buffer.alloc(256) }), RANGE)
  t.false(dsa.mldsa65.verify('m', publicKey, sig, { context: Buffer.alloc(256) }))
  // The empty context is the default.
  const plain = dsa.mldsa65.sign('m', privateKey, { deterministic: true })
  t.deepEqual(plain, dsa.mldsa65.sign('m', privateKey, { context: '', deterministic: true }))
  t.true(dsa.mldsa65.verify('m', publicKey, plain, { context: new Uint8Array(0) }))
})

// ---- key forms (RFC 9881) -------------------------------------------------------------------

const oidDer = (last) => Buffer.from([0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, last])

test('RFC 9881 encodings: SPKI, PKCS#8 seed / expandedKey / both, PEM, JWK (AKP), all read back', (t) => {
  for (const set of SETS) {
    const seed = rand(32)
    const { privateKey: expanded, publicKey } = set.api.generateKeypair({ seed, privateKeyFormat: 'expanded' })
    const algId = Buffer.concat([Buffer.from([0x30, 0x0b]), oidDer(set.oid)])
    // SPKI: SEQUENCE { AlgorithmIdentifier (no parameters), BIT STRING (0 unused bits) pk }.
    const spki = keys.export(publicKey, { algorithm: set.name })
    const bits = set.pk + 1
    t.deepEqual(spki, Buffer.concat([Buffer.from([0x30, 0x82, (bits + 4 + 13) >> 8, (bits + 4 + 13) & 0xff]), algId, Buffer.from([0x03, 0x82, bits >> 8, bits & 0xff, 0]), publicKey]))
    // PKCS#8 v1 with the seed choice: privateKey OCTET STRING { [0] IMPLICIT 32 bytes }.
    const pkcs8 = keys.export(seed, { algorithm: set.name })
    t.deepEqual(pkcs8, Buffer.concat([Buffer.from([0x30, 0x34, 0x02, 0x01, 0x00]), algId, Buffer.from([0x04, 0x22, 0x80, 0x20]), seed]))
    // A key known only expanded is written with the expandedKey choice.
    const pkcs8Expanded = keys.export(expanded, { algorithm: set.name })
    const inner = Buffer.concat([Buffer.from([0x04, 0x82, set.sk >> 8, set.sk & 0xff]), expanded])
    const body = Buffer.concat([Buffer.from([0x02, 0x01, 0x00]), algId, Buffer.from([0x04, 0x82, inner.length >> 8, inner.length & 0xff]), inner])
    t.deepEqual(pkcs8Expanded, Buffer.concat([Buffer.from([0x30, 0x82, body.length >> 8, body.length & 0xff]), body]))
    // `both` (as node and OpenSSL write it) is read and checked.
    const both = Buffer.concat([Buffer.from([0x30, 0x82, (set.sk + 4 + 34) >> 8, (set.sk + 4 + 34) & 0xff, 0x04, 0x20]), seed, Buffer.from([0x04, 0x82, set.sk >> 8, set.sk & 0xff]), expanded])
    const bothBody = Buffer.concat([Buffer.from([0x02, 0x01, 0x00]), algId, Buffer.from([0x04, 0x82, both.length >> 8, both.length & 0xff]), both])
    const pkcs8Both = Buffer.concat([Buffer.from([0x30, 0x82, bothBody.length >> 8, bothBody.length & 0xff]), bothBody])
    for (const der of [pkcs8, pkcs8Expanded, pkcs8Both]) {
      t.deepEqual(keys.export(der, { format: 'raw', public: true }), publicKey)
      t.deepEqual(set.api.sign('x', der, { deterministic: true }), set.api.sign('x', seed, { deterministic: true }))
    }
    t.deepEqual(keys.export(pkcs8Both, { format: 'raw' }), seed, 'the seed is kept when known')
    t.deepEqual(keys.export(pkcs8Expanded, { format: 'raw' }), expanded)
    // `both` with an expanded key of another seed is refused.
    const other = set.api.generateKeypair({ privateKeyFormat: 'expanded' }).privateKey
    const mixed = Buffer.from(pkcs8Both)
    other.copy(mixed, mixed.length - set.sk)
    t.throws(() => keys.export(mixed), { ...VALUE, message: /disagree/ })
    // PEM labels and round trips.
    const pemPriv = keys.export(seed, { algorithm: set.name, format: 'pem' })
    t.regex(pemPriv, /^-----BEGIN PRIVATE KEY-----\n/)
    t.deepEqual(keys.export(pemPriv), pkcs8)
    const pemPub = keys.export(publicKey, { algorithm: set.name, format: 'pem' })
    t.regex(pemPub, /^-----BEGIN PUBLIC KEY-----\n/)
    t.deepEqual(keys.export(pemPub, { format: 'raw' }), publicKey)
    // JWK: kty AKP, alg ML-DSA-*, pub, priv = seed.
    const jwk = keys.export(seed, { algorithm: set.name, format: 'jwk' })
    t.deepEqual(jwk, { kty: 'AKP', alg: set.name.toUpperCase(), pub: publicKey.toString('base64url'), priv: seed.toString('base64url') })
    t.deepEqual(keys.export(jwk), pkcs8)
    t.deepEqual(keys.export({ kty: 'AKP', alg: jwk.alg, pub: jwk.pub }, { format: 'raw' }), publicKey)
    t.throws(() => keys.export({ ...jwk, pub: publicKey.subarray(1).toString('base64url') + 'AA' }), { code: 'ERR_CRYPTO_INVALID_JWK' })
    t.throws(() => keys.export(expanded, { algorithm: set.name, format: 'jwk' }), VALUE)
    // generateKeypair in the other formats.
    const der = set.api.generateKeypair({ seed, format: 'der' })
    t.deepEqual(der.privateKey, pkcs8)
    t.deepEqual(der.publicKey, spki)
    t.deepEqual(set.api.generateKeypair({ seed, format: 'jwk' }).privateKey, jwk)
  }
})

test('expanded keys are checked: coefficients out of range and an inconsistent tr or t0 are refused', async (t) => {
  const { privateKey: sk } = dsa.mldsa44.generateKeypair({ privateKeyFormat: 'expanded' })
  const outOfRange = Buffer.from(sk)
  outOfRange[128] |= 0b111 // s1[0] = η − 7 = −5
  t.throws(() => dsa.mldsa44.sign('m', outOfRange), { ...VALUE, message: /out of range/ })
  t.throws(() => keys.export(outOfRange, { algorithm: 'ml-dsa-44', public: true }), VALUE)
  const badTr = Buffer.from(sk)
  badTr[64] ^= 1
  t.throws(() => keys.export(badTr, { algorithm: 'ml-dsa-44', public: true }), { ...VALUE, message: /tr/ })
  // Signing checks the key whole too: an inconsistent tr or t0 would give signatures that never verify.
  t.throws(() => dsa.mldsa44.sign('m', badTr), { ...VALUE, message: /tr/ })
  const badT0 = Buffer.from(sk)
  badT0[badT0.length - 1] ^= 1
  t.throws(() => dsa.mldsa44.sign('m', badT0), { ...VALUE, message: /t0/ })
  await t.throwsAsync(dsa.mldsa44.signAsync('m', badT0), { ...VALUE, message: /t0/ })
  const derTr = keys.export(sk, { algorithm: 'ml-dsa-44' })
  derTr[derTr.length - sk.length + 64] ^= 1
  t.throws(() => keys.export(derTr), VALUE)
})

test('keys: the key layer names, KeyObjects where node has them, and cached expansion', (t) => {
  const { privateKey, publicKey } = dsa.mldsa87.generateKeypair()
  for (const algorithm of ['ml-dsa-87', 'mldsa87', 'ML-DSA-87']) {
    t.deepEqual(keys.export(privateKey, { algorithm, format: 'raw', public: true }), publicKey)
  }
  // Node has ML-DSA KeyObjects from 24.7; Deno reports a Node version without having them.
  let nodeHasMlDsa = true
  try {
    nodeCrypto.generateKeyPairSync('ml-dsa-87')
  } catch {
    nodeHasMlDsa = false
  }
  if (nodeHasMlDsa) {
    const ko = keys.import(privateKey, { algorithm: 'ml-dsa-87' })
    t.is(ko.asymmetricKeyType, 'ml-dsa-87')
    const sig = dsa.mldsa87.sign('m', ko)
    t.true(dsa.mldsa87.verify('m', keys.import(publicKey, { algorithm: 'ml-dsa-87' }), sig))
  } else {
    t.throws(() => keys.import(privateKey, { algorithm: 'ml-dsa-87' }), { code: 'ERR_FEATURE_UNAVAILABLE_ON_PLATFORM' })
  }
  // The same Buffer signed twice, then changed in place: the second key is used.
  const other = dsa.mldsa87.generateKeypair({ privateKeyFormat: 'expanded' })
  const key = Buffer.from(other.privateKey)
  t.true(dsa.mldsa87.verify('a', other.publicKey, dsa.mldsa87.sign('a', key)))
  dsa.mldsa87.generateKeypair({ privateKeyFormat: 'expanded' }).privateKey.copy(key)
  t.false(dsa.mldsa87.verify('a', other.publicKey, dsa.mldsa87.sign('a', key)))
  // A seed Buffer signed with twice is expanded once (counted at the native call), and once more
  // after it changed in place. (The body is synchronous: no other test sees the counter.)
  // Both seeds are generated before counting (generateKeypair calls the native expansion too).
  const seed = Buffer.from(dsa.mldsa87.generateKeypair().privateKey)
  const next = dsa.mldsa87.generateKeypair().privateKey
  // The expansion is a native handle (mldsaPrepare): the expanded key is not kept in JS.
  const native = require('../lib/native')
  const prepare = native.mldsaPrepare
  let calls = 0
  native.mldsaPrepare = (...a) => (calls++, prepare(...a))
  try {
    dsa.mldsa87.sign('a', seed)
    dsa.mldsa87.sign('b', seed)
    t.is(calls, 1, 'one expansion for a seed passed twice')
    next.copy(seed)
    const sig = dsa.mldsa87.sign('c', seed)
    t.is(calls, 2, 'expanded again once its bytes changed')
    t.true(dsa.mldsa87.verify('c', dsa.mldsa87.generateKeypair({ seed: next }).publicKey, sig))
  } finally {
    native.mldsaPrepare = prepare
  }
  // One seed Buffer is a key of each parameter set: each set signs with its own expansion.
  const shared = Buffer.alloc(32, 9)
  for (const set of [dsa.mldsa44, dsa.mldsa65, dsa.mldsa44]) {
    t.true(set.verify('x', set.generateKeypair({ seed: shared }).publicKey, set.sign('x', shared)))
  }
  // A prepared handle of one set is refused by another (reachable only through the native call).
  const handle = native.mldsaPrepare(0, shared)
  const params = (set) => ({ set, verify: false, deterministic: true })
  t.is(native.mldsa(params(0), [handle, Buffer.from('x'), undefined, Buffer.alloc(0)]).length, dsa.mldsa44.lengths.signature)
  t.throws(() => native.mldsa(params(1), [handle, Buffer.from('x'), undefined, Buffer.alloc(0)]), { instanceOf: TypeError, code: 'ERR_CRYPTO_INVALID_KEY_TYPE', message: /another ML-DSA parameter set/ })
})

// ---- async ------------------------------------------------------------------------------------

test('signAsync / verifyAsync: same results as the sync forms, on the pool; signal', async (t) => {
  for (const set of SETS) {
    const { privateKey, publicKey } = set.api.generateKeypair()
    const msg = rand(1000)
    const context = 'async'
    const sig = await set.api.signAsync(msg, privateKey, { context, deterministic: true })
    t.deepEqual(sig, set.api.sign(msg, privateKey, { context, deterministic: true }))
    t.true(await set.api.verifyAsync(msg, publicKey, sig, { context }))
    t.false(await set.api.verifyAsync(msg, publicKey, sig))
    t.true(set.api.verify(msg, publicKey, await set.api.signAsync(msg, privateKey)))
    // The message is copied before queueing: changing it afterwards changes nothing.
    const m = Buffer.from(msg)
    const pending = set.api.signAsync(m, privateKey, { deterministic: true })
    m.fill(0)
    t.deepEqual(await pending, set.api.sign(msg, privateKey, { deterministic: true }))
  }
  const { privateKey } = dsa.mldsa65.generateKeypair()
  await t.throwsAsync(dsa.mldsa65.signAsync('m', privateKey, { signal: AbortSignal.abort() }), { name: 'AbortError', code: 'ABORT_ERR' })
  const ac = new AbortController()
  const jobs = Array.from({ length: 8 }, () => dsa.mldsa65.signAsync('m', privateKey, { signal: ac.signal }))
  ac.abort()
  const settled = await Promise.allSettled(jobs)
  // Each job either finished before the abort reached it or was rejected with an AbortError.
  for (const s of settled) t.true(s.status === 'fulfilled' ? s.value.length === 3309 : s.reason.name === 'AbortError')
  t.true(settled.some((s) => s.status === 'rejected'))
  await t.throwsAsync(dsa.mldsa65.signAsync('m', Buffer.alloc(31)), VALUE)
  await t.throwsAsync(dsa.mldsa65.signAsync('m', privateKey, { context: Buffer.alloc(256) }), RANGE)
  await t.throwsAsync(dsa.mldsa65.verifyAsync('m', Buffer.alloc(10), Buffer.alloc(3309)), VALUE)
  await t.throwsAsync(dsa.mldsa65.signAsync('m', privateKey, { signal: 'no' }), TYPE)
})

// ---- errors -----------------------------------------------------------------------------------

test('errors: wrong types, lengths and key kinds throw coded errors', (t) => {
  const kp = dsa.mldsa65.generateKeypair()
  const sig = dsa.mldsa65.sign('m', kp.privateKey)
  const ed = dsa.ed25519.generateKeypair({ format: 'der' })
  t.throws(() => dsa.mldsa65.sign('m', Buffer.alloc(31)), VALUE)
  t.throws(() => dsa.mldsa65.sign('m', Buffer.alloc(4031)), VALUE)
  t.throws(() => dsa.mldsa65.verify('m', Buffer.alloc(1951), sig), VALUE)
  t.throws(() => dsa.mldsa65.sign('m', ed.privateKey), KEY_TYPE)
  t.throws(() => dsa.mldsa65.verify('m', ed.publicKey, sig), KEY_TYPE)
  // Another parameter set's keys.
  const k44 = dsa.mldsa44.generateKeypair({ format: 'der' })
  t.throws(() => dsa.mldsa65.sign('m', k44.privateKey), KEY_TYPE)
  t.throws(() => dsa.mldsa65.verify('m', k44.publicKey, sig), KEY_TYPE)
  t.throws(() => dsa.mldsa65.verify('m', dsa.mldsa44.generateKeypair().publicKey, sig), VALUE)
  // A public key where a private one is needed; a private key stands for its public key.
  t.throws(() => dsa.mldsa65.sign('m', kp.publicKey), KEY_TYPE)
  t.true(dsa.mldsa65.verify('m', kp.privateKey, sig))
  t.throws(() => dsa.mldsa65.sign('m', 123), TYPE)
  t.throws(() => dsa.mldsa65.sign(123, kp.privateKey), TYPE)
  t.throws(() => dsa.mldsa65.verify('m', kp.publicKey, 123), TYPE)
  t.throws(() => dsa.mldsa65.sign('m', kp.privateKey, { context: 5 }), TYPE)
  t.throws(() => dsa.mldsa65.sign('m', kp.privateKey, { deterministic: 1 }), TYPE)
  t.throws(() => dsa.mldsa65.sign('m', kp.privateKey, { hash: 'sha256' }), VALUE)
  t.throws(() => dsa.mldsa65.verify('m', kp.publicKey, sig, { deterministic: true }), VALUE)
  t.throws(() => dsa.mldsa65.generateKeypair({ seed: Buffer.alloc(31) }), VALUE)
  t.throws(() => dsa.mldsa65.generateKeypair({ seed: 'x'.repeat(32) }), TYPE)
  t.throws(() => dsa.mldsa65.generateKeypair({ privateKeyFormat: 'both' }), VALUE)
  t.throws(() => dsa.mldsa65.generateKeypair({ format: 'bin' }), VALUE)
  t.throws(() => keys.export(kp.privateKey, { algorithm: 'ml-dsa-66' }), VALUE)
  t.throws(() => keys.export(Buffer.alloc(100), { algorithm: 'ml-dsa-65' }), VALUE)
})

test('lengths: the sizes of FIPS 204 Table 2', (t) => {
  for (const set of SETS) {
    t.deepEqual({ ...set.api.lengths }, { seed: 32, expandedPrivateKey: set.sk, publicKey: set.pk, signature: set.sig })
    const kp = set.api.generateKeypair({ privateKeyFormat: 'expanded' })
    t.is(kp.privateKey.length, set.sk)
    t.is(kp.publicKey.length, set.pk)
    t.is(set.api.sign('', kp.privateKey).length, set.sig)
  }
})
