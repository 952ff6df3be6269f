'use strict'
// Bun's own password hashing and digests against ours, both ways (a differential test against an
// independent implementation, and what an application moving between Bun.password and this
// library needs): hashes Bun.password makes (Argon2id, Argon2i, Argon2d at several costs, bcrypt)
// verify with password.verify and kdf.argon2.verify / kdf.bcrypt.verify and carry the parameters
// asked for; ours (password.hash, kdf.argon2, kdf.bcrypt) verify with Bun.password.verify; a
// wrong password with neither; Bun.CryptoHasher's digests equal ours for every algorithm both
// have, at lengths around the block sizes and over 1 MiB. And the one difference: Bun's bcrypt of
// a password over 72 bytes is bcrypt of the password's SHA-512 digest (docs/runtimes.md).
//
// Bun is the one pinned in runtimes/package-lock.json (npm --prefix runtimes ci), else bun on the
// PATH. Without one the test is skipped and says what was not checked; with
// BUN_INTEROP_REQUIRED=1 (set by .ci/run, which installs it) it fails instead.
const test = require('ava')
const crypto = require('node:crypto')
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const { sha, kdf, password } = require('..')

const REQUIRED = process.env.BUN_INTEROP_REQUIRED === '1'
const HELPER = path.join(__dirname, 'helpers', 'bun-interop.mjs')
// The npm package's binary itself (not the .bin shim, a .cmd file on Windows).
const PINNED = path.join(__dirname, '..', 'runtimes', 'node_modules', 'bun', 'bin', 'bun.exe')

function findBun() {
  const tried = []
  for (const cmd of [PINNED, 'bun']) {
    const r = spawnSync(cmd, ['--version'], { encoding: 'utf8' })
    if (r.status === 0) return { cmd, version: r.stdout.trim() }
    tried.push(`${cmd}: ${r.error ? r.error.code : `exit ${r.status}`}`)
  }
  return { tried }
}

const PASSWORDS = ['correct horse battery staple', 'pässwörd — 密码 🔑']
const WRONG = 'correct horse battery stapler'
// Over bcrypt's 72 bytes: Bun.password's bcrypt hashes the password's SHA-512 digest instead.
const LONG = `${'correct horse battery staple '.repeat(3)}✓` // 90 bytes

// What Bun.password makes, and the parameters its hash must then carry (password.parse).
const BUN_HASHES = [
  [{ algorithm: 'argon2id', memoryCost: 1024, timeCost: 2 }, { algorithm: 'argon2id', params: { memoryCost: 1024, timeCost: 2 } }],
  // Bun's defaults.
  [{ algorithm: 'argon2id' }, { algorithm: 'argon2id', params: { memoryCost: 65536, timeCost: 2 } }],
  [{ algorithm: 'argon2i', memoryCost: 512, timeCost: 3 }, { algorithm: 'argon2i', params: { memoryCost: 512, timeCost: 3 } }],
  [{ algorithm: 'argon2d', memoryCost: 256, timeCost: 1 }, { algorithm: 'argon2d', params: { memoryCost: 256, timeCost: 1 } }],
  [{ algorithm: 'bcrypt', cost: 4 }, { algorithm: 'bcrypt', params: { rounds: 4 } }],
  [{ algorithm: 'bcrypt' }, { algorithm: 'bcrypt', params: { rounds: 10 } }],
]

// Ours, for Bun.password.verify: [label, make(password)].
const OUR_HASHES = [
  ['password.hash argon2id m=1024 t=2 p=1', (pw) => password.hash(pw, { algorithm: 'argon2id', memoryCost: 1024, timeCost: 2, parallelism: 1 })],
  ['password.hash argon2id m=2048 t=1 p=4', (pw) => password.hash(pw, { algorithm: 'argon2id', memoryCost: 2048, timeCost: 1, parallelism: 4 })],
  ['kdf.argon2 argon2i m=512 t=3', (pw) => kdf.argon2(pw, { variant: 'i', memoryCost: 512, timeCost: 3 })],
  ['kdf.argon2 argon2d m=256 t=1', (pw) => kdf.argon2(pw, { variant: 'd', memoryCost: 256, timeCost: 1 })],
  ['password.hash bcrypt cost 4', (pw) => password.hash(pw, { algorithm: 'bcrypt', rounds: 4 })],
  ['kdf.bcrypt.hash cost 5', async (pw) => kdf.bcrypt.hash(pw, 5)],
]

// Bun.CryptoHasher's name -> ours.
const DIGESTS = {
  md4: (d) => sha.md4(d),
  md5: (d) => sha.md5(d),
  sha1: (d) => sha.sha1(d),
  sha224: (d) => sha.sha224(d),
  sha256: (d) => sha.sha256(d),
  sha384: (d) => sha.sha384(d),
  sha512: (d) => sha.sha512(d),
  'sha512-224': (d) => sha.sha512_224(d),
  'sha512-256': (d) => sha.sha512_256(d),
  'sha3-224': (d) => sha.sha3_224(d),
  'sha3-256': (d) => sha.sha3_256(d),
  'sha3-384': (d) => sha.sha3_384(d),
  'sha3-512': (d) => sha.sha3_512(d),
  ripemd160: (d) => sha.ripemd160(d),
  blake2b256: (d) => sha.blake2b(d, { outputLength: 32 }),
  blake2b512: (d) => sha.blake2b(d),
  blake2s256: (d) => sha.blake2s(d),
}
// The ones Bun has had since Bun.CryptoHasher came: these must be there.
const CORE = ['md5', 'sha1', 'sha256', 'sha512', 'blake2b256']
const INPUTS = [0, 1, 55, 56, 64, 127, 128, 1000, (1 << 20) + 3].map((n) => crypto.randomBytes(n))

