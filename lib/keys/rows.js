'use strict'
// The key algorithms, one row each (ALGORITHMS): OID, JWK fields, how private and public keys sit
// in PKCS#8 / SPKI / SEC1 / PKCS#1, and the native id; Ed25519, X25519, the EC curves, RSA, ML-KEM,
// X-Wing and ML-DSA. ./index.js reads and writes every container through these rows.
const native = require('../native')
const { invalidArgType, invalidArgValue } = require('../errors')
const { DerReader, TAG, der, derBits, derOctets, derOid, derSmall, derUint, invalidJwk, invalidKey } = require('./der')
const { b64u, jwkBytes } = require('./jwk')

// ---- algorithms ---------------------------------------------------------------------------

const NATIVE = new Map(native.pkAlgorithms().map((a) => [a.name, a]))

// The EC curves: name (the `curve` option), aliases, the namedCurve OID (DER content, hex), the
// JWK `crv`.
const CURVES = [
  { name: 'p256', aliases: ['secp256r1', 'prime256v1', 'p-256'], oid: '2a8648ce3d030107', jwk: 'P-256' },
  { name: 'p384', aliases: ['secp384r1', 'p-384'], oid: '2b81040022', jwk: 'P-384' },
  { name: 'p521', aliases: ['secp521r1', 'p-521'], oid: '2b81040023', jwk: 'P-521' },
  { name: 'secp256k1', aliases: [], oid: '2b8104000a', jwk: 'secp256k1' },
].map((c) => Object.freeze({ ...c, id: NATIVE.get(c.name).id, size: NATIVE.get(c.name).privateLength }))
const CURVE_BY_NAME = new Map()
for (const c of CURVES) for (const n of [c.name, ...c.aliases]) CURVE_BY_NAME.set(n, c)
const CURVE_BY_OID = new Map(CURVES.map((c) => [c.oid, c]))
const CURVE_BY_JWK = new Map(CURVES.map((c) => [c.jwk, c]))

const EC_PUBLIC_KEY_OID = '2a8648ce3d0201' // id-ecPublicKey, 1.2.840.10045.2.1

/** Reads a curve option: a name or alias, case-insensitive; `dflt` when undefined. */
function readCurve(value, name = 'curve', dflt = undefined) {
  if (value === undefined && dflt !== undefined) return CURVE_BY_NAME.get(dflt)
  if (typeof value !== 'string') throw invalidArgType(name, 'of type string', value)
  const c = CURVE_BY_NAME.get(value.toLowerCase())
  if (!c) throw invalidArgValue(name, `one of ${CURVES.map((x) => `'${x.name}'`).join(', ')}`, value)
  return c
}

// A parsed key: { alg: 'ed25519' | 'x25519' | 'ec', curve (EC), private: bool, key: Buffer
// (seed / scalar, or raw public / uncompressed SEC1 point), pub: Buffer | undefined (the public
// key of a private key, when known) }.

/**
 * The key algorithms. Each row: the native id (25519) or a curve (EC, resolved per key), the
 * PKCS#8 / SPKI framing (the OID, the AlgorithmIdentifier parameters, the private key's inner
 * encoding) and the JWK fields.
 */
