'use strict'
// crypto.kdf: password hashing (Argon2, bcrypt) and key derivation (PBKDF2, scrypt, HKDF).
// Every algorithm has a synchronous form (`…Sync`, blocks the calling thread) and an async form
// (`…Async`, a Promise; the work runs on the libuv thread pool, see src/task.rs and
// ./abort.js). The plain names are those of the original cryptographer.js: `argon2` and
// `argon2.verify` return Promises, `pbkdf2`, `scrypt`, `hkdf` and `bcrypt.*` return values.
const native = require('./native')
const { ALGORITHMS, readHash: readAnyHash, hasHmac } = require('./algorithms')
const { checkOptions, checkInt } = require('./options')
const { checkFormat, encode } = require('./output')
const { BYTES, invalidArgType, invalidArgValue } = require('./errors')
const { AbortError, runAsync, signalOf } = require('./abort')
const { kind } = require('./diagnostics')
const { explicit } = require('./forms')

const U32 = 2 ** 32 - 1
// The native bounds and Argon2 ids (src/contract.rs).
const CONTRACT = native.nativeContract()
const MAX_KEY = CONTRACT.maxOutputLength

// ---- shared option readers ---------------------------------------------------------------

/** The HMAC hash of PBKDF2 and HKDF: any hash of crypto.sha with a fixed output. */
const readHash = (value) => readAnyHash(value, { accept: hasHmac, what: 'a fixed-output hash' })

function requireBytes(value, name) {
  if (value === undefined || value === null) throw invalidArgType(name, BYTES, value)
  return value
}

function intOr(value, name, min, max, dflt) {
  const v = checkInt(value, name, min, max)
  return v === undefined ? dflt : v
}

/** The name of a hash by its native id (for diagnostics). */
const hashName = (id) => ALGORITHMS.find((a) => a.id === id)?.name

/**
 * The synchronous and async forms of a raw KDF (fixed-length output in `outputFormat`, hex by
 * default). `readArgs(input, options)` validates and returns the native call's arguments; the
 * async form adds `signal` to the accepted options and passes the cancel token last.
 * `params(args)` is what a traced call publishes of those arguments: costs and lengths, never
 * the input or the salt.
 */
function rawKdf(name, optionNames, readArgs, nativeSync, nativeAsync, params) {
  const traced = kind('kdf', 'derive', name)
  const allowed = new Set([...optionNames, 'outputFormat'])
  const allowedAsync = new Set([...allowed, 'signal'])
  const sync = (input, options) => {
    const o = checkOptions(options, allowed, name)
    return encode(nativeSync(...readArgs(input, o)), checkFormat(o.outputFormat))
  }
  const async = (input, options) =>
    runAsync(signalOf(options), async (token, ctx) => {
      const o = checkOptions(options, allowedAsync, name)
      const format = checkFormat(o.outputFormat)
      const args = readArgs(input, o)
      if (ctx !== undefined) ctx.params = params(args)
      return encode(await nativeAsync(...args, token()), format)
    }, traced)
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
  ([, , iterations, keyLength, hash]) => ({ iterations, keyLength, hash: hashName(hash) }),
)

// ---- scrypt ---------------------------------------------------------------------------------

const SCRYPT_MAXMEM = CONTRACT.scryptMaxmem

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
  ([, , { n, r, p, keyLength, maxmem }]) => ({ N: n, r, p, keyLength, maxmem }),
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
  ([, , , keyLength, hash]) => ({ keyLength, hash: hashName(hash) }),
)

// ---- Argon2 ---------------------------------------------------------------------------------

// 'argon2id' and 'id' name the same variant; its id is its place in the native list.
const VARIANT_NAMES = CONTRACT.argon2Variants
const VARIANTS = Object.fromEntries(VARIANT_NAMES.flatMap((name, id) => [[name, id], [name.replace('argon2', ''), id]]))
const [DEFAULT_VERSION] = CONTRACT.argon2Versions
const ARGON2_OPTIONS = new Set(['salt', 'timeCost', 'memoryCost', 'parallelism', 'keyLength', 'variant',
  'version', 'secret', 'associatedData', 'outputFormat'])
