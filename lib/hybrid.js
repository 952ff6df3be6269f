'use strict'
// crypto.hybrid: public-key encryption and signatures that stay secure while EITHER of their two
// components does, one classical and one post-quantum (byte formats: docs/hybrid-format.md).
//
// - Encryption is a KEM combiner in the manner of X-Wing: the payload key is SHA3-256 over a
//   label, the suite, EVERY component's shared secret, every KEM ciphertext and the recipient's
//   public key, so an attacker must break all components to learn it. (Seed 004 wrapped the key
//   under each component separately and used the second "only if the first fails": that is as weak
//   as the weaker component, since breaking either one unwraps the key.)
// - A composite signature is one signature per component over the same domain-separated
//   message (label, suite, hash of the signer's whole public key, SHA-512 of the data); it
//   verifies only when every component does, so a component cannot be stripped, used alone, or
//   moved into another composite.
// - Each suite is a list of components in the one table of `suites()`; the code below is generic
//   over it. Components are the library's own algorithms (crypto.kem, crypto.dsa, crypto.cipher.rsa_oaep).
const nodeCrypto = require('crypto')
const fsp = require('fs/promises')
const { checkOptions } = require('./options')
const { coded, BYTES, invalidArgType, invalidArgValue } = require('./errors')
const { runAsync } = require('./abort')
const { asBuffer, armor, unarmor, parseKey, parsedOnce, encodeKey, rsaModulusBits, x25519Canonical, ed25519Canonical } = require('./keys')
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

const decryptFailed = (why) => coded(Error, 'ERR_CRYPTO_DECRYPT_FAILED', `Unable to decrypt the hybrid envelope: ${why}`)
const invalidKey = (name, expected, got) =>
  coded(TypeError, 'ERR_CRYPTO_INVALID_KEY', `The "${name}" argument must be ${expected}. ${got}`)

const u16 = (n) => Buffer.from([n >> 8, n & 0xff])

/** Bytes as a Buffer view (a string as UTF-8), or a TypeError naming `name`. */
function bytesOf(v, name, expected = BYTES) {
  if (typeof v === 'string') return Buffer.from(v, 'utf8')
  const b = asBuffer(v)
  if (!b) throw invalidArgType(name, expected, v)
  return b
}

/**
 * The components, over the library's own algorithms (`lib` = the crypto object). Each has
 * generate / generateAsync, publicOf(private key), checkPublic / checkPrivate (its key bytes:
 * undefined when they are the component's key in its one canonical form, else what they are).
 * A KEM adds encapsulate(pub) -> { ciphertext, sharedSecret } and decapsulate(ct, priv) (+ Async)
 * and a fixed ciphertext length; a signer adds sign / verify (+ Async) and a fixed signature
 * length. Async forms take the caller's `signal`.
 */
