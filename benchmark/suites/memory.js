'use strict'
// Seed 000's memory table, with its measuring code as written: `process.memoryUsage()` before and
// after 10,000 operations (fresh random 1 KiB input, and key and IV for the ciphers, in each),
// heap used and heap total growth; plus RSS and external-memory growth and the peak RSS. Each
// (operation, library) runs alone in a fresh child process (benchmark/memory.js, kind `ops`), so
// neither the benchmark's own buffers nor another library's garbage count.
const { peak, OPS, MiB } = require('../memory')

const N = 10000
const IMPLS = [
  ['ours', 'cryptographer.js'],
  ['node', 'node:crypto'],
  ['crypto-js', 'crypto-js'],
]
const TITLES = { sha256: 'SHA-256', sha3_256: 'SHA3-256', blake3: 'BLAKE3', 'aes-256-cbc': 'AES-256-CBC', 'aes-256-ctr': 'AES-256-CTR' }
const mb = (bytes) => (bytes / MiB).toFixed(2)

module.exports = {
  title: 'Memory (seed 000)',
  async run(h) {
    const summary = []
    const detail = []
    for (const [op, title] of Object.entries(TITLES)) {
      if (h.filter && !h.filter.test(`${title} ${op}`)) continue
      const heap = {}
      for (const [impl, name] of IMPLS) {
        if (!OPS[op][impl]) continue
        h.onRow?.(`memory: ${title}, ${name}`)
        const r = peak('ops', { op, impl, n: N })
        heap[impl] = r.growth.heapUsed
        detail.push([title, name, mb(r.growth.heapUsed), mb(r.growth.heapTotal), mb(r.growth.external), mb(r.growth.rss), mb(r.peak), r.ms.toFixed(0)])
      }
      const vs = (impl) => (heap[impl] === undefined ? 'n/a' : heap.ours > 0 ? `${(heap[impl] / heap.ours).toFixed(1)}×` : '—')
      summary.push([title, mb(heap.ours), heap['crypto-js'] === undefined ? 'n/a' : mb(heap['crypto-js']), heap.node === undefined ? 'n/a' : mb(heap.node), vs('crypto-js'), vs('node')])
    }
    if (!summary.length) return
    h.table(
      `Seed 000 memory table: heap used after ${N.toLocaleString('en')} operations (MB; its code as written, one fresh process each)`,
      ['Algorithm', 'cryptographer.js', 'crypto-js', 'node:crypto', 'crypto-js ÷ ours', 'node ÷ ours'],
      summary,
    )
    h.table(
      `Memory over ${N.toLocaleString('en')} operations: growth of each process.memoryUsage() figure and peak RSS growth (MiB)`,
      ['Algorithm', 'Library', 'heap used', 'heap total', 'external', 'RSS', 'peak RSS', 'ms'],
      detail,
    )
  },
}
