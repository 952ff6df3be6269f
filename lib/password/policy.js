'use strict'
// crypto.password's policy (what `hash` writes, the bar `needsRehash` measures stored hashes
// against) and the ceilings on the costs a stored hash may ask for. docs/password.md has the
// figures and their reasons.
const native = require('../native')
const { ARGON2_DEFAULTS } = require('../kdf')
const { readHash } = require('../algorithms')
const { checkOptions, checkInt } = require('../options')
const { invalidArgType, invalidArgValue, outOfRange } = require('../errors')

const U32 = 2 ** 32 - 1

// ---- policy ---------------------------------------------------------------------------------

const ALGORITHMS = Object.freeze(['argon2id', 'bcrypt', 'scrypt', 'pbkdf2'])
const PBKDF2_DIGESTS = Object.freeze(['sha256', 'sha512', 'sha1'])
const DIGEST_BYTES = { sha1: 20, sha256: 32, sha512: 64 }

/**
 * The library's policy: what `hash` produces and the bar `verify` measures stored hashes
 * against (`needsRehash`). Argon2id: the library's one Argon2 parameter set (kdf.js
 * ARGON2_DEFAULTS: m = 64 MiB, t = 3, p = 4, RFC 9106's second recommended option, above
 * OWASP's floor of 19 MiB, t = 2: see docs/password.md). The other sections follow OWASP's Password Storage Cheat
 * Sheet (bcrypt cost 10, scrypt N = 2^17 r = 8 p = 1, PBKDF2 600,000 / 210,000 / 1,300,000
 * iterations for HMAC-SHA-256 / SHA-512 / SHA-1).
 */
const DEFAULT_POLICY = deepFreeze({
  algorithm: 'argon2id',
  argon2id: {
    memoryCost: ARGON2_DEFAULTS.memoryCost,
    timeCost: ARGON2_DEFAULTS.timeCost,
    parallelism: ARGON2_DEFAULTS.parallelism,
  },
  bcrypt: { rounds: 10 },
  scrypt: { N: 131072, r: 8, p: 1 },
  pbkdf2: { hash: 'sha256', iterations: { sha256: 600000, sha512: 210000, sha1: 1300000 } },
})

function deepFreeze(o) {
  for (const v of Object.values(o)) if (v && typeof v === 'object') deepFreeze(v)
  return Object.freeze(o)
}

const POLICY_KEYS = new Set(['algorithm', 'argon2id', 'bcrypt', 'scrypt', 'pbkdf2'])
const SECTION_KEYS = {
  argon2id: new Set(['memoryCost', 'timeCost', 'parallelism']),
  bcrypt: new Set(['rounds']),
  scrypt: new Set(['N', 'r', 'p']),
  pbkdf2: new Set(['hash', 'iterations']),
}
const ITERATION_KEYS = new Set(PBKDF2_DIGESTS)

function readAlgorithm(value, name) {
  if (typeof value !== 'string') throw invalidArgType(name, 'of type string', value)
  if (!ALGORITHMS.includes(value)) {
    throw invalidArgValue(name, `one of ${ALGORITHMS.map((a) => `'${a}'`).join(', ')}`, value)
  }
  return value
}

/** A PBKDF2 digest of the password formats ('sha256', 'sha512', 'sha1', in any spelling crypto.sha takes). */
function readDigest(value, name) {
  if (typeof value !== 'string') throw invalidArgType(name, 'of type string', value)
  return readHash(value, { name, accept: (h) => PBKDF2_DIGESTS.includes(h.name), what: 'a digest of the PBKDF2 password formats' }).name
}

const isPowerOf2 = (n) => Number.isInteger(n) && n >= 2 && n <= 2 ** 53 && 2 ** Math.round(Math.log2(n)) === n

function readN(value, name, dflt) {
  const n = checkInt(value, name, 2, 2 ** 52)
  if (n === undefined) return dflt
  if (!isPowerOf2(n)) throw outOfRange(name, 'a power of 2 >= 2', n)
  return n
}

/** Validated scrypt parameters (RFC 7914 §2: r·p < 2^30, N < 2^(16·r); the native rule, `scryptLimit`). */
function scryptCheck(N, r, p, name) {
  const broken = native.scryptLimit(N, r, p)
  if (broken === 'r * p') throw outOfRange(`${name}.p`, `< 2^30 / r (${Math.floor((2 ** 30 - 1) / r)} for r = ${r})`, p)
  if (broken === 'N') throw outOfRange(`${name}.N`, `< 2^(16·r) (2^${16 * r} for r = ${r})`, N)
}

