'use strict'
// crypto.password: every stored format made by independent implementations (libpass, Django's
// hashers, PHP's password_hash: __test__/fixtures/password) verifies, wrong passwords fail and
// needsRehash follows the policy; hash output round-trips; the unknown-user path does real work
// with the policy's parameters; malformed strings, ceilings and wrong types give their codes.
// The libpass side of the interop (our hashes verified by libpass) is password-interop.spec.js.
const test = require('ava')
const fs = require('node:fs')
const path = require('node:path')
const crypto = require('..')
const { isError, rejects } = require('./helpers/assert')

const { password } = crypto
// 53 characters of bcrypt's alphabet in canonical base64 (the salt's last character 'e' has its
// 4 unused bits clear, the checksum's 'a' its 2): a well-formed string whose cost is what a test sets.
const BCRYPT_BODY = 'a'.repeat(21) + 'e' + 'a'.repeat(31)
const FIXTURES = path.join(__dirname, 'fixtures', 'password')
const SOURCES = ['libpass', 'django', 'php'].map((name) => ({
  name,
  ...JSON.parse(fs.readFileSync(path.join(FIXTURES, `${name}.json`), 'utf8')),
}))

/** The policy algorithm a stored algorithm belongs to (none for Argon2i/Argon2d). */
const family = (algorithm) =>
  algorithm.startsWith('pbkdf2-') ? 'pbkdf2' : algorithm === 'bcrypt-sha256' ? 'bcrypt' : algorithm
const POLICY_OF = Object.fromEntries(password.algorithms.map((a) => [a, password.createPolicy({ algorithm: a })]))

/** A small policy so that hashes made under it are fast. */
const SMALL_VALUES = {
  argon2id: { memoryCost: 1024, timeCost: 2, parallelism: 1 },
  bcrypt: { rounds: 5 },
  scrypt: { N: 1024, r: 8, p: 1 },
  pbkdf2: { iterations: { sha256: 2000, sha512: 1000, sha1: 3000 } },
}
const SMALL = password.createPolicy(SMALL_VALUES)

// ---- fixtures from independent implementations ------------------------------------------------

test('the fixtures cover every stored-hash format crypto.password reads', (t) => {
  const all = SOURCES.flatMap((s) => s.cases)
  const prefixes = ['$argon2id$', '$argon2i$', '$argon2d$', '$2a$', '$2b$', '$2y$', '$scrypt$', 'scrypt$',
    '$pbkdf2-sha256$', '$pbkdf2-sha512$', '$pbkdf2$', 'pbkdf2_sha256$', 'pbkdf2_sha1$', 'argon2$argon2id$',
    'bcrypt_sha256$$2b$', 'bcrypt$$2b$']
  for (const prefix of prefixes) t.true(all.some((c) => c.hash.startsWith(prefix)), prefix)
  for (const kind of ['ascii', 'utf8', 'long']) {
    t.true(all.some((c) => c.id.endsWith(kind)), kind)
  }
  t.true(all.some((c) => c.hash.startsWith('$2y$') && c.id.startsWith('php-')), 'a $2y$ hash from PHP')
  for (const strength of ['weak', 'current']) {
    for (const a of ['argon2id', 'bcrypt', 'scrypt', 'pbkdf2']) {
      t.true(all.some((c) => c.strength === strength && family(c.algorithm) === a), `${strength} ${a}`)
    }
  }
})

for (const source of SOURCES) {
  for (const c of source.cases) {
    const own = POLICY_OF[family(c.algorithm)]
    const weak = c.strength === 'weak'
    test(`${source.name}: ${c.id} verifies, a wrong password does not, needsRehash`, async (t) => {
      const r = await password.verify(c.password, c.hash)
      t.true(r.valid)
      t.is(r.algorithm, c.algorithm)
      t.is(r.format, c.format)
      t.is(typeof r.params, 'object')
      // The default policy is Argon2id: any other algorithm needs a rehash.
      t.is(r.needsRehash, weak || family(c.algorithm) !== 'argon2id')
      if (own) t.is((await password.verify(c.password, c.hash, { policy: own })).needsRehash, weak)
      const wrong = await password.verify(source.wrongPassword, c.hash)
      t.false(wrong.valid)
      t.false(wrong.needsRehash, 'never true for a wrong password')
      // Bytes in: the same password as a Buffer.
      t.true((await password.verify(Buffer.from(c.password), c.hash)).valid)
      if (c.sameFirst72Verifies !== undefined) {
        // Plain bcrypt reads 72 bytes (so does the generator); every other format reads them all.
        t.is((await password.verify(source.wrongTail, c.hash)).valid, c.sameFirst72Verifies)
        t.is(c.sameFirst72Verifies, c.algorithm === 'bcrypt')
      }
      // needsRehash without a password: the same rule, on the parameters alone.
      t.is(password.needsRehash(c.hash), weak || family(c.algorithm) !== 'argon2id')
      t.deepEqual(password.parse(c.hash), { algorithm: r.algorithm, format: r.format, params: r.params })
    })
    if (weak) {
      test(`${source.name}: ${c.id} verifySync`, (t) => {
        t.true(password.verifySync(c.password, c.hash).valid)
        t.false(password.verifySync(source.wrongPassword, c.hash).valid)
      })
    }
  }
}

test('parameters of stored hashes are reported', (t) => {
  const find = (id) => SOURCES.flatMap((s) => s.cases).find((c) => c.id === id).hash
  t.deepEqual(password.parse(find('django-argon2-default-ascii')).params, {
    version: 19, memoryCost: 102400, timeCost: 2, parallelism: 8, saltLength: 22, keyLength: 32,
  })
  t.deepEqual(password.parse(find('bcrypt-2y-weak-ascii')), { algorithm: 'bcrypt', format: 'bcrypt', params: { rounds: 5 } })
  t.deepEqual(password.parse(find('scrypt-p2-weak-ascii')).params, { N: 32, r: 4, p: 2, keyLength: 32, saltLength: 16 })
  t.deepEqual(password.parse(find('django-scrypt-default-ascii')).params, { N: 16384, r: 8, p: 5, keyLength: 64, saltLength: 22 })
  t.deepEqual(password.parse(find('pbkdf2-sha1-current-ascii')).params, { hash: 'sha1', iterations: 1300000, saltLength: 16, keyLength: 20 })
  t.deepEqual(password.parse(find('django-pbkdf2_sha256-default-ascii')).params,
    { hash: 'sha256', iterations: 1000000, saltLength: 22, keyLength: 32 })
  t.is(password.parse(find('argon2id-v16-ascii')).params.version, 16)
  t.is(password.parse(find('django-bcrypt_sha256-weak-ascii')).algorithm, 'bcrypt-sha256')
})

