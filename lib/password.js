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
const native = require('./native')
const kdf = require('./kdf')
const { sha } = require('./hash')
const { checkOptions, checkInt } = require('./options')
const { coded, invalidArgType, invalidArgValue, outOfRange } = require('./errors')
const { checkSignal } = require('./abort')
const { randomBytes } = require('./random')

const U32 = 2 ** 32 - 1
const BYTES = 'of type string or an instance of Buffer, TypedArray, DataView or ArrayBuffer'

// ---- policy ---------------------------------------------------------------------------------

const ALGORITHMS = Object.freeze(['argon2id', 'bcrypt', 'scrypt', 'pbkdf2'])
const PBKDF2_DIGESTS = Object.freeze(['sha256', 'sha512', 'sha1'])
const DIGEST_BYTES = { sha1: 20, sha256: 32, sha512: 64 }

/**
 * The library's policy: what `hash` produces and the bar `verify` measures stored hashes
 * against (`needsRehash`). Argon2id m = 64 MiB, t = 3, p = 1 is above OWASP's floor (19 MiB,
 * t = 2) by measurement: see docs/password.md. The other sections follow OWASP's Password
 * Storage Cheat Sheet (bcrypt cost 10, scrypt N = 2^17 r = 8 p = 1, PBKDF2 600,000 / 210,000 /
 * 1,300,000 iterations for HMAC-SHA-256 / SHA-512 / SHA-1).
 */
