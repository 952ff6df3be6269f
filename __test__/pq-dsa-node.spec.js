'use strict'
// ML-DSA against node:crypto (OpenSSL 3.5), both directions, random keys, messages and contexts:
// node's keys (KeyObject, DER, PEM, JWK, raw seed) sign here and verify there and the reverse;
// our encodings load in node as the same key. Node has ML-DSA from 24.7 (contexts and the raw
// formats in later 24.x): this file runs its tests under `npm run test:node-matrix` (Node 24/26)
// and skips, saying so, on older nodes (the default suite runs on Node 20).
const test = require('ava')
const nodeCrypto = require('node:crypto')
const crypto = require('..')

const { dsa, keys } = crypto
const SETS = [
  ['ml-dsa-44', dsa.mldsa44],
  ['ml-dsa-65', dsa.mldsa65],
  ['ml-dsa-87', dsa.mldsa87],
]
const rand = (n) => nodeCrypto.randomBytes(n)

/** What this node offers: ML-DSA keys, signing contexts, the raw-seed / raw-public formats. */
function probe() {
  let kp
  try {
    kp = nodeCrypto.generateKeyPairSync('ml-dsa-44')
  } catch {
    return {}
  }
  const has = { keys: true }
  try {
    const sig = nodeCrypto.sign(null, Buffer.from('m'), { key: kp.privateKey, context: Buffer.from('c') })
    has.context = !nodeCrypto.verify(null, Buffer.from('m'), kp.publicKey, sig)
  } catch {}
  try {
    has.raw = kp.privateKey.export({ format: 'raw-seed' }).length === 32
  } catch {}
  return has
}

const has = probe()
const why = `Node ${process.version} has no ML-DSA in node:crypto (Node >= 24.7: run npm run test:node-matrix)`
const maybe = (cond, title, fn) => (cond ? test(title, fn) : test.skip(`${title} [skipped: ${cond === undefined ? why : 'not in this node'}]`, fn))

maybe(has.keys, 'node:crypto keys sign here and verify there, and the reverse (every key form)', (t) => {
  for (const [name, api] of SETS) {
    for (let i = 0; i < 6; i++) {
      const node = nodeCrypto.generateKeyPairSync(name)
      const msg = rand(nodeCrypto.randomInt(3000))
      const privForms = [
        node.privateKey,
        node.privateKey.export({ format: 'der', type: 'pkcs8' }),
        node.privateKey.export({ format: 'pem', type: 'pkcs8' }),
        node.privateKey.export({ format: 'jwk' }),
      ]
      const pubForms = [node.publicKey, node.publicKey.export({ format: 'der', type: 'spki' }), node.publicKey.export({ format: 'pem', type: 'spki' }), node.publicKey.export({ format: 'jwk' })]
      for (const f of privForms) {
        const sig = api.sign(msg, f)
        t.true(nodeCrypto.verify(null, msg, node.publicKey, sig), `${name}: ours verified by node`)
      }
      const nodeSig = nodeCrypto.sign(null, msg, node.privateKey)
      for (const f of pubForms) t.true(api.verify(msg, f, nodeSig), `${name}: node's verified here`)
      t.false(api.verify(Buffer.concat([msg, Buffer.from([0])]), node.publicKey, nodeSig))
      // Our keys, imported into node: the same key; node signs, we verify; we sign, node verifies.
      const ours = api.generateKeypair()
      const ko = keys.import(ours.privateKey, { algorithm: name })
      const kpub = keys.import(ours.publicKey, { algorithm: name })
      t.is(ko.asymmetricKeyType, name)
      t.deepEqual(nodeCrypto.createPublicKey(ko).export({ format: 'der', type: 'spki' }), keys.export(ours.publicKey, { algorithm: name }))
      t.true(api.verify(msg, ours.publicKey, nodeCrypto.sign(null, msg, ko)))
      t.true(nodeCrypto.verify(null, msg, kpub, api.sign(msg, ours.privateKey)))
      // node's PKCS#8 (the `both` choice) and ours (the seed choice) hold the same seed.
      const jwk = node.privateKey.export({ format: 'jwk' })
      t.deepEqual(keys.export(node.privateKey, { format: 'raw' }), Buffer.from(jwk.priv, 'base64url'))
      t.deepEqual(keys.export(node.privateKey, { format: 'jwk' }), jwk)
    }
  }
})

maybe(has.context, 'contexts: signatures with a context agree with node both ways', (t) => {
  for (const [name, api] of SETS) {
    for (let i = 0; i < 6; i++) {
      const node = nodeCrypto.generateKeyPairSync(name)
      const msg = rand(200)
      const context = rand(nodeCrypto.randomInt(256))
      const sig = api.sign(msg, node.privateKey, { context })
      t.true(nodeCrypto.verify(null, msg, { key: node.publicKey, context }, sig))
      t.false(nodeCrypto.verify(null, msg, node.publicKey, sig) && context.length > 0)
      const nodeSig = nodeCrypto.sign(null, msg, { key: node.privateKey, context })
      t.true(api.verify(msg, node.publicKey, nodeSig, { context }))
    }
  }
})

maybe(has.raw, "raw seeds and public keys equal node's 'raw-seed' / 'raw-public' exports", (t) => {
  for (const [name, api] of SETS) {
    const node = nodeCrypto.generateKeyPairSync(name)
    const seed = node.privateKey.export({ format: 'raw-seed' })
    const pub = node.publicKey.export({ format: 'raw-public' })
    t.deepEqual(api.generateKeypair({ seed }).publicKey, pub)
    t.deepEqual(keys.export(node.privateKey, { format: 'raw' }), seed)
    t.deepEqual(keys.export(node.publicKey, { format: 'raw' }), pub)
    // Deterministic signatures from the same seed: node's are hedged, so only verification is compared.
    t.true(nodeCrypto.verify(null, Buffer.from('x'), node.publicKey, api.sign('x', seed, { deterministic: true })))
  }
})