const OKP = (alg, oid, jwkCrv) => ({
  alg,
  oid,
  jwkKty: 'OKP',
  jwkCrv,
  describe: () => `an ${alg === 'ed25519' ? 'Ed25519' : 'X25519'} key`,
  nativeId: () => NATIVE.get(alg).id,
  // PKCS#8 privateKey = CurvePrivateKey ::= OCTET STRING (RFC 8410); no parameters.
  fromPkcs8(params, inner, r) {
    if (params) r.fail('unexpected parameters')
    const seed = new DerReader(inner, r.name, r.what).read(TAG.OCTET_STRING)
    if (seed.length !== 32) r.fail('private key is not 32 bytes')
    return { alg, private: true, key: Buffer.from(seed) }
  },
  fromSpki(params, bits, r) {
    if (params) r.fail('unexpected parameters')
    if (bits.length !== 32) r.fail('public key is not 32 bytes')
    return { alg, private: false, key: Buffer.from(bits) }
  },
  algorithmIdentifier: () => der(TAG.SEQUENCE, derOid(oid)),
  pkcs8Inner: (k) => derOctets(k.key),
  spkiBits: (k) => k.key,
  fromJwk(jwk, name) {
    if (jwk.crv !== jwkCrv) return undefined
    const x = jwkBytes(jwk, 'x', 32, name)
    if (jwk.d === undefined) return { alg, private: false, key: x }
    const k = { alg, private: true, key: jwkBytes(jwk, 'd', 32, name) }
    if (!publicOf(k).equals(x)) throw invalidJwk(name, '"x" is not the public key of "d"')
    return k
  },
  toJwk: (k) => ({
    kty: 'OKP',
    crv: jwkCrv,
    ...(k.private ? { x: b64u(publicOf(k)), d: b64u(k.key) } : { x: b64u(k.key) }),
  }),
})

const EC = {
  alg: 'ec',
  oid: EC_PUBLIC_KEY_OID,
  jwkKty: 'EC',
  describe: (k) => `an EC key on ${k && k.curve ? k.curve.name : 'a curve'}`,
  nativeId: (k) => k.curve.id,
  curveOf(params, r) {
    if (!params) r.fail('missing curve parameters')
    const p = new DerReader(params, r.name, r.what)
    const oid = p.read(TAG.OID).toString('hex')
    p.end()
    const curve = CURVE_BY_OID.get(oid)
    if (!curve) throw invalidKey(r.name, r.what, `Unsupported curve OID ${oid}`)
    return curve
  },
  // PKCS#8 privateKey = ECPrivateKey (SEC1 C.4); the curve is in the AlgorithmIdentifier.
  fromPkcs8(params, inner, r) {
    return ecPrivateKey(new DerReader(inner, r.name, r.what), EC.curveOf(params, r))
  },
  fromSpki(params, bits, r) {
    const curve = EC.curveOf(params, r)
    return { alg: 'ec', curve, private: false, key: point(curve, bits, r.name) }
  },
  algorithmIdentifier: (k) => der(TAG.SEQUENCE, derOid(EC_PUBLIC_KEY_OID), derOid(k.curve.oid)),
  pkcs8Inner: (k) => sec1PrivateKey(k, false),
  spkiBits: (k) => k.key,
  fromJwk(jwk, name) {
    const curve = CURVE_BY_JWK.get(jwk.crv)
    if (!curve) return undefined
    const q = Buffer.concat([Buffer.from([4]), jwkBytes(jwk, 'x', curve.size, name), jwkBytes(jwk, 'y', curve.size, name)])
    let pub
    try {
      pub = point(curve, q, name)
    } catch {
      throw invalidJwk(name, `(x, y) is not a point on ${curve.name}`)
    }
    if (jwk.d === undefined) return { alg: 'ec', curve, private: false, key: pub }
    const k = { alg: 'ec', curve, private: true, key: jwkBytes(jwk, 'd', curve.size, name) }
    if (!publicOf(k).equals(pub)) throw invalidJwk(name, '(x, y) is not the public key of "d"')
    return k
  },
  toJwk(k) {
    const q = publicOf(k)
    const n = k.curve.size
    const out = { kty: 'EC', crv: k.curve.jwk, x: b64u(q.subarray(1, 1 + n)), y: b64u(q.subarray(1 + n)) }
    if (k.private) out.d = b64u(k.key)
    return out
  },
}

// RSA (rsaEncryption, 1.2.840.113549.1.1.1, NULL parameters): the native form of both keys is
// their PKCS#1 DER (RSAPrivateKey with CRT values / RSAPublicKey), which is also the PKCS#8
// privateKey and the SPKI subjectPublicKey. Keys are parsed and checked natively (AWS-LC,
// RSA_check_key) once, and the handle is kept on the parsed key (src/pk/rsa.rs).
const RSA_OID = '2a864886f70d010101'
const RSA_INTS = ['n', 'e', 'd', 'p', 'q', 'dp', 'dq', 'qi']

