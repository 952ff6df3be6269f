'use strict'
// crypto.hybrid: public-key encryption and signatures that stay secure while EITHER of their two
// components does, one classical and one post-quantum (byte formats: docs/hybrid-format.md).
//
// - Encryption is a KEM combiner in the manner of X-Wing: the payload key is SHA3-256 over a
//   label, the suite, EVERY component's shared secret, every KEM ciphertext and the recipient's
//   public key, so an attacker must break all components to learn it. (Wrapping the key under
//   each component separately, using the second only if the first fails, would be as weak as the
//   weaker component: breaking either one unwraps the key.)
// - A composite signature is one signature per component over the same domain-separated
//   message (label, suite, hash of the signer's whole public key, SHA-512 of the data); it
//   verifies only when every component does, so a component cannot be stripped, used alone, or
//   moved into another composite.
// - Each suite is a list of components in the one table of `SUITES`; the code below is generic
//   over it. Components are the library's own algorithms (crypto.kem, crypto.dsa,
//   crypto.cipher.rsa_oaep), each used through its Sync and Async forms.
const fsp = require('fs/promises')
const { checkOptions } = require('./options')
const { coded, BYTES, invalidArgType, invalidArgValue } = require('./errors')
const { runAsync, signalOf } = require('./abort')
const diagnostics = require('./diagnostics')
const { asBuffer, bytesOf } = require('./bytes')
const { explicit, keyed } = require('./forms')
const { randomBytes } = require('./random')
const { armor, unarmor, parseKey, parsedOnce, encodeKey, rsaModulusBits, x25519Canonical, ed25519Canonical, keys } = require('./keys')
const { sha } = require('./hash')
const { cipher } = require('./cipher')
const { kem } = require('./kem')
const { mldsa } = require('./mldsa')
const { dsa: { ed25519 } } = require('./pk')
const { rsa, rsa_oaep } = require('./rsa')
// The streaming AEAD's internal option for an enclosing format's head (cipher-stream.js `LEAD`).
const { LEAD } = require('./cipher-stream')

const VERSION = 1
const MAGIC = { publicKey: 'cjs.hpub', privateKey: 'cjs.hsec', envelope: 'cjs.henv' }
const PEM = { publicKey: 'CJS HYBRID PUBLIC KEY', privateKey: 'CJS HYBRID PRIVATE KEY' }
const KEM_LABEL = Buffer.from('cryptographer.js hybrid kem v1')
const SIG_LABEL = Buffer.from('cryptographer.js hybrid sig v1')
const OAEP_LABEL = Buffer.from('cryptographer.js hybrid rsa-oaep v1')
// Payload forms of an envelope: one AES-256-GCM message, or the streaming AEAD format.
const FORM = { oneShot: 1, stream: 2 }
const ENVELOPE_HEAD = 11 // magic (8), version, suite, form
const GCM_NONCE = Buffer.alloc(12) // the payload key is new for every envelope: one message per key
const GCM_TAG = 16
const MAX_KEY_BYTES = 16 * 1024
const RSA_BITS = 4096
const { aes } = cipher

const decryptFailed = (why) => coded(Error, 'ERR_CRYPTO_DECRYPT_FAILED', `Unable to decrypt the hybrid envelope: ${why}`)
const invalidKey = (name, expected, got) =>
  coded(TypeError, 'ERR_INVALID_ARG_VALUE', `The argument "${name}" is invalid: expected ${expected}. ${got}`)

const u16 = (n) => Buffer.from([n >> 8, n & 0xff])
const sha3 = (...parts) => sha.sha3_256(Buffer.concat(parts), { outputFormat: 'buffer' })

// ---- components -------------------------------------------------------------------------------
// Each has generate / generateAsync, publicOf(private key), checkPublic / checkPrivate (its key
// bytes: undefined when they are the component's key in its one canonical form, else what they
// are). A KEM adds encapsulate(pub) -> { ciphertext, sharedSecret } and decapsulate(ct, priv)
// (+ Async) and a fixed ciphertext length; a signer adds sign / verify (+ Async) and a fixed
// signature length. Async forms take the caller's `signal`.

const length = (b, n, what) => (b.length === n ? undefined : `is ${b.length} bytes, not the ${n} of ${what}`)

