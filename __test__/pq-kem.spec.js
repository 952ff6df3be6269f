'use strict'
// ML-KEM (FIPS 203) and X-Wing (crypto.kem): known answers (C2SP CCTV ML-KEM: intermediate,
// unlucky sampling, strcmp and every modulus line; the X-Wing draft's vectors and its X.509
// example), differential tests against @noble/post-quantum in both directions on random keys and
// messages (keys made by each side, encapsulation on one side, decapsulation on the other),
// implicit rejection checked against J(z‖c) computed with node:crypto's SHAKE256, the key forms
// of the key layer (SPKI / PKCS#8 seed, expandedKey, both; PEM), and bad input (typed errors).
// The CCTV vectors target FIPS 203 ipd key generation (their README), so they are checked on
// encapsulation and decapsulation from their own keys; key generation is checked against noble
// here and, in src/pk/kem/tests.rs, by Go's accumulated test. node:crypto's ML-KEM (Node >= 24.7):
// pq-kem-node.spec.js.
const test = require('ava')
const fs = require('node:fs')
const path = require('node:path')
const zlib = require('node:zlib')
const nodeCrypto = require('node:crypto')
const crypto = require('..')
const { hex } = require('./helpers/vectors')
const { ml_kem512, ml_kem768, ml_kem1024 } = require('@noble/post-quantum/ml-kem.js')
const { ml_kem768_x25519: nobleXWing } = require('@noble/post-quantum/hybrid.js')

const { kem } = crypto
const SETS = {
  mlkem512: { noble: ml_kem512, seed: 64, expanded: 1632, pub: 800, ct: 768 },
  mlkem768: { noble: ml_kem768, seed: 64, expanded: 2400, pub: 1184, ct: 1088 },
  mlkem1024: { noble: ml_kem1024, seed: 64, expanded: 3168, pub: 1568, ct: 1568 },
}
const ROUNDS = 20
const rand = (n) => nodeCrypto.randomBytes(n)
const B = (u8) => Buffer.from(u8)
const INVALID_VALUE = { instanceOf: TypeError, code: 'ERR_INVALID_ARG_VALUE' }
const INVALID_TYPE = { instanceOf: TypeError, code: 'ERR_INVALID_ARG_TYPE' }
const WRONG_KEY = { instanceOf: TypeError, code: 'ERR_CRYPTO_INVALID_KEY_TYPE' }

const vectorFile = (p) => fs.readFileSync(path.join(__dirname, 'vectors', 'pq', p), 'utf8')
/** The `name = hex` fields of a CCTV text file. */
const fields = (text) => Object.fromEntries(text.split('\n').map((l) => /^(\w+) = ([0-9a-f]+)$/.exec(l)).filter(Boolean).map((m) => [m[1], hex(m[2])]))
/** J(z‖c) = SHAKE256(z‖c, 32), FIPS 203's implicit-rejection secret, by node:crypto. */
const J = (z, c) => nodeCrypto.createHash('shake256', { outputLength: 32 }).update(z).update(c).digest()

test('the API lists the four KEMs with their FIPS 203 / X-Wing lengths', (t) => {
  t.deepEqual(Object.keys(kem), ['mlkem512', 'mlkem768', 'mlkem1024', 'xwing'])
  for (const [name, s] of Object.entries(SETS)) {
    t.deepEqual(kem[name].lengths, { seed: 64, expandedPrivateKey: s.expanded, publicKey: s.pub, ciphertext: s.ct, sharedSecret: 32 })
  }
  t.deepEqual(kem.xwing.lengths, { seed: 32, expandedPrivateKey: undefined, publicKey: 1216, ciphertext: 1120, sharedSecret: 32 })
})

for (const [file, sets] of [
  ['intermediate', ['mlkem768', 'mlkem1024']],
  ['unluckysample', ['mlkem768', 'mlkem1024']],
  ['strcmp', ['mlkem768', 'mlkem1024']],
]) {
  test(`CCTV ${file}: decapsulation of the file's ciphertext under its dk gives its K; dk holds ek`, (t) => {
    for (const name of sets) {
      const v = fields(vectorFile(`cctv_mlkem/${file}/ML-KEM-${name.slice(5)}.txt`))
      t.is(kem[name].decapsulate(v.c, v.dk).toString('hex'), v.K.toString('hex'), name)
      if (v.ek) {
        t.true(crypto.keys.export(v.dk, { algorithm: name, format: 'raw', public: true }).equals(v.ek))
        // The same answer as noble, whose encapsulation from m is deterministic.
        const { cipherText, sharedSecret } = SETS[name].noble.encapsulate(v.ek, v.m)
        t.true(B(cipherText).equals(v.c))
        t.true(B(sharedSecret).equals(v.K))
      }
    }
  })
}

