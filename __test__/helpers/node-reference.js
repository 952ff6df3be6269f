'use strict'
// node:crypto as the reference implementation the specs compare against.
const nodeCrypto = require('node:crypto')

/** True when this node's OpenSSL has the hash `name`. */
function nodeHas(name) {
  try {
    nodeCrypto.createHash(name).update('x').digest()
    return true
  } catch {
    return false
  }
}

/** node:crypto's names for crypto.sha's algorithms (those node lacks here are left out by `nodeName`). */
const NODE_NAMES = {
  md4: 'md4', md5: 'md5', sha1: 'sha1', sha224: 'sha224', sha256: 'sha256', sha384: 'sha384', sha512: 'sha512',
  sha512_224: 'sha512-224', sha512_256: 'sha512-256', sha3_224: 'sha3-224', sha3_256: 'sha3-256',
  sha3_384: 'sha3-384', sha3_512: 'sha3-512', shake128: 'shake128', shake256: 'shake256', blake2b: 'blake2b512',
  blake2s: 'blake2s256', ripemd160: 'ripemd160', whirlpool: 'whirlpool',
}

/** node:crypto's name for `sha[name]`, or null when this node has no such hash. */
const nodeName = (name) => (NODE_NAMES[name] && nodeHas(NODE_NAMES[name]) ? NODE_NAMES[name] : null)

const isAead = (name) => /gcm|ccm|poly1305/.test(name)

/** node:crypto reference: ciphertext (‖ tag for AEADs). */
function nodeEncrypt(name, key, iv, data, { aad, tagLength = 16, padding = true } = {}) {
  // node's CCM fails ('tag not set') on an empty Buffer whose storage has been materialised
  // (as reading it through N-API does): give it a fresh one.
  if (data.length === 0) data = Buffer.alloc(0)
  const aead = isAead(name)
  const c = nodeCrypto.createCipheriv(name, key, iv, aead ? { authTagLength: tagLength } : undefined)
  if (!padding) c.setAutoPadding(false)
  if (/ccm/.test(name)) c.setAAD(aad ?? Buffer.alloc(0), { plaintextLength: data.length })
  else if (aad) c.setAAD(aad)
  const out = [c.update(data), c.final()]
  if (aead) out.push(c.getAuthTag())
  return Buffer.concat(out)
}

/** node:crypto reference: plaintext of `ciphertext ‖ tag` (AEADs) or of the ciphertext. */
function nodeDecrypt(name, key, iv, data, { aad, tagLength = 16, padding = true } = {}) {
  const aead = isAead(name)
  const d = nodeCrypto.createDecipheriv(name, key, iv, aead ? { authTagLength: tagLength } : undefined)
  if (!padding) d.setAutoPadding(false)
  let body = data
  if (aead) {
    body = data.subarray(0, data.length - tagLength)
    d.setAuthTag(data.subarray(data.length - tagLength))
  }
  if (/ccm/.test(name)) d.setAAD(aad ?? Buffer.alloc(0), { plaintextLength: body.length })
  else if (aad) d.setAAD(aad)
  return Buffer.concat([d.update(body), d.final()])
}

module.exports = { nodeHas, nodeName, nodeEncrypt, nodeDecrypt }