/** ML-KEM, X-Wing, ML-DSA: private keys are seeds (every value is one), public keys fixed-length bytes; `check(pub)` for what else their encoding must satisfy. */
const seeded = (name, alg, check = () => undefined) => ({
  name,
  generate: () => alg.generateKeypairSync(),
  generateAsync: (signal) => alg.generateKeypairAsync({ signal }),
  publicOf: (priv) => alg.generateKeypairSync({ seed: priv }).publicKey,
  checkPublic: (pub) => length(pub, alg.lengths.publicKey, 'a public key') || check(pub),
  checkPrivate: (priv) => length(priv, alg.lengths.seed, 'a seed'),
})

/** ML-KEM encapsulation keys: the FIPS 203 modulus check (the key layer's, for raw public keys), which every encoded coefficient must pass to be the one encoding of the key. */
const modulusCheck = (name) => (pub) => {
  try {
    parseKey(pub, { alg: name, private: false }, 'publicKey')
  } catch {
    return 'fails the FIPS 203 modulus check (a coefficient is not below q = 3329)'
  }
}

/** X-Wing: ML-KEM-768 ‖ X25519; the X25519 u-coordinate below p with its top bit clear. */
const xwingCheck = (pub) =>
  modulusCheck('x-wing')(pub) || (x25519Canonical(pub.subarray(-32)) ? undefined : 'has a non-canonical X25519 part (u >= p or its top bit set)')

/**
 * RSA-4096: DER keys through the key layer, which keeps each parsed key; canonical = the bytes the
 * key layer writes for the key it reads (SPKI / PKCS#8 v1, minimal DER), so PKCS#1 or another
 * encoding of the same key, or a private key standing for its public half, is refused.
 */
function rsaCheck(der, isPrivate) {
  let k
  try {
    k = parseKey(der, { alg: 'rsa', private: isPrivate }, isPrivate ? 'privateKey' : 'publicKey')
  } catch {
    return `is not a DER RSA ${isPrivate ? 'private' : 'public'} key`
  }
  const bits = rsaModulusBits(k)
  if (bits !== RSA_BITS) return `is a ${bits}-bit RSA key, not ${RSA_BITS}-bit`
  if (encodeKey(k, 'der').equals(der)) return undefined
  if (!isPrivate && rsaCheck(der, true) === undefined) return 'is an RSA private key, not a public key'
  const form = isPrivate ? "PKCS#8 as keys.export(key, { format: 'der' })" : "SPKI as keys.export(key, { format: 'der', public: true })"
  return `is not DER ${form} writes it (PKCS#1 and other encodings of a key are refused)`
}

const RSA_GEN = { modulusLength: RSA_BITS, format: 'der' }
const rsa4096 = (name) => ({
  name,
  generate: () => rsa.generateKeypairSync(RSA_GEN),
  generateAsync: (signal) => rsa.generateKeypairAsync({ ...RSA_GEN, signal }),
  publicOf: (priv) => keys.export(priv, { format: 'der', public: true }),
  checkPublic: (pub) => rsaCheck(pub, false),
  checkPrivate: (priv) => rsaCheck(priv, true),
})

const mlkemComponent = (name, alg, check = modulusCheck(name)) => ({
  ...seeded(name, alg, check),
  ctLength: alg.lengths.ciphertext,
  encapsulate: (pub) => alg.encapsulateSync(pub),
  encapsulateAsync: (pub, signal) => alg.encapsulateAsync(pub, { signal }),
  decapsulate: (ct, priv) => alg.decapsulateSync(ct, priv),
  decapsulateAsync: (ct, priv, signal) => alg.decapsulateAsync(ct, priv, { signal }),
})

// RSA-OAEP as a KEM: a random 32-byte secret, encrypted. A failed decryption gives a random
// secret (as ML-KEM's implicit rejection does), so it shows only at the payload's tag; any other
// error (a bug, an abort) is not hidden.
const OAEP = { hash: 'sha256', label: OAEP_LABEL }
const implicit = (err) => {
  if (err.code !== 'ERR_CRYPTO_DECRYPT_FAILED') throw err
  return randomBytes(32)
}
const rsaSecret = (s) => (s.length === 32 ? s : randomBytes(32))
const rsaOaepComponent = {
  ...rsa4096('rsa-oaep-4096'),
  ctLength: RSA_BITS / 8,
  encapsulate(pub) {
    const sharedSecret = randomBytes(32)
    return { ciphertext: rsa_oaep.encryptSync(sharedSecret, pub, OAEP), sharedSecret }
  },
  async encapsulateAsync(pub, signal) {
    const sharedSecret = randomBytes(32)
    return { ciphertext: await rsa_oaep.encryptAsync(sharedSecret, pub, { ...OAEP, signal }), sharedSecret }
  },
  decapsulate(ct, priv) {
    try {
      return rsaSecret(rsa_oaep.decryptSync(ct, priv, OAEP))
    } catch (err) {
      return implicit(err)
    }
  },
  decapsulateAsync: (ct, priv, signal) => rsa_oaep.decryptAsync(ct, priv, { ...OAEP, signal }).then(rsaSecret, implicit),
}