test('CCTV modulus: every encapsulation key with a coefficient >= q is refused, with a typed error', (t) => {
  let n = 0
  for (const name of ['mlkem768', 'mlkem1024']) {
    const gz = fs.readFileSync(path.join(__dirname, 'vectors', 'pq', 'cctv_mlkem', 'modulus', `ML-KEM-${name.slice(5)}.txt.gz`))
    const lines = zlib.gunzipSync(gz).toString('utf8').split('\n').filter(Boolean)
    t.true(lines.length > 700)
    for (const line of lines) {
      const ek = hex(line)
      t.is(ek.length, SETS[name].pub)
      const err = t.throws(() => kem[name].encapsulate(ek), INVALID_VALUE)
      t.regex(err.message, /modulus check/)
      n++
    }
    // A SPKI of such a key is refused at import.
    const spki = crypto.keys.export(kem[name].generateKeypair().publicKey, { algorithm: name, format: 'der' })
    const bad = Buffer.concat([spki.subarray(0, spki.length - SETS[name].pub), hex(lines[0])])
    t.throws(() => kem[name].encapsulate(bad), INVALID_VALUE)
  }
  t.log(`${n} modulus lines refused (the shared set has no ML-KEM-512 file)`)
})

test('X-Wing draft-10 vectors: the seed gives pk; decapsulating ct gives ss (and noble agrees on encapsulation)', (t) => {
  const vectors = JSON.parse(vectorFile('xwing/test-vectors.json'))
  t.is(vectors.length, 3)
  for (const v of vectors) {
    const { publicKey, privateKey } = kem.xwing.generateKeypair({ seed: hex(v.seed) })
    t.is(publicKey.toString('hex'), v.pk)
    t.is(privateKey.toString('hex'), v.sk)
    t.is(kem.xwing.decapsulate(hex(v.ct), hex(v.sk)).toString('hex'), v.ss)
    const n = nobleXWing.encapsulate(hex(v.pk), hex(v.eseed))
    t.is(B(n.cipherText).toString('hex'), v.ct)
  }
})

test('X-Wing draft-10 Appendix D: the X.509 example keys parse and re-encode byte for byte', (t) => {
  const [priv, pub] = vectorFile('xwing/draft-10-appendix-d.pem').split(/(?=-----BEGIN PUBLIC KEY)/)
  const seed = Buffer.from([...Array(32).keys()])
  t.true(crypto.keys.export(priv, { format: 'raw' }).equals(seed))
  t.is(crypto.keys.export(seed, { algorithm: 'xwing', keyType: 'private', format: 'pem' }), priv.trim() + '\n')
  t.is(crypto.keys.export(seed, { algorithm: 'xwing', format: 'pem', public: true }), pub.trim() + '\n')
  t.true(kem.xwing.generateKeypair({ seed }).publicKey.equals(crypto.keys.export(pub, { format: 'raw' })))
})

