'use strict'
// crypto.kdf password hashing: Argon2 (RFC 9106, reference test.c, pyca extras) and bcrypt
// (openwall, jBCrypt, passlib, pyca sets); interop both ways with the npm packages `argon2`,
// `bcrypt` and `bcryptjs`; error paths; event-loop and memory behaviour.
const test = require('ava')
const nodeCrypto = require('node:crypto')
const { spawnSync } = require('node:child_process')
const { monitorEventLoopDelay } = require('node:perf_hooks')
const crypto = require('..')
const { kdf } = crypto

const { argon2, argon2Sync, bcrypt } = kdf
const vectors = require('./helpers/vectors')
const { isError, rejects } = require('./helpers/assert')
const { scaled } = require('./helpers/time')

const json = (name) => vectors.json(`kdf/${name}`)
const { hex } = vectors
const SLOW = process.env.KDF_SLOW_TESTS === '1'

/**
 * A peer npm package, or null (with a message) when it is not installed or does not load.
 * Native peers are first loaded in a child process: a broken prebuild can crash the process.
 */
function peer(name, probe) {
  try {
    require.resolve(name)
  } catch {
    console.warn(`[kdf-passwords] SKIP ${name} interop: the npm package "${name}" is not installed (npm i -D ${name})`)
    return null
  }
  if (probe) {
    const r = spawnSync(process.execPath, ['-e', probe], { cwd: __dirname, timeout: scaled(60000), encoding: 'utf8' })
    if (r.status !== 0) {
      const why = (r.stderr || '').split('\n').filter(Boolean).slice(-1)[0] || `signal ${r.signal}`
      console.warn(`[kdf-passwords] SKIP ${name} interop: the npm package "${name}" does not load here (${why})`)
      return null
    }
  }
  return require(name)
}

const peerArgon2 = peer('argon2', "require('argon2').hash('x', { memoryCost: 1024 }).then(() => process.exit(0), () => process.exit(1))")
const peerBcrypt = peer('bcrypt', "require('bcrypt').hashSync('x', 4); process.exit(0)")
const peerBcryptjs = peer('bcryptjs')
const testIf = (cond) => (cond ? test : test.skip)

// ---- Argon2 vectors -------------------------------------------------------------------------

function argon2Options(v) {
  return {
    salt: hex(v.salt),
    secret: v.secret ? hex(v.secret) : undefined,
    associatedData: v.associated_data ? hex(v.associated_data) : undefined,
    timeCost: v.iterations,
    memoryCost: v.memory_kib,
    parallelism: v.parallelism,
    keyLength: v.tag_length,
    variant: v.type,
    version: v.version,
    outputFormat: 'hex',
  }
}

test('Argon2: RFC 9106 §5 vectors (d, i, id with secret and associated data), sync and async', async (t) => {
  const tests = json('argon2_rfc9106.json').tests
  t.is(tests.length, 3)
  for (const v of tests) {
    t.is(argon2Sync(hex(v.password), argon2Options(v)), v.tag, v.type)
    t.is(await argon2(hex(v.password), argon2Options(v)), v.tag, `${v.type} async`)
  }
})

test('Argon2: pyca/OpenSSL extra vectors', (t) => {
  for (const v of json('argon2_pyca_extra.json').tests) {
    t.is(argon2Sync(hex(v.password), argon2Options(v)), v.tag, `tcId ${v.tcId}`)
  }
})

test('Argon2: reference implementation test.c vectors (raw tag, encoded string, verify)', async (t) => {
  let ran = 0
  for (const v of json('argon2_phc_reference_tests.json').tests) {
    if (v.large_ram && !SLOW) continue // 1 GiB: set KDF_SLOW_TESTS=1
    const o = argon2Options(v)
    t.is(argon2Sync(hex(v.password), o), v.tag, `tcId ${v.tcId}`)
    if (v.version === 19) t.is(argon2Sync(hex(v.password), { ...o, outputFormat: undefined }), v.encoded)
    t.true(argon2.verifySync(hex(v.password), v.encoded), `tcId ${v.tcId} verify`)
    t.false(argon2.verifySync('not the password', v.encoded), `tcId ${v.tcId} wrong password`)
    ran++
  }
  t.true(ran >= 20)
  const v = json('argon2_phc_reference_tests.json').tests[0]
  t.true(await argon2.verify(hex(v.password), v.encoded))
  t.false(await argon2.verify('nope', v.encoded))
})

