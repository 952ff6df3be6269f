'use strict'
// Post-quantum KEMs: ML-KEM-512/768/1024 and X-Wing key generation, encapsulation and
// decapsulation, against @noble/post-quantum (ml_kem*, ml_kem768_x25519 = X-Wing) and node:crypto
// where the running Node has ML-KEM (>= 24.7). Outputs are checked before timing: key generation
// from one seed gives the same public key everywhere; an encapsulation is checked by
// decapsulating it with cryptographer.js (the secrets must match); decapsulation of one
// ciphertext gives the same secret everywhere. Our private key is the 64-byte seed (the default)
// or the expanded FIPS 203 key (noble's form); node gets KeyObjects made outside the loop.
const nodeCrypto = require('node:crypto')
const { kem, keys } = require('../..')

function nodeHasMlKem() {
  try {
    return typeof nodeCrypto.encapsulate === 'function' && !!nodeCrypto.generateKeyPairSync('ml-kem-768')
  } catch {
    return false
  }
}

module.exports = {
  title: 'Post-quantum KEM',
  async run(h) {
    const nobleKem = h.peer('@noble/post-quantum/ml-kem.js')
    const nobleHybrid = h.peer('@noble/post-quantum/hybrid.js')
    const withNode = nodeHasMlKem()
    const table = 'Post-quantum KEMs'

    for (const [name, label, noble, nodeType] of [
      ['mlkem512', 'ML-KEM-512', nobleKem && nobleKem.ml_kem512, 'ml-kem-512'],
      ['mlkem768', 'ML-KEM-768', nobleKem && nobleKem.ml_kem768, 'ml-kem-768'],
      ['mlkem1024', 'ML-KEM-1024', nobleKem && nobleKem.ml_kem1024, 'ml-kem-1024'],
      ['xwing', 'X-Wing', nobleHybrid && nobleHybrid.ml_kem768_x25519, undefined],
    ]) {
      const k = kem[name]
      const seed = nodeCrypto.randomBytes(k.lengths.seed)
      const { publicKey, privateKey } = k.generateKeypair({ seed })
      const expanded = k.lengths.expandedPrivateKey && k.generateKeypair({ seed, privateKeyFormat: 'expanded' }).privateKey
      const nobleSecret = noble && noble.keygen(seed).secretKey
      const ko = withNode && nodeType && {
        publicKey: keys.import(publicKey, { algorithm: nodeType }),
        privateKey: keys.import(privateKey, { algorithm: nodeType }),
      }
      const { ciphertext, sharedSecret } = k.encapsulate(publicKey)
      // An encapsulation is right when our decapsulation of its ciphertext gives its secret.
      const decapsOk = (ct, ss) => String(k.decapsulate(Buffer.from(ct), privateKey).equals(Buffer.from(ss)))

      const keygen = [{ name: 'cryptographer.js', fn: () => k.generateKeypair({ seed }).publicKey }]
      const encaps = [{ name: 'cryptographer.js', fn: () => k.encapsulate(publicKey), out: (r) => decapsOk(r.ciphertext, r.sharedSecret) }]
      const decaps = [{ name: 'cryptographer.js (seed key)', fn: () => k.decapsulate(ciphertext, privateKey) }]
      if (expanded) decaps.push({ name: 'cryptographer.js (expanded key)', fn: () => k.decapsulate(ciphertext, expanded) })
      if (noble) {
        keygen.push({ name: '@noble/post-quantum', fn: () => noble.keygen(seed).publicKey })
        encaps.push({ name: '@noble/post-quantum', fn: () => noble.encapsulate(publicKey), out: (r) => decapsOk(r.cipherText, r.sharedSecret) })
        decaps.push({ name: '@noble/post-quantum', fn: () => noble.decapsulate(ciphertext, nobleSecret) })
      }
      if (ko) {
        keygen.push({ name: 'node:crypto (random key)', fn: () => nodeCrypto.generateKeyPairSync(nodeType), check: false })
        encaps.push({ name: 'node:crypto', fn: () => nodeCrypto.encapsulate(ko.publicKey), out: (r) => decapsOk(r.ciphertext, r.sharedKey) })
        decaps.push({ name: 'node:crypto', fn: () => nodeCrypto.decapsulate(ko.privateKey, ciphertext) })
      }
      if (!Buffer.from(decaps[0].fn()).equals(sharedSecret)) throw new Error(`${label}: decapsulation differs from encapsulation`)
      await h.compare({ table, row: `${label} key generation (from a seed)` }, keygen)
      await h.compare({ table, row: `${label} encapsulate` }, encaps)
      await h.compare({ table, row: `${label} decapsulate` }, decaps)
    }
  },
}