for (const [name, s] of Object.entries(SETS)) {
  test(`${name}: differential with @noble/post-quantum, both directions, random seeds and messages`, (t) => {
    const k = kem[name]
    for (let i = 0; i < ROUNDS; i++) {
      const seed = rand(64)
      // Keys from a seed: the same on both sides (noble's secret key is the expanded form).
      const ours = k.generateKeypair({ seed })
      const expanded = k.generateKeypair({ seed, privateKeyFormat: 'expanded' }).privateKey
      const theirs = s.noble.keygen(seed)
      t.true(ours.publicKey.equals(theirs.publicKey))
      t.true(ours.privateKey.equals(seed))
      t.true(expanded.equals(theirs.secretKey))
      // Ours encapsulates (fresh randomness), noble decapsulates, and the other way round.
      const e = k.encapsulate(ours.publicKey)
      t.is(e.ciphertext.length, s.ct)
      t.true(B(s.noble.decapsulate(e.ciphertext, theirs.secretKey)).equals(e.sharedSecret))
      const n = s.noble.encapsulate(theirs.publicKey)
      t.true(k.decapsulate(n.cipherText, ours.privateKey).equals(B(n.sharedSecret)))
      t.true(k.decapsulate(n.cipherText, expanded).equals(B(n.sharedSecret)))
      // Keys made by noble at random, ours by the OS: each side's keys work on the other.
      const nk = s.noble.keygen()
      const e2 = k.encapsulate(nk.publicKey)
      t.true(B(s.noble.decapsulate(e2.ciphertext, nk.secretKey)).equals(e2.sharedSecret))
      t.true(k.decapsulate(e2.ciphertext, nk.secretKey).equals(e2.sharedSecret))
      const ok = k.generateKeypair()
      const n2 = s.noble.encapsulate(ok.publicKey)
      t.true(k.decapsulate(n2.cipherText, ok.privateKey).equals(B(n2.sharedSecret)))
    }
  })

  test(`${name}: a modified ciphertext gives J(z‖c) (implicit rejection), deterministic, as noble`, (t) => {
    const k = kem[name]
    for (let i = 0; i < ROUNDS; i++) {
      const seed = rand(64)
      const { publicKey, privateKey } = k.generateKeypair({ seed })
      const { ciphertext, sharedSecret } = k.encapsulate(publicKey)
      const bad = Buffer.from(ciphertext)
      bad[i % bad.length] ^= 1 << i % 8
      const rejected = k.decapsulate(bad, privateKey)
      t.true(rejected.equals(J(seed.subarray(32), bad)))
      t.false(rejected.equals(sharedSecret))
      t.true(k.decapsulate(bad, privateKey).equals(rejected))
      t.true(B(s.noble.decapsulate(bad, s.noble.keygen(seed).secretKey)).equals(rejected))
    }
  })

  test(`${name}: keys through crypto.keys: SPKI, PKCS#8 (seed, expandedKey, both), PEM`, (t) => {
    const k = kem[name]
    const seed = rand(64)
    const { publicKey, privateKey } = k.generateKeypair({ seed })
    const expanded = k.generateKeypair({ seed, privateKeyFormat: 'expanded' }).privateKey
    const der = k.generateKeypair({ seed, format: 'der' })
    const pem = k.generateKeypair({ seed, format: 'pem' })
    t.regex(pem.privateKey, /^-----BEGIN PRIVATE KEY-----\n/)
    t.regex(pem.publicKey, /^-----BEGIN PUBLIC KEY-----\n/)
    // PKCS#8 seed choice: [0] IMPLICIT OCTET STRING, 64 bytes, at the end.
    t.true(der.privateKey.subarray(-66).equals(Buffer.concat([Buffer.from([0x80, 0x40]), seed])))
    t.true(der.publicKey.subarray(-s.pub).equals(publicKey))
    const expandedDer = crypto.keys.export(expanded, { algorithm: name, format: 'der' })
    t.true(expandedDer.subarray(-s.expanded).equals(expanded))
    // `both`: SEQUENCE { seed, expandedKey } as a PKCS#8 privateKey.
    const octets = (b) => Buffer.concat([Buffer.from([0x04, 0x82, b.length >> 8, b.length & 0xff]), b])
    const seq = (b) => Buffer.concat([Buffer.from([0x30, 0x82, b.length >> 8, b.length & 0xff]), b])
    // 30 54 | version, AlgorithmIdentifier | 04 42 80 40 seed
    const prefix = der.privateKey.subarray(2, der.privateKey.length - 68)
    const pkcs8 = (inner) => seq(Buffer.concat([prefix, octets(inner)]))
    const both = pkcs8(seq(Buffer.concat([Buffer.from([0x04, 0x40]), seed, octets(expanded)])))
    const { ciphertext, sharedSecret } = k.encapsulate(der.publicKey)
    for (const key of [privateKey, expanded, der.privateKey, pem.privateKey, expandedDer, both]) {
      t.true(k.decapsulate(ciphertext, key).equals(sharedSecret))
    }
    t.true(crypto.keys.export(both, { format: 'raw' }).equals(seed))
    t.true(crypto.keys.export(expandedDer, { format: 'raw', public: true }).equals(publicKey))
    t.true(k.decapsulate(k.encapsulate(pem.publicKey).ciphertext, privateKey).length === 32)
    // `both` whose halves disagree, and an expandedKey failing the hash check, are refused.
    const other = k.generateKeypair({ privateKeyFormat: 'expanded' }).privateKey
    const mixed = pkcs8(seq(Buffer.concat([Buffer.from([0x04, 0x40]), seed, octets(other)])))
    t.throws(() => k.decapsulate(ciphertext, mixed), { ...INVALID_VALUE, message: /disagree/ })
    const corrupt = Buffer.from(expanded)
    corrupt[s.expanded - 64] ^= 1
    t.throws(() => k.decapsulate(ciphertext, corrupt), { ...INVALID_VALUE, message: /hash check/ })
    t.throws(() => k.decapsulate(ciphertext, crypto.keys.export(corrupt, { algorithm: name, format: 'der' })), { ...INVALID_VALUE, message: /hash check/ })
  })

  test(`${name}: bad input gives typed errors`, (t) => {
    const k = kem[name]
    const { publicKey, privateKey } = k.generateKeypair()
    const { ciphertext } = k.encapsulate(publicKey)
    t.throws(() => k.encapsulate(publicKey.subarray(1)), INVALID_VALUE)
    t.throws(() => k.encapsulate(Buffer.concat([publicKey, Buffer.alloc(1)])), INVALID_VALUE)
    t.throws(() => k.decapsulate(ciphertext, privateKey.subarray(1)), INVALID_VALUE)
    t.throws(() => k.decapsulate(ciphertext.subarray(1), privateKey), { ...INVALID_VALUE, message: /ciphertext/ })
    t.throws(() => k.decapsulate(Buffer.concat([ciphertext, Buffer.alloc(1)]), privateKey), INVALID_VALUE)
    t.throws(() => k.decapsulate('not bytes', privateKey), INVALID_TYPE)
    t.throws(() => k.decapsulate(ciphertext, 42), INVALID_TYPE)
    t.throws(() => k.encapsulate(null), INVALID_TYPE)
    t.throws(() => k.generateKeypair({ seed: rand(63) }), INVALID_VALUE)
    t.throws(() => k.generateKeypair({ seed: 'x'.repeat(64) }), INVALID_TYPE)
    t.throws(() => k.generateKeypair({ privateKeyFormat: 'both' }), INVALID_VALUE)
    t.throws(() => k.generateKeypair({ format: 'jwk' }), INVALID_VALUE)
    t.throws(() => k.generateKeypair({ bogus: 1 }), INVALID_VALUE)
    // Keys of another algorithm: a PKCS#8 / SPKI of Ed25519 or of another ML-KEM set.
    const ed = crypto.dsa.ed25519.generateKeypair({ format: 'der' })
    t.throws(() => k.decapsulate(ciphertext, ed.privateKey), WRONG_KEY)
    t.throws(() => k.encapsulate(ed.publicKey), WRONG_KEY)
    const otherName = name === 'mlkem768' ? 'mlkem512' : 'mlkem768'
    const other = kem[otherName].generateKeypair({ format: 'der' })
    t.throws(() => k.decapsulate(ciphertext, other.privateKey), WRONG_KEY)
    t.throws(() => k.encapsulate(other.publicKey), WRONG_KEY)
    // A public key where a private one is needed.
    t.throws(() => k.decapsulate(ciphertext, k.generateKeypair({ format: 'der' }).publicKey), WRONG_KEY)
  })
}

