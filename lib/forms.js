'use strict'
// The shapes of the public calls, in one place (the README's "Conventions"):
// - every operation that does real work has an explicit `…Sync` name that blocks and an
//   explicit `…Async` name that returns a Promise (the work on the libuv pool, `signal`); the
//   plain name is one of the two, as the original cryptographer.js had it (`explicit`);
// - a call that takes data and a key takes the data first, then the key, then what else the
//   operation needs, then options: `sign(message, privateKey, options)`,
//   `verify(message, publicKey, signature, options)`, `encrypt(data, publicKey, options)`; or
//   all but the data in one options object, `sign(message, { privateKey, ...options })`, which
//   is told apart from a key by being a plain object that carries the key (`keyed`).
const { invalidArgValue } = require('./errors')

/**
 * Adds `nameSync` (the same function) for each plain name in `sync`, which blocks, and
 * `nameAsync` for each in `async`, which returns a Promise. Returns `ns`.
 */
function explicit(ns, { sync = [], async = [] }) {
  for (const n of sync) ns[`${n}Sync`] = ns[n]
  for (const n of async) ns[`${n}Async`] = ns[n]
  return ns
}

/**
 * True for an options object carrying `name`: a plain object (its prototype Object.prototype or
 * null) with that own property. Key inputs never are one: the objects among them are JWKs
 * (which have `kty` and no `privateKey`/`publicKey`), KeyObjects and CryptoKeys.
 */
function carries(v, name) {
  if (v === null || typeof v !== 'object') return false
  const proto = Object.getPrototypeOf(v)
  return (proto === Object.prototype || proto === null) && Object.hasOwn(v, name)
}

/**
 * The arguments after the data of a call written `f(data, ...positional, options?)`, with
 * `positional` named by `names` (`['publicKey', 'signature']`), or `f(data, { ...names, ...options })`:
 * `[...values, options]`. `what` names the call in the error for both forms at once.
 */
function keyed(args, names, what) {
  const first = args[0]
  if (!carries(first, names[0])) return [...names.map((_, i) => args[i]), args[names.length]]
  if (args.length > 1 && args[1] !== undefined) {
    throw invalidArgValue(`${what} arguments`, `either ${what}(data, ${names.join(', ')}, options) or ${what}(data, { ${names.join(', ')}, ...options })`, 'both forms')
  }
  const options = { ...first }
  const values = names.map((n) => {
    const v = options[n]
    delete options[n]
    return v
  })
  return [...values, options]
}

module.exports = { carries, explicit, keyed }
