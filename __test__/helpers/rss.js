'use strict'
// Peak-RSS measurement shared by the child processes rss-child.js (hashing) and
// rss-stream-child.js (the streaming AEAD), Linux only (/proc/self/status, clear_refs), and the
// specs' call of them.
const fs = require('node:fs')
const path = require('node:path')
const { execFileSync } = require('node:child_process')
const { Readable } = require('node:stream')
const { scaled } = require('./time')

const status = (field) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(fs.readFileSync('/proc/self/status', 'utf8'))[1]) * 1024

/** A Readable of `size` bytes that hands out one reused 64 KiB buffer (its garbage is nil). */
function reusedSource(size, chunk = Buffer.alloc(64 * 1024, 0x5a)) {
  let left = size
  return new Readable({
    read() {
      const n = Math.min(left, chunk.length)
      left -= n
      this.push(n === 0 ? null : n === chunk.length ? chunk : chunk.subarray(0, n))
    },
  })
}

/**
 * Runs each case of `cases` (name -> async function) in turn and returns, per case, how far the
 * peak RSS rose above the RSS before it (in bytes) and the time it took.
 */
async function peakGrowth(cases) {
  const out = {}
  for (const [name, run] of Object.entries(cases)) {
    global.gc?.()
    fs.writeFileSync('/proc/self/clear_refs', '5') // resets the peak RSS (VmHWM) to the RSS now
    const before = status('VmRSS')
    const t0 = performance.now()
    await run()
    out[name] = { growth: status('VmHWM') - before, ms: Math.round(performance.now() - t0) }
  }
  return out
}

/**
 * Runs the child script `name` (in this folder) with `args` under --expose-gc; its JSON output.
 * `timeout` is in native milliseconds (helpers/time.js).
 */
function runChild(name, args, timeout = 120000) {
  return JSON.parse(execFileSync(process.execPath, ['--expose-gc', path.join(__dirname, name), ...args.map(String)], { encoding: 'utf8', timeout: scaled(timeout) }))
}

module.exports = { peakGrowth, reusedSource, runChild, status }
