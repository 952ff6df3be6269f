'use strict'
// The process's memory budget for the working memory of Argon2 and scrypt (src/budget.rs): its
// default, the CRYPTOGRAPHER_MEMORY_BUDGET environment variable, and setMemoryBudget /
// memoryBudget. The budget is one per process: worker threads share it.
const os = require('node:os')
const native = require('./native')
const { coded, invalidArgType, outOfRange } = require('./errors')

const MiB = 2 ** 20
const GiB = 2 ** 30
const ENV = 'CRYPTOGRAPHER_MEMORY_BUDGET'

/** The memory this process may use: its control group's limit when it has one, else the machine's. */
function available() {
  const total = os.totalmem()
  const limit = typeof process.constrainedMemory === 'function' ? Number(process.constrainedMemory()) : 0
  return limit > 0 && limit < total ? limit : total
}

/**
 * The default: half the memory available to the process, at most 1 GiB (the library's own
 * defaults on all four libuv threads at once: Argon2id 64 MiB, scrypt N = 2^17 128 MiB; age's
 * work factor 18, 256 MiB, three at once) and at least 64 MiB (the default Argon2id).
 */
const defaultBudget = () => Math.min(GiB, Math.max(64 * MiB, Math.floor(available() / 2)))

const UNITS = { '': 1, k: 2 ** 10, m: MiB, g: GiB }

/** CRYPTOGRAPHER_MEMORY_BUDGET: bytes, or a number with K, M or G (binary: 512M, 512MiB). */
function fromEnvironment(text) {
  const m = /^\s*(\d+)\s*(?:([kmg])(?:i?b)?)?\s*$/i.exec(text)
  const bytes = m ? Number(m[1]) * UNITS[(m[2] || '').toLowerCase()] : NaN
  if (!Number.isSafeInteger(bytes)) {
    throw coded(
      TypeError,
      'ERR_INVALID_ARG_VALUE',
      `The environment variable ${ENV} is invalid: expected a number of bytes, optionally followed by K, M ` +
        `or G (binary units: 512M is 512 MiB). Received '${String(text).slice(0, 40)}'`,
    )
  }
  return bytes
}

/**
 * Sets the process's memory budget for Argon2 and scrypt, in bytes (every worker thread shares
 * it). Calls whose working memory does not fit wait (async) or are refused (sync,
 * ERR_CRYPTO_MEMORY_BUDGET_BUSY); a call needing more than the whole budget is refused
 * (ERR_CRYPTO_MEMORY_BUDGET). Waiting calls the new limit can never hold are refused now.
 */
function setMemoryBudget(bytes) {
  if (typeof bytes !== 'number') throw invalidArgType('bytes', 'of type number', bytes)
  if (!Number.isSafeInteger(bytes) || bytes < 0) {
    throw outOfRange('bytes', `an integer >= 0 && <= ${Number.MAX_SAFE_INTEGER}`, bytes)
  }
  native.setMemoryBudget(bytes, false)
}

/**
 * The budget's figures, in bytes: `limit`, `inUse` (leased now: working memory, and Argon2
 * memory pooled for reuse), `peak` (the most in use at once since the limit was last set) and
 * `waiting` (async calls waiting for memory).
 */
function memoryBudget() {
  const { limit, inUse, peak, waiting } = native.memoryBudget()
  return { limit, inUse, peak, waiting }
}

// The first copy of the library loaded in the process sets the limit; a later one (a worker
// thread) keeps it, as it keeps what setMemoryBudget set.
const env = process.env[ENV]
native.setMemoryBudget(env === undefined || env === '' ? defaultBudget() : fromEnvironment(env), true)

module.exports = { setMemoryBudget, memoryBudget, defaultBudget, fromEnvironment }