function components(lib) {
  const { kem, dsa, cipher, keys } = lib
  const length = (b, n, what) => (b.length === n ? undefined : `is ${b.length} bytes, not the ${n} of ${what}`)
  // ML-KEM, X-Wing, ML-DSA: private keys are seeds (every value is one), public keys fixed-length
  // bytes, with `check(pub)` for what else the encoding must satisfy.
  const seeded = (name, alg, check = () => undefined) => ({
    name,
    generate: () => alg.generateKeypair(),
    generateAsync: async () => alg.generateKeypair(), // ~40-120 µs: not worth a pool round trip
    publicOf: (priv) => alg.generateKeypair({ seed: priv }).publicKey,
    checkPublic: (pub) => length(pub, alg.lengths.publicKey, 'a public key') || check(pub),
    checkPrivate: (priv) => length(priv, alg.lengths.seed, 'a seed'),
  })
  // ML-KEM encapsulation keys: the FIPS 203 modulus check (the key layer's, for raw public keys),
  // which every encoded coefficient must pass to be the one encoding of the key.
  const modulusCheck = (name) => (pub) => {
    try {
      parseKey(pub, { alg: name, private: false }, 'publicKey')
    } catch {
      return 'fails the FIPS 203 modulus check (a coefficient is not below q = 3329)'
    }
  }
  // X-Wing: ML-KEM-768 ‖ X25519; the X25519 u-coordinate below p with its top bit clear.
  const xwingCheck = (pub) =>
    modulusCheck('x-wing')(pub) || (x25519Canonical(pub.subarray(-32)) ? undefined : 'has a non-canonical X25519 part (u >= p or its top bit set)')
  // RSA-4096: DER keys through the key layer, which keeps each parsed key; canonical = the bytes
  // the key layer writes for the key it reads (SPKI / PKCS#8 v1, minimal DER), so PKCS#1 or
  // another encoding of the same key, or a private key standing for its public half, is refused.
  const rsaCheck = (der, isPrivate) => {
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
    generate: () => dsa.rsa.generateKeypair(RSA_GEN),
    generateAsync: (signal) => dsa.rsa.generateKeypairAsync({ ...RSA_GEN, signal }),
    publicOf: (priv) => keys.export(priv, { format: 'der', public: true }),
    checkPublic: (pub) => rsaCheck(pub, false),
    checkPrivate: (priv) => rsaCheck(priv, true),
  })

  const mlkem = (name, alg, check = modulusCheck(name)) => ({
    ...seeded(name, alg, check),
    ctLength: alg.lengths.ciphertext,
    encapsulate: (pub) => alg.encapsulate(pub),
    decapsulate: (ct, priv) => alg.decapsulate(ct, priv),
    decapsulateAsync: async (ct, priv) => alg.decapsulate(ct, priv),
  })
  // RSA-OAEP as a KEM: a random 32-byte secret, encrypted. A failed decryption gives a random
  // secret (as ML-KEM's implicit rejection does), so it shows only at the payload's tag; any
  // other error (a bug, an abort) is not hidden.
  const oaep = { hash: 'sha256', label: OAEP_LABEL }
  const implicit = (err) => {
    if (err.code !== 'ERR_CRYPTO_DECRYPT_FAILED') throw err
    return nodeCrypto.randomBytes(32)
  }
  const rsaSecret = (s) => (s.length === 32 ? s : nodeCrypto.randomBytes(32))
  const rsaOaep = {
    ...rsa4096('rsa-oaep-4096'),
    ctLength: RSA_BITS / 8,
    encapsulate(pub) {
      const sharedSecret = nodeCrypto.randomBytes(32)
      return { ciphertext: cipher.rsa_oaep.encrypt(sharedSecret, pub, oaep), sharedSecret }
    },
    decapsulate(ct, priv) {
      try {
        return rsaSecret(cipher.rsa_oaep.decrypt(ct, priv, oaep))
      } catch (err) {
        return implicit(err)
      }
    },
    decapsulateAsync: (ct, priv, signal) => cipher.rsa_oaep.decryptAsync(ct, priv, { ...oaep, signal }).then(rsaSecret, implicit),
  }

  const mldsa = (name, alg) => {
    const ctx = { context: SIG_LABEL }
    return {
      ...seeded(name, alg),
      sigLength: alg.lengths.signature,
      sign: (priv, m) => alg.sign(priv, m, ctx),
      signAsync: (priv, m, signal) => alg.signAsync(priv, m, { ...ctx, signal }),
      verify: (pub, m, sig) => alg.verify(pub, m, sig, ctx),
      verifyAsync: (pub, m, sig, signal) => alg.verifyAsync(pub, m, sig, { ...ctx, signal }),
    }
  }
  const ed25519 = {
    name: 'ed25519',
    sigLength: 64,
    generate: () => dsa.ed25519.generateKeypair(),
    generateAsync: async () => dsa.ed25519.generateKeypair(),
    publicOf: (priv) => keys.export(priv, { algorithm: 'ed25519', keyType: 'private', format: 'raw', public: true }),
    checkPublic: (pub) => length(pub, 32, 'a public key') || (ed25519Canonical(pub) ? undefined : 'is not the canonical encoding of a point (RFC 8032 5.1.3)'),
    checkPrivate: (priv) => length(priv, 32, 'a seed'),
    // Ed25519 takes ~20-60 µs: the "async" forms run it here.
    sign: (priv, m) => dsa.ed25519.sign(priv, m),
    signAsync: async (priv, m) => dsa.ed25519.sign(priv, m),
    verify: (pub, m, sig) => dsa.ed25519.verify(pub, m, sig),
    verifyAsync: async (pub, m, sig) => dsa.ed25519.verify(pub, m, sig),
  }
  const pss = { hash: 'sha512', saltLength: 64 }
  const rsaPss = {
    ...rsa4096('rsa-pss-4096'),
    sigLength: RSA_BITS / 8,
    sign: (priv, m) => dsa.rsa.signPSS(m, priv, pss),
    signAsync: (priv, m, signal) => dsa.rsa.signPSSAsync(m, priv, { ...pss, signal }),
    verify: (pub, m, sig) => dsa.rsa.verifyPSS(m, pub, sig, pss),
    verifyAsync: (pub, m, sig, signal) => dsa.rsa.verifyPSSAsync(m, pub, sig, { ...pss, signal }),
  }
  return {
    xwing: mlkem('x-wing', kem.xwing, xwingCheck),
    mlkem1024: mlkem('ml-kem-1024', kem.mlkem1024),
    rsaOaep,
    ed25519,
    mldsa65: mldsa('ml-dsa-65', dsa.mldsa65),
    mldsa87: mldsa('ml-dsa-87', dsa.mldsa87),
    rsaPss,
  }
}