test('X-Wing: differential with @noble/post-quantum (ml_kem768_x25519), both directions', (t) => {
  for (let i = 0; i < ROUNDS; i++) {
    const seed = rand(32)
    const ours = kem.xwing.generateKeypair({ seed })
    const theirs = nobleXWing.keygen(seed)
    t.true(ours.publicKey.equals(theirs.publicKey))
    const e = kem.xwing.encapsulate(ours.publicKey)
    t.true(B(nobleXWing.decapsulate(e.ciphertext, theirs.secretKey)).equals(e.sharedSecret))
    const n = nobleXWing.encapsulate(nobleXWing.keygen().publicKey)
    const nk = nobleXWing.keygen()
    const n2 = nobleXWing.encapsulate(nk.publicKey)
    t.true(kem.xwing.decapsulate(n2.cipherText, nk.secretKey).equals(B(n2.sharedSecret)))
    t.is(n.cipherText.length, 1120)
    // A modified ciphertext: no error, a different secret, the same as noble's.
    const bad = Buffer.from(e.ciphertext)
    bad[i * 50] ^= 4
    const r = kem.xwing.decapsulate(bad, seed)
    t.false(r.equals(e.sharedSecret))
    t.true(r.equals(B(nobleXWing.decapsulate(bad, theirs.secretKey))))
  }
})