test('Argon2 and scrypt parameters are read in any order', async (t) => {
  const argon = SOURCES[0].cases.find((c) => c.id === 'argon2id-weak-utf8')
  const m = /^(\$argon2id\$v=19\$)m=(\d+),t=(\d+),p=(\d+)(\$.*)$/.exec(argon.hash)
  for (const order of [`t=${m[3]},p=${m[4]},m=${m[2]}`, `p=${m[4]},m=${m[2]},t=${m[3]}`]) {
    const r = await password.verify(argon.password, m[1] + order + m[5])
    t.true(r.valid, order)
    t.is(r.params.memoryCost, Number(m[2]))
  }
  const scrypt = SOURCES[0].cases.find((c) => c.id === 'scrypt-p2-weak-ascii')
  const s = /^\$scrypt\$ln=(\d+),r=(\d+),p=(\d+)(\$.*)$/.exec(scrypt.hash)
  for (const order of [`p=${s[3]},ln=${s[1]},r=${s[2]}`, `r=${s[2]},p=${s[3]},ln=${s[1]}`]) {
    t.true((await password.verify(scrypt.password, `$scrypt$${order}${s[4]}`)).valid, order)
  }
  // Each parameter exactly once.
  await rejects(t, password.verify('x', `$scrypt$ln=${s[1]},r=${s[2]},p=${s[3]},p=${s[3]}${s[4]}`), TypeError, 'ERR_INVALID_ARG_VALUE')
  await rejects(t, password.verify('x', `${m[1]}m=${m[2]},t=${m[3]},p=${m[4]},m=${m[2]}${m[5]}`), TypeError, 'ERR_INVALID_ARG_VALUE')
})

test('passlib adapted base64 also reads + for .', async (t) => {
  const c = SOURCES[0].cases.find((x) => x.hash.startsWith('$pbkdf2-sha256$') && /\./.test(x.hash.split('$')[4]))
  if (!c) return t.pass('no fixture with a "." in its checksum')
  const parts = c.hash.split('$')
  parts[4] = parts[4].replace(/\./g, '+')
  t.true((await password.verify(c.password, parts.join('$'))).valid)
})

// ---- hash -------------------------------------------------------------------------------------

test('hash: default policy is Argon2id m=64 MiB t=3 p=4, and it needs no rehash', async (t) => {
  t.deepEqual(password.policy.argon2id, { memoryCost: 65536, timeCost: 3, parallelism: 4 })
  const h = await password.hash('correct horse')
  t.regex(h, /^\$argon2id\$v=19\$m=65536,t=3,p=4\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/)
  const r = await password.verify('correct horse', h)
  t.deepEqual(r, {
    valid: true,
    needsRehash: false,
    algorithm: 'argon2id',
    format: 'phc',
    params: { version: 19, memoryCost: 65536, timeCost: 3, parallelism: 4, saltLength: 16, keyLength: 32 },
  })
  t.false((await password.verify('correct horsE', h)).valid)
})

const SHAPES = {
  argon2id: /^\$argon2id\$v=19\$m=1024,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/,
  bcrypt: /^\$2b\$05\$[./A-Za-z0-9]{53}$/,
  scrypt: /^\$scrypt\$ln=10,r=8,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/,
  pbkdf2: /^\$pbkdf2-sha256\$2000\$[./A-Za-z0-9]{22}\$[./A-Za-z0-9]{43}$/,
}

for (const algorithm of ['argon2id', 'bcrypt', 'scrypt', 'pbkdf2']) {
  test(`hash/hashSync ${algorithm}: the policy's parameters, verify round trip, needsRehash`, async (t) => {
    const policy = password.createPolicy({ ...SMALL, algorithm })
    for (const pw of ['correct horse', 'pässwörd — 密码 🔑', Buffer.from([0xff, 0x00, 0x80])]) {
      const made = [await password.hash(pw, { policy }), password.hashSync(pw, { policy })]
      // Or with the algorithm named and the policy's section for it.
      made.push(await password.hash(pw, { policy: SMALL, algorithm }))
      for (const h of made) {
        t.regex(h, SHAPES[algorithm])
        const r = await password.verify(pw, h, { policy })
        t.true(r.valid)
        t.false(r.needsRehash)
        t.true(password.verifySync(pw, h, { policy }).valid)
        t.false((await password.verify('other', h, { policy })).valid)
        // Under the library's default policy: rehash into Argon2id with its parameters.
        t.true((await password.verify(pw, h, { policy: password.createPolicy({ algorithm: 'argon2id' }) })).needsRehash)
      }
    }
  })
}

test('hash: explicit parameters per algorithm; weaker ones need a rehash, stronger ones do not', async (t) => {
  const cases = [
    [{ algorithm: 'argon2id', memoryCost: 512, timeCost: 2 }, true, 'argon2id'],
    [{ algorithm: 'argon2id', memoryCost: 2048, timeCost: 1 }, false, 'argon2id'], // m·t = policy's; memory higher
    [{ algorithm: 'argon2id', memoryCost: 1024, timeCost: 1 }, true, 'argon2id'], // m·t lower
    [{ algorithm: 'argon2id', memoryCost: 1024, timeCost: 2, parallelism: 2 }, false, 'argon2id'], // lanes not compared
    [{ algorithm: 'bcrypt', rounds: 4 }, true, 'bcrypt'],
    [{ algorithm: 'bcrypt', rounds: 6 }, false, 'bcrypt'],
    [{ algorithm: 'scrypt', N: 512 }, true, 'scrypt'],
    [{ algorithm: 'scrypt', N: 512, r: 16 }, false, 'scrypt'], // same memory N·r
    [{ algorithm: 'scrypt', N: 1024, r: 4, p: 2 }, true, 'scrypt'], // less memory, same work
    [{ algorithm: 'pbkdf2', iterations: 1999 }, true, 'pbkdf2'],
    [{ algorithm: 'pbkdf2', hash: 'sha512', iterations: 1000 }, false, 'pbkdf2'],
    [{ algorithm: 'pbkdf2', hash: 'sha1', iterations: 2999 }, true, 'pbkdf2'],
  ]
  for (const [options, rehash, algorithm] of cases) {
    const h = await password.hash('pw', { ...options, policy: SMALL })
    const policy = password.createPolicy({ ...SMALL, algorithm })
    const r = await password.verify('pw', h, { policy })
    t.true(r.valid, JSON.stringify(options))
    t.is(r.needsRehash, rehash, JSON.stringify(options))
    t.is(password.needsRehash(h, { policy }), rehash)
  }
  t.regex(await password.hash('pw', { algorithm: 'pbkdf2', hash: 'sha512', iterations: 10 }), /^\$pbkdf2-sha512\$10\$[^$]{22}\$[^$]{86}$/)
  t.regex(await password.hash('pw', { algorithm: 'pbkdf2', hash: 'sha1', iterations: 10 }), /^\$pbkdf2\$10\$[^$]{22}\$[^$]{27}$/)
})