/** The INTEGERs of a PKCS#1 key (version dropped): [n, e] or [n, e, d, p, q, dp, dq, qi]. */
function rsaInts(buf, name, what) {
  const r = new DerReader(buf, name, what)
  const s = r.sub(TAG.SEQUENCE)
  r.end()
  const ints = []
  while (!s.done()) ints.push(s.uint())
  if (ints.length === 9) {
    if (ints[0].length !== 1 || ints[0][0] !== 0) s.fail('RSAPrivateKey version is not 0 (multi-prime keys are not supported)')
    return ints.slice(1)
  }
  if (ints.length !== 2) s.fail('not a PKCS#1 RSAPrivateKey or RSAPublicKey')
  return ints
}

/** A parsed RSA key from its PKCS#1 DER, checked natively. */
function rsaKey(buf, isPrivate, r) {
  const ints = rsaInts(buf, r.name, r.what)
  if ((ints.length === 8) !== isPrivate) r.fail(`expected an RSA${isPrivate ? 'PrivateKey' : 'PublicKey'}`)
  const key = Buffer.from(buf)
  return { alg: 'rsa', private: isPrivate, key, handle: native.rsaKey(key, isPrivate, r.name) }
}

const RSA = {
  alg: 'rsa',
  oid: RSA_OID,
  jwkKty: 'RSA',
  describe: () => 'an RSA key',
  fromPkcs1: (buf, r) => rsaKey(buf, rsaInts(buf, r.name, r.what).length === 8, r),
  fromPkcs8(params, inner, r) {
    if (params) r.fail('unexpected parameters')
    return rsaKey(inner, true, r)
  },
  fromSpki(params, bits, r) {
    if (params) r.fail('unexpected parameters')
    return rsaKey(bits, false, r)
  },
  algorithmIdentifier: () => der(TAG.SEQUENCE, derOid(RSA_OID), [TAG.NULL, 0]),
  pkcs8Inner: (k) => k.key,
  spkiBits: (k) => k.key,
  publicOf(k) {
    const [n, e] = rsaInts(k.key, 'key', 'an RSA key')
    const key = der(TAG.SEQUENCE, derUint(n), derUint(e))
    return key
  },
  fromJwk(jwk, name) {
    if (jwk.oth !== undefined) throw invalidJwk(name, 'multi-prime RSA keys ("oth") are not supported')
    const isPrivate = jwk.d !== undefined
    const fields = isPrivate ? RSA_INTS : RSA_INTS.slice(0, 2)
    const ints = fields.map((f) => {
      const v = jwk[f]
      if (v === undefined && isPrivate) throw invalidJwk(name, `"${f}" is missing (private RSA JWKs need n, e, d, p, q, dp, dq, qi)`)
      if (typeof v !== 'string' || v.length === 0 || !/^[A-Za-z0-9_-]*$/.test(v) || v.length % 4 === 1) {
        throw invalidJwk(name, `"${f}" must be a base64url string`)
      }
      return Buffer.from(v, 'base64url')
    })
    const body = isPrivate ? [derSmall(0), ...ints.map(derUint)] : ints.map(derUint)
    return rsaKey(der(TAG.SEQUENCE, ...body), isPrivate, new DerReader(Buffer.alloc(0), name, 'an RSA JWK'))
  },
  toJwk(k) {
    const ints = rsaInts(k.key, 'key', 'an RSA key')
    const out = { kty: 'RSA' }
    ;(k.private ? RSA_INTS : RSA_INTS.slice(0, 2)).forEach((f, i) => (out[f] = b64u(ints[i])))
    return out
  },
}