test('Argon2: defaults (id, t=3, m=64 MiB, p=4, 32-byte tag, 16-byte random salt: kdf.argon2.defaults) and PHC output', async (t) => {
  const phc = await argon2('correct horse')
  const m = /^\$argon2id\$v=19\$m=65536,t=3,p=4\$([A-Za-z0-9+/]{22})\$([A-Za-z0-9+/]{43})$/.exec(phc)
  t.truthy(m, phc)
  t.not(await argon2('correct horse'), phc) // fresh salt each time
  t.true(await argon2.verify('correct horse', phc))
  t.false(await argon2.verify('correct horse ', phc))
  const info = argon2.parse(phc)
  t.deepEqual(info, { variant: 'argon2id', version: 19, memoryCost: 65536, timeCost: 3, parallelism: 4, saltLength: 16, keyLength: 32 })
  t.deepEqual({ ...argon2.defaults }, { variant: 'argon2id', memoryCost: 65536, timeCost: 3, parallelism: 4, saltLength: 16, keyLength: 32 })
  // The password policy and the passphrase streams use the same parameter set.
  t.like(crypto.password.policy.argon2id, { memoryCost: argon2.defaults.memoryCost, timeCost: argon2.defaults.timeCost, parallelism: argon2.defaults.parallelism })
  // Raw outputs with an explicit salt agree with each other and with the PHC string.
  const salt = Buffer.from(m[1], 'base64')
  const raw = argon2Sync('correct horse', { salt, outputFormat: 'buffer' })
  t.is(raw.toString('base64').replace(/=+$/, ''), m[2])
  t.is(argon2Sync('correct horse', { salt, outputFormat: 'base64' }), raw.toString('base64'))
  t.is(argon2Sync('correct horse', { salt, variant: 'argon2id', outputFormat: 'hex' }), raw.toString('hex'))
  // The plain call with a fixed salt derives what it always has (m=64 MiB, t=3, p=4): the value
  // is the `argon2` npm package's (the reference C code) for those parameters.
  t.is(
    await argon2('p@ss', { salt: '0123456789abcdef' }),
    '$argon2id$v=19$m=65536,t=3,p=4$MDEyMzQ1Njc4OWFiY2RlZg$QZzDOolypAQ3lOAWF+hA88Fk+0X1zmfQP/s0gym+2cg',
  )
  // Associated data is stored in the PHC string (data=) and used by verify.
  const withAd = argon2Sync('pw', { memoryCost: 1024, associatedData: Buffer.alloc(40, 7) })
  t.regex(withAd, /,data=BwcH/)
  t.true(argon2.verifySync('pw', withAd))
  t.false(argon2.verifySync('pw', withAd.replace(',data=BwcH', ',data=BwcI')))
  // secret is needed to verify a hash made with one.
  const withSecret = argon2Sync('pw', { memoryCost: 1024, secret: 'pepper' })
  t.true(argon2.verifySync('pw', withSecret, { secret: 'pepper' }))
  t.false(argon2.verifySync('pw', withSecret))
  t.true(await argon2.verify('pw', withSecret, { secret: 'pepper' }))
})

testIf(typeof nodeCrypto.argon2Sync === 'function')('Argon2: differential vs node:crypto.argon2Sync', (t) => {
  for (const variant of ['argon2d', 'argon2i', 'argon2id']) {
    const message = nodeCrypto.randomBytes(20)
    const nonce = nodeCrypto.randomBytes(16)
    const expected = nodeCrypto.argon2Sync(variant, { message, nonce, parallelism: 2, tagLength: 32, memory: 256, passes: 2 })
    t.is(argon2Sync(message, { salt: nonce, parallelism: 2, memoryCost: 256, timeCost: 2, variant, outputFormat: 'hex' }), expected.toString('hex'))
  }
})

