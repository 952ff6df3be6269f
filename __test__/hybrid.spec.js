'use strict'
// crypto.hybrid (docs/hybrid-format.md): round trips of both suites from 0 B to 1 MiB (one-shot,
// async, streams, files); envelopes opened and signatures checked by an independent decoder
// written from the format page over node:crypto and @noble/post-quantum (so the combiner is
// what the page says, not only self-consistent); every tamper and truncation refused with one
// error; component signatures that cannot be stripped, swapped or moved; cross-suite keys refused.
const test = require('ava')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { pipeline } = require('node:stream/promises')
const { Readable, Writable } = require('node:stream')
const nodeCrypto = require('node:crypto')
const crypto = require('..')
const streamFormat = require('./helpers/stream-format')

const { hybrid } = crypto
const rand = (n) => nodeCrypto.randomBytes(n)
const DECRYPT_FAILED = { code: 'ERR_CRYPTO_DECRYPT_FAILED' }
const SUITES = ['x25519-mlkem768', 'rsa4096-mlkem1024']
const sha3 = (...parts) => nodeCrypto.createHash('sha3-256').update(Buffer.concat(parts)).digest()

// Keys made once per suite (RSA-4096 key generation is the slow part), two pairs each.
const pairs = Object.fromEntries(SUITES.map((s) => [s, Promise.all([0, 1].map(() => hybrid.generateKeypairAsync({ suite: s })))]))

const noble = (async () => {
  const kem = await import('@noble/post-quantum/ml-kem.js')
  const dsa = await import('@noble/post-quantum/ml-dsa.js')
  const hyb = await import('@noble/post-quantum/hybrid.js')
  return { ...kem, ...dsa, ...hyb }
})()

/** A hybrid key's components, read as docs/hybrid-format.md says. */
function components(blob) {
  const out = []
  let at = 10
  while (at < blob.length) {
    const n = blob.readUInt16BE(at)
    out.push(blob.subarray(at + 2, at + 2 + n))
    at += 2 + n
  }
  return { magic: blob.subarray(0, 8).toString(), version: blob[8], suite: blob[9], parts: out }
}

/**
 * An envelope's payload key `K` and the length of its head (magic, version, suite, form, KEM
 * ciphertexts), from the format page alone (node:crypto and @noble/post-quantum).
 */
async function independentKey(envelope, privateKey, publicKey) {
  const n = await noble
  const sk = components(privateKey)
  const suite = envelope[9]
  let secrets
  let cts
  let at = 11
  if (suite === 1) {
    const ct = envelope.subarray(at, (at += 1120))
    cts = [ct]
    secrets = [Buffer.from(n.ml_kem768_x25519.decapsulate(ct, sk.parts[0]))]
  } else {
    const rsaCt = envelope.subarray(at, (at += 512))
    const kemCt = envelope.subarray(at, (at += 1568))
    cts = [rsaCt, kemCt]
    const rsaKey = nodeCrypto.createPrivateKey({ key: sk.parts[0], format: 'der', type: 'pkcs8' })
    const rsaSs = nodeCrypto.privateDecrypt(
      { key: rsaKey, oaepHash: 'sha256', oaepLabel: Buffer.from('cryptographer.js hybrid rsa-oaep v1'), padding: nodeCrypto.constants.RSA_PKCS1_OAEP_PADDING },
      rsaCt,
    )
    const { secretKey } = n.ml_kem1024.keygen(sk.parts[1])
    secrets = [rsaSs, Buffer.from(n.ml_kem1024.decapsulate(kemCt, secretKey))]
  }
  return { K: sha3(Buffer.from('cryptographer.js hybrid kem v1'), Buffer.from([suite]), ...secrets, ...cts, sha3(publicKey)), at }
}

/** Opens a one-shot envelope from the format page alone. */
async function independentOpen(envelope, privateKey, publicKey, aad = Buffer.alloc(0)) {
  const { K, at } = await independentKey(envelope, privateKey, publicKey)
  const body = envelope.subarray(at)
  const d = nodeCrypto.createDecipheriv('aes-256-gcm', K, Buffer.alloc(12))
  d.setAAD(Buffer.concat([envelope.subarray(0, 11), aad]))
  d.setAuthTag(body.subarray(body.length - 16))
  return Buffer.concat([d.update(body.subarray(0, body.length - 16)), d.final()])
}

