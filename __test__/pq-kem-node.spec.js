'use strict'
// ML-KEM against node:crypto (Node >= 24.7, OpenSSL 3.5: generateKeyPairSync('ml-kem-*'),
// crypto.encapsulate / crypto.decapsulate), both directions on random keys: node's KeyObjects
// and their PKCS#8 / SPKI as our keys, ours as node's. Runs under the node matrix
// (`npm run test:node-matrix`); on a Node without ML-KEM it checks only that it has none, and
// says what was not checked.
const test = require('ava')
const nodeCrypto = require('node:crypto')
const crypto = require('..')

const SETS = ['512', '768', '1024']
const ROUNDS = 10

function nodeHasMlKem() {
  if (typeof nodeCrypto.encapsulate !== 'function') return false
  try {
    nodeCrypto.generateKeyPairSync('ml-kem-768')
    return true
  } catch {
    return false
  }
}

if (!nodeHasMlKem()) {
  test('node:crypto has no ML-KEM here: the differential tests against it do not run', (t) => {
    t.log(`Node ${process.version}: no ML-KEM in node:crypto; not checked here: interop with node's ML-KEM KeyObjects, encapsulate and decapsulate (run npm run test:node-matrix for Node 24/26)`)
    // Bun's node:crypto generates ML-KEM key pairs but has no encapsulate / decapsulate.
    if (typeof nodeCrypto.encapsulate === 'function') t.throws(() => nodeCrypto.generateKeyPairSync('ml-kem-768'))
    else t.is(nodeCrypto.decapsulate, undefined)
  })
} else {
  for (const set of SETS) {
    const ours = crypto.kem[`mlkem${set}`]
    const type = `ml-kem-${set}`

    test(`${type}: node's keys and encapsulations work with ours, and ours with node's`, (t) => {
      for (let i = 0; i < ROUNDS; i++) {
        // Node's key pair: its KeyObjects, PKCS#8 and SPKI are our keys.
        const nk = nodeCrypto.generateKeyPairSync(type)
        t.is(nk.privateKey.asymmetricKeyType, type)
        const n = nodeCrypto.encapsulate(nk.publicKey)
        t.true(ours.decapsulate(n.ciphertext, nk.privateKey).equals(n.sharedKey))
        const pkcs8 = nk.privateKey.export({ format: 'der', type: 'pkcs8' })
        t.true(ours.decapsulate(n.ciphertext, pkcs8).equals(n.sharedKey))
        const e = ours.encapsulate(nk.publicKey.export({ format: 'der', type: 'spki' }))
        t.true(nodeCrypto.decapsulate(nk.privateKey, e.ciphertext).equals(e.sharedSecret))

        // Our key pair, as KeyObjects for node and raw for us.
        const seed = nodeCrypto.randomBytes(64)
        const raw = ours.generateKeypair({ seed })
        const ko = ours.generateKeypair({ seed, format: 'keyobject' })
        t.is(ko.publicKey.asymmetricKeyType, type)
        const n2 = nodeCrypto.encapsulate(ko.publicKey)
        t.true(ours.decapsulate(n2.ciphertext, raw.privateKey).equals(n2.sharedKey))
        const e2 = ours.encapsulate(raw.publicKey)
        t.true(nodeCrypto.decapsulate(ko.privateKey, e2.ciphertext).equals(e2.sharedSecret))
        // The same public key on both sides, and node's own raw export where it has one.
        t.true(ko.publicKey.export({ format: 'der', type: 'spki' }).subarray(-raw.publicKey.length).equals(raw.publicKey))
        try {
          t.true(ko.privateKey.export({ format: 'raw-seed' }).equals(seed))
          t.true(ko.publicKey.export({ format: 'raw-public' }).equals(raw.publicKey))
        } catch (err) {
          if (i === 0) t.log(`Node ${process.version} has no raw-seed / raw-public export (${err.code || err.message})`)
        }
      }
    })

    test(`${type}: a modified ciphertext gives node's implicit-rejection secret too`, (t) => {
      const nk = nodeCrypto.generateKeyPairSync(type)
      const { ciphertext } = nodeCrypto.encapsulate(nk.publicKey)
      for (let i = 0; i < ROUNDS; i++) {
        const bad = Buffer.from(ciphertext)
        bad[i * 7] ^= 0x80
        t.true(ours.decapsulate(bad, nk.privateKey).equals(nodeCrypto.decapsulate(nk.privateKey, bad)))
      }
    })
  }
}
