'use strict'
// Memory over 10,000 operations (fresh random 1 KiB input, and key and IV for the ciphers, in
// each): every `process.memoryUsage()` figure before and after, and the peak RSS. Each
// (operation, library) runs alone in a fresh child process (benchmark/memory.js, kind `ops`), so
// neither the benchmark's own buffers nor another library's garbage count.
const { peak, OPS, MiB } = require('../memory')

const N = 10000
const IMPLS = [
  ['ours', 'cryptographer.js'],
  ['node', 'node:crypto'],
  ['crypto-js', 'crypto-js'],
  ['node-forge', 'node-forge'],
]
const TITLES = { sha256: 'SHA-256', sha3_256: 'SHA3-256', blake3: 'BLAKE3', 'aes-256-cbc': 'AES-256-CBC', 'aes-256-ctr': 'AES-256-CTR' }
const mb = (bytes) => (bytes / MiB).toFixed(2)

module.exports = {
  title: 'Memory',
  async run(h) {
    const summary = []
    const detail = []
    const heaps = []
    for (const [op, title] of Object.entries(TITLES)) {
      if (h.filter && !h.filter.test(`${title} ${op}`)) continue
      const heap = {}
      for (const [impl, name] of IMPLS) {
        if (!OPS[op][impl]) continue
        if (impl !== 'ours' && impl !== 'node' && !h.peer(impl)) continue
        h.onRow?.(`memory: ${title}, ${name}`)
        const r = peak('ops', { op, impl, n: N })
        heap[impl] = r.growth.heapUsed
        const { initial: i, final: f, growth: g } = r
        detail.push([title, name, mb(i.heapUsed), mb(f.heapUsed), mb(g.heapUsed), mb(i.external), mb(f.external), mb(g.external), mb(i.rss), mb(f.rss), mb(g.rss), mb(r.peak), r.ms.toFixed(0)])
      }
      heaps.push({ title, heap })
      const cell = (impl) => (heap[impl] === undefined ? 'n/a' : mb(heap[impl]))
      const vs = (impl) => (heap[impl] === undefined ? 'n/a' : heap.ours > 0 ? `${(heap[impl] / heap.ours).toFixed(1)}×` : '—')
      summary.push([title, cell('ours'), cell('node'), cell('crypto-js'), cell('node-forge'), vs('node'), vs('crypto-js'), vs('node-forge')])
    }
    if (!summary.length) return
    h.table(
      `Heap used after ${N.toLocaleString('en')} operations (growth in MB; one fresh process each)`,
      ['Algorithm', 'cryptographer.js', 'node:crypto', 'crypto-js', 'node-forge', 'node ÷ ours', 'crypto-js ÷ ours', 'node-forge ÷ ours'],
      summary,
      { finding: memoryFinding(heaps) },
    )
    h.table(
      `Memory over ${N.toLocaleString('en')} operations: each process.memoryUsage() figure before (initial), after (final) and its growth, and the peak RSS growth (MiB)`,
      ['Algorithm', 'Library', 'heap initial', 'heap final', 'heap growth', 'external initial', 'external final', 'external growth', 'RSS initial', 'RSS final', 'RSS growth', 'peak RSS growth', 'ms'],
      detail,
      { finding: 'Initial is after loading the library and a warm-up of 10 operations; the heap is not collected between initial and final, so its growth is the garbage the operations left.' },
    )
  },
}

/** Which library leaves the least garbage, by how much, from the heap growths. */
function memoryFinding(heaps) {
  const least = heaps.filter(({ heap }) => Object.keys(heap).length > 1 && Object.entries(heap).every(([k, v]) => k === 'ours' || v >= heap.ours))
  const worst = heaps
    .flatMap(({ title, heap }) => Object.entries(heap).filter(([k]) => k !== 'ours').map(([k, v]) => ({ title, impl: k, x: heap.ours > 0 ? v / heap.ours : Infinity })))
    .sort((a, b) => b.x - a.x)[0]
  const parts = [`cryptographer.js leaves the least heap garbage on ${least.length} of ${heaps.length} algorithms`]
  if (worst && Number.isFinite(worst.x)) parts.push(`the most garbage beside it: ${worst.impl}, ${worst.x.toFixed(1)}× ours on ${worst.title}`)
  return `${parts.join('; ')}. Fewer collections mean fewer pauses under load.`
}
