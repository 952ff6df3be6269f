'use strict'
// node:crypto's generateKeyPairSync for the differential tests, returning key objects imported
// from the generated keys' DER, not the generator's own.
//
// Why: on Node 20 (seen on 20.20.2) exporting a key that generateKeyPairSync returned as JWK can
// deadlock the process for good. The export holds the key's mutex while it makes JS strings; a
// garbage collection that runs meanwhile can destroy the finished key-generation job that
// shares that key and mutex, and the job's destructor locks the mutex again on the same thread
// (main thread stack: KeyObjectHandle::ExportJWK -> EncodeBignum -> Heap::CollectGarbage ->
// GlobalHandles::InvokeFirstPassWeakCallbacks -> KeyGenJob<...>::~KeyGenJob -> uv_mutex_lock).
// Node alone shows it: a loop generating EC, Ed25519, X25519 or RSA keys and exporting them as
// JWK stalls within seconds under --max-semi-space-size=1, and in about 2 % of runs of
// pk-keys.spec.js on a loaded machine; Node 22.23, 24.21 and 26.12 do not. Keys imported from
// DER have a mutex of their own, which no job's destructor takes.
const nodeCrypto = require('node:crypto')

const DER = { privateKeyEncoding: { type: 'pkcs8', format: 'der' }, publicKeyEncoding: { type: 'spki', format: 'der' } }

/** `nodeCrypto.generateKeyPairSync(type, options)`: the same keys, as independent key objects. */
function generateKeyPairSync(type, options = {}) {
  if (options.privateKeyEncoding || options.publicKeyEncoding) return nodeCrypto.generateKeyPairSync(type, options)
  const { privateKey, publicKey } = nodeCrypto.generateKeyPairSync(type, { ...options, ...DER })
  return {
    privateKey: nodeCrypto.createPrivateKey({ key: privateKey, format: 'der', type: 'pkcs8' }),
    publicKey: nodeCrypto.createPublicKey({ key: publicKey, format: 'der', type: 'spki' }),
  }
}

module.exports = { generateKeyPairSync }