const mldsaComponent = (name, alg) => {
  const ctx = { context: SIG_LABEL }
  return {
    ...seeded(name, alg),
    sigLength: alg.lengths.signature,
    sign: (priv, m) => alg.signSync(m, priv, ctx),
    signAsync: (priv, m, signal) => alg.signAsync(m, priv, { ...ctx, signal }),
    verify: (pub, m, sig) => alg.verifySync(m, pub, sig, ctx),
    verifyAsync: (pub, m, sig, signal) => alg.verifyAsync(m, pub, sig, { ...ctx, signal }),
  }
}

const ed25519Component = {
  name: 'ed25519',
  sigLength: 64,
  generate: () => ed25519.generateKeypairSync(),
  generateAsync: (signal) => ed25519.generateKeypairAsync({ signal }),
  publicOf: (priv) => keys.export(priv, { algorithm: 'ed25519', keyType: 'private', format: 'raw', public: true }),
  checkPublic: (pub) => length(pub, 32, 'a public key') || (ed25519Canonical(pub) ? undefined : 'is not the canonical encoding of a point (RFC 8032 5.1.3)'),
  checkPrivate: (priv) => length(priv, 32, 'a seed'),
  sign: (priv, m) => ed25519.signSync(m, { privateKey: priv }),
  signAsync: (priv, m, signal) => ed25519.signAsync(m, { privateKey: priv, signal }),
  verify: (pub, m, sig) => ed25519.verifySync(m, { publicKey: pub, signature: sig }),
  verifyAsync: (pub, m, sig, signal) => ed25519.verifyAsync(m, { publicKey: pub, signature: sig, signal }),
}

const PSS = { hash: 'sha512', saltLength: 64 }
const rsaPssComponent = {
  ...rsa4096('rsa-pss-4096'),
  sigLength: RSA_BITS / 8,
  sign: (priv, m) => rsa.signPSSSync(m, priv, PSS),
  signAsync: (priv, m, signal) => rsa.signPSSAsync(m, priv, { ...PSS, signal }),
  verify: (pub, m, sig) => rsa.verifyPSSSync(m, pub, sig, PSS),
  verifyAsync: (pub, m, sig, signal) => rsa.verifyPSSAsync(m, pub, sig, { ...PSS, signal }),
}

/** The suites: one id byte each, the KEM components, then the signature components. */
const SUITES = [
  { id: 1, name: 'x25519-mlkem768', kems: [mlkemComponent('x-wing', kem.xwing, xwingCheck)], sigs: [ed25519Component, mldsaComponent('ml-dsa-65', mldsa.mldsa65)] },
  {
    id: 2,
    name: 'rsa4096-mlkem1024',
    kems: [rsaOaepComponent, mlkemComponent('ml-kem-1024', kem.mlkem1024)],
    sigs: [rsaPssComponent, mldsaComponent('ml-dsa-87', mldsa.mldsa87)],
  },
].map((s) => {
  const parts = [...s.kems, ...s.sigs]
  return Object.freeze({
    ...s,
    parts,
    ctLength: s.kems.reduce((n, k) => n + k.ctLength, 0),
    sigLength: 2 + s.sigs.reduce((n, k) => n + k.sigLength, 0),
  })
})
const BY_NAME = new Map(SUITES.map((s) => [s.name, s]))
const BY_ID = new Map(SUITES.map((s) => [s.id, s]))

// ---- keys ---------------------------------------------------------------------------------------

/** magic ‖ version ‖ suite ‖ (u16 length ‖ bytes) per component. */
function encodeBlob(kind, suite, fields) {
  const head = Buffer.concat([Buffer.from(MAGIC[kind]), Buffer.from([VERSION, suite.id])])
  return Buffer.concat([head, ...fields.flatMap((f) => [u16(f.length), f])])
}