/** The suites: one id byte each, the KEM components, then the signature components. */
function suites(c) {
  return [
    { id: 1, name: 'x25519-mlkem768', kems: [c.xwing], sigs: [c.ed25519, c.mldsa65] },
    { id: 2, name: 'rsa4096-mlkem1024', kems: [c.rsaOaep, c.mlkem1024], sigs: [c.rsaPss, c.mldsa87] },
  ].map((s) => {
    const parts = [...s.kems, ...s.sigs]
    return Object.freeze({
      ...s,
      parts,
      ctLength: s.kems.reduce((n, k) => n + k.ctLength, 0),
      sigLength: 2 + s.sigs.reduce((n, k) => n + k.sigLength, 0),
    })
  })
}

// ---- key bytes ------------------------------------------------------------------------------

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

/**
 * A hybrid key, parsed and checked: { suite, private, fields (component keys), pub (the public
 * key bytes), pubHash }. Byte keys passed again (the same object holding the same bytes,
 * compared in constant time) are parsed once: a private key's public half is derived, and
 * RSA keys checked, only then; the component keys stay the same objects, so the components'
 * own key caches hold too.
 */
function keyParser(bySuite, hash) {
  const seen = new WeakMap()
  return function parse(input, kind, name) {
    const buf = keyBytes(input, kind, name)
    const read = (b) => parseBlob(bySuite, hash, b, kind, name)
    return typeof input === 'object' ? parsedOnce(seen, input, buf, kind, read) : read(buf)
  }
}

function parseBlob(bySuite, hash, buf, kind, name) {
  const bad = (why) => invalidKey(name, `a hybrid ${kind === 'publicKey' ? 'public' : 'private'} key`, why)
  if (buf.length > MAX_KEY_BYTES) throw bad(`Received ${buf.length} bytes (at most ${MAX_KEY_BYTES})`)
  const magic = buf.subarray(0, 8).toString('latin1')
  if (magic !== MAGIC[kind]) {
    const other = Object.keys(MAGIC).find((k) => MAGIC[k] === magic)
    throw bad(other ? `Received a hybrid ${other}` : 'The bytes do not start with a hybrid key header')
  }
  if (buf[8] !== VERSION) throw bad(`Unknown version ${buf[8]}`)
  const suite = bySuite.get(buf[9])
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
  return { suite, private: isPrivate, fields, pub, pubHash: hash(pub) }
}

// ---- the namespace --------------------------------------------------------------------------