// The policies createPolicy made (deeply frozen) are taken as they are; any other object given
// as options.policy is read as overrides of the default, on each call.
const POLICIES = new WeakSet([DEFAULT_POLICY])

const OBJECT = (v) => v !== null && typeof v === 'object' && !Array.isArray(v)

/**
 * A policy: the default with `overrides` applied section by section (absent fields keep the
 * default's). Frozen. Values below OWASP's are accepted (tests, migrations): the policy is the
 * caller's decision.
 */
function createPolicy(overrides) {
  if (overrides === undefined || overrides === null) return DEFAULT_POLICY
  if (!OBJECT(overrides)) throw invalidArgType('policy', 'of type object', overrides)
  checkOptions(overrides, POLICY_KEYS, 'password.createPolicy')
  const d = DEFAULT_POLICY
  const section = (key) => {
    const v = overrides[key]
    if (v === undefined) return {}
    if (!OBJECT(v)) throw invalidArgType(`policy.${key}`, 'of type object', v)
    checkOptions(v, SECTION_KEYS[key], `policy.${key}`)
    return v
  }
  const a = section('argon2id')
  const parallelism = checkInt(a.parallelism, 'policy.argon2id.parallelism', 1, 0xffffff) ?? d.argon2id.parallelism
  const argon2id = {
    memoryCost: checkInt(a.memoryCost, 'policy.argon2id.memoryCost', 8 * parallelism, U32) ?? d.argon2id.memoryCost,
    timeCost: checkInt(a.timeCost, 'policy.argon2id.timeCost', 1, U32) ?? d.argon2id.timeCost,
    parallelism,
  }
  if (argon2id.memoryCost < 8 * parallelism) {
    const min = `an integer >= 8 * parallelism (${8 * parallelism})`
    throw outOfRange('policy.argon2id.memoryCost', min, argon2id.memoryCost)
  }
  const b = section('bcrypt')
  const bcrypt = { rounds: checkInt(b.rounds, 'policy.bcrypt.rounds', 4, 31) ?? d.bcrypt.rounds }
  const s = section('scrypt')
  const scrypt = {
    N: readN(s.N, 'policy.scrypt.N', d.scrypt.N),
    r: checkInt(s.r, 'policy.scrypt.r', 1, U32) ?? d.scrypt.r,
    p: checkInt(s.p, 'policy.scrypt.p', 1, U32) ?? d.scrypt.p,
  }
  scryptCheck(scrypt.N, scrypt.r, scrypt.p, 'policy.scrypt')
  const k = section('pbkdf2')
  const iterations = { ...d.pbkdf2.iterations }
  if (k.iterations !== undefined) {
    if (!OBJECT(k.iterations)) throw invalidArgType('policy.pbkdf2.iterations', 'of type object', k.iterations)
    checkOptions(k.iterations, ITERATION_KEYS, 'policy.pbkdf2.iterations')
    for (const h of PBKDF2_DIGESTS) {
      iterations[h] = checkInt(k.iterations[h], `policy.pbkdf2.iterations.${h}`, 1, U32) ?? iterations[h]
    }
  }
  const pbkdf2 = { hash: k.hash === undefined ? d.pbkdf2.hash : readDigest(k.hash, 'policy.pbkdf2.hash'), iterations }
  const algorithm =
    overrides.algorithm === undefined ? d.algorithm : readAlgorithm(overrides.algorithm, 'policy.algorithm')
  const policy = deepFreeze({ algorithm, argon2id, bcrypt, scrypt, pbkdf2 })
  POLICIES.add(policy)
  return policy
}

function readPolicy(value) {
  if (value === undefined || value === null) return DEFAULT_POLICY
  if (POLICIES.has(value)) return value
  return createPolicy(value)
}

// ---- ceilings -------------------------------------------------------------------------------

/** scrypt's working memory, 128·r·(N + 2 + p) bytes: the native rule kdf.scrypt checks `maxmem` by. */
const { scryptMemory } = native
/** scrypt's work: N·r·p BlockMix rounds of 128·r bytes each way (its time is linear in it). */
const scryptWork = (N, r, p) => N * r * p

