'use strict'
// crypto.password.hash output verifies in libpass (the maintained passlib), an independent
// implementation of every format we write: Argon2id PHC, bcrypt $2b$, passlib's $scrypt$ and
// $pbkdf2-sha256$ / $pbkdf2-sha512$ / $pbkdf2$. (The other direction, hashes made by libpass,
// Django and PHP verified by us, is password.spec.js.) And the reference implementations' verdict
// on a stored hash spelled with non-canonical base64 is ours: argon2-cffi (the Argon2 reference
// decoder) and pyca/bcrypt refuse them, libpass accepts its own scrypt and PBKDF2 formats.
//
// Python with libpass, argon2-cffi and bcrypt is looked for in $PASSWORD_INTEROP_PYTHON, then
// target/password-venv (which .ci/run and scripts/gen-password-fixtures.py create from
// scripts/password-interop-requirements.txt), then python3 and python on PATH. Without one the
// test is skipped and says what was not checked; with PASSWORD_INTEROP_REQUIRED=1 (set by
// .ci/run once the install succeeded) it fails instead.
const test = require('ava')
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const { password } = require('..')
const { pythonCandidates } = require('./helpers/python')

const HELPER = path.join(__dirname, 'helpers', 'libpass-verify.py')
const REQUIRED = process.env.PASSWORD_INTEROP_REQUIRED === '1'

const candidates = () => pythonCandidates('PASSWORD_INTEROP_PYTHON', 'password-venv')

const run = (python, jobs) =>
  spawnSync(python, [HELPER], { input: JSON.stringify(jobs), encoding: 'utf8', timeout: 180000, maxBuffer: 1 << 24 })

/** The first Python that runs the helper, or null with the reasons. */
function findPython() {
  const tried = []
  for (const python of candidates()) {
    const r = run(python, [])
    if (r.status === 0) return { python }
    const why = r.error ? r.error.code || r.error.message : (r.stderr || '').trim().split('\n').pop() || `exit ${r.status}`
    tried.push(`${python}: ${why}`)
  }
  return { tried }
}

const found = findPython()
const NOT_CHECKED = 'that crypto.password.hash output (Argon2id, bcrypt, scrypt, PBKDF2) verifies in libpass'
if (!found.python) {
  const message =
    `[password-interop] ${REQUIRED ? 'FAIL' : 'SKIP'}: not checked ${NOT_CHECKED}: no Python with libpass, ` +
    `argon2-cffi and bcrypt (tried ${found.tried.join('; ')}). To check it: python3 -m venv target/password-venv && ` +
    'target/password-venv/bin/pip install --require-hashes --only-binary=:all: -r scripts/password-interop-requirements.txt'
  console.warn(message)
  if (REQUIRED) test('libpass interop (required by PASSWORD_INTEROP_REQUIRED=1)', (t) => t.fail(message))
}

const PASSWORDS = {
  ascii: 'correct horse battery staple',
  utf8: 'pässwörd — 密码 🔑',
  long: `${'correct horse battery staple '.repeat(2)}Tr0ub4dor&3 ünïcödé ✓ 🔑!!`, // 95 bytes
}
const WRONG = 'correct horse battery stapler'

const SMALL = password.createPolicy({
  argon2id: { memoryCost: 1024, timeCost: 2, parallelism: 1 },
  bcrypt: { rounds: 4 },
  scrypt: { N: 1024, r: 8, p: 1 },
  pbkdf2: { iterations: { sha256: 1000, sha512: 1000, sha1: 1000 } },
})

// [label, options]: small costs for every password kind, then each algorithm at the library's
// default policy once (ASCII).
const JOBS = []
for (const [kind, pw] of Object.entries(PASSWORDS)) {
  for (const options of [
    { algorithm: 'argon2id', parallelism: 2 },
    { algorithm: 'bcrypt' },
    { algorithm: 'scrypt', r: 4, p: 2 },
    { algorithm: 'pbkdf2' },
    { algorithm: 'pbkdf2', hash: 'sha512' },
    { algorithm: 'pbkdf2', hash: 'sha1' },
  ]) {
    if (options.algorithm === 'bcrypt' && kind === 'long') continue // password.hash refuses > 72 bytes for bcrypt
    JOBS.push({ label: `${JSON.stringify(options)} ${kind}`, pw, options: { ...options, policy: SMALL } })
  }
}
for (const options of [{}, { algorithm: 'bcrypt' }, { algorithm: 'scrypt' }, { algorithm: 'pbkdf2' },
  { algorithm: 'pbkdf2', hash: 'sha512' }, { algorithm: 'pbkdf2', hash: 'sha1' }]) {
  JOBS.push({ label: `${JSON.stringify(options)} at the default policy`, pw: PASSWORDS.ascii, options })
}