const bun = findBun()
const NOT_CHECKED = "that Bun.password's hashes verify with ours and ours with Bun.password.verify, and that Bun.CryptoHasher's digests equal ours"
if (!bun.cmd) {
  const message =
    `[bun-interop] ${REQUIRED ? 'FAIL' : 'SKIP'}: not checked ${NOT_CHECKED}: no Bun (tried ${bun.tried.join('; ')}). ` +
    'To check it: npm --prefix runtimes ci'
  console.warn(message)
  if (REQUIRED) test('Bun interop (required by BUN_INTEROP_REQUIRED=1)', (t) => t.fail(message))
  // A file without a test fails the run ("No tests found"): the skip is one, and says why.
  else test.skip(`Bun interop [skipped: no Bun; run npm --prefix runtimes ci to check it]`, () => {})
} else {
  test.before(async (t) => {
    const ours = []
    for (const pw of PASSWORDS) for (const [label, make] of OUR_HASHES) ours.push({ label, password: pw, hash: await make(pw) })
    const jobs = {
      hash: [
        ...PASSWORDS.flatMap((pw) => BUN_HASHES.map(([options]) => ({ password: pw, options }))),
        { password: LONG, options: { algorithm: 'bcrypt', cost: 4 } },
      ],
      verify: ours.flatMap((o) => [{ password: o.password, hash: o.hash }, { password: WRONG, hash: o.hash }]),
      digest: Object.keys(DIGESTS).flatMap((algorithm) => INPUTS.map((d) => ({ algorithm, hex: d.toString('hex') }))),
    }
    const r = spawnSync(bun.cmd, [HELPER], { input: JSON.stringify(jobs), encoding: 'utf8', timeout: 180000, maxBuffer: 1 << 24 })
    if (r.status !== 0) throw new Error(`${bun.cmd} ${HELPER} failed (${r.error ? r.error.message : `exit ${r.status}`}): ${r.stderr}`)
    t.context = { ours, jobs, out: JSON.parse(r.stdout) }
  })

  test(`Bun ${bun.version}: Bun.password hashes verify with password.verify and kdf.*.verify, with the parameters asked for`, async (t) => {
    const { jobs, out } = t.context
    t.is(out.hashes.length, jobs.hash.length)
    for (const [i, job] of jobs.hash.entries()) {
      if (job.password === LONG) continue
      const stored = out.hashes[i]
      const label = `${JSON.stringify(job.options)} of ${JSON.stringify(job.password)}`
      t.is(typeof stored, 'string', `${label}: ${JSON.stringify(stored)}`)
      const want = BUN_HASHES.find(([options]) => options === job.options)[1]
      const info = password.parse(stored)
      t.is(info.algorithm, want.algorithm, label)
      for (const [k, v] of Object.entries(want.params)) t.is(info.params[k], v, `${label}: ${k}`)
      const valid = await password.verify(job.password, stored)
      t.true(valid.valid, `${label}: password.verify`)
      t.false((await password.verify(WRONG, stored)).valid, `${label}: password.verify of a wrong password`)
      const direct = want.algorithm === 'bcrypt' ? kdf.bcrypt.verify(job.password, stored) : await kdf.argon2.verify(job.password, stored)
      t.true(direct, `${label}: kdf.${want.algorithm === 'bcrypt' ? 'bcrypt' : 'argon2'}.verify`)
    }
  })

  test(`Bun ${bun.version}: Bun.password's bcrypt of a password over 72 bytes is bcrypt of its SHA-512 digest, which password.verify does not take for the password`, async (t) => {
    const { jobs, out } = t.context
    const stored = out.hashes[jobs.hash.findIndex((j) => j.password === LONG)]
    t.is(typeof stored, 'string', JSON.stringify(stored))
    t.false((await password.verify(LONG, stored)).valid)
    t.false(kdf.bcrypt.verify(Buffer.from(LONG).subarray(0, 72), stored))
    t.true(kdf.bcrypt.verify(crypto.createHash('sha512').update(LONG).digest(), stored))
  })

  test(`Bun ${bun.version}: our hashes verify with Bun.password.verify, a wrong password does not`, (t) => {
    const { ours, out } = t.context
    t.is(out.verified.length, ours.length * 2)
    for (const [i, o] of ours.entries()) {
      const label = `${o.label} of ${JSON.stringify(o.password)}: ${o.hash}`
      t.is(out.verified[2 * i], true, `${label}: ${JSON.stringify(out.verified[2 * i])}`)
      t.is(out.verified[2 * i + 1], false, `${label}, wrong password: ${JSON.stringify(out.verified[2 * i + 1])}`)
    }
  })

  test(`Bun ${bun.version}: Bun.CryptoHasher's digests equal ours for every algorithm both have`, (t) => {
    const { jobs, out } = t.context
    for (const name of CORE) t.true(out.algorithms.includes(name), `Bun.CryptoHasher has ${name}`)
    const missing = Object.keys(DIGESTS).filter((name) => !out.algorithms.includes(name))
    if (missing.length) t.log(`not in Bun.CryptoHasher ${out.version}, not compared: ${missing.join(', ')}`)
    let compared = 0
    for (const [i, job] of jobs.digest.entries()) {
      if (missing.includes(job.algorithm)) continue
      const data = Buffer.from(job.hex, 'hex')
      t.is(out.digests[i], DIGESTS[job.algorithm](data), `${job.algorithm} of ${data.length} bytes`)
      compared++
    }
    t.true(compared >= CORE.length * INPUTS.length)
  })
}
