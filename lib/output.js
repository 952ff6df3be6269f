'use strict'
// Output formats, shared by every family that returns bytes.
const { invalidArgValue } = require('./errors')

const FORMATS = ['hex', 'base64', 'base64url', 'binary', 'buffer']
const ENCODING = { base64: 'base64', base64url: 'base64url', binary: 'latin1' }

/** Validates an outputFormat value (undefined means the default). */
function checkFormat(format, name = 'outputFormat') {
  if (format === undefined || format === 'hex' || format === 'buffer' || format === 'base64' ||
      format === 'base64url' || format === 'binary') return format
  throw invalidArgValue(name, `one of ${FORMATS.map((f) => `'${f}'`).join(', ')}`, format)
}

/** Turns a result Buffer into the requested format (undefined means hex, the default). */
function encode(buf, format) {
  if (format === 'buffer') return buf
  if (format === undefined || format === 'hex') return buf.toString('hex')
  return buf.toString(ENCODING[format])
}

/** A decrypt outputFormat: any of the above or 'utf8' (undefined means a Buffer). */
function checkDecryptFormat(format, name) {
  return format === 'utf8' ? format : checkFormat(format, name)
}

/** A decrypted Buffer in a decrypt outputFormat (undefined and 'buffer' give the Buffer). */
function decryptOutput(buf, format) {
  if (format === undefined || format === 'buffer') return buf
  if (format === 'utf8') return buf.toString('utf8')
  return encode(buf, format)
}

module.exports = { FORMATS, checkFormat, checkDecryptFormat, decryptOutput, encode }