test('hash: bcrypt refuses passwords over 72 bytes (it would ignore the rest)', async (t) => {
  const long = 'é'.repeat(37) // 74 bytes
  await rejects(t, password.hash(long, { algorithm: 'bcrypt', rounds: 4 }), RangeError, 'ERR_OUT_OF_RANGE')
  isError(t, () => password.hashSync(long, { algorithm: 'bcrypt', rounds: 4 }), RangeError, 'ERR_OUT_OF_RANGE')
  t.regex(await password.hash('é'.repeat(36), { algorithm: 'bcrypt', rounds: 4 }), /^\$2b\$04\$/)
  // Argon2id and the others take any length.
  t.true((await password.verify(long, await password.hash(long, { policy: SMALL }))).valid)
})

test('hash: options of another algorithm and bad values are refused', async (t) => {
  await rejects(t, password.hash('pw', { rounds: 12 }), TypeError, 'ERR_INVALID_ARG_VALUE') // argon2id has no rounds
  await rejects(t, password.hash('pw', { algorithm: 'bcrypt', memoryCost: 1024 }), TypeError, 'ERR_INVALID_ARG_VALUE')
  await rejects(t, password.hash('pw', { algorithm: 'md5' }), TypeError, 'ERR_INVALID_ARG_VALUE')
  await rejects(t, password.hash('pw', { algorithm: 'scrypt', N: 1000 }), RangeError, 'ERR_OUT_OF_RANGE')
  await rejects(t, password.hash('pw', { algorithm: 'bcrypt', rounds: 3 }), RangeError, 'ERR_OUT_OF_RANGE')
  await rejects(t, password.hash('pw', { algorithm: 'pbkdf2', hash: 'md5' }), TypeError, 'ERR_INVALID_ARG_VALUE')
  await rejects(t, password.hash('pw', { salt: 'x' }), TypeError, 'ERR_INVALID_ARG_VALUE')
  await rejects(t, password.hash(42), TypeError, 'ERR_INVALID_ARG_TYPE')
  await rejects(t, password.hash(null), TypeError, 'ERR_INVALID_ARG_TYPE')
  await rejects(t, password.hash('pw', 'argon2id'), TypeError, 'ERR_INVALID_ARG_TYPE')
  await rejects(t, password.hash('pw', { algorithm: 1 }), TypeError, 'ERR_INVALID_ARG_TYPE')
  isError(t, () => password.hashSync('pw', { signal: new AbortController().signal }), TypeError, 'ERR_INVALID_ARG_VALUE')
})

// ---- no such user -----------------------------------------------------------------------------

const NO_USER = { valid: false, needsRehash: false, algorithm: null, format: null, params: null }

/**
 * A fresh copy of lib/password/index.js whose ./kdf functions record their calls (name, arguments)
 * before running the real ones: what work a call starts, and with which parameters. Its caches
 * (the dummy hashes) are its own.
 */
function instrumented() {
  const kdfPath = require.resolve('../lib/kdf')
  const passwordPath = require.resolve('../lib/password')
  const realModule = require(kdfPath)
  const real = realModule.kdf
  const calls = []
  const wrap = (name, fn) => (...args) => {
    calls.push({ name, args })
    return fn(...args)
  }
  const argon2 = Object.assign(wrap('argon2', real.argon2), {
    verifyAsync: wrap('argon2.verifyAsync', real.argon2.verifyAsync),
    verifySync: wrap('argon2.verifySync', real.argon2.verifySync),
    parse: real.argon2.parse,
  })
  const bcrypt = {}
  for (const name of ['hashSync', 'hashAsync', 'verifySync', 'verifyAsync']) bcrypt[name] = wrap(`bcrypt.${name}`, real.bcrypt[name])
  const fake = { ...real, argon2, argon2Async: wrap('argon2Async', real.argon2Async), argon2Sync: wrap('argon2Sync', real.argon2Sync), bcrypt }
  for (const name of ['pbkdf2Sync', 'pbkdf2Async', 'scryptSync', 'scryptAsync']) fake[name] = wrap(name, real[name])
  const exports = { ...realModule, kdf: fake }
  const saved = { kdf: require.cache[kdfPath], password: require.cache[passwordPath] }
  require.cache[kdfPath] = { id: kdfPath, filename: kdfPath, loaded: true, exports, children: [], paths: [] }
  delete require.cache[passwordPath]
  try {
    return { password: require(passwordPath), calls }
  } finally {
    require.cache[kdfPath] = saved.kdf
    require.cache[passwordPath] = saved.password
  }
}