/** Checks each component of a composite signature from the format page alone. */
async function independentVerify(data, signature, publicKey) {
  const n = await noble
  const pk = components(publicKey)
  const suite = signature[1]
  const m = Buffer.concat([
    Buffer.from('cryptographer.js hybrid sig v1'),
    Buffer.from([suite]),
    sha3(publicKey),
    nodeCrypto.createHash('sha512').update(data).digest(),
  ])
  const ctx = Buffer.from('cryptographer.js hybrid sig v1')
  if (suite === 1) {
    const ed = signature.subarray(2, 66)
    const ml = signature.subarray(66)
    const edKey = nodeCrypto.createPublicKey({ key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), pk.parts[1]]), format: 'der', type: 'spki' })
    return nodeCrypto.verify(null, m, edKey, ed) && n.ml_dsa65.verify(ml, m, pk.parts[2], { context: ctx })
  }
  const rsaSig = signature.subarray(2, 514)
  const ml = signature.subarray(514)
  const rsaKey = nodeCrypto.createPublicKey({ key: pk.parts[2], format: 'der', type: 'spki' })
  const pss = { key: rsaKey, padding: nodeCrypto.constants.RSA_PKCS1_PSS_PADDING, saltLength: 64 }
  return nodeCrypto.verify('sha512', m, pss, rsaSig) && n.ml_dsa87.verify(ml, m, pk.parts[3], { context: ctx })
}