// ---- fixed-length keys (shared: ML-KEM and X-Wing here; ML-DSA fits the same codec) ---------
// An algorithm whose SPKI subjectPublicKey is the raw public key of `publicLength` bytes, whose
// AlgorithmIdentifier is its OID with no parameters, and whose PKCS#8 privateKey content is read
// and written by `readPrivate(inner, r)` / `writePrivate(key)`. Raw private keys are any of
// `privateLengths` (a seed, an expanded key), raw public keys `publicLength` bytes: the lengths
// say which is which. `checkPublic(bits)` validates an imported public key; `publicOf(k)`
// computes the public key of a private one. No JWK form. `keyObjectType`: node's
// asymmetricKeyType, for the error where this Node.js has no KeyObjects of the type.
const FIXED = ({ alg, oid, describe, publicLength, privateLengths, readPrivate, writePrivate, checkPublic, publicOf, keyObjectType }) => ({
  alg,
  oid,
  describe: () => describe,
  publicLength,
  privateLengths,
  keyObjectType,
  fromPkcs8(params, inner, r) {
    if (params) r.fail('unexpected parameters')
    return { alg, private: true, key: readPrivate(inner, r) }
  },
  fromSpki(params, bits, r) {
    if (params) r.fail('unexpected parameters')
    if (bits.length !== publicLength) r.fail(`public key is not ${publicLength} bytes`)
    checkPublic(bits)
    return { alg, private: false, key: Buffer.from(bits) }
  },
  algorithmIdentifier: () => der(TAG.SEQUENCE, derOid(oid)),
  pkcs8Inner: (k) => writePrivate(k.key),
  spkiBits: (k) => k.key,
  publicOf,
  toJwk() {
    throw invalidArgValue('options.format', `'raw', 'der', 'pem' or 'keyobject' (${describe} keys have no JWK form)`, 'jwk')
  },
})

// ---- ML-KEM (FIPS 203) and X-Wing: rows of the fixed-length codec -----------------------------
// ML-KEM keys as IETF LAMPS draft-ietf-lamps-kyber-certificates has them: OIDs
// 2.16.840.1.101.3.4.4.1/2/3, PKCS#8 privateKey = ML-KEM-PrivateKey ::= CHOICE { seed [0]
// IMPLICIT OCTET STRING (64), expandedKey OCTET STRING, both SEQUENCE { seed, expandedKey } },
// written as `seed` (or `expandedKey` for a key held only expanded), read in all three forms
// (`both` checked for consistency, `expandedKey` by the FIPS 203 hash check). X-Wing
// (draft-connolly-cfrg-xwing-kem-10 §5.8): OID 1.3.6.1.4.1.62253.25722, the privateKey OCTET
// STRING holds the 32-byte key itself. The native side (src/pk/kem.rs) lists the KEMs; this
// table adds their key encodings, by native name.
const KEM_KEYS = {
  'ML-KEM-512': { alg: 'ml-kem-512', oid: '608648016503040401' },
  'ML-KEM-768': { alg: 'ml-kem-768', oid: '608648016503040402' },
  'ML-KEM-1024': { alg: 'ml-kem-1024', oid: '608648016503040403' },
  'X-Wing': { alg: 'x-wing', oid: '2b0601040183e62d81c87a' },
}
const KEMS = native.kemAlgorithms().map((n) => Object.freeze({ ...n, ...KEM_KEYS[n.name] }))

// The private key CHOICE that ML-KEM (draft-ietf-lamps-kyber-certificates) and ML-DSA (RFC 9881)
// PKCS#8 share: seed [0] IMPLICIT OCTET STRING, expandedKey OCTET STRING, or both SEQUENCE { seed,
// expandedKey }.
const SEED_TAG = 0x80

/**
 * The CHOICE above as `{ seed }` or `{ expanded, checked }`. `s`: { seedLength, expandedLength,
 * expandedOf(seed) (the expanded key of a seed), check(expanded) (throws unless it is a valid
 * expanded key; what it returns is `checked`) }. `both` is read as its seed once its halves
 * agree (compared in constant time: both are secret, and a stored key's expanded half could be
 * edited to probe the other).
 */
