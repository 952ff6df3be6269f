'use strict'
// The two-key forgery of AES-256-GCM, built as an attacker would against the streaming AEAD format
// (docs/stream-format.md, "Why version 2"): a GCM tag does not commit to its key, so knowing two
// keys one solves one GF(2^128) equation for a ciphertext block that makes one segment's tag
// verify under both. With passphrases this is a partitioning oracle (one stream tests two guesses
// per decryption query). `forge` writes such a stream for two keys or two passphrases, in
// version 1 (no commitment) or version 2 (the commitment of one of them), with key source 1 or,
// given an Argon2id salt, key source 2 (a derived key's layout).
const nodeCrypto = require('node:crypto')
const { kdf } = require('../..')
const { hkdf } = require('./stream-format')

// ---- GF(2^128) in GCM's bit order (NIST SP 800-38D, 6.3) ---------------------------------------

const R = 0xe1n << 120n
const ONE = 1n << 127n
const big = (b) => BigInt(`0x${Buffer.from(b).toString('hex')}`)
const bytes = (x) => Buffer.from(x.toString(16).padStart(32, '0'), 'hex')

function mul(x, y) {
  let z = 0n
  let v = y
  for (let i = 127n; i >= 0n; i--) {
    if ((x >> i) & 1n) z ^= v
    v = v & 1n ? (v >> 1n) ^ R : v >> 1n
  }
  return z
}

/** a^(2^128 - 2) = a^-1. */
function inv(a) {
  let r = ONE
  let base = a
  for (let e = (1n << 128n) - 2n; e > 0n; e >>= 1n) {
    if (e & 1n) r = mul(r, base)
    base = mul(base, base)
  }
  return r
}

const aesBlock = (key, block) => {
  const c = nodeCrypto.createCipheriv('aes-256-ecb', key, null)
  c.setAutoPadding(false)
  return c.update(block)
}

/**
 * Two blocks `C1 ‖ C2` and a tag valid under both `(key, nonce)` pairs for AES-256-GCM with no
 * associated data: tag_i = C1·H_i^3 + C2·H_i^2 + L·H_i + E_Ki(J0_i), equal when
 * C2 = (r_1 + r_2) / (H_1^2 + H_2^2), r_i the terms without C2.
 */
function twoKeySegment([k1, n1], [k2, n2]) {
  const H = [k1, k2].map((k) => big(aesBlock(k, Buffer.alloc(16))))
  const S = [[k1, n1], [k2, n2]].map(([k, n]) => big(aesBlock(k, Buffer.concat([n, Buffer.from([0, 0, 0, 1])]))))
  const L = 256n // no AAD, 256 bits of ciphertext
  const C1 = big(nodeCrypto.randomBytes(16))
  const r = H.map((h, i) => mul(C1, mul(h, mul(h, h))) ^ mul(L, h) ^ S[i])
  const C2 = mul(r[0] ^ r[1], inv(mul(H[0], H[0]) ^ mul(H[1], H[1])))
  const tag = mul(C2, mul(H[0], H[0])) ^ r[0]
  return Buffer.concat([bytes(C1), bytes(C2), bytes(tag)])
}

// ---- the forgery ---------------------------------------------------------------------------------

const COST = { m: 8, t: 1, p: 1 }

/**
 * A header of `version` (without the commitment in version 2) for AES-256-GCM, 1 KiB segments:
 * a key's, a passphrase's (key source 1), or with `argon2Salt` a derived key's (key source 2).
 */
function headerOf(version, passphrase, argon2Salt) {
  const source = !passphrase ? 0 : argon2Salt ? 2 : 1
  const parts = [Buffer.from('cjs.aead'), Buffer.from([version, 1, 0, 0, 4, 0, source])]
  if (passphrase) {
    const c = Buffer.alloc(12)
    c.writeUInt32BE(COST.m, 0)
    c.writeUInt32BE(COST.t, 4)
    c.writeUInt32BE(COST.p, 8)
    parts.push(c)
    // Version 1's Argon2id salt, or key source 2's.
    if (version === 1 || argon2Salt) parts.push(argon2Salt ?? nodeCrypto.randomBytes(16))
  }
  parts.push(nodeCrypto.randomBytes(32)) // salt
  if (version === 1) parts.push(nodeCrypto.randomBytes(7)) // version 1's stored nonce prefix
  return Buffer.concat(parts)
}

/** The attacker's side: the stream key, nonce prefix and (version 2) commitment for `secret`. */
function keysOf(version, header, secret) {
  const source = header[14]
  const ownSalt = source === 2 || (source === 1 && version === 1)
  const saltAt = source === 0 ? 15 : ownSalt ? 43 : 27
  const salt = header.subarray(saltAt, saltAt + 32)
  const argonSalt = ownSalt ? header.subarray(27, 43) : salt
  const ikm = source !== 0
    ? kdf.argon2Sync(secret, { variant: 'id', salt: argonSalt, memoryCost: COST.m, timeCost: COST.t, parallelism: COST.p, keyLength: 32, outputFormat: 'buffer' })
    : secret
  if (version === 1) {
    const key = hkdf(ikm, salt, Buffer.concat([Buffer.from('cryptographer.js stream v1'), header]), 32)
    return { key, prefix: header.subarray(header.length - 7) }
  }
  const okm = hkdf(ikm, salt, Buffer.concat([Buffer.from('cryptographer.js stream v2'), header]), 71)
  return { key: okm.subarray(0, 32), commitment: okm.subarray(32, 64), prefix: okm.subarray(64) }
}

/**
 * One stream of `version` whose single 32-byte segment verifies under both secrets (two keys or
 * two passphrases); `commitTo` picks whose commitment version 2 stores; `argon2Salt` (16 bytes,
 * passphrases only) writes key source 2.
 */
function forge(version, secrets, commitTo = 0, argon2Salt = undefined) {
  const header = headerOf(version, typeof secrets[0] === 'string', argon2Salt)
  const keys = secrets.map((s) => keysOf(version, header, s))
  const nonce = (k) => Buffer.concat([k.prefix, Buffer.from([0, 0, 0, 0, 1])]) // segment 0, the last
  const segment = twoKeySegment(...keys.map((k) => [k.key, nonce(k)]))
  // The segment really is valid under both keys, as GCM itself says.
  for (const k of keys) {
    const d = nodeCrypto.createDecipheriv('aes-256-gcm', k.key, nonce(k))
    d.setAuthTag(segment.subarray(32))
    d.update(segment.subarray(0, 32))
    d.final()
  }
  return Buffer.concat(version === 1 ? [header, segment] : [header, keys[commitTo].commitment, segment])
}

module.exports = { aesBlock, big, bytes, forge, mul }