test('X-Wing: keys, formats and bad input', (t) => {
  const { publicKey, privateKey } = kem.xwing.generateKeypair()
  const der = crypto.keys.export(privateKey, { algorithm: 'x-wing', keyType: 'private', format: 'der' })
  t.is(der.length, 54)
  const spki = crypto.keys.export(privateKey, { algorithm: 'xwing', keyType: 'private', format: 'der', public: true })
  const { ciphertext, sharedSecret } = kem.xwing.encapsulate(spki)
  t.true(kem.xwing.decapsulate(ciphertext, der).equals(sharedSecret))
  t.true(kem.xwing.decapsulate(ciphertext, privateKey).equals(sharedSecret))
  t.true(crypto.keys.export(der, { format: 'raw', public: true }).equals(publicKey))
  t.throws(() => kem.xwing.generateKeypair({ privateKeyFormat: 'expanded' }), INVALID_VALUE)
  t.throws(() => kem.xwing.decapsulate(ciphertext, Buffer.alloc(64)), INVALID_VALUE)
  t.throws(() => kem.xwing.decapsulate(ciphertext.subarray(2), privateKey), INVALID_VALUE)
  t.throws(() => kem.xwing.encapsulate(publicKey.subarray(0, 1184)), INVALID_VALUE)
  t.throws(() => kem.mlkem768.decapsulate(ciphertext.subarray(0, 1088), der), WRONG_KEY)
  // A bad ML-KEM part of an X-Wing key fails the modulus check.
  const bad = Buffer.from(publicKey)
  bad[0] = 0xff
  bad[1] |= 0x0f
  t.throws(() => kem.xwing.encapsulate(bad), { ...INVALID_VALUE, message: /modulus check/ })
  t.throws(() => crypto.keys.export(privateKey, { algorithm: 'xwing', keyType: 'private', format: 'jwk' }), INVALID_VALUE)
})

test('keys.export reads raw ML-KEM keys by their length and refuses the others', (t) => {
  const { publicKey, privateKey } = kem.mlkem512.generateKeypair()
  t.true(crypto.keys.export(privateKey, { algorithm: 'ml-kem-512', format: 'raw', public: true }).equals(publicKey))
  t.true(crypto.keys.export(publicKey, { algorithm: 'mlkem512', format: 'raw' }).equals(publicKey))
  t.throws(() => crypto.keys.export(Buffer.alloc(100), { algorithm: 'mlkem512', format: 'raw' }), INVALID_VALUE)
})

test('a private key Buffer passed again is expanded once, and changed in place it is read again', (t) => {
  for (const name of Object.keys(kem)) {
    const k = kem[name]
    const a = k.generateKeypair()
    const b = k.generateKeypair()
    const key = Buffer.from(a.privateKey)
    const ea = k.encapsulate(a.publicKey)
    const eb = k.encapsulate(b.publicKey)
    t.true(k.decapsulate(ea.ciphertext, key).equals(ea.sharedSecret))
    t.true(k.decapsulate(ea.ciphertext, key).equals(ea.sharedSecret))
    b.privateKey.copy(key)
    t.true(k.decapsulate(eb.ciphertext, key).equals(eb.sharedSecret), name)
    // Counted at the native call: once for a key passed twice, once more after it changed.
    const native = require('../lib/native')
    const prepare = native.kemPrepare
    let calls = 0
    native.kemPrepare = (...x) => (calls++, prepare(...x))
    try {
      const twice = Buffer.from(a.privateKey)
      k.decapsulate(ea.ciphertext, twice)
      k.decapsulate(ea.ciphertext, twice)
      t.is(calls, 1, `${name}: expanded once`)
      b.privateKey.copy(twice)
      k.decapsulate(eb.ciphertext, twice)
      t.is(calls, 2, `${name}: expanded again after a change in place`)
    } finally {
      native.kemPrepare = prepare
    }
    // The same bytes as another set's key are still refused there.
    if (name !== 'xwing') t.throws(() => kem.xwing.decapsulate(Buffer.alloc(1120), key), INVALID_VALUE)
  }
})

test("format 'keyobject': node's ML-KEM KeyObjects where this Node has them, else a typed error", (t) => {
  let nodeHas = true
  try {
    nodeCrypto.generateKeyPairSync('ml-kem-768')
  } catch {
    nodeHas = false
  }
  const seed = rand(64)
  if (nodeHas) {
    const ko = kem.mlkem768.generateKeypair({ seed, format: 'keyobject' })
    t.is(ko.privateKey.asymmetricKeyType, 'ml-kem-768')
    t.true(crypto.keys.export(ko.privateKey, { format: 'raw' }).equals(seed))
  } else {
    t.throws(() => kem.mlkem768.generateKeypair({ seed, format: 'keyobject' }), { code: 'ERR_FEATURE_UNAVAILABLE_ON_PLATFORM' })
  }
  // Node has no X-Wing KeyObjects at all.
  t.throws(() => kem.xwing.generateKeypair({ format: 'keyobject' }), { code: 'ERR_FEATURE_UNAVAILABLE_ON_PLATFORM' })
})