const ARGON2_ASYNC_OPTIONS = new Set([...ARGON2_OPTIONS, 'signal'])

/**
 * The library's one Argon2 parameter set: `kdf.argon2`, the password policy (`password.hash`)
 * and the passphrase key of the streaming and sealed formats all use it. Argon2id, 64 MiB,
 * 3 passes, 4 lanes: RFC 9106's second recommended option, 3.4 times OWASP's memory, and what
 * `kdf.argon2` has always used, so a call with a given salt keeps deriving the same bytes. A busy
 * server may choose 1 lane (the policy's `parallelism`): lanes add no work for an attacker, and
 * p = 4 costs more CPU for the same memory and passes (docs/password.md has the measurements).
 * 16-byte salt, 32-byte tag. Parameters are stored in every PHC string and header, so hashes and
 * files made with other parameters verify and open whatever this says.
 */
const ARGON2_DEFAULTS = Object.freeze({
  variant: 'argon2id',
  memoryCost: 65536,
  timeCost: 3,
  parallelism: 4,
  saltLength: 16,
  keyLength: 32,
})

function readVariant(v, name = 'options.variant') {
  if (v === undefined) return VARIANTS.id
  const id = typeof v === 'string' ? VARIANTS[v.toLowerCase()] : undefined
  if (id === undefined) throw invalidArgValue(name, "'id', 'i' or 'd' (or 'argon2id', 'argon2i', 'argon2d')", v)
  return id
}

function readVersion(v, name = 'options.version') {
  if (v === undefined) return DEFAULT_VERSION
  if (!CONTRACT.argon2Versions.includes(v)) throw invalidArgValue(name, '19 (0x13) or 16 (0x10)', v)
  return v
}