test('Argon2: needsRehash', (t) => {
  const phc = argon2Sync('pw', { memoryCost: 1024, timeCost: 1, parallelism: 1 })
  t.false(argon2.needsRehash(phc, { memoryCost: 1024, timeCost: 1, parallelism: 1 }))
  t.true(argon2.needsRehash(phc, { memoryCost: 2048, timeCost: 1, parallelism: 1 }))
  t.true(argon2.needsRehash(phc, { memoryCost: 1024, timeCost: 2, parallelism: 1 }))
  t.true(argon2.needsRehash(phc, { memoryCost: 1024, timeCost: 1, parallelism: 1, variant: 'i' }))
  t.true(argon2.needsRehash(phc)) // against the defaults
  // A salt shorter than the 16 bytes argon2 draws (RFC 9106 recommends 16), at the same costs.
  const costs = { memoryCost: 1024, timeCost: 1, parallelism: 1 }
  t.false(argon2.needsRehash(argon2Sync('pw', { ...costs, salt: Buffer.alloc(16, 1) }), costs))
  t.true(argon2.needsRehash(argon2Sync('pw', { ...costs, salt: Buffer.alloc(15, 1) }), costs))
  t.true(argon2.needsRehash(argon2Sync('pw', { ...costs, salt: Buffer.alloc(8, 1) }), costs))
  const v16 = json('argon2_phc_reference_tests.json').tests[0].encoded
  t.true(argon2.needsRehash(v16, { memoryCost: 65536, timeCost: 2, parallelism: 1, variant: 'i' })) // v=16 → 19
  isError(t, () => argon2.needsRehash('$argon2id$v=19$m=1'), TypeError, 'ERR_INVALID_ARG_VALUE')
  // The rule of password.needsRehash: memory and memory × passes (one may trade for the other),
  // lanes not compared, a tag shorter than keyLength or a salt under 16 bytes needs a rehash.
  const o = { memoryCost: 1024, timeCost: 1, parallelism: 1 }
  t.false(argon2.needsRehash(argon2Sync('pw', { memoryCost: 2048, timeCost: 1 }), o), 'more memory')
  t.false(argon2.needsRehash(argon2Sync('pw', { ...o, parallelism: 4 }), o), 'other lanes')
  t.true(argon2.needsRehash(argon2Sync('pw', { memoryCost: 2048, timeCost: 1 }), { memoryCost: 1024, timeCost: 3 }), 'less memory × passes')
  t.true(argon2.needsRehash(argon2Sync('pw', { ...o, keyLength: 16 }), o), 'a 16-byte tag')
  const shortSalt = argon2Sync('pw', { ...o, salt: Buffer.alloc(8, 1) })
  t.true(argon2.needsRehash(shortSalt, o), 'an 8-byte salt')
  t.is(argon2.needsRehash(shortSalt, o), crypto.password.needsRehash(shortSalt, { policy: { argon2id: o } }))
  t.is(argon2.needsRehash(phc, o), crypto.password.needsRehash(phc, { policy: { argon2id: o } }))
})

