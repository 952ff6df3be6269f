'use strict'
// An independent implementation of the streaming AEAD format, written from docs/stream-format.md
// alone over node:crypto: HKDF-SHA-256, AES-256-GCM, ChaCha20-Poly1305, and XChaCha20-Poly1305 as
// ChaCha20-Poly1305 under an HChaCha20 subkey (HChaCha20 taken from node's raw 'chacha20' block
// function, below). Argon2id comes from node:crypto where it has it (Node >= 24.7), else from the
// `argon2` npm package (the reference C code), else from @noble/hashes (JavaScript; slow at large
// costs); without any, passphrase streams are reported as not checked (`null`). `open` reads
// versions 1 and 2 (key sources 0, 1 and 2); `seal` writes either version (2 by default), and key
// source 2 when given `argon2Salt`.
const nodeCrypto = require('node:crypto')
const { spawnSync } = require('node:child_process')

const MAGIC = Buffer.from('cjs.aead')
const LABEL = { 1: Buffer.from('cryptographer.js stream v1'), 2: Buffer.from('cryptographer.js stream v2') }
const ALGS = { 1: { name: 'aes', prefix: 7 }, 2: { name: 'xchacha20', prefix: 19 } }
const ID = { aes: 1, xchacha20: 2 }
const MIN_S = 1024
const MAX_S = 16 << 20

// ---- primitives ----------------------------------------------------------------------------

/** HKDF-SHA-256 (RFC 5869) over createHmac: node's hkdfSync caps info at 1024 bytes. */
function hkdf(ikm, salt, info, length) {
  const prk = nodeCrypto.createHmac('sha256', salt).update(ikm).digest()
  const out = []
  let t = Buffer.alloc(0)
  for (let i = 1; out.length * 32 < length; i++) {
    t = nodeCrypto.createHmac('sha256', prk).update(t).update(info).update(Buffer.from([i])).digest()
    out.push(t)
  }
  return Buffer.concat(out).subarray(0, length)
}

/**
 * HChaCha20 (draft-irtf-cfrg-xchacha, 2.2): the ChaCha20 state over the key and the 16-byte input,
 * 20 rounds, words 0-3 and 12-15 without the final addition. node's 'chacha20' (16-byte IV: the
 * block counter and nonce, i.e. state words 12-15, little-endian) gives rounds(state) + state;
 * subtracting the known words of the state leaves those eight words.
 */
function hchacha20(key, input) {
  const c = nodeCrypto.createCipheriv('chacha20', key, input)
  const block = c.update(Buffer.alloc(64))
  const constants = Buffer.from('expand 32-byte k')
  const out = Buffer.alloc(32)
  for (let i = 0; i < 4; i++) {
    out.writeUInt32LE((block.readUInt32LE(4 * i) - constants.readUInt32LE(4 * i)) >>> 0, 4 * i)
    out.writeUInt32LE((block.readUInt32LE(48 + 4 * i) - input.readUInt32LE(4 * i)) >>> 0, 16 + 4 * i)
  }
  return out
}

/** [cipher name, key, 12-byte nonce] for node of the segment AEAD with `key` and `nonce`. */
function aead(alg, key, nonce) {
  if (alg === 'aes') return ['aes-256-gcm', key, nonce]
  // XChaCha20-Poly1305: ChaCha20-Poly1305 under HChaCha20(key, nonce[0..16]), nonce 0^4 ‖ nonce[16..24].
  return ['chacha20-poly1305', hchacha20(key, nonce.subarray(0, 16)), Buffer.concat([Buffer.alloc(4), nonce.subarray(16)])]
}

function sealSegment(alg, key, nonce, plain) {
  const c = nodeCrypto.createCipheriv(...aead(alg, key, nonce), { authTagLength: 16 })
  return Buffer.concat([c.update(plain), c.final(), c.getAuthTag()])
}

function openSegment(alg, key, nonce, piece) {
  const d = nodeCrypto.createDecipheriv(...aead(alg, key, nonce), { authTagLength: 16 })
  d.setAuthTag(piece.subarray(piece.length - 16))
  return Buffer.concat([d.update(piece.subarray(0, piece.length - 16)), d.final()])
}

