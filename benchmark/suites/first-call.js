'use strict'
// The first call: what an algorithm's first use in a process costs beyond its next calls, for
// cryptographer.js and node:crypto, each in fresh processes (benchmark/first-call-child.js),
// alternately, and the time to load the addon. BLAKE2 and SHA-3 time their candidate code paths
// on their first call and keep the faster for the process (docs/backends.md); every call pays
// for first use (code paged in, caches cold). A figure is the median over the processes.
const path = require('node:path')
const { execFileSync } = require('node:child_process')
const { fmtTime } = require('../../lib/bench/format')

const CHILD = path.join(__dirname, '..', 'first-call-child.js')
const OPS = [
  ['sha256', 'SHA-256 (64 B)'],
  ['blake2b', 'BLAKE2b (64 B)'],
  ['blake2s', 'BLAKE2s (64 B)'],
  ['sha3_256', 'SHA3-256 (64 B)'],
  ['aes-256-gcm', 'AES-256-GCM (1 KiB)'],
]
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1]
const us = (s) => (s * 1e6).toFixed(1)

module.exports = {
  title: 'The first call in a process',
  async run(h) {
    const processes = h.quick ? 5 : 15
    const rows = []
    const ops = []
    const requires = []
    for (const [op, label] of OPS) {
      if (!h.selected({ table: 'The first call', row: label })) continue
      h.onRow?.(`The first call / ${label}`)
      const runs = { ours: [], node: [] }
      for (let i = 0; i < processes; i++) {
        for (const lib of i % 2 ? ['node', 'ours'] : ['ours', 'node']) {
          runs[lib].push(JSON.parse(execFileSync(process.execPath, [CHILD, lib, op], { encoding: 'utf8' })))
        }
      }
      requires.push(...runs.ours.map((r) => r.requireSeconds))
      const fig = (list) => ({ first: median(list.map((r) => r.first)), warm: median(list.map((r) => r.warm)), extra: median(list.map((r) => r.first - r.warm)) })
      const o = fig(runs.ours)
      const n = fig(runs.node)
      rows.push([label, us(o.first), us(o.warm), us(o.extra), us(n.first), us(n.warm), us(n.extra)])
      ops.push({ op, label, oursExtra: o.extra, nodeExtra: n.extra })
    }
    if (!rows.length) return
    const requireSeconds = median(requires)
    const worst = ops.reduce((a, b) => (b.oursExtra > a.oursExtra ? b : a))
    h.fact('firstCall', {
      requireSeconds,
      processes,
      ops,
      nodeNote: `node:crypto's first calls cost ${ops.map((o) => `${o.label.split(' ')[0]} ${fmtTime(Math.max(0, o.nodeExtra))}`).join(', ')} more than its next ones.`,
    })
    h.table(
      `The first call of an algorithm in a fresh process, and the next ones (µs; medians over ${processes} processes each; loading cryptographer.js: ${fmtTime(requireSeconds)})`,
      ['Operation', 'ours first', 'ours next', 'ours extra', 'node first', 'node next', 'node extra'],
      rows,
      {
        finding:
          `Loading the addon takes ${fmtTime(requireSeconds)}; the costliest first call here is ${worst.label}, ${fmtTime(Math.max(0, worst.oursExtra))} more than the next ones. ` +
          'Where the first request\'s latency matters, call each algorithm you use once at start-up.',
      },
    )
  },
}
