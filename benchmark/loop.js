'use strict'
// One row, one process, many interleaved rounds: a quieter look at a single row than the suites'
// five rounds, for the figures the docs quote as "one process, N interleaved rounds".
//   node benchmark/loop.js cipher <mode> <bytes> [rounds]   AES-128/192/256 in `mode`: ours with a
//       fresh key, a kept key (`aes.key()`), into `options.output`, and node:crypto
//   node benchmark/loop.js hash <algorithm> <bytes> [rounds]   ours (`sha.<algorithm>`) and node's
//       createHash (e.g. `hash sha3_256 1048576`; the node name is the one with dashes, and
//       blake2b512 / blake2s256 for blake2b / blake2s)
// Prints the median MB/s of each contestant and ours (fresh key) ÷ node, with the CPU line.
const os = require('node:os')
const nodeCrypto = require('node:crypto')
const { cipher, sha, cpuPaths } = require('..')

const [kind, name, bytesArg, roundsArg] = process.argv.slice(2)
const size = Number(bytesArg)
const rounds = Number(roundsArg) || 21
if (!['cipher', 'hash'].includes(kind) || !name || !(size > 0)) {
  console.error('usage: node benchmark/loop.js cipher <mode> <bytes> [rounds] | hash <algorithm> <bytes> [rounds]')
  process.exit(2)
}

const median = (v) => [...v].sort((a, b) => a - b)[v.length >> 1]

/** Median MB/s of each contestant, timed in `rounds` interleaved rounds of `n` calls each. */
function race(contestants) {
  const n = Math.max(10, Math.round(2e7 / size))
  const mbps = Object.fromEntries(Object.keys(contestants).map((k) => [k, []]))
  for (let r = 0; r < rounds; r++) {
    for (const [k, f] of Object.entries(contestants)) {
      const t = process.hrtime.bigint()
      for (let i = 0; i < n; i++) f()
      mbps[k].push((n * size) / (Number(process.hrtime.bigint() - t) / 1e9) / 1e6)
    }
  }
  return Object.fromEntries(Object.entries(mbps).map(([k, v]) => [k, median(v)]))
}

const show = (label, m, ours, peer) =>
  console.log(`${label}: ${Object.entries(m).map(([k, v]) => `${k} ${v.toFixed(0)}`).join(', ')} MB/s; ${ours} / ${peer} ${(m[ours] / m[peer]).toFixed(2)}x`)

console.log(`${os.cpus()[0].model}; ${JSON.stringify(cpuPaths())}; Node ${process.version}; ${rounds} rounds`)
const data = nodeCrypto.randomBytes(size)
if (kind === 'cipher') {
  for (const bits of [128, 192, 256]) {
    const key = nodeCrypto.randomBytes(bits / 8)
    const iv = name === 'ecb' ? undefined : nodeCrypto.randomBytes(name === 'gcm' ? 12 : 16)
    const keptOpts = iv ? { iv, mode: name } : { mode: name }
    const opts = { key, ...keptOpts }
    const kept = cipher.aes.key(key)
    const out = Buffer.alloc(size + 16)
    const m = race({
      fresh: () => cipher.aes.encrypt(data, opts),
      kept: () => kept.encrypt(data, keptOpts),
      output: () => cipher.aes.encrypt(data, { ...opts, output: out }),
      node: () => {
        const c = nodeCrypto.createCipheriv(`aes-${bits}-${name}`, key, iv ?? null)
        const parts = [c.update(data), c.final()]
        if (name === 'gcm') parts.push(c.getAuthTag())
        return Buffer.concat(parts)
      },
    })
    show(`AES-${bits}-${name.toUpperCase()} ${size} B`, m, 'fresh', 'node')
  }
} else {
  const ours = sha[name]
  if (!ours) throw new Error(`no sha.${name}`)
  const nodeName = { blake2b: 'blake2b512', blake2s: 'blake2s256' }[name] ?? name.replace(/_/g, '-')
  const m = race({ ours: () => ours(data), node: () => nodeCrypto.createHash(nodeName).update(data).digest() })
  show(`${name} ${size} B`, m, 'ours', 'node')
}