/** The bytes of a key input: bytes, or PEM with the label of `kind`. */
function keyBytes(input, kind, name) {
  if (typeof input !== 'string') return bytesOf(input, name, `a hybrid ${kind} (${BYTES}, or a PEM string)`)
  const { label, bytes } = unarmor(input, name)
  if (label !== PEM[kind]) throw invalidKey(name, `a hybrid ${kind} (bytes, or PEM "${PEM[kind]}")`, `Received label "${label}"`)
  return bytes
}

function parseBlob(buf, kind, name) {
  const bad = (why) => invalidKey(name, `a hybrid ${kind === 'publicKey' ? 'public' : 'private'} key`, why)
  if (buf.length > MAX_KEY_BYTES) throw bad(`Received ${buf.length} bytes (at most ${MAX_KEY_BYTES})`)
  const magic = buf.subarray(0, 8).toString('latin1')
  if (magic !== MAGIC[kind]) {
    const other = Object.keys(MAGIC).find((k) => MAGIC[k] === magic)
    throw bad(other ? `Received a hybrid ${other}` : 'The bytes do not start with a hybrid key header')
  }
  if (buf[8] !== VERSION) throw bad(`Unknown version ${buf[8]}`)
  const suite = BY_ID.get(buf[9])
  if (!suite) throw bad(`Unknown suite id ${buf[9]}`)
  const fields = []
  let at = 10
  for (let i = 0; i < suite.parts.length; i++) {
    if (at + 2 > buf.length) throw bad('Truncated')
    const n = buf.readUInt16BE(at)
    if (at + 2 + n > buf.length) throw bad('Truncated')
    fields.push(Buffer.from(buf.subarray(at + 2, at + 2 + n)))
    at += 2 + n
  }
  if (at !== buf.length) throw bad(`${buf.length - at} bytes after the last component`)
  // Every component in its one canonical form (docs/hybrid-format.md, "Keys"): the public key is
  // hashed into every payload key and signed message as it is, so another spelling of the same
  // key would seal envelopes its owner cannot open and fail every signature. A private key's
  // public half, derived here, is checked as well.
  const isPrivate = kind === 'privateKey'
  const writers = isPrivate ? 'hybrid.generateKeypair writes' : 'hybrid.generateKeypair and hybrid.getPublicKey write'
  const refuse = (p, why) =>
    bad(`Its ${p.name} component ${why}. A key of the suite '${suite.name}' holds each component in one canonical form ` +
      `(docs/hybrid-format.md, "Keys"), as ${writers} it`)
  if (isPrivate) {
    suite.parts.forEach((p, i) => {
      const why = p.checkPrivate(fields[i])
      if (why) throw refuse(p, why)
    })
  }
  const pubFields = isPrivate ? suite.parts.map((p, i) => p.publicOf(fields[i])) : fields
  suite.parts.forEach((p, i) => {
    const why = p.checkPublic(pubFields[i])
    if (why) throw refuse(p, isPrivate ? `gives a public key that ${why}` : why)
  })
  const pub = isPrivate ? encodeBlob('publicKey', suite, pubFields) : buf
  return { suite, private: isPrivate, fields, pub, pubHash: sha3(pub) }
}

// Byte keys passed again (the same object holding the same bytes, compared in constant time) are
// parsed once: a private key's public half is derived, and RSA keys checked, only then; the
// component keys stay the same objects, so the components' own key caches hold too.
const PARSED = new WeakMap()

/** A hybrid key, parsed and checked: { suite, private, fields (component keys), pub (the public key bytes), pubHash }. */
function parseHybridKey(input, kind, name) {
  const buf = keyBytes(input, kind, name)
  const read = (b) => parseBlob(b, kind, name)
  return typeof input === 'object' && input !== null ? parsedOnce(PARSED, input, buf, kind, read) : read(buf)
}
const publicKeyOf = (k, name = 'publicKey') => parseHybridKey(k, 'publicKey', name)
const privateKeyOf = (k, name = 'privateKey') => parseHybridKey(k, 'privateKey', name)

function readSuite(v) {
  if (v === undefined) return SUITES[0]
  const s = BY_NAME.get(v)
  if (!s) throw invalidArgValue('options.suite', `one of ${SUITES.map((x) => `'${x.name}'`).join(', ')}`, v)
  return s
}

function readFormat(v) {
  if (v === undefined || v === 'raw') return 'raw'
  if (v === 'pem') return 'pem'
  throw invalidArgValue('options.format', "'raw' or 'pem'", v)
}

