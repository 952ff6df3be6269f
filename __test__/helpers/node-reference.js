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

module.exports = { nodeHas, nodeEncrypt, nodeDecrypt }