function readSeedOrExpanded(inner, r, s) {
  const p = new DerReader(inner, r.name, r.what)
  const seedOf = (seed) => {
    if (seed.length !== s.seedLength) r.fail(`seed is not ${s.seedLength} bytes`)
    return Buffer.from(seed)
  }
  const lengthChecked = (e) => {
    if (e.length !== s.expandedLength) r.fail(`expandedKey is not ${s.expandedLength} bytes`)
    return e
  }
  let out
  if (p.peek() === SEED_TAG) {
    out = { seed: seedOf(p.read(SEED_TAG)) }
  } else if (p.peek() === TAG.OCTET_STRING) {
    const expanded = Buffer.from(lengthChecked(p.read(TAG.OCTET_STRING)))
    out = { expanded, checked: s.check(expanded) }
  } else {
    const both = p.sub(TAG.SEQUENCE)
    const seed = seedOf(both.read(TAG.OCTET_STRING))
    const expanded = lengthChecked(both.read(TAG.OCTET_STRING))
    both.end()
    const derived = s.expandedOf(seed)
    const agree = native.timingSafeEqual(derived, expanded)
    derived.fill(0) // secret, and ours: not left for the collector
    if (!agree) r.fail('the seed and the expanded key disagree')
    out = { seed }
  }
  p.end()
  return out
}

/** The ML-KEM-PrivateKey CHOICE (or X-Wing's bare key) of PKCS#8 as the native private key. */
function kemReadPrivate(kem, inner, r) {
  if (kem.expandedLength === 0) {
    if (inner.length !== kem.seedLength) r.fail(`private key is not ${kem.seedLength} bytes`)
    return Buffer.from(inner)
  }
  const k = readSeedOrExpanded(inner, r, {
    seedLength: kem.seedLength,
    expandedLength: kem.expandedLength,
    expandedOf: (seed) => native.kemGenerate(kem.id, seed, true)[0],
    check: (dk) => native.kemPublic(kem.id, dk), // the FIPS 203 hash check
  })
  return k.seed || k.expanded
}

const KEM_ROWS = KEMS.map((kem) =>
  FIXED({
    alg: kem.alg,
    oid: kem.oid,
    describe: `an ${kem.name} key`,
    publicLength: kem.publicLength,
    privateLengths: [kem.seedLength, kem.expandedLength].filter((n) => n > 0),
    readPrivate: (inner, r) => kemReadPrivate(kem, inner, r),
    writePrivate: (key) =>
      kem.expandedLength === 0 ? Buffer.from(key) : key.length === kem.seedLength ? der(SEED_TAG, key) : derOctets(key),
    checkPublic: (bits) => native.kemCheckPublic(kem.id, bits),
    publicOf: (k) => native.kemPublic(kem.id, k.key),
    keyObjectType: kem.alg,
  }),
)


// ---- ML-DSA (FIPS 204) ---------------------------------------------------------------------
// One row per parameter set of the native table (src/pk/mldsa.rs). RFC 9881: OIDs id-ml-dsa-44/65/87
// (2.16.840.1.101.3.4.3.17/18/19), parameters absent; the SPKI subjectPublicKey is the raw public
// key; the PKCS#8 privateKey is ML-DSA-PrivateKey ::= CHOICE { seed [0] IMPLICIT OCTET STRING (32),
// expandedKey OCTET STRING, both SEQUENCE { seed, expandedKey } }, written as `seed` (or
// `expandedKey` for a key known only expanded), all three read (`both` checked for consistency).
// JWK: kty "AKP", alg "ML-DSA-65", pub, priv = the seed (draft-ietf-cose-dilithium, as node).
// A parsed private key: { alg, private: true, key: the seed, or the expanded key when the seed is
// unknown, seed? (= key), forms? ({ publicKey }, from native mldsaKeys, computed once; an expanded
// key is checked whole there), prepared? (the native signing handle, `preparedKey`) }. The
// expanded form of a seed is not kept in JS: signing expands it natively (lib/mldsa.js).
const MLDSA_SETS = native.mldsaSets()

