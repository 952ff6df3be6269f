'use strict'
// crypto.kdf: password hashing (Argon2, bcrypt) and key derivation (PBKDF2, scrypt, HKDF).
// Every algorithm has a synchronous form (blocks the calling thread) and an async form (a
// Promise; the work runs on the libuv thread pool, see src/task.rs and ./abort.js).
const native = require('./native')
const { ALGORITHMS } = require('./hash')
const { checkOptions, checkInt } = require('./options')
const { checkFormat, encode } = require('./output')
const { BYTES, invalidArgType, invalidArgValue } = require('./errors')
const { AbortError, runAsync } = require('./abort')

const U32 = 2 ** 32 - 1
const MAX_KEY = 2 ** 30

// ---- shared option readers ---------------------------------------------------------------

/** Hash names PBKDF2/HKDF accept: every hash of crypto.sha with HMAC (fixed output). */
const HASHES = new Map()
for (const info of ALGORITHMS) {
  if (info.blockLength > 0) HASHES.set(info.name, info)
}
const HASH_ALIASES = { 'sha-1': 'sha1', 'sha-224': 'sha224', 'sha-256': 'sha256', 'sha-384': 'sha384',
  'sha-512': 'sha512', 'sha512-224': 'sha512_224', 'sha512/224': 'sha512_224', 'sha512-256': 'sha512_256',
  'sha512/256': 'sha512_256', 'sha3-224': 'sha3_224', 'sha3-256': 'sha3_256', 'sha3-384': 'sha3_384',
  'sha3-512': 'sha3_512', rmd160: 'ripemd160', 'ripemd-160': 'ripemd160' }

function readHash(value, name = 'options.hash') {
  if (value === undefined) return HASHES.get('sha256')
  if (typeof value !== 'string') throw invalidArgType(name, 'of type string', value)
  const lower = value.toLowerCase()
  const info = HASHES.get(HASH_ALIASES[lower] || lower)
  if (!info) throw invalidArgValue(name, `a fixed-output hash (${[...HASHES.keys()].join(', ')})`, value)
  return info
}

function requireBytes(value, name) {
  if (value === undefined || value === null) throw invalidArgType(name, BYTES, value)
  return value
}

function intOr(value, name, min, max, dflt) {
  const v = checkInt(value, name, min, max)
  return v === undefined ? dflt : v
}

/**
 * The synchronous and async forms of a raw KDF (fixed-length output in `outputFormat`, hex by
 * default). `readArgs(input, options)` validates and returns the native call's arguments; the
 * async form adds `signal` to the accepted options and passes the cancel token last.
 */
function rawKdf(name, optionNames, readArgs, nativeSync, nativeAsync) {
  const allowed = new Set([...optionNames, 'outputFormat'])
  const allowedAsync = new Set([...allowed, 'signal'])
  const sync = (input, options) => {
    const o = checkOptions(options, allowed, name)
    return encode(nativeSync(...readArgs(input, o)), checkFormat(o.outputFormat))
  }
  const async = (input, options) =>
    runAsync(options && options.signal, async (token) => {
      const o = checkOptions(options, allowedAsync, name)
      const format = checkFormat(o.outputFormat)
      return encode(await nativeAsync(...readArgs(input, o), token), format)
    })
  Object.defineProperty(sync, 'name', { value: name })
  Object.defineProperty(async, 'name', { value: `${name}Async` })
  return [sync, async]
}

// ---- PBKDF2 ---------------------------------------------------------------------------------

/**
 * PBKDF2-HMAC (RFC 8018). Defaults: 100,000 iterations, 32 bytes, SHA-256, hex. The async form
 * runs on the libuv pool and `signal` stops it within milliseconds.
 */
const [pbkdf2, pbkdf2Async] = rawKdf(
  'pbkdf2',
  ['salt', 'iterations', 'keyLength', 'hash'],
  (password, o) => [
    password,
    requireBytes(o.salt, 'options.salt'),
    intOr(o.iterations, 'options.iterations', 1, U32, 100000),
    intOr(o.keyLength, 'options.keyLength', 1, MAX_KEY, 32),
    readHash(o.hash).id,
  ],
  native.pbkdf2,
  native.pbkdf2Async,
)

// ---- scrypt ---------------------------------------------------------------------------------

const SCRYPT_MAXMEM = 32 * 1024 * 1024

