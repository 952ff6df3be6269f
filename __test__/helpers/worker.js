'use strict'
// Code that runs inside a worker_threads Worker for __test__/workers.spec.js. It loads the
// package in the worker and, by `workerData.mode`:
//   'hash'  hashes `workerData.inputs` `rounds` times and posts the digests (and, when the branch
//           has one, an async PBKDF2 result) back;
//   'spin'  posts 'started' and then hashes large inputs until it is terminated;
//   'spin-async'  like 'spin', but keeps async KDF calls in flight on the libuv pool.
const { parentPort, workerData } = require('node:worker_threads')
const path = require('node:path')

const api = require(path.join(__dirname, '..', '..'))
const { asyncKdf, PBKDF2_CASE } = require('./kdf-probe')

function digests(inputs) {
  return inputs.map((data) => {
    const h = api.sha.sha512.create().update(data.subarray(0, 13))
    const copy = h.copy()
    return {
      sha256: api.sha.sha256(data),
      sha512: h.update(data.subarray(13)).digest(),
      sha512Prefix: copy.digest(),
      sha3_256: api.sha.sha3_256(data, { outputFormat: 'base64' }),
      hmacSha256: api.hmac.sha256(data, { key: workerData.key }),
      md5: api.sha.md5(data),
    }
  })
}

async function main() {
  const { mode } = workerData
  const kdf = asyncKdf(api)
  if (mode === 'hash') {
    const inputs = workerData.inputs.map((b) => Buffer.from(b))
    let last
    const pending = kdf ? [kdf(PBKDF2_CASE)] : []
    for (let round = 0; round < workerData.rounds; round++) {
      const now = digests(inputs)
      if (last && JSON.stringify(now) !== JSON.stringify(last)) throw new Error(`round ${round} differs from the previous one`)
      last = now
    }
    const kdfResults = await Promise.all(pending)
    parentPort.postMessage({ digests: last, kdf: kdf ? kdfResults[0] : null })
    return
  }
  const big = Buffer.alloc(4 << 20, 0x61)
  if (mode === 'spin-async' && kdf) {
    // Keep the libuv pool busy with long derivations that are still running at terminate().
    const loop = () => kdf({ ...PBKDF2_CASE, iterations: 200_000 }).then(loop, loop)
    for (let i = 0; i < 4; i++) loop()
  }
  parentPort.postMessage('started')
  for (;;) {
    api.sha.sha256(big)
    api.sha.blake3(big)
    await new Promise((resolve) => setImmediate(resolve))
  }
}

main().catch((err) => {
  parentPort.postMessage({ error: String(err && err.stack ? err.stack : err) })
})
