'use strict'
// crypto.keys: conversions between every key form, checked against node:crypto's own exports,
// and every malformed input refused with a coded error (PEM, DER, JWK, raw, options).
const test = require('ava')
const nodeCrypto = require('node:crypto')
// Node 20 can deadlock exporting a generated key as JWK: see the helper.
const { generateKeyPairSync } = require('./helpers/node-keys')
const crypto = require('..')

const { keys } = crypto
const VALUE = { instanceOf: TypeError, code: 'ERR_INVALID_ARG_VALUE' }
const KEY_TYPE = { instanceOf: TypeError, code: 'ERR_CRYPTO_INVALID_KEY_TYPE' }

const NODE_KEYS = [
  ['ed25519', {}],
  ['x25519', {}],
  ['ec', { namedCurve: 'prime256v1' }],
  ['ec', { namedCurve: 'secp384r1' }],
  ['ec', { namedCurve: 'secp521r1' }],
  ['ec', { namedCurve: 'secp256k1' }],
]

test('node:crypto keys round-trip through every format, byte-identical to node exports', (t) => {
  for (const [type, opts] of NODE_KEYS) {
    for (let i = 0; i < 5; i++) {
      const { privateKey, publicKey } = generateKeyPairSync(type, opts)
      const label = `${type} ${opts.namedCurve || ''}`
      t.deepEqual(keys.export(privateKey), privateKey.export({ format: 'der', type: 'pkcs8' }), label)
      t.is(keys.export(privateKey, { format: 'pem' }), privateKey.export({ format: 'pem', type: 'pkcs8' }), label)
      t.deepEqual(keys.export(privateKey, { format: 'jwk' }), privateKey.export({ format: 'jwk' }), label)
      t.deepEqual(keys.export(publicKey), publicKey.export({ format: 'der', type: 'spki' }), label)
      t.is(keys.export(publicKey, { format: 'pem' }), publicKey.export({ format: 'pem', type: 'spki' }), label)
      t.deepEqual(keys.export(publicKey, { format: 'jwk' }), publicKey.export({ format: 'jwk' }), label)
      t.deepEqual(keys.export(privateKey, { public: true }), publicKey.export({ format: 'der', type: 'spki' }), label)
      t.true(keys.import(privateKey.export({ format: 'jwk' })).equals(privateKey), label)
      t.true(keys.import(publicKey.export({ format: 'pem', type: 'spki' })).equals(publicKey), label)
      t.true(keys.export(privateKey, { format: 'keyobject' }).equals(privateKey), label)
      // A WebCrypto CryptoKey is read through KeyObject.from's inverse.
      if (type !== 'ec' || opts.namedCurve !== 'secp256k1') {
        const ck = publicKey.toCryptoKey
          ? publicKey.toCryptoKey(type === 'ec' ? { name: 'ECDSA', namedCurve: { prime256v1: 'P-256', secp384r1: 'P-384', secp521r1: 'P-521' }[opts.namedCurve] } : type === 'ed25519' ? 'Ed25519' : 'X25519', true, type === 'x25519' ? [] : ['verify'])
          : undefined
        if (ck) t.deepEqual(keys.export(ck), publicKey.export({ format: 'der', type: 'spki' }), label)
      }
    }
  }
})

test('raw forms: compressed and uncompressed EC points, hints required for raw bytes', (t) => {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
  const raw = keys.export(publicKey, { format: 'raw' })
  t.is(raw.length, 65)
  const c = keys.export(publicKey, { format: 'raw', type: 'compressed' })
  t.is(c.length, 33)
  t.deepEqual(keys.export(c, { algorithm: 'ec', curve: 'p256', format: 'raw' }), raw)
  t.deepEqual(keys.export(c, { algorithm: 'ec', curve: 'p256' }), publicKey.export({ format: 'der', type: 'spki' }))
  t.deepEqual(keys.export(keys.export(privateKey, { format: 'raw' }), { algorithm: 'ec', curve: 'secp256r1', format: 'raw', public: true }), raw)
  t.throws(() => keys.export(raw), VALUE)
  t.throws(() => keys.export(Buffer.alloc(32, 1), { algorithm: 'ed25519' }), VALUE)
  t.throws(() => keys.export(raw, { algorithm: 'ec' }), { instanceOf: TypeError })
  t.throws(() => keys.export(raw, { algorithm: 'ec', curve: 'p384' }), VALUE)
  t.throws(() => keys.export(raw, { algorithm: 'rsa2' }), VALUE)
  t.throws(() => keys.export(privateKey, { format: 'raw', type: 'compressed' }), VALUE)
  t.throws(() => keys.export(privateKey, { type: 'spki' }), VALUE)
  t.throws(() => keys.export(publicKey, { type: 'pkcs8' }), VALUE)
  t.throws(() => keys.export(generateKeyPairSync('ed25519').privateKey, { type: 'sec1' }), VALUE)
  t.throws(() => keys.export(privateKey, { format: 'xml' }), VALUE)
  t.throws(() => keys.export(privateKey, { colour: 'red' }), VALUE)
  t.throws(() => keys.export(privateKey, { public: 'yes' }), { instanceOf: TypeError, code: 'ERR_INVALID_ARG_TYPE' })
  // A DER key given with a different algorithm / curve hint.
  t.throws(() => keys.export(privateKey, { algorithm: 'ed25519' }), KEY_TYPE)
  t.throws(() => keys.export(privateKey, { algorithm: 'ec', curve: 'p521' }), KEY_TYPE)
})

