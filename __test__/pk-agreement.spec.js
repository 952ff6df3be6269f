'use strict'
// Key agreement (crypto.cipher.x25519, crypto.cipher.ecdh): RFC 7748 and Wycheproof X25519
// known answers, and differential tests against node:crypto's diffieHellman and @noble/curves on
// random keys, in every key form; low-order X25519 peers and off-curve ECDH points throw.
const test = require('ava')
const nodeCrypto = require('node:crypto')
// Node 20 can deadlock exporting a generated key as JWK: see the helper.
const { generateKeyPairSync } = require('./helpers/node-keys')
const crypto = require('..')
const { json, hex } = require('./helpers/vectors')

const { x25519, ecdh } = crypto.cipher
const CURVES = { p256: 'prime256v1', p384: 'secp384r1', p521: 'secp521r1', secp256k1: 'secp256k1' }
const LOW_ORDER = { instanceOf: Error, code: 'ERR_CRYPTO_ECDH_INVALID_PUBLIC_KEY' }

test('RFC 7748 §5.2 X25519 function vectors', (t) => {
  const { tests } = json('rfc/x25519_rfc7748.json')
  t.is(tests.length, 3)
  for (const v of tests) t.is(x25519.deriveSharedSecret(hex(v.scalar), hex(v.u)).toString('hex'), v.output_u, `tc ${v.tcId}`)
})

test('RFC 7748 §6.1 Alice and Bob', (t) => {
  const a = hex('77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a')
  const b = hex('5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb')
  const A = crypto.keys.export(a, { algorithm: 'x25519', keyType: 'private', format: 'raw', public: true })
  t.is(A.toString('hex'), '8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a')
  const B = crypto.keys.export(b, { algorithm: 'x25519', keyType: 'private', format: 'raw', public: true })
  const K = '4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742'
  t.is(x25519.deriveSharedSecret(a, B).toString('hex'), K)
  t.is(x25519.deriveSharedSecret(b, A).toString('hex'), K)
})

test('Wycheproof x25519_test.json: valid results match; all-zero (low-order) results throw', (t) => {
  const file = json('wycheproof/x25519_test.json')
  let n = 0
  for (const g of file.testGroups) {
    for (const v of g.tests) {
      n++
      const label = `tcId ${v.tcId} ${v.comment} [${v.flags}]`
      if (/^0+$/.test(v.shared)) {
        t.throws(() => x25519.deriveSharedSecret(hex(v.private), hex(v.public)), LOW_ORDER, label)
      } else {
        // valid and acceptable (twist, non-canonical u): computed as RFC 7748 says.
        t.is(x25519.deriveSharedSecret(hex(v.private), hex(v.public)).toString('hex'), v.shared, label)
      }
    }
  }
  t.is(n, file.numberOfTests)
})

test('X25519 differential: node:crypto diffieHellman agrees, every key form both ways', (t) => {
  for (let i = 0; i < 100; i++) {
    const a = generateKeyPairSync('x25519')
    const b = x25519.generateKeypair({ format: i % 2 ? 'keyobject' : 'pem' })
    const ours = x25519.deriveSharedSecret(a.privateKey, b.publicKey)
    const bKo = i % 2 ? b : { privateKey: nodeCrypto.createPrivateKey(b.privateKey), publicKey: nodeCrypto.createPublicKey(b.publicKey) }
    t.deepEqual(ours, nodeCrypto.diffieHellman({ privateKey: a.privateKey, publicKey: bKo.publicKey }))
    t.deepEqual(x25519.deriveSharedSecret(b.privateKey, a.publicKey.export({ format: 'jwk' })), ours)
    t.deepEqual(x25519.deriveSharedSecret(a.privateKey.export({ format: 'der', type: 'pkcs8' }), b.publicKey), ours)
  }
  const raw = x25519.generateKeypair()
  t.is(raw.privateKey.length, 32)
  t.is(raw.publicKey.length, 32)
})

let noble
test.before(async () => {
  const nist = await import('@noble/curves/nist.js')
  const k1 = await import('@noble/curves/secp256k1.js')
  noble = { p256: nist.p256, p384: nist.p384, p521: nist.p521, secp256k1: k1.secp256k1 }
})