function makeHybrid(lib) {
  const all = suites(components(lib))
  const byName = new Map(all.map((s) => [s.name, s]))
  const byId = new Map(all.map((s) => [s.id, s]))
  const { aes } = lib.cipher
  const sha3 = (...parts) => lib.sha.sha3_256(Buffer.concat(parts), { outputFormat: 'buffer' })
  const parse = keyParser(byId, sha3)
  const publicKey = (k, name = 'publicKey') => parse(k, 'publicKey', name)
  const privateKey = (k, name = 'privateKey') => parse(k, 'privateKey', name)

  const readSuite = (v) => {
    if (v === undefined) return all[0]
    const s = byName.get(v)
    if (!s) throw invalidArgValue('options.suite', `one of ${all.map((x) => `'${x.name}'`).join(', ')}`, v)
    return s
  }
  const readFormat = (v) => {
    if (v === undefined || v === 'raw') return 'raw'
    if (v === 'pem') return 'pem'
    throw invalidArgValue('options.format', "'raw' or 'pem'", v)
  }
  const readOpts = (o, allowed, what) => {
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
  function generateKeypair(options) {
    const o = readOpts(options, GEN, 'hybrid.generateKeypair')
    const suite = readSuite(o.suite)
    return keypairOut(suite, suite.parts.map((p) => p.generate()), readFormat(o.format))
  }
  function generateKeypairAsync(options) {
    return runAsync(options?.signal, async () => {
      const o = readOpts(options, new Set([...GEN, 'signal']), 'hybrid.generateKeypairAsync')
      const suite = readSuite(o.suite)
      const format = readFormat(o.format)
      // The components on the pool side by side (RSA-4096 key generation dominates).
      return keypairOut(suite, await Promise.all(suite.parts.map((p) => p.generateAsync(o.signal))), format)
    })
  }

  // ---- encryption

  /** The payload key: SHA3-256(label ‖ suite ‖ every secret ‖ every ciphertext ‖ H(public key)). */
  const combine = (suite, secrets, cts, pubHash) => sha3(KEM_LABEL, Buffer.from([suite.id]), ...secrets, ...cts, pubHash)

  function encapsulate(key, form) {
    const { suite } = key
    const out = suite.kems.map((k, i) => k.encapsulate(key.fields[i]))
    const cts = out.map((e) => e.ciphertext)
    const payloadKey = combine(suite, out.map((e) => e.sharedSecret), cts, key.pubHash)
    out.forEach((e) => e.sharedSecret.fill(0))
    const head = Buffer.concat([Buffer.from(MAGIC.envelope), Buffer.from([VERSION, suite.id, form]), ...cts])
    return { payloadKey, head }
  }

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

  function payloadKeyOf(key, cts, secrets) {
    const k = combine(key.suite, secrets, cts, key.pubHash)
    secrets.forEach((s) => s.fill(0))
    return k
  }

  const SIGNAL = new Set(['signal'])
  const ENC = new Set(['aad'])
  const ENC_ASYNC = new Set(['aad', 'signal'])

  const gcm = (payloadKey, aad) => ({ key: payloadKey, iv: GCM_NONCE, mode: 'gcm', aad, outputFormat: 'buffer' })

  /** The envelope, allocated once: the head, then the payload sealed into the rest (`output`). */
  function seal(data, pub, o) {
    const { payloadKey, head } = encapsulate(pub, FORM.oneShot)
    const aad = Buffer.concat([head.subarray(0, ENVELOPE_HEAD), readAad(o.aad)])
    const env = Buffer.allocUnsafe(head.length + data.length + GCM_TAG)
    head.copy(env)
    try {
      aes.encrypt(data, { ...gcm(payloadKey, aad), output: env.subarray(head.length) })
    } finally {
      payloadKey.fill(0)
    }
    return env
  }

  // A refusal of the payload, whichever its cause, is the envelope's one decryption error.
  const refused = (err) => {
    if (err.code === 'ERR_CRYPTO_DECRYPT_FAILED' || err.code === 'ERR_OUT_OF_RANGE') throw decryptFailed('a component or the payload did not verify')
    throw err
  }

  /** Opens the payload after `length` bytes of head with `run` (aes.decrypt or decryptAsync). */
  function openPayload(env, length, payloadKey, o, run) {
    const aad = Buffer.concat([env.subarray(0, ENVELOPE_HEAD), readAad(o.aad)])
    try {
      // The key is copied by the call itself (an async one at call time): wiped below.
      const out = run(env.subarray(length), gcm(payloadKey, aad))
      return out instanceof Promise ? out.catch(refused) : out
    } catch (err) {
      return refused(err)
    } finally {
      payloadKey.fill(0)
    }
  }

  const decapsulateAll = (key, cts) => key.suite.kems.map((k, i) => k.decapsulate(cts[i], key.fields[i]))
  const decapsulateAllAsync = (key, cts, signal) => Promise.all(key.suite.kems.map((k, i) => k.decapsulateAsync(cts[i], key.fields[i], signal)))

  function encrypt(data, recipientPublicKey, options) {
    const o = readOpts(options, ENC, 'hybrid.encrypt')
    return seal(bytesOf(data, 'data'), publicKey(recipientPublicKey, 'recipientPublicKey'), o)
  }
  function decrypt(envelope, privKey, options) {
    const o = readOpts(options, ENC, 'hybrid.decrypt')
    const key = privateKey(privKey)
    const env = bytesOf(envelope, 'envelope')
    const { cts, length } = readHead(key, env, FORM.oneShot)
    return openPayload(env, length, payloadKeyOf(key, cts, decapsulateAll(key, cts)), o, aes.decrypt)
  }
  function encryptAsync(data, recipientPublicKey, options) {
    return runAsync(options?.signal, async () => {
      const o = readOpts(options, ENC_ASYNC, 'hybrid.encryptAsync')
      const pub = publicKey(recipientPublicKey, 'recipientPublicKey')
      const { payloadKey, head } = encapsulate(pub, FORM.oneShot)
      const aad = Buffer.concat([head.subarray(0, ENVELOPE_HEAD), readAad(o.aad)])
      // encryptAsync copies the data (and the key) as it is called, before any await here.
      const sealed = aes.encryptAsync(bytesOf(data, 'data'), { ...gcm(payloadKey, aad), signal: o.signal })
      payloadKey.fill(0)
      return Buffer.concat([head, await sealed])
    })
  }
  function decryptAsync(envelope, privKey, options) {
    return runAsync(options?.signal, async () => {
      const o = readOpts(options, ENC_ASYNC, 'hybrid.decryptAsync')
      const key = privateKey(privKey)
      // Copied now: the payload is opened after the decapsulations, by then the caller's bytes
      // may have changed (decryptAsync copies the payload again: the price of the pool).
      const env = Buffer.from(bytesOf(envelope, 'envelope'))
      const { cts, length } = readHead(key, env, FORM.oneShot)
      const payloadKey = payloadKeyOf(key, cts, await decapsulateAllAsync(key, cts, o.signal))
      return openPayload(env, length, payloadKey, o, (ct, opts) => aes.decryptAsync(ct, { ...opts, signal: o.signal }))
    })
  }

  // ---- streams and files: the streaming AEAD format (docs/stream-format.md) under the payload
  // key, after the envelope's head.

  const STREAM = new Set(['aad', 'segmentSize', 'signal'])
  const FILE = new Set(['aad', 'segmentSize', 'signal', 'onProgress'])

  // The Transforms are the streaming AEAD's own, with the envelope's head as their lead: written
  // first when sealing; when opening, collected with the header and decapsulated for the key.
  function encryptStream(recipientPublicKey, options) {
    const o = readOpts(options, STREAM, 'hybrid.encryptStream')
    const pub = publicKey(recipientPublicKey, 'recipientPublicKey')
    const { payloadKey, head } = encapsulate(pub, FORM.stream)
    try {
      return aes.encryptStream({ ...o, key: payloadKey, [LEAD]: head }) // copies the key as it starts
    } finally {
      payloadKey.fill(0)
    }
  }

  function decryptStream(privKey, options) {
    const o = readOpts(options, STREAM, 'hybrid.decryptStream')
    if (o.segmentSize !== undefined) throw invalidArgValue('options.segmentSize', 'no segment size when decrypting (the stream header says it)', o.segmentSize)
    const key = privateKey(privKey)
    readAad(o.aad)
    const lead = {
      length: ENVELOPE_HEAD + key.suite.ctLength,
      async secret(head) {
        const { cts } = readHead(key, head, FORM.stream)
        return payloadKeyOf(key, cts, await decapsulateAllAsync(key, cts, o.signal))
      },
    }
    return aes.decryptStream({ ...o, [LEAD]: lead })
  }

  function encryptFile(src, dst, recipientPublicKey, options) {
    try {
      const o = readOpts(options, FILE, 'hybrid.encryptFile')
      const pub = publicKey(recipientPublicKey, 'recipientPublicKey')
      const { payloadKey, head } = encapsulate(pub, FORM.stream)
      return aes.encryptFile(src, dst, { ...o, key: payloadKey, [LEAD]: head }).finally(() => payloadKey.fill(0))
    } catch (err) {
      return Promise.reject(err)
    }
  }

  function decryptFile(src, dst, privKey, options) {
    return runAsync(options?.signal, async () => {
      const o = readOpts(options, FILE, 'hybrid.decryptFile')
      const key = privateKey(privKey)
      const head = await readFileHead(src, ENVELOPE_HEAD + key.suite.ctLength)
      const { cts } = readHead(key, head, FORM.stream)
      const payloadKey = payloadKeyOf(key, cts, await decapsulateAllAsync(key, cts, o.signal))
      try {
        // Version-1 payloads open too: their key comes from the KEM ciphertexts, so nobody can
        // choose or guess it, and version 1's missing key commitment gives no attack here.
        return await aes.decryptFile(src, dst, { ...o, key: payloadKey, allowV1: true, [LEAD]: head })
      } finally {
        payloadKey.fill(0)
      }
    })
  }

  // ---- signatures

  /** What every component signs: label ‖ suite ‖ SHA3-256(signer's public key) ‖ SHA-512(data). */
  const signedMessage = (key, data) =>
    Buffer.concat([SIG_LABEL, Buffer.from([key.suite.id]), key.pubHash, lib.sha.sha512(data, { outputFormat: 'buffer' })])

  const sigOut = (suite, sigs) => Buffer.concat([Buffer.from([VERSION, suite.id]), ...sigs])

  function sign(data, privKey) {
    const key = privateKey(privKey)
    const m = signedMessage(key, bytesOf(data, 'data'))
    const off = key.suite.kems.length
    return sigOut(key.suite, key.suite.sigs.map((s, i) => s.sign(key.fields[off + i], m)))
  }
  function signAsync(data, privKey, options) {
    return runAsync(options?.signal, async () => {
      const o = readOpts(options, SIGNAL, 'hybrid.signAsync')
      const key = privateKey(privKey)
      const m = signedMessage(key, bytesOf(data, 'data'))
      const off = key.suite.kems.length
      return sigOut(key.suite, await Promise.all(key.suite.sigs.map((s, i) => s.signAsync(key.fields[off + i], m, o.signal))))
    })
  }
  /**
   * The components' verifications of a composite signature: a list of `check(component, key,
   * m', part)` results, or null when the signature's length, version or suite is not the key's.
   */
  function eachComponent(data, signature, pubKey, check) {
    const key = publicKey(pubKey)
    const d = bytesOf(data, 'data')
    const sig = asBuffer(signature)
    if (!sig) throw invalidArgType('signature', BYTES, signature)
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
  function verify(data, signature, pubKey) {
    const results = eachComponent(data, signature, pubKey, (s, k, m, part) => s.verify(k, m, part))
    return results !== null && results.every(Boolean)
  }
  function verifyAsync(data, signature, pubKey, options) {
    return runAsync(options?.signal, async () => {
      const o = readOpts(options, SIGNAL, 'hybrid.verifyAsync')
      // Every component call starts here, before any await: each copies its inputs as it is made.
      const results = eachComponent(data, signature, pubKey, (s, k, m, part) => s.verifyAsync(k, m, part, o.signal))
      return results !== null && (await Promise.all(results)).every(Boolean)
    })
  }

  function getPublicKey(privKey, options) {
    const o = readOpts(options, new Set(['format']), 'hybrid.getPublicKey')
    const { pub } = privateKey(privKey)
    return readFormat(o.format) === 'pem' ? armor(pub, PEM.publicKey) : Buffer.from(pub)
  }

  return Object.freeze({
    suites: Object.freeze(all.map((s) => s.name)),
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
  })
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

module.exports = { makeHybrid }
