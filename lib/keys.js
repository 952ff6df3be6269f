'use strict'
// crypto.keys and the key layer of every public-key function: the ONE place where keys are
// parsed and produced, in every form (raw, SEC1, DER PKCS#8 / SPKI / SEC1 / PKCS#1, PEM, JWK,
// node:crypto KeyObject and CryptoKey).
//
// Why here, in JavaScript, and not in Rust: two of the forms exist only as JS values (a KeyObject
// can be turned into bytes only by calling its `export()`, a JWK is an object), PEM is text whose
// base64 Buffer decodes natively, and the DER structures are a few hundred bytes, so parsing them
// costs nothing next to the signature. Native code then sees exactly one canonical form per
// algorithm (src/pk/mod.rs): 32-byte Ed25519 / X25519 keys, EC private scalars and SEC1 points,
// which it validates (on the curve, in range). Everything is bounded before any work: at most
// MAX_KEY_BYTES of DER (MAX_PEM_CHARS of PEM), lengths checked before copies, DER strictly
// definite and minimal.
//
// One table (ALGORITHMS below) says what each key algorithm's encodings are: its OID, its JWK
// fields, how its private and public keys sit in PKCS#8 / SPKI. RSA (part 2) is one more row: its
// PKCS#8/SPKI/PKCS#1 framing and JWK fields plug into the same reader, writer and dispatch; ML-DSA
// is one row per parameter set (with `fromRaw`: raw keys told apart by their length).
const nodeCrypto = require('crypto')
const native = require('./native')
const { BYTES, coded, describe, invalidArgType, invalidArgValue } = require('./errors')
const { checkOptions } = require('./options')

const MAX_KEY_BYTES = 16 * 1024
const MAX_PEM_CHARS = 24 * 1024

// ---- errors -------------------------------------------------------------------------------

const invalidKeyType = (name, expected, got) =>
  coded(TypeError, 'ERR_CRYPTO_INVALID_KEY_TYPE', `The "${name}" argument must be ${expected}. Received ${got}`)
const invalidKey = (name, expected, detail) =>
  coded(TypeError, 'ERR_INVALID_ARG_VALUE', `The argument "${name}" is invalid: expected ${expected}. ${detail}`)
const invalidJwk = (name, detail) => coded(TypeError, 'ERR_CRYPTO_INVALID_JWK', `Invalid JWK in "${name}": ${detail}`)

// ---- DER ----------------------------------------------------------------------------------

const TAG = { INTEGER: 0x02, BIT_STRING: 0x03, OCTET_STRING: 0x04, NULL: 0x05, OID: 0x06, SEQUENCE: 0x30 }

/** A strict DER reader over `buf` (definite, minimal lengths; every read bounds-checked). */
class DerReader {
  constructor(buf, name, what) {
    this.buf = buf
    this.pos = 0
    this.name = name
    this.what = what
  }

  fail(detail) {
    throw invalidKey(this.name, this.what, `Malformed DER: ${detail}`)
  }

  done() {
    return this.pos >= this.buf.length
  }

  peek() {
    return this.done() ? -1 : this.buf[this.pos]
  }

  /** The content of the next element, which must have tag `tag`. */
  read(tag) {
    const b = this.buf
    if (this.pos + 2 > b.length) this.fail('truncated')
    if (b[this.pos] !== tag) this.fail(`expected tag 0x${tag.toString(16)}, got 0x${b[this.pos].toString(16)}`)
    let len = b[this.pos + 1]
    let at = this.pos + 2
    if (len & 0x80) {
      const n = len & 0x7f
      if (n === 0 || n > 2) this.fail('unsupported length')
      if (at + n > b.length) this.fail('truncated')
      len = n === 1 ? b[at] : (b[at] << 8) | b[at + 1]
      if (len < 0x80 || (n === 2 && len < 0x100)) this.fail('non-minimal length')
      at += n
    }
    if (at + len > b.length) this.fail('truncated')
    this.pos = at + len
    return b.subarray(at, at + len)
  }