const MALFORMED_PHC = [
  '',
  'plain text',
  '$argon2id$v=19$m=65536,t=3,p=4$c29tZXNhbHQ',
  '$argon2id$v=19$m=65536,t=3,p=4$c29tZXNhbHQ$',
  '$argon2id$v=20$m=65536,t=3,p=4$c29tZXNhbHQ$wWKIMhR9lyDFvRz9YTZweHKfbftvj+qf+YFY4NeBbtA',
  '$argon2id$v=19$m=65536,t=3$c29tZXNhbHQ$wWKIMhR9lyDFvRz9YTZweHKfbftvj+qf+YFY4NeBbtA',
  '$argon2id$v=19$m=16,t=3,p=4$c29tZXNhbHQ$wWKIMhR9lyDFvRz9YTZweHKfbftvj+qf+YFY4NeBbtA',
  '$argon2id$v=19$m=65536,t=3,p=4$c29t$wWKIMhR9lyDFvRz9YTZweHKfbftvj+qf+YFY4NeBbtA',
  '$argon2id$v=19$m=65536,t=3,p=4$c29tZXNhbHQ$wWK*',
  '$argon2x$v=19$m=65536,t=3,p=4$c29tZXNhbHQ$wWKIMhR9lyDFvRz9YTZweHKfbftvj+qf+YFY4NeBbtA',
  '$2b$10$abcdefghijklmnopqrstuu5s2v8.iXieOjg/.AySBTTZIIVFJeBui',
]

test('Argon2: error paths (class and code)', async (t) => {
  for (const s of MALFORMED_PHC) {
    isError(t, () => argon2.verifySync('pw', s), TypeError, 'ERR_INVALID_ARG_VALUE')
    await rejects(t, argon2.verify('pw', s), TypeError, 'ERR_INVALID_ARG_VALUE')
  }
  isError(t, () => argon2.verifySync('pw', 42), TypeError, 'ERR_INVALID_ARG_TYPE')
  isError(t, () => argon2.verifySync(undefined, MALFORMED_PHC[2] + '$AAAAAAAA'), TypeError, 'ERR_INVALID_ARG_TYPE')
  const o = { memoryCost: 1024 }
  isError(t, () => argon2Sync('pw', { ...o, memoryCost: 31, parallelism: 4 }), RangeError, 'ERR_OUT_OF_RANGE') // < 8 * 4
  isError(t, () => argon2Sync('pw', { ...o, memoryCost: 7 }), RangeError, 'ERR_OUT_OF_RANGE') // < 8 * 1
  // The stored hash comes second, as in every verify of the library; a PHC string given first
  // is named in the error, with the order.
  const phc = argon2Sync('pw', { memoryCost: 64, timeCost: 1 })
  t.throws(() => argon2.verifySync(phc, 'pw'), { instanceOf: TypeError, code: 'ERR_INVALID_ARG_VALUE', message: /argon2\.verify\(password, hash\)/ })
  await rejects(t, argon2.verifyAsync(phc, 'pw'), TypeError, 'ERR_INVALID_ARG_VALUE')
  isError(t, () => argon2Sync('pw', { ...o, timeCost: 0 }), RangeError, 'ERR_OUT_OF_RANGE')
  isError(t, () => argon2Sync('pw', { ...o, parallelism: 0 }), RangeError, 'ERR_OUT_OF_RANGE')
  isError(t, () => argon2Sync('pw', { ...o, parallelism: 2 ** 24 }), RangeError, 'ERR_OUT_OF_RANGE')
  isError(t, () => argon2Sync('pw', { ...o, keyLength: 3 }), RangeError, 'ERR_OUT_OF_RANGE')
  isError(t, () => argon2Sync('pw', { ...o, salt: 'short' }), RangeError, 'ERR_OUT_OF_RANGE')
  isError(t, () => argon2Sync('pw', { ...o, variant: 'argon2' }), TypeError, 'ERR_INVALID_ARG_VALUE')
  isError(t, () => argon2Sync('pw', { ...o, version: 18 }), TypeError, 'ERR_INVALID_ARG_VALUE')
  isError(t, () => argon2Sync('pw', { ...o, outputFormat: 'utf8' }), TypeError, 'ERR_INVALID_ARG_VALUE')
  isError(t, () => argon2Sync('pw', { ...o, memory: 1024 }), TypeError, 'ERR_INVALID_ARG_VALUE')
  isError(t, () => argon2Sync('pw', { ...o, timeCost: '3' }), TypeError, 'ERR_INVALID_ARG_TYPE')
  isError(t, () => argon2Sync(undefined, o), TypeError, 'ERR_INVALID_ARG_TYPE')
  isError(t, () => argon2Sync('pw', { ...o, salt: 5 }), TypeError, 'ERR_INVALID_ARG_TYPE')
  await rejects(t, argon2('pw', { memoryCost: 31 }), RangeError, 'ERR_OUT_OF_RANGE')
  await rejects(t, argon2('pw', { ...o, signal: {} }), TypeError, 'ERR_INVALID_ARG_TYPE')
})

