'use strict'
// Errors raised by the JS layer. Same classes, codes and message shapes as the native layer
// (src/error.rs), which raises the errors only it can detect.

/**
 * Every `code` an error of the library carries, with its class: the one list. The README's error
 * table names each of them, and every code thrown in lib/ and src/ is one of them
 * (__test__/docs.spec.js). A file call's error carries node's errno name instead (ENOENT...).
 */
const CODES = Object.freeze({
  ERR_INVALID_ARG_TYPE: 'TypeError',
  ERR_INVALID_ARG_VALUE: 'TypeError',
  ERR_OUT_OF_RANGE: 'RangeError',
  ERR_HASH_FINALIZED: 'Error',
  ERR_INVALID_STATE: 'Error',
  ERR_ILLEGAL_CONSTRUCTOR: 'TypeError',
  ERR_CRYPTO_DECRYPT_FAILED: 'Error',
  ERR_CRYPTO_INVALID_KEY_TYPE: 'TypeError',
  ERR_CRYPTO_INVALID_JWK: 'TypeError',
  ERR_CRYPTO_ECDH_INVALID_PUBLIC_KEY: 'Error',
  ERR_CRYPTO_KEY_EXHAUSTED: 'Error',
  ERR_CRYPTO_MEMORY_BUDGET: 'Error',
  ERR_CRYPTO_MEMORY_BUDGET_BUSY: 'Error',
  ERR_CRYPTO_OPERATION_FAILED: 'Error',
  ERR_FEATURE_UNAVAILABLE_ON_PLATFORM: 'Error',
  ERR_CRYPTOGRAPHER_NATIVE_NOT_FOUND: 'Error',
  ABORT_ERR: 'AbortError',
})

/** What every byte input accepts, as messages say it (the native layer says the same: src/js/bytes.rs). */
const BYTES = 'of type string or an instance of Buffer, TypedArray, DataView or ArrayBuffer'

function coded(Base, code, message) {
  const err = new Base(message)
  Object.defineProperty(err, 'code', { value: code, enumerable: true, writable: true, configurable: true })
  return err
}

function describe(value) {
  if (value === null) return 'null'
  if (value === undefined) return 'undefined'
  switch (typeof value) {
    case 'function':
      return `function ${value.name || '<anonymous>'}`
    case 'object':
      return value.constructor && value.constructor.name
        ? `an instance of ${value.constructor.name}`
        : 'an instance of Object'
    case 'string': {
      const s = value.length > 28 ? `${value.slice(0, 25)}...` : value
      return `type string ('${s}')`
    }
    case 'symbol':
      return 'type symbol'
    default:
      return `type ${typeof value} (${String(value)})`
  }
}

/** `then`: what the caller should do instead, appended to the message when the value's type says it. */
const invalidArgType = (name, expected, value, then = '') =>
  coded(TypeError, 'ERR_INVALID_ARG_TYPE', `The "${name}" argument must be ${expected}. Received ${describe(value)}${then && `: ${then}`}`)

const invalidArgValue = (name, expected, value) =>
  coded(
    TypeError,
    'ERR_INVALID_ARG_VALUE',
    `The argument "${name}" is invalid: expected ${expected}. Received ${describe(value)}`,
  )

const outOfRange = (name, range, value) =>
  coded(
    RangeError,
    'ERR_OUT_OF_RANGE',
    `The value of "${name}" is out of range. It must be ${range}. Received ${typeof value === 'string' ? value : String(value)}`,
  )

module.exports = { BYTES, CODES, coded, describe, invalidArgType, invalidArgValue, outOfRange }