function readOpts(o, allowed, what) {
  if (o === undefined || o === null) return {}
  if (typeof o !== 'object') throw invalidArgType('options', 'of type object', o)
  return checkOptions(o, allowed, what)
}

const readAad = (v) => (v === undefined || v === null ? Buffer.alloc(0) : bytesOf(v, 'options.aad'))

function keypairOut(suite, pairs, format) {
  const pub = encodeBlob('publicKey', suite, pairs.map((p) => p.publicKey))
  const priv = encodeBlob('privateKey', suite, pairs.map((p) => p.privateKey))
  return format === 'pem'
    ? { publicKey: armor(pub, PEM.publicKey), privateKey: armor(priv, PEM.privateKey) }
    : { publicKey: pub, privateKey: priv }
}

const GEN = new Set(['suite', 'format'])
const GEN_ASYNC = new Set([...GEN, 'signal'])

function generateKeypair(options) {
  const o = readOpts(options, GEN, 'hybrid.generateKeypair')
  const suite = readSuite(o.suite)
  return keypairOut(suite, suite.parts.map((p) => p.generate()), readFormat(o.format))
}

function generateKeypairAsync(options) {
  return runAsync(signalOf(options), async (_, ctx) => {
    const o = readOpts(options, GEN_ASYNC, 'hybrid.generateKeypairAsync')
    const suite = readSuite(o.suite)
    if (ctx !== undefined) ctx.algorithm = suite.name
    const format = readFormat(o.format)
    // The components on the pool side by side (RSA-4096 key generation dominates).
    return keypairOut(suite, await Promise.all(suite.parts.map((p) => p.generateAsync(o.signal))), format)
  }, TRACE.generateKeypair)
}

function getPublicKey(privateKey, options) {
  const o = readOpts(options, new Set(['format']), 'hybrid.getPublicKey')
  const { pub } = privateKeyOf(privateKey)
  return readFormat(o.format) === 'pem' ? armor(pub, PEM.publicKey) : Buffer.from(pub)
}

// ---- encryption ---------------------------------------------------------------------------------

/** The payload key: SHA3-256(label ‖ suite ‖ every secret ‖ every ciphertext ‖ H(public key)), the secrets wiped. */
function combine(key, secrets, cts) {
  const k = sha3(KEM_LABEL, Buffer.from([key.suite.id]), ...secrets, ...cts, key.pubHash)
  secrets.forEach((s) => s.fill(0))
  return k
}

/** The envelope's head (magic, version, suite, form, the KEM ciphertexts) and the payload key of `outs` (the encapsulations). */
function sealed(key, form, outs) {
  const cts = outs.map((e) => e.ciphertext)
  const payloadKey = combine(key, outs.map((e) => e.sharedSecret), cts)
  const head = Buffer.concat([Buffer.from(MAGIC.envelope), Buffer.from([VERSION, key.suite.id, form]), ...cts])
  return { payloadKey, head }
}

const encapsulate = (key, form) => sealed(key, form, key.suite.kems.map((k, i) => k.encapsulate(key.fields[i])))
const encapsulateAsync = async (key, form, signal) =>
  sealed(key, form, await Promise.all(key.suite.kems.map((k, i) => k.encapsulateAsync(key.fields[i], signal))))

/** The suite's KEM ciphertexts of an envelope's head (11 bytes, then the ciphertexts). */
function readHead(key, env, form) {
  const { suite } = key
  if (env.length < ENVELOPE_HEAD) throw decryptFailed('it is truncated')
  if (env.subarray(0, 8).toString('latin1') !== MAGIC.envelope || env[8] !== VERSION) {
    throw decryptFailed('it is not a hybrid envelope of this version')
  }
  if (env[9] !== suite.id) throw decryptFailed(`it was made for another suite than '${suite.name}'`)
  if (env[10] !== form) throw decryptFailed(form === FORM.stream ? 'it is not a stream envelope' : 'it is a stream envelope (decryptStream, decryptFile)')
  if (env.length < ENVELOPE_HEAD + suite.ctLength) throw decryptFailed('it is truncated')
  const cts = []
  let at = ENVELOPE_HEAD
  for (const k of suite.kems) {
    cts.push(env.subarray(at, at + k.ctLength))
    at += k.ctLength
  }
  return { cts, length: at }
}