test('no such user: verify(pw, null) runs one real verification with the policy parameters', async (t) => {
  const { password: pw, calls } = instrumented()
  const iterations = 4321
  const policy = pw.createPolicy({ algorithm: 'pbkdf2', pbkdf2: { iterations: { sha256: iterations } } })
  t.deepEqual(await pw.verify('whoever', null, { policy }), NO_USER)
  // First call: the dummy hash is made (one derivation), then checked (another).
  t.deepEqual(calls.map((c) => c.name), ['pbkdf2Async', 'pbkdf2Async'])
  for (const { args } of calls) {
    t.is(args[1].iterations, iterations, 'the policy iterations')
    t.is(args[1].keyLength, 32)
    t.is(args[1].hash, 'sha256')
  }
  t.is(calls[1].args[0], 'whoever', 'the caller password is what gets derived')
  // Later calls: one derivation each, as for a real user; the same for the sync form.
  for (const stored of [null, undefined]) {
    calls.length = 0
    t.deepEqual(await pw.verify('whoever', stored, { policy }), NO_USER)
    t.deepEqual(calls.map((c) => [c.name, c.args[1].iterations]), [['pbkdf2Async', iterations]])
  }
  calls.length = 0
  t.deepEqual(pw.verifySync('whoever', null, { policy }), NO_USER)
  t.deepEqual(calls.map((c) => [c.name, c.args[1].iterations]), [['pbkdf2Sync', iterations]])
})

test('no such user: with the default policy, one Argon2id verification at m=64 MiB t=3 p=4', async (t) => {
  const { password: pw, calls } = instrumented()
  t.deepEqual(await pw.verify('warm-up', null), NO_USER) // makes the dummy hash, then checks it
  t.deepEqual(calls.map((c) => c.name), ['argon2Async', 'argon2.verifyAsync'])
  t.like(calls[0].args[1], { variant: 'id', memoryCost: 65536, timeCost: 3, parallelism: 4 })
  calls.length = 0
  t.deepEqual(await pw.verify('x', undefined), NO_USER)
  t.deepEqual(calls.map((c) => c.name), ['argon2.verifyAsync'])
  t.regex(calls[0].args[1], /^\$argon2id\$v=19\$m=65536,t=3,p=4\$/)
  t.is(calls[0].args[0], 'x')
  calls.length = 0
  t.deepEqual(pw.verifySync('x', null), NO_USER)
  t.deepEqual(calls.map((c) => c.name), ['argon2.verifySync'])
  // Each policy algorithm has its dummy, made with that policy's parameters.
  for (const [algorithm, made, checked] of [['bcrypt', 'bcrypt.hashAsync', 'bcrypt.verifyAsync'], ['scrypt', 'scryptAsync', 'scryptAsync']]) {
    calls.length = 0
    const policy = pw.createPolicy({ ...SMALL, algorithm })
    t.deepEqual(await pw.verify('x', null, { policy }), NO_USER)
    t.deepEqual(calls.map((c) => c.name), [made, checked])
    if (algorithm === 'bcrypt') t.regex(calls[1].args[1], /^\$2b\$05\$/)
    else t.like(calls[1].args[1], { N: 1024, r: 8, p: 1 })
    t.deepEqual(pw.verifySync('x', null, { policy }), NO_USER)
  }
})

test('no such user: argument types are still checked', async (t) => {
  await rejects(t, password.verify(42, null), TypeError, 'ERR_INVALID_ARG_TYPE')
  isError(t, () => password.verifySync(undefined, null), TypeError, 'ERR_INVALID_ARG_TYPE')
  await rejects(t, password.verify('x', null, { policy: { algorithm: 'md5' } }), TypeError, 'ERR_INVALID_ARG_VALUE')
})

// ---- errors -----------------------------------------------------------------------------------

const LIBPASS = SOURCES[0].cases
const fixture = (id) => SOURCES.flatMap((s) => s.cases).find((c) => c.id === id).hash

test('unknown formats: ERR_INVALID_ARG_VALUE naming the formats read', async (t) => {
  for (const stored of ['', 'plaintext', '$1$saltsalt$hash', '$5$rounds=5000$x$y', 'md5$salt$hash', '!unusable',
    '$argon2$', '$2x$05$abcdefghijklmnopqrstuv1234567890123456789012345678901', 'sha1$a$b', 'x'.repeat(5000)]) {
    const err = await t.throwsAsync(password.verify('pw', stored), { instanceOf: TypeError })
    t.is(err.code, 'ERR_INVALID_ARG_VALUE', stored)
    t.regex(err.message, /The argument "stored" is invalid/)
    isError(t, () => password.verifySync('pw', stored), TypeError, 'ERR_INVALID_ARG_VALUE')
    isError(t, () => password.parse(stored), TypeError, 'ERR_INVALID_ARG_VALUE')
  }
  const err = await t.throwsAsync(password.verify('pw', 'md5$salt$hash'))
  for (const name of ['$argon2id$', '$2y$', '$scrypt$', 'scrypt$', '$pbkdf2-sha256$', '$pbkdf2-sha512$', '$pbkdf2$',
    'pbkdf2_sha256$', 'pbkdf2_sha1$', 'argon2$', 'bcrypt_sha256$']) {
    t.true(err.message.includes(name), name)
  }
  // The message never shows what is not an identifier (a legacy column may hold plaintext).
  const plain = await t.throwsAsync(password.verify('pw', 'hunter2-plaintext'))
  t.false(plain.message.includes('hunter2'))
  t.regex(plain.message, /Received a string of 17 characters$/)
  // The message names the identifier, not the salt or checksum.
  const h = fixture('django-pbkdf2_sha256-weak-ascii')
  const bad = h.replace('pbkdf2_sha256', 'pbkdf2_sha384')
  const e2 = await t.throwsAsync(password.verify('pw', bad))
  t.false(e2.message.includes(h.split('$')[3]))
})

