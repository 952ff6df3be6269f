'use strict'
// Stored password hashes, parsed: Argon2 PHC, bcrypt, scrypt and PBKDF2 as passlib/libpass,
// Django and PHP write them. Stored strings are untrusted: they are bounded (length, field sizes,
// numbers) and their costs checked against the ceilings before any work. `weaker` is the rule of
// `needsRehash`.
const native = require('../native')
const { kdf, argon2Weaker, ARGON2_DEFAULTS, BCRYPT_STRING } = require('../kdf')
const { coded, invalidArgType, outOfRange } = require('../errors')
const { DIGEST_BYTES, ceiling, isPowerOf2, scryptMemory, scryptWork } = require('./policy')

const U32 = 2 ** 32 - 1
/** The salt `hash` writes, in bytes, and the scrypt key length it stores. */
const SALT_BYTES = 16
const SCRYPT_KEY = 32

// ---- parsing stored strings -----------------------------------------------------------------

/** What `verify` reads, for error messages. */
const FORMATS =
  'a stored password hash: Argon2 PHC ($argon2id$, $argon2i$, $argon2d$), bcrypt ($2a$, $2b$, $2y$), ' +
  'scrypt ($scrypt$ln=..,r=..,p=.. as passlib/PHC; Django scrypt$), PBKDF2 (passlib $pbkdf2-sha256$, ' +
  '$pbkdf2-sha512$, $pbkdf2$; Django pbkdf2_sha256$, pbkdf2_sha1$), Django argon2$, bcrypt_sha256$ and bcrypt$'

// Longest stored string read: the native Argon2 parser's bound; the other formats are far shorter.
const MAX_STORED = native.nativeContract().maxPhcLength
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
  const m = BCRYPT_STRING.exec(hash)
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
  if (native.scryptLimit(N, r, p) !== null) {
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
    case 'argon2id':
      return argon2Weaker({ variant: rec.family, ...p }, { ...ARGON2_DEFAULTS, ...policy.argon2id, version: 0x13 })
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

module.exports = { SALT_BYTES, SCRYPT_KEY, STORED_OR_NONE, base64, malformed, parseStored, weaker }
