'use strict'
// Worker-thread scenarios that could crash the whole process, so __test__/workers.spec.js runs
// each in its own child process and checks its exit code and signal:
//   node worker-scenarios.js worker-only     addon never loaded in the main thread: workers load
//                                            it one after another (each exits, unloading it), then
//                                            several at once
//   node worker-scenarios.js terminate       workers terminated in the middle of hashing (and of
//                                            async KDF work, when there is an async KDF), then new
//                                            workers must still work
//   node worker-scenarios.js terminate-main  the same with the addon also loaded in main
// Prints one JSON line { ok, checked, kdf, loadedInMain } and exits 0 when every result was right.
const { Worker } = require('node:worker_threads')
const path = require('node:path')
const { inputs, KEY, verify } = require('./worker-expected')

const WORKER = path.join(__dirname, 'worker.js')

function run(mode, extra = {}) {
  const worker = new Worker(WORKER, { workerData: { mode, inputs, key: KEY, rounds: 3, ...extra } })
  const messages = []
  const started = new Promise((resolve) => worker.on('message', (m) => (m === 'started' ? resolve() : messages.push(m))))
  const exited = new Promise((resolve, reject) => {
    worker.on('error', reject)
    worker.on('exit', resolve)
  })
  return { worker, messages, started, exited }
}

async function hashOnce(n) {
  const runs = Array.from({ length: n }, () => run('hash'))
  const codes = await Promise.all(runs.map((r) => r.exited))
  let checked = 0
  let kdf = false
  for (const [i, r] of runs.entries()) {
    if (codes[i] !== 0) throw new Error(`worker exited with ${codes[i]}`)
    const [msg] = r.messages
    if (!msg || msg.error) throw new Error(`worker failed: ${msg && msg.error}`)
    checked += verify(msg)
    kdf = kdf || msg.kdf !== null
  }
  return { checked, kdf }
}

async function main() {
  const scenario = process.argv[2]
  const loadedInMain = scenario === 'terminate-main'
  if (loadedInMain) require(path.join(__dirname, '..', '..')).sha.sha256('main')
  let checked = 0
  let kdf = false
  const tally = (r) => {
    checked += r.checked
    kdf = kdf || r.kdf
  }
  if (scenario === 'worker-only') {
    for (let i = 0; i < 3; i++) tally(await hashOnce(1)) // load, exit (unload), load again ...
    tally(await hashOnce(4)) // then several at once
  } else if (scenario === 'terminate' || scenario === 'terminate-main') {
    for (let round = 0; round < 2; round++) {
      const spinning = [run('spin'), run('spin'), run('spin-async'), run('spin-async')]
      await Promise.all(spinning.map((r) => r.started))
      await new Promise((resolve) => setTimeout(resolve, 100))
      const codes = await Promise.all(spinning.map((r) => r.worker.terminate()))
      if (codes.some((c) => c !== 1)) throw new Error(`terminate() gave exit codes ${codes}`)
      for (const r of spinning) if (r.messages.length) throw new Error(`spinning worker said ${JSON.stringify(r.messages)}`)
      tally(await hashOnce(2)) // the addon still works in new workers afterwards
    }
  } else {
    throw new Error(`unknown scenario ${scenario}`)
  }
  const nativeInMain = Object.keys(require.cache).some((k) => k.endsWith('.node'))
  if (nativeInMain !== loadedInMain) throw new Error(`addon loaded in main: ${nativeInMain}, expected ${loadedInMain}`)
  console.log(JSON.stringify({ ok: true, checked, kdf, loadedInMain: nativeInMain }))
}

main().catch((err) => {
  console.error(err)
  process.exitCode = 1
})