/**
 * scrypt (RFC 7914). Defaults: N = 16384, r = 8, p = 1, 64 bytes, maxmem 32 MiB (as Node), hex.
 * The async form runs on the libuv pool and `signal` stops it within milliseconds.
 */
const [scrypt, scryptAsync] = rawKdf(
  'scrypt',
  ['salt', 'N', 'r', 'p', 'keyLength', 'maxmem'],
  (password, o) => {
    const salt = requireBytes(o.salt, 'options.salt')
    const maxmem = o.maxmem === undefined ? SCRYPT_MAXMEM : o.maxmem
    if (typeof maxmem !== 'number') throw invalidArgType('options.maxmem', 'of type number', maxmem)
    return [
      password,
      salt,
      {
        n: intOr(o.N, 'options.N', 2, 2 ** 32, 16384),
        r: intOr(o.r, 'options.r', 1, U32, 8),
        p: intOr(o.p, 'options.p', 1, U32, 1),
        keyLength: intOr(o.keyLength, 'options.keyLength', 1, MAX_KEY, 64),
        maxmem,
      },
    ]
  },
  native.scrypt,
  native.scryptAsync,
)

// ---- HKDF -----------------------------------------------------------------------------------

/**
 * HKDF (RFC 5869). Defaults: SHA-256, keyLength = the hash length, no salt/info, hex. It is
 * fast: use the async form only to keep large expansions off the loop.
 */
const [hkdf, hkdfAsync] = rawKdf(
  'hkdf',
  ['salt', 'info', 'keyLength', 'hash'],
  (ikm, o) => {
    const info = readHash(o.hash)
    return [
      requireBytes(ikm, 'ikm'),
      o.salt,
      o.info,
      intOr(o.keyLength, 'options.keyLength', 1, 255 * info.outputLength, info.outputLength),
      info.id,
    ]
  },
  native.hkdf,
  native.hkdfAsync,
)

// ---- Argon2 ---------------------------------------------------------------------------------

const VARIANTS = { d: 0, i: 1, id: 2, argon2d: 0, argon2i: 1, argon2id: 2 }
const VARIANT_NAMES = ['argon2d', 'argon2i', 'argon2id']
const ARGON2_OPTIONS = new Set(['salt', 'timeCost', 'memoryCost', 'parallelism', 'keyLength', 'variant',
  'version', 'secret', 'associatedData', 'outputFormat'])
const ARGON2_ASYNC_OPTIONS = new Set([...ARGON2_OPTIONS, 'signal'])
const ARGON2_DEFAULTS = Object.freeze({ timeCost: 3, memoryCost: 65536, parallelism: 4, keyLength: 32, variant: 'id' })

function readVariant(v, name = 'options.variant') {
  if (v === undefined) return VARIANTS.id
  const id = typeof v === 'string' ? VARIANTS[v.toLowerCase()] : undefined
  if (id === undefined) throw invalidArgValue(name, "'id', 'i' or 'd' (or 'argon2id', 'argon2i', 'argon2d')", v)
  return id
}

function readVersion(v, name = 'options.version') {
  if (v === undefined) return 0x13
  if (v !== 0x13 && v !== 0x10) throw invalidArgValue(name, '19 (0x13) or 16 (0x10)', v)
  return v
}

/** The numeric Argon2 options, defaulted and range-checked. */
function argon2Params(o) {
  const parallelism = intOr(o.parallelism, 'options.parallelism', 1, 0xffffff, ARGON2_DEFAULTS.parallelism)
  return {
    variant: readVariant(o.variant),
    version: readVersion(o.version),
    timeCost: intOr(o.timeCost, 'options.timeCost', 1, U32, ARGON2_DEFAULTS.timeCost),
    memoryCost: intOr(o.memoryCost, 'options.memoryCost', 8 * parallelism, U32, ARGON2_DEFAULTS.memoryCost),
    parallelism,
    keyLength: intOr(o.keyLength, 'options.keyLength', 4, MAX_KEY, ARGON2_DEFAULTS.keyLength),
  }
}

function argon2Args(password, options, allowed) {
  const o = checkOptions(options, allowed, 'argon2')
  const params = argon2Params(o)
  let format = o.outputFormat
  if (format !== undefined && format !== 'phc') format = checkFormat(format, 'options.outputFormat')
  params.phc = format === undefined || format === 'phc'
  const nullish = (v) => (v === null ? undefined : v)
  return [requireBytes(password, 'password'), nullish(o.salt), nullish(o.secret), nullish(o.associatedData), params, format]
}

