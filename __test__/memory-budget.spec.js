'use strict'
// The process's memory budget for Argon2 and scrypt (lib/memory.js, src/budget.rs): async calls
// whose working memory does not fit wait their turn (and can be aborted while waiting), sync
// calls are refused, calls larger than the whole budget are refused, the limit can be changed;
// every kind of job that can wait (a KDF, an age file in memory and on disk, a passphrase stream
// and file) gives the right result after waiting. The tests change the process-wide limit, so
// they run one at a time; scrypt holds memory (no pooling), Argon2 last (its arenas stay pooled).
const test = require('ava')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { execFileSync } = require('node:child_process')
const nodeCrypto = require('node:crypto')
const { pipeline } = require('node:stream/promises')
const { Readable, Writable } = require('node:stream')
const crypto = require('..')

const { kdf, cipher, password, setMemoryBudget, memoryBudget } = crypto
const MiB = 2 ** 20
const LIMIT = 48 * MiB
// scrypt N = 2^15, r = 8: 128·r·(N + 2 + p) bytes, 32 MiB and a little; two do not fit in LIMIT.
const N = 2 ** 15
const scryptMemory = (p) => 128 * 8 * (N + 2 + p)
const BUSY = { code: 'ERR_CRYPTO_MEMORY_BUDGET_BUSY' }
const TOO_LARGE = { code: 'ERR_CRYPTO_MEMORY_BUDGET' }

/** Resolves once `pred()` holds (polled), or fails the test after 60 s. */
async function until(t, pred, what) {
  const end = Date.now() + 60000
  while (!pred()) {
    if (Date.now() > end) t.fail(`timed out waiting for ${what}: ${JSON.stringify(memoryBudget())}`)
    await new Promise((resolve) => setTimeout(resolve, 2))
  }
}

/**
 * A scrypt call holding 33 MiB of the budget until `release()` aborts it (p = 1024 makes it run
 * for seconds to minutes; it is never let finish). It has its lease once that much is in use:
 * under LIMIT, idle Argon2 memory (32 MiB arenas) cannot reach it, and is freed to make room.
 */
async function holdMemory(t) {
  const ac = new AbortController()
  const done = kdf.scryptAsync('hold', { salt: 'salt', N, r: 8, p: 1024, maxmem: 64 * MiB, signal: ac.signal })
  await until(t, () => memoryBudget().inUse >= scryptMemory(1024), 'the holder to lease its memory')
  return {
    async release() {
      ac.abort()
      await t.throwsAsync(done, { name: 'AbortError', code: 'ABORT_ERR' })
    },
  }
}

test.serial('the default limit, the environment variable, and bad values', (t) => {
  const defaultOf = (env) =>
    JSON.parse(
      execFileSync(process.execPath, ['-p', "JSON.stringify(require('.').memoryBudget())"], {
        cwd: path.join(__dirname, '..'),
        env: { ...process.env, ...env },
        encoding: 'utf8',
        stdio: 'pipe',
      }),
    )
  // Half the memory available to the process, between 64 MiB and 1 GiB.
  const available = Math.min(os.totalmem(), Number(process.constrainedMemory?.()) || Infinity)
  t.is(defaultOf({ CRYPTOGRAPHER_MEMORY_BUDGET: '' }).limit, Math.min(2 ** 30, Math.max(64 * MiB, Math.floor(available / 2))))
  t.deepEqual(defaultOf({ CRYPTOGRAPHER_MEMORY_BUDGET: '512M' }), { limit: 512 * MiB, inUse: 0, peak: 0, waiting: 0 })
  t.is(defaultOf({ CRYPTOGRAPHER_MEMORY_BUDGET: '2GiB' }).limit, 2 * 2 ** 30)
  t.is(defaultOf({ CRYPTOGRAPHER_MEMORY_BUDGET: '1000000' }).limit, 1000000)
  const bad = t.throws(() => defaultOf({ CRYPTOGRAPHER_MEMORY_BUDGET: '1.5G' }))
  t.regex(bad.stderr, /TypeError: The environment variable CRYPTOGRAPHER_MEMORY_BUDGET is invalid: expected a number of bytes/)
  t.regex(bad.stderr, /code: 'ERR_INVALID_ARG_VALUE'/)
  t.throws(() => setMemoryBudget('1G'), { instanceOf: TypeError, code: 'ERR_INVALID_ARG_TYPE' })
  for (const v of [-1, 1.5, NaN, 2 ** 53]) t.throws(() => setMemoryBudget(v), { instanceOf: RangeError, code: 'ERR_OUT_OF_RANGE' })
})

