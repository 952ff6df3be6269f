'use strict'
// PEM text (RFC 7468): the armor around DER, strictly (one block, 64-character lines allowed as
// any base64 line, no headers), bounded before it is decoded.
const { invalidKey } = require('./der')

const MAX_PEM_CHARS = 24 * 1024

// ---- PEM ------------------------------------------------------------------------------------

const PEM_LABELS = { pkcs8: 'PRIVATE KEY', spki: 'PUBLIC KEY', sec1: 'EC PRIVATE KEY' }
// PKCS#1 (RSA): the label says private or public.
const PKCS1_LABELS = { true: 'RSA PRIVATE KEY', false: 'RSA PUBLIC KEY' }
const pemLabel = (type, isPrivate) => (type === 'pkcs1' ? PKCS1_LABELS[isPrivate] : PEM_LABELS[type])
// The BEGIN line, non-empty base64 lines, the END line, each ended by LF or CRLF (RFC 7468 §2;
// OpenSSL refuses an END line that follows the base64 on the same line, and empty lines in the
// base64).
const PEM_RE = /^-----BEGIN ([A-Z0-9 ]+)-----\r?\n((?:[A-Za-z0-9+/=]+\r?\n)*)-----END \1-----\s*$/

/**
 * The label and bytes of a PEM text (RFC 7468), its length bounded before any work. Shared by the
 * key forms below and crypto.hybrid's own labels.
 */
function unarmor(text, name) {
  if (text.length > MAX_PEM_CHARS) throw invalidKey(name, 'a PEM key', `Received ${text.length} characters (at most ${MAX_PEM_CHARS})`)
  const m = PEM_RE.exec(text.trim())
  if (!m) throw invalidKey(name, 'a PEM key (a -----BEGIN ...----- line, base64 lines, an -----END ...----- line)', 'Malformed PEM')
  const body = m[2].replace(/\r?\n/g, '')
  if (body.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(body)) throw invalidKey(name, 'a PEM key', 'Malformed base64')
  return { label: m[1], bytes: Buffer.from(body, 'base64') }
}

/** `bytes` as PEM under `label`, 64 base64 characters a line. */
function armor(bytes, label) {
  const b64 = Buffer.from(bytes).toString('base64').replace(/.{64}/g, '$&\n').replace(/\n$/, '')
  return `-----BEGIN ${label}-----\n${b64}\n-----END ${label}-----\n`
}


const toPem = (derBuf, type, isPrivate) => armor(derBuf, pemLabel(type, isPrivate))

module.exports = { PEM_LABELS, PKCS1_LABELS, armor, toPem, unarmor }
