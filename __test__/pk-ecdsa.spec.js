'use strict'
// ECDSA (crypto.dsa.ecdsa): RFC 6979 and NIST CAVP known answers for P-256, and differential
// tests on random keys and messages for every curve x hash x signature format: against
// node:crypto (both directions, every hash node has) and @noble/curves (prehashed digests, so
// every hash of crypto.sha, and byte-exact deterministic signatures where both use the same
// HMAC for RFC 6979).
const test = require('ava')
const nodeCrypto = require('node:crypto')
// Node 20 can deadlock exporting a generated key as JWK: see the helper.
const { generateKeyPairSync } = require('./helpers/node-keys')
const crypto = require('..')
const { json, hex } = require('./helpers/vectors')

const { ecdsa } = crypto.dsa
const rand = (n) => nodeCrypto.randomBytes(n)
const CURVES = { p256: 'prime256v1', p384: 'secp384r1', p521: 'secp521r1', secp256k1: 'secp256k1' }
const SIZE = { p256: 32, p384: 48, p521: 66, secp256k1: 32 }
// Our hash name -> node's (those node:crypto signs with; md4, whirlpool need OpenSSL's legacy
// provider, keccak256 and blake3 are not in OpenSSL, SHAKE's default output differs: RFC 8692).
const NODE_HASH = {
  md5: 'md5', sha1: 'sha1', sha224: 'sha224', sha256: 'sha256', sha384: 'sha384', sha512: 'sha512',
  sha512_224: 'sha512-224', sha512_256: 'sha512-256', sha3_224: 'sha3-224', sha3_256: 'sha3-256',
  sha3_384: 'sha3-384', sha3_512: 'sha3-512', blake2b: 'blake2b512', blake2s: 'blake2s256', ripemd160: 'ripemd160',
}
const ALL_HASHES = Object.keys(crypto.sha).filter((h) => typeof crypto.sha[h] === 'function' && h !== 'stream')
const digestOf = (hash, msg) =>
  hash === 'shake128' ? crypto.sha.shake128(msg, { outputLength: 32, outputFormat: 'buffer' })
    : hash === 'shake256' ? crypto.sha.shake256(msg, { outputLength: 64, outputFormat: 'buffer' })
      : NODE_HASH[hash] ? nodeCrypto.createHash(NODE_HASH[hash]).update(msg).digest() : crypto.sha[hash](msg, { outputFormat: 'buffer' })

let noble
test.before(async (t) => {
  const nist = await import('@noble/curves/nist.js')
  const k1 = await import('@noble/curves/secp256k1.js')
  noble = { p256: nist.p256, p384: nist.p384, p521: nist.p521, secp256k1: k1.secp256k1 }
  t.log(`hashes checked against @noble/curves: ${ALL_HASHES.join(', ')}; against node:crypto: ${Object.keys(NODE_HASH).join(', ')}`)
})

const p1363ToDer = (sig) => {
  const n = sig.length / 2
  const int = (b) => {
    let i = 0
    while (i < b.length - 1 && b[i] === 0) i++
    b = b.subarray(i)
    return b[0] & 0x80 ? Buffer.concat([Buffer.from([2, b.length + 1, 0]), b]) : Buffer.concat([Buffer.from([2, b.length]), b])
  }
  const body = Buffer.concat([int(sig.subarray(0, n)), int(sig.subarray(n))])
  return Buffer.concat([Buffer.from(body.length >= 128 ? [0x30, 0x81, body.length] : [0x30, body.length]), body])
}

test('RFC 6979 A.2.5 + CCTV: P-256 deterministic signatures reproduce r, s and the DER bytes', (t) => {
  const file = json('rfc/ecdsa_p256_rfc6979.json')
  const privateKey = hex(file.key.d)
  const publicKey = Buffer.concat([Buffer.from([4]), hex(file.key.Qx), hex(file.key.Qy)])
  t.deepEqual(crypto.keys.export(privateKey, { algorithm: 'ec', curve: 'p256', format: 'raw', public: true }), publicKey)
  t.is(file.tests.length, 11)
  for (const v of file.tests) {
    const hash = v.hash.toLowerCase()
    const sig = ecdsa.sign(hex(v.msg), { curve: 'p256', privateKey, hash, format: 'ieee-p1363' })
    t.is(sig.toString('hex'), v.r + v.s, `tc ${v.tcId}`)
    if (v.sig_der) t.is(ecdsa.sign(hex(v.msg), { privateKey, hash }).toString('hex'), v.sig_der, `tc ${v.tcId}`)
    t.true(ecdsa.verify(hex(v.msg), { publicKey, signature: sig, hash, format: 'ieee-p1363' }))
  }
})

