'use strict'
// X.file() / X.fileSync() and the streaming forms beyond equality (hash-stream.spec.js): BLAKE3's
// parallel tree at its boundaries and in every mode, cancellation, progress, node-style errors,
// wrong types, and the memory bound (a child process hashing a 1 GiB file, and 256 MiB streams
// against node's createHash).
const test = require('ava')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { Readable } = require('node:stream')
const { pipeline } = require('node:stream/promises')
const { blake3: nobleBlake3 } = require('@noble/hashes/blake3')
const { sha, hmac } = require('..')
const { AbortError } = require('../lib/abort')
const { isError, rejects } = require('./helpers/assert')
const { checkChild, runChild } = require('./helpers/rss')

const DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'cryptographer-files-'))
// Large files are sparse (no disk space, and no disk reads); on tmpfs where there is one, whose
// holes read as the shared zero page from the first read on.
const BIG_DIR = fs.existsSync('/dev/shm') ? fs.mkdtempSync('/dev/shm/cryptographer-files-') : DIR
test.after.always(() => {
  fs.rmSync(DIR, { recursive: true, force: true })
  fs.rmSync(BIG_DIR, { recursive: true, force: true })
})

const MiB = 1 << 20
const DATA = sha.shake128('files', { outputLength: 9 * MiB, outputFormat: 'buffer' })

function write(name, bytes) {
  const p = path.join(DIR, name)
  fs.writeFileSync(p, bytes)
  return p
}

