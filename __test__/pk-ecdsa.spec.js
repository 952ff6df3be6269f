'use strict'
// ECDSA (crypto.dsa.ecdsa): RFC 6979 and NIST CAVP known answers for P-256, the Wycheproof
// verification files of every curve, and differential tests on random keys and messages for
// every curve x hash x signature format: against node:crypto (both directions, every hash node
// has) and @noble/curves (prehashed digests, so every hash of crypto.sha, byte-exact
// deterministic signatures where both use the same HMAC for RFC 6979, and the `lowS` rule).
// Signatures are low-S on every curve; verification refuses high S by default on secp256k1 only;
// MD4/MD5 (and SHA-1 for signing) need `allowWeakHash`.
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

// Every hash: MD4, MD5 and SHA-1 are refused for signing without it (MD4/MD5 for verifying too).
const WEAK_OK = { allowWeakHash: true }

let noble
// The group order of each curve, from @noble/curves (an implementation independent of ours).
const ORDER = {}
test.before(async (t) => {
  const nist = await import('@noble/curves/nist.js')
  const k1 = await import('@noble/curves/secp256k1.js')
  noble = { p256: nist.p256, p384: nist.p384, p521: nist.p521, secp256k1: k1.secp256k1 }
  for (const c of Object.keys(noble)) ORDER[c] = noble[c].Point.Fn.ORDER
  t.log(`hashes checked against @noble/curves: ${ALL_HASHES.join(', ')}; against node:crypto: ${Object.keys(NODE_HASH).join(', ')}`)
})

/** r ‖ s (each `size` bytes) of a strict DER ECDSA-Sig-Value (only called on valid signatures). */
function derToP1363(der, size) {
  let at = der[1] === 0x81 ? 3 : 2
  const int = () => {
    const len = der[at + 1]
    const v = der.subarray(at + 2, at + 2 + len)
    at += 2 + len
    return Buffer.from(BigInt('0x' + v.toString('hex')).toString(16).padStart(2 * size, '0'), 'hex')
  }
  return Buffer.concat([int(), int()])
}

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
  const n = BigInt('0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551')
  let high = 0
  for (const v of file.tests) {
    const hash = v.hash.toLowerCase()
    // The RFC's s as it is (`lowS: false`), and by default min(s, n - s).
    const o = { curve: 'p256', privateKey, hash, ...WEAK_OK }
    const sig = ecdsa.sign(hex(v.msg), { ...o, format: 'ieee-p1363', lowS: false })
    t.is(sig.toString('hex'), v.r + v.s, `tc ${v.tcId}`)
    if (v.sig_der) t.is(ecdsa.sign(hex(v.msg), { ...o, lowS: false }).toString('hex'), v.sig_der, `tc ${v.tcId}`)
    const s = BigInt('0x' + v.s)
    const low = s > n / 2n ? n - s : s
    high += s > n / 2n
    t.is(ecdsa.sign(hex(v.msg), { ...o, format: 'ieee-p1363' }).toString('hex'), v.r + low.toString(16).padStart(64, '0'), `tc ${v.tcId}`)
    t.true(ecdsa.verify(hex(v.msg), { publicKey, signature: sig, hash, format: 'ieee-p1363' }))
  }
  t.true(high > 0, 'some published s are above n/2')
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
      // Signatures from others may have s > n/2: verified here with `lowS: false` (secp256k1
      // refuses them by default; the lowS tests below check that rule).
      const any = { ...WEAK_OK, lowS: false }
      for (const format of ['der', 'ieee-p1363']) {
        const sig = ecdsa.sign(msg, { curve, privateKey: d, hash, format, ...WEAK_OK })
        const p1363 = format === 'der' ? undefined : sig
        t.true(ecdsa.verify(msg, { curve, publicKey: q, signature: sig, hash, format, ...WEAK_OK }), `${hash} ${format}`)
        if (NODE_HASH[hash]) {
          t.true(nodeCrypto.verify(NODE_HASH[hash], msg, { key: publicKey, dsaEncoding: format }, sig), `node verifies ours ${hash} ${format}`)
          const theirs = nodeCrypto.sign(NODE_HASH[hash], msg, { key: privateKey, dsaEncoding: format })
          t.true(ecdsa.verify(msg, { curve, publicKey, signature: theirs, hash, format, ...any }), `ours verifies node ${hash} ${format}`)
        }
        const n = noble[curve]
        const compact = p1363 || ecdsa.sign(msg, { curve, privateKey: d, hash, format: 'ieee-p1363', ...WEAK_OK })
        t.is(format === 'der' ? sig.toString('hex') : p1363ToDer(compact).toString('hex'), p1363ToDer(compact).toString('hex'))
        // Ours are low-S: noble verifies them under its strict default.
        t.true(n.verify(compact, digest, q, { prehash: false }), `noble verifies ours ${hash}`)
        const nobleSig = n.sign(digest, d, { prehash: false, lowS: false })
        t.true(ecdsa.verify(msg, { curve, publicKey: q, signature: Buffer.from(nobleSig), hash, format: 'ieee-p1363', ...any }), `ours verifies noble ${hash}`)
      }
      // Where the HMAC of RFC 6979 is the same hash (noble draws k with the curve's hash), the
      // deterministic signatures are identical: low S (both defaults) and as drawn (lowS: false).
      const curveHash = { p256: 'sha256', p384: 'sha384', p521: 'sha512', secp256k1: 'sha256' }[curve]
      if (hash === curveHash) {
        for (const lowS of [true, false]) {
          const nobleSig = noble[curve].sign(digest, d, { prehash: false, lowS })
          const o = { curve, privateKey: d, hash, format: 'ieee-p1363', ...(lowS ? {} : { lowS }) }
          t.is(ecdsa.sign(msg, o).toString('hex'), Buffer.from(nobleSig).toString('hex'), `lowS ${lowS}`)
        }
      }
    }
  })
}