for (const curve of Object.keys(CURVES)) {
  test(`ECDH ${curve}: agrees with node:crypto and @noble/curves, in every key form`, (t) => {
    for (let i = 0; i < 25; i++) {
      const a = generateKeyPairSync('ec', { namedCurve: CURVES[curve] })
      const b = ecdh.generateKeypair(curve)
      const expected = nodeCrypto.diffieHellman({ privateKey: a.privateKey, publicKey: crypto.keys.import(b.publicKey, { algorithm: 'ec', curve }) })
      const forms = [a.publicKey, a.publicKey.export({ format: 'jwk' }), a.publicKey.export({ format: 'pem', type: 'spki' }), crypto.keys.export(a.publicKey, { format: 'raw', type: 'compressed' })]
      for (const f of forms) t.deepEqual(ecdh.deriveSharedSecret(curve, b.privateKey, f), expected)
      t.deepEqual(ecdh.deriveSharedSecret(curve, a.privateKey, b.publicKey), expected)
      const aRaw = crypto.keys.export(a.privateKey, { format: 'raw' })
      t.deepEqual(Buffer.from(noble[curve].getSharedSecret(aRaw, b.publicKey).subarray(1)), expected)
    }
    const kp = ecdh.generateKeypair(curve)
    t.is(kp.publicKey[0], 4)
  })
}

test('ECDH errors: wrong curve, off-curve and identity points, malformed keys, wrong algorithms', (t) => {
  const a = ecdh.generateKeypair('p256')
  const b = ecdh.generateKeypair('p256')
  const off = Buffer.from(b.publicKey)
  off[64] ^= 1
  t.throws(() => ecdh.deriveSharedSecret('p256', a.privateKey, off), LOW_ORDER)
  t.throws(() => ecdh.deriveSharedSecret('p256', a.privateKey, Buffer.concat([Buffer.from([4]), Buffer.alloc(64)])), LOW_ORDER)
  t.throws(() => ecdh.deriveSharedSecret('p256', a.privateKey, Buffer.from([0])), { instanceOf: TypeError, code: 'ERR_INVALID_ARG_VALUE' })
  t.throws(() => ecdh.deriveSharedSecret('p256', a.privateKey, b.publicKey.subarray(0, 64)), { instanceOf: TypeError, code: 'ERR_INVALID_ARG_VALUE' })
  // The same bytes are a different (wrong-length) key on P-384; a P-384 key object is refused.
  t.throws(() => ecdh.deriveSharedSecret('p384', a.privateKey, b.publicKey), { instanceOf: TypeError, code: 'ERR_INVALID_ARG_VALUE' })
  const p384 = generateKeyPairSync('ec', { namedCurve: 'secp384r1' })
  t.throws(() => ecdh.deriveSharedSecret('p256', a.privateKey, p384.publicKey), { instanceOf: TypeError, code: 'ERR_CRYPTO_INVALID_KEY_TYPE' })
  t.throws(() => ecdh.deriveSharedSecret('p256', p384.privateKey, b.publicKey), { instanceOf: TypeError, code: 'ERR_CRYPTO_INVALID_KEY_TYPE' })
  t.throws(() => ecdh.deriveSharedSecret('p256', generateKeyPairSync('x25519').privateKey, b.publicKey), { code: 'ERR_CRYPTO_INVALID_KEY_TYPE' })
  t.throws(() => ecdh.deriveSharedSecret('curve9', a.privateKey, b.publicKey), { instanceOf: TypeError, code: 'ERR_INVALID_ARG_VALUE' })
  t.throws(() => ecdh.generateKeypair('p384', { format: 'xml' }), { instanceOf: TypeError, code: 'ERR_INVALID_ARG_VALUE' })
  // The original bug: 'p384' must be P-384, not P-256.
  const k = ecdh.generateKeypair('p384')
  t.is(k.privateKey.length, 48)
  t.is(k.publicKey.length, 97)
})

test('X25519 errors: wrong algorithms and lengths, malformed forms', (t) => {
  const kp = x25519.generateKeypair()
  const ed = generateKeyPairSync('ed25519')
  t.throws(() => x25519.deriveSharedSecret(ed.privateKey, kp.publicKey), { instanceOf: TypeError, code: 'ERR_CRYPTO_INVALID_KEY_TYPE' })
  t.throws(() => x25519.deriveSharedSecret(kp.privateKey, ed.publicKey), { instanceOf: TypeError, code: 'ERR_CRYPTO_INVALID_KEY_TYPE' })
  t.throws(() => x25519.deriveSharedSecret(kp.privateKey, kp.publicKey.subarray(1)), { instanceOf: TypeError, code: 'ERR_INVALID_ARG_VALUE' })
  t.throws(() => x25519.deriveSharedSecret(kp.privateKey.subarray(1), kp.publicKey), { instanceOf: TypeError, code: 'ERR_INVALID_ARG_VALUE' })
  t.throws(() => x25519.deriveSharedSecret(kp.privateKey, null), { instanceOf: TypeError, code: 'ERR_INVALID_ARG_TYPE' })
  t.throws(() => x25519.deriveSharedSecret(kp.privateKey, Buffer.alloc(32)), LOW_ORDER)
})