test('malformed strings of each format: ERR_INVALID_ARG_VALUE', async (t) => {
  const argon = fixture('argon2id-weak-ascii')
  const bcrypt = fixture('bcrypt-2b-weak-ascii')
  const scrypt = fixture('scrypt-weak-ascii')
  const pbkdf2 = fixture('pbkdf2-sha256-weak-ascii')
  const dj = fixture('django-pbkdf2_sha256-weak-ascii')
  const djScrypt = fixture('django-scrypt-weak-ascii')
  const bad = [
    argon.replace('$v=19$', '$v=18$'),
    argon.replace(/m=\d+/, 'm=01024'),
    argon.replace(/\$[^$]+$/, '$!!!!'),
    `argon2${argon.replace('$argon2id', '$argon2x')}`,
    bcrypt.slice(0, -1),
    bcrypt.replace('$04$', '$03$'),
    bcrypt.replace('$04$', '$4x$'),
    `bcrypt_sha256$${bcrypt.slice(0, -1)}`,
    scrypt.replace('ln=6', 'ln=0'),
    scrypt.replace('ln=6', 'ln=53'),
    scrypt.replace('ln=6', 'n=6'),
    scrypt.replace(',p=1', ''),
    scrypt.replace(/\$[^$]+$/, '$abc'), // 2 bytes of key
    scrypt.replace(/\$[^$]+\$/, '$a*b$'),
    `${scrypt}$extra`,
    pbkdf2.replace('$1000$', '$0$'),
    pbkdf2.replace('$1000$', '$01000$'),
    pbkdf2.replace('$1000$', '$1e3$'),
    pbkdf2.replace('$1000$', '$99999999999$'),
    pbkdf2.slice(0, -2), // a 31-byte key for SHA-256
    pbkdf2.replace(/\$[^$]+\$([^$]+)$/, '$sa=lt$$$1'),
    dj.replace(/\$[^$]+$/, '$not base64!'),
    dj.replace(/\$[^$]+\$([^$]+)$/, '$$$1'), // empty salt
    dj.slice(0, -4), // unpadded / short
    djScrypt.replace('scrypt$16$', 'scrypt$15$'), // N not a power of 2
    djScrypt.replace('$8$1$', '$8$$'),
    djScrypt.replace(/\$[^$]+$/, '$AAAA'), // 3 bytes, not 64
  ]
  const { password: pw, calls } = instrumented()
  for (const stored of bad) {
    const err = await t.throwsAsync(pw.verify('pw', stored), { instanceOf: TypeError, message: /"stored"/ }, stored)
    t.is(err.code, 'ERR_INVALID_ARG_VALUE', `${stored}: ${err.message}`)
    isError(t, () => pw.verifySync('pw', stored), TypeError, 'ERR_INVALID_ARG_VALUE')
  }
  t.deepEqual(calls, [], 'no derivation started')
})

test('ceilings: ERR_OUT_OF_RANGE before any work, naming the option; raised by options', async (t) => {
  const salt = 'c2FsdHNhbHRzYWx0c2FsdA' // 16 bytes
  const tag = 'A'.repeat(43)
  const ab64key = 'A'.repeat(43)
  const huge = [
    [`$argon2id$v=19$m=65536,t=4294967295,p=1$${salt}$${tag}`, /maxTimeCost/, { maxTimeCost: 11 }],
    [`$argon2id$v=19$m=4194304,t=1,p=1$${salt}$${tag}`, /maxMemoryCost/, { maxMemoryCost: 4194303 }],
    [`argon2$argon2id$v=19$m=65536,t=1,p=65$${salt}$${tag}`, /maxParallelism/, { maxParallelism: 64 }],
    ['$2b$31$' + BCRYPT_BODY, /maxRounds/, { maxRounds: 30 }],
    ['bcrypt_sha256$$2b$17$' + BCRYPT_BODY, /maxRounds/, { maxRounds: 16 }],
    [`$scrypt$ln=20,r=8,p=1$${salt}$${tag}`, /maxmem/, { maxmem: 2 ** 30 }],
    [`$scrypt$ln=10,r=8,p=65$${salt}$${tag}`, /maxParallelism/, { maxParallelism: 64 }],
    [`scrypt$1048576$salt$8$1$${'A'.repeat(86)}==`, /maxmem/, { maxmem: 2 ** 30 }],
    // p multiplies scrypt's time, not its memory: 120 times the policy's work inside maxmem.
    [`$scrypt$ln=17,r=15,p=64$${salt}$${tag}`, /N \* r \* p.*maxScryptWork/, { maxScryptWork: 125829119 }],
    [`scrypt$131072$salt$8$5$${'A'.repeat(86)}==`, /N \* r \* p.*maxScryptWork/, { maxScryptWork: 5242879 }],
    [`$pbkdf2-sha256$4294967295$${salt}$${ab64key}`, /maxIterations/, { maxIterations: 4294967294 }],
    [`pbkdf2_sha1$10000001$salt$${'A'.repeat(27)}=`, /maxIterations/, { maxIterations: 10000000 }],
  ]
  const { password: pw, calls } = instrumented()
  for (const [stored, option] of huge) {
    const err = await t.throwsAsync(pw.verify('pw', stored), { instanceOf: RangeError }, stored)
    t.is(err.code, 'ERR_OUT_OF_RANGE', stored)
    t.regex(err.message, option)
    isError(t, () => pw.verifySync('pw', stored), RangeError, 'ERR_OUT_OF_RANGE')
    isError(t, () => password.parse(stored), RangeError, 'ERR_OUT_OF_RANGE')
    isError(t, () => password.needsRehash(stored), RangeError, 'ERR_OUT_OF_RANGE')
  }
  t.deepEqual(calls, [], 'no derivation started')
  // Still refused with a ceiling one below; the defaults, and a lower explicit ceiling.
  for (const [stored, , below] of huge) {
    isError(t, () => password.parse(stored, below), RangeError, 'ERR_OUT_OF_RANGE')
  }
  t.deepEqual(password.ceilings, {
    maxMemoryCost: 2097152, maxTimeCost: 10, maxParallelism: 64, maxRounds: 16, maxmem: 268435456,
    maxScryptWork: 4 * 2 ** 17 * 8, maxIterations: 10000000,
  })
  // scrypt's work ceiling is 4 times the policy's N·r·p: p = 4 at the policy's N and r passes, 5 does not.
  t.is(password.parse(`$scrypt$ln=17,r=8,p=4$${salt}$${tag}`).params.p, 4)
  isError(t, () => password.parse(`$scrypt$ln=17,r=8,p=5$${salt}$${tag}`), RangeError, 'ERR_OUT_OF_RANGE')
  t.is(password.parse(`$scrypt$ln=17,r=15,p=64$${salt}$${tag}`, { maxScryptWork: 125829120 }).params.p, 64)
  const current = fixture('pbkdf2-sha256-current-ascii')
  isError(t, () => password.parse(current, { maxIterations: 599999 }), RangeError, 'ERR_OUT_OF_RANGE')
  t.is(password.parse(current, { maxIterations: 600000 }).params.iterations, 600000)
  isError(t, () => password.parse(fixture('bcrypt-current-ascii'), { maxRounds: 9 }), RangeError, 'ERR_OUT_OF_RANGE')
  isError(t, () => password.parse(fixture('scrypt-current-ascii'), { maxmem: 2 ** 27 }), RangeError, 'ERR_OUT_OF_RANGE')
  // A raised ceiling lets the string through to the derivation (the hash is then wrong, not refused).
  t.false((await password.verify('pw', `pbkdf2_sha1$10001$salt$${'A'.repeat(27)}=`, { maxIterations: 10001 })).valid)
})

