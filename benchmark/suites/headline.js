'use strict'
// The rows of the platform and Node.js-versions tables: SHA-256, AES-256-CBC and BLAKE3 at 1 KiB,
// ours beside node:crypto (hash-wasm for BLAKE3, which node lacks). Small on purpose: it is what
// `npm run bench:node-matrix` runs under every Node major, and what CI's merge job reads per
// platform (scripts/merge-bench.mjs picks these rows).
const nodeCrypto = require('node:crypto')
const { sha, cipher } = require('../..')

module.exports = {
  title: 'Headline rows (the platform and Node.js-versions tables)',
  async run(h) {
    const data = nodeCrypto.randomBytes(1024)
    const key = nodeCrypto.randomBytes(32)
    const iv = nodeCrypto.randomBytes(16)
    const table = 'Headline, 1 KiB input, hex output'
    await h.compare({ table, row: 'sha256' }, [
      { name: 'cryptographer.js', fn: () => sha.sha256(data) },
      { name: 'node:crypto', fn: () => nodeCrypto.createHash('sha256').update(data).digest('hex') },
    ], { bytes: 1024 })
    await h.compare({ table, row: 'aes-256-cbc encrypt' }, [
      { name: 'cryptographer.js', fn: () => cipher.aes.encrypt(data, { key, iv, mode: 'cbc', outputFormat: 'hex' }) },
      {
        name: 'node:crypto',
        fn: () => {
          const c = nodeCrypto.createCipheriv('aes-256-cbc', key, iv)
          return c.update(data, undefined, 'hex') + c.final('hex')
        },
      },
    ], { bytes: 1024 })
    const wasm = h.peer('hash-wasm')
    const blake3 = wasm && (await wasm.createBLAKE3())
    await h.compare({ table, row: 'blake3' }, [
      { name: 'cryptographer.js', fn: () => sha.blake3(data) },
      blake3 && { name: 'hash-wasm', fn: () => blake3.init().update(data).digest('hex') },
    ], { bytes: 1024 })
  },
}
