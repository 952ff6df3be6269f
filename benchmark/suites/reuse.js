'use strict'
// Kept keys and reused objects: a kept AES key (`aes.key()`) against the key given in every call, a kept
// HMAC key (`hmac.X.create({ key })`, `reset()` between messages) and a reused hasher
// (`create()` + `reset()`) against fresh one-shot calls; WebCrypto (`subtle.encrypt`,
// `subtle.sign`, `subtle.digest`, with a CryptoKey imported once, and imported in every call) as a
// contestant beside node:crypto and crypto-js. Outputs are checked equal before timing. Then
// 1,000 small messages under one passphrase: a derived key (one Argon2id hash) against the
// one-call seal (one hash per message), with the hashes counted by the native counter.
const nodeCrypto = require('node:crypto')
const { sha, hmac, cipher } = require('../..')
const { argon2Runs } = require('../../lib/native')

const MESSAGES = 1000

/**
 * Time and Argon2id hashes for 1,000 64-byte messages under one passphrase at the library's
 * policy (64 MiB, t = 3): `deriveKeyAsync` once then `key.sealSync` per message, measured whole;
 * `sealAsync` per message, measured over a few messages and scaled (a thousand would take minutes).
 * Each figure is the median of the rounds.
 */
async function passphraseTable(h) {
  const title = `Sealed messages: ${MESSAGES.toLocaleString('en')} messages of 64 B under one passphrase, Argon2id 64 MiB t = 3 (median of rounds)`
  if (h.filter && !h.filter.test(title)) return
  const rounds = h.quick ? 3 : 5
  const sample = h.quick ? 3 : 8
  const data = nodeCrypto.randomBytes(64)
  const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1]
  const derived = []
  const oneCall = []
  let derivedRuns
  let oneCallRuns
  for (let r = 0; r < rounds; r++) {
    let before = argon2Runs()
    let start = process.hrtime.bigint()
    const key = await cipher.aes.deriveKeyAsync('correct horse battery staple')
    for (let i = 0; i < MESSAGES; i++) key.sealSync(data)
    derived.push(Number(process.hrtime.bigint() - start) / 1e6)
    derivedRuns = argon2Runs() - before
    key.dispose()
    before = argon2Runs()
    start = process.hrtime.bigint()
    for (let i = 0; i < sample; i++) await cipher.aes.sealAsync(data, { passphrase: 'correct horse battery staple' })
    oneCall.push((Number(process.hrtime.bigint() - start) / 1e6 / sample) * MESSAGES)
    oneCallRuns = ((argon2Runs() - before) / sample) * MESSAGES
  }
  const d = median(derived)
  const o = median(oneCall)
  h.table(title, ['Way', 'Argon2id hashes', `ms for ${MESSAGES.toLocaleString('en')}`, 'ms per message', 'vs one-call'], [
    ['deriveKeyAsync once, then key.sealSync per message', derivedRuns, d.toFixed(0), (d / MESSAGES).toFixed(3), `${(o / d).toFixed(0)}× faster`],
    [`sealAsync per message (${sample} timed, scaled)`, oneCallRuns, o.toFixed(0), (o / MESSAGES).toFixed(1), '1×'],
  ])
}

const hex = (ab) => Buffer.from(ab).toString('hex')