test('ceilings follow a policy that writes above the defaults', (t) => {
  const policy = password.createPolicy({ algorithm: 'pbkdf2', pbkdf2: { iterations: { sha256: 20000000 } }, bcrypt: { rounds: 17 } })
  const stored = `$pbkdf2-sha256$20000000$c2FsdHNhbHRzYWx0c2FsdA$${'A'.repeat(43)}`
  isError(t, () => password.parse(stored), RangeError, 'ERR_OUT_OF_RANGE')
  t.is(password.parse(stored, { policy }).params.iterations, 20000000)
  t.is(password.parse('$2b$17$' + BCRYPT_BODY, { policy }).params.rounds, 17)
  const heavy = password.createPolicy({ scrypt: { p: 8 } })
  const p8 = `$scrypt$ln=17,r=8,p=8$c2FsdHNhbHRzYWx0c2FsdA$${'A'.repeat(43)}`
  isError(t, () => password.parse(p8), RangeError, 'ERR_OUT_OF_RANGE')
  t.is(password.parse(p8, { policy: heavy }).params.p, 8)
})

test('wrong types: ERR_INVALID_ARG_TYPE', async (t) => {
  const h = LIBPASS[0].hash
  for (const pw of [undefined, null, 42, {}, [], true]) {
    await rejects(t, password.verify(pw, h), TypeError, 'ERR_INVALID_ARG_TYPE')
    isError(t, () => password.verifySync(pw, h), TypeError, 'ERR_INVALID_ARG_TYPE')
  }
  for (const stored of [42, {}, Buffer.from(h), true]) {
    await rejects(t, password.verify('pw', stored), TypeError, 'ERR_INVALID_ARG_TYPE')
    isError(t, () => password.verifySync('pw', stored), TypeError, 'ERR_INVALID_ARG_TYPE')
  }
  for (const stored of [null, undefined, 42]) {
    isError(t, () => password.parse(stored), TypeError, 'ERR_INVALID_ARG_TYPE')
    isError(t, () => password.needsRehash(stored), TypeError, 'ERR_INVALID_ARG_TYPE')
  }
  await rejects(t, password.verify('pw', h, 'options'), TypeError, 'ERR_INVALID_ARG_TYPE')
  await rejects(t, password.verify('pw', h, { maxRounds: '16' }), TypeError, 'ERR_INVALID_ARG_TYPE')
  await rejects(t, password.verify('pw', h, { maxmem: '1' }), TypeError, 'ERR_INVALID_ARG_TYPE')
  await rejects(t, password.verify('pw', h, { signal: {} }), TypeError, 'ERR_INVALID_ARG_TYPE')
  await rejects(t, password.verify('pw', h, { policy: 'argon2id' }), TypeError, 'ERR_INVALID_ARG_TYPE')
  await rejects(t, password.verify('pw', h, { secret: 'x' }), TypeError, 'ERR_INVALID_ARG_VALUE')
  isError(t, () => password.verifySync('pw', h, { signal: new AbortController().signal }), TypeError, 'ERR_INVALID_ARG_VALUE')
  isError(t, () => password.verifySync('pw', h, { maxRounds: 40 }), RangeError, 'ERR_OUT_OF_RANGE')
})

test('signal: an aborted signal rejects with AbortError', async (t) => {
  const ac = new AbortController()
  ac.abort()
  for (const p of [
    password.verify('pw', LIBPASS[0].hash, { signal: ac.signal }),
    password.verify('pw', fixture('pbkdf2-sha256-weak-ascii'), { signal: ac.signal }),
    password.hash('pw', { signal: ac.signal, policy: SMALL }),
    password.hash('pw', { signal: ac.signal, policy: SMALL, algorithm: 'scrypt' }),
  ]) {
    const err = await t.throwsAsync(p)
    t.is(err.name, 'AbortError')
    t.is(err.code, 'ABORT_ERR')
  }
})

// ---- policy -----------------------------------------------------------------------------------

test('policy: frozen, OWASP figures, createPolicy merges section by section', (t) => {
  const p = password.policy
  t.true(Object.isFrozen(p) && Object.isFrozen(p.argon2id) && Object.isFrozen(p.pbkdf2.iterations))
  t.deepEqual(JSON.parse(JSON.stringify(p)), {
    algorithm: 'argon2id',
    argon2id: { memoryCost: 65536, timeCost: 3, parallelism: 4 },
    bcrypt: { rounds: 10 },
    scrypt: { N: 131072, r: 8, p: 1 },
    pbkdf2: { hash: 'sha256', iterations: { sha256: 600000, sha512: 210000, sha1: 1300000 } },
  })
  t.is(password.createPolicy(), p)
  const q = password.createPolicy({ algorithm: 'bcrypt', argon2id: { timeCost: 4 }, pbkdf2: { iterations: { sha1: 2000000 } } })
  t.true(Object.isFrozen(q))
  t.is(q.algorithm, 'bcrypt')
  t.deepEqual({ ...q.argon2id }, { memoryCost: 65536, timeCost: 4, parallelism: 4 })
  t.deepEqual({ ...q.pbkdf2.iterations }, { sha256: 600000, sha512: 210000, sha1: 2000000 })
  // A plain object as options.policy is read the same way.
  t.true(password.needsRehash(fixture('bcrypt-current-ascii'), { policy: { algorithm: 'bcrypt', bcrypt: { rounds: 11 } } }))
  t.false(password.needsRehash(fixture('bcrypt-current-ascii'), { policy: { algorithm: 'bcrypt' } }))
})