test('Argon2: async inputs are copied; aborted signal rejects with AbortError', async (t) => {
  const pw = Buffer.from('password')
  const salt = Buffer.from('somesaltsomesalt')
  const p = argon2(pw, { salt, memoryCost: 4096, outputFormat: 'hex' })
  pw.fill(0)
  salt.fill(0)
  t.is(await p, argon2Sync('password', { salt: 'somesaltsomesalt', memoryCost: 4096, outputFormat: 'hex' }))
  const ac = new AbortController()
  ac.abort()
  const err = await t.throwsAsync(argon2('pw', { signal: ac.signal }))
  t.is(err.name, 'AbortError')
  // Aborting while it runs: the hash finishes on its thread, the promise rejects.
  const ac2 = new AbortController()
  const running = argon2('pw', { memoryCost: 65536, signal: ac2.signal })
  setTimeout(() => ac2.abort(), 20)
  t.is((await t.throwsAsync(running)).name, 'AbortError')
})

// ---- Argon2 interop -------------------------------------------------------------------------

testIf(peerArgon2)('Argon2 interop with the `argon2` npm package, both ways', async (t) => {
  for (const [variant, type] of [['id', peerArgon2.argon2id], ['i', peerArgon2.argon2i], ['d', peerArgon2.argon2d]]) {
    const theirs = await peerArgon2.hash('hunter2', { type, memoryCost: 4096, timeCost: 2, parallelism: 2 })
    t.true(await argon2.verify('hunter2', theirs), theirs)
    t.false(await argon2.verify('hunter3', theirs))
    t.false(argon2.needsRehash(theirs, { memoryCost: 4096, timeCost: 2, parallelism: 2, variant }))
    const ours = await argon2('hunter2', { variant, memoryCost: 4096, timeCost: 2, parallelism: 2 })
    t.true(await peerArgon2.verify(ours, 'hunter2'), ours)
    t.false(await peerArgon2.verify(ours, 'hunter3'))
  }
  // Secret (their `secret`) and a raw-tag comparison.
  const salt = nodeCrypto.randomBytes(16)
  const theirRaw = await peerArgon2.hash('pw', { salt, memoryCost: 2048, timeCost: 3, parallelism: 4, secret: Buffer.from('pepper'), raw: true })
  t.is(argon2Sync('pw', { salt, memoryCost: 2048, parallelism: 4, secret: 'pepper', outputFormat: 'hex' }), theirRaw.toString('hex'))
})

// ---- bcrypt vectors -------------------------------------------------------------------------

const SKIP_FLAGS = new Set(['2x_buggy_sign_extension', 'crypt_blowfish_2a_countermeasure'])
const BCRYPT_ALPHABET = './ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
const STD_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
/** The 16 salt bytes of a bcrypt string (bcrypt base64 → standard base64). */
const bcryptSalt = (h) =>
  Buffer.from(Array.from(h.slice(7, 29), (c) => STD_ALPHABET[BCRYPT_ALPHABET.indexOf(c)]).join(''), 'base64').subarray(0, 16)