/** Argon2id to 32 bytes, or null when neither node:crypto, the argon2 package nor @noble/hashes has it here. */
let argon2Package
let nobleArgon2
function argon2Backend() {
  if (typeof nodeCrypto.argon2Sync === 'function') return 'node:crypto'
  if (argon2Package === undefined) {
    argon2Package = null
    try {
      // Loaded in a child first: a prebuilt binary that does not fit this platform must not
      // take the test process down.
      const r = spawnSync(process.execPath, ['-e', "require('argon2').hash('x', { memoryCost: 64, timeCost: 1, raw: true }).then(() => process.exit(0), () => process.exit(1))"], { cwd: __dirname, timeout: 60000 })
      if (r.status === 0) argon2Package = require('argon2')
    } catch {}
  }
  if (argon2Package) return 'argon2 package'
  if (nobleArgon2 === undefined) {
    try {
      nobleArgon2 = require('@noble/hashes/argon2').argon2id
    } catch {
      nobleArgon2 = null
    }
  }
  return nobleArgon2 ? '@noble/hashes' : null
}

async function argon2id(password, salt, { m, t, p }) {
  const backend = argon2Backend()
  if (backend === null) return null
  if (backend === 'node:crypto') {
    return nodeCrypto.argon2Sync('argon2id', { message: Buffer.from(password), nonce: salt, parallelism: p, tagLength: 32, memory: m, passes: t })
  }
  if (backend === '@noble/hashes') return Buffer.from(nobleArgon2(Buffer.from(password), salt, { m, t, p, dkLen: 32 }))
  return argon2Package.hash(Buffer.from(password), { raw: true, type: argon2Package.argon2id, version: 0x13, memoryCost: m, timeCost: t, parallelism: p, salt, hashLength: 32 })
}

const nonceOf = (prefix, i, last) => Buffer.concat([prefix, Buffer.from([i >>> 24, (i >>> 16) & 255, (i >>> 8) & 255, i & 255, last ? 1 : 0])])

// ---- the format ----------------------------------------------------------------------------

/**
 * Opens a whole stream (version 1 or 2) with `{ key }` or `{ passphrase }` and `aad`; throws on
 * anything the format refuses; null when a passphrase stream cannot be checked here (no Argon2id).
 */
async function open(stream, { key, passphrase, aad }) {
  const fail = (why) => {
    throw new Error(`independent decoder: ${why}`)
  }
  const need = (n) => stream.length >= n || fail('the header is incomplete')
  need(15)
  if (!stream.subarray(0, 8).equals(MAGIC)) fail('magic')
  const version = stream[8]
  if (version !== 1 && version !== 2) fail('version')
  const alg = ALGS[stream[9]] ?? fail('algorithm')
  const S = stream.readUInt32BE(10)
  if (S < MIN_S || S > MAX_S) fail('segment size')
  let off = 15
  let cost = null
  // Key source 1: Argon2id over the salt below (version 1: over its own 16 bytes); 2 (version 2
  // only): over its own 16 bytes.
  const source = stream[14]
  if (source === 1 || (source === 2 && version === 2)) {
    need(off + 12)
    cost = { m: stream.readUInt32BE(off), t: stream.readUInt32BE(off + 4), p: stream.readUInt32BE(off + 8) }
    off += 12
  } else if (source !== 0) fail('key source')
  let argonSalt
  if (cost && (version === 1 || source === 2)) {
    need(off + 16)
    argonSalt = stream.subarray(off, off + 16)
    off += 16
  }
  need(off + 32)
  const salt = stream.subarray(off, off + 32)
  off += 32
  const tail = version === 1 ? alg.prefix : 32
  need(off + tail)
  const stored = stream.subarray(off, off + tail)
  off += tail
  const header = stream.subarray(0, off)

  let ikm
  if (!cost) {
    if (!key) fail('sealed with a key')
    ikm = Buffer.from(key)
  } else {
    if (passphrase === undefined) fail('sealed with a passphrase')
    ikm = await argon2id(passphrase, argonSalt ?? salt, cost)
    if (ikm === null) return null
  }
  const aadBytes = Buffer.from(aad ?? '')
  let segmentKey
  let prefix
  if (version === 1) {
    segmentKey = hkdf(ikm, salt, Buffer.concat([LABEL[1], header, aadBytes]), 32)
    prefix = stored
  } else {
    const okm = hkdf(ikm, salt, Buffer.concat([LABEL[2], header.subarray(0, header.length - 32), aadBytes]), 64 + alg.prefix)
    if (!nodeCrypto.timingSafeEqual(okm.subarray(32, 64), stored)) fail('commitment')
    segmentKey = okm.subarray(0, 32)
    prefix = okm.subarray(64)
  }

  const body = stream.subarray(off)
  if (body.length === 0) fail('no segment')
  const n = Math.ceil(body.length / (S + 16))
  const out = []
  for (let i = 0; i < n; i++) {
    const piece = body.subarray(i * (S + 16), (i + 1) * (S + 16))
    const last = i === n - 1
    if (piece.length < 16 || (last && i > 0 && piece.length === 16)) fail('short segment')
    out.push(openSegment(alg.name, segmentKey, nonceOf(prefix, i, last), piece))
  }
  return Buffer.concat(out)
}

