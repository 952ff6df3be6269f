'use strict'
// Ed25519 (crypto.dsa.ed25519): RFC 8032 / SUPERCOP sign.input known answers, the Wycheproof
// verification file (strictness: non-canonical S, small-order keys), and differential tests
// against node:crypto in both directions with random keys and messages, in every key form.
const test = require('ava')
const fs = require('node:fs')
const path = require('node:path')
const nodeCrypto = require('node:crypto')
// Node 20 can deadlock exporting a generated key as JWK: see the helper.
const { generateKeyPairSync } = require('./helpers/node-keys')
const crypto = require('..')
const { json, hex } = require('./helpers/vectors')

const { ed25519 } = crypto.dsa
const seed = Number(process.env.PK_SEED || Date.now() % 1e9)
const rand = (n) => nodeCrypto.randomBytes(n)

test.before((t) => t.log(`random inputs are fresh per run; PK_SEED=${seed} tags this run`))

test('RFC 8032 / SUPERCOP sign.input: 1024 (seed, public key, message, signature) lines', (t) => {
  const lines = fs
    .readFileSync(path.join(__dirname, 'vectors', 'ed25519', 'sign.input'), 'utf8')
    .split('\n')
    .filter(Boolean)
  t.is(lines.length, 1024)
  for (const [i, line] of lines.entries()) {
    const [skpk, pk, msg, sigmsg] = line.split(':')
    const sk = hex(skpk.slice(0, 64))
    const sig = hex(sigmsg.slice(0, 128))
    const m = hex(msg)
    t.is(ed25519.sign(sk, m).toString('hex'), sig.toString('hex'), `line ${i + 1}`)
    t.true(ed25519.verify(hex(pk), m, sig), `line ${i + 1}`)
    t.is(crypto.keys.export(sk, { algorithm: 'ed25519', keyType: 'private', format: 'raw', public: true }).toString('hex'), pk)
  }
})

test('Wycheproof ed25519_test.json: every valid signature verifies, every invalid one is refused', (t) => {
  const file = json('wycheproof/ed25519_test.json')
  let n = 0
  for (const g of file.testGroups) {
    const pk = hex(g.publicKey.pk)
    // The group's key in its DER, PEM and JWK forms must be the same key.
    const forms = [pk, hex(g.publicKeyDer), g.publicKeyPem, g.publicKeyJwk].filter(Boolean)
    for (const f of forms) t.deepEqual(crypto.keys.export(f, { algorithm: 'ed25519', keyType: 'public', format: 'raw' }), pk)
    for (const v of g.tests) {
      const ok = ed25519.verify(pk, hex(v.msg), hex(v.sig))
      t.is(ok, v.result === 'valid', `tcId ${v.tcId} ${v.comment} [${v.flags}]`)
      n++
    }
  }
  t.is(n, file.numberOfTests)
})

test('small-order public keys are refused even with a signature that the cofactored equation accepts', (t) => {
  // Identity (y = 1) with R = identity and S = 0: valid under the plain equation for any message.
  const identity = Buffer.alloc(32)
  identity[0] = 1
  const sig = Buffer.concat([identity, Buffer.alloc(32)])
  t.false(ed25519.verify(identity, 'anything', sig))
  // The same key with the sign bit set, and y = p + 1 (non-canonical 1).
  const signed = Buffer.from(identity)
  signed[31] |= 0x80
  t.false(ed25519.verify(signed, 'anything', Buffer.concat([identity, Buffer.alloc(32)])))
})

test('differential: ours signs, node verifies; node signs, ours verifies (random keys and messages)', (t) => {
  for (let i = 0; i < 200; i++) {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519')
    const msg = rand(i % 7 === 0 ? 0 : (i * 37) % 3000)
    const ours = ed25519.sign(privateKey, msg)
    t.true(nodeCrypto.verify(null, msg, publicKey, ours))
    // Ed25519 is deterministic: both produce the same bytes.
    t.deepEqual(ours, nodeCrypto.sign(null, msg, privateKey))
    t.true(ed25519.verify(publicKey, msg, nodeCrypto.sign(null, msg, privateKey)))
    const bad = Buffer.from(ours)
    bad[i % 64] ^= 1 << i % 8
    t.false(ed25519.verify(publicKey, msg, bad))
    t.is(nodeCrypto.verify(null, msg, publicKey, bad), false)
  }
})

