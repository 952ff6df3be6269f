'use strict'
// crypto.password: one hash/verify pair for every stored password format a server inherits
// (Argon2 PHC, bcrypt, scrypt and PBKDF2 as passlib/libpass, Django and PHP write them), with
// `needsRehash` against an explicit policy and a no-such-user path that spends one policy hash.
//
// Only parsing and dispatch live here: every derivation is one call of ./kdf (native, on the
// libuv pool in the async forms) and every comparison is constant-time (bcrypt and Argon2
// compare natively; PBKDF2 and scrypt keys with the native timingSafeEqual). Stored strings are
// untrusted: they are bounded (length, field sizes, numbers) and their costs checked against
// ceilings before any work. See docs/password.md for the formats, the policy and its reasoning.
const native = require('../native')
const { kdf, ARGON2_DEFAULTS } = require('../kdf')
const { sha } = require('../hash')
const { checkOptions, checkInt } = require('../options')
const { BYTES, invalidArgType, invalidArgValue, outOfRange } = require('../errors')
const { signalOf } = require('../abort')
const { isBytes } = require('../bytes')
const { explicit } = require('../forms')
const { randomBytes } = require('../random')
const {
  ALGORITHMS,
  CEILINGS,
  CEILING_KEYS,
  DEFAULT_POLICY,
  DIGEST_BYTES,
  createPolicy,
  readAlgorithm,
  readDigest,
  readLimits,
  readN,
  readPolicy,
  scryptCheck,
  scryptMemory,
} = require('./policy')
const { SALT_BYTES, SCRYPT_KEY, STORED_OR_NONE, parseStored, weaker } = require('./stored')

const U32 = 2 ** 32 - 1

// ---- arguments ------------------------------------------------------------------------------

function checkPassword(value) {
  if (isBytes(value)) return value
  throw invalidArgType('password', BYTES, value)
}

function byteLength(pw) {
  return typeof pw === 'string' ? Buffer.byteLength(pw, 'utf8') : pw.byteLength
}

/** Django's bcrypt_sha256 input: the lower-case hex SHA-256 of the password (64 ASCII bytes). */
const prehash = (pw) => sha.sha256(pw)

const VERIFY_OPTIONS = new Set(['policy', ...CEILING_KEYS])
const VERIFY_ASYNC_OPTIONS = new Set([...VERIFY_OPTIONS, 'signal'])

const result = (rec, valid, policy) => ({
  valid,
  // Only a password that verified may be stored again: never true for a wrong one.
  needsRehash: valid && weaker(rec, policy),
  algorithm: rec.algorithm,
  format: rec.format,
  params: rec.params,
})

const NO_USER = Object.freeze({ valid: false, needsRehash: false, algorithm: null, format: null, params: null })
const noUser = () => ({ ...NO_USER })

// ---- verify ---------------------------------------------------------------------------------

// The options of the ./kdf call each record needs; `signal` only in the async forms (the sync
// forms refuse it as an unknown option).
const withSignal = (o, signal) => {
  if (signal !== undefined) o.signal = signal
  return o
}
const argon2Limits = (limits) => ({
  maxMemoryCost: limits.maxMemoryCost,
  maxTimeCost: limits.maxTimeCost,
  maxParallelism: limits.maxParallelism,
})
const scryptOptions = (rec, maxmem) => {
  const { N, r, p, keyLength } = rec.params
  return { salt: rec.salt, N, r, p, keyLength, maxmem, outputFormat: 'buffer' }
}
const pbkdf2Options = (rec) => {
  const { iterations, keyLength } = rec.params
  return { salt: rec.salt, iterations, keyLength, hash: rec.digest, outputFormat: 'buffer' }
}
const bcryptLimits = (limits) => ({ maxRounds: limits.maxRounds })
const bcryptInput = (rec, pw) => (rec.prehash ? prehash(pw) : pw)
// Derived keys are compared natively in constant time (equal lengths by construction).
const same = (key, rec) => native.timingSafeEqual(key, rec.expected)

async function derive(rec, pw, limits, signal) {
  switch (rec.kind) {
    case 'argon2':
      return kdf.argon2.verifyAsync(pw, rec.target, withSignal(argon2Limits(limits), signal))
    case 'bcrypt':
      return kdf.bcrypt.verifyAsync(bcryptInput(rec, pw), rec.target, withSignal(bcryptLimits(limits), signal))
    case 'scrypt':
      return same(await kdf.scryptAsync(pw, withSignal(scryptOptions(rec, limits.maxmem), signal)), rec)
    case 'pbkdf2':
      return same(await kdf.pbkdf2Async(pw, withSignal(pbkdf2Options(rec), signal)), rec)
  }
  throw new Error('unreachable')
}

