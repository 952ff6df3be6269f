'use strict'
// Options objects: one reader for every family, so unknown keys and wrong types are reported
// the same way everywhere.
const { invalidArgType, invalidArgValue, outOfRange } = require('./errors')

/**
 * Checks that `options` is undefined, null or a plain object whose keys are all in `allowed`
 * (a Set). Returns the object (or an empty one).
 */
function checkOptions(options, allowed, what) {
  if (options === undefined || options === null) return EMPTY
  if (typeof options !== 'object' || Array.isArray(options)) {
    throw invalidArgType('options', 'of type object', options)
  }
  for (const key in options) {
    if (!allowed.has(key)) {
      throw invalidArgValue(
        `options.${key}`,
        `one of the options of ${what} (${[...allowed].join(', ')})`,
        options[key],
      )
    }
  }
  return options
}

const EMPTY = Object.freeze({})

/** An optional integer option in [min, max]. */
function checkInt(value, name, min, max) {
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'number') throw invalidArgType(name, 'of type number', value)
  if (!Number.isInteger(value) || value < min || value > max) {
    throw outOfRange(name, `an integer >= ${min} && <= ${max}`, value)
  }
  return value
}

module.exports = { checkOptions, checkInt }
