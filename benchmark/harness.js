'use strict'
// The benchmark's harness: the shared one (lib/bench/harness.js, also behind `npx
// cryptographer.js bench`) with the peers looked up in this folder and the series plots.
const fs = require('node:fs')
const core = require('../lib/bench/harness')

class Harness extends core.Harness {
  constructor(options = {}) {
    super({ peerPaths: [__dirname], ...options })
    /** Plots the report draws from `results` (see `plot()`). */
    this.plots = []
  }

  /**
   * A plot the report draws from this run's records of `table` (all rows, or those whose group
   * matches `rows`), one series per contestant, x from each row's `x` option:
   * `{ id, title, table, rows?, x: 'axis title', y: 'time' | 'throughput' | 'perMs' | 'ops',
   *    yTitle?, note? }`. `perMs`: x per millisecond (iterations/ms), `time`: ms per operation.
   * Tables without a plot get a dot plot.
   */
  plot(spec) {
    if (!this.plots.some((p) => p.id === spec.id)) this.plots.push({ suite: this.suite, ...spec, rows: spec.rows?.source ?? spec.rows ?? null })
  }
}

/** Writes a file of `size` random bytes at `file`, in 64 MiB pieces (so it is in the page cache). */
function makeFile(file, size) {
  const fd = fs.openSync(file, 'w')
  try {
    const piece = Buffer.allocUnsafe(Math.min(size, 64 << 20))
    for (let done = 0; done < size; done += piece.length) {
      require('node:crypto').randomFillSync(piece)
      fs.writeSync(fd, piece, 0, Math.min(piece.length, size - done))
    }
  } finally {
    fs.closeSync(fd)
  }
  return file
}

/** True when this runtime's node:crypto has the hash `name`. */
function nodeHas(name) {
  try {
    require('node:crypto').createHash(name).update('x').digest()
    return true
  } catch {
    return false
  }
}

module.exports = { ...core, Harness, makeFile, nodeHas }
