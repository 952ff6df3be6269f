'use strict'
// Key commitment of the streaming AEAD format (docs/stream-format.md, "Why version 2"). A GCM tag
// does not commit to its key: knowing two keys, one solves one GF(2^128) equation for a
// ciphertext block so that one segment's tag verifies under both (helpers/gcm-forgery.js). Here
// that forgery is built for
// two passphrases (a partitioning oracle) and for two keys (one stream, two authentic messages):
// version 1 opens it under both (with allowV1: it is not key-committing), version 2 under one
// only, the other refused by the header's commitment before any segment is opened.
const test = require('ava')
const nodeCrypto = require('node:crypto')
const { Readable, Writable } = require('node:stream')
const { pipeline } = require('node:stream/promises')
const { cipher } = require('..')
const { aesBlock, big, bytes, forge, mul } = require('./helpers/gcm-forgery')

const FAILED = { instanceOf: Error, code: 'ERR_CRYPTO_DECRYPT_FAILED' }

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