test('a raw key Buffer reused, changed in place, or used for X25519 too, always signs with its current bytes', (t) => {
  const buf = Buffer.alloc(32)
  for (let i = 0; i < 20; i++) {
    const { privateKey } = generateKeyPairSync('ed25519')
    Buffer.from(privateKey.export({ format: 'jwk' }).d, 'base64url').copy(buf)
    const msg = rand(33)
    t.deepEqual(ed25519.sign(buf, msg), nodeCrypto.sign(null, msg, privateKey))
    t.deepEqual(ed25519.sign(buf, msg), nodeCrypto.sign(null, msg, privateKey))
    // The same bytes as an X25519 key, then as Ed25519 again.
    const peer = crypto.cipher.x25519.generateKeypair()
    const xKey = crypto.keys.import(buf, { algorithm: 'x25519', keyType: 'private' })
    t.deepEqual(crypto.cipher.x25519.deriveSharedSecret(buf, peer.publicKey), nodeCrypto.diffieHellman({ privateKey: xKey, publicKey: crypto.keys.import(peer.publicKey, { algorithm: 'x25519', keyType: 'public' }) }))
    t.deepEqual(ed25519.sign(buf.subarray(0, 32), msg), nodeCrypto.sign(null, msg, privateKey))
  }
})

test('generateKeypair: every output format, each loadable by node:crypto and back', (t) => {
  for (const format of ['raw', 'der', 'pem', 'jwk', 'keyobject']) {
    const kp = ed25519.generateKeypair({ format })
    const msg = rand(100)
    const sig = ed25519.sign(kp.privateKey, msg)
    t.true(ed25519.verify(kp.publicKey, msg, sig), format)
    const nodePriv =
      format === 'raw'
        ? crypto.keys.import(kp.privateKey, { algorithm: 'ed25519', keyType: 'private' })
        : format === 'keyobject'
          ? kp.privateKey
          : nodeCrypto.createPrivateKey(format === 'jwk' ? { key: kp.privateKey, format: 'jwk' } : format === 'der' ? { key: kp.privateKey, format: 'der', type: 'pkcs8' } : kp.privateKey)
    t.deepEqual(nodeCrypto.sign(null, msg, nodePriv), sig, format)
  }
  const raw = ed25519.generateKeypair()
  t.is(raw.privateKey.length, 32)
  t.is(raw.publicKey.length, 32)
  t.notDeepEqual(raw.privateKey, ed25519.generateKeypair().privateKey)
})

test('keys exported by node in every format load here, and ours load in node (same key bytes)', (t) => {
  for (let i = 0; i < 20; i++) {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519')
    const rawPub = Buffer.from(publicKey.export({ format: 'jwk' }).x, 'base64url')
    const rawPriv = Buffer.from(privateKey.export({ format: 'jwk' }).d, 'base64url')
    const privForms = [
      privateKey,
      privateKey.export({ format: 'der', type: 'pkcs8' }),
      privateKey.export({ format: 'pem', type: 'pkcs8' }),
      privateKey.export({ format: 'jwk' }),
      rawPriv,
    ]
    for (const f of privForms) {
      t.deepEqual(crypto.keys.export(f, { format: 'raw', algorithm: 'ed25519', keyType: 'private' }), rawPriv)
      t.deepEqual(crypto.keys.export(f, { format: 'raw', public: true, algorithm: 'ed25519', keyType: 'private' }), rawPub)
    }
    const pubForms = [publicKey, publicKey.export({ format: 'der', type: 'spki' }), publicKey.export({ format: 'pem', type: 'spki' }), publicKey.export({ format: 'jwk' })]
    for (const f of pubForms) t.deepEqual(crypto.keys.export(f, { format: 'raw' }), rawPub)
    // Ours, read by node.
    const ourDer = crypto.keys.export(rawPriv, { algorithm: 'ed25519', keyType: 'private', format: 'der' })
    t.deepEqual(ourDer, privateKey.export({ format: 'der', type: 'pkcs8' }))
    t.is(crypto.keys.export(rawPriv, { algorithm: 'ed25519', keyType: 'private', format: 'pem' }), privateKey.export({ format: 'pem', type: 'pkcs8' }))
    t.deepEqual(crypto.keys.export(rawPub, { algorithm: 'ed25519', keyType: 'public', format: 'der' }), publicKey.export({ format: 'der', type: 'spki' }))
    t.deepEqual(crypto.keys.export(rawPriv, { algorithm: 'ed25519', keyType: 'private', format: 'jwk' }), privateKey.export({ format: 'jwk' }))
    t.true(crypto.keys.import(rawPub, { algorithm: 'ed25519', keyType: 'public' }).equals(publicKey))
  }
})