test('policy: bad values are refused', (t) => {
  isError(t, () => password.createPolicy('argon2id'), TypeError, 'ERR_INVALID_ARG_TYPE')
  isError(t, () => password.createPolicy({ algorithm: 'argon2i' }), TypeError, 'ERR_INVALID_ARG_VALUE')
  isError(t, () => password.createPolicy({ argon2: {} }), TypeError, 'ERR_INVALID_ARG_VALUE')
  isError(t, () => password.createPolicy({ argon2id: { memory: 1 } }), TypeError, 'ERR_INVALID_ARG_VALUE')
  isError(t, () => password.createPolicy({ argon2id: { memoryCost: 16, parallelism: 4 } }), RangeError, 'ERR_OUT_OF_RANGE')
  isError(t, () => password.createPolicy({ argon2id: { parallelism: 10000 } }), RangeError, 'ERR_OUT_OF_RANGE')
  isError(t, () => password.createPolicy({ bcrypt: { rounds: 32 } }), RangeError, 'ERR_OUT_OF_RANGE')
  isError(t, () => password.createPolicy({ scrypt: { N: 3 } }), RangeError, 'ERR_OUT_OF_RANGE')
  isError(t, () => password.createPolicy({ scrypt: { N: 2 ** 16, r: 1 } }), RangeError, 'ERR_OUT_OF_RANGE')
  isError(t, () => password.createPolicy({ scrypt: 5 }), TypeError, 'ERR_INVALID_ARG_TYPE')
  isError(t, () => password.createPolicy({ pbkdf2: { hash: 'md5' } }), TypeError, 'ERR_INVALID_ARG_VALUE')
  isError(t, () => password.createPolicy({ pbkdf2: { iterations: { sha384: 1 } } }), TypeError, 'ERR_INVALID_ARG_VALUE')
  isError(t, () => password.createPolicy({ pbkdf2: { iterations: { sha256: 0 } } }), RangeError, 'ERR_OUT_OF_RANGE')
})

test('needsRehash: algorithm, Argon2 variant and version, memory and memory x passes', (t) => {
  // Argon2i/Argon2d and version 16 are weak under every policy, whatever their costs.
  t.true(password.needsRehash(fixture('argon2id-v16-ascii')))
  t.true(password.needsRehash(fixture('php-argon2i-weak-utf8'), { policy: SMALL }))
  // Django's default Argon2id (m=100 MiB, t=2, p=8) is above m=64 MiB t=3: more memory and m·t.
  t.false(password.needsRehash(fixture('django-argon2-default-ascii')))
  t.true(password.needsRehash(fixture('django-argon2-default-ascii'), { policy: { argon2id: { memoryCost: 131072, timeCost: 2 } } }))
  // Django's default scrypt (N=2^14 r=8 p=5) has more work than N=2^14 r=8 p=1 but less memory than 2^17.
  const djs = fixture('django-scrypt-default-ascii')
  t.true(password.needsRehash(djs, { policy: { algorithm: 'scrypt' } }))
  t.false(password.needsRehash(djs, { policy: { algorithm: 'scrypt', scrypt: { N: 16384, r: 8, p: 5 } } }))
  t.true(password.needsRehash(djs, { policy: { algorithm: 'scrypt', scrypt: { N: 16384, r: 8, p: 6 } } }))
  // PBKDF2: iterations against the table of its own digest.
  t.false(password.needsRehash(fixture('pbkdf2-sha512-current-ascii'), { policy: { algorithm: 'pbkdf2' } }))
  t.true(password.needsRehash(fixture('pbkdf2-sha512-current-ascii'),
    { policy: { algorithm: 'pbkdf2', pbkdf2: { iterations: { sha512: 210001 } } } }))
})

test('needsRehash: a salt or tag shorter than hash writes (16-byte salt, Django 22 characters; 32-byte Argon2/scrypt tag) needs a rehash, in every format', async (t) => {
  const node = require('node:crypto')
  const pw = 'correct horse'
  const b64 = (b) => b.toString('base64').replace(/=+$/, '')
  const ab64 = (b) => b64(b).replace(/\+/g, '.')
  const check = async (stored, policy, expected, what) => {
    t.is(password.needsRehash(stored, { policy }), expected, what)
    const r = await password.verify(pw, stored, { policy })
    t.true(r.valid, what)
    t.is(r.needsRehash, expected, `${what} (verify)`)
    t.false((await password.verify('wrong', stored, { policy })).needsRehash, `${what} (wrong password)`)
  }
  const salt = (n) => Buffer.alloc(n, 0x5a)
  // Argon2id (PHC, and Django's argon2$ prefix): salt 8..16 bytes, tag 4..32 bytes.
  const a = { memoryCost: 1024, timeCost: 2, parallelism: 1 }
  const argon = (saltLength, keyLength) => crypto.kdf.argon2Sync(pw, { variant: 'id', ...a, salt: salt(saltLength), keyLength })
  const argonPolicy = password.createPolicy({ argon2id: a })
  for (const [saltLength, keyLength, weak] of [[16, 32, false], [32, 64, false], [8, 32, true], [15, 32, true], [16, 4, true], [16, 16, true], [16, 31, true]]) {
    const phc = argon(saltLength, keyLength)
    await check(phc, argonPolicy, weak, `argon2id salt ${saltLength} tag ${keyLength}`)
    await check(`argon2${phc}`, argonPolicy, weak, `Django argon2 salt ${saltLength} tag ${keyLength}`)
  }
  // scrypt, passlib/PHC: the key from node:crypto.
  const sp = { N: 1024, r: 8, p: 1 }
  const scryptPolicy = password.createPolicy({ algorithm: 'scrypt', scrypt: sp })
  const scryptKey = (s, n) => node.scryptSync(pw, s, n, sp)
  for (const [saltLength, keyLength, weak] of [[16, 32, false], [0, 32, true], [8, 32, true], [16, 16, true]]) {
    const st = salt(saltLength)
    await check(`$scrypt$ln=10,r=8,p=1$${b64(st)}$${b64(scryptKey(st, keyLength))}`, scryptPolicy, weak, `scrypt salt ${saltLength} tag ${keyLength}`)
  }
  // scrypt, Django: the salt is text (22 characters: Django's 128 bits of its 62 characters).
  for (const [text, weak] of [['a'.repeat(22), false], ['a'.repeat(21), true], ['abc', true]]) {
    await check(`scrypt$1024$${text}$8$1$${scryptKey(text, 64).toString('base64')}`, scryptPolicy, weak, `Django scrypt salt ${text.length}`)
  }
  // PBKDF2, passlib (adapted base64) and Django.
  const kp = password.createPolicy({ algorithm: 'pbkdf2', pbkdf2: { iterations: { sha256: 2000, sha1: 3000 } } })
  for (const [saltLength, weak] of [[16, false], [0, true], [12, true]]) {
    const st = salt(saltLength)
    const key = node.pbkdf2Sync(pw, st, 2000, 32, 'sha256')
    await check(`$pbkdf2-sha256$2000$${ab64(st)}$${ab64(key)}`, kp, weak, `passlib pbkdf2-sha256 salt ${saltLength}`)
  }
  for (const [text, weak] of [['b'.repeat(22), false], ['b'.repeat(12), true]]) {
    const key = node.pbkdf2Sync(pw, text, 3000, 20, 'sha1')
    await check(`pbkdf2_sha1$3000$${text}$${key.toString('base64')}`, kp, weak, `Django pbkdf2_sha1 salt ${text.length}`)
  }
  // What hash writes is never flagged under its own policy.
  for (const algorithm of password.algorithms) {
    const policy = password.createPolicy({ ...SMALL_VALUES, algorithm })
    t.false(password.needsRehash(password.hashSync(pw, { policy }), { policy }), algorithm)
  }
})