  /** An optional context-specific constructed element [n]: its content, or undefined. */
  optional(n) {
    return this.peek() === (0xa0 | n) ? this.read(0xa0 | n) : undefined
  }

  /** A non-negative INTEGER's magnitude (minimal encoding required). */
  uint() {
    const v = this.read(TAG.INTEGER)
    if (v.length === 0 || v[0] & 0x80) this.fail('negative or empty INTEGER')
    if (v.length > 1 && v[0] === 0 && !(v[1] & 0x80)) this.fail('non-minimal INTEGER')
    return v[0] === 0 && v.length > 1 ? v.subarray(1) : v
  }

  small() {
    const v = this.uint()
    if (v.length > 1) this.fail('INTEGER too large')
    return v[0]
  }

  bitString() {
    const v = this.read(TAG.BIT_STRING)
    if (v.length === 0 || v[0] !== 0) this.fail('BIT STRING with unused bits')
    return v.subarray(1)
  }

  sub(tag) {
    return new DerReader(this.read(tag), this.name, this.what)
  }

  end() {
    if (!this.done()) this.fail('trailing bytes')
  }
}

function derLength(n) {
  if (n < 0x80) return [n]
  if (n < 0x100) return [0x81, n]
  return [0x82, n >> 8, n & 0xff]
}

/** DER element `tag` around the concatenated `parts` (Buffers or byte arrays). */
function der(tag, ...parts) {
  const body = Buffer.concat(parts.map((p) => (Buffer.isBuffer(p) ? p : Buffer.from(p))))
  return Buffer.concat([Buffer.from([tag, ...derLength(body.length)]), body])
}

const derUint = (v) => {
  let i = 0
  while (i < v.length - 1 && v[i] === 0) i++
  v = v.subarray(i)
  return der(TAG.INTEGER, v[0] & 0x80 ? Buffer.concat([Buffer.from([0]), v]) : v)
}
const derOid = (hex) => der(TAG.OID, Buffer.from(hex, 'hex'))
const derBits = (v) => der(TAG.BIT_STRING, [0], v)
const derOctets = (v) => der(TAG.OCTET_STRING, v)
const derSmall = (n) => der(TAG.INTEGER, [n])

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
    const agree = nodeCrypto.timingSafeEqual(derived, expanded)
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

