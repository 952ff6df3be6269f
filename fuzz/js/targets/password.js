'use strict'
// Stored password hashes (crypto.password.parse / needsRehash / verify): Argon2 PHC, bcrypt,
// passlib scrypt and PBKDF2, Django's forms. Properties: a refusal is ERR_INVALID_ARG_VALUE (or
// ERR_OUT_OF_RANGE for a cost above the ceilings); a string that parses has parameters within
// the ceilings and the format's ranges, and the fields an independent reading of the format (below,
// from passlib's and Django's documentation) finds in it; needsRehash refuses exactly what parse
// refuses; a bcrypt string that parses is also read by the native bcrypt parser.
const assert = require('assert')
const { password, kdf } = require('../../..')
const { coded, attempt } = require('../check')

const C = password.ceilings
const CODES = ['ERR_INVALID_ARG_VALUE', 'ERR_OUT_OF_RANGE']

const b64len = (s) => Buffer.from(s.replace(/\./g, '+'), 'base64').length
const num = (s) => (/^[1-9][0-9]*$/.test(s) ? Number(s) : NaN)

/** The parameters of the passlib and Django strings, read independently of lib/password/. */
function independent(text) {
  let m
  if ((m = /^\$scrypt\$([^$]*)\$([^$]*)\$([^$]*)$/.exec(text))) {
    const kv = Object.fromEntries(m[1].split(',').map((p) => p.split('=')))
    return { algorithm: 'scrypt', N: 2 ** num(kv.ln), r: num(kv.r), p: num(kv.p), saltLength: b64len(m[2]), keyLength: b64len(m[3]) }
  }
  if ((m = /^scrypt\$([^$]*)\$([^$]*)\$([^$]*)\$([^$]*)\$([^$]*)$/.exec(text))) {
    return { algorithm: 'scrypt', N: num(m[1]), r: num(m[3]), p: num(m[4]), saltLength: Buffer.byteLength(m[2]), keyLength: 64 }
  }
  if ((m = /^\$pbkdf2(-sha256|-sha512|)\$([^$]*)\$([^$]*)\$([^$]*)$/.exec(text))) {
    const hash = m[1] ? m[1].slice(1) : 'sha1'
    return { algorithm: `pbkdf2-${hash}`, iterations: num(m[2]), saltLength: b64len(m[3]), keyLength: b64len(m[4]) }
  }
  if ((m = /^pbkdf2_(sha256|sha1)\$([^$]*)\$([^$]*)\$([^$]*)$/.exec(text))) {
    return { algorithm: `pbkdf2-${m[1]}`, iterations: num(m[2]), saltLength: Buffer.byteLength(m[3]), keyLength: b64len(m[4]) }
  }
  return undefined
}

function fuzz(buf) {
  const text = buf.toString('utf8')
  const parsed = attempt(() => password.parse(text), CODES)
  let rehash
  try {
    rehash = password.needsRehash(text)
    assert.ok(parsed, 'needsRehash read a string parse refuses')
    assert.strictEqual(typeof rehash, 'boolean')
  } catch (err) {
    if (err instanceof assert.AssertionError) throw err
    coded(err, CODES)
    assert.strictEqual(parsed, undefined, 'needsRehash refused a string parse reads')
  }
  if (!parsed) return
  const p = parsed.params
  switch (parsed.algorithm) {
    case 'argon2id':
    case 'argon2i':
    case 'argon2d':
      assert.ok(p.memoryCost <= C.maxMemoryCost && p.timeCost <= C.maxTimeCost && p.parallelism <= C.maxParallelism)
      assert.ok(p.memoryCost >= 8 * p.parallelism && p.timeCost >= 1 && p.saltLength >= 8 && p.keyLength >= 4)
      assert.ok(p.version === 0x10 || p.version === 0x13)
      break
    case 'bcrypt':
    case 'bcrypt-sha256': {
      assert.ok(p.rounds >= 4 && p.rounds <= C.maxRounds)
      if (p.rounds === 4) {
        const hash = text.slice(text.indexOf('$2'))
        assert.strictEqual(typeof kdf.bcrypt.verify('x', hash), 'boolean')
      }
      break
    }
    case 'scrypt':
      assert.ok(p.p <= C.maxParallelism && 128 * p.r * (p.N + 2 + p.p) <= C.maxmem && p.saltLength <= 1024)
      assert.ok(p.keyLength >= 16 && p.keyLength <= 128)
      break
    default:
      assert.ok(/^pbkdf2-sha(1|256|512)$/.test(parsed.algorithm), parsed.algorithm)
      assert.ok(p.iterations >= 1 && p.iterations <= C.maxIterations && p.saltLength <= 1024)
  }
  const other = independent(text)
  if (other) {
    const { algorithm, ...fields } = other
    assert.strictEqual(parsed.algorithm, algorithm)
    for (const [k, v] of Object.entries(fields)) assert.strictEqual(p[k], v, `${k} of ${JSON.stringify(text)}`)
  }
}

module.exports = { fuzz }
