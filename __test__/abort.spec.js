'use strict'
// What `signal` promises (index.d.ts `AbortOptions`, README conventions): an abort that comes
// before the call's work completed rejects the Promise with an AbortError and leaves nothing
// behind; once the work completed (on the calling thread: a pool job when its result is handed
// over, where a file job renames its output into place), the result stands, even when the abort
// comes before the Promise's callbacks ran. Each case lands the abort at a chosen point, with no
// timing: from a callback registered on the native Promise itself (it runs right after the
// completion, before the library's own callbacks), from the diagnostics channel of an inner
// call, or synchronously right after the call.
const test = require('ava')
const dc = require('node:diagnostics_channel')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const nodeCrypto = require('node:crypto')
const crypto = require('..')
const native = require('../lib/native')
const { AbortError, runAsync } = require('../lib/abort')
const { runFile } = require('../lib/files')

const { sha, hmac, cipher, hybrid } = crypto
const DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'cryptographer-abort-'))
test.after.always(() => fs.rmSync(DIR, { recursive: true, force: true }))

const KEY = Buffer.alloc(32, 7)
const ABORTED = { instanceOf: AbortError, code: 'ABORT_ERR' }
const sha256 = (b) => nodeCrypto.createHash('sha256').update(b).digest()
const SHA256 = native.algorithms().find((a) => a.name === 'sha256').id
let n = 0
const fresh = (data) => {
  const dir = fs.mkdtempSync(path.join(DIR, `case-${n++}-`))
  fs.writeFileSync(path.join(dir, 'src'), data)
  return { dir, src: path.join(dir, 'src'), dst: path.join(dir, 'dst') }
}

test('work done on the calling thread completes as the call returns: an abort right after it changes nothing', async (t) => {
  // Under 16 KiB a hash, an HMAC and a batch are computed before the call returns.
  const ac = new AbortController()
  const pending = [
    sha.sha256.async('abc', { signal: ac.signal }),
    hmac.sha256.async('abc', { key: 'k', signal: ac.signal }),
    sha.sha256.batchAsync(['abc', 'de'], { signal: ac.signal }),
  ]
  ac.abort()
  t.deepEqual(await Promise.all(pending), [
    sha256('abc').toString('hex'),
    nodeCrypto.createHmac('sha256', 'k').update('abc').digest('hex'),
    [sha256('abc').toString('hex'), sha256('de').toString('hex')],
  ])
  // A pool job aborted right after the call has not completed: skipped while queued, or stopped
  // (at its next check, or as it completes) while running.
  const big = Buffer.alloc(1 << 20, 1)
  const c2 = new AbortController()
  const pooled = [sha.sha256.async(big, { signal: c2.signal }), sha.sha256.batchAsync([big, big], { signal: c2.signal })]
  c2.abort()
  for (const p of pooled) await t.throwsAsync(p, ABORTED)
})

test('a pool job that completed before the abort: its result stands, even before the Promise callbacks ran', async (t) => {
  const data = Buffer.alloc(1 << 20, 3)
  const ac = new AbortController()
  const value = await runAsync(ac.signal, (token) => {
    const p = native.hashAsync(SHA256, data, undefined, token())
    // Registered before the library's own callback: runs right after the completion.
    p.then(() => ac.abort())
    return p
  })
  t.true(ac.signal.aborted)
  t.deepEqual(value, sha256(data))
})

test('files: an abort after the output was renamed into place leaves the Promise to fulfil; one before, no output', async (t) => {
  const plain = nodeCrypto.randomBytes(200000)
  // After: from a callback on the native Promise, which settles as the rename is done.
  {
    const { dir, src, dst } = fresh(plain)
    const ac = new AbortController()
    const r = await runFile(src, dst, () => ({
      start: (from, to, token, counter) => {
        const p = native.ageFile({ decrypt: false, workFactor: 4 }, from, to, 'pw', token, counter)
        p.then(() => {
          t.true(fs.existsSync(dst), 'renamed before the Promise settles')
          ac.abort()
        })
        return p
      },
      signal: ac.signal,
    }))
    t.true(ac.signal.aborted)
    t.is(r.bytes, fs.statSync(dst).size)
    t.deepEqual(await cipher.age.decrypt(fs.readFileSync(dst), { passphrase: 'pw' }), plain)
    t.deepEqual(fs.readdirSync(dir).sort(), ['dst', 'src'], 'no temporary file')
  }
  // Before: the Promise rejects and nothing was written, whatever the pool had done.
  {
    const { dir, src, dst } = fresh(plain)
    const ac = new AbortController()
    const pending = cipher.age.encryptFile(src, dst, { passphrase: 'pw', workFactor: 4, signal: ac.signal })
    ac.abort()
    await t.throwsAsync(pending, ABORTED)
    t.deepEqual(fs.readdirSync(dir), ['src'])
  }
})

test('files: the progress counter is done as the job completes, before its Promise callbacks run (onProgress is not called after)', async (t) => {
  const { src } = fresh(Buffer.alloc(3 << 20, 9))
  const counter = new native.FileProgress()
  t.false(counter.done)
  let seen
  const p = native.hashFile(SHA256, false, src, undefined, undefined, counter)
  p.then(() => {
    seen = counter.done
  })
  t.deepEqual(await p, sha256(fs.readFileSync(src)))
  t.true(seen)
  t.is(counter.bytes, 3 << 20)
})

test.serial('files: an abort from a subscriber of the finished inner call (after its rename) leaves aes.encryptFile and hybrid.decryptFile fulfilled', async (t) => {
  const plain = nodeCrypto.randomBytes(100000)
  const channel = dc.tracingChannel(crypto.diagnosticsChannels.file)
  let armed
  const handlers = {
    asyncStart(ctx) {
      if (armed && ctx.operation === armed.operation && !('error' in ctx)) armed.ac.abort()
    },
  }
  channel.subscribe(handlers)
  try {
    const { dir, src, dst } = fresh(plain)
    armed = { operation: 'encryptFile', ac: new AbortController() }
    const r = await cipher.aes.encryptFile(src, dst, { key: KEY, signal: armed.ac.signal })
    t.true(armed.ac.signal.aborted)
    t.is(r.bytes, fs.statSync(dst).size)
    const back = path.join(dir, 'back')
    await cipher.aes.decryptFile(dst, back, { key: KEY })
    t.deepEqual(fs.readFileSync(back), plain)

    // hybrid.decryptFile is made of other calls (its own token is never used): the abort after
    // its inner decryptFile renamed `dst` must not turn it into an AbortError.
    const { publicKey, privateKey } = hybrid.generateKeypair()
    const sealed = path.join(dir, 'sealed')
    const opened = path.join(dir, 'opened')
    await hybrid.encryptFile(src, sealed, publicKey)
    armed = { operation: 'decryptFile', ac: new AbortController() }
    const o = await hybrid.decryptFile(sealed, opened, privateKey, { signal: armed.ac.signal })
    t.true(armed.ac.signal.aborted)
    t.is(o.bytes, plain.length)
    t.deepEqual(fs.readFileSync(opened), plain)
    t.false(fs.readdirSync(dir).some((f) => f.endsWith('.tmp')))
  } finally {
    channel.unsubscribe(handlers)
  }
})