const argon2Out = (result, format) => (format === undefined || format === 'phc' ? result : encode(result, format))

/**
 * Argon2 (RFC 9106) on the libuv pool. Defaults: Argon2id, timeCost 3, memoryCost 65536 KiB,
 * parallelism 4, 32-byte tag, random 16-byte salt; returns the PHC string.
 */
function argon2(password, options) {
  return runAsync(options && options.signal, async (token) => {
    const [pw, salt, secret, ad, params, format] = argon2Args(password, options, ARGON2_ASYNC_OPTIONS)
    return argon2Out(await native.argon2HashAsync(pw, salt, secret, ad, params, token), format)
  })
}

/** Argon2, synchronous: blocks the calling thread for the whole hash (about 0.1 s at the defaults). */
function argon2Sync(password, options) {
  const [pw, salt, secret, ad, params, format] = argon2Args(password, options, ARGON2_OPTIONS)
  return argon2Out(native.argon2Hash(pw, salt, secret, ad, params), format)
}

function phcString(hash) {
  if (typeof hash !== 'string') throw invalidArgType('hash', 'of type string', hash)
  return hash
}

// Ceilings on the parameters of a stored (untrusted) hash string, checked natively before any
// work (defaults in src/kdf/argon2.rs: 2 GiB, t <= 10, p <= 64; bcrypt cost <= 16).
const LIMIT_OPTIONS = ['maxMemoryCost', 'maxTimeCost', 'maxParallelism']

/** The `{ maxMemoryCost, maxTimeCost, maxParallelism }` of `o` (absent ones: the defaults). */
function argon2Limits(o) {
  return {
    maxMemoryCost: checkInt(o.maxMemoryCost, 'options.maxMemoryCost', 8, U32),
    maxTimeCost: checkInt(o.maxTimeCost, 'options.maxTimeCost', 1, U32),
    maxParallelism: checkInt(o.maxParallelism, 'options.maxParallelism', 1, 0xffffff),
  }
}

const VERIFY_OPTIONS = new Set(['secret', ...LIMIT_OPTIONS])
const VERIFY_ASYNC_OPTIONS = new Set([...VERIFY_OPTIONS, 'signal'])

/**
 * Checks a password against a PHC string; Promise<boolean>. Malformed strings reject with a
 * TypeError; parameters above the ceilings (`maxMemoryCost`, `maxTimeCost`, `maxParallelism`)
 * with a RangeError (ERR_OUT_OF_RANGE), before any work. `signal` stops a long hash between passes.
 */
argon2.verify = function verify(hash, password, options) {
  return runAsync(options && options.signal, (token) => {
    const o = checkOptions(options, VERIFY_ASYNC_OPTIONS, 'argon2.verify')
    const pw = requireBytes(password, 'password')
    return native.argon2VerifyAsync(phcString(hash), pw, o.secret ?? undefined, argon2Limits(o), token)
  })
}

/** Synchronous `argon2.verify` (same errors and ceilings). */
argon2.verifySync = function verifySync(hash, password, options) {
  const o = checkOptions(options, VERIFY_OPTIONS, 'argon2.verifySync')
  const pw = requireBytes(password, 'password')
  return native.argon2Verify(phcString(hash), pw, o.secret ?? undefined, argon2Limits(o))
}

const REHASH_OPTIONS = new Set(['timeCost', 'memoryCost', 'parallelism', 'keyLength', 'variant', 'version',
  ...LIMIT_OPTIONS])
const PARSE_OPTIONS = new Set(LIMIT_OPTIONS)

/**
 * True when `hash` was not made with the given (or default) variant, version, memoryCost,
 * timeCost, parallelism and keyLength, or has a salt shorter than the 16 bytes `argon2` draws:
 * rehash the password at the next successful login.
 */
argon2.needsRehash = function needsRehash(hash, options) {
  const o = checkOptions(options, REHASH_OPTIONS, 'argon2.needsRehash')
  const p = argon2Params(o)
  const got = native.argon2Parse(phcString(hash), argon2Limits(o))
  return (
    got.variant !== VARIANT_NAMES[p.variant] ||
    got.version !== p.version ||
    got.memoryCost !== p.memoryCost ||
    got.timeCost !== p.timeCost ||
    got.parallelism !== p.parallelism ||
    got.keyLength !== p.keyLength ||
    got.saltLength < 16
  )
}