function deriveSync(rec, pw, limits) {
  switch (rec.kind) {
    case 'argon2':
      return kdf.argon2.verifySync(pw, rec.target, argon2Limits(limits))
    case 'bcrypt':
      return kdf.bcrypt.verifySync(bcryptInput(rec, pw), rec.target, bcryptLimits(limits))
    case 'scrypt':
      return same(kdf.scryptSync(pw, scryptOptions(rec, limits.maxmem)), rec)
    case 'pbkdf2':
      return same(kdf.pbkdf2Sync(pw, pbkdf2Options(rec)), rec)
  }
  throw new Error('unreachable')
}

/**
 * Checks `password` against a stored hash of any supported format. Resolves
 * `{ valid, needsRehash, algorithm, format, params }`; `stored` null or undefined (no such user)
 * spends one policy hash and resolves `{ valid: false, needsRehash: false, algorithm: null,
 * format: null, params: null }`. Rejects: ERR_INVALID_ARG_TYPE (types), ERR_INVALID_ARG_VALUE
 * (unknown or malformed format), ERR_OUT_OF_RANGE (costs above the ceilings, before any work).
 */
async function verify(password, stored, options) {
  const o = checkOptions(options, VERIFY_ASYNC_OPTIONS, 'password.verify')
  const signal = signalOf(o)
  const pw = checkPassword(password)
  const policy = readPolicy(o.policy)
  const limits = readLimits(o, policy)
  if (stored === null || stored === undefined) {
    await derive(await dummyFor(policy), pw, dummyLimits(policy), signal)
    return noUser()
  }
  if (typeof stored !== 'string') throw invalidArgType('stored', STORED_OR_NONE, stored)
  const rec = parseStored(stored, limits)
  return result(rec, await derive(rec, pw, limits, signal), policy)
}

/** `verify`, synchronous: blocks the calling thread for the whole derivation (tens to hundreds of ms). */
function verifySync(password, stored, options) {
  const o = checkOptions(options, VERIFY_OPTIONS, 'password.verifySync')
  const pw = checkPassword(password)
  const policy = readPolicy(o.policy)
  const limits = readLimits(o, policy)
  if (stored === null || stored === undefined) {
    deriveSync(dummyForSync(policy), pw, dummyLimits(policy))
    return noUser()
  }
  if (typeof stored !== 'string') throw invalidArgType('stored', STORED_OR_NONE, stored)
  const rec = parseStored(stored, limits)
  return result(rec, deriveSync(rec, pw, limits), policy)
}

// ---- no such user ---------------------------------------------------------------------------

// One dummy hash per policy (by its values), made lazily with the policy's own `hash` and a
// random password, then parsed once: an unknown user costs one verification of it, i.e. one
// policy hash. Bounded: a caller that varies its policy forever does not grow this map.
const DUMMIES = new Map()
const MAX_DUMMIES = 16
const keyOf = (policy) => {
  const a = policy.algorithm
  return a === 'pbkdf2'
    ? `pbkdf2:${policy.pbkdf2.hash}:${policy.pbkdf2.iterations[policy.pbkdf2.hash]}`
    : `${a}:${JSON.stringify(policy[a])}`
}

function remember(key, value) {
  if (DUMMIES.size >= MAX_DUMMIES) DUMMIES.delete(DUMMIES.keys().next().value)
  DUMMIES.set(key, value)
  return value
}

const dummyLimits = (policy) => readLimits(EMPTY_OPTIONS, policy)
const EMPTY_OPTIONS = Object.freeze({})

// Concurrent first calls share the making of the dummy, so it takes no caller's `signal` (one
// caller aborting must not fail the others); each caller's verification does.
function dummyFor(policy) {
  const key = keyOf(policy)
  const known = DUMMIES.get(key)
  if (known) return known
  const made = hashWith(policy, EMPTY_OPTIONS, randomPassword(), undefined).then(
    (stored) => remember(key, parseStored(stored, dummyLimits(policy))),
    (err) => {
      DUMMIES.delete(key)
      throw err
    },
  )
  DUMMIES.set(key, made)
  return made
}