const decapsulate = (key, cts) => combine(key, key.suite.kems.map((k, i) => k.decapsulate(cts[i], key.fields[i])), cts)
const decapsulateAsync = async (key, cts, signal) =>
  combine(key, await Promise.all(key.suite.kems.map((k, i) => k.decapsulateAsync(cts[i], key.fields[i], signal))), cts)

const gcm = (payloadKey, aad) => ({ key: payloadKey, iv: GCM_NONCE, mode: 'gcm', aad, outputFormat: 'buffer' })
const envelopeAad = (head, o) => Buffer.concat([head.subarray(0, ENVELOPE_HEAD), readAad(o.aad)])

// A refusal of the payload, whichever its cause, is the envelope's one decryption error.
function refused(err) {
  if (err.code === 'ERR_CRYPTO_DECRYPT_FAILED' || err.code === 'ERR_OUT_OF_RANGE') throw decryptFailed('a component or the payload did not verify')
  throw err
}

const ENC = new Set(['aad'])
const ENC_ASYNC = new Set(['aad', 'signal'])

// encrypt(data, publicKey, options?) or encrypt(data, { publicKey, ...options }); decrypt likewise with privateKey.
const encryptArgs = (args) => keyed(args, ['publicKey'], 'encrypt')
const decryptArgs = (args) => keyed(args, ['privateKey'], 'decrypt')

function encrypt(data, ...args) {
  const [recipient, options] = encryptArgs(args)
  const o = readOpts(options, ENC, 'hybrid.encrypt')
  const bytes = bytesOf(data, 'data')
  const { payloadKey, head } = encapsulate(publicKeyOf(recipient), FORM.oneShot)
  // The envelope, allocated once: the head, then the payload sealed into the rest (`output`).
  const env = Buffer.allocUnsafe(head.length + bytes.length + GCM_TAG)
  head.copy(env)
  try {
    aes.encryptSync(bytes, { ...gcm(payloadKey, envelopeAad(head, o)), output: env.subarray(head.length) })
  } finally {
    payloadKey.fill(0)
  }
  return env
}

function encryptAsync(data, ...args) {
  const [recipient, options] = encryptArgs(args)
  return runAsync(signalOf(options), async (_, ctx) => {
    const o = readOpts(options, ENC_ASYNC, 'hybrid.encryptAsync')
    const pub = publicKeyOf(recipient)
    // Copied now: the payload is sealed after the encapsulations, by then the caller's bytes may
    // have changed (encryptAsync copies it again: the price of the pool).
    const bytes = Buffer.from(bytesOf(data, 'data'))
    if (ctx !== undefined) {
      ctx.algorithm = pub.suite.name
      ctx.bytesIn = bytes.length
    }
    const { payloadKey, head } = await encapsulateAsync(pub, FORM.oneShot, o.signal)
    // encryptAsync copies the key as it is called, before any await here.
    const sealing = aes.encryptAsync(bytes, { ...gcm(payloadKey, envelopeAad(head, o)), signal: o.signal })
    payloadKey.fill(0)
    return Buffer.concat([head, await sealing])
  }, TRACE.encrypt)
}

function decrypt(envelope, ...args) {
  const [privateKey, options] = decryptArgs(args)
  const o = readOpts(options, ENC, 'hybrid.decrypt')
  const key = privateKeyOf(privateKey)
  const env = bytesOf(envelope, 'envelope')
  const { cts, length } = readHead(key, env, FORM.oneShot)
  const payloadKey = decapsulate(key, cts)
  try {
    return aes.decryptSync(env.subarray(length), gcm(payloadKey, envelopeAad(env, o)))
  } catch (err) {
    return refused(err)
  } finally {
    payloadKey.fill(0)
  }
}

function decryptAsync(envelope, ...args) {
  const [privateKey, options] = decryptArgs(args)
  return runAsync(signalOf(options), async (_, ctx) => {
    const o = readOpts(options, ENC_ASYNC, 'hybrid.decryptAsync')
    const key = privateKeyOf(privateKey)
    // Copied now: the payload is opened after the decapsulations, by then the caller's bytes
    // may have changed (decryptAsync copies the payload again: the price of the pool).
    const env = Buffer.from(bytesOf(envelope, 'envelope'))
    if (ctx !== undefined) {
      ctx.algorithm = key.suite.name
      ctx.bytesIn = env.length
    }
    const { cts, length } = readHead(key, env, FORM.oneShot)
    const payloadKey = await decapsulateAsync(key, cts, o.signal)
    // The key is copied by the call as it starts: wiped right after.
    const opening = aes.decryptAsync(env.subarray(length), { ...gcm(payloadKey, envelopeAad(env, o)), signal: o.signal })
    payloadKey.fill(0)
    return opening.catch(refused)
  }, TRACE.decrypt)
}