/** The public key of a parsed ML-DSA private key (native, once per key). */
function mldsaPublic(k) {
  if (!k.forms) k.forms = { publicKey: native.mldsaKeys(NATIVE_MLDSA.get(k.alg).id, k.key).publicKey }
  return k.forms.publicKey
}

const MLDSA = (set) => {
  const alg = set.name
  const oid = set.oid
  const jwkAlg = alg.toUpperCase()
  const privateKey = (bytes, isSeed) => {
    const key = Buffer.from(bytes)
    return { alg, private: true, key, seed: isSeed ? key : undefined }
  }
  const row = {
    alg,
    oid,
    jwkKty: 'AKP',
    keyObjectType: alg, // node's asymmetricKeyType: 'ml-dsa-65' (Node >= 24.7 with OpenSSL 3.5)
    describe: () => `an ${jwkAlg} key`,
    // Raw keys: the seed or the expanded key (private), the public key, told apart by length.
    rawWhat: `a ${set.seedLength}-byte seed or ${set.expandedLength}-byte expanded ${jwkAlg} private key, a ${set.publicLength}-byte public key`,
    fromRaw(buf) {
      if (buf.length === set.seedLength) return privateKey(buf, true)
      if (buf.length === set.expandedLength) return privateKey(buf, false)
      if (buf.length === set.publicLength) return { alg, private: false, key: Buffer.from(buf) }
      return undefined
    },
    fromPkcs8(params, inner, r) {
      if (params) r.fail('unexpected parameters')
      const k = readSeedOrExpanded(inner, r, {
        seedLength: set.seedLength,
        expandedLength: set.expandedLength,
        expandedOf: (seed) => native.mldsaKeys(set.id, seed).expanded,
        // Checked whole (s1/s2 in range, t0 and tr consistent); the public key it gives is kept.
        check: (expanded) => ({ publicKey: native.mldsaKeys(set.id, expanded).publicKey }),
      })
      return k.seed ? privateKey(k.seed, true) : { ...privateKey(k.expanded, false), forms: k.checked }
    },
    fromSpki(params, bits, r) {
      if (params) r.fail('unexpected parameters')
      if (bits.length !== set.publicLength) r.fail(`${jwkAlg} public key is not ${set.publicLength} bytes`)
      return { alg, private: false, key: Buffer.from(bits) }
    },
    algorithmIdentifier: () => der(TAG.SEQUENCE, derOid(oid)),
    pkcs8Inner: (k) => (k.seed ? der(SEED_TAG, k.seed) : derOctets(k.key)),
    spkiBits: (k) => k.key,
    publicOf: (k) => mldsaPublic(k),
    fromJwk(jwk, name) {
      if (jwk.alg !== jwkAlg) return undefined
      const pub = jwkBytes(jwk, 'pub', set.publicLength, name)
      if (jwk.priv === undefined) return { alg, private: false, key: pub }
      const seed = jwkBytes(jwk, 'priv', set.seedLength, name)
      const k = privateKey(seed, true)
      if (!publicOf(k).equals(pub)) throw invalidJwk(name, '"pub" is not the public key of "priv"')
      return k
    },
    toJwk(k) {
      if (k.private && !k.seed) throw invalidArgValue('options.format', `a form that holds expanded ${jwkAlg} keys (a JWK holds the seed)`, 'jwk')
      const out = { kty: 'AKP', alg: jwkAlg, pub: b64u(publicOf(k)) }
      if (k.private) out.priv = b64u(k.seed)
      return out
    },
  }
  return row
}
// Each set's id-ml-dsa-* OID is in its native row.
const MLDSA_ROWS = MLDSA_SETS.map(MLDSA)
const NATIVE_MLDSA = new Map(MLDSA_SETS.map((s) => [s.name, s]))