/**
 * Seals `plain`: `{ alg: 'aes' | 'xchacha20', key | passphrase, aad, segmentSize = 65536,
 * cost = { m, t, p } (passphrase), version = 2, argon2Salt }`; with `argon2Salt` (16 bytes,
 * version 2), key source 2, Argon2id over that salt. Null when Argon2id is not available.
 */
async function seal(plain, { alg, key, passphrase, aad, segmentSize = 65536, cost = { m: 64, t: 1, p: 1 }, version = 2, argon2Salt }) {
  const salt = nodeCrypto.randomBytes(32)
  const ownSalt = version === 1 ? nodeCrypto.randomBytes(16) : argon2Salt
  const argonSalt = ownSalt ?? salt
  const parts = [MAGIC, Buffer.from([version, ID[alg]]), Buffer.alloc(4)]
  parts[2].writeUInt32BE(segmentSize)
  let ikm
  if (passphrase === undefined) {
    parts.push(Buffer.from([0]))
    ikm = Buffer.from(key)
  } else {
    const c = Buffer.alloc(13)
    c[0] = version === 2 && ownSalt ? 2 : 1
    c.writeUInt32BE(cost.m, 1)
    c.writeUInt32BE(cost.t, 5)
    c.writeUInt32BE(cost.p, 9)
    parts.push(c)
    if (ownSalt) parts.push(ownSalt)
    ikm = await argon2id(passphrase, argonSalt, cost)
    if (ikm === null) return null
  }
  parts.push(salt)
  const prefixLength = ALGS[ID[alg]].prefix
  const aadBytes = Buffer.from(aad ?? '')
  let segmentKey
  let prefix
  const out = []
  if (version === 1) {
    prefix = nodeCrypto.randomBytes(prefixLength)
    const header = Buffer.concat([...parts, prefix])
    segmentKey = hkdf(ikm, salt, Buffer.concat([LABEL[1], header, aadBytes]), 32)
    out.push(header)
  } else {
    const bound = Buffer.concat(parts)
    const okm = hkdf(ikm, salt, Buffer.concat([LABEL[2], bound, aadBytes]), 64 + prefixLength)
    segmentKey = okm.subarray(0, 32)
    prefix = okm.subarray(64)
    out.push(bound, okm.subarray(32, 64))
  }
  const n = Math.max(1, Math.ceil(plain.length / segmentSize))
  for (let i = 0; i < n; i++) {
    const segment = plain.subarray(i * segmentSize, (i + 1) * segmentSize)
    out.push(sealSegment(alg, segmentKey, nonceOf(prefix, i, i === n - 1), segment))
  }
  return Buffer.concat(out)
}

module.exports = { open, seal, hkdf, hchacha20, argon2Backend }
