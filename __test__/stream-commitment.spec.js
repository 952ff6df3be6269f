'use strict'
// Key commitment of the streaming AEAD format (docs/stream-format.md, "Why version 2"). A GCM tag
// does not commit to its key: knowing two keys, one solves one GF(2^128) equation for a
// ciphertext block so that one segment's tag verifies under both. Here that forgery is built for
// two passphrases (a partitioning oracle) and for two keys (one stream, two authentic messages):
// version 1 opens it under both (with allowV1: it is not key-committing), version 2 under one
// only, the other refused by the header's commitment before any segment is opened.
const test = require('ava')
const nodeCrypto = require('node:crypto')
const { Readable, Writable } = require('node:stream')
const { pipeline } = require('node:stream/promises')
const { cipher, kdf } = require('..')
const { hkdf } = require('./helpers/stream-format')

const FAILED = { instanceOf: Error, code: 'ERR_CRYPTO_DECRYPT_FAILED' }

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

test('the GF(2^128) code computes node\'s AES-256-GCM tags', (t) => {
  const k = nodeCrypto.randomBytes(32)
  const nonce = nodeCrypto.randomBytes(12)
  const c = nodeCrypto.createCipheriv('aes-256-gcm', k, nonce)
  const ct = Buffer.concat([c.update(nodeCrypto.randomBytes(32)), c.final()])
  const h = big(aesBlock(k, Buffer.alloc(16)))
  const s = big(aesBlock(k, Buffer.concat([nonce, Buffer.from([0, 0, 0, 1])])))
  const ghash = [big(ct.subarray(0, 16)), big(ct.subarray(16)), 256n].reduce((x, b) => mul(x ^ b, h), 0n)
  t.deepEqual(bytes(ghash ^ s), c.getAuthTag())
})

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

/** A header of `version` (without the commitment in version 2) for AES-256-GCM, 1 KiB segments. */
function headerOf(version, passphrase) {
  const parts = [Buffer.from('cjs.aead'), Buffer.from([version, 1, 0, 0, 4, 0, passphrase ? 1 : 0])]
  if (passphrase) {
    const c = Buffer.alloc(12)
    c.writeUInt32BE(COST.m, 0)
    c.writeUInt32BE(COST.t, 4)
    c.writeUInt32BE(COST.p, 8)
    parts.push(c)
    if (version === 1) parts.push(nodeCrypto.randomBytes(16)) // version 1's Argon2id salt
  }
  parts.push(nodeCrypto.randomBytes(32)) // salt
  if (version === 1) parts.push(nodeCrypto.randomBytes(7)) // version 1's stored nonce prefix
  return Buffer.concat(parts)
}

/** The attacker's side: the stream key, nonce prefix and (version 2) commitment for `secret`. */
function keysOf(version, header, secret) {
  const passphrase = header[14] === 1
  const salt = header.subarray(passphrase ? (version === 1 ? 43 : 27) : 15, passphrase ? (version === 1 ? 75 : 59) : 47)
  const argonSalt = version === 1 ? header.subarray(27, 43) : salt
  const ikm = passphrase
    ? kdf.argon2Sync(secret, { variant: 'id', salt: argonSalt, memoryCost: COST.m, timeCost: COST.t, parallelism: COST.p, keyLength: 32, outputFormat: 'buffer' })
    : secret
  if (version === 1) {
    const key = hkdf(ikm, salt, Buffer.concat([Buffer.from('cryptographer.js stream v1'), header]), 32)
    return { key, prefix: header.subarray(header.length - 7) }
  }
  const okm = hkdf(ikm, salt, Buffer.concat([Buffer.from('cryptographer.js stream v2'), header]), 71)
  return { key: okm.subarray(0, 32), commitment: okm.subarray(32, 64), prefix: okm.subarray(64) }
}

/** One stream of `version` whose single segment verifies under both secrets; `commitTo` picks whose commitment version 2 stores. */
function forge(version, secrets, commitTo = 0) {
  const header = headerOf(version, typeof secrets[0] === 'string')
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

/** Resolves to the plaintext, or rejects with the stream's error. */
async function open(stream, options) {
  const out = []
  await pipeline(Readable.from([stream]), cipher.aes.decryptStream(options), new Writable({ write: (c, e, cb) => cb(null, out.push(c)) }))
  return Buffer.concat(out)
}

const CASES = {
  'two passphrases (a partitioning oracle)': ['alpha', 'beta'],
  'two keys (one stream, two authentic messages)': [nodeCrypto.randomBytes(32), nodeCrypto.randomBytes(32)],
}
const optionsOf = (secret) => (typeof secret === 'string' ? { passphrase: secret } : { key: secret })

for (const [what, secrets] of Object.entries(CASES)) {
  test(`version 1 is not key-committing: the forgery with ${what} opens under both, to two plaintexts, once allowV1 is set`, async (t) => {
    const stream = forge(1, secrets)
    const [a, b] = await Promise.all(secrets.map((s) => open(stream, { ...optionsOf(s), allowV1: true })))
    t.is(a.length, 32)
    t.notDeepEqual(a, b)
    // Without the option it is refused, and the error says how to opt in.
    for (const s of secrets) {
      const e = await t.throwsAsync(open(stream, optionsOf(s)), FAILED)
      t.regex(e.message, /version-1 stream, which does not commit to its key.*\{ allowV1: true \}/)
    }
  })

  test(`version 2 commits to the key: the same forgery with ${what} opens under the committed one only; the other is refused before any segment`, async (t) => {
    for (const commitTo of [0, 1]) {
      const stream = forge(2, secrets, commitTo)
      t.is(stream.length, (typeof secrets[0] === 'string' ? 91 : 79) + 48)
      const plain = await open(stream, optionsOf(secrets[commitTo]))
      t.is(plain.length, 32)
      const e = await t.throwsAsync(open(stream, optionsOf(secrets[1 - commitTo])), FAILED)
      t.regex(e.message, /not the one it was sealed with/)
      // The segment verifies under that key too: only the commitment refused it.
      t.regex(e.message, /^Unable to decrypt the stream: the key, passphrase or aad/)
    }
  })
}