test('malformed PEM: labels, base64, encryption, size; label/content mismatch', (t) => {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519')
  const pem = privateKey.export({ format: 'pem', type: 'pkcs8' })
  const pub = publicKey.export({ format: 'pem', type: 'spki' })
  t.throws(() => keys.export(pem.replace('PRIVATE KEY-----\n', 'PRIVATE KEY-----\n!')), VALUE)
  t.throws(() => keys.export(pem.replace(/-----END PRIVATE KEY-----/, '-----END PUBLIC KEY-----')), VALUE)
  t.throws(() => keys.export(pem.replace(/PRIVATE KEY/g, 'CERTIFICATE')), VALUE)
  t.throws(() => keys.export(pem.replace(/PRIVATE KEY/g, 'PUBLIC KEY')), VALUE)
  t.throws(() => keys.export(pub.replace(/PUBLIC KEY/g, 'PRIVATE KEY')), VALUE)
  t.throws(() => keys.export(pem.slice(0, 40)), VALUE)
  t.throws(() => keys.export(''), VALUE)
  t.throws(() => keys.export('x'.repeat(100000)), VALUE)
  const enc = privateKey.export({ format: 'pem', type: 'pkcs8', cipher: 'aes-256-cbc', passphrase: 'pw' })
  const e = t.throws(() => keys.export(enc), VALUE)
  t.regex(e.message, /passphrase/)
  // CRLF line endings and surrounding whitespace are fine.
  t.deepEqual(keys.export(`\n  ${pem.replace(/\n/g, '\r\n')}  \n`), privateKey.export({ format: 'der', type: 'pkcs8' }))
  // The END line on the last base64 line, an empty line before it or between base64 lines (found
  // by the `keys` fuzz target; node:crypto refuses them all).
  for (const text of [pem, pem.replace(/\n/g, '\r\n')]) {
    const eol = text.includes('\r') ? '\r\n' : '\n'
    const lines = text.trim().split(/\r?\n/)
    for (const bad of [
      text.replace(/\r?\n-----END/, '-----END'),
      [...lines.slice(0, -1), '', lines.at(-1)].join(eol),
      [lines[0], lines[1].slice(0, 20), '', lines[1].slice(20), ...lines.slice(2)].join(eol),
    ]) {
      t.throws(() => nodeCrypto.createPrivateKey(bad))
      t.regex(t.throws(() => keys.export(bad), VALUE).message, /base64 lines, an -----END \.\.\.----- line/)
    }
  }
})

test('malformed DER: every truncation, trailing bytes, non-minimal lengths, unknown OIDs, oversize', (t) => {
  for (const [type, opts] of NODE_KEYS) {
    const { privateKey, publicKey } = generateKeyPairSync(type, opts)
    for (const der of [privateKey.export({ format: 'der', type: 'pkcs8' }), publicKey.export({ format: 'der', type: 'spki' })]) {
      for (let cut = 1; cut < der.length; cut++) {
        const d = der.subarray(0, der.length - cut)
        if (d.length > 32 && d[0] === 0x30) t.throws(() => keys.export(d), VALUE, `${type} cut ${cut}`)
      }
      t.throws(() => keys.export(Buffer.concat([der, Buffer.from([0])])), VALUE)
      // Non-minimal length: 0x30 0x81 <len> for a short body.
      if (der[1] < 0x80) t.throws(() => keys.export(Buffer.concat([Buffer.from([0x30, 0x81, der[1]]), der.subarray(2)])), VALUE)
      // Corrupt the algorithm OID's last byte.
      const bad = Buffer.from(der)
      const oidAt = der.indexOf(Buffer.from([0x06]))
      bad[oidAt + 1 + bad[oidAt + 1]] ^= 0x40
      t.throws(() => keys.export(bad), VALUE)
    }
  }
  t.throws(() => keys.export(Buffer.concat([Buffer.from([0x30, 0x82, 0x50, 0x00]), Buffer.alloc(0x5000)])), VALUE)
  t.throws(() => keys.export(Buffer.alloc(40, 0x30)), VALUE)
  // RSA keys (part 2) are read and written byte-identically to node's; an RSA-PSS-only key is not.
  const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 })
  t.true(keys.export(rsa.privateKey).equals(rsa.privateKey.export({ format: 'der', type: 'pkcs8' })))
  t.true(keys.export(rsa.privateKey, { type: 'pkcs1' }).equals(rsa.privateKey.export({ format: 'der', type: 'pkcs1' })))
  t.true(keys.export(rsa.publicKey, { format: 'pem' }) === rsa.publicKey.export({ format: 'pem', type: 'spki' }))
  t.throws(() => keys.export(generateKeyPairSync('rsa-pss', { modulusLength: 1024 }).privateKey), VALUE)
})