test('NIST CAVP FIPS 186-3 P-256: SigGen signatures verify, SigVer results match', (t) => {
  const file = json('nist_cavp/ecdsa_p256_fips186_3.json')
  let n = 0
  for (const v of file.tests) {
    const hash = v.hash.replace('-', '').toLowerCase()
    const publicKey = Buffer.concat([Buffer.from([4]), hex(v.Qx.padStart(64, '0')), hex(v.Qy.padStart(64, '0'))])
    const signature = Buffer.concat([hex(v.r.padStart(64, '0')), hex(v.s.padStart(64, '0'))])
    let ok
    try {
      ok = ecdsa.verify(hex(v.msg), { curve: 'p256', publicKey, signature, hash, format: 'ieee-p1363' })
    } catch (e) {
      // A SigVer key off the curve ("Q changed") is refused as a key.
      t.is(e.code, 'ERR_CRYPTO_ECDH_INVALID_PUBLIC_KEY', `tc ${v.tcId}`)
      ok = false
    }
    t.is(ok, v.result === 'valid', `tc ${v.tcId} ${v.kind} ${v.nist_result || ''}`)
    if (v.kind === 'siggen') t.deepEqual(crypto.keys.export(hex(v.d), { algorithm: 'ec', curve: 'p256', format: 'raw', public: true }), publicKey)
    n++
  }
  t.is(n, 150)
})

for (const curve of Object.keys(CURVES)) {
  test(`differential ${curve}: every hash x format, ours -> node and noble, node and noble -> ours`, (t) => {
    for (const [i, hash] of ALL_HASHES.entries()) {
      const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: CURVES[curve] })
      const jwk = privateKey.export({ format: 'jwk' })
      const d = Buffer.from(jwk.d, 'base64url')
      const q = Buffer.concat([Buffer.from([4]), Buffer.from(jwk.x, 'base64url'), Buffer.from(jwk.y, 'base64url')])
      const msg = rand((i * 53) % 500)
      const digest = digestOf(hash, msg)
      for (const format of ['der', 'ieee-p1363']) {
        const sig = ecdsa.sign(msg, { curve, privateKey: d, hash, format })
        const p1363 = format === 'der' ? undefined : sig
        t.true(ecdsa.verify(msg, { curve, publicKey: q, signature: sig, hash, format }), `${hash} ${format}`)
        if (NODE_HASH[hash]) {
          t.true(nodeCrypto.verify(NODE_HASH[hash], msg, { key: publicKey, dsaEncoding: format }, sig), `node verifies ours ${hash} ${format}`)
          const theirs = nodeCrypto.sign(NODE_HASH[hash], msg, { key: privateKey, dsaEncoding: format })
          t.true(ecdsa.verify(msg, { curve, publicKey, signature: theirs, hash, format }), `ours verifies node ${hash} ${format}`)
        }
        const n = noble[curve]
        const compact = p1363 || ecdsa.sign(msg, { curve, privateKey: d, hash, format: 'ieee-p1363' })
        t.is(format === 'der' ? sig.toString('hex') : p1363ToDer(compact).toString('hex'), p1363ToDer(compact).toString('hex'))
        t.true(n.verify(compact, digest, q, { prehash: false, lowS: false }), `noble verifies ours ${hash}`)
        const nobleSig = n.sign(digest, d, { prehash: false, lowS: false })
        t.true(ecdsa.verify(msg, { curve, publicKey: q, signature: Buffer.from(nobleSig), hash, format: 'ieee-p1363' }), `ours verifies noble ${hash}`)
      }
      // Where the HMAC of RFC 6979 is the same hash (noble draws k with the curve's hash), the
      // deterministic signatures are identical.
      const curveHash = { p256: 'sha256', p384: 'sha384', p521: 'sha512', secp256k1: 'sha256' }[curve]
      if (hash === curveHash) {
        const nobleSig = noble[curve].sign(digest, d, { prehash: false, lowS: false })
        t.is(ecdsa.sign(msg, { curve, privateKey: d, hash, format: 'ieee-p1363' }).toString('hex'), Buffer.from(nobleSig).toString('hex'))
      }
    }
  })
}

test('secp256k1 lowS: signatures are low-S and equal noble\'s default; verify with lowS refuses high S', (t) => {
  const N = BigInt('0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141')
  for (let i = 0; i < 50; i++) {
    const kp = ecdsa.generateKeypair('secp256k1')
    const msg = rand(40)
    const sig = ecdsa.sign(msg, { curve: 'secp256k1', privateKey: kp.privateKey, format: 'ieee-p1363', lowS: true })
    const s = BigInt('0x' + sig.subarray(32).toString('hex'))
    t.true(s <= N / 2n)
    const digest = nodeCrypto.createHash('sha256').update(msg).digest()
    t.is(sig.toString('hex'), Buffer.from(noble.secp256k1.sign(digest, kp.privateKey, { prehash: false })).toString('hex'))
    const high = Buffer.concat([sig.subarray(0, 32), Buffer.from((N - s).toString(16).padStart(64, '0'), 'hex')])
    const o = { curve: 'secp256k1', publicKey: kp.publicKey, format: 'ieee-p1363' }
    t.true(ecdsa.verify(msg, { ...o, signature: high }))
    t.false(ecdsa.verify(msg, { ...o, signature: high, lowS: true }))
    t.true(ecdsa.verify(msg, { ...o, signature: sig, lowS: true }))
  }
})