const DEFAULT_POLICY = deepFreeze({
  algorithm: 'argon2id',
  argon2id: { memoryCost: 65536, timeCost: 3, parallelism: 1 },
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

function readDigest(value, name) {
  if (typeof value !== 'string') throw invalidArgType(name, 'of type string', value)
  const d = value.toLowerCase().replace('-', '')
  if (!PBKDF2_DIGESTS.includes(d)) throw invalidArgValue(name, "'sha256', 'sha512' or 'sha1'", value)
  return d
}

const isPowerOf2 = (n) => Number.isInteger(n) && n >= 2 && n <= 2 ** 53 && 2 ** Math.round(Math.log2(n)) === n

function readN(value, name, dflt) {
  const n = checkInt(value, name, 2, 2 ** 52)
  if (n === undefined) return dflt
  if (!isPowerOf2(n)) throw outOfRange(name, 'a power of 2 >= 2', n)
  return n
}

/** Validated scrypt parameters (RFC 7914 §2: r·p < 2^30, N < 2^(16·r)). */
function scryptCheck(N, r, p, name) {
  if (r * p >= 2 ** 30) throw outOfRange(`${name}.p`, `< 2^30 / r (${Math.floor((2 ** 30 - 1) / r)} for r = ${r})`, p)
  if (r < 4 && Math.log2(N) >= 16 * r) throw outOfRange(`${name}.N`, `< 2^(16·r) (2^${16 * r} for r = ${r})`, N)
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

/** Node's scrypt memory rule (as kdf.scrypt): 128·r·(N + 2 + p) bytes. */
const scryptMemory = (N, r, p) => 128 * r * (N + 2 + p)
/** scrypt's work: N·r·p BlockMix rounds of 128·r bytes each way (its time is linear in it). */
const scryptWork = (N, r, p) => N * r * p

// Defaults for the parameters of a stored hash: Argon2 and bcrypt as kdf.argon2.verify and
// kdf.bcrypt.verify (the hardening issue's), scrypt 256 MiB (OWASP's N = 2^17 r = 8 needs
// 128 MiB + 3 KiB) with p under the same 64 as Argon2's lanes and N·r·p at 4 times the default
// policy's (p multiplies the time without adding memory), PBKDF2 10 million iterations. Each is
// raised to what the policy in use produces, so `verify` accepts its own hashes.
const CEILINGS = Object.freeze({
  maxMemoryCost: 2 << 20,
  maxTimeCost: 10,
  maxParallelism: 64,
  maxRounds: 16,
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

// ---- parsing stored strings -----------------------------------------------------------------

/** What `verify` reads, for error messages. */
const FORMATS =
  'a stored password hash: Argon2 PHC ($argon2id$, $argon2i$, $argon2d$), bcrypt ($2a$, $2b$, $2y$), ' +
  'scrypt ($scrypt$ln=..,r=..,p=.. as passlib/PHC; Django scrypt$), PBKDF2 (passlib $pbkdf2-sha256$, ' +
  '$pbkdf2-sha512$, $pbkdf2$; Django pbkdf2_sha256$, pbkdf2_sha1$), Django argon2$, bcrypt_sha256$ and bcrypt$'

// Longest stored string read (as the native Argon2 parser); the other formats are far shorter.
const MAX_STORED = 4096
const MAX_SALT = 1024 // bytes (passlib's largest)
const MAX_DJANGO_SALT = 256 // characters

/**
 * What a Received part shows of a stored string: its identifier when it has one (`$2b$`,
 * `pbkdf2_sha256$`), never a salt, a checksum or anything else (a legacy column may hold a
 * plaintext password).
 */
function received(stored) {
  const id = /^\$?[A-Za-z0-9_-]{1,20}\$/.exec(stored)
  return `a string of ${stored.length} characters${id ? ` starting with '${id[0]}'` : ''}`
}

function malformed(expected, why) {
  const message = `The argument "stored" is invalid: expected ${expected}. Received ${why}`
  return coded(TypeError, 'ERR_INVALID_ARG_VALUE', message)
}

function number(s, what, spec) {
  if (!/^[1-9][0-9]{0,9}$/.test(s) || Number(s) > U32) throw malformed(spec, `${what} = '${s.slice(0, 12)}'`)
  return Number(s)
}

// Base64 as stored hashes write it: the standard alphabet without padding (PHC) or with it
// (Django), passlib's adapted alphabet ('.' for '+'; '+' is read too), or bcrypt's
// (`./A-Za-z0-9`). Checked before Buffer.from, which skips characters it does not know.
// `canonical`: the text must be the one encoding of its bytes (no unused bits set in the last
// character), as the format's reference implementation requires; passlib's own formats are read
// as libpass reads them, ignoring those bits (docs/password.md, "Base64").
const STD_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
const BCRYPT_ALPHABET = './ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
const FROM_BCRYPT = new Map([...BCRYPT_ALPHABET].map((c, i) => [c, STD_ALPHABET[i]]))
const B64_CHARS = /^[A-Za-z0-9+/]*$/
const B64_PADDED = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/

function base64(text, { alphabet = 'standard', padded = false, canonical }, what, spec) {
  const std =
    alphabet === 'adapted' ? text.replace(/\./g, '+')
      : alphabet === 'bcrypt' ? text.replace(/[./A-Za-z0-9]/g, (c) => FROM_BCRYPT.get(c))
        : text
  if (padded ? !B64_PADDED.test(std) : !B64_CHARS.test(std) || std.length % 4 === 1) {
    throw malformed(spec, `a ${what} that is not ${padded ? 'padded ' : ''}base64`)
  }
  const bytes = Buffer.from(std, 'base64')
  if (canonical) {
    const again = bytes.toString('base64')
    if ((padded ? again : again.replace(/=+$/, '')) !== std) {
      const why = 'the unused low bits of its last character are set, a spelling no encoder writes and the reference refuses; clear them to use it'
      throw malformed(spec, `a ${what} that is not canonical base64 (${why})`)
    }
  }
  return bytes
}

// The flavour of each format. Django compares its own re-encoding with the stored string, so
// another spelling never verified there; libpass decodes passlib's and ignores the unused bits.
// bcrypt: OpenBSD's decoder and those after it (crypt_blowfish, pyca/bcrypt) re-encode the salt
// and compare strings, so another spelling never verified there either (kdf.bcrypt refuses it
// natively; read here too so that parse and needsRehash agree with verify).
const DJANGO = Object.freeze({ padded: true, canonical: true })
const PASSLIB = Object.freeze({ canonical: false })
const PASSLIB_ADAPTED = Object.freeze({ alphabet: 'adapted', canonical: false })
const BCRYPT = Object.freeze({ alphabet: 'bcrypt', canonical: true })

const SPEC = {
  argon2: 'an Argon2 PHC string $argon2{id,i,d}$v=19$m=<KiB>,t=<passes>,p=<lanes>$<salt>$<hash>',
  bcrypt: 'a bcrypt hash $2a$, $2b$ or $2y$ (cost 04..31, 53 characters of ./A-Za-z0-9)',
  scrypt: 'a scrypt string $scrypt$ln=<log2 N>,r=<r>,p=<p>$<salt>$<hash> (base64 without padding)',
  djangoScrypt: "a Django scrypt string scrypt$<N>$<salt>$<r>$<p>$<base64 of 64 bytes>",
  pbkdf2:
    'a passlib PBKDF2 string $pbkdf2-sha256$<rounds>$<salt>$<hash> (or $pbkdf2-sha512$, $pbkdf2$; adapted base64)',
  djangoPbkdf2: 'a Django PBKDF2 string pbkdf2_sha256$<iterations>$<salt>$<base64 hash> (or pbkdf2_sha1$)',
}

const STORED_TYPE = 'of type string'
const STORED_OR_NONE = 'of type string, or null or undefined for an unknown user'

const BCRYPT_RE = /^\$2[aby]\$([0-9]{2})\$[./A-Za-z0-9]{53}$/

function parseArgon2(phc, format, limits) {
  let info
  try {
    info = kdf.argon2.parse(phc, {
      maxMemoryCost: limits.maxMemoryCost,
      maxTimeCost: limits.maxTimeCost,
      maxParallelism: limits.maxParallelism,
    })
  } catch (err) {
    if (err && err.code === 'ERR_INVALID_ARG_VALUE') {
      throw malformed(SPEC.argon2, err.message.replace(/^[^]*?\. Received /, ''))
    }
    throw err
  }
  return {
    kind: 'argon2',
    algorithm: info.variant,
    family: info.variant,
    format,
    target: phc,
    params: {
      version: info.version,
      memoryCost: info.memoryCost,
      timeCost: info.timeCost,
      parallelism: info.parallelism,
      saltLength: info.saltLength,
      keyLength: info.keyLength,
    },
  }
}

function parseBcrypt(hash, algorithm, format, limits) {
  const m = BCRYPT_RE.exec(hash)
  if (!m) throw malformed(SPEC.bcrypt, received(hash))
  const rounds = Number(m[1])
  if (rounds < 4 || rounds > 31) throw malformed(SPEC.bcrypt, `cost ${m[1]}`)
  base64(hash.slice(7, 29), BCRYPT, 'salt', SPEC.bcrypt)
  base64(hash.slice(29), BCRYPT, 'checksum', SPEC.bcrypt)
  if (rounds > limits.maxRounds) throw ceiling('rounds', limits.maxRounds, 'maxRounds', rounds)
  const prehashed = algorithm === 'bcrypt-sha256'
  return { kind: 'bcrypt', algorithm, family: 'bcrypt', format, target: hash, prehash: prehashed, params: { rounds } }
}

function checkScrypt(N, r, p, keyLength, limits, spec) {
  if (r * p >= 2 ** 30 || (r < 4 && Math.log2(N) >= 16 * r)) {
    throw malformed(spec, `N = ${N}, r = ${r}, p = ${p} (not valid scrypt parameters)`)
  }
  if (p > limits.maxParallelism) throw ceiling('p', limits.maxParallelism, 'maxParallelism', p)
  const mem = scryptMemory(N, r, p)
  if (mem > limits.maxmem) {
    const need = `>= 128 * r * (N + 2 + p) = ${mem} bytes for this stored hash (raise options.maxmem to accept it)`
    throw outOfRange('maxmem', need, limits.maxmem)
  }
  const work = scryptWork(N, r, p)
  if (work > limits.maxScryptWork) throw ceiling('N * r * p', limits.maxScryptWork, 'maxScryptWork', work)
  return { N, r, p, keyLength }
}

/** passlib / PHC: $scrypt$ln=<log2 N>,r=<r>,p=<p>$<salt>$<hash>, the three parameters in any order. */
function parseScryptPhc(stored, limits) {
  const spec = SPEC.scrypt
  const parts = stored.split('$')
  if (parts.length !== 5) throw malformed(spec, received(stored))
  const got = {}
  for (const kv of parts[2].split(',')) {
    const eq = kv.indexOf('=')
    const k = kv.slice(0, eq)
    if (eq < 0 || (k !== 'ln' && k !== 'r' && k !== 'p') || got[k] !== undefined) {
      throw malformed(spec, `the parameter '${kv.slice(0, 16)}'`)
    }
    got[k] = number(kv.slice(eq + 1), k, spec)
  }
  if (got.ln === undefined || got.r === undefined || got.p === undefined) {
    throw malformed(spec, 'parameters without all of ln, r and p')
  }
  if (got.ln > 52) throw malformed(spec, `ln = ${got.ln}`)
  const salt = base64(parts[3], PASSLIB, 'salt', spec)
  const expected = base64(parts[4], PASSLIB, 'hash', spec)
  if (salt.length > MAX_SALT) throw malformed(spec, `a salt of ${salt.length} bytes (at most ${MAX_SALT})`)
  if (expected.length < 16 || expected.length > 128) {
    throw malformed(spec, `a hash of ${expected.length} bytes (16 to 128)`)
  }
  const params = checkScrypt(2 ** got.ln, got.r, got.p, expected.length, limits, spec)
  params.saltLength = salt.length
  return { kind: 'scrypt', algorithm: 'scrypt', family: 'scrypt', format: 'phc', salt, expected, params }
}

function checkDjangoSalt(salt, spec) {
  if (salt.length < 1 || salt.length > MAX_DJANGO_SALT) {
    throw malformed(spec, `a salt of ${salt.length} characters (1 to ${MAX_DJANGO_SALT})`)
  }
}

/** Django: scrypt$<N>$<salt>$<r>$<p>$<base64 of 64 bytes>; the salt is used as its UTF-8 bytes. */
function parseScryptDjango(stored, limits) {
  const spec = SPEC.djangoScrypt
  const parts = stored.split('$')
  if (parts.length !== 6) throw malformed(spec, received(stored))
  const N = number(parts[1], 'N', spec)
  if (!isPowerOf2(N)) throw malformed(spec, `N = ${N} (not a power of 2)`)
  const saltText = parts[2]
  checkDjangoSalt(saltText, spec)
  const r = number(parts[3], 'r', spec)
  const p = number(parts[4], 'p', spec)
  const expected = base64(parts[5], DJANGO, 'hash', spec)
  if (expected.length !== 64) throw malformed(spec, `a hash of ${expected.length} bytes (Django's is 64)`)
  const params = checkScrypt(N, r, p, 64, limits, spec)
  const salt = Buffer.from(saltText, 'utf8')
  params.saltLength = salt.length
  return { kind: 'scrypt', algorithm: 'scrypt', family: 'scrypt', format: 'django', salt, expected, params }
}

function pbkdf2Record(digest, iterations, salt, expected, format, limits, spec) {
  if (expected.length !== DIGEST_BYTES[digest]) {
    const gives = `PBKDF2-HMAC-${digest.toUpperCase()} gives ${DIGEST_BYTES[digest]}`
    throw malformed(spec, `a hash of ${expected.length} bytes (${gives})`)
  }
  if (iterations > limits.maxIterations) throw ceiling('iterations', limits.maxIterations, 'maxIterations', iterations)
  return {
    kind: 'pbkdf2',
    algorithm: `pbkdf2-${digest}`,
    family: 'pbkdf2',
    format,
    salt,
    expected,
    digest,
    params: { hash: digest, iterations, saltLength: salt.length, keyLength: expected.length },
  }
}

/** passlib: $pbkdf2-sha256$<rounds>$<salt>$<hash>, $pbkdf2-sha512$, $pbkdf2$ (SHA-1); adapted base64. */
function parsePbkdf2Passlib(stored, digest, limits) {
  const spec = SPEC.pbkdf2
  const parts = stored.split('$')
  if (parts.length !== 5) throw malformed(spec, received(stored))
  const iterations = number(parts[2], 'rounds', spec)
  const salt = base64(parts[3], PASSLIB_ADAPTED, 'salt', spec)
  if (salt.length > MAX_SALT) throw malformed(spec, `a salt of ${salt.length} bytes (at most ${MAX_SALT})`)
  const expected = base64(parts[4], PASSLIB_ADAPTED, 'hash', spec)
  return pbkdf2Record(digest, iterations, salt, expected, 'passlib', limits, spec)
}

/** Django: pbkdf2_sha256$<iterations>$<salt>$<base64 hash>; the salt is used as its UTF-8 bytes. */
function parsePbkdf2Django(stored, digest, limits) {
  const spec = SPEC.djangoPbkdf2
  const parts = stored.split('$')
  if (parts.length !== 4) throw malformed(spec, received(stored))
  const iterations = number(parts[1], 'iterations', spec)
  const saltText = parts[2]
  checkDjangoSalt(saltText, spec)
  const expected = base64(parts[3], DJANGO, 'hash', spec)
  return pbkdf2Record(digest, iterations, Buffer.from(saltText, 'utf8'), expected, 'django', limits, spec)
}

/**
 * Recognises `stored` by its prefix and reads it into a record: algorithm, format, params
 * (public), and what the derivation needs. Malformed: ERR_INVALID_ARG_VALUE; costs above the
 * ceilings: ERR_OUT_OF_RANGE. No derivation happens here.
 */
function parseStored(stored, limits) {
  if (typeof stored !== 'string') throw invalidArgType('stored', STORED_TYPE, stored)
  if (stored.length > MAX_STORED) {
    throw malformed(FORMATS, `a string of ${stored.length} characters (at most ${MAX_STORED})`)
  }
  if (stored.charCodeAt(0) === 0x24 /* $ */) {
    if (stored.startsWith('$argon2')) return parseArgon2(stored, 'phc', limits)
    if (stored.startsWith('$2')) return parseBcrypt(stored, 'bcrypt', 'bcrypt', limits)
    if (stored.startsWith('$scrypt$')) return parseScryptPhc(stored, limits)
    if (stored.startsWith('$pbkdf2-sha256$')) return parsePbkdf2Passlib(stored, 'sha256', limits)
    if (stored.startsWith('$pbkdf2-sha512$')) return parsePbkdf2Passlib(stored, 'sha512', limits)
    if (stored.startsWith('$pbkdf2$')) return parsePbkdf2Passlib(stored, 'sha1', limits)
  } else {
    if (stored.startsWith('pbkdf2_sha256$')) return parsePbkdf2Django(stored, 'sha256', limits)
    if (stored.startsWith('pbkdf2_sha1$')) return parsePbkdf2Django(stored, 'sha1', limits)
    if (stored.startsWith('argon2$argon2')) return parseArgon2(stored.slice(6), 'django', limits)
    if (stored.startsWith('bcrypt_sha256$$2')) return parseBcrypt(stored.slice(14), 'bcrypt-sha256', 'django', limits)
    if (stored.startsWith('bcrypt$$2')) return parseBcrypt(stored.slice(7), 'bcrypt', 'django', limits)
    if (stored.startsWith('scrypt$')) return parseScryptDjango(stored, limits)
  }
  throw malformed(FORMATS, received(stored))
}

// ---- needsRehash ----------------------------------------------------------------------------

// Django's salts are text of its 62 characters: it asks for 128 bits of them (`salt_entropy`,
// `must_update_salt`), 22 characters, and writes that many.
const DJANGO_SALT_CHARS = Math.ceil(128 / Math.log2(62))

/**
 * True when the salt or the tag of `rec` is shorter than what `hash` writes: a 16-byte salt
 * (Django: 22 characters of salt text, its own rule) and a `tag`-byte tag. A short salt lets
 * equal passwords share work across accounts (an empty one, equal hashes); a short tag lets a
 * wrong password verify with probability 2^-(8·tag). bcrypt's salt and tag have fixed lengths.
 */
function shortSaltOrTag(rec, tag) {
  const p = rec.params
  const salt = rec.format === 'django' && rec.kind !== 'argon2' ? DJANGO_SALT_CHARS : SALT_BYTES
  return p.saltLength < salt || p.keyLength < tag
}

/**
 * True when `rec` is weaker than `policy`: another algorithm than the policy's (Argon2i and
 * Argon2d always), Argon2 version 0x10, costs below the policy's, or a salt or tag shorter than
 * `hash` writes (`shortSaltOrTag`). Memory-hard costs are compared as memory and memory × passes
 * (Argon2: m and m·t; scrypt: N·r and N·r·p), so one parameter may trade for another as in OWASP's
 * tables; lanes (Argon2 p) are not compared: they do not add attacker work. bcrypt: the cost;
 * PBKDF2: the iterations for its own hash.
 */
function weaker(rec, policy) {
  if (rec.family !== policy.algorithm) return true
  const p = rec.params
  switch (rec.family) {
    case 'argon2id': {
      const a = policy.argon2id
      return p.version !== 0x13 || p.memoryCost < a.memoryCost || p.memoryCost * p.timeCost < a.memoryCost * a.timeCost ||
        shortSaltOrTag(rec, ARGON2_KEY)
    }
    case 'bcrypt':
      return p.rounds < policy.bcrypt.rounds
    case 'scrypt': {
      const s = policy.scrypt
      return p.N * p.r < s.N * s.r || p.N * p.r * p.p < s.N * s.r * s.p || shortSaltOrTag(rec, SCRYPT_KEY)
    }
    case 'pbkdf2':
      return p.iterations < policy.pbkdf2.iterations[p.hash] || shortSaltOrTag(rec, DIGEST_BYTES[p.hash])
  }
  return true
}

// ---- arguments ------------------------------------------------------------------------------

function checkPassword(value) {
  if (typeof value === 'string' || ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return value
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
      return kdf.argon2.verify(rec.target, pw, withSignal(argon2Limits(limits), signal))
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
      return kdf.argon2.verifySync(rec.target, pw, argon2Limits(limits))
    case 'bcrypt':
      return kdf.bcrypt.verify(bcryptInput(rec, pw), rec.target, bcryptLimits(limits))
    case 'scrypt':
      return same(kdf.scrypt(pw, scryptOptions(rec, limits.maxmem)), rec)
    case 'pbkdf2':
      return same(kdf.pbkdf2(pw, pbkdf2Options(rec)), rec)
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
  const signal = checkSignal(o.signal)
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
const SALT_BYTES = 16
const SCRYPT_KEY = 32
const ARGON2_KEY = 32

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
  keyLength: ARGON2_KEY,
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
      return kdf.argon2(pw, withSignal(argon2Options(plan), signal))
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
      return kdf.bcrypt.hash(pw, { rounds: plan.rounds })
    case 'scrypt': {
      const salt = randomBytes(SALT_BYTES)
      return scryptString(plan, salt, kdf.scrypt(pw, scryptHashOptions(plan, salt)))
    }
    case 'pbkdf2': {
      const salt = randomBytes(SALT_BYTES)
      return pbkdf2String(plan, salt, kdf.pbkdf2(pw, pbkdf2HashOptions(plan, salt)))
    }
  }
  throw new Error('unreachable')
}

/**
 * Hashes a password for storage: the policy's algorithm and parameters (default Argon2id,
 * m = 64 MiB, t = 3, p = 1), or `algorithm` with that algorithm's options. Resolves the string
 * to store: Argon2 PHC, bcrypt `$2b$`, passlib/PHC `$scrypt$`, passlib `$pbkdf2-sha256$`.
 */
async function hash(password, options) {
  const o = checkOptions(options, HASH_ASYNC_OPTIONS, 'password.hash')
  const signal = checkSignal(o.signal)
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

module.exports = Object.freeze({
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
})