test('bcrypt: openwall, jBCrypt, passlib and pyca vectors ($2a$, $2b$, $2y$; 72-byte rule)', (t) => {
  let valid = 0
  for (const v of json('bcrypt.json').tests) {
    if (v.flags.some((f) => SKIP_FLAGS.has(f))) continue
    const pw = hex(v.password)
    if (v.result === 'invalid') {
      isError(t, () => bcrypt.verify(pw, v.hash), TypeError, 'ERR_INVALID_ARG_VALUE')
      continue
    }
    t.true(bcrypt.verify(pw, v.hash), `tcId ${v.tcId} ${v.source}`)
    t.false(bcrypt.verify(Buffer.concat([Buffer.from('x'), pw]), v.hash), `tcId ${v.tcId} wrong password`)
    // Same salt and cost → the same string (apart from the $2?$ minor, ours is $2b$).
    const cost = Number(v.hash.slice(4, 6))
    const ours = bcrypt.hash(pw, { rounds: cost, salt: bcryptSalt(v.hash), truncate: true })
    t.is(ours.slice(0, 4), '$2b$')
    t.is(ours.slice(4), v.hash.slice(4), `tcId ${v.tcId} rehash`)
    valid++
  }
  t.true(valid >= 70, `${valid}`)
})

/** `field` with its last character's value + 1: for canonical text, the lowest unused bit set. */
const bump = (field, alphabet) => field.slice(0, -1) + alphabet[alphabet.indexOf(field.at(-1)) + 1]

test('non-canonical base64 in a stored Argon2 or bcrypt string (unused bits of the last character set) is refused, as the reference decoders do', async (t) => {
  const refused = (fn, what) => {
    const err = t.throws(fn, { instanceOf: TypeError, code: 'ERR_INVALID_ARG_VALUE' }, what)
    t.regex(err.message, /not canonical base64/, what)
  }
  // Argon2 PHC: salt (16 bytes: 4 unused bits), tag (32 bytes: 2 unused bits) and data=.
  const phc = argon2Sync('pw', { memoryCost: 64, timeCost: 1, parallelism: 1, associatedData: Buffer.from('data') })
  const f = phc.split('$') // ['', 'argon2id', 'v=19', 'm=..,t=..,p=..,data=..', salt, tag]
  t.true(argon2.verifySync('pw', phc))
  const data = f[3].split('data=')
  const variants = {
    salt: [...f.slice(0, 4), bump(f[4], STD_ALPHABET), f[5]].join('$'),
    tag: [...f.slice(0, 5), bump(f[5], STD_ALPHABET)].join('$'),
    'data=': [...f.slice(0, 3), `${data[0]}data=${bump(data[1], STD_ALPHABET)}`, ...f.slice(4)].join('$'),
  }
  t.is(data[1].length % 4, 2, 'data= leaves unused bits')
  for (const [what, v] of Object.entries(variants)) {
    refused(() => argon2.verifySync('pw', v), `argon2 ${what}`)
    refused(() => argon2.parse(v), `argon2.parse ${what}`)
    refused(() => argon2.needsRehash(v), `argon2.needsRehash ${what}`)
    await rejects(t, argon2.verify('pw', v), TypeError, 'ERR_INVALID_ARG_VALUE')
  }
  // Every one of the 15 other spellings of the salt's last character.
  const last = STD_ALPHABET.indexOf(f[4].at(-1))
  for (let v = last + 1; v < last + 16; v++) {
    refused(() => argon2.verifySync('pw', [...f.slice(0, 4), f[4].slice(0, -1) + STD_ALPHABET[v], f[5]].join('$')), `salt ${v}`)
  }
  // bcrypt: salt (22 characters: 4 unused bits) and checksum (31 characters: 2 unused bits).
  const h = bcrypt.hash('pw', { rounds: 4 })
  t.true(bcrypt.verify('pw', h))
  for (const [what, v] of [['salt', h.slice(0, 7) + bump(h.slice(7, 29), BCRYPT_ALPHABET) + h.slice(29)], ['checksum', h.slice(0, 29) + bump(h.slice(29), BCRYPT_ALPHABET)]]) {
    refused(() => bcrypt.verify('pw', v), `bcrypt ${what}`)
    await rejects(t, bcrypt.verifyAsync('pw', v), TypeError, 'ERR_INVALID_ARG_VALUE')
  }
})

test('bcrypt: $2x$ (crypt_blowfish bug emulation) and unknown versions are refused as malformed', (t) => {
  for (const v of json('bcrypt.json').tests.filter((v) => v.hash.startsWith('$2x$'))) {
    isError(t, () => bcrypt.verify(hex(v.password), v.hash), TypeError, 'ERR_INVALID_ARG_VALUE')
  }
})