module.exports = {
  title: 'Kept keys, reused objects and WebCrypto',
  async run(h) {
    const subtle = nodeCrypto.webcrypto.subtle
    const CryptoJS = h.peer('crypto-js')
    const key = nodeCrypto.randomBytes(32)
    const wa = (b) => CryptoJS.lib.WordArray.create(b)
    const webKeys = {
      gcm: await subtle.importKey('raw', key, 'AES-GCM', false, ['encrypt']),
      cbc: await subtle.importKey('raw', key, 'AES-CBC', false, ['encrypt']),
      ctr: await subtle.importKey('raw', key, 'AES-CTR', false, ['encrypt']),
    }
    const hmacKey = await subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
    const kept = cipher.aes.key(key)
    const keptHmac = hmac.sha256.create({ key })
    const hasher = sha.sha256.create()

    for (const size of [64, 1024, 64 * 1024]) {
      const label = size >= 1024 ? `${size / 1024} KiB` : `${size} B`
      const data = nodeCrypto.randomBytes(size)
      const iv12 = nodeCrypto.randomBytes(12)
      const iv16 = nodeCrypto.randomBytes(16)
      const table = `Kept and fresh keys, ${label} (ops/s)`
      // AES-256-GCM, -CBC and -CTR: the key in every call, kept, node:crypto, WebCrypto (key kept;
      // for GCM also imported per call), crypto-js (CBC only: it has no GCM).
      for (const mode of ['gcm', 'cbc', 'ctr']) {
        const iv = mode === 'gcm' ? iv12 : iv16
        const algo = mode === 'ctr' ? { name: 'AES-CTR', counter: iv, length: 128 } : { name: `AES-${mode.toUpperCase()}`, iv }
        await h.compare(
          { table, row: `AES-256-${mode.toUpperCase()} encrypt` },
          [
            { name: 'cryptographer.js', fn: () => cipher.aes.encrypt(data, { key, iv, mode }) },
            { name: 'cryptographer.js (kept key)', fn: () => kept.encrypt(data, { iv, mode }) },
            {
              name: 'node:crypto',
              fn: () => {
                const c = nodeCrypto.createCipheriv(`aes-256-${mode}`, key, iv)
                return Buffer.concat([c.update(data), c.final(), ...(mode === 'gcm' ? [c.getAuthTag()] : [])])
              },
            },
            { name: 'WebCrypto (CryptoKey kept)', async: true, fn: () => subtle.encrypt(algo, webKeys[mode], data), out: hex },
            mode === 'gcm' && {
              name: 'WebCrypto (key imported per call)',
              async: true,
              fn: async () => subtle.encrypt(algo, await subtle.importKey('raw', key, algo.name, false, ['encrypt']), data),
              out: hex,
            },
            mode === 'cbc' &&
              CryptoJS && {
                name: 'crypto-js',
                fn: () => CryptoJS.AES.encrypt(wa(data), wa(key), { iv: wa(iv), mode: CryptoJS.mode.CBC }).ciphertext,
                out: (c) => c.toString(CryptoJS.enc.Hex),
              },
          ],
          { bytes: size },
        )
      }
      await h.compare(
        { table, row: 'HMAC-SHA-256' },
        [
          { name: 'cryptographer.js', fn: () => hmac.sha256(data, { key }) },
          { name: 'cryptographer.js (kept key: create() + reset())', fn: () => keptHmac.reset().update(data).digest() },
          { name: 'node:crypto', fn: () => nodeCrypto.createHmac('sha256', key).update(data).digest('hex') },
          { name: 'WebCrypto (CryptoKey kept)', async: true, fn: () => subtle.sign('HMAC', hmacKey, data), out: hex },
          CryptoJS && { name: 'crypto-js', fn: () => CryptoJS.HmacSHA256(wa(data), wa(key)).toString() },
        ],
        { bytes: size },
      )
      await h.compare(
        { table, row: 'SHA-256' },
        [
          { name: 'cryptographer.js', fn: () => sha.sha256(data) },
          { name: 'cryptographer.js (create() + reset())', fn: () => hasher.reset().update(data).digest() },
          { name: 'node:crypto', fn: () => nodeCrypto.createHash('sha256').update(data).digest('hex') },
          { name: 'WebCrypto', async: true, fn: () => subtle.digest('SHA-256', data), out: hex },
          CryptoJS && { name: 'crypto-js', fn: () => CryptoJS.SHA256(wa(data)).toString() },
        ],
        { bytes: size },
      )
    }
    await passphraseTable(h)
  },
}