// ---- streams and files: the streaming AEAD format (docs/stream-format.md) under the payload key,
// after the envelope's head. The Transforms are the streaming AEAD's own, with the envelope's head
// as their lead: written first when sealing; when opening, collected with the header and
// decapsulated for the key.

const STREAM = new Set(['aad', 'segmentSize', 'signal'])
const FILE = new Set(['aad', 'segmentSize', 'signal', 'onProgress'])

// encryptStream(publicKey, options?) or encryptStream({ publicKey, ...options }).
function encryptStream(...args) {
  const [recipient, options] = keyed(args, ['publicKey'], 'encryptStream')
  const o = readOpts(options, STREAM, 'hybrid.encryptStream')
  const { payloadKey, head } = encapsulate(publicKeyOf(recipient), FORM.stream)
  try {
    return aes.encryptStream({ ...o, key: payloadKey, [LEAD]: head }) // copies the key as it starts
  } finally {
    payloadKey.fill(0)
  }
}

function decryptStream(...args) {
  const [privateKey, options] = keyed(args, ['privateKey'], 'decryptStream')
  const o = readOpts(options, STREAM, 'hybrid.decryptStream')
  if (o.segmentSize !== undefined) throw invalidArgValue('options.segmentSize', 'no segment size when decrypting (the stream header says it)', o.segmentSize)
  const key = privateKeyOf(privateKey)
  readAad(o.aad)
  const lead = {
    length: ENVELOPE_HEAD + key.suite.ctLength,
    secret: (head) => decapsulateAsync(key, readHead(key, head, FORM.stream).cts, o.signal),
  }
  return aes.decryptStream({ ...o, [LEAD]: lead })
}

// encryptFile(src, dst, publicKey, options?) or encryptFile(src, dst, { publicKey, ...options }).
function encryptFile(src, dst, ...args) {
  try {
    const [recipient, options] = keyed(args, ['publicKey'], 'encryptFile')
    const o = readOpts(options, FILE, 'hybrid.encryptFile')
    const { payloadKey, head } = encapsulate(publicKeyOf(recipient), FORM.stream)
    return aes.encryptFile(src, dst, { ...o, key: payloadKey, [LEAD]: head }).finally(() => payloadKey.fill(0))
  } catch (err) {
    return Promise.reject(err)
  }
}

function decryptFile(src, dst, ...args) {
  const [privateKey, options] = keyed(args, ['privateKey'], 'decryptFile')
  return runAsync(signalOf(options), async (_, ctx) => {
    const o = readOpts(options, FILE, 'hybrid.decryptFile')
    const key = privateKeyOf(privateKey)
    if (ctx !== undefined) ctx.algorithm = key.suite.name
    const head = await readFileHead(src, ENVELOPE_HEAD + key.suite.ctLength)
    const payloadKey = await decapsulateAsync(key, readHead(key, head, FORM.stream).cts, o.signal)
    try {
      // Version-1 payloads open too: their key comes from the KEM ciphertexts, so nobody can
      // choose or guess it, and version 1's missing key commitment gives no attack here.
      return await aes.decryptFile(src, dst, { ...o, key: payloadKey, allowV1: true, [LEAD]: head })
    } finally {
      payloadKey.fill(0)
    }
  }, TRACE.decryptFile)
}

async function readFileHead(path, n) {
  const fh = await fsp.open(path, 'r')
  try {
    const buf = Buffer.alloc(n)
    const { bytesRead } = await fh.read(buf, 0, n, 0)
    return buf.subarray(0, bytesRead)
  } finally {
    await fh.close()
  }
}

// ---- signatures ---------------------------------------------------------------------------------

/** What every component signs: label ‖ suite ‖ SHA3-256(signer's public key) ‖ SHA-512(data). */
const signedMessage = (key, data) =>
  Buffer.concat([SIG_LABEL, Buffer.from([key.suite.id]), key.pubHash, sha.sha512(data, { outputFormat: 'buffer' })])

const sigOut = (suite, sigs) => Buffer.concat([Buffer.from([VERSION, suite.id]), ...sigs])
const SIGN = new Set()
const SIGN_ASYNC = new Set(['signal'])

