'use strict'
// The addon in worker_threads: loaded in main and in several workers at once, loaded only in
// workers that then exit, and in workers terminated mid-work. napi-rs addons built carelessly
// crash here (Rust TLS destructors after unload, async work outliving its environment), so the
// risky scenarios run in child processes (helpers/worker-scenarios.js) where a crash shows up as
// a signal or a non-zero exit instead of taking the test runner down.
const test = require('ava')
const path = require('node:path')
const { spawn } = require('node:child_process')
const { Worker } = require('node:worker_threads')
const api = require('..')
const { asyncKdf, PBKDF2_CASE } = require('./helpers/kdf-probe')
const { inputs, KEY, expected, expectedKdf, verify } = require('./helpers/worker-expected')

const SCENARIOS = path.join(__dirname, 'helpers', 'worker-scenarios.js')

function hashInWorker() {
  return new Promise((resolve, reject) => {
    const worker = new Worker(path.join(__dirname, 'helpers', 'worker.js'), { workerData: { mode: 'hash', inputs, key: KEY, rounds: 5 } })
    let result
    worker.on('message', (m) => (result = m))
    worker.on('error', reject)
    worker.on('exit', (code) => (code === 0 && result && !result.error ? resolve(result) : reject(new Error(`exit ${code}: ${result && result.error}`))))
  })
}

test('main thread and six workers hash at the same time, all correct', async (t) => {
  const kdf = asyncKdf(api)
  const workers = Array.from({ length: 6 }, hashInWorker)
  // The main thread keeps hashing (and deriving, when there is an async KDF) while they run.
  const mainKdf = kdf ? Promise.all([kdf(PBKDF2_CASE), kdf(PBKDF2_CASE)]) : null
  for (let round = 0; round < 5; round++) {
    for (const [i, data] of inputs.entries()) {
      t.is(api.sha.sha256(data), expected[i].sha256)
      t.is(api.hmac.sha256(data, { key: KEY }), expected[i].hmacSha256)
    }
  }
  const results = await Promise.all(workers)
  for (const r of results) t.true(verify(r) > 0)
  if (kdf) {
    t.deepEqual(await mainKdf, [expectedKdf, expectedKdf])
    t.true(results.every((r) => r.kdf === expectedKdf))
  } else {
    // No KDF family yet: hashing only. Once `api.kdf` exists its async PBKDF2 must be found.
    t.is(api.kdf, undefined, 'api.kdf exists but no async PBKDF2 was recognised: update __test__/helpers/kdf-probe.js')
    t.log('no async KDF in this build (api.kdf is absent): hashing only')
    t.true(results.every((r) => r.kdf === null))
  }
})

function scenario(name) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [SCENARIOS, name], { stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => (stdout += d))
    child.stderr.on('data', (d) => (stderr += d))
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }))
  })
}

const expectClean = (t, r) => {
  t.is(r.signal, null, `killed by ${r.signal}: ${r.stderr}`)
  t.is(r.code, 0, r.stderr)
  const out = JSON.parse(r.stdout.trim().split('\n').pop())
  t.true(out.ok)
  t.true(out.checked >= expected.length * 6)
  return out
}

test('a worker alone loads the addon, exits, and the next ones load it again (never loaded in main)', async (t) => {
  const out = expectClean(t, await scenario('worker-only'))
  t.false(out.loadedInMain)
})

test('workers terminated mid-work (sync hashing and pending async work), then new workers', async (t) => {
  expectClean(t, await scenario('terminate'))
})

test('workers terminated mid-work while the addon is also loaded in main', async (t) => {
  const out = expectClean(t, await scenario('terminate-main'))
  t.true(out.loadedInMain)
})