test('errors: wrong key types, lengths and malformed inputs throw coded errors; bad signatures are false', (t) => {
  const kp = ed25519.generateKeypair()
  const msg = 'message'
  const sig = ed25519.sign(kp.privateKey, msg)
  const ec = generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
  const x = generateKeyPairSync('x25519')
  const KEY_TYPE = { instanceOf: TypeError, code: 'ERR_CRYPTO_INVALID_KEY_TYPE' }
  const VALUE = { instanceOf: TypeError, code: 'ERR_INVALID_ARG_VALUE' }
  t.throws(() => ed25519.sign(ec.privateKey, msg), KEY_TYPE)
  t.throws(() => ed25519.sign(x.privateKey, msg), KEY_TYPE)
  t.throws(() => ed25519.verify(x.publicKey, msg, sig), KEY_TYPE)
  t.throws(() => ed25519.sign(nodeCrypto.createSecretKey(rand(32)), msg), KEY_TYPE)
  t.throws(() => ed25519.sign(kp.publicKey.subarray(0, 31), msg), VALUE)
  t.throws(() => ed25519.sign(Buffer.concat([kp.privateKey, Buffer.from([0])]), msg), VALUE)
  // A public key where a private one is needed.
  t.throws(() => ed25519.sign(crypto.keys.import(kp.publicKey, { algorithm: 'ed25519', keyType: 'public' }), msg), KEY_TYPE)
  t.throws(() => ed25519.sign(123, msg), { instanceOf: TypeError, code: 'ERR_INVALID_ARG_TYPE' })
  t.throws(() => ed25519.sign(kp.privateKey, undefined), { instanceOf: TypeError, code: 'ERR_INVALID_ARG_TYPE' })
  t.throws(() => ed25519.verify(kp.publicKey, msg, 'not bytes?'.length), { instanceOf: TypeError, code: 'ERR_INVALID_ARG_TYPE' })
  // Malformed PEM / DER / JWK.
  t.throws(() => ed25519.sign('-----BEGIN PRIVATE KEY-----\n@@@@\n-----END PRIVATE KEY-----', msg), VALUE)
  t.throws(() => ed25519.sign('not a key', msg), VALUE)
  const der = crypto.keys.export(kp.privateKey, { algorithm: 'ed25519', keyType: 'private' })
  for (let cut = 1; cut < der.length; cut++) {
    // (32 bytes left is a raw seed: the default form.)
    if (der.length - cut !== 32) t.throws(() => ed25519.sign(der.subarray(0, der.length - cut), msg), VALUE)
  }
  t.throws(() => ed25519.sign(Buffer.concat([der, Buffer.from([0])]), msg), VALUE)
  const jwk = crypto.keys.export(kp.privateKey, { algorithm: 'ed25519', keyType: 'private', format: 'jwk' })
  t.throws(() => ed25519.sign({ ...jwk, d: jwk.d.slice(1) }, msg), { code: 'ERR_CRYPTO_INVALID_JWK' })
  t.throws(() => ed25519.sign({ ...jwk, x: jwk.x.replace(/^./, jwk.x[0] === 'A' ? 'B' : 'A') }, msg), { code: 'ERR_CRYPTO_INVALID_JWK' })
  t.throws(() => ed25519.sign({ ...jwk, crv: 'Ed448' }, msg), { code: 'ERR_CRYPTO_INVALID_JWK' })
  t.throws(() => ed25519.sign({ ...jwk, d: '!!' + jwk.d.slice(2) }, msg), { code: 'ERR_CRYPTO_INVALID_JWK' })
  // Bad signatures: every length, every single-bit flip.
  for (const len of [0, 1, 63, 65, 128]) t.false(ed25519.verify(kp.publicKey, msg, rand(len)))
  t.false(ed25519.verify(kp.publicKey, msg, Buffer.alloc(64)))
  for (let bit = 0; bit < 512; bit += 7) {
    const bad = Buffer.from(sig)
    bad[bit >> 3] ^= 1 << (bit & 7)
    t.false(ed25519.verify(kp.publicKey, msg, bad))
  }
  // S + L (non-canonical S) is refused.
  const L = BigInt('0x1000000000000000000000000000000014def9dea2f79cd65812631a5cf5d3ed')
  const s = BigInt('0x' + Buffer.from(sig.subarray(32)).reverse().toString('hex')) + L
  const sPlusL = Buffer.from(s.toString(16).padStart(64, '0'), 'hex').reverse()
  t.false(ed25519.verify(kp.publicKey, msg, Buffer.concat([sig.subarray(0, 32), sPlusL])))
  t.true(ed25519.verify(kp.publicKey, msg, sig))
})