for (const suite of SUITES) {
  test(`${suite}: keys are the documented byte strings (and PEM); getPublicKey derives the public key`, async (t) => {
    const [{ publicKey, privateKey }] = await pairs[suite]
    const pub = components(publicKey)
    const sec = components(privateKey)
    t.is(pub.magic, 'cjs.hpub')
    t.is(sec.magic, 'cjs.hsec')
    t.is(pub.version, 1)
    t.is(pub.suite, SUITES.indexOf(suite) + 1)
    t.is(pub.parts.length, suite === SUITES[0] ? 3 : 4)
    t.deepEqual(hybrid.getPublicKey(privateKey), publicKey)
    const pem = hybrid.getPublicKey(privateKey, { format: 'pem' })
    t.regex(pem, /^-----BEGIN CJS HYBRID PUBLIC KEY-----\n/)
    t.deepEqual(Buffer.from(pem.split('\n').filter((l) => !l.startsWith('-----')).join(''), 'base64'), publicKey)
    // PEM keys work wherever bytes do.
    const pemPair = hybrid.generateKeypair({ suite: SUITES[0], format: 'pem' })
    t.true(hybrid.verify('x', pemPair.publicKey, hybrid.sign('x', pemPair.privateKey)))
  })

  test(`${suite}: encrypt/decrypt round trips 0 B to 1 MiB, sync and async, with aad; an independent decoder opens the envelope`, async (t) => {
    const [{ publicKey, privateKey }] = await pairs[suite]
    for (const n of [0, 1, 1000, 65537, 1 << 20]) {
      const data = rand(n)
      const aad = rand(n % 7)
      const env = hybrid.encrypt(data, publicKey, { aad })
      t.is(env.length, 11 + (suite === SUITES[0] ? 1120 : 2080) + n + 16)
      t.deepEqual(hybrid.decrypt(env, privateKey, { aad }), data)
      t.deepEqual(await hybrid.decryptAsync(env, privateKey, { aad }), data)
      const env2 = await hybrid.encryptAsync(data, publicKey, { aad })
      t.deepEqual(hybrid.decrypt(env2, privateKey, { aad }), data)
      t.deepEqual(await independentOpen(env, privateKey, publicKey, aad), data)
      t.notDeepEqual(env.subarray(0, 1000), env2.subarray(0, 1000), 'fresh encapsulation each time')
    }
    t.deepEqual(hybrid.decrypt(hybrid.encrypt('héllo', publicKey), privateKey), Buffer.from('héllo'))
  })

  test(`${suite}: every tamper, truncation, wrong aad, wrong recipient and other suite fails with one ERR_CRYPTO_DECRYPT_FAILED`, async (t) => {
    const [{ publicKey, privateKey }, other] = await pairs[suite]
    const otherSuite = (await pairs[SUITES[1 - SUITES.indexOf(suite)]])[0]
    const data = rand(100)
    const env = hybrid.encrypt(data, publicKey, { aad: 'a' })
    const ctEnd = env.length - 116
    // Every byte of the head, bytes across each ciphertext, the payload and the tag.
    const positions = new Set([...Array(11).keys(), 11, 12, 500, 1130, 1131, 1132, ctEnd - 1, ctEnd, ctEnd + 50, env.length - 1])
    for (let i = 0; i < 40; i++) positions.add(Math.floor(Math.random() * env.length))
    for (const p of positions) {
      const bad = Buffer.from(env)
      bad[p] ^= 1 << (p % 8)
      t.throws(() => hybrid.decrypt(bad, privateKey, { aad: 'a' }), DECRYPT_FAILED, `byte ${p}`)
    }
    for (const n of [0, 5, 11, 100, ctEnd, env.length - 1]) {
      t.throws(() => hybrid.decrypt(env.subarray(0, n), privateKey, { aad: 'a' }), DECRYPT_FAILED, `length ${n}`)
    }
    t.throws(() => hybrid.decrypt(Buffer.concat([env, Buffer.from([0])]), privateKey, { aad: 'a' }), DECRYPT_FAILED)
    t.throws(() => hybrid.decrypt(env, privateKey, { aad: 'b' }), DECRYPT_FAILED)
    t.throws(() => hybrid.decrypt(env, privateKey), DECRYPT_FAILED)
    t.throws(() => hybrid.decrypt(env, other.privateKey, { aad: 'a' }), DECRYPT_FAILED)
    await t.throwsAsync(hybrid.decryptAsync(env, other.privateKey, { aad: 'a' }), DECRYPT_FAILED)
    const e = t.throws(() => hybrid.decrypt(env, otherSuite.privateKey, { aad: 'a' }), DECRYPT_FAILED)
    t.regex(e.message, /another suite/)
  })

  test(`${suite}: sign/verify; the independent checker accepts each component; flipped bits, truncation, other keys and data fail`, async (t) => {
    const [{ publicKey, privateKey }, other] = await pairs[suite]
    const otherSuite = (await pairs[SUITES[1 - SUITES.indexOf(suite)]])[0]
    const data = rand(1024)
    const sig = hybrid.sign(data, privateKey)
    t.is(sig.length, suite === SUITES[0] ? 2 + 64 + 3309 : 2 + 512 + 4627)
    t.true(hybrid.verify(data, publicKey, sig))
    t.true(await independentVerify(data, sig, publicKey))
    const sigAsync = await hybrid.signAsync(data, privateKey)
    t.true(hybrid.verify(data, publicKey, sigAsync))
    t.true(await hybrid.verifyAsync(data, publicKey, sig))
    for (const p of [0, 1, 2, 40, 65, 66, 67, 513, 514, 1000, sig.length - 1]) {
      const bad = Buffer.from(sig)
      bad[p] ^= 0x10
      t.false(hybrid.verify(data, publicKey, bad), `byte ${p}`)
      t.false(await hybrid.verifyAsync(data, publicKey, bad), `byte ${p}, async`)
    }
    for (const n of [0, 2, 66, sig.length - 1]) t.false(hybrid.verify(data, publicKey, sig.subarray(0, n)))
    t.false(hybrid.verify(data, publicKey, Buffer.concat([sig, Buffer.alloc(1)])))
    const changed = Buffer.from(data)
    changed[7] ^= 1
    t.false(hybrid.verify(changed, publicKey, sig))
    t.false(hybrid.verify(data, other.publicKey, sig))
    t.false(hybrid.verify(data, otherSuite.publicKey, sig))
  })

  test(`${suite}: a component cannot be swapped in from another signature, moved to another composite, or stripped and used alone`, async (t) => {
    const [{ publicKey, privateKey }, other] = await pairs[suite]
    const split = suite === SUITES[0] ? 66 : 514
    const a = hybrid.sign('message a', privateKey)
    const b = hybrid.sign('message b', privateKey)
    // Both components valid, from two signatures of this key over different data.
    t.false(hybrid.verify('message a', publicKey, Buffer.concat([a.subarray(0, split), b.subarray(split)])))
    t.false(hybrid.verify('message b', publicKey, Buffer.concat([a.subarray(0, split), b.subarray(split)])))
    // A composite key that shares this key's first signer with another key's second signer: a
    // signature made under this key, with the other key's second component over the same data,
    // does not verify under it (each component signed a message naming its own composite key).
    const pub = components(publicKey)
    const opub = components(other.publicKey)
    const sec = components(privateKey)
    const osec = components(other.privateKey)
    const nKem = suite === SUITES[0] ? 1 : 2
    const blob = (kind, parts) => Buffer.concat([Buffer.from(kind), Buffer.from([1, SUITES.indexOf(suite) + 1]), ...parts.flatMap((p) => [Buffer.from([p.length >> 8, p.length & 255]), p])])
    const mixedPub = blob('cjs.hpub', [...pub.parts.slice(0, nKem + 1), opub.parts[nKem + 1]])
    const mixedSec = blob('cjs.hsec', [...sec.parts.slice(0, nKem + 1), osec.parts[nKem + 1]])
    t.deepEqual(hybrid.getPublicKey(mixedSec), mixedPub)
    const own = hybrid.sign('same data', mixedSec)
    t.true(hybrid.verify('same data', mixedPub, own))
    const theirs = hybrid.sign('same data', other.privateKey)
    const moved = Buffer.concat([a.subarray(0, split), theirs.subarray(split)])
    t.false(hybrid.verify('same data', mixedPub, moved))
    t.false(hybrid.verify('same data', mixedPub, Buffer.concat([own.subarray(0, split), theirs.subarray(split)])))
    // Stripped: the post-quantum component alone is not a signature of the data.
    const data = Buffer.from('message a')
    const n = await noble
    const ml = suite === SUITES[0] ? n.ml_dsa65 : n.ml_dsa87
    t.false(ml.verify(a.subarray(split), data, pub.parts[pub.parts.length - 1]))
    if (suite === SUITES[0]) t.false(crypto.dsa.ed25519.verify(pub.parts[1], data, a.subarray(2, 66)))
    else t.false(crypto.dsa.rsa.verifyPSS(data, pub.parts[2], a.subarray(2, 514), { hash: 'sha512', saltLength: 64 }))
  })

  test(`${suite}: encryptStream/decryptStream and encryptFile/decryptFile round trip; a tampered file leaves no output`, async (t) => {
    const [{ publicKey, privateKey }] = await pairs[suite]
    const data = rand(300_000)
    const chunks = []
    for (let i = 0; i < data.length; i += 7001) chunks.push(data.subarray(i, i + 7001))
    const collect = async (src, transform) => {
      const out = []
      await pipeline(Readable.from(src), transform, new Writable({ write: (c, e, cb) => (out.push(c), cb()) }))
      return Buffer.concat(out)
    }
    const sealed = await collect(chunks, hybrid.encryptStream(publicKey, { aad: 'x', segmentSize: 4096 }))
    t.is(sealed.subarray(0, 8).toString(), 'cjs.henv')
    t.is(sealed[10], 2)
    // Fed one byte at a time for the head, then in odd pieces.
    const pieces = [...sealed.subarray(0, 3000)].map((b) => Buffer.from([b]))
    for (let i = 3000; i < sealed.length; i += 9999) pieces.push(sealed.subarray(i, i + 9999))
    t.deepEqual(await collect(pieces, hybrid.decryptStream(privateKey, { aad: 'x' })), data)
    await t.throwsAsync(collect([sealed], hybrid.decryptStream(privateKey, { aad: 'y' })), DECRYPT_FAILED)
    await t.throwsAsync(collect([sealed.subarray(0, 500)], hybrid.decryptStream(privateKey, { aad: 'x' })), DECRYPT_FAILED)
    t.throws(() => hybrid.decrypt(sealed, privateKey, { aad: 'x' }), { ...DECRYPT_FAILED, message: /stream envelope/ })

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cjs-hybrid-'))
    t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
    const src = path.join(dir, 'in')
    fs.writeFileSync(src, data)
    await hybrid.encryptFile(src, path.join(dir, 'sealed'), publicKey, { aad: 'x' })
    const file = fs.readFileSync(path.join(dir, 'sealed'))
    // The file is the stream format too: the Transform opens it.
    t.deepEqual(await collect([file], hybrid.decryptStream(privateKey, { aad: 'x' })), data)
    await hybrid.decryptFile(path.join(dir, 'sealed'), path.join(dir, 'out'), privateKey, { aad: 'x' })
    t.deepEqual(fs.readFileSync(path.join(dir, 'out')), data)
    // The stream's output opens as a file.
    fs.writeFileSync(path.join(dir, 'sealed2'), sealed)
    await hybrid.decryptFile(path.join(dir, 'sealed2'), path.join(dir, 'out2'), privateKey, { aad: 'x' })
    t.deepEqual(fs.readFileSync(path.join(dir, 'out2')), data)
    // The payload is a version-2 stream under K (docs/stream-format.md), as an independent decoder
    // reads it; a version-1 payload under K opens too (K comes from the KEM: nobody chooses it).
    const { K, at } = await independentKey(sealed, privateKey, publicKey)
    t.is(sealed[at + 8], 2)
    t.deepEqual(await streamFormat.open(sealed.subarray(at), { key: K, aad: 'x' }), data)
    const v1 = Buffer.concat([sealed.subarray(0, at), await streamFormat.seal(data, { alg: 'aes', key: K, aad: 'x', segmentSize: 4096, version: 1 })])
    t.deepEqual(await collect([v1], hybrid.decryptStream(privateKey, { aad: 'x' })), data)
    fs.writeFileSync(path.join(dir, 'v1'), v1)
    await hybrid.decryptFile(path.join(dir, 'v1'), path.join(dir, 'out-v1'), privateKey, { aad: 'x' })
    t.deepEqual(fs.readFileSync(path.join(dir, 'out-v1')), data)
    for (const p of [5, 20, file.length - 20]) {
      const bad = Buffer.from(file)
      bad[p] ^= 4
      fs.writeFileSync(path.join(dir, 'bad'), bad)
      await t.throwsAsync(hybrid.decryptFile(path.join(dir, 'bad'), path.join(dir, 'bad-out'), privateKey, { aad: 'x' }), DECRYPT_FAILED)
      t.false(fs.existsSync(path.join(dir, 'bad-out')))
    }
  })
}