test('bcrypt: passwords over 72 bytes need { truncate: true }; verify uses the first 72 bytes', async (t) => {
  const long = 'x'.repeat(73)
  isError(t, () => bcrypt.hash(long, { rounds: 4 }), RangeError, 'ERR_OUT_OF_RANGE')
  await rejects(t, bcrypt.hashAsync(long, { rounds: 4 }), RangeError, 'ERR_OUT_OF_RANGE')
  isError(t, () => bcrypt.hash('é'.repeat(37), { rounds: 4 }), RangeError, 'ERR_OUT_OF_RANGE') // 74 UTF-8 bytes
  t.notThrows(() => bcrypt.hash('x'.repeat(72), { rounds: 4 }))
  const h = bcrypt.hash(long, { rounds: 4, truncate: true })
  t.true(bcrypt.verify(long, h))
  t.true(bcrypt.verify('x'.repeat(72), h))
  t.true(bcrypt.verify('x'.repeat(100), h))
  t.false(bcrypt.verify('x'.repeat(71), h))
})

test('bcrypt: defaults, async forms, rounds shorthand and error paths', async (t) => {
  const h = bcrypt.hash('pw')
  t.regex(h, /^\$2b\$10\$[./A-Za-z0-9]{53}$/)
  t.is(bcrypt.rounds(h), 10)
  t.true(bcrypt.verify('pw', h))
  t.false(bcrypt.verify('pW', h))
  const h2 = await bcrypt.hashAsync('pw', 5)
  t.is(bcrypt.rounds(h2), 5)
  t.true(await bcrypt.verifyAsync('pw', h2))
  t.false(await bcrypt.verifyAsync('px', h2))
  t.not(bcrypt.hash('pw', 4), bcrypt.hash('pw', 4)) // random salts
  isError(t, () => bcrypt.hash('pw', { rounds: 3 }), RangeError, 'ERR_OUT_OF_RANGE')
  isError(t, () => bcrypt.hash('pw', { rounds: 32 }), RangeError, 'ERR_OUT_OF_RANGE')
  isError(t, () => bcrypt.hash('pw', 3), RangeError, 'ERR_OUT_OF_RANGE')
  isError(t, () => bcrypt.hash('pw', { rounds: '10' }), TypeError, 'ERR_INVALID_ARG_TYPE')
  isError(t, () => bcrypt.hash('pw', { rounds: 4, salt: Buffer.alloc(15) }), RangeError, 'ERR_OUT_OF_RANGE')
  isError(t, () => bcrypt.hash('pw', { rounds: 4, truncate: 1 }), TypeError, 'ERR_INVALID_ARG_TYPE')
  isError(t, () => bcrypt.hash('pw', { cost: 4 }), TypeError, 'ERR_INVALID_ARG_VALUE')
  isError(t, () => bcrypt.hash(undefined), TypeError, 'ERR_INVALID_ARG_TYPE')
  isError(t, () => bcrypt.verify('pw', 5), TypeError, 'ERR_INVALID_ARG_TYPE')
  for (const bad of ['', h.slice(0, 59), h + 'a', h.replace('$10$', '$1a$'), h.slice(0, 59) + '!', h.replace('$2b$', '$2c$')]) {
    isError(t, () => bcrypt.verify('pw', bad), TypeError, 'ERR_INVALID_ARG_VALUE')
    await rejects(t, bcrypt.verifyAsync('pw', bad), TypeError, 'ERR_INVALID_ARG_VALUE')
    isError(t, () => bcrypt.rounds(bad), TypeError, 'ERR_INVALID_ARG_VALUE')
  }
  // Cancel a running cost-20 hash (over a minute unloaded): it stops long before it would finish
  // (typically within milliseconds). The bound is 20 cost-10 hashes (1/1024 of the work each),
  // the time of one started at the abort beside it, so that a loaded machine slows both.
  const ac = new AbortController()
  const p = bcrypt.hashAsync('pw', { rounds: 20, signal: ac.signal })
  await new Promise((r) => setTimeout(r, 100))
  const t0 = performance.now()
  ac.abort()
  const [err, unit] = await Promise.all([
    t.throwsAsync(p).then((e) => ({ name: e && e.name, ms: performance.now() - t0 })),
    bcrypt.hashAsync('pw', { rounds: 10 }).then(() => performance.now() - t0),
  ])
  t.is(err.name, 'AbortError')
  t.true(err.ms < 20 * unit, `settled ${err.ms.toFixed(0)} ms after the abort; a cost-10 hash beside it took ${unit.toFixed(0)} ms`)
})

