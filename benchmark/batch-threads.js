#!/usr/bin/env node
'use strict'
// One row of the batch suite's pool-size table (benchmark/suites/batch.js runs it once per
// UV_THREADPOOL_SIZE, which libuv reads once per process):
//
//   UV_THREADPOOL_SIZE=2 node benchmark/batch-threads.js <items> <rounds> <ms per contestant>
//
// Times, on `items` inputs of 64 KiB (views of one random buffer), sha256.batchAsync against
// as many sha256.async calls at once, as many WebCrypto digests at once (both also on the pool)
// and the synchronous sha256.batch; outputs are checked equal first. Prints one JSON line:
// { equal, rows: [{ name, rates }] } (every round's rate, rounds interleaved).
const nodeCrypto = require('node:crypto')
const { performance } = require('node:perf_hooks')
const { sha } = require('..')

const [count, rounds, ms] = process.argv.slice(2).map(Number)
const SIZE = 64 * 1024
const all = Buffer.allocUnsafe(count * SIZE)
nodeCrypto.randomFillSync(all)
const inputs = Array.from({ length: count }, (_, i) => all.subarray(i * SIZE, (i + 1) * SIZE))

const contestants = [
  { name: 'sha256.batchAsync', fn: () => sha.sha256.batchAsync(inputs) },
  { name: `${count} × sha256.async at once`, fn: () => Promise.all(inputs.map((x) => sha.sha256.async(x))) },
  {
    name: `${count} × subtle.digest at once`,
    fn: async () => (await Promise.all(inputs.map((x) => nodeCrypto.webcrypto.subtle.digest('SHA-256', x)))).map((d) => Buffer.from(d).toString('hex')),
  },
  { name: 'sha256.batch (sync, main thread)', fn: async () => sha.sha256.batch(inputs) },
]

async function main() {
  let reference
  let equal = true
  for (const c of contestants) {
    const out = (await c.fn()).join('')
    reference ??= out
    equal &&= out === reference
  }
  const rates = contestants.map(() => [])
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < contestants.length; k++) {
      const i = (k + r) % contestants.length
      let ops = 0
      const start = performance.now()
      do {
        await contestants[i].fn()
        ops++
      } while (performance.now() - start < ms / rounds)
      rates[i].push((ops * 1000) / (performance.now() - start))
    }
  }
  const rows = contestants.map((c, i) => ({ name: c.name, rates: rates[i] }))
  console.log(JSON.stringify({ equal, rows }))
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