const SCHEME = (h) =>
  h.startsWith('$argon2id$') ? 'argon2' : h.startsWith('$2b$') ? 'bcrypt' : h.startsWith('$scrypt$') ? 'scrypt'
    : h.startsWith('$pbkdf2-sha256$') ? 'pbkdf2_sha256' : h.startsWith('$pbkdf2-sha512$') ? 'pbkdf2_sha512' : 'pbkdf2_sha1'

;(found.python ? test : test.skip)(`password.hash output verifies in libpass (${found.python || 'no Python with libpass'})`, async (t) => {
  const hashes = []
  for (const job of JOBS) hashes.push(await password.hash(job.pw, job.options))
  const r = run(found.python, JOBS.map((job, i) => ({ hash: hashes[i], password: job.pw, wrong: WRONG })))
  t.is(r.status, 0, r.stderr)
  const results = JSON.parse(r.stdout)
  t.is(results.length, JOBS.length)
  JOBS.forEach((job, i) => {
    t.is(results[i].scheme, SCHEME(hashes[i]), job.label)
    t.true(results[i].valid, `${job.label}: ${hashes[i]}`)
    t.false(results[i].wrongValid, job.label)
  })
})

// Non-canonical base64: the unused low bits of the last character of the salt or the hash set.
const BC64 = './ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
const STD64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
const AB64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789./'
/** `field` with the value of its last character + 1 (for text whose unused bits are zero: set the lowest). */
const bump = (field, alphabet) => field.slice(0, -1) + alphabet[alphabet.indexOf(field.at(-1)) + 1]

;(found.python ? test : test.skip)(`non-canonical base64: refused where argon2-cffi and pyca/bcrypt refuse, accepted where libpass accepts (${found.python || 'no Python with libpass'})`, async (t) => {
  const pw = PASSWORDS.ascii
  const jobs = []
  const add = (format, stored, ours) => jobs.push({ format, stored, ours })
  const argon = await password.hash(pw, { policy: SMALL })
  const a = argon.split('$') // ['', 'argon2id', 'v=19', 'm=..', salt, hash]
  add('argon2 salt', [...a.slice(0, 4), bump(a[4], STD64), a[5]].join('$'), 'refuse')
  add('argon2 hash', [...a.slice(0, 5), bump(a[5], STD64)].join('$'), 'refuse')
  const bc = await password.hash(pw, { algorithm: 'bcrypt', policy: SMALL })
  add('bcrypt salt', bc.slice(0, 7) + bump(bc.slice(7, 29), BC64) + bc.slice(29), 'refuse')
  add('bcrypt hash', bc.slice(0, 29) + bump(bc.slice(29), BC64), 'refuse')
  const sc = (await password.hash(pw, { algorithm: 'scrypt', policy: SMALL })).split('$')
  add('scrypt salt', [...sc.slice(0, 3), bump(sc[3], STD64), sc[4]].join('$'), 'accept')
  add('scrypt hash', [...sc.slice(0, 4), bump(sc[4], STD64)].join('$'), 'accept')
  const pb = (await password.hash(pw, { algorithm: 'pbkdf2', policy: SMALL })).split('$')
  add('pbkdf2 salt', [...pb.slice(0, 3), bump(pb[3], AB64), pb[4]].join('$'), 'accept')
  add('pbkdf2 hash', [...pb.slice(0, 4), bump(pb[4], AB64)].join('$'), 'accept')
  const r = run(found.python, jobs.map((j) => ({ hash: j.stored, password: pw })))
  t.is(r.status, 0, r.stderr)
  const theirs = JSON.parse(r.stdout)
  jobs.forEach((j, i) => {
    const ref = theirs[i]
    t.log(`${j.format}: libpass ${ref.valid}${ref.libpassWarning ? ` (warns: ${ref.libpassWarning})` : ''}` +
      `${'argon2cffi' in ref ? `; argon2-cffi ${ref.argon2cffi}` : ''}${'pycaBcrypt' in ref ? `; pyca/bcrypt ${ref.pycaBcrypt}` : ''}`)
    if (j.ours === 'refuse') {
      const reference = j.format.startsWith('argon2') ? ref.argon2cffi : ref.pycaBcrypt
      t.not(reference, true, `${j.format}: the reference refuses it`)
      const err = t.throws(() => password.verifySync(pw, j.stored, { policy: SMALL }), { code: 'ERR_INVALID_ARG_VALUE' })
      t.regex(err.message, /not canonical base64/, j.format)
    } else {
      t.is(ref.valid, true, `${j.format}: libpass accepts it`)
      t.true(password.verifySync(pw, j.stored, { policy: SMALL }).valid, j.format)
    }
  })
})