test('keys: every form from node loads, the curve comes from the key when not given, ours load in node', (t) => {
  for (const curve of Object.keys(CURVES)) {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: CURVES[curve] })
    const msg = rand(64)
    const privForms = [
      privateKey,
      privateKey.export({ format: 'der', type: 'pkcs8' }),
      privateKey.export({ format: 'pem', type: 'pkcs8' }),
      privateKey.export({ format: 'der', type: 'sec1' }),
      privateKey.export({ format: 'pem', type: 'sec1' }),
      privateKey.export({ format: 'jwk' }),
    ]
    const pubForms = [
      publicKey,
      publicKey.export({ format: 'der', type: 'spki' }),
      publicKey.export({ format: 'pem', type: 'spki' }),
      publicKey.export({ format: 'jwk' }),
    ]
    for (const privateKeyForm of privForms) {
      const sig = ecdsa.sign(msg, { privateKey: privateKeyForm })
      t.true(nodeCrypto.verify('sha256', msg, publicKey, sig), curve)
      for (const publicKeyForm of pubForms) t.true(ecdsa.verify(msg, { publicKey: publicKeyForm, signature: sig }))
    }
    // Our exports equal node's, byte for byte (PKCS#8 with the public key, SEC1, SPKI, JWK).
    const raw = crypto.keys.export(privateKey, { format: 'raw' })
    t.is(raw.length, SIZE[curve])
    const o = { algorithm: 'ec', curve }
    t.deepEqual(crypto.keys.export(raw, { ...o, format: 'der' }), privateKey.export({ format: 'der', type: 'pkcs8' }))
    t.deepEqual(crypto.keys.export(raw, { ...o, format: 'der', type: 'sec1' }), privateKey.export({ format: 'der', type: 'sec1' }))
    t.is(crypto.keys.export(raw, { ...o, format: 'pem', type: 'sec1' }), privateKey.export({ format: 'pem', type: 'sec1' }))
    t.deepEqual(crypto.keys.export(raw, { ...o, format: 'jwk' }), privateKey.export({ format: 'jwk' }))
    t.deepEqual(crypto.keys.export(raw, { ...o, format: 'der', public: true }), publicKey.export({ format: 'der', type: 'spki' }))
    t.true(crypto.keys.import(raw, o).equals(privateKey))
    // Compressed points: export, import, verify.
    const compressed = crypto.keys.export(publicKey, { format: 'raw', type: 'compressed' })
    t.is(compressed.length, 1 + SIZE[curve])
    t.deepEqual(compressed, publicKey.export({ format: 'der', type: 'spki' }).length && Buffer.from(nodeCrypto.ECDH.convertKey(crypto.keys.export(publicKey, { format: 'raw' }), CURVES[curve], undefined, undefined, 'compressed')))
    t.true(ecdsa.verify(msg, { curve, publicKey: compressed, signature: ecdsa.sign(msg, { curve, privateKey: raw }) }))
  }
})

