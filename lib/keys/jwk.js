'use strict'
// JWK fields: base64url without padding, each of an exact length (RFC 7517, 7518, 8037).
const { invalidJwk } = require('./der')

// ---- JWK ------------------------------------------------------------------------------------

const b64u = (b) => Buffer.from(b).toString('base64url')

function jwkBytes(jwk, field, len, name) {
  const v = jwk[field]
  if (typeof v !== 'string' || !/^[A-Za-z0-9_-]*$/.test(v) || v.length % 4 === 1) {
    throw invalidJwk(name, `"${field}" must be a base64url string`)
  }
  const b = Buffer.from(v, 'base64url')
  if (b.length !== len) throw invalidJwk(name, `"${field}" must be ${len} bytes, got ${b.length}`)
  return b
}

module.exports = { b64u, jwkBytes }