const ALGORITHMS = [OKP('ed25519', '2b6570', 'Ed25519'), OKP('x25519', '2b656e', 'X25519'), EC, RSA, ...KEM_ROWS, ...MLDSA_ROWS]
const BY_ALG = new Map(ALGORITHMS.map((a) => [a.alg, a]))
const BY_OID = new Map(ALGORITHMS.map((a) => [a.oid, a]))

/** ECPrivateKey ::= SEQUENCE { version 1, privateKey OCTET STRING, [0] curve OPTIONAL, [1] publicKey OPTIONAL }. */
function ecPrivateKey(r, curve) {
  const s = r.sub(TAG.SEQUENCE)
  r.end()
  if (s.small() !== 1) s.fail('ECPrivateKey version is not 1')
  const d = s.read(TAG.OCTET_STRING)
  const params = s.optional(0)
  const pubBits = s.optional(1)
  s.end()
  if (params) {
    const named = EC.curveOf(params, s)
    if (curve && named !== curve) s.fail('the curve parameters disagree')
    curve = named
  }
  if (!curve) s.fail('ECPrivateKey without curve parameters')
  // Some encoders drop leading zero bytes of the scalar: pad back to the curve's length.
  if (d.length > curve.size || d.length === 0) s.fail(`private key is not ${curve.size} bytes`)
  const key = Buffer.alloc(curve.size)
  d.copy(key, curve.size - d.length)
  const k = { alg: 'ec', curve, private: true, key }
  if (pubBits) {
    const p = new DerReader(pubBits, r.name, r.what)
    const bits = p.bitString()
    p.end()
    if (!point(curve, bits, r.name).equals(publicOf(k))) s.fail('the public key is not that of the private key')
  }
  return k
}

function sec1PrivateKey(k, withCurve) {
  const pub = der(0xa1, derBits(publicOf(k)))
  return der(TAG.SEQUENCE, derSmall(1), derOctets(k.key), ...(withCurve ? [der(0xa0, derOid(k.curve.oid))] : []), pub)
}

/** A validated EC public key as an uncompressed point (native: on the curve, not infinity). */
function point(curve, bytes, name) {
  const n = curve.size
  const ok = (bytes[0] === 4 && bytes.length === 1 + 2 * n) || ((bytes[0] === 2 || bytes[0] === 3) && bytes.length === 1 + n)
  if (!ok) {
    throw invalidKey(name, `a SEC1 ${curve.name} public key (${1 + 2 * n} or ${1 + n} bytes)`, `Received ${bytes.length} bytes`)
  }
  return native.pkPoint(curve.id, bytes, false)
}

/** The public key of a parsed key (computed once for a private key). */
function publicOf(k) {
  if (!k.private) return k.key
  const a = BY_ALG.get(k.alg)
  if (!k.pub) k.pub = a.publicOf ? a.publicOf(k) : native.pkPublic(a.nativeId(k), k.key)
  return k.pub
}

// ---- canonical Curve25519 encodings ---------------------------------------------------------

/** True when 32 bytes are the one encoding of an X25519 public key: u < p, top bit clear (RFC 7748 §5). */
const x25519Canonical = (bytes) => native.pkCanonicalPublic(NATIVE.get('x25519').id, bytes)

/** True when 32 bytes are the one encoding of an Ed25519 point (RFC 8032 §5.1.3: y < p, on the curve, x = 0 unsigned). */
const ed25519Canonical = (bytes) => native.pkCanonicalPublic(NATIVE.get('ed25519').id, bytes)

module.exports = { ALGORITHMS, BY_ALG, BY_OID, CURVES, KEMS, KEM_ROWS, MLDSA_SETS, NATIVE, RSA, ecPrivateKey, ed25519Canonical, point, publicOf, readCurve, rsaInts, sec1PrivateKey, x25519Canonical }