test('non-canonical base64: refused in Argon2 PHC, bcrypt and every Django format (as argon2-cffi, pyca/bcrypt and Django refuse), accepted in passlib\'s scrypt and PBKDF2 (as libpass does)', (t) => {
  const STD = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
  const BC = './ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
  const AB = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789./'
  const bump = (field, alphabet) => field.slice(0, -1) + alphabet[alphabet.indexOf(field.at(-1)) + 1]
  /** The field `i` of `stored` (split on '$') with the lowest unused bit of its last character set. */
  const spell = (stored, i, alphabet, pad = '') => {
    const f = stored.split('$')
    const body = f[i].slice(0, f[i].length - pad.length)
    t.is(f[i].slice(body.length), pad)
    f[i] = bump(body, alphabet) + pad
    return f.join('$')
  }
  const bcryptSpell = (stored, at, len) => stored.slice(0, at) + bump(stored.slice(at, at + len), BC) + stored.slice(at + len)
  const all = Object.fromEntries(SOURCES.flatMap((s) => s.cases.map((c) => [c.id, c])))
  const pick = (id) => all[id]
  const refused = (c, stored, what) => {
    t.true(password.verifySync(c.password, c.hash, { policy: SMALL }).valid, `${what}: the stored hash`)
    const err = t.throws(() => password.verifySync(c.password, stored, { policy: SMALL }), { instanceOf: TypeError, code: 'ERR_INVALID_ARG_VALUE' }, what)
    t.regex(err.message, /not canonical base64/, what)
    t.throws(() => password.needsRehash(stored), { code: 'ERR_INVALID_ARG_VALUE' }, what)
  }
  const accepted = (c, stored, what) => {
    t.not(stored, c.hash)
    t.true(password.verifySync(c.password, stored, { policy: SMALL }).valid, what)
  }
  const argon = pick('argon2id-weak-ascii')
  refused(argon, spell(argon.hash, 4, STD), 'Argon2 PHC salt')
  refused(argon, spell(argon.hash, 5, STD), 'Argon2 PHC hash')
  const dArgon = Object.values(all).find((c) => c.hash.startsWith('argon2$') && c.strength === 'weak')
  refused(dArgon, spell(dArgon.hash, 4, STD), 'Django argon2$ salt')
  const bc = pick('bcrypt-2b-weak-ascii')
  refused(bc, bcryptSpell(bc.hash, 7, 22), 'bcrypt salt')
  refused(bc, bcryptSpell(bc.hash, 29, 31), 'bcrypt checksum')
  for (const prefix of ['bcrypt$', 'bcrypt_sha256$']) {
    const c = Object.values(all).find((x) => x.hash.startsWith(prefix) && x.strength === 'weak')
    refused(c, bcryptSpell(c.hash, prefix.length + 7, 22), `Django ${prefix} salt`)
  }
  for (const prefix of ['pbkdf2_sha256$', 'pbkdf2_sha1$', 'scrypt$']) {
    const c = Object.values(all).find((x) => x.hash.startsWith(prefix) && x.strength === 'weak')
    const f = c.hash.split('$')
    const last = f.length - 1
    refused(c, spell(c.hash, last, STD, f[last].match(/=*$/)[0]), `Django ${prefix} hash`)
  }
  const sc = pick('scrypt-weak-ascii')
  accepted(sc, spell(sc.hash, 3, STD), 'passlib scrypt salt')
  accepted(sc, spell(sc.hash, 4, STD), 'passlib scrypt hash')
  for (const id of ['pbkdf2-sha256-weak-ascii', 'pbkdf2-sha1-weak-ascii']) {
    const c = pick(id)
    accepted(c, spell(c.hash, 3, AB), `${id} salt`)
    accepted(c, spell(c.hash, 4, AB), `${id} hash`)
  }
})

test('the namespace is on the CommonJS and ESM entries', async (t) => {
  const esm = await import('../index.mjs')
  t.is(esm.password, password)
  t.is(esm.default.password, password)
  t.true(Object.isFrozen(password))
  t.deepEqual([...password.algorithms], ['argon2id', 'bcrypt', 'scrypt', 'pbkdf2'])
})

test('no such user: concurrent first calls share the dummy; one aborting does not fail the others', async (t) => {
  const { password: pw, calls } = instrumented()
  const policy = pw.createPolicy({ ...SMALL, algorithm: 'pbkdf2' })
  const ac = new AbortController()
  const first = pw.verify('a', null, { policy, signal: ac.signal })
  const second = pw.verify('b', null, { policy })
  ac.abort()
  const [a, b] = await Promise.allSettled([first, second])
  t.is(a.status, 'rejected')
  t.is(a.reason.name, 'AbortError')
  t.deepEqual(b, { status: 'fulfilled', value: NO_USER })
  t.is(calls.filter((c) => c.args[0] !== 'a' && c.args[0] !== 'b').length, 1, 'one dummy hash made')
})