// Defaults for the parameters of a stored hash: Argon2 and bcrypt those of kdf.argon2.verify and
// kdf.bcrypt.verify (read from the native side), scrypt 256 MiB (OWASP's N = 2^17 r = 8 needs
// 128 MiB + 3 KiB) with p under the same 64 as Argon2's lanes and N·r·p at 4 times the default
// policy's (p multiplies the time without adding memory), PBKDF2 10 million iterations. Each is
// raised to what the policy in use produces, so `verify` accepts its own hashes.
const NATIVE_CEILINGS = native.nativeContract()
const CEILINGS = Object.freeze({
  maxMemoryCost: NATIVE_CEILINGS.argon2MaxMemoryCost,
  maxTimeCost: NATIVE_CEILINGS.argon2MaxTimeCost,
  maxParallelism: NATIVE_CEILINGS.argon2MaxParallelism,
  maxRounds: NATIVE_CEILINGS.bcryptMaxRounds,
  maxmem: 256 * 1024 * 1024,
  maxScryptWork: 4 * scryptWork(DEFAULT_POLICY.scrypt.N, DEFAULT_POLICY.scrypt.r, DEFAULT_POLICY.scrypt.p),
  maxIterations: 10000000,
})
const CEILING_KEYS = Object.keys(CEILINGS)

const LIMITS = new WeakMap()

/** The ceilings for `o` under `policy`: options given win; absent ones are the defaults raised to the policy. */
function readLimits(o, policy) {
  let base = LIMITS.get(policy)
  if (!base) {
    const { argon2id: a, bcrypt: b, scrypt: s, pbkdf2: k } = policy
    base = Object.freeze({
      maxMemoryCost: Math.max(CEILINGS.maxMemoryCost, a.memoryCost),
      maxTimeCost: Math.max(CEILINGS.maxTimeCost, a.timeCost),
      maxParallelism: Math.max(CEILINGS.maxParallelism, a.parallelism, s.p),
      maxRounds: Math.max(CEILINGS.maxRounds, b.rounds),
      maxmem: Math.max(CEILINGS.maxmem, scryptMemory(s.N, s.r, s.p)),
      maxScryptWork: Math.max(CEILINGS.maxScryptWork, scryptWork(s.N, s.r, s.p)),
      maxIterations: Math.max(CEILINGS.maxIterations, ...Object.values(k.iterations)),
    })
    LIMITS.set(policy, base)
  }
  if (
    o.maxMemoryCost === undefined && o.maxTimeCost === undefined && o.maxParallelism === undefined &&
    o.maxRounds === undefined && o.maxmem === undefined && o.maxScryptWork === undefined &&
    o.maxIterations === undefined
  ) return base
  const maxmem = o.maxmem ?? base.maxmem
  if (typeof maxmem !== 'number') throw invalidArgType('options.maxmem', 'of type number', maxmem)
  if (!(maxmem >= 0)) throw outOfRange('options.maxmem', '>= 0', maxmem)
  return {
    maxMemoryCost: checkInt(o.maxMemoryCost, 'options.maxMemoryCost', 8, U32) ?? base.maxMemoryCost,
    maxTimeCost: checkInt(o.maxTimeCost, 'options.maxTimeCost', 1, U32) ?? base.maxTimeCost,
    maxParallelism: checkInt(o.maxParallelism, 'options.maxParallelism', 1, 0xffffff) ?? base.maxParallelism,
    maxRounds: checkInt(o.maxRounds, 'options.maxRounds', 4, 31) ?? base.maxRounds,
    maxmem,
    maxScryptWork: checkInt(o.maxScryptWork, 'options.maxScryptWork', 1, Number.MAX_SAFE_INTEGER) ?? base.maxScryptWork,
    maxIterations: checkInt(o.maxIterations, 'options.maxIterations', 1, U32) ?? base.maxIterations,
  }
}

const ceiling = (name, max, option, value) =>
  outOfRange(name, `<= ${max} for a stored hash (raise options.${option} to accept it)`, value)

module.exports = {
  ALGORITHMS,
  CEILINGS,
  CEILING_KEYS,
  DEFAULT_POLICY,
  DIGEST_BYTES,
  ceiling,
  createPolicy,
  isPowerOf2,
  readAlgorithm,
  readDigest,
  readLimits,
  readN,
  readPolicy,
  scryptCheck,
  scryptMemory,
  scryptWork,
}
