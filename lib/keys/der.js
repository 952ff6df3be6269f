'use strict'
// DER, strictly: a bounded reader (definite, minimal lengths; one TLV at a time) and a writer,
// for the key containers (PKCS#8, SPKI, SEC1, PKCS#1) of ./index.js and the rows of ./rows.js;
// and the errors of the key layer.
const { coded } = require('../errors')

// ---- errors -------------------------------------------------------------------------------

const invalidKeyType = (name, expected, got) =>
  coded(TypeError, 'ERR_CRYPTO_INVALID_KEY_TYPE', `The "${name}" argument must be ${expected}. Received ${got}`)
const invalidKey = (name, expected, detail) =>
  coded(TypeError, 'ERR_INVALID_ARG_VALUE', `The argument "${name}" is invalid: expected ${expected}. ${detail}`)
const invalidJwk = (name, detail) => coded(TypeError, 'ERR_CRYPTO_INVALID_JWK', `Invalid JWK in "${name}": ${detail}`)

// ---- DER ----------------------------------------------------------------------------------

const TAG = { INTEGER: 0x02, BIT_STRING: 0x03, OCTET_STRING: 0x04, NULL: 0x05, OID: 0x06, SEQUENCE: 0x30 }

/** A strict DER reader over `buf` (definite, minimal lengths; every read bounds-checked). */
class DerReader {
  constructor(buf, name, what) {
    this.buf = buf
    this.pos = 0
    this.name = name
    this.what = what
  }

  fail(detail) {
    throw invalidKey(this.name, this.what, `Malformed DER: ${detail}`)
  }

  done() {
    return this.pos >= this.buf.length
  }

  peek() {
    return this.done() ? -1 : this.buf[this.pos]
  }

  /** The content of the next element, which must have tag `tag`. */
  read(tag) {
    const b = this.buf
    if (this.pos + 2 > b.length) this.fail('truncated')
    if (b[this.pos] !== tag) this.fail(`expected tag 0x${tag.toString(16)}, got 0x${b[this.pos].toString(16)}`)
    let len = b[this.pos + 1]
    let at = this.pos + 2
    if (len & 0x80) {
      const n = len & 0x7f
      if (n === 0 || n > 2) this.fail('unsupported length')
      if (at + n > b.length) this.fail('truncated')
      len = n === 1 ? b[at] : (b[at] << 8) | b[at + 1]
      if (len < 0x80 || (n === 2 && len < 0x100)) this.fail('non-minimal length')
      at += n
    }
    if (at + len > b.length) this.fail('truncated')
    this.pos = at + len
    return b.subarray(at, at + len)
  }

  /** An optional context-specific constructed element [n]: its content, or undefined. */
  optional(n) {
    return this.peek() === (0xa0 | n) ? this.read(0xa0 | n) : undefined
  }

  /** A non-negative INTEGER's magnitude (minimal encoding required). */
  uint() {
    const v = this.read(TAG.INTEGER)
    if (v.length === 0 || v[0] & 0x80) this.fail('negative or empty INTEGER')
    if (v.length > 1 && v[0] === 0 && !(v[1] & 0x80)) this.fail('non-minimal INTEGER')
    return v[0] === 0 && v.length > 1 ? v.subarray(1) : v
  }

  small() {
    const v = this.uint()
    if (v.length > 1) this.fail('INTEGER too large')
    return v[0]
  }

  bitString() {
    const v = this.read(TAG.BIT_STRING)
    if (v.length === 0 || v[0] !== 0) this.fail('BIT STRING with unused bits')
    return v.subarray(1)
  }

  sub(tag) {
    return new DerReader(this.read(tag), this.name, this.what)
  }

  end() {
    if (!this.done()) this.fail('trailing bytes')
  }
}

function derLength(n) {
  if (n < 0x80) return [n]
  if (n < 0x100) return [0x81, n]
  return [0x82, n >> 8, n & 0xff]
}

/** DER element `tag` around the concatenated `parts` (Buffers or byte arrays). */
function der(tag, ...parts) {
  const body = Buffer.concat(parts.map((p) => (Buffer.isBuffer(p) ? p : Buffer.from(p))))
  return Buffer.concat([Buffer.from([tag, ...derLength(body.length)]), body])
}

const derUint = (v) => {
  let i = 0
  while (i < v.length - 1 && v[i] === 0) i++
  v = v.subarray(i)
  return der(TAG.INTEGER, v[0] & 0x80 ? Buffer.concat([Buffer.from([0]), v]) : v)
}
const derOid = (hex) => der(TAG.OID, Buffer.from(hex, 'hex'))
const derBits = (v) => der(TAG.BIT_STRING, [0], v)
const derOctets = (v) => der(TAG.OCTET_STRING, v)
const derSmall = (n) => der(TAG.INTEGER, [n])

module.exports = { DerReader, TAG, der, derBits, derOctets, derOid, derSmall, derUint, invalidJwk, invalidKey, invalidKeyType }