test.serial('larger than the whole budget: refused at once, sync and async, naming the settings', async (t) => {
  setMemoryBudget(LIMIT)
  const big = { salt: 'salt', N: 2 * N, r: 8, p: 1, maxmem: 128 * MiB }
  const e = t.throws(() => kdf.scrypt('pw', big), { instanceOf: Error, ...TOO_LARGE })
  t.regex(e.message, /^scrypt needs 67111936 bytes \(64 MiB\) of working memory, more than the whole memory budget of 50331648 bytes \(48 MiB\)/)
  t.regex(e.message, /setMemoryBudget\(bytes\) or the CRYPTOGRAPHER_MEMORY_BUDGET environment variable/)
  await t.throwsAsync(kdf.scryptAsync('pw', big), TOO_LARGE)
  const phc = '$argon2id$v=19$m=65536,t=1,p=1$c29tZXNhbHRzb21lc2FsdA$' + 'A'.repeat(43)
  await t.throwsAsync(kdf.argon2.verify('pw', phc), { ...TOO_LARGE, message: /^Argon2 needs 67108864 bytes/ })
  t.throws(() => kdf.argon2.verifySync('pw', phc), TOO_LARGE)
  t.deepEqual({ ...memoryBudget(), peak: 0 }, { limit: LIMIT, inUse: 0, peak: 0, waiting: 0 })
})

test.serial('a synchronous call that does not fit now is refused, saying why and what to do', async (t) => {
  setMemoryBudget(LIMIT)
  const stored = await password.hash('pw', { algorithm: 'scrypt', N, r: 8, p: 1 })
  const ageFile = cipher.age.encryptSync('x', { passphrase: 'pw', workFactor: 15 })
  const holder = await holdMemory(t)
  const e = t.throws(() => kdf.scrypt('pw', { salt: 'salt', N, r: 8, p: 1, maxmem: 64 * MiB }), { instanceOf: Error, ...BUSY })
  t.regex(e.message, /a synchronous call cannot wait for memory without blocking the event loop\. Use the async form/)
  t.regex(e.message, /setMemoryBudget/)
  t.throws(() => password.verifySync('pw', stored), BUSY)
  t.throws(() => cipher.age.decryptSync(ageFile, { passphrase: 'pw' }), BUSY)
  t.throws(() => cipher.age.encryptSync('x', { passphrase: 'pw', workFactor: 15 }), BUSY)
  // Small work still fits beside the holder.
  t.is(cipher.age.decryptSync(cipher.age.encryptSync('x', { passphrase: 'pw', workFactor: 10 }), { passphrase: 'pw', outputFormat: 'utf8' }), 'x')
  await holder.release()
  // The refused calls took nothing.
  t.is(memoryBudget().inUse, 0)
  t.true(password.verifySync('pw', stored).valid)
})

test.serial('abort while waiting: rejects at once with AbortError, gives back nothing it did not take', async (t) => {
  setMemoryBudget(LIMIT)
  const holder = await holdMemory(t)
  const ac = new AbortController()
  const waiter = kdf.scryptAsync('pw', { salt: 'salt', N, r: 8, p: 1, maxmem: 64 * MiB, signal: ac.signal })
  await until(t, () => memoryBudget().waiting === 1, 'the call to wait')
  const inUse = memoryBudget().inUse
  ac.abort()
  await t.throwsAsync(waiter, { name: 'AbortError', code: 'ABORT_ERR' })
  t.deepEqual([memoryBudget().waiting, memoryBudget().inUse], [0, inUse])
  await holder.release()
  t.is(memoryBudget().inUse, 0)
})

test.serial('the limit can be changed: raised, waiting calls run; lowered below one, it is refused', async (t) => {
  setMemoryBudget(LIMIT)
  const holder = await holdMemory(t)
  const options = { salt: 'salt', N, r: 8, p: 1, maxmem: 64 * MiB, keyLength: 32, outputFormat: 'buffer' }
  const waiter = kdf.scryptAsync('pw', options)
  await until(t, () => memoryBudget().waiting === 1, 'the call to wait')
  setMemoryBudget(2 * LIMIT)
  t.deepEqual(await waiter, nodeCrypto.scryptSync('pw', 'salt', 32, { N, r: 8, p: 1, maxmem: 64 * MiB }))
  t.is(memoryBudget().peak, scryptMemory(1024) + scryptMemory(1))
  setMemoryBudget(LIMIT)
  const refused = kdf.scryptAsync('pw', options)
  await until(t, () => memoryBudget().waiting === 1, 'the call to wait')
  setMemoryBudget(32 * MiB)
  await t.throwsAsync(refused, TOO_LARGE)
  await holder.release()
  t.deepEqual({ ...memoryBudget(), peak: 0 }, { limit: 32 * MiB, inUse: 0, peak: 0, waiting: 0 })
})