// sign(data, privateKey, options?) or sign(data, { privateKey, ...options }).
const signArgs = (args) => keyed(args, ['privateKey'], 'sign')

function sign(data, ...args) {
  const [privateKey, options] = signArgs(args)
  readOpts(options, SIGN, 'hybrid.sign')
  const key = privateKeyOf(privateKey)
  const m = signedMessage(key, bytesOf(data, 'data'))
  const off = key.suite.kems.length
  return sigOut(key.suite, key.suite.sigs.map((s, i) => s.sign(key.fields[off + i], m)))
}

function signAsync(data, ...args) {
  const [privateKey, options] = signArgs(args)
  return runAsync(signalOf(options), async (_, ctx) => {
    const o = readOpts(options, SIGN_ASYNC, 'hybrid.signAsync')
    const key = privateKeyOf(privateKey)
    const d = bytesOf(data, 'data')
    if (ctx !== undefined) {
      ctx.algorithm = key.suite.name
      ctx.bytesIn = d.length
    }
    const m = signedMessage(key, d)
    const off = key.suite.kems.length
    return sigOut(key.suite, await Promise.all(key.suite.sigs.map((s, i) => s.signAsync(key.fields[off + i], m, o.signal))))
  }, TRACE.sign)
}

// verify(data, publicKey, signature, options?) or verify(data, { publicKey, signature, ...options }).
const verifyArgs = (args) => keyed(args, ['publicKey', 'signature'], 'verify')

/**
 * The bytes of a composite signature. A signature is never a string, so a string here is a PEM
 * public key given after the signature, an order that is not read: the error says the order.
 */
function signatureBytes(signature) {
  const sig = asBuffer(signature)
  if (sig) return sig
  const order = typeof signature === 'string' ? 'the arguments are hybrid.verify(data, publicKey, signature), the public key before the signature' : ''
  throw invalidArgType('signature', 'an instance of Buffer, TypedArray, DataView or ArrayBuffer', signature, order)
}

/**
 * The components' verifications of a composite signature: a list of `check(component, key, m',
 * part)` results, or null when the signature's length, version or suite is not the key's.
 */
function eachComponent(data, signature, publicKey, check) {
  const sig = signatureBytes(signature)
  const key = publicKeyOf(publicKey)
  const d = bytesOf(data, 'data')
  const { suite } = key
  if (sig.length !== suite.sigLength || sig[0] !== VERSION || sig[1] !== suite.id) return null
  const m = signedMessage(key, d)
  const off = suite.kems.length
  let at = 2
  return suite.sigs.map((s, i) => {
    const part = sig.subarray(at, at + s.sigLength)
    at += s.sigLength
    return check(s, key.fields[off + i], m, part)
  })
}

function verify(data, ...args) {
  const [publicKey, signature, options] = verifyArgs(args)
  readOpts(options, SIGN, 'hybrid.verify')
  const results = eachComponent(data, signature, publicKey, (s, k, m, part) => s.verify(k, m, part))
  return results !== null && results.every(Boolean)
}

function verifyAsync(data, ...args) {
  const [publicKey, signature, options] = verifyArgs(args)
  return runAsync(signalOf(options), async () => {
    const o = readOpts(options, SIGN_ASYNC, 'hybrid.verifyAsync')
    // Every component call starts here, before any await: each copies its inputs as it is made.
    const results = eachComponent(data, signature, publicKey, (s, k, m, part) => s.verifyAsync(k, m, part, o.signal))
    return results !== null && (await Promise.all(results)).every(Boolean)
  }, TRACE.verify)
}

/** What each async call publishes as (./diagnostics.js); the suite is named once the key is read. */
const TRACE = {}
for (const op of ['generateKeypair', 'encrypt', 'decrypt', 'decryptFile', 'sign', 'verify']) TRACE[op] = diagnostics.kind('hybrid', op, 'hybrid')

const hybrid = Object.freeze(
  explicit(
    {
      suites: Object.freeze(SUITES.map((s) => s.name)),
      generateKeypair,
      generateKeypairAsync,
      getPublicKey,
      encrypt,
      encryptAsync,
      decrypt,
      decryptAsync,
      encryptStream,
      decryptStream,
      encryptFile,
      decryptFile,
      sign,
      signAsync,
      verify,
      verifyAsync,
    },
    { sync: ['generateKeypair', 'encrypt', 'decrypt', 'sign', 'verify'] },
  ),
)

module.exports = { hybrid }