test('errors: wrong curve or algorithm, bad keys, unknown curve/hash/format; bad signatures are false', (t) => {
  const kp = ecdsa.generateKeypair('p256')
  const msg = 'message'
  const sig = ecdsa.sign(msg, { privateKey: kp.privateKey })
  const KEY_TYPE = { instanceOf: TypeError, code: 'ERR_CRYPTO_INVALID_KEY_TYPE' }
  const VALUE = { instanceOf: TypeError, code: 'ERR_INVALID_ARG_VALUE' }
  const p384 = generateKeyPairSync('ec', { namedCurve: 'secp384r1' })
  const ed = generateKeyPairSync('ed25519')
  t.throws(() => ecdsa.sign(msg, { curve: 'p256', privateKey: p384.privateKey }), KEY_TYPE)
  t.throws(() => ecdsa.verify(msg, { curve: 'p256', publicKey: p384.publicKey, signature: sig }), KEY_TYPE)
  t.throws(() => ecdsa.sign(msg, { privateKey: ed.privateKey }), KEY_TYPE)
  t.throws(() => ecdsa.sign(msg, { curve: 'p256', privateKey: kp.publicKey }), KEY_TYPE)
  t.throws(() => ecdsa.sign(msg, { privateKey: p384.publicKey }), KEY_TYPE)
  t.throws(() => ecdsa.sign(msg, { curve: 'p255', privateKey: kp.privateKey }), VALUE)
  t.throws(() => ecdsa.generateKeypair('p224'), VALUE)
  t.throws(() => ecdsa.sign(msg, { privateKey: kp.privateKey, hash: 'sha999' }), VALUE)
  t.throws(() => ecdsa.sign(msg, { privateKey: kp.privateKey, format: 'raw' }), VALUE)
  t.throws(() => ecdsa.sign(msg, { privateKey: kp.privateKey, extra: 1 }), VALUE)
  t.throws(() => ecdsa.sign(msg), { instanceOf: TypeError, code: 'ERR_INVALID_ARG_TYPE' })
  t.throws(() => ecdsa.sign(msg, { privateKey: kp.privateKey, lowS: 'yes' }), { instanceOf: TypeError, code: 'ERR_INVALID_ARG_TYPE' })
  // Scalars out of range: 0 and n.
  t.throws(() => ecdsa.sign(msg, { privateKey: Buffer.alloc(32) }), VALUE)
  t.throws(() => ecdsa.sign(msg, { privateKey: hex('ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551') }), VALUE)
  // Truncated / oversize keys.
  t.throws(() => ecdsa.sign(msg, { privateKey: kp.privateKey.subarray(1) }), VALUE)
  t.throws(() => ecdsa.verify(msg, { publicKey: kp.publicKey.subarray(1), signature: sig }), VALUE)
  t.throws(() => ecdsa.verify(msg, { publicKey: Buffer.concat([kp.publicKey, Buffer.from([0])]), signature: sig }), VALUE)
  // A point off the curve.
  const off = Buffer.from(kp.publicKey)
  off[64] ^= 1
  t.throws(() => ecdsa.verify(msg, { publicKey: off, signature: sig }), { code: 'ERR_CRYPTO_ECDH_INVALID_PUBLIC_KEY' })
  // JWK with a bad curve or coordinates.
  const jwk = crypto.keys.export(kp.privateKey, { algorithm: 'ec', curve: 'p256', format: 'jwk' })
  t.throws(() => ecdsa.sign(msg, { privateKey: { ...jwk, crv: 'P-192' } }), { code: 'ERR_CRYPTO_INVALID_JWK' })
  t.throws(() => ecdsa.sign(msg, { privateKey: { ...jwk, y: jwk.x } }), { code: 'ERR_CRYPTO_INVALID_JWK' })
  t.throws(() => ecdsa.sign(msg, { privateKey: { ...jwk, d: jwk.d.slice(2) } }), { code: 'ERR_CRYPTO_INVALID_JWK' })
  // Signatures: truncated, oversize, zero, r or s = n, BER, flipped bits: false, never a throw.
  const pub = { publicKey: kp.publicKey }
  for (let cut = 1; cut < sig.length; cut += 3) t.false(ecdsa.verify(msg, { ...pub, signature: sig.subarray(0, cut) }))
  t.false(ecdsa.verify(msg, { ...pub, signature: Buffer.concat([sig, Buffer.from([0])]) }))
  t.false(ecdsa.verify(msg, { ...pub, signature: Buffer.alloc(64), format: 'ieee-p1363' }))
  const n = hex('ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551')
  const p = ecdsa.sign(msg, { privateKey: kp.privateKey, format: 'ieee-p1363' })
  t.false(ecdsa.verify(msg, { ...pub, signature: Buffer.concat([n, p.subarray(32)]), format: 'ieee-p1363' }))
  t.false(ecdsa.verify(msg, { ...pub, signature: Buffer.concat([p.subarray(0, 32), n]), format: 'ieee-p1363' }))
  t.false(ecdsa.verify(msg, { ...pub, signature: p, format: 'der' }))
  t.false(ecdsa.verify(msg, { ...pub, signature: sig, format: 'ieee-p1363' }))
  const ber = Buffer.concat([Buffer.from([0x30, 0x81, sig[1]]), sig.subarray(2)])
  t.false(ecdsa.verify(msg, { ...pub, signature: ber }))
  for (let bit = 0; bit < sig.length * 8; bit += 5) {
    const bad = Buffer.from(sig)
    bad[bit >> 3] ^= 1 << (bit & 7)
    t.false(ecdsa.verify(msg, { ...pub, signature: bad }))
  }
  t.false(ecdsa.verify('other', { ...pub, signature: sig }))
  t.true(ecdsa.verify(msg, { ...pub, signature: sig }))
  t.throws(() => ecdsa.verify(msg, { ...pub, signature: 42 }), { instanceOf: TypeError, code: 'ERR_INVALID_ARG_TYPE' })
})
