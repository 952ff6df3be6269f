'use strict'
// crypto.password.verify per stored format against the crypto.kdf call it wraps (the same
// derivation and constant-time comparison, with the stored string already parsed): what parsing
// and dispatch cost. Two tables:
// - async `verify` vs the async kdf call at the library policy's parameters (what a login
//   costs): the ratio should be 1.00×, within the noise of a 0.1-0.4 s call on a shared machine;
// - `verifySync` vs the sync kdf call at minimal parameters (a derivation of a few µs, no
//   thread-pool hop whose jitter would hide microseconds), where the per-call overhead is
//   visible. Its absolute value in µs is then divided by the policy-cost time of the same format:
//   the overhead at the policy, a table of its own.
const { createHash } = require('node:crypto')
const { kdf, password, sha, timingSafeEqual } = require('../..')

const PASSWORD = 'correct horse battery staple'
const SALT = Buffer.from('0123456789abcdef')
const DJANGO_SALT = 'abcdefghijklmnopqrstuv' // Django's salts are 22 characters

const b64 = (buf) => buf.toString('base64').replace(/=+$/, '')
const ab64 = (buf) => b64(buf).replace(/\+/g, '.')
const sha256hex = (s) => createHash('sha256').update(s).digest('hex')

/**
 * One row per format: the stored string and the direct calls (parameters already parsed), async
 * and sync, at cost `c`: { argon2: {memoryCost, timeCost, parallelism}, bcrypt: rounds,
 * scrypt: {N, r, p}, pbkdf2: {sha256, sha512, sha1} }.
 */
async function formats(c) {
  const rows = []
  // Argon2id, PHC and Django.
  const phc = await kdf.argon2(PASSWORD, { ...c.argon2, variant: 'id', salt: SALT })
  const argon2 = { direct: () => kdf.argon2.verify(PASSWORD, phc), directSync: () => kdf.argon2.verifySync(PASSWORD, phc) }
  rows.push({ name: 'Argon2id PHC $argon2id$', stored: phc, ...argon2 })
  rows.push({ name: 'Django argon2$argon2id$', stored: `argon2${phc}`, ...argon2 })
  // bcrypt $2b$, $2y$ (the same hash under PHP's prefix), Django bcrypt_sha256 (bcrypt over the
  // hex SHA-256 of the password: the direct call hashes it too).
  const b = await kdf.bcrypt.hashAsync(PASSWORD, { rounds: c.bcrypt, salt: SALT })
  const y = `$2y$${b.slice(4)}`
  const bs = await kdf.bcrypt.hashAsync(sha256hex(PASSWORD), { rounds: c.bcrypt, salt: SALT })
  rows.push({
    name: 'bcrypt $2b$',
    stored: b,
    direct: () => kdf.bcrypt.verifyAsync(PASSWORD, b),
    directSync: () => kdf.bcrypt.verify(PASSWORD, b),
  })
  rows.push({
    name: 'bcrypt $2y$',
    stored: y,
    direct: () => kdf.bcrypt.verifyAsync(PASSWORD, y),
    directSync: () => kdf.bcrypt.verify(PASSWORD, y),
  })
  rows.push({
    name: 'Django bcrypt_sha256$',
    stored: `bcrypt_sha256$${bs}`,
    direct: () => kdf.bcrypt.verifyAsync(sha.sha256(PASSWORD), bs),
    directSync: () => kdf.bcrypt.verify(sha.sha256(PASSWORD), bs),
  })
  // scrypt, passlib/PHC (32-byte key) and Django (64 bytes, the salt as text).
  const { N, r, p } = c.scrypt
  const maxmem = 2 ** 30
  const scryptRow = (name, stored, salt, expected) => {
    const o = { salt, N, r, p, keyLength: expected.length, maxmem, outputFormat: 'buffer' }
    return {
      name,
      stored,
      direct: async () => timingSafeEqual(await kdf.scryptAsync(PASSWORD, o), expected),
      directSync: () => timingSafeEqual(kdf.scrypt(PASSWORD, o), expected),
    }
  }
  const s32 = await kdf.scryptAsync(PASSWORD, { salt: SALT, N, r, p, keyLength: 32, maxmem, outputFormat: 'buffer' })
  const s64 = await kdf.scryptAsync(PASSWORD, { salt: DJANGO_SALT, N, r, p, keyLength: 64, maxmem, outputFormat: 'buffer' })
  rows.push(scryptRow('scrypt $scrypt$ (passlib/PHC)', `$scrypt$ln=${Math.log2(N)},r=${r},p=${p}$${b64(SALT)}$${b64(s32)}`,
    SALT, s32))
  rows.push(scryptRow('Django scrypt$', `scrypt$${N}$${DJANGO_SALT}$${r}$${p}$${s64.toString('base64')}`, DJANGO_SALT, s64))
  // PBKDF2: passlib (three digests, adapted base64) and Django (SHA-256, SHA-1).
  const LEN = { sha256: 32, sha512: 64, sha1: 20 }
  const pbkdf2Row = async (name, hash, salt, stored) => {
    const o = { salt, iterations: c.pbkdf2[hash], keyLength: LEN[hash], hash, outputFormat: 'buffer' }
    const key = await kdf.pbkdf2Async(PASSWORD, o)
    return {
      name,
      stored: stored(c.pbkdf2[hash], key),
      direct: async () => timingSafeEqual(await kdf.pbkdf2Async(PASSWORD, o), key),
      directSync: () => timingSafeEqual(kdf.pbkdf2(PASSWORD, o), key),
    }
  }
  for (const hash of ['sha256', 'sha512', 'sha1']) {
    const ident = hash === 'sha1' ? 'pbkdf2' : `pbkdf2-${hash}`
    rows.push(await pbkdf2Row(`passlib $${ident}$`, hash, SALT, (n, key) => `$${ident}$${n}$${ab64(SALT)}$${ab64(key)}`))
  }
  for (const hash of ['sha256', 'sha1']) {
    rows.push(await pbkdf2Row(`Django pbkdf2_${hash}$`, hash, DJANGO_SALT,
      (n, key) => `pbkdf2_${hash}$${n}$${DJANGO_SALT}$${key.toString('base64')}`))
  }
  return rows
}