/** The numeric Argon2 options, defaulted (ARGON2_DEFAULTS) and range-checked. */
function argon2Params(o) {
  const d = ARGON2_DEFAULTS
  const parallelism = intOr(o.parallelism, 'options.parallelism', 1, 0xffffff, d.parallelism)
  return {
    variant: readVariant(o.variant),
    version: readVersion(o.version),
    timeCost: intOr(o.timeCost, 'options.timeCost', 1, U32, d.timeCost),
    memoryCost: intOr(o.memoryCost, 'options.memoryCost', 8 * parallelism, U32, d.memoryCost),
    parallelism,
    keyLength: intOr(o.keyLength, 'options.keyLength', 4, MAX_KEY, d.keyLength),
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

/** What a traced Argon2 call publishes of its parameters (PHC string's or options'). */
const argon2Costs = (p) => ({
  variant: typeof p.variant === 'number' ? VARIANT_NAMES[p.variant] : p.variant,
  version: p.version,
  memoryCost: p.memoryCost,
  timeCost: p.timeCost,
  parallelism: p.parallelism,
  keyLength: p.keyLength,
})

const TRACE = {
  argon2: kind('password', 'hash', 'argon2'),
  argon2Verify: kind('password', 'verify', 'argon2'),
  bcrypt: kind('password', 'hash', 'bcrypt'),
  bcryptVerify: kind('password', 'verify', 'bcrypt'),
}

/**
 * Argon2 (RFC 9106) on the libuv pool: ARGON2_DEFAULTS, a random 16-byte salt; returns the PHC
 * string (or the raw tag in `outputFormat`).
 */
function argon2(password, options) {
  return runAsync(signalOf(options), async (token, ctx) => {
    const [pw, salt, secret, ad, params, format] = argon2Args(password, options, ARGON2_ASYNC_OPTIONS)
    if (ctx !== undefined) ctx.params = argon2Costs(params)
    return argon2Out(await native.argon2HashAsync(pw, salt, secret, ad, params, token()), format)
  }, TRACE.argon2)
}

/** Argon2, synchronous: blocks the calling thread for the whole hash (about 0.1 s at the defaults). */
function argon2Sync(password, options) {
  const [pw, salt, secret, ad, params, format] = argon2Args(password, options, ARGON2_OPTIONS)
  return argon2Out(native.argon2Hash(pw, salt, secret, ad, params), format)
}

/**
 * The stored hash argument of a verify call: a string. Since verify takes the password first
 * (as every verify of the library), a PHC string given first is named in the error.
 */
function storedHash(hash, password, prefix, call) {
  if (typeof hash === 'string') {
    if (!hash.startsWith(prefix) && typeof password === 'string' && password.startsWith(prefix)) {
      throw invalidArgValue('hash', `the stored hash as the second argument: the order is ${call}(password, hash)`, hash)
    }
    return hash
  }
  throw invalidArgType('hash', 'of type string', hash)
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
const phc = (hash, password) => storedHash(hash, password, '$argon2', 'argon2.verify')

/**
 * Checks a password against a PHC string; Promise<boolean>. Malformed strings reject with a
 * TypeError; parameters above the ceilings (`maxMemoryCost`, `maxTimeCost`, `maxParallelism`)
 * with a RangeError (ERR_OUT_OF_RANGE), before any work. `signal` stops a long hash between passes.
 */
argon2.verify = function verify(password, hash, options) {
  return runAsync(signalOf(options), (token, ctx) => {
    const o = checkOptions(options, VERIFY_ASYNC_OPTIONS, 'argon2.verify')
    const pw = requireBytes(password, 'password')
    const stored = phc(hash, password)
    const limits = argon2Limits(o)
    if (ctx !== undefined) ctx.params = storedCosts(() => argon2Costs(native.argon2Parse(stored, limits)))
    return native.argon2VerifyAsync(stored, pw, o.secret ?? undefined, limits, token())
  }, TRACE.argon2Verify)
}

/** The costs of a stored hash for diagnostics; undefined when it does not parse (verify says why). */
function storedCosts(read) {
  try {
    return read()
  } catch {
    return undefined
  }
}

/** Synchronous `argon2.verify` (same errors and ceilings). */
argon2.verifySync = function verifySync(password, hash, options) {
  const o = checkOptions(options, VERIFY_OPTIONS, 'argon2.verifySync')
  const pw = requireBytes(password, 'password')
  return native.argon2Verify(phc(hash, password), pw, o.secret ?? undefined, argon2Limits(o))
}

const REHASH_OPTIONS = new Set(['timeCost', 'memoryCost', 'parallelism', 'keyLength', 'variant', 'version',
  ...LIMIT_OPTIONS])
const PARSE_OPTIONS = new Set(LIMIT_OPTIONS)

/**
 * Whether a stored Argon2 hash (`info`, as `argon2.parse` gives it) is weaker than `want`
 * (`{ variant, version, memoryCost, timeCost, keyLength, saltLength }`): another variant, an
 * older version, less memory or less memory × passes (so one may trade for the other, as in
 * OWASP's tables), a shorter tag or salt. Lanes are not compared: they add no work for an
 * attacker. The one rule of `kdf.argon2.needsRehash` and `password.needsRehash`.
 */
function argon2Weaker(info, want) {
  return (
    info.variant !== want.variant ||
    info.version < want.version ||
    info.memoryCost < want.memoryCost ||
    info.memoryCost * info.timeCost < want.memoryCost * want.timeCost ||
    info.keyLength < want.keyLength ||
    info.saltLength < want.saltLength
  )
}

/**
 * True when `hash` is weaker than the given (or default) parameters by `argon2Weaker`: rehash
 * the password at the next successful login.
 */
argon2.needsRehash = function needsRehash(hash, options) {
  const o = checkOptions(options, REHASH_OPTIONS, 'argon2.needsRehash')
  const p = argon2Params(o)
  const info = native.argon2Parse(storedHash(hash), argon2Limits(o))
  return argon2Weaker(info, { ...p, variant: VARIANT_NAMES[p.variant], saltLength: ARGON2_DEFAULTS.saltLength })
}

/**
 * The parameters of a PHC string (variant, version, memoryCost, timeCost, parallelism,
 * saltLength, keyLength); the same ceilings as `verify`.
 */
argon2.parse = (hash, options) =>
  native.argon2Parse(storedHash(hash), argon2Limits(checkOptions(options, PARSE_OPTIONS, 'argon2.parse')))
argon2.defaults = ARGON2_DEFAULTS
explicit(argon2, { async: ['verify'] })

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
/** The shape of a bcrypt string: `$2a$`, `$2b$` or `$2y$`, the cost (group 1), 53 characters of salt and hash. */
const BCRYPT_STRING = /^\$2[aby]\$([0-9]{2})\$[./A-Za-z0-9]{53}$/

const bcrypt = {
  /** bcrypt hash (`$2b$`), synchronous. Default 10 rounds; > 72-byte passwords throw unless `truncate`. */
  hash(password, options) {
    const [pw, rounds, salt, truncate] = bcryptArgs(password, options, BCRYPT_OPTIONS)
    return native.bcryptHash(pw, rounds, salt, truncate)
  },
  /** `hash` on the libuv pool. */
  hashAsync(password, options) {
    return runAsync(signalOf(options), (token, ctx) => {
      const [pw, rounds, salt, truncate] = bcryptArgs(password, options, BCRYPT_ASYNC_OPTIONS)
      if (ctx !== undefined) ctx.params = { cost: rounds }
      return native.bcryptHashAsync(pw, rounds, salt, truncate, token())
    }, TRACE.bcrypt)
  },
  /**
   * True when `password` matches a `$2a$`/`$2b$`/`$2y$` hash; malformed hashes throw a TypeError,
   * a cost above `maxRounds` (default 16) a RangeError, before any work.
   */
  verify(password, hash, options) {
    const o = checkOptions(options, BCRYPT_VERIFY_OPTIONS, 'bcrypt.verify')
    return native.bcryptVerify(requireBytes(password, 'password'), storedHash(hash, password, '$2', 'bcrypt.verify'), maxRounds(o))
  },
  /** `verify` on the libuv pool. */
  verifyAsync(password, hash, options) {
    return runAsync(signalOf(options), (token, ctx) => {
      const o = checkOptions(options, BCRYPT_VERIFY_ASYNC_OPTIONS, 'bcrypt.verifyAsync')
      const stored = storedHash(hash, password, '$2', 'bcrypt.verifyAsync')
      if (ctx !== undefined) ctx.params = storedCosts(() => ({ cost: bcrypt.rounds(stored) }))
      return native.bcryptVerifyAsync(requireBytes(password, 'password'), stored, maxRounds(o), token())
    }, TRACE.bcryptVerify)
  },
  /** The cost of a bcrypt hash (TypeError when malformed). */
  rounds(hash) {
    const m = BCRYPT_STRING.exec(storedHash(hash))
    if (m === null) throw invalidArgValue('hash', 'a bcrypt hash ($2a$, $2b$ or $2y$)', hash)
    return Number(m[1])
  },
}
explicit(bcrypt, { sync: ['hash', 'verify'] })

const kdf = Object.freeze(
  explicit(
    {
      argon2: Object.freeze(argon2),
      argon2Sync,
      /** `argon2`, by its explicit name. */
      argon2Async: (password, options) => argon2(password, options),
      bcrypt: Object.freeze(bcrypt),
      pbkdf2,
      pbkdf2Async,
      scrypt,
      scryptAsync,
      hkdf,
      hkdfAsync,
      AbortError,
    },
    { sync: ['pbkdf2', 'scrypt', 'hkdf'] },
  ),
)

module.exports = { kdf, argon2Weaker, ARGON2_DEFAULTS, BCRYPT_STRING }