/** The (r, s) scalars of a P1363 signature, and the same signature with s replaced by n - s. */
function highLow(sig, curve) {
  const size = sig.length / 2
  const s = BigInt('0x' + sig.subarray(size).toString('hex'))
  const other = Buffer.concat([sig.subarray(0, size), Buffer.from((ORDER[curve] - s).toString(16).padStart(2 * size, '0'), 'hex')])
  return s > ORDER[curve] / 2n ? { high: sig, low: other, s } : { high: other, low: sig, s }
}

test('signatures are low-S (s <= n/2) on every curve, DER and P1363, by default', (t) => {
  const counts = {}
  for (const curve of Object.keys(CURVES)) {
    const kp = ecdsa.generateKeypair(curve)
    const half = ORDER[curve] / 2n
    let drawnHigh = 0
    for (let i = 0; i < 64; i++) {
      const msg = rand(i)
      const sig = ecdsa.sign(msg, { curve, privateKey: kp.privateKey, format: 'ieee-p1363' })
      const s = BigInt('0x' + sig.subarray(sig.length / 2).toString('hex'))
      t.true(s <= half, `${curve} #${i}`)
      // The DER form holds the same (r, s).
      t.is(ecdsa.sign(msg, { curve, privateKey: kp.privateKey }).toString('hex'), p1363ToDer(sig).toString('hex'))
      // lowS: false gives the nonce's own s, n - s of the default half the time.
      const raw = ecdsa.sign(msg, { curve, privateKey: kp.privateKey, format: 'ieee-p1363', lowS: false })
      const { low } = highLow(raw, curve)
      t.is(low.toString('hex'), sig.toString('hex'))
      drawnHigh += !raw.equals(sig)
    }
    counts[curve] = drawnHigh
    t.true(drawnHigh > 10 && drawnHigh < 54, `${curve}: ${drawnHigh} of 64 drawn signatures had s > n/2`)
  }
  t.log(`signatures whose drawn s was above n/2 (normalised), of 64: ${JSON.stringify(counts)}`)
})

