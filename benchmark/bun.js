'use strict'
// Under Bun: cryptographer.js against Bun's own functions, in the same Bun process.
// - Hashes (SHA-1, SHA-256, SHA-512, MD5, BLAKE2b-256) at 64 B, 1 KiB and 1 MiB, hex output,
//   against Bun.CryptoHasher.hash and Bun's node:crypto createHash.
// - Password hashing and checking against Bun.password at the same parameters: Argon2id at Bun's
//   defaults (m = 64 MiB, t = 2, p = 1) and bcrypt at cost 10, as Promises (the work on a thread
//   pool) and in the Sync forms (on the calling thread). Salts are random on both sides, so the
//   hashes cannot be compared equal: before anything is timed, each side's hash must verify with
//   the other side's function, a wrong password must not, and both must carry the same parameters.
//
//   runtimes/node_modules/bun/bin/bun.exe benchmark/bun.js [--quick] [--filter regex]
//
// prints the tables; the `bun` suite (suites/bun.js) runs it as a child process and records its
// rows on the page.
const nodeCrypto = require('node:crypto')
const { childHarness, noteTable } = require('./child')
const { nodeHas } = require('./harness')

if (!process.versions.bun) {
  console.error("benchmark/bun.js times Bun's own functions: run it with Bun (runtimes/node_modules/bun/bin/bun.exe benchmark/bun.js)")
  process.exit(2)
}

const { Bun } = globalThis
const { sha, password } = require('..')

const BUN = `Bun ${Bun.version}`
const { h, done } = childHarness(`Under ${BUN}`)

const SIZES = [
  [64, '64 B'],
  [1024, '1 KiB'],
  [1024 * 1024, '1 MiB'],
]
// [row, ours, Bun.CryptoHasher's name (also node:crypto's under Bun, where it has it)]
const HASHES = [
  ['SHA-1', (d) => sha.sha1(d), 'sha1'],
  ['SHA-256', (d) => sha.sha256(d), 'sha256'],
  ['SHA-512', (d) => sha.sha512(d), 'sha512'],
  ['MD5', (d) => sha.md5(d), 'md5'],
  ['BLAKE2b-256', (d) => sha.blake2b(d, { outputLength: 32 }), 'blake2b256'],
]

async function hashes() {
  for (const [size, label] of SIZES) {
    const data = nodeCrypto.randomBytes(size)
    const table = `Hashes under ${BUN}, ${label}, hex output`
    for (const [row, ours, name] of HASHES) {
      await h.compare({ table, row }, [
        { name: 'cryptographer.js', fn: () => ours(data) },
        { name: 'Bun.CryptoHasher.hash', fn: () => Bun.CryptoHasher.hash(name, data, 'hex') },
        nodeHas(name) && { name: 'node:crypto createHash', fn: () => nodeCrypto.createHash(name).update(data).digest('hex') },
      ], { bytes: size })
    }
    noteTable(h, table, { lead: `Under ${BUN}, against its Bun.CryptoHasher and its node:crypto` })
  }
}

const PASSWORD = 'correct horse battery staple'
const WRONG = 'correct horse battery stapler'
/** The parameters of a stored hash: Argon2's `m=..,t=..,p=..`, bcrypt's cost. */
const paramsOf = (stored) => (/^\$argon2id\$v=19\$(m=\d+,t=\d+,p=\d+)\$/.exec(stored) || /^\$2[aby]\$(\d\d)\$/.exec(stored) || [])[1] || null

/**
 * Before a pair of password rows is timed: both hashes carry `params`, each verifies with the
 * other side's function and a wrong password with neither. Failures are the run's; returns
 * whether all held.
 */
async function crossChecked(kind, params, ours, bun) {
  const checks = [
    [`our hash has ${params}`, paramsOf(ours) === params],
    [`Bun's hash has ${params}`, paramsOf(bun) === params],
    ['Bun.password.verify accepts our hash', (await Bun.password.verify(PASSWORD, ours)) === true],
    ['Bun.password.verify refuses a wrong password against our hash', (await Bun.password.verify(WRONG, ours)) === false],
    ["password.verify accepts Bun's hash", (await password.verify(PASSWORD, bun)).valid === true],
    ["password.verify refuses a wrong password against Bun's hash", (await password.verify(WRONG, bun)).valid === false],
  ]
  const failed = checks.filter(([, ok]) => !ok)
  for (const [what] of failed) h.failures.push(`${kind}: ${what} failed (ours ${ours}, Bun's ${bun}); not timed`)
  return !failed.length
}

async function passwords() {
  const table = `Password hashing under ${BUN}: Argon2id (m = 64 MiB, t = 2, p = 1) and bcrypt (cost 10), the same parameters on both sides`
  const argon2 = { memoryCost: 65536, timeCost: 2 }
  const kinds = [
    ['Argon2id', { algorithm: 'argon2id', ...argon2, parallelism: 1 }, { algorithm: 'argon2id', ...argon2 }, 'm=65536,t=2,p=1'],
    ['bcrypt', { algorithm: 'bcrypt', rounds: 10 }, { algorithm: 'bcrypt', cost: 10 }, '10'],
  ]
  for (const [kind, ourOptions, bunOptions, params] of kinds) {
    if (!['hash', 'hashSync', 'verify', 'verifySync'].some((form) => h.selected({ table, row: `${kind} ${form}` }))) continue
    const ours = await password.hash(PASSWORD, ourOptions)
    const bun = await Bun.password.hash(PASSWORD, bunOptions)
    if (!(await crossChecked(kind, params, ours, bun))) continue
    // The hashes differ (random salts): checked above, not compared.
    await h.compare({ table, row: `${kind} hash` }, [
      { name: 'cryptographer.js', fn: () => password.hash(PASSWORD, ourOptions) },
      { name: 'Bun.password', fn: () => Bun.password.hash(PASSWORD, bunOptions) },
    ], { async: true, check: false })
    await h.compare({ table, row: `${kind} hashSync` }, [
      { name: 'cryptographer.js', fn: () => password.hashSync(PASSWORD, ourOptions) },
      { name: 'Bun.password', fn: () => Bun.password.hashSync(PASSWORD, bunOptions) },
    ], { check: false })
    // Both check the same stored hash (ours); the verdicts are compared.
    await h.compare({ table, row: `${kind} verify` }, [
      { name: 'cryptographer.js', fn: () => password.verify(PASSWORD, ours), out: (r) => String(r.valid) },
      { name: 'Bun.password', fn: () => Bun.password.verify(PASSWORD, ours), out: String },
    ], { async: true })
    await h.compare({ table, row: `${kind} verifySync` }, [
      { name: 'cryptographer.js', fn: () => password.verifySync(PASSWORD, ours), out: (r) => String(r.valid) },
      { name: 'Bun.password', fn: () => Bun.password.verifySync(PASSWORD, ours), out: String },
    ])
  }
  noteTable(h, table, { lead: `Under ${BUN}, against Bun.password` })
}

async function main() {
  await hashes()
  await passwords()
  done()
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