const MLDSA = (set, oidLast) => {
  const alg = set.name
  const oid = `6086480165030403${oidLast}`
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
// The id-ml-dsa-* OIDs end in 0x11, 0x12, 0x13, in the order of the native table.
const MLDSA_ROWS = MLDSA_SETS.map((set, i) => MLDSA(set, (0x11 + i).toString(16)))
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

// ---- DER containers -------------------------------------------------------------------------

const ALG_ID_WHAT = 'a PKCS#8, SPKI or SEC1 DER key'

function algorithmIdentifier(r) {
  const a = r.sub(TAG.SEQUENCE)
  const oid = a.read(TAG.OID).toString('hex')
  let params
  if (!a.done()) {
    const start = a.pos
    a.read(a.peek())
    params = a.buf.subarray(start, a.pos)
    if (params.length === 2 && params[0] === TAG.NULL) params = undefined
  }
  a.end()
  const alg = BY_OID.get(oid)
  if (!alg) throw invalidKey(r.name, r.what, `Unsupported key algorithm OID ${oid}`)
  return { alg, params }
}

/** A DER key: PKCS#8 (v1 or v2), SPKI, or SEC1 ECPrivateKey, told apart by their structure. */
function parseDer(buf, name) {
  if (buf.length > MAX_KEY_BYTES) throw invalidKey(name, ALG_ID_WHAT, `Received ${buf.length} bytes (at most ${MAX_KEY_BYTES})`)
  const r = new DerReader(buf, name, ALG_ID_WHAT)
  const top = new DerReader(buf, name, ALG_ID_WHAT)
  const s = r.sub(TAG.SEQUENCE)
  r.end()
  if (s.peek() === TAG.SEQUENCE) {
    // SubjectPublicKeyInfo ::= SEQUENCE { algorithm AlgorithmIdentifier, subjectPublicKey BIT STRING }
    const { alg, params } = algorithmIdentifier(s)
    const bits = s.bitString()
    s.end()
    return alg.fromSpki(params, bits, s)
  }
  // PKCS#1 (RSAPublicKey / RSAPrivateKey): INTEGERs only (PKCS#8 and SEC1 have a SEQUENCE or
  // an OCTET STRING second).
  const probe = new DerReader(s.buf, name, ALG_ID_WHAT)
  probe.pos = s.pos
  probe.read(TAG.INTEGER)
  if (probe.peek() === TAG.INTEGER) return RSA.fromPkcs1(buf, top)
  const version = s.small()
  if (s.peek() === TAG.OCTET_STRING && version === 1) return ecPrivateKey(top, undefined) // SEC1
  // OneAsymmetricKey ::= SEQUENCE { version 0|1, algorithm, privateKey OCTET STRING,
  //   [0] attributes OPTIONAL, [1] publicKey OPTIONAL (v2 only) }
  if (version > 1) s.fail('unsupported PKCS#8 version')
  const { alg, params } = algorithmIdentifier(s)
  const inner = s.read(TAG.OCTET_STRING)
  s.optional(0)
  const pubBits = version === 1 ? s.peek() === 0x81 && s.read(0x81) : undefined
  s.end()
  const k = alg.fromPkcs8(params, inner, s)
  if (pubBits) {
    if (pubBits.length === 0 || pubBits[0] !== 0) s.fail('bad publicKey BIT STRING')
    const pub = alg.fromSpki(params, pubBits.subarray(1), s)
    if (!pub.key.equals(publicOf(k))) s.fail('the public key is not that of the private key')
  }
  return k
}

/** PKCS#8 (v1, as node:crypto writes it) or SPKI for a parsed key. */
function toDer(k, type) {
  const a = BY_ALG.get(k.alg)
  if (type === 'spki') return der(TAG.SEQUENCE, a.algorithmIdentifier(k), derBits(a.spkiBits({ ...k, key: publicOf(k) })))
  if (type === 'sec1') return sec1PrivateKey(k, true)
  if (type === 'pkcs1') return k.private ? Buffer.from(k.key) : publicOf(k)
  return der(TAG.SEQUENCE, derSmall(0), a.algorithmIdentifier(k), derOctets(a.pkcs8Inner(k)))
}

// ---- PEM ------------------------------------------------------------------------------------

const PEM_LABELS = { pkcs8: 'PRIVATE KEY', spki: 'PUBLIC KEY', sec1: 'EC PRIVATE KEY' }
// PKCS#1 (RSA): the label says private or public.
const PKCS1_LABELS = { true: 'RSA PRIVATE KEY', false: 'RSA PUBLIC KEY' }
const pemLabel = (type, isPrivate) => (type === 'pkcs1' ? PKCS1_LABELS[isPrivate] : PEM_LABELS[type])
// The BEGIN line, non-empty base64 lines, the END line, each ended by LF or CRLF (RFC 7468 §2;
// OpenSSL refuses an END line that follows the base64 on the same line, and empty lines in the
// base64).
const PEM_RE = /^-----BEGIN ([A-Z0-9 ]+)-----\r?\n((?:[A-Za-z0-9+/=]+\r?\n)*)-----END \1-----\s*$/

/**
 * The label and bytes of a PEM text (RFC 7468), its length bounded before any work. Shared by the
 * key forms below and crypto.hybrid's own labels.
 */
function unarmor(text, name) {
  if (text.length > MAX_PEM_CHARS) throw invalidKey(name, 'a PEM key', `Received ${text.length} characters (at most ${MAX_PEM_CHARS})`)
  const m = PEM_RE.exec(text.trim())
  if (!m) throw invalidKey(name, 'a PEM key (a -----BEGIN ...----- line, base64 lines, an -----END ...----- line)', 'Malformed PEM')
  const body = m[2].replace(/\r?\n/g, '')
  if (body.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(body)) throw invalidKey(name, 'a PEM key', 'Malformed base64')
  return { label: m[1], bytes: Buffer.from(body, 'base64') }
}

/** `bytes` as PEM under `label`, 64 base64 characters a line. */
function armor(bytes, label) {
  const b64 = Buffer.from(bytes).toString('base64').replace(/.{64}/g, '$&\n').replace(/\n$/, '')
  return `-----BEGIN ${label}-----\n${b64}\n-----END ${label}-----\n`
}

function parsePem(text, name) {
  const { label, bytes } = unarmor(text, name)
  if (label === 'ENCRYPTED PRIVATE KEY') {
    throw invalidKey(name, 'an unencrypted key', 'Encrypted PEM: decrypt it with node:crypto createPrivateKey({ key, passphrase }) and pass the KeyObject')
  }
  const labels = [...Object.values(PEM_LABELS), ...Object.values(PKCS1_LABELS)]
  if (!labels.includes(label)) throw invalidKey(name, `a PEM ${labels.join(' / ')}`, `Received label "${label}"`)
  const k = parseDer(bytes, name)
  const expected =
    label === 'PUBLIC KEY' ? !k.private
    : label === 'EC PRIVATE KEY' ? k.private && k.alg === 'ec'
    : label === PKCS1_LABELS.true ? k.private && k.alg === 'rsa'
    : label === PKCS1_LABELS.false ? !k.private && k.alg === 'rsa'
    : k.private
  if (!expected) throw invalidKey(name, `the structure the label "${label}" names`, 'The PEM label and its content disagree')
  return k
}

const toPem = (derBuf, type, isPrivate) => armor(derBuf, pemLabel(type, isPrivate))

// ---- JWK ------------------------------------------------------------------------------------

const b64u = (b) => Buffer.from(b).toString('base64url')

function jwkBytes(jwk, field, len, name) {
  const v = jwk[field]
  if (typeof v !== 'string' || !/^[A-Za-z0-9_-]*$/.test(v) || v.length % 4 === 1) {
    throw invalidJwk(name, `"${field}" must be a base64url string`)
  }
  const b = Buffer.from(v, 'base64url')
  if (b.length !== len) throw invalidJwk(name, `"${field}" must be ${len} bytes, got ${b.length}`)
  return b
}

function parseJwk(jwk, name) {
  const alg = ALGORITHMS.find((a) => a.jwkKty === jwk.kty)
  if (!alg) throw invalidJwk(name, `unsupported "kty" ${JSON.stringify(jwk.kty)}`)
  const k = ALGORITHMS.filter((a) => a.jwkKty === jwk.kty).reduce((found, a) => found || a.fromJwk(jwk, name), undefined)
  const by = jwk.kty === 'AKP' ? 'alg' : 'crv'
  if (!k) throw invalidJwk(name, `unsupported "${by}" ${JSON.stringify(jwk[by])}`)
  return k
}

// ---- any input ------------------------------------------------------------------------------

const KEY_INPUT = `a Buffer, TypedArray, DataView or ArrayBuffer, a PEM string, a JWK object or a KeyObject`
const fromKeyObject = new WeakMap()

function asBuffer(v) {
  if (Buffer.isBuffer(v)) return v
  if (ArrayBuffer.isView(v)) return Buffer.from(v.buffer, v.byteOffset, v.byteLength)
  if (v instanceof ArrayBuffer || (typeof SharedArrayBuffer !== 'undefined' && v instanceof SharedArrayBuffer)) return Buffer.from(v)
  return undefined
}

function parseKeyObject(ko, name) {
  let k = fromKeyObject.get(ko)
  if (k) return k
  if (ko.type === 'secret') throw invalidKeyType(name, 'an asymmetric key', 'a secret KeyObject')
  const derBuf = ko.type === 'private' ? ko.export({ format: 'der', type: 'pkcs8' }) : ko.export({ format: 'der', type: 'spki' })
  k = parseDer(derBuf, name)
  fromKeyObject.set(ko, k)
  return k
}

/**
 * Raw bytes in the default form of `want` (see `parseKey`): 32 bytes for Ed25519/X25519, a
 * scalar or a SEC1 point for EC; anything starting with a DER SEQUENCE is parsed as DER.
 */
function parseBytes(buf, want, name) {
  if (want.alg === 'rsa') return parseDer(buf, name)
  const row = BY_ALG.get(want.alg)
  if (row && row.privateLengths) return fixedBytes(row, buf, want, name)
  if (row && row.fromRaw) {
    const k = row.fromRaw(buf)
    if (k) return k
    if (buf[0] === TAG.SEQUENCE && buf.length > 32) return parseDer(buf, name)
    throw invalidKey(name, `${row.rawWhat}, or a DER key`, `Received ${buf.length} bytes`)
  }
  if (want.alg === 'ec' && want.curve) {
    const c = want.curve
    if (buf.length === c.size && want.private) return { alg: 'ec', curve: c, private: true, key: Buffer.from(buf) }
    if ([2, 3, 4].includes(buf[0]) && (buf.length === 1 + c.size || buf.length === 1 + 2 * c.size)) {
      return { alg: 'ec', curve: c, private: false, key: point(c, buf, name) }
    }
  } else if (buf.length === 32) {
    return { alg: want.alg, private: want.private, key: Buffer.from(buf) }
  }
  if (buf[0] === TAG.SEQUENCE && buf.length > 32) return parseDer(buf, name)
  if (want.alg === 'ec' && !want.curve) throw invalidKey(name, 'a DER key', `Received ${buf.length} bytes`)
  const raw = want.alg === 'ec'
    ? `${want.private ? `a ${want.curve.size}-byte private scalar` : `a SEC1 public key (${1 + 2 * want.curve.size} or ${1 + want.curve.size} bytes)`}`
    : `a 32-byte ${want.private ? 'private' : 'public'} key`
  throw invalidKey(name, `${raw} or a DER key`, `Received ${buf.length} bytes`)
}

/** Raw bytes of a fixed-length algorithm (by length: a public key, a seed or an expanded key), else DER. */
function fixedBytes(a, buf, want, name) {
  if (want.private ? a.privateLengths.includes(buf.length) : buf.length === a.publicLength) {
    if (!want.private) a.fromSpki(undefined, buf, new DerReader(buf, name, a.describe()))
    return { alg: a.alg, private: want.private, key: Buffer.from(buf) }
  }
  if (buf[0] === TAG.SEQUENCE && buf.length > 32) return parseDer(buf, name)
  const raw = want.private ? `a ${a.privateLengths.join('- or ')}-byte private key` : `a ${a.publicLength}-byte public key`
  throw invalidKey(name, `${raw} (${a.describe().replace(/^an? /, '')}) or a DER key`, `Received ${buf.length} bytes`)
}

// Byte keys seen before, by the object the caller passed: the same Buffer (TypedArray, DataView,
// ArrayBuffer) holding the same bytes, compared in constant time on every call, and read for the
// same use, gives the same parsed key, with what was computed for it kept on it (an RSA key's
// checked native handle, an expanded Ed25519/X25519 key, a public half), as for a KeyObject. A
// key changed in place, or a new object, is parsed again. Held weakly, like the key it belongs to.
const fromBytes = new WeakMap()

/**
 * `parse(buf)`, once per `input` object and `use` (a string) while the object holds the same
 * bytes, compared in constant time on every call; `cache` is a WeakMap of the caller's. Also
 * crypto.hybrid's key cache.
 */
function parsedOnce(cache, input, buf, use, parse) {
  const seen = cache.get(input)
  if (seen && seen.use === use && seen.bytes.length === buf.length && nodeCrypto.timingSafeEqual(seen.bytes, buf)) return seen.value
  const value = parse(buf)
  cache.set(input, { use, bytes: Buffer.from(buf), value })
  return value
}

function parseBytesOnce(input, buf, want, name) {
  const use = `${want.alg} ${want.curve ? want.curve.name : ''} ${want.private}`
  return parsedOnce(fromBytes, input, buf, use, (b) => parseBytes(b, want, name))
}

/**
 * A private key for native code, expanded once (`prepare(bytes)`: a native handle) per key the
 * key layer keeps: a KeyObject (as node keeps its EVP_PKEY) or a byte key passed again with the
 * same bytes (`parseKey`'s cache). PEM strings and JWK objects are parsed on every call and given
 * as their bytes. (Ed25519/X25519 in pk.js, the KEMs in kem.js.)
 */
function preparedKey(input, want, name, prepare) {
  const k = parseKey(input, want, name)
  if (!(input instanceof nodeCrypto.KeyObject) && !asBuffer(input)) return k.key
  if (!k.prepared) k.prepared = prepare(k.key)
  return k.prepared
}

/**
 * Any key input as a parsed key, checked against what the caller needs:
 * `want` = { alg: 'ed25519' | 'x25519' | 'ec', curve (EC), private: bool }.
 * A private key given where a public one is needed stands for its public key.
 */
function parseKey(input, want, name) {
  const buf = asBuffer(input)
  if (buf && buf.length > MAX_KEY_BYTES) throw invalidKey(name, 'a key', `Received ${buf.length} bytes (at most ${MAX_KEY_BYTES})`)
  const k = buf ? parseBytesOnce(input, buf, want, name) : parseAny(input, name)
  const a = BY_ALG.get(want.alg)
  if (k.alg !== want.alg || (want.curve && k.curve !== want.curve)) {
    throw invalidKeyType(name, a.describe(want), BY_ALG.get(k.alg).describe(k))
  }
  if (want.private && !k.private) throw invalidKeyType(name, 'a private key', 'a public key')
  if (!want.private && k.private) return publicKeyOf(k)
  return k
}

/** The public key of a parsed private key, as a parsed key (kept: RSA keeps its native handle). */
function publicKeyOf(k) {
  if (!k.publicKey) {
    const key = publicOf(k)
    k.publicKey = { alg: k.alg, curve: k.curve, private: false, key }
    if (k.alg === 'rsa') k.publicKey.handle = native.rsaKey(key, false, 'publicKey')
  }
  return k.publicKey
}

const isCryptoKey = (v) => {
  const CK = globalThis.CryptoKey || (nodeCrypto.webcrypto && nodeCrypto.webcrypto.CryptoKey)
  return typeof CK === 'function' && v instanceof CK
}

// ---- output forms ---------------------------------------------------------------------------

const FORMATS = ['raw', 'der', 'pem', 'jwk', 'keyobject']
const TYPES = { private: ['pkcs8', 'sec1', 'pkcs1'], public: ['spki', 'pkcs1'], raw: ['compressed', 'uncompressed'] }
/** Whether DER/PEM type `t` exists for key `k` (SEC1: EC only; PKCS#1: RSA only). */
const typeFits = (t, k) => (t === 'sec1' ? k.alg === 'ec' : t === 'pkcs1' ? k.alg === 'rsa' : true)

/** A parsed key in `format` (with `type`: pkcs8 / sec1 / spki, or compressed for raw EC points). */
function encodeKey(k, format = 'raw', type, name = 'options.format') {
  switch (format) {
    case 'raw':
      if (type !== undefined && !TYPES.raw.includes(type)) throw invalidArgValue('options.type', "'compressed' or 'uncompressed' for raw keys", type)
      if (type === 'compressed') {
        if (k.alg !== 'ec' || k.private) throw invalidArgValue('options.type', "'compressed' only for EC public keys", type)
        return native.pkPoint(k.curve.id, k.key, true)
      }
      return Buffer.from(k.key)
    case 'der':
    case 'pem': {
      const types = k.private ? TYPES.private : TYPES.public
      const t = type === undefined ? types[0] : type
      if (!types.includes(t) || !typeFits(t, k)) {
        throw invalidArgValue('options.type', `one of ${types.filter((x) => typeFits(x, k)).map((x) => `'${x}'`).join(', ')} for this key`, type)
      }
      const d = toDer(k, t)
      return format === 'der' ? d : toPem(d, t, k.private)
    }
    case 'jwk':
      return BY_ALG.get(k.alg).toJwk(k)
    case 'keyobject': {
      // Algorithms node may lack (`keyObjectType`): a KeyObject node cannot use is refused too
      // (Node 22 with OpenSSL 3.5 parses an ML-KEM key into a KeyObject of no known type).
      const type = BY_ALG.get(k.alg).keyObjectType
      let ko, why
      try {
        ko = k.private
          ? nodeCrypto.createPrivateKey({ key: toDer(k, 'pkcs8'), format: 'der', type: 'pkcs8' })
          : nodeCrypto.createPublicKey({ key: toDer(k, 'spki'), format: 'der', type: 'spki' })
      } catch (e) {
        if (!type) throw e
        why = e.message
      }
      if (type && !why && ko.asymmetricKeyType !== type) why = `its KeyObject has type ${ko.asymmetricKeyType}`
      if (why) throw coded(Error, 'ERR_FEATURE_UNAVAILABLE_ON_PLATFORM', `This Node.js (${process.version}) has no '${type}' KeyObjects (${why})`)
      return ko
    }
    default:
      throw invalidArgValue(name, `one of ${FORMATS.map((f) => `'${f}'`).join(', ')}`, format)
  }
}

const ALGORITHM_NAMES = { ed25519: 'ed25519', x25519: 'x25519', ec: 'ec', ecdsa: 'ec', ecdh: 'ec', rsa: 'rsa' }
// Fixed-length algorithms by their node name ('ml-kem-768', 'x-wing') and API name ('mlkem768', 'xwing').
for (const a of KEM_ROWS) ALGORITHM_NAMES[a.alg] = ALGORITHM_NAMES[a.alg.replace(/-/g, '')] = a.alg
for (const { name } of MLDSA_SETS) ALGORITHM_NAMES[name] = ALGORITHM_NAMES[name.replace(/-/g, '')] = name

/** What raw bytes mean, for keys.export / keys.import (other forms describe themselves). */
function readWant(o) {
  const name = o.algorithm === undefined ? undefined : ALGORITHM_NAMES[String(o.algorithm).toLowerCase()]
  if (o.algorithm !== undefined && !name) {
    throw invalidArgValue('options.algorithm', `'ed25519', 'x25519', 'ec', 'rsa', ${[...KEM_ROWS.map((a) => a.alg), ...MLDSA_SETS.map((m) => m.name)].map((n) => `'${n}'`).join(', ')}`, o.algorithm)
  }
  if (o.keyType !== undefined && o.keyType !== 'private' && o.keyType !== 'public') {
    throw invalidArgValue('options.keyType', "'private' or 'public'", o.keyType)
  }
  return name
}

/** Parses any key form; raw bytes are read as the `algorithm` / `curve` / `keyType` hints say. */
function anyKey(key, o, name = 'key') {
  const alg = readWant(o)
  const curve = alg === 'ec' || o.curve !== undefined ? readCurve(o.curve, 'options.curve') : undefined
  const buf = asBuffer(key)
  const fixed = alg && BY_ALG.get(alg).privateLengths
  if (buf && fixed && [BY_ALG.get(alg).publicLength, ...fixed].includes(buf.length)) {
    return parseKey(buf, { alg, private: buf.length !== BY_ALG.get(alg).publicLength }, name)
  }
  const own = buf && alg && BY_ALG.get(alg).fromRaw && BY_ALG.get(alg).fromRaw(buf)
  if (own) return parseKey(buf, { alg, private: own.private }, name) // raw ML-DSA: told by length
  const rawLengths = alg === 'ec' ? [curve.size, 1 + curve.size, 1 + 2 * curve.size] : alg && alg !== 'rsa' ? [32] : []
  if (buf && rawLengths.includes(buf.length)) {
    if (alg !== 'ec' && o.keyType === undefined) {
      throw invalidArgValue('options.keyType', "'private' or 'public' (a raw 32-byte key does not say which it is)", o.keyType)
    }
    const isPrivate = alg === 'ec' ? buf.length === curve.size : o.keyType === 'private'
    return parseKey(buf, { alg, curve, private: isPrivate }, name)
  }
  if (buf && !(buf[0] === TAG.SEQUENCE && buf.length > 32)) {
    throw invalidArgValue('options.algorithm', "'ed25519', 'x25519' or 'ec' with curve (raw keys do not say what they are)", o.algorithm)
  }
  const k = parseAny(key, name)
  if ((alg && k.alg !== alg) || (curve && k.curve !== curve)) {
    throw invalidKeyType(name, BY_ALG.get(alg || k.alg).describe({ curve }), BY_ALG.get(k.alg).describe(k))
  }
  return k
}

const EXPORT_OPTIONS = new Set(['format', 'type', 'public', 'algorithm', 'curve', 'keyType'])
const IMPORT_OPTIONS = new Set(['algorithm', 'curve', 'keyType'])

/**
 * crypto.keys.export(key, { format = 'der', type, public, algorithm, curve, keyType }): any key
 * form in another. `public: true` gives the public key of a private key. Raw input needs
 * `algorithm` (and `curve` for EC; `keyType` for 32-byte 25519 keys).
 */
function exportKey(key, options) {
  const o = checkOptions(options, EXPORT_OPTIONS, 'keys.export')
  let k = anyKey(key, o)
  if (o.public !== undefined && typeof o.public !== 'boolean') throw invalidArgType('options.public', 'of type boolean', o.public)
  if (o.public && k.private) k = publicKeyOf(k)
  return encodeKey(k, o.format === undefined ? 'der' : o.format, o.type)
}

/** crypto.keys.import(key, { algorithm, curve, keyType }): any key form as a node:crypto KeyObject. */
function importKey(key, options) {
  const o = checkOptions(options, IMPORT_OPTIONS, 'keys.import')
  return encodeKey(anyKey(key, o), 'keyobject')
}

/** Any self-describing key form (DER, PEM, JWK, KeyObject, CryptoKey). */
function parseAny(input, name) {
  const buf = asBuffer(input)
  if (buf) return parseDer(buf, name)
  if (typeof input === 'string') return parsePem(input, name)
  if (input instanceof nodeCrypto.KeyObject) return parseKeyObject(input, name)
  if (isCryptoKey(input)) return parseKeyObject(nodeCrypto.KeyObject.from(input), name)
  if (input !== null && typeof input === 'object' && typeof input.kty === 'string') return parseJwk(input, name)
  throw invalidArgType(name, KEY_INPUT, input)
}

/** The modulus length in bits of a parsed RSA key (n: the first integer `rsaInts` returns). */
function rsaModulusBits(k) {
  const n = rsaInts(k.key, 'key', 'an RSA key')[0]
  let i = 0
  while (i < n.length - 1 && n[i] === 0) i++
  return (n.length - i - 1) * 8 + (32 - Math.clz32(n[i]))
}

module.exports = {
  asBuffer,
  armor,
  unarmor,
  parsedOnce,
  rsaModulusBits,
  x25519Canonical,
  ed25519Canonical,
  // The DER reader and writer, for the RSA row (part 2).
  DerReader,
  der,
  derUint,
  keys: { export: exportKey, import: importKey },
  parseKey,
  preparedKey,
  parseAny,
  encodeKey,
  publicOf,
  readCurve,
  invalidKeyType,
  NATIVE,
  CURVES,
  KEMS,
  // ML-DSA (lib/mldsa.js)
  MLDSA_SETS,
  FORMATS,
  BYTES,
  describe,
}
