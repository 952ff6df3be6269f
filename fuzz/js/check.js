'use strict'
// What every JavaScript target asserts of a refusal: a library error with a stable code.
const assert = require('assert')

/** `err` is an Error whose `code` starts with ERR_ and whose message is not empty. */
function coded(err, codes) {
  if (!(err instanceof Error) || typeof err.code !== 'string' || !err.code.startsWith('ERR_') || !err.message) {
    throw err
  }
  if (codes) assert.ok(codes.includes(err.code), `${err.code}: ${err.message}`)
}

/** `f()`, or undefined when it throws a coded error (`codes`: the ones allowed). */
function attempt(f, codes) {
  try {
    return f()
  } catch (err) {
    coded(err, codes)
    return undefined
  }
}

module.exports = { coded, attempt }