/**
 * The parameters of a PHC string (variant, version, memoryCost, timeCost, parallelism,
 * saltLength, keyLength); the same ceilings as `verify`.
 */
argon2.parse = (hash, options) =>
  native.argon2Parse(phcString(hash), argon2Limits(checkOptions(options, PARSE_OPTIONS, 'argon2.parse')))
argon2.defaults = ARGON2_DEFAULTS

// ---- bcrypt ---------------------------------------------------------------------------------

const BCRYPT_OPTIONS = new Set(['rounds', 'truncate', 'salt'])
const BCRYPT_ASYNC_OPTIONS = new Set([...BCRYPT_OPTIONS, 'signal'])

function bcryptArgs(password, options, allowed) {
  // `hash(password, 12)` (the bcrypt/bcryptjs shape) is accepted as `{ rounds: 12 }`.
  const o = typeof options === 'number' ? { rounds: options } : checkOptions(options, allowed, 'bcrypt.hash')
  const truncate = o.truncate === undefined ? false : o.truncate
  if (typeof truncate !== 'boolean') throw invalidArgType('options.truncate', 'of type boolean', truncate)
  return [requireBytes(password, 'password'), intOr(o.rounds, 'options.rounds', 4, 31, 10), o.salt ?? undefined, truncate]
}

const BCRYPT_VERIFY_OPTIONS = new Set(['maxRounds'])
const BCRYPT_VERIFY_ASYNC_OPTIONS = new Set(['maxRounds', 'signal'])
const maxRounds = (o) => checkInt(o.maxRounds, 'options.maxRounds', 4, 31)

function bcryptString(hash) {
  if (typeof hash !== 'string') throw invalidArgType('hash', 'of type string', hash)
  return hash
}

const bcrypt = {
  /** bcrypt hash (`$2b$`), synchronous. Default 10 rounds; > 72-byte passwords throw unless `truncate`. */
  hash(password, options) {
    const [pw, rounds, salt, truncate] = bcryptArgs(password, options, BCRYPT_OPTIONS)
    return native.bcryptHash(pw, rounds, salt, truncate)
  },
  /** `hash` on the libuv pool. */
  hashAsync(password, options) {
    return runAsync(options && typeof options === 'object' ? options.signal : undefined, (token) => {
      const [pw, rounds, salt, truncate] = bcryptArgs(password, options, BCRYPT_ASYNC_OPTIONS)
      return native.bcryptHashAsync(pw, rounds, salt, truncate, token)
    })
  },
  /**
   * True when `password` matches a `$2a$`/`$2b$`/`$2y$` hash; malformed hashes throw a TypeError,
   * a cost above `maxRounds` (default 16) a RangeError, before any work.
   */
  verify(password, hash, options) {
    const o = checkOptions(options, BCRYPT_VERIFY_OPTIONS, 'bcrypt.verify')
    return native.bcryptVerify(requireBytes(password, 'password'), bcryptString(hash), maxRounds(o))
  },
  /** `verify` on the libuv pool. */
  verifyAsync(password, hash, options) {
    return runAsync(options && options.signal, (token) => {
      const o = checkOptions(options, BCRYPT_VERIFY_ASYNC_OPTIONS, 'bcrypt.verifyAsync')
      return native.bcryptVerifyAsync(requireBytes(password, 'password'), bcryptString(hash), maxRounds(o), token)
    })
  },
  /** The cost of a bcrypt hash (TypeError when malformed). */
  rounds(hash) {
    const s = bcryptString(hash)
    if (!/^\$2[aby]\$\d\d\$[./A-Za-z0-9]{53}$/.test(s)) {
      throw invalidArgValue('hash', 'a bcrypt hash ($2a$, $2b$ or $2y$)', s)
    }
    return Number(s.slice(4, 6))
  },
}

module.exports = Object.freeze({
  argon2: Object.freeze(argon2),
  argon2Sync,
  bcrypt: Object.freeze(bcrypt),
  pbkdf2,
  pbkdf2Async,
  scrypt,
  scryptAsync,
  hkdf,
  hkdfAsync,
  AbortError,
})