function dummyForSync(policy) {
  const key = keyOf(policy)
  const known = DUMMIES.get(key)
  if (known && typeof known.then !== 'function') return known
  return remember(key, parseStored(hashWithSync(policy, EMPTY_OPTIONS, randomPassword()), dummyLimits(policy)))
}

const randomPassword = () => randomBytes(24).toString('base64')

// ---- hash -----------------------------------------------------------------------------------

const HASH_OPTIONS = new Set(['algorithm', 'policy', 'memoryCost', 'timeCost', 'parallelism', 'rounds', 'N', 'r', 'p',
  'iterations', 'hash'])
const HASH_ASYNC_OPTIONS = new Set([...HASH_OPTIONS, 'signal'])
const OWN = {
  argon2id: ['memoryCost', 'timeCost', 'parallelism'],
  bcrypt: ['rounds'],
  scrypt: ['N', 'r', 'p'],
  pbkdf2: ['iterations', 'hash'],
}

/** The algorithm and its parameters for one `hash` call: the policy's, then the options'. */
function hashPlan(policy, o) {
  const algorithm = o.algorithm === undefined ? policy.algorithm : readAlgorithm(o.algorithm, 'options.algorithm')
  for (const key of HASH_OPTIONS) {
    if (key === 'algorithm' || key === 'policy' || o[key] === undefined) continue
    if (!OWN[algorithm].includes(key)) {
      throw invalidArgValue(`options.${key}`, `an option of ${algorithm} (${OWN[algorithm].join(', ')})`, o[key])
    }
  }
  switch (algorithm) {
    case 'argon2id': {
      const d = policy.argon2id
      const parallelism = checkInt(o.parallelism, 'options.parallelism', 1, 0xffffff) ?? d.parallelism
      return {
        algorithm,
        memoryCost: checkInt(o.memoryCost, 'options.memoryCost', 8 * parallelism, U32) ?? d.memoryCost,
        timeCost: checkInt(o.timeCost, 'options.timeCost', 1, U32) ?? d.timeCost,
        parallelism,
      }
    }
    case 'bcrypt':
      return { algorithm, rounds: checkInt(o.rounds, 'options.rounds', 4, 31) ?? policy.bcrypt.rounds }
    case 'scrypt': {
      const d = policy.scrypt
      const plan = {
        algorithm,
        N: readN(o.N, 'options.N', d.N),
        r: checkInt(o.r, 'options.r', 1, U32) ?? d.r,
        p: checkInt(o.p, 'options.p', 1, U32) ?? d.p,
      }
      scryptCheck(plan.N, plan.r, plan.p, 'options')
      return plan
    }
    case 'pbkdf2': {
      const digest = o.hash === undefined ? policy.pbkdf2.hash : readDigest(o.hash, 'options.hash')
      const iterations = checkInt(o.iterations, 'options.iterations', 1, U32) ?? policy.pbkdf2.iterations[digest]
      return { algorithm, digest, iterations }
    }
  }
  throw new Error('unreachable')
}

function checkBcryptLength(pw) {
  const n = byteLength(pw)
  if (n > 72) {
    const max = '<= 72 bytes for bcrypt, which ignores the rest (argon2id, the default, takes any length)'
    throw outOfRange('password', max, `${n} bytes`)
  }
}

const b64 = (buf) => buf.toString('base64').replace(/=+$/, '')
const ab64 = (buf) => b64(buf).replace(/\+/g, '.')
const scryptString = (plan, salt, key) =>
  `$scrypt$ln=${Math.log2(plan.N)},r=${plan.r},p=${plan.p}$${b64(salt)}$${b64(key)}`
const pbkdf2String = (plan, salt, key) =>
  `$${plan.digest === 'sha1' ? 'pbkdf2' : `pbkdf2-${plan.digest}`}$${plan.iterations}$${ab64(salt)}$${ab64(key)}`

// The ./kdf options for a plan: Argon2id with a 32-byte tag and 16 random salt bytes (kdf's
// default); scrypt and PBKDF2 with 16 random salt bytes and passlib's key lengths (scrypt 32,
// PBKDF2 the digest length), so libpass reads what we write.
const argon2Options = (plan) => ({
  variant: 'id',
  memoryCost: plan.memoryCost,
  timeCost: plan.timeCost,
  parallelism: plan.parallelism,
  keyLength: ARGON2_DEFAULTS.keyLength,
})
const scryptHashOptions = (plan, salt) => ({
  salt,
  N: plan.N,
  r: plan.r,
  p: plan.p,
  keyLength: SCRYPT_KEY,
  maxmem: scryptMemory(plan.N, plan.r, plan.p),
  outputFormat: 'buffer',
})
const pbkdf2HashOptions = (plan, salt) => ({
  salt,
  iterations: plan.iterations,
  keyLength: DIGEST_BYTES[plan.digest],
  hash: plan.digest,
  outputFormat: 'buffer',
})