test('lowS verification: secp256k1 refuses high S by default, the NIST curves accept it; lowS: true/false overrides', (t) => {
  const nodeCurve = CURVES
  for (const curve of Object.keys(CURVES)) {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: nodeCurve[curve] })
    // node:crypto (OpenSSL) does not normalise s: sign until one has s > n/2.
    let theirs
    for (let i = 0; i < 200 && !theirs; i++) {
      const sig = nodeCrypto.sign('sha256', Buffer.from('m' + i), { key: privateKey, dsaEncoding: 'ieee-p1363' })
      if (highLow(sig, curve).high === sig) theirs = { msg: Buffer.from('m' + i), sig }
    }
    t.truthy(theirs, `${curve}: node gave a high-S signature`)
    const { high, low } = highLow(theirs.sig, curve)
    t.true(nodeCrypto.verify('sha256', theirs.msg, { key: publicKey, dsaEncoding: 'ieee-p1363' }, low), 'node accepts (r, n - s) too')
    const v = (signature, lowS) =>
      ecdsa.verify(theirs.msg, { publicKey, signature, format: 'ieee-p1363', ...(lowS === undefined ? {} : { lowS }) })
    const strict = curve === 'secp256k1'
    t.is(v(high), !strict, `${curve}: node's high-S signature by default`)
    t.false(v(high, true), `${curve}: refused with lowS: true`)
    t.true(v(high, false), `${curve}: accepted with lowS: false`)
    for (const lowS of [undefined, true, false]) t.true(v(low, lowS), `${curve}: low S, lowS ${lowS}`)
    // DER: the same rule.
    t.is(ecdsa.verify(theirs.msg, { publicKey, signature: p1363ToDer(high) }), !strict)
    t.false(ecdsa.verify(theirs.msg, { publicKey, signature: p1363ToDer(high), lowS: true }))
  }
})

test('lowS semantics match @noble/curves: verify(lowS) and sign(lowS) agree for every curve', (t) => {
  for (const curve of Object.keys(CURVES)) {
    const n = noble[curve]
    const hash = { p256: 'sha256', p384: 'sha384', p521: 'sha512', secp256k1: 'sha256' }[curve]
    for (let i = 0; i < 8; i++) {
      const kp = ecdsa.generateKeypair(curve)
      const msg = rand(20 + i)
      const digest = nodeCrypto.createHash(hash).update(msg).digest()
      const { high, low } = highLow(ecdsa.sign(msg, { curve, privateKey: kp.privateKey, hash, format: 'ieee-p1363' }), curve)
      for (const sig of [high, low]) {
        for (const lowS of [true, false]) {
          const ours = ecdsa.verify(msg, { curve, publicKey: kp.publicKey, signature: sig, hash, format: 'ieee-p1363', lowS })
          t.is(ours, n.verify(sig, digest, kp.publicKey, { prehash: false, lowS }), `${curve} lowS ${lowS} ${sig === high ? 'high' : 'low'}`)
        }
      }
      t.false(ecdsa.verify(msg, { curve, publicKey: kp.publicKey, signature: high, hash, format: 'ieee-p1363', lowS: true }))
      for (const lowS of [true, false]) {
        const theirs = Buffer.from(n.sign(digest, kp.privateKey, { prehash: false, lowS }))
        t.is(ecdsa.sign(msg, { curve, privateKey: kp.privateKey, hash, format: 'ieee-p1363', lowS }).toString('hex'), theirs.toString('hex'))
      }
    }
  }
})