test.serial('every kind of job that waits for memory gives the right result after its wait', async (t) => {
  setMemoryBudget(LIMIT)
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'budget-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  const data = nodeCrypto.randomBytes(100000)
  const ageFile = cipher.age.encryptSync(data, { passphrase: 'pw', workFactor: 15 })
  fs.writeFileSync(path.join(dir, 'file.age'), ageFile)
  // Argon2id at 32 MiB for the passphrase streams.
  const streamOptions = { passphrase: 'pw', memoryCost: 32768, timeCost: 1, parallelism: 1 }
  fs.writeFileSync(path.join(dir, 'plain'), data)
  await cipher.aes.encryptFile(path.join(dir, 'plain'), path.join(dir, 'sealed'), streamOptions)
  const sealed = fs.readFileSync(path.join(dir, 'sealed'))
  const collect = async (source, transform) => {
    const out = []
    await pipeline(Readable.from([source]), transform, new Writable({ write: (c, _e, cb) => (out.push(c), cb()) }))
    return Buffer.concat(out)
  }
  const jobs = {
    'kdf.scryptAsync': async () =>
      t.deepEqual(
        await kdf.scryptAsync('pw', { salt: 'salt', N, r: 8, p: 1, maxmem: 64 * MiB, outputFormat: 'buffer' }),
        nodeCrypto.scryptSync('pw', 'salt', 64, { N, r: 8, p: 1, maxmem: 64 * MiB }),
      ),
    'age.decrypt': async () => t.deepEqual(await cipher.age.decrypt(ageFile, { passphrase: 'pw' }), data),
    'age.encrypt': async () =>
      t.deepEqual(cipher.age.decryptSync(await cipher.age.encrypt(data, { passphrase: 'pw', workFactor: 15 }), { passphrase: 'pw' }), data),
    'age.decryptFile': async () => {
      await cipher.age.decryptFile(path.join(dir, 'file.age'), path.join(dir, 'age-out'), { passphrase: 'pw' })
      t.deepEqual(fs.readFileSync(path.join(dir, 'age-out')), data)
    },
    'aes.decryptFile': async () => {
      await cipher.aes.decryptFile(path.join(dir, 'sealed'), path.join(dir, 'aes-out'), { passphrase: 'pw' })
      t.deepEqual(fs.readFileSync(path.join(dir, 'aes-out')), data)
    },
    'aes.decryptStream': async () => t.deepEqual(await collect(sealed, cipher.aes.decryptStream({ passphrase: 'pw' })), data),
    'aes.encryptFile': async () => {
      await cipher.aes.encryptFile(path.join(dir, 'plain'), path.join(dir, 'resealed'), streamOptions)
      t.deepEqual(await collect(fs.readFileSync(path.join(dir, 'resealed')), cipher.aes.decryptStream({ passphrase: 'pw' })), data)
    },
    'kdf.argon2 (hash)': async () => {
      const phc = await kdf.argon2('pw', { memoryCost: 32768, timeCost: 1, parallelism: 1 })
      t.true(kdf.argon2.verifySync('pw', phc))
    },
  }
  for (const [name, job] of Object.entries(jobs)) {
    const holder = await holdMemory(t)
    const done = job()
    await until(t, () => memoryBudget().waiting === 1, `${name} to wait`)
    await holder.release()
    await done
    t.true(memoryBudget().peak <= LIMIT, name)
  }
  t.deepEqual(fs.readdirSync(dir).sort(), ['aes-out', 'age-out', 'file.age', 'plain', 'resealed', 'sealed'])
})

test.serial('four concurrent Argon2 verifies that do not fit together run one after another, never over the limit', async (t) => {
  setMemoryBudget(LIMIT)
  // 32 MiB each: two never fit at once.
  const phc = await kdf.argon2('pw', { memoryCost: 32768, timeCost: 2, parallelism: 1 })
  setMemoryBudget(LIMIT) // the peak restarts
  let waited = 0
  const all = Promise.all([1, 2, 3, 4].map(() => kdf.argon2.verify('pw', phc)))
  let settled = false
  all.finally(() => (settled = true))
  while (!settled) {
    waited = Math.max(waited, memoryBudget().waiting)
    await new Promise((resolve) => setTimeout(resolve, 1))
  }
  t.deepEqual(await all, [true, true, true, true])
  const { peak, limit, waiting } = memoryBudget()
  t.true(waited >= 1, 'some verifies waited')
  t.true(peak <= limit && peak >= 32 * MiB, `peak ${peak}`)
  t.is(waiting, 0)
  // The same four with room for all of them: none waits.
  setMemoryBudget(4 * 32 * MiB)
  t.deepEqual(await Promise.all([1, 2, 3, 4].map(() => kdf.argon2.verify('pw', phc))), [true, true, true, true])
})

test.serial('worker threads share the process budget', async (t) => {
  setMemoryBudget(40 * MiB)
  const { Worker } = require('node:worker_threads')
  const w = new Worker("require('node:worker_threads').parentPort.postMessage(require(process.argv[2]).memoryBudget().limit)", {
    eval: true,
    argv: [path.join(__dirname, '..')],
  })
  const [limit] = await require('node:events').once(w, 'message')
  t.is(limit, 40 * MiB)
  await w.terminate()
})