async function hashWith(policy, o, pw, signal) {
  const plan = hashPlan(policy, o)
  switch (plan.algorithm) {
    case 'argon2id':
      return kdf.argon2Async(pw, withSignal(argon2Options(plan), signal))
    case 'bcrypt':
      checkBcryptLength(pw)
      return kdf.bcrypt.hashAsync(pw, withSignal({ rounds: plan.rounds }, signal))
    case 'scrypt': {
      const salt = randomBytes(SALT_BYTES)
      return scryptString(plan, salt, await kdf.scryptAsync(pw, withSignal(scryptHashOptions(plan, salt), signal)))
    }
    case 'pbkdf2': {
      const salt = randomBytes(SALT_BYTES)
      return pbkdf2String(plan, salt, await kdf.pbkdf2Async(pw, withSignal(pbkdf2HashOptions(plan, salt), signal)))
    }
  }
  throw new Error('unreachable')
}

function hashWithSync(policy, o, pw) {
  const plan = hashPlan(policy, o)
  switch (plan.algorithm) {
    case 'argon2id':
      return kdf.argon2Sync(pw, argon2Options(plan))
    case 'bcrypt':
      checkBcryptLength(pw)
      return kdf.bcrypt.hashSync(pw, { rounds: plan.rounds })
    case 'scrypt': {
      const salt = randomBytes(SALT_BYTES)
      return scryptString(plan, salt, kdf.scryptSync(pw, scryptHashOptions(plan, salt)))
    }
    case 'pbkdf2': {
      const salt = randomBytes(SALT_BYTES)
      return pbkdf2String(plan, salt, kdf.pbkdf2Sync(pw, pbkdf2HashOptions(plan, salt)))
    }
  }
  throw new Error('unreachable')
}

/**
 * Hashes a password for storage: the policy's algorithm and parameters (default Argon2id,
 * m = 64 MiB, t = 3, p = 4), or `algorithm` with that algorithm's options. Resolves the string
 * to store: Argon2 PHC, bcrypt `$2b$`, passlib/PHC `$scrypt$`, passlib `$pbkdf2-sha256$`.
 */
async function hash(password, options) {
  const o = checkOptions(options, HASH_ASYNC_OPTIONS, 'password.hash')
  const signal = signalOf(o)
  return hashWith(readPolicy(o.policy), o, checkPassword(password), signal)
}

/** `hash`, synchronous: blocks the calling thread for the whole hash (about 85 ms at the default policy). */
function hashSync(password, options) {
  const o = checkOptions(options, HASH_OPTIONS, 'password.hashSync')
  return hashWithSync(readPolicy(o.policy), o, checkPassword(password))
}

// ---- inspection -----------------------------------------------------------------------------

const PARSE_OPTIONS = new Set(['policy', ...CEILING_KEYS])

/** The algorithm, format and parameters of a stored hash (no derivation); same errors as `verify`. */
function parse(stored, options) {
  const o = checkOptions(options, PARSE_OPTIONS, 'password.parse')
  const rec = parseStored(stored, readLimits(o, readPolicy(o.policy)))
  return { algorithm: rec.algorithm, format: rec.format, params: rec.params }
}

/**
 * True when a stored hash is weaker than the policy (see `weaker`), without checking any
 * password. `verify` reports the same, but only for a password that verified.
 */
function needsRehash(stored, options) {
  const o = checkOptions(options, PARSE_OPTIONS, 'password.needsRehash')
  const policy = readPolicy(o.policy)
  return weaker(parseStored(stored, readLimits(o, policy)), policy)
}

module.exports = Object.freeze(
  explicit(
    {
      hash,
      hashSync,
      verify,
      verifySync,
      parse,
      needsRehash,
      createPolicy,
      policy: DEFAULT_POLICY,
      ceilings: CEILINGS,
      algorithms: ALGORITHMS,
    },
    { async: ['hash', 'verify'] },
  ),
)