function sparse(name, size) {
  const p = path.join(BIG_DIR, name)
  fs.closeSync(fs.openSync(p, 'w'))
  fs.truncateSync(p, size)
  return p
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

// ---- BLAKE3 on several cores --------------------------------------------------------------

test('blake3.file: files hashed as a parallel tree (over 1 MiB) equal the one-shot digest at the tree boundaries, in every mode', async (t) => {
  const sizes = [MiB - 1, MiB, MiB + 1, MiB + 1024, MiB + 1025, 2 * MiB - 1, 2 * MiB, 2 * MiB + 1, 3 * MiB + 12345, 4 * MiB + 1, 9 * MiB]
  const key = Buffer.alloc(32, 0xa5)
  const modes = [undefined, { key }, { context: 'cryptographer.js tree test' }, { outputLength: 1 }, { key, outputLength: 131, outputFormat: 'buffer' }]
  for (const n of sizes) {
    const msg = DATA.subarray(0, n)
    const p = write(`b3-${n}.bin`, msg)
    for (const options of modes) {
      const want = sha.blake3(msg, options)
      t.deepEqual(await sha.blake3.file(p, options), want, `${n} bytes, ${JSON.stringify(options)}`)
      t.deepEqual(sha.blake3.fileSync(p, options), want, `${n} bytes, ${JSON.stringify(options)}, fileSync`)
    }
  }
  // An independent implementation, in keyed and derive-key modes, on the largest tree.
  const msg = DATA.subarray(0, 9 * MiB)
  const p = path.join(DIR, `b3-${9 * MiB}.bin`)
  t.is(await sha.blake3.file(p, { key }), Buffer.from(nobleBlake3(msg, { key })).toString('hex'))
  t.is(await sha.blake3.file(p, { context: 'ctx', outputLength: 64 }), Buffer.from(nobleBlake3(msg, { context: Buffer.from('ctx'), dkLen: 64 })).toString('hex'))
})

test('many file() calls at once (more than the libuv pool and the BLAKE3 pool have threads) all resolve, each to its digest', async (t) => {
  const files = Array.from({ length: 12 }, (_, i) => write(`many-${i}.bin`, DATA.subarray(i, 2 * MiB + i * 999)))
  const digests = await Promise.all(files.map((p, i) => (i % 2 ? sha.blake3 : sha.sha256).file(p)))
  digests.forEach((d, i) => t.is(d, (i % 2 ? sha.blake3 : sha.sha256)(DATA.subarray(i, 2 * MiB + i * 999))))
})

// ---- cancellation -------------------------------------------------------------------------

test('a pre-aborted signal rejects with AbortError before any work: no open (a missing file is not reported), no progress, no chunk pulled', async (t) => {
  const signal = AbortSignal.abort(new Error('why'))
  let calls = 0
  const onProgress = () => calls++
  const err = await t.throwsAsync(sha.sha256.file('/no/such/file', { signal, onProgress }), { instanceOf: AbortError })
  t.is(err.code, 'ABORT_ERR')
  t.is(err.cause.message, 'why')
  await t.throwsAsync(hmac.sha256.file('/no/such/file', { key: 'k', signal }), { instanceOf: AbortError })
  let pulled = 0
  const source = (async function* () {
    pulled++
    yield 'x'
  })()
  await t.throwsAsync(sha.sha256.async(source, { signal, onProgress }), { instanceOf: AbortError })
  t.is(pulled, 0)
  t.is(calls, 0)
})

// Timed tests run serially, before the others (ava runs the concurrent ones after them), so
// that no other test blocks the event loop or the pool meanwhile.
for (const [name, size] of [['sha3_512', 1024 * MiB], ['blake3', 8192 * MiB]]) {
  test.serial(`${name}.file: an abort while the file is being read rejects with AbortError long before the file would be read`, async (t) => {
    // How long the whole file takes here, from an eighth of it hashed just before: the machine's
    // load scales the bound as much as the work it separates "cancelled" from.
    const part = sparse(`abort-part-${name}.bin`, size / 8)
    const s = performance.now()
    await sha[name].file(part)
    const whole = 8 * (performance.now() - s)
    const p = sparse(`abort-${name}.bin`, size)
    const controller = new AbortController()
    let seen = 0
    const started = sha[name].file(p, { signal: controller.signal, onProgress: ({ bytes }) => (seen = bytes) })
    await sleep(60)
    const t0 = performance.now()
    controller.abort()
    const err = await t.throwsAsync(started, { instanceOf: AbortError })
    const ms = performance.now() - t0
    t.is(err.code, 'ABORT_ERR')
    // Cancellation is checked before every read (a few ms of work); a job that ignored it would
    // settle only once the rest of the file was read.
    t.true(ms < whole / 2, `rejected ${ms.toFixed(0)} ms after the abort; the whole file takes about ${whole.toFixed(0)} ms`)
    t.true(seen < size, `read ${seen} of ${size} bytes`)
    t.log(`${name}: rejected ${ms.toFixed(1)} ms after the abort (the whole file: about ${whole.toFixed(0)} ms)`)
  })
}

test.serial('async(iterable): an abort rejects at once even while the source is waiting for data, and closes the source', async (t) => {
  const controller = new AbortController()
  const stalled = new Readable({ read() {} })
  stalled.push(Buffer.alloc(1000))
  const pending = sha.sha256.async(stalled, { signal: controller.signal })
  await sleep(20)
  controller.abort()
  await t.throwsAsync(pending, { instanceOf: AbortError })
  await sleep(0)
  t.true(stalled.destroyed, 'the Readable is destroyed')

  const c2 = new AbortController()
  const never = (async function* () {
    yield 'a'
    await new Promise(() => {})
  })()
  const p2 = hmac.sha1.async(never, { key: 'k', signal: c2.signal })
  setTimeout(() => c2.abort(), 20)
  await t.throwsAsync(p2, { instanceOf: AbortError })
})

// ---- progress -----------------------------------------------------------------------------

/**
 * Runs `start(onProgress)`; returns the calls and the settle, in the order they happened, and the
 * milliseconds from the start to the settle.
 */
async function recordProgress(start) {
  const events = []
  const t0 = performance.now()
  const p = start((info) => events.push({ ...info, at: performance.now() }))
  let result
  let span
  try {
    result = await p.finally(() => {
      span = performance.now() - t0
      events.push('settled')
    })
  } catch (err) {
    result = err
  }
  await sleep(200)
  return { events, result, span }
}

function checkProgress(t, { events, span }, total) {
  const settled = events.indexOf('settled')
  t.is(settled, events.length - 1, 'no call after the Promise settled')
  const calls = events.slice(0, settled)
  for (const [i, c] of calls.entries()) {
    t.is(c.total, total, 'total')
    t.true(c.bytes > 0 && (total === undefined || c.bytes <= total), `bytes ${c.bytes}`)
    if (i > 0) t.true(c.bytes > calls[i - 1].bytes, 'bytes increase')
  }
  // At most one call per ~50 ms of the run: each is due 50 ms after the one before (by the loop's
  // millisecond clock). Two calls can still come closer than that when the first was late (a busy
  // machine), so it is their number that is bounded, not the gap between two.
  t.true(calls.length <= 1 + span / 45, `${calls.length} calls in ${span.toFixed(0)} ms`)
  return calls
}

test.serial('file(): onProgress is called on the main thread at most every ~50 ms with growing bytes and the file size, never after the Promise settles', async (t) => {
  const size = 512 * MiB
  const p = sparse('progress.bin', size)
  for (const name of ['sha256', 'blake3']) {
    const recorded = await recordProgress((onProgress) => sha[name].file(p, { onProgress }))
    t.is(recorded.result, sha[name].fileSync(p))
    const calls = checkProgress(t, recorded, size)
    if (name === 'sha256') t.true(calls.length >= 2, `${calls.length} calls`)
    t.log(`${name}: ${calls.length} progress calls`)
  }
})

test.serial('async(iterable): onProgress reports the bytes so far (no total), throttled, never after the Promise settles', async (t) => {
  const chunk = Buffer.alloc(64 * 1024, 1)
  async function* slow() {
    for (let i = 0; i < 64; i++) {
      if (i % 8 === 0) await sleep(30)
      yield chunk
    }
  }
  const recorded = await recordProgress((onProgress) => sha.sha256.async(slow(), { onProgress }))
  t.is(recorded.result, sha.sha256(Buffer.concat(Array(64).fill(chunk))))
  const calls = checkProgress(t, recorded, undefined)
  t.true(calls.length >= 2, `${calls.length} calls`)
})

test.serial('an exception thrown by onProgress cancels the work and is the rejection', async (t) => {
  const p = sparse('progress-throws.bin', 1024 * MiB)
  const boom = new Error('stop here')
  let calls = 0
  const { events, result } = await recordProgress((onProgress) =>
    sha.sha256.file(p, {
      onProgress: (info) => {
        calls++
        onProgress(info)
        throw boom
      },
    }),
  )
  t.is(result, boom)
  t.is(calls, 1)
  t.is(events.length, 2)
})

test.serial('a file that shrinks while it is hashed: BLAKE3 (hashing the size seen at open) rejects, the others read to the new end', async (t) => {
  const shrink = (p) => () => fs.truncateSync(p, 0)
  const b3 = sparse('shrinks-b3.bin', 8192 * MiB)
  await rejects(t, sha.blake3.file(b3, { onProgress: shrink(b3) }), Error, 'ERR_CRYPTO_OPERATION_FAILED')
  const other = sparse('shrinks-sha.bin', 1024 * MiB)
  const digest = await sha.sha256.file(other, { onProgress: shrink(other) })
  t.regex(digest, /^[0-9a-f]{64}$/)
})

// ---- errors -------------------------------------------------------------------------------

/** Node's own error for reading `p`, and ours, have the same code, errno, syscall and path. */
async function sameAsNode(t, p, f = sha.sha256) {
  const theirs = await t.throwsAsync(fs.promises.readFile(p))
  const ours = await t.throwsAsync(f.file(p, f === sha.sha256 ? undefined : { key: 'k' }))
  const sync = t.throws(() => f.fileSync(p, f === sha.sha256 ? undefined : { key: 'k' }))
  for (const err of [ours, sync]) {
    t.true(err instanceof Error)
    t.is(err.code, theirs.code)
    t.is(err.errno, theirs.errno)
    t.is(err.syscall, theirs.syscall)
    t.is(err.path, p)
    // Node leaves the path out of read errors' messages; ours always names it.
    t.is(err.message, theirs.path ? theirs.message : `${theirs.message} '${p}'`)
  }
  return ours
}

test('a missing file rejects as node does: ENOENT, errno, syscall open, path, message', async (t) => {
  const err = await sameAsNode(t, path.join(DIR, 'missing.bin'))
  t.is(err.code, 'ENOENT')
  t.is(err.syscall, 'open')
  await sameAsNode(t, path.join(DIR, 'missing.bin'), hmac.sha256)
})

test('a directory rejects as node does: EISDIR, syscall read', async (t) => {
  const err = await sameAsNode(t, DIR)
  t.is(err.code, 'EISDIR')
  // BLAKE3 (whose large files take another path) says the same.
  await t.throwsAsync(sha.blake3.file(DIR), { code: 'EISDIR' })
})

test('a path through a file, and an unreadable file, reject as node does (ENOTDIR, EACCES)', async (t) => {
  const f = write('plain.bin', 'x')
  // Windows reports a path through a file as not found (ERROR_PATH_NOT_FOUND), as node does there.
  t.is((await sameAsNode(t, path.join(f, 'below'))).code, process.platform === 'win32' ? 'ENOENT' : 'ENOTDIR')
  if (process.platform === 'win32' || process.getuid?.() === 0) {
    t.log('EACCES not checked: root (or Windows) reads any file')
    return
  }
  const locked = write('locked.bin', 'secret')
  fs.chmodSync(locked, 0)
  t.is((await sameAsNode(t, locked)).code, 'EACCES')
})

test('wrong argument types: file() rejects (never throws), fileSync() throws, with the usual classes and codes', async (t) => {
  const p = write('ok.bin', 'ok')
  const cases = [
    [(f) => f(123), TypeError, 'ERR_INVALID_ARG_TYPE'],
    [(f) => f(null), TypeError, 'ERR_INVALID_ARG_TYPE'],
    [(f) => f({ path: p }), TypeError, 'ERR_INVALID_ARG_TYPE'],
    [(f) => f('a\0b'), TypeError, 'ERR_INVALID_ARG_VALUE'],
    [(f) => f(p, 'hex'), TypeError, 'ERR_INVALID_ARG_TYPE'],
    [(f) => f(p, { outputFormat: 'utf16' }), TypeError, 'ERR_INVALID_ARG_VALUE'],
    [(f) => f(p, { nope: 1 }), TypeError, 'ERR_INVALID_ARG_VALUE'],
  ]
  for (const [call, Class, code] of cases) {
    await rejects(t, call(sha.sha256.file), Class, code)
    isError(t, () => call(sha.sha256.fileSync), Class, code)
  }
  await rejects(t, sha.sha256.file(p, { onProgress: 'often' }), TypeError, 'ERR_INVALID_ARG_TYPE')
  await rejects(t, sha.sha256.file(p, { signal: {} }), TypeError, 'ERR_INVALID_ARG_TYPE')
  // The synchronous form takes neither.
  isError(t, () => sha.sha256.fileSync(p, { signal: AbortSignal.timeout(1000) }), TypeError, 'ERR_INVALID_ARG_VALUE')
  await rejects(t, hmac.sha256.file(p), TypeError, 'ERR_INVALID_ARG_TYPE')
  await rejects(t, hmac.sha256.file(p, { key: 42 }), TypeError, 'ERR_INVALID_ARG_TYPE')
  await rejects(t, sha.blake3.file(p, { key: Buffer.alloc(31) }), RangeError, 'ERR_OUT_OF_RANGE')
  await rejects(t, sha.blake3.file(p, { key: Buffer.alloc(32), context: 'c' }), TypeError, 'ERR_INVALID_ARG_VALUE')
  await rejects(t, sha.sha256.async(Readable.from(['a']), { onProgress: 1 }), TypeError, 'ERR_INVALID_ARG_TYPE')
  await rejects(t, sha.sha256.async(Readable.from(['a']), { bogus: 1 }), TypeError, 'ERR_INVALID_ARG_VALUE')
  await rejects(t, hmac.sha256.async(Readable.from(['a'])), TypeError, 'ERR_INVALID_ARG_TYPE')
  isError(t, () => sha.sha256.stream({ outputFormat: 'nope' }), TypeError, 'ERR_INVALID_ARG_VALUE')
  isError(t, () => hmac.sha256.stream({}), TypeError, 'ERR_INVALID_ARG_TYPE')
})

test('a chunk that is not bytes destroys the stream with ERR_INVALID_ARG_TYPE; an async iterable rejects and its source is closed', async (t) => {
  for (const bad of [42, {}, [1, 2], true]) {
    const s = sha.sha256.stream()
    const failed = new Promise((resolve) => s.on('error', resolve))
    s.write(bad)
    const err = await failed
    t.true(err instanceof TypeError)
    t.is(err.code, 'ERR_INVALID_ARG_TYPE')
    t.regex(err.message, /"chunk" argument/)
    t.true(s.destroyed)
  }
  await rejects(t, pipeline(Readable.from([Buffer.from('a'), 42]), hmac.sha256.stream({ key: 'k' }), async (d) => { for await (const x of d) void x }), TypeError, 'ERR_INVALID_ARG_TYPE')
  const source = Readable.from([Buffer.from('a'), 42, Buffer.from('b')])
  await rejects(t, sha.sha256.async(source), TypeError, 'ERR_INVALID_ARG_TYPE')
  await sleep(0)
  t.true(source.destroyed)
  // A source that fails: its error is the rejection.
  const failing = new Readable({ read() { this.destroy(Object.assign(new Error('disk'), { code: 'EIO' })) } })
  await rejects(t, sha.sha256.async(failing), Error, 'EIO')
})

// ---- memory -------------------------------------------------------------------------------

const linux = process.platform === 'linux' && fs.existsSync('/proc/self/clear_refs') ? test : test.skip
linux('hashing a 1 GiB file raises the peak RSS by less than 32 MiB; 256 MiB through stream() and async(iterable) hold and pile up no more than node\'s createHash', (t) => {
  // What a stream leaves to V8's collector depends on the Node version: each is held to node's
  // createHash fed the same way in the same process (helpers/rss.js says how).
  const out = runChild('rss-child.js', [1024 * MiB, 256 * MiB])
  checkChild(t, out, { files: ['sha256.file', 'blake3.file', 'hmac.sha512.fileSync'], streams: ['sha256.stream', 'blake3.async(async generator)'] })
})