// ---- bcrypt interop -------------------------------------------------------------------------

for (const [name, lib] of [['bcrypt', peerBcrypt], ['bcryptjs', peerBcryptjs]]) {
  testIf(lib)(`bcrypt interop with the \`${name}\` npm package, both ways`, async (t) => {
    for (const pw of ['', 'hunter2', 'pässwörd ✓', 'x'.repeat(72)]) {
      const theirs = lib.hashSync(pw, 5)
      t.true(bcrypt.verify(pw, theirs), theirs)
      t.false(bcrypt.verify('!' + pw, theirs))
      const ours = bcrypt.hash(pw, { rounds: 5 })
      t.true(lib.compareSync(pw, ours), ours)
      t.false(lib.compareSync('!' + pw, ours))
      t.true(await lib.compare(pw, await bcrypt.hashAsync(pw, { rounds: 4 })))
    }
    // Their $2a$ form (bcryptjs 2.x and older bcrypt wrote $2a$) verifies too.
    const theirs = lib.hashSync('pw', 4).replace(/^\$2b\$/, '$2a$')
    t.true(bcrypt.verify('pw', theirs))
    const y = lib.hashSync('pw', 4).replace(/^\$2[ab]\$/, '$2y$')
    t.true(bcrypt.verify('pw', y))
  })
}

// ---- event loop and memory ------------------------------------------------------------------

test.serial('Argon2 async: the work runs off the event loop while 8 hashes are in flight', async (t) => {
  await argon2('warm-up', { memoryCost: 65536 })
  const h = monitorEventLoopDelay({ resolution: 5 })
  const elu0 = performance.eventLoopUtilization()
  h.enable()
  const t0 = performance.now()
  await Promise.all(Array.from({ length: 8 }, (_, i) => argon2(`pw${i}`, { memoryCost: 65536 })))
  const wall = performance.now() - t0
  h.disable()
  const elu = performance.eventLoopUtilization(elu0).utilization
  const p99 = h.percentile(99) / 1e6
  t.log(
    `8 × argon2id m=64MiB: ${wall.toFixed(0)} ms; loop utilisation ${(elu * 100).toFixed(1)} %, ` +
      `delay p99 ${p99.toFixed(1)} ms, max ${(h.max / 1e6).toFixed(1)} ms`,
  )
  // The loop thread itself stays mostly idle (hashing on it would make this close to 100 %); the
  // delay figures depend on how busy the cores are, the benchmark reports them.
  t.true(elu < 0.5, `event loop utilisation ${elu}`)
})

test.serial('Argon2: RSS stays bounded over repeated calls (reused, wiped buffer)', async (t) => {
  const o = { memoryCost: 65536, parallelism: 4, salt: 'saltsaltsaltsalt' }
  await argon2('pw', o)
  const first = process.memoryUsage.rss()
  for (let i = 0; i < 15; i++) await argon2('pw', o)
  const after = process.memoryUsage.rss()
  const grow = (after - first) / 2 ** 20
  t.log(`RSS after 1 call ${(first / 2 ** 20).toFixed(0)} MiB, after 16: ${(after / 2 ** 20).toFixed(0)} MiB`)
  t.true(grow < 16, `grew ${grow.toFixed(1)} MiB`)
})
