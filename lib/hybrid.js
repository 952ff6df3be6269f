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
// - Each suite is a list of components in the one table `SUITES`; the code below is generic over
//   it. Components are the library's own algorithms (crypto.kem, crypto.dsa, crypto.cipher.rsa_oaep).
const nodeCrypto = require('crypto')
const { Transform } = require('node:stream')
const fsp = require('fs/promises')
const { checkOptions } = require('./options')
const { coded, BYTES, invalidArgType, invalidArgValue } = require('./errors')
const { runAsync, checkSignal } = require('./abort')
const { isBytes } = require('./hash-stream')

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
const MAX_KEY_BYTES = 16 * 1024
const RSA_BITS = 4096

const decryptFailed = (why) => coded(Error, 'ERR_CRYPTO_DECRYPT_FAILED', `Unable to decrypt the hybrid envelope: ${why}`)
const invalidKey = (name, expected, got) =>
  coded(TypeError, 'ERR_CRYPTO_INVALID_KEY', `The "${name}" argument must be ${expected}. ${got}`)

const u16 = (n) => Buffer.from([n >> 8, n & 0xff])
const sha3 = (...parts) => nodeCrypto.createHash('sha3-256').update(Buffer.concat(parts)).digest()

/**
 * The components, over the library's own algorithms (`lib` = the crypto object). A KEM has
 * generate(seed?), encapsulate(pub) -> { ciphertext, sharedSecret }, decapsulate(ct, priv) and
 * decapsulateAsync, a fixed ciphertext length, and checks for its key bytes; a signer has
 * generate, sign, signAsync, verify and a fixed signature length.
 */
function components(lib) {
  const { kem, dsa, cipher } = lib
  const mlkem = (name, alg) => ({
    name,
    ctLength: alg.lengths.ciphertext,
    generate: () => alg.generateKeypair(),
    generateAsync: async () => alg.generateKeypair(),
    publicOf: (priv) => alg.generateKeypair({ seed: priv }).publicKey,
    checkPublic: (pub) => pub.length === alg.lengths.publicKey,
    checkPrivate: (priv) => priv.length === alg.lengths.seed,
    encapsulate: (pub) => alg.encapsulate(pub),
    decapsulate: (ct, priv) => alg.decapsulate(ct, priv),
    decapsulateAsync: async (ct, priv) => alg.decapsulate(ct, priv),
  })
  // RSA-OAEP as a KEM: a random 32-byte secret, encrypted. A failed decryption gives a random
  // secret (as ML-KEM's implicit rejection does), so it shows only at the payload's tag.
  const oaep = { hash: 'sha256', label: OAEP_LABEL }
  const rsaSecret = (s) => (s.length === 32 ? s : nodeCrypto.randomBytes(32))
  const rsaOaep = {
    name: 'rsa-oaep-4096',
    ctLength: RSA_BITS / 8,
    generate: () => rsaKeypair(lib, false),
    generateAsync: () => rsaKeypair(lib, true),
    publicOf: (priv) => lib.keys.export(priv, { format: 'der', public: true }),
    checkPublic: (pub) => rsaBits(pub, false) === RSA_BITS,
    checkPrivate: (priv) => rsaBits(priv, true) === RSA_BITS,
    encapsulate(pub) {
      const sharedSecret = nodeCrypto.randomBytes(32)
      return { ciphertext: cipher.rsa_oaep.encrypt(sharedSecret, pub, oaep), sharedSecret }
    },
    decapsulate(ct, priv) {
      try {
        return rsaSecret(cipher.rsa_oaep.decrypt(ct, priv, oaep))
      } catch {
        return nodeCrypto.randomBytes(32)
      }
    },
    decapsulateAsync: (ct, priv) =>
      cipher.rsa_oaep.decryptAsync(ct, priv, oaep).then(rsaSecret, () => nodeCrypto.randomBytes(32)),
  }
  const mldsa = (name, alg) => ({
    name,
    sigLength: alg.lengths.signature,
    generate: () => alg.generateKeypair(),
    generateAsync: async () => alg.generateKeypair(),
    publicOf: (priv) => alg.generateKeypair({ seed: priv }).publicKey,
    checkPublic: (pub) => pub.length === alg.lengths.publicKey,
    checkPrivate: (priv) => priv.length === alg.lengths.seed,
    sign: (priv, m) => alg.sign(priv, m, { context: SIG_LABEL }),
    signAsync: (priv, m) => alg.signAsync(priv, m, { context: SIG_LABEL }),
    verify: (pub, m, sig) => alg.verify(pub, m, sig, { context: SIG_LABEL }),
    verifyAsync: (pub, m, sig) => alg.verifyAsync(pub, m, sig, { context: SIG_LABEL }),
  })
  const ed25519 = {
    name: 'ed25519',
    sigLength: 64,
    generate: () => dsa.ed25519.generateKeypair(),
    generateAsync: async () => dsa.ed25519.generateKeypair(),
    publicOf: (priv) => lib.keys.export(priv, { algorithm: 'ed25519', keyType: 'private', format: 'raw', public: true }),
    checkPublic: (pub) => pub.length === 32,
    checkPrivate: (priv) => priv.length === 32,
    sign: (priv, m) => dsa.ed25519.sign(priv, m),
    signAsync: async (priv, m) => dsa.ed25519.sign(priv, m),
    verify: (pub, m, sig) => dsa.ed25519.verify(pub, m, sig),
    verifyAsync: async (pub, m, sig) => dsa.ed25519.verify(pub, m, sig),
  }
  const pss = { hash: 'sha512', saltLength: 64 }
  const rsaPss = {
    name: 'rsa-pss-4096',
    sigLength: RSA_BITS / 8,
    generate: () => rsaKeypair(lib, false),
    generateAsync: () => rsaKeypair(lib, true),
    publicOf: rsaOaep.publicOf,
    checkPublic: rsaOaep.checkPublic,
    checkPrivate: rsaOaep.checkPrivate,
    sign: (priv, m) => dsa.rsa.signPSS(m, priv, pss),
    signAsync: (priv, m) => dsa.rsa.signPSSAsync(m, priv, pss),
    verify: (pub, m, sig) => dsa.rsa.verifyPSS(m, pub, sig, pss),
    verifyAsync: (pub, m, sig) => dsa.rsa.verifyPSSAsync(m, pub, sig, pss),
  }
  return {
    xwing: mlkem('x-wing', kem.xwing),
    mlkem1024: mlkem('ml-kem-1024', kem.mlkem1024),
    rsaOaep,
    ed25519,
    mldsa65: mldsa('ml-dsa-65', dsa.mldsa65),
    mldsa87: mldsa('ml-dsa-87', dsa.mldsa87),
    rsaPss,
  }
}