test('keys: malformed, truncated, mislabelled, wrong-kind and weak-component keys are refused with ERR_INVALID_ARG_VALUE', async (t) => {
  const [{ publicKey, privateKey }] = await pairs[SUITES[0]]
  const [rsaPair] = await pairs[SUITES[1]]
  const INVALID = { code: 'ERR_INVALID_ARG_VALUE' }
  t.throws(() => hybrid.encrypt('x', privateKey), INVALID)
  t.throws(() => hybrid.decrypt(Buffer.alloc(2000), publicKey), INVALID)
  t.throws(() => hybrid.encrypt('x', publicKey.subarray(0, publicKey.length - 1)), INVALID)
  t.throws(() => hybrid.encrypt('x', Buffer.concat([publicKey, Buffer.alloc(1)])), INVALID)
  const badMagic = Buffer.from(publicKey)
  badMagic[0] ^= 1
  t.throws(() => hybrid.encrypt('x', badMagic), INVALID)
  const badSuite = Buffer.from(publicKey)
  badSuite[9] = 9
  t.throws(() => hybrid.encrypt('x', badSuite), { ...INVALID, message: /suite/ })
  t.throws(() => hybrid.encrypt('x', '-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n'), INVALID)
  t.throws(() => hybrid.encrypt('x', 42), { code: 'ERR_INVALID_ARG_TYPE' })
  // An RSA-2048 key where the suite says RSA-4096.
  const small = crypto.dsa.rsa.generateKeypair({ modulusLength: 2048 })
  const parts = components(rsaPair.publicKey).parts
  const blob = Buffer.concat([Buffer.from('cjs.hpub'), Buffer.from([1, 2]), ...[small.publicKey, ...parts.slice(1)].flatMap((p) => [Buffer.from([p.length >> 8, p.length & 255]), p])])
  t.throws(() => hybrid.encrypt('x', blob), { ...INVALID, message: /rsa-oaep-4096/ })
})

