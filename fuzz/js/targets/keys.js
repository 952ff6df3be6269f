'use strict'
// Key import (crypto.keys and every public-key call): DER (PKCS#8, SPKI, SEC1, PKCS#1), PEM and
// JWK of Ed25519, X25519, EC, RSA, ML-KEM, X-Wing and ML-DSA. The first byte picks the form
// (0 DER bytes, 1 PEM text, 2 JWK as JSON). Properties: a refusal is a coded error; a key that
// imports exports to DER that imports to the same DER (private and public), and to PEM and JWK
// that import back to it; and, for the algorithms node:crypto has, node reads the input as a key
// with the same public key (differential).
const assert = require('assert')
const nodeCrypto = require('crypto')
const { keys } = require('../../..')
const { attempt } = require('../check')

const der = (k, extra) => keys.export(k, { format: 'der', ...extra })
// ML-KEM, ML-DSA (2.16.840.1.101.3.4.4.x / 4.3.x) and X-Wing: none in node 20's KeyObjects.
const POST_QUANTUM = /0609608648016503040[34]|060b2b0601040183e62d81c87a/

/** node:crypto's SPKI of the public key of `input` (DER bytes or PEM), or undefined. */
function nodePublic(input) {
  const tries = Buffer.isBuffer(input)
    ? [['pkcs8', true], ['sec1', true], ['pkcs1', true], ['spki', false], ['pkcs1', false]].map(([type, priv]) => () =>
        (priv ? nodeCrypto.createPrivateKey : nodeCrypto.createPublicKey)({ key: input, format: 'der', type }))
    : typeof input === 'string'
      ? [() => nodeCrypto.createPrivateKey(input), () => nodeCrypto.createPublicKey(input)]
      : [() => nodeCrypto.createPrivateKey({ key: input, format: 'jwk' }), () => nodeCrypto.createPublicKey({ key: input, format: 'jwk' })]
  for (const t of tries) {
    try {
      const k = t()
      return (k.type === 'private' ? nodeCrypto.createPublicKey(k) : k).export({ format: 'der', type: 'spki' })
    } catch {}
  }
  return undefined
}

function fuzz(buf) {
  if (buf.length === 0) return
  const body = buf.subarray(1)
  let input
  if (buf[0] % 3 === 0) input = body
  else if (buf[0] % 3 === 1) input = body.toString('latin1')
  else {
    try {
      input = JSON.parse(body.toString('utf8'))
    } catch {
      return
    }
    if (input === null || typeof input !== 'object') return
  }
  const mine = attempt(() => der(input))
  if (!mine) return
  assert.deepStrictEqual(der(mine), mine, 'the DER written does not read back the same')
  const pub = der(input, { public: true })
  assert.deepStrictEqual(der(mine, { public: true }), pub)
  assert.deepStrictEqual(der(pub), pub)
  const pem = keys.export(mine, { format: 'pem' })
  assert.deepStrictEqual(der(pem), mine, 'the PEM written does not read back the same')
  const jwk = attempt(() => keys.export(mine, { format: 'jwk' }), ['ERR_INVALID_ARG_VALUE'])
  if (jwk) assert.deepStrictEqual(der(jwk), mine, 'the JWK written does not read back the same')
  if (POST_QUANTUM.test(pub.toString('hex'))) return
  const theirs = nodePublic(input)
  assert.ok(theirs, 'node:crypto refuses a key this library reads')
  assert.deepStrictEqual(theirs, pub, 'node:crypto reads another public key')
}

module.exports = { fuzz }