function rsaKeypair(lib, async) {
  const o = { modulusLength: RSA_BITS, format: 'der' }
  const pair = (k) => ({ publicKey: k.publicKey, privateKey: k.privateKey })
  return async ? lib.dsa.rsa.generateKeypairAsync(o).then(pair) : pair(lib.dsa.rsa.generateKeypair(o))
}

/** The modulus length of a DER RSA key (SPKI or PKCS#8), or 0 for anything else. */
function rsaBits(der, isPrivate) {
  try {
    const k = isPrivate
      ? nodeCrypto.createPrivateKey({ key: der, format: 'der', type: 'pkcs8' })
      : nodeCrypto.createPublicKey({ key: der, format: 'der', type: 'spki' })
    return k.asymmetricKeyType === 'rsa' ? k.asymmetricKeyDetails.modulusLength : 0
  } catch {
    return 0
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

function toPem(kind, blob) {
  const b64 = blob.toString('base64').replace(/.{64}/g, '$&\n').replace(/\n$/, '')
  return `-----BEGIN ${PEM[kind]}-----\n${b64}\n-----END ${PEM[kind]}-----\n`
}

const PEM_RE = /^-----BEGIN ([A-Z0-9 .]+)-----\r?\n([A-Za-z0-9+/=\r\n]*?)\r?\n?-----END \1-----\s*$/

/** The bytes of a key input: bytes, or PEM with the label of `kind`. */
function keyBytes(input, kind, name) {
  if (typeof input === 'string') {
    if (input.length > 2 * MAX_KEY_BYTES) throw invalidKey(name, `a hybrid ${kind}`, `Received ${input.length} characters`)
    const m = PEM_RE.exec(input.trim())
    if (!m || m[1] !== PEM[kind]) throw invalidKey(name, `a hybrid ${kind} (bytes, or PEM "${PEM[kind]}")`, 'Malformed or mislabelled PEM')
    const body = m[2].replace(/\r?\n/g, '')
    if (body.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(body)) throw invalidKey(name, 'a PEM key', 'Malformed base64')
    return Buffer.from(body, 'base64')
  }
  if (!isBytes(input)) throw invalidArgType(name, `a hybrid ${kind} (${BYTES}, or a PEM string)`, input)
  return Buffer.from(input.buffer ?? input, input.byteOffset ?? 0, input.byteLength)
}

/**
 * A hybrid key, parsed and checked: { suite, private, fields (component keys), pub (the public
 * key bytes), pubHash }. Byte keys passed again (the same object holding the same bytes,
 * compared in constant time) are parsed once: a private key's public half is derived, and
 * RSA keys checked, only then; the component keys stay the same objects, so the components'
 * own key caches hold too.
 */
function keyParser(bySuite) {
  const seen = new WeakMap()
  return function parse(input, kind, name) {
    const buf = keyBytes(input, kind, name)
    const cacheable = typeof input === 'object'
    const hit = cacheable && seen.get(input)
    if (hit && hit.kind === kind && hit.bytes.length === buf.length && nodeCrypto.timingSafeEqual(hit.bytes, buf)) return hit.key
    const key = parseBlob(bySuite, buf, kind, name)
    if (cacheable) seen.set(input, { kind, bytes: Buffer.from(buf), key })
    return key
  }
}

function parseBlob(bySuite, buf, kind, name) {
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
  const isPrivate = kind === 'privateKey'
  suite.parts.forEach((p, i) => {
    if (!(isPrivate ? p.checkPrivate(fields[i]) : p.checkPublic(fields[i]))) {
      throw bad(`Its ${p.name} component is not a valid ${p.name} ${isPrivate ? 'private' : 'public'} key for the suite '${suite.name}'`)
    }
  })
  const pub = isPrivate ? encodeBlob('publicKey', suite, suite.parts.map((p, i) => p.publicOf(fields[i]))) : buf
  return { suite, private: isPrivate, fields, pub, pubHash: sha3(pub) }
}

// ---- the namespace --------------------------------------------------------------------------

function makeHybrid(lib) {
  const all = suites(components(lib))
  const byName = new Map(all.map((s) => [s.name, s]))
  const byId = new Map(all.map((s) => [s.id, s]))
  const parse = keyParser(byId)
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
  const readAad = (v) => {
    if (v === undefined || v === null) return Buffer.alloc(0)
    if (typeof v === 'string') return Buffer.from(v, 'utf8')
    if (!isBytes(v)) throw invalidArgType('options.aad', BYTES, v)
    return Buffer.from(v.buffer ?? v, v.byteOffset ?? 0, v.byteLength)
  }
  const readData = (v, name) => {
    if (typeof v === 'string') return Buffer.from(v, 'utf8')
    if (!isBytes(v)) throw invalidArgType(name, BYTES, v)
    return Buffer.from(v.buffer ?? v, v.byteOffset ?? 0, v.byteLength)
  }

  function keypairOut(suite, pairs, format) {
    const pub = encodeBlob('publicKey', suite, pairs.map((p) => p.publicKey))
    const priv = encodeBlob('privateKey', suite, pairs.map((p) => p.privateKey))
    return format === 'pem'
      ? { publicKey: toPem('publicKey', pub), privateKey: toPem('privateKey', priv) }
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
      return keypairOut(suite, await Promise.all(suite.parts.map((p) => p.generateAsync())), format)
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

  const ENC = new Set(['aad'])
  const ENC_ASYNC = new Set(['aad', 'signal'])

  function seal(data, pub, o) {
    const { payloadKey, head } = encapsulate(pub, FORM.oneShot)
    const aad = Buffer.concat([head.subarray(0, ENVELOPE_HEAD), readAad(o.aad)])
    const sealed = lib.cipher.aes.encrypt(data, { key: payloadKey, iv: GCM_NONCE, mode: 'gcm', aad, outputFormat: 'buffer' })
    payloadKey.fill(0)
    return Buffer.concat([head, sealed])
  }

  function open(env, key, o, secrets) {
    const { cts, length } = readHead(key, env, FORM.oneShot)
    const payloadKey = payloadKeyOf(key, cts, secrets(cts))
    const aad = Buffer.concat([env.subarray(0, ENVELOPE_HEAD), readAad(o.aad)])
    try {
      return lib.cipher.aes.decrypt(env.subarray(length), { key: payloadKey, iv: GCM_NONCE, mode: 'gcm', aad, outputFormat: 'buffer' })
    } catch (err) {
      if (err.code === 'ERR_CRYPTO_DECRYPT_FAILED' || err.code === 'ERR_OUT_OF_RANGE') throw decryptFailed('a component or the payload did not verify')
      throw err
    } finally {
      payloadKey.fill(0)
    }
  }

  const decapsulateAll = (key, cts) => key.suite.kems.map((k, i) => k.decapsulate(cts[i], key.fields[i]))

  function encrypt(data, recipientPublicKey, options) {
    const o = readOpts(options, ENC, 'hybrid.encrypt')
    return seal(readData(data, 'data'), publicKey(recipientPublicKey, 'recipientPublicKey'), o)
  }
  function decrypt(envelope, privKey, options) {
    const o = readOpts(options, ENC, 'hybrid.decrypt')
    const key = privateKey(privKey)
    return open(readData(envelope, 'envelope'), key, o, (cts) => decapsulateAll(key, cts))
  }
  function encryptAsync(data, recipientPublicKey, options) {
    return runAsync(options?.signal, async () => {
      const o = readOpts(options, ENC_ASYNC, 'hybrid.encryptAsync')
      const pub = publicKey(recipientPublicKey, 'recipientPublicKey')
      const { payloadKey, head } = encapsulate(pub, FORM.oneShot)
      const aad = Buffer.concat([head.subarray(0, ENVELOPE_HEAD), readAad(o.aad)])
      const input = Buffer.from(readData(data, 'data'))
      try {
        const sealed = await lib.cipher.aes.encryptAsync(input, { key: payloadKey, iv: GCM_NONCE, mode: 'gcm', aad, outputFormat: 'buffer' })
        return Buffer.concat([head, sealed])
      } finally {
        payloadKey.fill(0)
      }
    })
  }
  function decryptAsync(envelope, privKey, options) {
    return runAsync(options?.signal, async () => {
      const o = readOpts(options, ENC_ASYNC, 'hybrid.decryptAsync')
      const key = privateKey(privKey)
      const env = Buffer.from(readData(envelope, 'envelope'))
      const { cts } = readHead(key, env, FORM.oneShot)
      const secrets = await Promise.all(key.suite.kems.map((k, i) => k.decapsulateAsync(cts[i], key.fields[i])))
      return open(env, key, o, () => secrets)
    })
  }

  // ---- streams and files: the streaming AEAD format (docs/stream-format.md) under the payload
  // key, after the envelope's head.

  const STREAM = new Set(['aad', 'segmentSize', 'signal'])
  const FILE = new Set(['aad', 'segmentSize', 'signal', 'onProgress'])
  const aes = lib.cipher.aes

  function encryptStream(recipientPublicKey, options) {
    const o = readOpts(options, STREAM, 'hybrid.encryptStream')
    const pub = publicKey(recipientPublicKey, 'recipientPublicKey')
    const { payloadKey, head } = encapsulate(pub, FORM.stream)
    const inner = aes.encryptStream({ key: payloadKey, aad: o.aad, segmentSize: o.segmentSize, signal: o.signal })
    payloadKey.fill(0)
    return new Outer(inner, head)
  }

  function decryptStream(privKey, options) {
    const o = readOpts(options, STREAM, 'hybrid.decryptStream')
    if (o.segmentSize !== undefined) throw invalidArgValue('options.segmentSize', 'no segment size when decrypting (the stream header says it)', o.segmentSize)
    const key = privateKey(privKey)
    readAad(o.aad)
    checkSignal(o.signal)
    const headLength = ENVELOPE_HEAD + key.suite.ctLength
    return new Outer(null, null, headLength, async (head) => {
      const { cts } = readHead(key, head, FORM.stream)
      const secrets = await Promise.all(key.suite.kems.map((k, i) => k.decapsulateAsync(cts[i], key.fields[i])))
      const payloadKey = payloadKeyOf(key, cts, secrets)
      // The inner stream copies the key when its header arrives: not wiped here.
      return aes.decryptStream({ key: payloadKey, aad: o.aad, signal: o.signal })
    })
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
    return runAsync(undefined, async () => {
      const o = readOpts(options, FILE, 'hybrid.decryptFile')
      const key = privateKey(privKey)
      checkSignal(o.signal)
      const head = await readFileHead(src, ENVELOPE_HEAD + key.suite.ctLength)
      const { cts } = readHead(key, head, FORM.stream)
      const secrets = await Promise.all(key.suite.kems.map((k, i) => k.decapsulateAsync(cts[i], key.fields[i])))
      const payloadKey = payloadKeyOf(key, cts, secrets)
      try {
        return await aes.decryptFile(src, dst, { ...o, key: payloadKey, [LEAD]: head })
      } finally {
        payloadKey.fill(0)
      }
    })
  }

  // ---- signatures

  /** What every component signs: label ‖ suite ‖ SHA3-256(signer's public key) ‖ SHA-512(data). */
  const signedMessage = (key, data) =>
    Buffer.concat([SIG_LABEL, Buffer.from([key.suite.id]), key.pubHash, nodeCrypto.createHash('sha512').update(data).digest()])

  const sigOut = (suite, sigs) => Buffer.concat([Buffer.from([VERSION, suite.id]), ...sigs])

  function sign(data, privKey) {
    const key = privateKey(privKey)
    const m = signedMessage(key, readData(data, 'data'))
    const off = key.suite.kems.length
    return sigOut(key.suite, key.suite.sigs.map((s, i) => s.sign(key.fields[off + i], m)))
  }
  function signAsync(data, privKey, options) {
    return runAsync(options?.signal, async () => {
      readOpts(options, new Set(['signal']), 'hybrid.signAsync')
      const key = privateKey(privKey)
      const m = signedMessage(key, readData(data, 'data'))
      const off = key.suite.kems.length
      return sigOut(key.suite, await Promise.all(key.suite.sigs.map((s, i) => s.signAsync(key.fields[off + i], m))))
    })
  }
  /**
   * The components' verifications of a composite signature: a list of `check(component, key,
   * m', part)` results, or null when the signature's length, version or suite is not the key's.
   */
  function eachComponent(data, signature, pubKey, check) {
    const key = publicKey(pubKey)
    const d = readData(data, 'data')
    if (!isBytes(signature)) throw invalidArgType('signature', BYTES, signature)
    const sig = Buffer.from(signature.buffer ?? signature, signature.byteOffset ?? 0, signature.byteLength)
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
      readOpts(options, new Set(['signal']), 'hybrid.verifyAsync')
      // Every component call starts here, before any await: each copies its inputs as it is made.
      const results = eachComponent(data, signature, pubKey, (s, k, m, part) => s.verifyAsync(k, m, part))
      return results !== null && (await Promise.all(results)).every(Boolean)
    })
  }

  function getPublicKey(privKey, options) {
    const o = readOpts(options, new Set(['format']), 'hybrid.getPublicKey')
    const { pub } = privateKey(privKey)
    return readFormat(o.format) === 'pem' ? toPem('publicKey', pub) : Buffer.from(pub)
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

// The internal option of the stream file forms that carries the envelope's head (see
// cipher-stream.js `LEAD`).
const { LEAD } = require('./cipher-stream')

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

/**
 * A Transform over an inner streaming-AEAD Transform: encrypting, `head` first and then the
 * inner stream's output; decrypting, the first `headLength` bytes go to `begin(head)`, which
 * resolves to the inner stream the rest is written to.
 */
class Outer extends Transform {
  #inner = null
  #pending = null
  #head = []
  #headLength = 0
  #need
  #begin

  constructor(inner, head, need = 0, begin = null) {
    super()
    this.#need = need
    this.#begin = begin
    if (inner) this.#attach(inner)
    if (head) this.push(head)
  }

  #attach(inner) {
    this.#inner = inner
    inner.on('data', (d) => this.push(d))
    inner.on('error', (err) => this.destroy(err))
  }

  #write(chunk, callback) {
    if (this.#inner.write(chunk)) callback()
    else this.#inner.once('drain', callback)
  }

  _transform(chunk, encoding, callback) {
    if (typeof chunk === 'string') chunk = Buffer.from(chunk, encoding)
    if (this.#inner) return this.#write(chunk, callback)
    if (this.#pending) return this.#pending.then(() => this.#write(chunk, callback), callback)
    this.#head.push(chunk)
    this.#headLength += chunk.length
    if (this.#headLength < this.#need) return callback()
    this.#start(callback)
  }

  #start(callback) {
    const all = Buffer.concat(this.#head, this.#headLength)
    this.#head = []
    this.#pending = Promise.resolve()
      .then(() => this.#begin(all.subarray(0, this.#need)))
      .then((inner) => this.#attach(inner))
    this.#pending.then(() => this.#write(all.subarray(this.#need), callback), callback)
  }

  _flush(callback) {
    const finish = () => {
      this.#inner.once('end', () => callback())
      this.#inner.end()
    }
    if (this.#inner) return finish()
    if (this.#pending) return this.#pending.then(finish, callback)
    // Ended before the whole head arrived.
    callback(decryptFailed('it is truncated'))
  }
}

module.exports = { makeHybrid }