const POLICY = password.policy
const AT_POLICY = {
  argon2: POLICY.argon2id,
  bcrypt: POLICY.bcrypt.rounds,
  scrypt: POLICY.scrypt,
  pbkdf2: POLICY.pbkdf2.iterations,
}
const MINIMAL = {
  argon2: { memoryCost: 8, timeCost: 1, parallelism: 1 },
  bcrypt: 4,
  scrypt: { N: 2, r: 1, p: 1 },
  pbkdf2: { sha256: 1, sha512: 1, sha1: 1 },
}

async function table(h, title, rows, { sync = false, time } = {}) {
  const out = new Map()
  for (const row of rows) {
    const contestants = sync
      ? [
          { name: 'password.verifySync', fn: () => password.verifySync(PASSWORD, row.stored), out: (v) => String(v.valid) },
          { name: 'direct kdf call (sync)', ours: true, fn: row.directSync, out: (v) => String(v) },
        ]
      : [
          { name: 'password.verify', fn: () => password.verify(PASSWORD, row.stored), out: (v) => String(v.valid) },
          { name: 'direct kdf call', ours: true, fn: row.direct, out: (v) => String(v) },
        ]
    const res = await h.compare({ table: title, row: row.name }, contestants, { async: !sync, time })
    if (res && res.length === 2) out.set(row.name, res)
  }
  return out
}

module.exports = {
  title: 'Password storage (crypto.password)',
  async run(h) {
    const atPolicy = await formats(AT_POLICY)
    // Each policy-cost call takes 70-400 ms: a longer slot per contestant than the default.
    const policy = await table(h, 'password.verify vs the kdf call it wraps, at the policy parameters', atPolicy,
      { time: h.quick ? 1500 : 4000 })
    const minimal = await table(h, 'password.verifySync vs the kdf call it wraps, at minimal parameters',
      await formats(MINIMAL), { sync: true })
    // The parsing alone (what verify adds before the kdf call), in a tight loop.
    const parse = new Map()
    for (const row of atPolicy) {
      const res = await h.compare({ table: 'password.parse alone (no derivation)', row: row.name },
        [{ name: 'password.parse', fn: () => password.parse(row.stored) }], { check: false })
      if (res) parse.set(row.name, res[0])
    }
    if (!minimal.size) return
    const rows = []
    let worstShare = 0
    for (const [name, [verify, direct]] of minimal) {
      const us = 1e6 / verify.opsPerSec - 1e6 / direct.opsPerSec
      const parsed = parse.has(name) ? 1e6 / parse.get(name).opsPerSec : NaN
      const at = policy.get(name)
      const ms = at ? 1e3 / at[1].opsPerSec : null
      const worst = Math.max(us, parsed)
      const share = ms ? (worst / 1e3 / ms) * 100 : null
      // bcrypt's cost-4 call takes about a millisecond: its difference is within that call's noise.
      if (share !== null && !/bcrypt/.test(name)) worstShare = Math.max(worstShare, share)
      rows.push([name, parsed.toFixed(2), us.toFixed(2), ms ? ms.toFixed(1) : 'n/a', share === null ? 'n/a' : `${share.toFixed(4)} %`])
    }
    h.table(
      'What password.verify adds to the kdf call it wraps: parsing alone, and verifySync minus the direct sync call at minimal parameters (µs), against one call at the policy parameters',
      ['Format', 'parse µs', 'verifySync − direct µs', 'policy call ms', 'the larger, as a share of the policy call'],
      rows,
      {
        finding:
          `Reading the stored format costs at most ${worstShare.toFixed(4)} % of a login at the policy parameters: the time of a verify is the derivation's ` +
          '(bcrypt rows left out: a cost-4 call takes about a millisecond, so their difference is within its noise; their parse column is what verify adds).',
      },
    )
  },
}