// The Wycheproof ECDSA verification files: every test's result, DER and P1363. Their high-S
// signatures are valid ECDSA (only the `bitcoin` file refuses them), so on secp256k1 they are
// checked with `lowS: false`, and refused with the default; the `bitcoin` file runs with the
// default.
const WYCHEPROOF = [
  ['ecdsa_secp256r1_sha256_test.json', 'p256', 'der'],
  ['ecdsa_secp256r1_sha256_p1363_test.json', 'p256', 'ieee-p1363'],
  ['ecdsa_secp256r1_sha512_test.json', 'p256', 'der'],
  ['ecdsa_secp384r1_sha384_test.json', 'p384', 'der'],
  ['ecdsa_secp384r1_sha384_p1363_test.json', 'p384', 'ieee-p1363'],
  ['ecdsa_secp521r1_sha512_test.json', 'p521', 'der'],
  ['ecdsa_secp521r1_sha512_p1363_test.json', 'p521', 'ieee-p1363'],
  ['ecdsa_secp256k1_sha256_test.json', 'secp256k1', 'der'],
  ['ecdsa_secp256k1_sha256_p1363_test.json', 'secp256k1', 'ieee-p1363'],
  ['ecdsa_secp256k1_sha256_bitcoin_test.json', 'secp256k1', 'der'],
]
for (const [file, curve, format] of WYCHEPROOF) {
  test(`Wycheproof ${file}: every verification result`, (t) => {
    const data = json(`wycheproof/${file}`)
    const bitcoin = file.includes('bitcoin')
    let count = 0
    let highValid = 0
    for (const group of data.testGroups) {
      const publicKey = hex(group.publicKey.uncompressed)
      const hash = group.sha.toLowerCase().replace('-', '')
      // The key in its DER form names the curve by itself.
      t.deepEqual(crypto.keys.export(hex(group.publicKeyDer), { format: 'raw' }), publicKey)
      for (const tc of group.tests) {
        const o = { curve, publicKey, signature: hex(tc.sig), hash, format }
        const expected = tc.result === 'valid'
        t.not(tc.result, 'acceptable', `tc ${tc.tcId}`)
        if (bitcoin) {
          t.is(ecdsa.verify(hex(tc.msg), o), expected, `tc ${tc.tcId} ${tc.comment}`)
        } else {
          t.is(ecdsa.verify(hex(tc.msg), { ...o, lowS: false }), expected, `tc ${tc.tcId} ${tc.comment}`)
          // The default: as above, except that secp256k1 refuses a valid high-S signature.
          const parts = expected && (format === 'der' ? derToP1363(hex(tc.sig), publicKey.length >> 1) : hex(tc.sig))
          const high = parts && highLow(parts, curve).high === parts
          highValid += Boolean(high)
          t.is(ecdsa.verify(hex(tc.msg), o), expected && !(high && curve === 'secp256k1'), `tc ${tc.tcId} default`)
        }
        count++
      }
    }
    t.is(count, data.numberOfTests)
    if (!bitcoin) t.true(highValid > 0, 'the file has valid high-S signatures')
  })
}

test('weak hashes: MD4/MD5 refused for signing and verifying, SHA-1 for signing, unless allowWeakHash: true', (t) => {
  const kp = ecdsa.generateKeypair('p256')
  const msg = rand(33)
  const sign = (o) => ecdsa.sign(msg, { privateKey: kp.privateKey, ...o })
  const verify = (signature, o) => ecdsa.verify(msg, { publicKey: kp.publicKey, signature, ...o })
  const refused = (hash, use) => ({ instanceOf: TypeError, code: 'ERR_INVALID_ARG_VALUE', message: new RegExp(`${hash} is refused for ${use}.*allowWeakHash: true`) })
  for (const [hash, name] of [['md4', 'md4'], ['md5', 'md5'], ['MD5', 'md5'], ['sha1', 'sha1'], ['sha-1', 'sha1']]) {
    t.throws(() => sign({ hash }), refused(name, 'signing'))
    const sig = sign({ hash, allowWeakHash: true })
    t.true(verify(sig, { hash, allowWeakHash: true }))
    if (name === 'sha1') t.true(verify(sig, { hash }), 'SHA-1 signatures still verify')
    else t.throws(() => verify(sig, { hash }), refused(name, 'verifying'))
    if (name !== 'md4') t.true(nodeCrypto.verify(name, msg, crypto.keys.import(kp.publicKey, { algorithm: 'ec', curve: 'p256' }), sig))
  }
  for (const hash of ['sha224', 'sha256', 'sha3_256', 'blake2b', 'ripemd160']) t.true(verify(sign({ hash }), { hash }), hash)
  t.throws(() => sign({ hash: 'md5', allowWeakHash: 'yes' }), { instanceOf: TypeError, code: 'ERR_INVALID_ARG_TYPE' })
  t.throws(() => verify(sign({}), { allowWeakHash: null }), { instanceOf: TypeError, code: 'ERR_INVALID_ARG_TYPE' })
  t.true(verify(sign({ allowWeakHash: false }), { allowWeakHash: false }))
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
