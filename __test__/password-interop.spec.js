'use strict'
// crypto.password.hash output verifies in libpass (the maintained passlib), an independent
// implementation of every format we write: Argon2id PHC, bcrypt $2b$, passlib's $scrypt$ and
// $pbkdf2-sha256$ / $pbkdf2-sha512$ / $pbkdf2$. (The other direction, hashes made by libpass,
// Django and PHP verified by us, is password.spec.js.)
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
