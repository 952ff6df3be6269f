'use strict'
// ML-DSA-44/65/87 (FIPS 204): key generation, signing and verification of a 1 KiB message against
// @noble/post-quantum and node:crypto (when the running Node has ML-DSA: 24.7+). Signing rows are
// deterministic (rnd = 0, `extraEntropy: false` for noble) so that every contestant runs the same
// number of rejection-sampling rounds on the same key and message and the outputs are checked
// equal; the hedged rows (fresh randomness per signature, node's only mode) vary per call and are
// checked by verifying each contestant's signature. "cryptographer.js" takes the default key
// forms: the 32-byte seed (expanded once per Buffer while its bytes stay the same) and the raw
// public key. The async rows time one call at a time (their cost over the sync form is what a
// pool round trip adds), and the keygen rows are what decided against a generateKeypairAsync.
const nodeCrypto = require('node:crypto')
const { dsa } = require('../..')

function nodeHas(name) {
  try {
    nodeCrypto.generateKeyPairSync(name)
    return true
  } catch {
    return false
  }
}

module.exports = {
  title: 'Post-quantum signatures (ML-DSA)',
  async run(h) {
    const noble = h.peer('@noble/post-quantum/ml-dsa.js')
    const msg = nodeCrypto.randomBytes(1024)
    const table = 'ML-DSA (FIPS 204), 1 KiB messages'
    for (const [name, api, nobleSet] of [
      ['ml-dsa-44', dsa.mldsa44, noble && noble.ml_dsa44],
      ['ml-dsa-65', dsa.mldsa65, noble && noble.ml_dsa65],
      ['ml-dsa-87', dsa.mldsa87, noble && noble.ml_dsa87],
    ]) {
      const label = name.toUpperCase()
      const seed = nodeCrypto.randomBytes(32)
      const { privateKey, publicKey } = api.generateKeypair({ seed })
      const expanded = api.generateKeypair({ seed, privateKeyFormat: 'expanded' }).privateKey
      const node = nodeHas(name) ? nodeCrypto.generateKeyPairSync(name) : null
      const nodeKey = node && nodeCrypto.createPrivateKey({ key: seed, format: 'raw-seed', asymmetricKeyType: name })
      const nodePub = node && nodeCrypto.createPublicKey(nodeKey)
      const valid = (s) => String(api.verify(msg, publicKey, Buffer.from(s)))

      const keygen = [
        { name: 'cryptographer.js', fn: () => api.generateKeypair().publicKey.length },
        { name: 'cryptographer.js (from seed)', fn: () => api.generateKeypair({ seed }).publicKey.length, ours: true },
      ]
      if (nobleSet) keygen.push({ name: '@noble/post-quantum', fn: () => nobleSet.keygen().publicKey.length })
      if (node) keygen.push({ name: 'node:crypto', fn: () => nodeCrypto.generateKeyPairSync(name) && publicKey.length })
      await h.compare({ table, row: `${label} keygen` }, keygen)

      const sign = [
        { name: 'cryptographer.js', fn: () => api.sign(msg, privateKey, { deterministic: true }) },
        { name: 'cryptographer.js (expanded key)', fn: () => api.sign(msg, expanded, { deterministic: true }), ours: true },
      ]
      if (nobleSet) sign.push({ name: '@noble/post-quantum', fn: () => nobleSet.sign(msg, expanded, { extraEntropy: false }) })
      await h.compare({ table, row: `${label} sign (deterministic)` }, sign)

      const hedged = [
        { name: 'cryptographer.js', fn: () => api.sign(msg, privateKey), out: valid },
        { name: 'cryptographer.js (signAsync)', fn: () => api.signAsync(msg, privateKey), async: true, out: valid, ours: true },
      ]
      if (nobleSet) hedged.push({ name: '@noble/post-quantum', fn: () => nobleSet.sign(msg, expanded), out: valid })
      if (node) hedged.push({ name: 'node:crypto', fn: () => nodeCrypto.sign(null, msg, nodeKey), out: valid })
      await h.compare({ table, row: `${label} sign (hedged)` }, hedged)

      const sig = api.sign(msg, privateKey)
      const verify = [
        { name: 'cryptographer.js', fn: () => api.verify(msg, publicKey, sig) },
        { name: 'cryptographer.js (verifyAsync)', fn: () => api.verifyAsync(msg, publicKey, sig), async: true, ours: true },
      ]
      if (nobleSet) verify.push({ name: '@noble/post-quantum', fn: () => nobleSet.verify(sig, msg, publicKey) })
      if (node) verify.push({ name: 'node:crypto', fn: () => nodeCrypto.verify(null, msg, nodePub, sig) })
      await h.compare({ table, row: `${label} verify` }, verify)
    }
  },
}
