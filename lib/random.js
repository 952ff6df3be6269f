'use strict'
const native = require('./native')
const { invalidArgType, outOfRange } = require('./errors')

const MAX_RANDOM = 2 ** 31 - 1

/** `size` bytes from the operating system's CSPRNG, as a Buffer. */
function randomBytes(size) {
  if (typeof size !== 'number') throw invalidArgType('size', 'of type number', size)
  if (!Number.isInteger(size) || size < 0 || size > MAX_RANDOM) {
    throw outOfRange('size', `an integer >= 0 && <= ${MAX_RANDOM}`, size)
  }
  const out = Buffer.allocUnsafe(size)
  if (size > 0) native.randomFill(out)
  return out
}

/** Compares two byte strings in constant time; RangeError when their lengths differ. */
function timingSafeEqual(a, b) {
  return native.timingSafeEqual(a, b)
}

module.exports = { randomBytes, timingSafeEqual }