/** A hybrid key blob from its parts (docs/hybrid-format.md, "Keys"). */
const blobOf = (kind, suite, parts) =>
  Buffer.concat([Buffer.from(kind), Buffer.from([1, suite]), ...parts.flatMap((p) => [Buffer.from([p.length >> 8, p.length & 255]), p])])
const armored = (bytes, label) => `-----BEGIN ${label}-----\n${bytes.toString('base64').match(/.{1,64}/g).join('\n')}\n-----END ${label}-----\n`

test('keys: each component in its canonical form; another encoding of an RSA key (PKCS#1, the private key) is refused in every key form', async (t) => {
  const [{ publicKey, privateKey }] = await pairs[SUITES[1]]
  const pub = components(publicKey).parts
  const priv = components(privateKey).parts
  const NONCANONICAL = (re) => ({ instanceOf: TypeError, code: 'ERR_INVALID_ARG_VALUE', message: re })
  // The canonical key: byte-identical to node's SPKI of the same key, and it works.
  t.deepEqual(pub[0], nodeCrypto.createPublicKey({ key: priv[0], format: 'der', type: 'pkcs8' }).export({ format: 'der', type: 'spki' }))
  t.is(hybrid.decrypt(hybrid.encrypt('hello', blobOf('cjs.hpub', 2, pub)), privateKey).toString(), 'hello')
  // Before, these were accepted and every envelope sealed to them failed to open.
  const rsaPub = nodeCrypto.createPublicKey({ key: pub[0], format: 'der', type: 'spki' })
  const variants = [
    ['PKCS#1 RSAPublicKey', rsaPub.export({ format: 'der', type: 'pkcs1' }), /rsa-oaep-4096 component is not DER SPKI/],
    ['the RSA private key (PKCS#8)', priv[0], /rsa-oaep-4096 component is an RSA private key/],
    ['SPKI with absent parameters', spkiWithoutNull(pub[0]), /rsa-oaep-4096 component is not DER SPKI/],
  ]
  for (const [what, rsaField, message] of variants) {
    const blob = blobOf('cjs.hpub', 2, [rsaField, ...pub.slice(1)])
    t.throws(() => hybrid.encrypt('x', blob), NONCANONICAL(message), what)
    t.throws(() => hybrid.encrypt('x', armored(blob, 'CJS HYBRID PUBLIC KEY')), NONCANONICAL(message), `${what} (PEM)`)
    await t.throwsAsync(hybrid.encryptAsync('x', blob), NONCANONICAL(message), `${what} (async)`)
    t.throws(() => hybrid.verify('x', blob, hybrid.sign('x', privateKey)), NONCANONICAL(message), `${what} (verify)`)
    t.throws(() => hybrid.encryptStream(blob), NONCANONICAL(message), `${what} (stream)`)
  }
  // The same in the RSA-PSS slot.
  const pssPkcs1 = nodeCrypto.createPublicKey({ key: pub[2], format: 'der', type: 'spki' }).export({ format: 'der', type: 'pkcs1' })
  t.throws(() => hybrid.verify('x', blobOf('cjs.hpub', 2, [pub[0], pub[1], pssPkcs1, pub[3]]), hybrid.sign('x', privateKey)), NONCANONICAL(/rsa-pss-4096 component is not DER SPKI/))
  // A private key whose RSA component is PKCS#1 RSAPrivateKey (its public half would be
  // canonical, but the private key has one form too).
  const pkcs1Private = nodeCrypto.createPrivateKey({ key: priv[0], format: 'der', type: 'pkcs8' }).export({ format: 'der', type: 'pkcs1' })
  const env = hybrid.encrypt('x', publicKey)
  t.throws(() => hybrid.decrypt(env, blobOf('cjs.hsec', 2, [pkcs1Private, ...priv.slice(1)])), NONCANONICAL(/rsa-oaep-4096 component is not DER PKCS#8/))
  t.throws(() => hybrid.getPublicKey(blobOf('cjs.hsec', 2, [priv[0], priv[1], pub[2], priv[3]])), NONCANONICAL(/rsa-pss-4096 component is not a DER RSA private key/))
  // getPublicKey gives the canonical public key.
  t.deepEqual(hybrid.getPublicKey(privateKey), publicKey)
})

/** An SPKI with the rsaEncryption parameters left out (BER-like, valid to lax readers) instead of NULL. */
function spkiWithoutNull(spki) {
  const at = spki.indexOf(Buffer.from('06092a864886f70d0101010500', 'hex'))
  const alg = Buffer.from('300b06092a864886f70d010101', 'hex')
  const bits = spki.subarray(at + 13)
  const body = Buffer.concat([alg, bits])
  return Buffer.concat([Buffer.from([0x30, 0x82, body.length >> 8, body.length & 255]), body])
}

test('keys: X-Wing (ML-KEM modulus, X25519 u < p) and Ed25519 (RFC 8032 point encoding) components are checked; the Ed25519 check agrees with @noble/curves', async (t) => {
  const [{ publicKey, privateKey }] = await pairs[SUITES[0]]
  const [xw, ed, ml] = components(publicKey).parts
  const refused = (re) => ({ code: 'ERR_INVALID_ARG_VALUE', message: re })
  // X25519 part: the top bit set (X25519 ignores it, so the key worked, but its hash differed).
  const top = Buffer.from(xw)
  top[top.length - 1] |= 0x80
  t.throws(() => hybrid.encrypt('x', blobOf('cjs.hpub', 1, [top, ed, ml])), refused(/x-wing component has a non-canonical X25519 part/))
  // u = p + 1 (the encoding of 1 plus p).
  const big = Buffer.from(xw)
  big.fill(0xff, big.length - 32)
  big[big.length - 32] = 0xee
  big[big.length - 1] = 0x7f
  t.throws(() => hybrid.encrypt('x', blobOf('cjs.hpub', 1, [big, ed, ml])), refused(/non-canonical X25519 part/))
  // ML-KEM part: a 12-bit coefficient >= q.
  const coef = Buffer.from(xw)
  coef[0] = 0xff
  coef[1] |= 0x0f
  t.throws(() => hybrid.encrypt('x', blobOf('cjs.hpub', 1, [coef, ed, ml])), refused(/x-wing component fails the FIPS 203 modulus check/))
  // The ML-KEM-1024 component of the other suite.
  const [rsaPair] = await pairs[SUITES[1]]
  const r = components(rsaPair.publicKey).parts
  const mk = Buffer.from(r[1])
  mk[1] |= 0x0f
  mk[0] = 0xff
  t.throws(() => hybrid.encrypt('x', blobOf('cjs.hpub', 2, [r[0], mk, r[2], r[3]])), refused(/ml-kem-1024 component fails the FIPS 203 modulus check/))
  // Ed25519: y >= p, and x = 0 with the sign bit set, are other spellings of valid points.
  const yp1 = Buffer.alloc(32, 0xff)
  yp1[0] = 0xee
  yp1[31] = 0x7f
  const signedZero = Buffer.alloc(32)
  signedZero[0] = 1
  signedZero[31] = 0x80
  for (const bad of [yp1, signedZero]) {
    t.throws(() => hybrid.verify('x', blobOf('cjs.hpub', 1, [xw, bad, ml]), hybrid.sign('x', privateKey)), refused(/ed25519 component is not the canonical encoding of a point/))
  }
  // The check against noble's strict RFC 8032 decoding, on random bytes (about half are not
  // points), their y + p spellings where they exist, and our own keys.
  const { ed25519 } = await import('@noble/curves/ed25519.js')
  const nobleSays = (b) => {
    try {
      ed25519.Point.fromBytes(b, false)
      return true
    } catch {
      return false
    }
  }
  const { ed25519Canonical } = require('../lib/keys')
  const cases = [yp1, signedZero, ed]
  for (let i = 0; i < 400; i++) cases.push(rand(32))
  for (let y = 0; y < 19; y++) {
    const b = Buffer.alloc(32, 0xff)
    b[0] = 0xed + y
    b[31] = 0x7f
    cases.push(b, Buffer.from([...b.subarray(0, 31), 0xff]))
  }
  let points = 0
  for (const b of cases) {
    t.is(ed25519Canonical(b), nobleSays(b), b.toString('hex'))
    points += nobleSays(b)
  }
  t.true(points > 100 && points < cases.length - 100, `${points} of ${cases.length} are points`)
})

test('verify takes (data, publicKey, signature) only: the signature first is refused, never read as the other order', async (t) => {
  const [{ publicKey, privateKey }] = await pairs[SUITES[0]]
  const pem = hybrid.getPublicKey(privateKey, { format: 'pem' })
  const sig = hybrid.sign('x', privateKey)
  t.true(hybrid.verify('x', publicKey, sig))
  t.true(hybrid.verify('x', pem, sig))
  t.true(hybrid.verify('x', { publicKey, signature: sig }))
  t.true(await hybrid.verifyAsync('x', pem, sig))
  // The signature before a PEM key: a string where the signature goes, told by its type.
  const ORDER = { instanceOf: TypeError, code: 'ERR_INVALID_ARG_TYPE', message: /"signature" argument .*Received type string.*hybrid\.verify\(data, publicKey, signature\)/ }
  t.throws(() => hybrid.verify('x', sig, pem), ORDER)
  t.throws(() => hybrid.verifySync('x', sig, pem), ORDER)
  await t.throwsAsync(hybrid.verifyAsync('x', sig, pem), ORDER)
  // The signature before a byte key: two byte strings, so the signature is read as the public
  // key, which it is not (it starts with the version and suite bytes, not the key's magic).
  const KEY = { instanceOf: TypeError, code: 'ERR_INVALID_ARG_VALUE', message: /"publicKey" is invalid.*do not start with a hybrid key header/ }
  t.throws(() => hybrid.verify('x', sig, publicKey), KEY)
  await t.throwsAsync(hybrid.verifyAsync('x', sig, publicKey), KEY)
  // Bytes in the signature's place are the signature, whatever they start with: one that starts
  // as a public key does (its magic) fails to verify; given before the key, it is read as the
  // public key it is not, and refused.
  const magic = Buffer.concat([publicKey.subarray(0, 10), sig.subarray(10)])
  t.false(hybrid.verify('x', publicKey, magic))
  t.false(await hybrid.verifyAsync('x', publicKey, magic))
  t.throws(() => hybrid.verify('x', magic, publicKey), { code: 'ERR_INVALID_ARG_VALUE' })
  // Not bytes, not a string: the plain type error.
  t.throws(() => hybrid.verify('x', publicKey, 5), { code: 'ERR_INVALID_ARG_TYPE', message: /"signature" argument must be an instance of Buffer, TypedArray, DataView or ArrayBuffer\. Received type number \(5\)$/ })
})

test('options: unknown options, a bad suite or format are refused with typed errors', (t) => {
  t.throws(() => hybrid.generateKeypair({ suite: 'rsa2048' }), { code: 'ERR_INVALID_ARG_VALUE' })
  t.throws(() => hybrid.generateKeypair({ format: 'der' }), { code: 'ERR_INVALID_ARG_VALUE' })
  t.throws(() => hybrid.generateKeypair({ bogus: 1 }), { code: 'ERR_INVALID_ARG_VALUE' })
  const { publicKey } = hybrid.generateKeypair()
  t.throws(() => hybrid.encrypt('x', publicKey, { aad: 5 }), { code: 'ERR_INVALID_ARG_TYPE' })
  t.throws(() => hybrid.encrypt('x', publicKey, { iv: 5 }), { code: 'ERR_INVALID_ARG_VALUE' })
  t.throws(() => hybrid.encrypt(5, publicKey), { code: 'ERR_INVALID_ARG_TYPE' })
  t.deepEqual(hybrid.suites, SUITES)
})

test('signal: every async form rejects with AbortError when aborted before or right after it starts (the signal reaches each component)', async (t) => {
  const [{ publicKey, privateKey }] = await pairs[SUITES[1]]
  const env = hybrid.encrypt('x', publicKey)
  const sig = hybrid.sign('x', privateKey)
  const aborted = AbortSignal.abort()
  const ABORT = { name: 'AbortError' }
  await t.throwsAsync(hybrid.encryptAsync('x', publicKey, { signal: aborted }), ABORT)
  await t.throwsAsync(hybrid.decryptAsync(env, privateKey, { signal: aborted }), ABORT)
  await t.throwsAsync(hybrid.signAsync('x', privateKey, { signal: aborted }), ABORT)
  await t.throwsAsync(hybrid.verifyAsync('x', publicKey, sig, { signal: aborted }), ABORT)
  await t.throwsAsync(hybrid.generateKeypairAsync({ suite: SUITES[1], signal: aborted }), ABORT)
  // RSA-4096 key generation (about a second) aborted at once after it starts.
  const ac = new AbortController()
  const pending = hybrid.generateKeypairAsync({ suite: SUITES[1], signal: ac.signal })
  ac.abort()
  await t.throwsAsync(pending, ABORT)
})