test('EC keys whose embedded public key does not match, or off-curve SPKI points, are refused', (t) => {
  const a = generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
  const b = generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
  const sec1 = a.privateKey.export({ format: 'der', type: 'sec1' })
  const pubA = keys.export(a.publicKey, { format: 'raw' })
  const pubB = keys.export(b.publicKey, { format: 'raw' })
  t.throws(() => keys.export(Buffer.from(sec1.toString('hex').replace(pubA.toString('hex'), pubB.toString('hex')), 'hex')), VALUE)
  const spki = a.publicKey.export({ format: 'der', type: 'spki' })
  const off = Buffer.from(spki)
  off[off.length - 1] ^= 1
  t.throws(() => keys.export(off), { code: 'ERR_CRYPTO_ECDH_INVALID_PUBLIC_KEY' })
  // A JWK whose d does not match x, y.
  const jwk = a.privateKey.export({ format: 'jwk' })
  const other = b.privateKey.export({ format: 'jwk' })
  t.throws(() => keys.import({ ...jwk, d: other.d }), { code: 'ERR_CRYPTO_INVALID_JWK' })
  t.throws(() => keys.import({ kty: 'oct', k: 'AAAA' }), { code: 'ERR_CRYPTO_INVALID_JWK' })
  t.throws(() => keys.import({ ...jwk, x: undefined }), { code: 'ERR_CRYPTO_INVALID_JWK' })
  t.throws(() => keys.import({ ...jwk, x: jwk.x + '=' }), { code: 'ERR_CRYPTO_INVALID_JWK' })
  t.throws(() => keys.import(42), { instanceOf: TypeError, code: 'ERR_INVALID_ARG_TYPE' })
  t.throws(() => keys.import(nodeCrypto.createSecretKey(Buffer.alloc(16))), KEY_TYPE)
})

test('mutated DER, PEM and JWK keys: a coded error or the right key, never anything else', (t) => {
  const CODES = new Set(['ERR_INVALID_ARG_VALUE', 'ERR_CRYPTO_INVALID_JWK', 'ERR_CRYPTO_INVALID_KEY_TYPE', 'ERR_CRYPTO_ECDH_INVALID_PUBLIC_KEY'])
  let refused = 0
  let parsed = 0
  for (const [type, opts] of NODE_KEYS) {
    const { privateKey, publicKey } = generateKeyPairSync(type, opts)
    for (const ko of [privateKey, publicKey]) {
      const der = ko.export({ format: 'der', type: ko.type === 'private' ? 'pkcs8' : 'spki' })
      for (let i = 0; i < 300; i++) {
        const m = Buffer.from(der)
        const flips = 1 + (i % 3)
        for (let f = 0; f < flips; f++) m[nodeCrypto.randomInt(m.length)] ^= 1 << nodeCrypto.randomInt(8)
        let out
        try {
          out = keys.export(m)
        } catch (e) {
          t.true(CODES.has(e.code), `${type}: ${e.code} ${e.message}`)
          refused++
          continue
        }
        // Accepted: then node reads the same bytes as the same kind of key, or they are ours
        // re-encoded from a key node also accepts.
        let theirs
        try {
          theirs = ko.type === 'private' ? nodeCrypto.createPrivateKey({ key: m, format: 'der', type: 'pkcs8' }) : nodeCrypto.createPublicKey({ key: m, format: 'der', type: 'spki' })
        } catch {
          theirs = undefined
        }
        if (theirs) t.deepEqual(keys.export(theirs), out, `${type}: node reads the mutated key differently`)
        parsed++
      }
    }
  }
  t.log(`${refused} mutated keys refused with a coded error, ${parsed} still parsed`)
  t.true(refused > parsed)
})
