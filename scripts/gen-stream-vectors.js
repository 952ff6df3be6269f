'use strict'
// Writes __test__/vectors/stream/{aes-256-gcm,xchacha20-poly1305}-v2.json: streams of the
// streaming AEAD format (docs/stream-format.md, version 2, what the library writes) sealed by this
// library, for other implementations to check themselves against; and sealed.json: sealed
// messages (sealSync with a passphrase, key source 1, and the sealSync of a derived key, key
// source 2). Each run draws new salts, so the files change when it is rerun: they are data to
// decode, not the output of a deterministic encoder. The test suite decodes every vector with the
// library and with an independent implementation written from the spec
// (__test__/helpers/stream-format.js). The version-1 files beside them (`*-v1.json`) were written
// by the library's version-1 writer, which is gone; they stay as they are.
//
//   node scripts/gen-stream-vectors.js
const fs = require('node:fs')
const path = require('node:path')
const { Readable } = require('node:stream')
const { cipher, sha } = require('..')

const S = 1024
const bytes = (label, n) => (n === 0 ? Buffer.alloc(0) : sha.shake256(label, { outputLength: n, outputFormat: 'buffer' }))
const KEY = bytes('stream vectors key', 32)

const CASES = [
  { name: 'empty plaintext: the header and one empty last segment', n: 0 },
  { name: '1 byte', n: 1 },
  { name: 'segment size - 1: one segment', n: S - 1 },
  { name: 'segment size: one full last segment', n: S },
  { name: 'segment size + 1: a full segment and a 1-byte last one', n: S + 1 },
  { name: 'two full segments', n: 2 * S },
  { name: 'several segments', n: 3 * S + 100 },
  { name: 'several segments, with aad', n: 3 * S + 100, aad: 'header fields of the enclosing protocol' },
  { name: 'segment size 4096', n: 9000, segmentSize: 4096 },
  { name: 'passphrase (Argon2id m=64 KiB, t=1, p=1)', n: S + 5, passphrase: 'correct horse battery staple', cost: { memoryCost: 64, timeCost: 1, parallelism: 1 } },
  { name: 'passphrase (Argon2id m=256 KiB, t=2, p=2) and aad', n: 10, passphrase: 'pässwörd', aad: 'aad', cost: { memoryCost: 256, timeCost: 2, parallelism: 2 } },
  { name: 'passphrase, empty plaintext', n: 0, passphrase: 'p', cost: { memoryCost: 64, timeCost: 1, parallelism: 1 } },
]

async function seal(ns, plaintext, options) {
  const out = []
  for await (const c of Readable.from([plaintext]).pipe(cipher[ns].encryptStream(options))) out.push(c)
  return Buffer.concat(out)
}

const SEALED = [
  { name: 'empty message', n: 0 },
  { name: '1 byte', n: 1 },
  { name: '100 bytes, with aad', n: 100, aad: 'record 42' },
  { name: '1,000 bytes', n: 1000 },
]

/** sealed.json: each case sealed with the passphrase, then by a key derived from it. */
function sealedVectors() {
  const passphrase = 'correct horse battery staple'
  const cost = { memoryCost: 64, timeCost: 1, parallelism: 1 }
  const vectors = []
  for (const [ns, algorithm] of [['aes', 'AES-256-GCM'], ['xchacha20', 'XChaCha20-Poly1305']]) {
    const key = cipher[ns].deriveKeySync(passphrase, cost)
    for (const c of SEALED) {
      const plaintext = bytes(`sealed vectors ${c.name}`, c.n)
      const aad = c.aad ? { aad: c.aad } : {}
      const entry = { algorithm, passphrase, aad: Buffer.from(c.aad ?? '').toString('hex'), plaintext: plaintext.toString('hex') }
      const bySeal = cipher[ns].sealSync(plaintext, { passphrase, ...aad, ...cost })
      vectors.push({ name: `${algorithm}, ${c.name}: sealSync`, keySource: 1, ...entry, sealed: bySeal.toString('hex') })
      const byKey = key.sealSync(plaintext, aad)
      vectors.push({ name: `${algorithm}, ${c.name}: a derived key's sealSync`, keySource: 2, ...entry, sealed: byKey.toString('hex') })
    }
    key.dispose()
  }
  return {
    format: 'cryptographer.js sealed messages: the streaming AEAD, version 2, whole in memory (docs/stream-format.md, "Sealed messages")',
    note: 'Sealed by cryptographer.js (scripts/gen-stream-vectors.js) with random salts, Argon2id m=64 KiB, t=1, p=1; each algorithm\'s derived-key vectors share one Argon2id salt. Opened in __test__/seal.spec.js by the library and by an independent implementation written from the spec (__test__/helpers/stream-format.js). passphrase is UTF-8 text; everything else is hex.',
    vectors,
  }
}

async function main() {
  for (const [ns, file, name] of [['aes', 'aes-256-gcm-v2.json', 'AES-256-GCM'], ['xchacha20', 'xchacha20-poly1305-v2.json', 'XChaCha20-Poly1305']]) {
    const vectors = []
    for (const c of CASES) {
      const plaintext = bytes(`stream vectors ${c.name}`, c.n)
      const segmentSize = c.segmentSize ?? S
      const options = { segmentSize, ...(c.aad ? { aad: c.aad } : {}) }
      if (c.passphrase) Object.assign(options, { passphrase: c.passphrase }, c.cost)
      else options.key = KEY
      const stream = await seal(ns, plaintext, options)
      vectors.push({
        name: c.name,
        key: c.passphrase ? null : KEY.toString('hex'),
        passphrase: c.passphrase ?? null,
        aad: Buffer.from(c.aad ?? '').toString('hex'),
        segmentSize,
        plaintext: plaintext.toString('hex'),
        stream: stream.toString('hex'),
      })
    }
    const doc = {
      format: 'cryptographer.js streaming AEAD, version 2 (docs/stream-format.md)',
      algorithm: name,
      note: 'Sealed by cryptographer.js (scripts/gen-stream-vectors.js) with random salts; decoded in __test__/cipher-stream.spec.js by the library and by an independent implementation written from the spec (__test__/helpers/stream-format.js: node:crypto, Argon2id from node:crypto or the argon2 package). passphrase is UTF-8 text; everything else is hex.',
      vectors,
    }
    fs.writeFileSync(path.join(__dirname, '..', '__test__', 'vectors', 'stream', file), `${JSON.stringify(doc, null, 2)}\n`)
  }
  fs.writeFileSync(path.join(__dirname, '..', '__test__', 'vectors', 'stream', 'sealed.json'), `${JSON.stringify(sealedVectors(), null, 2)}\n`)
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
