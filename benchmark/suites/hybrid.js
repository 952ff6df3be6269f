'use strict'
// Seed 004's tables for crypto.hybrid (docs/hybrid-format.md): key generation, encrypt/decrypt of
// 1 KB … 1 MB and sign/verify of 1 KB for both suites, each against its classical half alone done
// with node:crypto (the system the hybrid replaces: RSA-4096-OAEP or X25519 + HKDF around
// AES-256-GCM; RSA-PSS-4096 or Ed25519 signatures), and the post-quantum components against
// @noble/post-quantum. Then throughput of the async forms with 1, 2 and 4 operations in flight
// (the libuv pool: UV_THREADPOOL_SIZE, 4 by default). Outputs are checked: every contestant's
// envelope is opened, every signature verified, before timing.
const nodeCrypto = require('node:crypto')
const { hybrid } = require('../..')

const SIZES = [1024, 10 * 1024, 100 * 1024, 1024 * 1024]
const label = (n) => (n >= 1 << 20 ? `${n >> 20} MB` : `${n >> 10} KB`)

/** The classical half alone, with node:crypto: a KEM (RSA-OAEP or X25519 + HKDF) around AES-256-GCM. */
function classical(suite) {
  const gcm = (key, data) => {
    const iv = nodeCrypto.randomBytes(12)
    const c = nodeCrypto.createCipheriv('aes-256-gcm', key, iv)
    return Buffer.concat([iv, c.update(data), c.final(), c.getAuthTag()])
  }
  const ungcm = (key, env) => {
    const d = nodeCrypto.createDecipheriv('aes-256-gcm', key, env.subarray(0, 12))
    d.setAuthTag(env.subarray(env.length - 16))
    return Buffer.concat([d.update(env.subarray(12, env.length - 16)), d.final()])
  }
  if (suite === 'rsa4096-mlkem1024') {
    const enc = nodeCrypto.generateKeyPairSync('rsa', { modulusLength: 4096 })
    const sig = nodeCrypto.generateKeyPairSync('rsa', { modulusLength: 4096 })
    const oaep = (key) => ({ key, oaepHash: 'sha256', padding: nodeCrypto.constants.RSA_PKCS1_OAEP_PADDING })
    const pss = (key) => ({ key, padding: nodeCrypto.constants.RSA_PKCS1_PSS_PADDING, saltLength: 64 })
    return {
      name: 'node:crypto RSA-4096-OAEP + AES-256-GCM (classical only)',
      sigName: 'node:crypto RSA-PSS-4096 (classical only)',
      encrypt(data) {
        const k = nodeCrypto.randomBytes(32)
        return Buffer.concat([nodeCrypto.publicEncrypt(oaep(enc.publicKey), k), gcm(k, data)])
      },
      decrypt: (env) => ungcm(nodeCrypto.privateDecrypt(oaep(enc.privateKey), env.subarray(0, 512)), env.subarray(512)),
      sign: (data) => nodeCrypto.sign('sha512', data, pss(sig.privateKey)),
      verify: (data, s) => nodeCrypto.verify('sha512', data, pss(sig.publicKey), s),
    }
  }
  const enc = nodeCrypto.generateKeyPairSync('x25519')
  const sig = nodeCrypto.generateKeyPairSync('ed25519')
  const kdf = (ss) => Buffer.from(nodeCrypto.hkdfSync('sha256', ss, Buffer.alloc(0), 'classical', 32))
  return {
    name: 'node:crypto X25519 + HKDF + AES-256-GCM (classical only)',
    sigName: 'node:crypto Ed25519 (classical only)',
    encrypt(data) {
      const eph = nodeCrypto.generateKeyPairSync('x25519')
      const ss = nodeCrypto.diffieHellman({ privateKey: eph.privateKey, publicKey: enc.publicKey })
      const epk = eph.publicKey.export({ format: 'der', type: 'spki' }).subarray(12)
      return Buffer.concat([epk, gcm(kdf(ss), data)])
    },
    decrypt(env) {
      const epk = nodeCrypto.createPublicKey({ key: Buffer.concat([Buffer.from('302a300506032b656e032100', 'hex'), env.subarray(0, 32)]), format: 'der', type: 'spki' })
      return ungcm(kdf(nodeCrypto.diffieHellman({ privateKey: enc.privateKey, publicKey: epk })), env.subarray(32))
    },
    sign: (data) => nodeCrypto.sign(null, data, sig.privateKey),
    verify: (data, s) => nodeCrypto.verify(null, data, sig.publicKey, s),
  }
}

