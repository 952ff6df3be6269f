'use strict'
// Output formats, shared by every family that returns bytes.
const { invalidArgType, invalidArgValue, outOfRange } = require('./errors')
const { geometryOf } = require('./bytes')

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

/**
 * The caller's `options.output` (a Buffer, TypedArray or DataView) for a result of `need` bytes:
 * a Buffer over its first `need` bytes, which the native call writes and the call returns. The
 * native side refuses it if it shares memory with an input (src/js/bytes.rs, `Out::writable_for`).
 */
function outputTarget(output, format, need) {
  if (!ArrayBuffer.isView(output)) {
    throw invalidArgType('options.output', 'an instance of Buffer, TypedArray or DataView', output)
  }
  // Another thread could read (or write) shared memory while the call runs: it would see
  // plaintext before its tag is checked. The memory, offset and length are read with the
  // intrinsic getters (own `buffer`, `byteOffset` or `byteLength` properties on the view cannot
  // stand in for them: the result lands in the view itself) and the memory is checked by tag, so a
  // SharedArrayBuffer of another realm is refused too; this realm's ArrayBuffer answers
  // `instanceof` without the slower tag read.
  const [memory, offset, length] = geometryOf(output)
  if (!(memory instanceof ArrayBuffer) && Object.prototype.toString.call(memory) === '[object SharedArrayBuffer]') {
    throw invalidArgValue('options.output', 'memory of an ArrayBuffer (a SharedArrayBuffer can be read by other threads during the call)', 'a view of a SharedArrayBuffer')
  }
  if (format !== undefined && format !== 'buffer') {
    throw invalidArgValue('options.outputFormat', "'buffer' or undefined when options.output is given", format)
  }
  if (length < need) {
    throw outOfRange('options.output.byteLength', `>= ${need} (the length of the result)`, length)
  }
  // A Buffer of exactly the result's length is its own view (no view object to make), unless its
  // own properties say otherwise than the intrinsic getters: the WebAssembly build's runtime
  // copies the result back through those properties.
  if (length === need && Buffer.isBuffer(output) && output.byteOffset === offset && output.byteLength === length && output.buffer === memory) {
    return output
  }
  return Buffer.from(memory, offset, need)
}

/** Async calls return a new Buffer (their work runs off the JS thread): `output` is refused. */
function refuseAsyncOutput(options) {
  if (options !== null && typeof options === 'object' && options.output != null) {
    throw invalidArgValue(
      'options.output',
      'no output buffer for an async call (its result is a new Buffer; the synchronous form writes into options.output)',
      options.output,
    )
  }
}

module.exports = { checkFormat, checkDecryptFormat, decryptOutput, encode, outputTarget, refuseAsyncOutput }
