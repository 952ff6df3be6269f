'use strict'
// The one reader of byte inputs in the JS layer. A view's memory, offset and length are read
// with the intrinsic getters of %TypedArray%.prototype and DataView.prototype, never as ordinary
// properties: a view carrying own `buffer`, `byteOffset` or `byteLength` properties (or a
// subclass overriding them) cannot make the library read other bytes of the caller's memory
// than the view covers. Native code reads views the same way (N-API's typed-array info).
const { isTypedArray } = require('node:util').types
const { BYTES, invalidArgType } = require('./errors')

const getters = (proto) => ['buffer', 'byteOffset', 'byteLength'].map((k) => Object.getOwnPropertyDescriptor(proto, k).get)
const [TA_BUFFER, TA_OFFSET, TA_LENGTH] = getters(Object.getPrototypeOf(Uint8Array.prototype))
const [DV_BUFFER, DV_OFFSET, DV_LENGTH] = getters(DataView.prototype)
const AB_BYTE_LENGTH = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, 'byteLength').get
const SAB_BYTE_LENGTH =
  typeof SharedArrayBuffer === 'function' ? Object.getOwnPropertyDescriptor(SharedArrayBuffer.prototype, 'byteLength').get : undefined

/**
 * `[memory, byteOffset, byteLength]` of a view (a TypedArray or DataView of any realm). Written
 * out per kind, with no closure or intermediate array: it runs on every call that takes bytes.
 */
function geometryOf(view) {
  return isTypedArray(view)
    ? [TA_BUFFER.call(view), TA_OFFSET.call(view), TA_LENGTH.call(view)]
    : [DV_BUFFER.call(view), DV_OFFSET.call(view), DV_LENGTH.call(view)]
}

const isArrayBuffer = (x) =>
  x instanceof ArrayBuffer || (SAB_BYTE_LENGTH !== undefined && x instanceof SharedArrayBuffer)

/** True for every byte input: a string, a Buffer, TypedArray or DataView, an ArrayBuffer. */
const isBytes = (x) => typeof x === 'string' || ArrayBuffer.isView(x) || isArrayBuffer(x)

/**
 * The byte length of a view or of this realm's ArrayBuffer, or undefined for anything else: what
 * a native call that reads the value as it is (src/js/bytes.rs) will read, with no Buffer made.
 */
function viewLength(v) {
  if (isTypedArray(v)) return TA_LENGTH.call(v)
  if (ArrayBuffer.isView(v)) return DV_LENGTH.call(v)
  if (v instanceof ArrayBuffer) return AB_BYTE_LENGTH.call(v)
  return undefined
}

/** The bytes of a view or ArrayBuffer as a Buffer over the same memory, or undefined (strings included). */
function asBuffer(v) {
  if (ArrayBuffer.isView(v)) {
    const [memory, offset, length] = geometryOf(v)
    return Buffer.from(memory, offset, length)
  }
  if (v instanceof ArrayBuffer) return Buffer.from(v, 0, AB_BYTE_LENGTH.call(v))
  if (SAB_BYTE_LENGTH !== undefined && v instanceof SharedArrayBuffer) return Buffer.from(v, 0, SAB_BYTE_LENGTH.call(v))
  return undefined
}

/** A byte input as a Buffer (a string as its UTF-8 bytes; views over the caller's memory), else a TypeError naming `name`. */
function bytesOf(v, name, expected = BYTES) {
  if (typeof v === 'string') return Buffer.from(v, 'utf8')
  const b = asBuffer(v)
  if (b === undefined) throw invalidArgType(name, expected, v)
  return b
}

/** A private copy of a byte input (the caller may change its buffer afterwards). */
function copyBytes(v, name) {
  if (typeof v === 'string') return Buffer.from(v, 'utf8')
  return Buffer.from(bytesOf(v, name))
}

/** Byte length of a byte input (a string: its UTF-8 length). */
const byteLength = (v) => (typeof v === 'string' ? Buffer.byteLength(v, 'utf8') : asBuffer(v).length)

/** The parts of a native result `[bytes, lengths]` (byte strings back to back, and their lengths), as Buffers. */
function split([data, lengths]) {
  const out = []
  let at = 0
  for (const n of lengths) {
    out.push(data.subarray(at, at + n))
    at += n
  }
  return out
}

module.exports = { asBuffer, bytesOf, byteLength, copyBytes, geometryOf, isBytes, split, viewLength }