module.exports = {
  title: 'Hybrid post-quantum',
  async run(h) {
    const table = 'Hybrid post-quantum (seed 004)'
    for (const suite of hybrid.suites) {
      const { publicKey, privateKey } = await hybrid.generateKeypairAsync({ suite })
      const c = classical(suite)
      const rsa = suite.startsWith('rsa')
      // RSA-4096 key generation takes ~0.5-3 s: timed once per round, a few rounds.
      await h.compare(
        { table, row: `${suite}: key generation` },
        [
          { name: 'cryptographer.js (async, components in parallel)', fn: () => hybrid.generateKeypairAsync({ suite }), async: true },
          { name: 'cryptographer.js (sync)', fn: () => hybrid.generateKeypair({ suite }) },
        ],
        { check: false, time: rsa ? 20000 : undefined },
      )
      for (const n of SIZES) {
        const data = nodeCrypto.randomBytes(n)
        const env = hybrid.encrypt(data, publicKey)
        const theirs = c.encrypt(data)
        const opened = (x) => (x.equals(data) ? 'ok' : 'wrong')
        await h.compare(
          { table, row: `${suite}: encrypt ${label(n)}` },
          [
            { name: 'cryptographer.js', fn: () => hybrid.encrypt(data, publicKey), out: (e) => opened(hybrid.decrypt(e, privateKey)) },
            { name: c.name, fn: () => c.encrypt(data), out: (e) => opened(c.decrypt(e)) },
          ],
          { bytes: n, x: n },
        )
        await h.compare(
          { table, row: `${suite}: decrypt ${label(n)}` },
          [
            { name: 'cryptographer.js', fn: () => hybrid.decrypt(env, privateKey), out: opened },
            { name: c.name, fn: () => c.decrypt(theirs), out: opened },
          ],
          { bytes: n, x: n },
        )
      }
      const msg = nodeCrypto.randomBytes(1024)
      const sig = hybrid.sign(msg, privateKey)
      const theirSig = c.sign(msg)
      await h.compare(
        { table, row: `${suite}: sign 1 KB` },
        [
          { name: 'cryptographer.js', fn: () => hybrid.sign(msg, privateKey), out: (s) => String(hybrid.verify(msg, s, publicKey)) },
          { name: c.sigName, fn: () => c.sign(msg), out: (s) => String(c.verify(msg, s)) },
        ],
      )
      await h.compare(
        { table, row: `${suite}: verify 1 KB` },
        [
          { name: 'cryptographer.js', fn: () => hybrid.verify(msg, sig, publicKey), out: String },
          { name: c.sigName, fn: () => c.verify(msg, theirSig), out: String },
        ],
      )
      // Throughput on the pool: k operations in flight; a row counts batches, so ops/s is k times it.
      const data = nodeCrypto.randomBytes(1024)
      const env = hybrid.encrypt(data, publicKey)
      for (const [what, one] of [
        ['decryptAsync 1 KB', () => hybrid.decryptAsync(env, privateKey)],
        ['signAsync 1 KB', () => hybrid.signAsync(data, privateKey)],
      ]) {
        const rows = [1, 2, 4].map((k) => ({
          name: `cryptographer.js, ${k} in flight (batches/s; x${k} for ops/s)`,
          fn: () => Promise.all(Array.from({ length: k }, one)).then(() => k),
          async: true,
          ours: true,
        }))
        await h.compare({ table, row: `${suite}: ${what} throughput (batches of k)` }, rows, { check: false })
      }
    }
  },
}
