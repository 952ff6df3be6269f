'use strict'
// What the diagnostics channels cost (docs/diagnostics.md): an async SHA-256 of 64 B (hashed on
// the calling thread: the async wrapper alone) and an async AES-256-GCM of 1 KiB (a round trip
// through the thread pool), each three ways, interleaved:
// - no subscriber: the library as shipped (one `hasSubscribers` check per call);
// - the hook left out: a second copy of the JS layer whose calls name no channel, so the check is
//   skipped (what the library did before the channels);
// - one subscriber: a third copy publishing on channels of its own name, with one `asyncEnd`
//   subscriber feeding a perf_hooks histogram (a timed native token, the context, five events).
// The copies share the one native addon; only lib/ is loaded again (lib/native.js is kept).
const path = require('node:path')
const fs = require('node:fs')
const Module = require('node:module')
const dc = require('node:diagnostics_channel')
const { createHistogram } = require('node:perf_hooks')
const crypto = require('../..')

const ROOT = path.join(__dirname, '..', '..')
const DIAGNOSTICS = path.join(ROOT, 'lib', 'diagnostics.js')
const KEEP = new Set([path.join(ROOT, 'lib', 'native.js'), path.join(ROOT, 'binding.js')])
const ours = (file) => file.startsWith(ROOT + path.sep) && !file.includes(`${path.sep}node_modules${path.sep}`) && !KEEP.has(file)

/** A fresh copy of the library's JS layer, its lib/diagnostics.js compiled from `source`. */
function copyWith(source) {
  const saved = {}
  for (const file of Object.keys(require.cache)) {
    if (ours(file)) {
      saved[file] = require.cache[file]
      delete require.cache[file]
    }
  }
  try {
    const m = new Module(DIAGNOSTICS, module)
    m.filename = DIAGNOSTICS
    m.paths = Module._nodeModulePaths(path.dirname(DIAGNOSTICS))
    m._compile(source, DIAGNOSTICS)
    m.loaded = true
    require.cache[DIAGNOSTICS] = m
    return require(path.join(ROOT, 'index.js'))
  } finally {
    for (const file of Object.keys(require.cache)) if (ours(file)) delete require.cache[file]
    Object.assign(require.cache, saved)
  }
}

module.exports = {
  title: 'Diagnostics channels: the cost of the hook',
  async run(h) {
    const source = fs.readFileSync(DIAGNOSTICS, 'utf8')
    const left = copyWith(`${source}\nmodule.exports.kind = () => undefined\n`)
    const NAME = '`cryptographer:${f}`'
    if (!source.includes(NAME)) throw new Error(`lib/diagnostics.js no longer names its channels ${NAME}`)
    const traced = copyWith(source.replace(NAME, '`cryptographer-bench:${f}`'))
    const histogram = createHistogram()
    const subscriber = {
      asyncEnd(ctx) {
        histogram.record(Math.max(1, Math.round((ctx.settledAt - ctx.startedAt) * 1e6)))
      },
    }
    dc.tracingChannel('cryptographer-bench:hash').subscribe(subscriber)
    dc.tracingChannel('cryptographer-bench:cipher').subscribe(subscriber)
    const table = 'Diagnostics channels: one async call without a subscriber, with the hook left out, with one subscriber'
    const small = Buffer.alloc(64, 7)
    const kib = Buffer.alloc(1024, 9)
    const gcm = { key: Buffer.alloc(32, 1), iv: Buffer.alloc(12, 2), mode: 'gcm', outputFormat: 'hex' }
    const rows = []
    try {
      rows.push(await h.compare(
        { table, row: 'async SHA-256, 64 B (computed inline)' },
        [
          { name: 'cryptographer.js, no subscriber', fn: () => crypto.sha.sha256.async(small) },
          { name: 'cryptographer.js, the hook left out', fn: () => left.sha.sha256.async(small) },
          { name: 'cryptographer.js, one subscriber', fn: () => traced.sha.sha256.async(small) },
        ],
        { bytes: 64, async: true },
      ))
      rows.push(await h.compare(
        { table, row: 'async AES-256-GCM, 1 KiB (through the thread pool)' },
        [
          { name: 'cryptographer.js, no subscriber', fn: () => crypto.cipher.aes.encryptAsync(kib, gcm) },
          { name: 'cryptographer.js, the hook left out', fn: () => left.cipher.aes.encryptAsync(kib, gcm) },
          { name: 'cryptographer.js, one subscriber', fn: () => traced.cipher.aes.encryptAsync(kib, gcm) },
        ],
        { bytes: 1024, async: true },
      ))
    } finally {
      dc.tracingChannel('cryptographer-bench:hash').unsubscribe(subscriber)
      dc.tracingChannel('cryptographer-bench:cipher').unsubscribe(subscriber)
    }
    if (rows.some(Boolean) && histogram.count === 0) throw new Error('the subscriber saw no call')
  },
}
