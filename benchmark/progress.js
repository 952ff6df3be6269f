'use strict'
// Progress of a benchmark run: suite, row, elapsed time and the estimated time left. On a
// terminal, one status line kept at the bottom (redrawn around everything the run prints); when
// not a terminal (CI, a pipe), a plain line at each suite's start and at most every 30 s.
//
// The estimate comes from the same selection's last run (benchmark/results/timing.json: seconds
// per suite, keyed by mode and filter): a suite never timed before has no estimate, and says so.
const fs = require('node:fs')

const clock = (s) => {
  if (!Number.isFinite(s)) return '?'
  s = Math.max(0, Math.round(s))
  const h = Math.floor(s / 3600)
  const m = Math.floor((s % 3600) / 60)
  const sec = String(s % 60).padStart(2, '0')
  return h ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`
}

class Progress {
  /**
   * `suites`: names in run order; `key`: the selection (mode and filter) the timings are kept
   * under; `file`: where they are kept; `tty`: draw a status line (default: stdout is a TTY).
   */
  constructor({ suites, key, file, tty = Boolean(process.stdout.isTTY), stream = process.stdout }) {
    this.suites = suites
    this.key = key
    this.file = file
    this.tty = tty
    this.stream = stream
    this.history = {}
    try {
      this.history = JSON.parse(fs.readFileSync(file, 'utf8'))[key] || {}
    } catch {
      this.history = {}
    }
    this.timing = {}
    this.start = Date.now()
    this.index = -1
    this.rows = 0
    this.label = ''
    this.lastPlain = 0
  }

  elapsed() {
    return (Date.now() - this.start) / 1000
  }

  /** Seconds left, or NaN when a suite still to run has never been timed in this selection. */
  left() {
    if (this.index < 0) return NaN
    const name = this.suites[this.index]
    const inSuite = (Date.now() - this.suiteStart) / 1000
    let left = Math.max(0, (this.history[name] ?? NaN) - inSuite)
    for (const s of this.suites.slice(this.index + 1)) left += this.history[s] ?? NaN
    return left
  }

  status() {
    const name = this.suites[this.index] || ''
    const left = this.left()
    return (
      `[${this.index + 1}/${this.suites.length} ${name}] row ${this.rows}: ${this.label} · elapsed ${clock(this.elapsed())} · ` +
      (Number.isFinite(left) ? `about ${clock(left)} left` : 'time left unknown (no earlier run of this selection)')
    )
  }

  draw() {
    if (!this.tty || this.index < 0) return
    const width = (this.stream.columns || 100) - 1
    let line = this.status()
    if (line.length > width) line = `${line.slice(0, width - 1)}…`
    this.write(`\r\x1b[K\x1b[7m${line}\x1b[0m`)
  }

  plain(force) {
    if (this.tty) return
    const now = Date.now()
    if (!force && now - this.lastPlain < 30000) return
    this.lastPlain = now
    this.write(`-- progress ${this.status()}\n`)
  }

  /** On a terminal: clear the status line before anything else is printed, redraw it after. */
  attach() {
    if (!this.tty) return
    this.original = this.stream.write
    this.write = this.stream.write.bind(this.stream)
    const write = this.write
    this.stream.write = (chunk, ...rest) => {
      write('\r\x1b[K')
      const r = write(chunk, ...rest)
      if (String(chunk).endsWith('\n')) this.draw()
      return r
    }
    this.timer = setInterval(() => this.draw(), 1000)
    this.timer.unref()
  }

  write(s) {
    this.stream.write(s)
  }

  suite(index) {
    this.finishSuite()
    this.index = index
    this.suiteStart = Date.now()
    this.label = 'starting'
    this.plain(true)
    this.draw()
  }

  row(label) {
    this.rows++
    this.label = label
    this.plain(false)
    this.draw()
  }

  finishSuite() {
    if (this.index >= 0 && this.suiteStart) this.timing[this.suites[this.index]] = (Date.now() - this.suiteStart) / 1000
    this.suiteStart = 0
  }

  /** Ends the status line and keeps this run's suite times for the next estimate. */
  finish() {
    this.finishSuite()
    if (this.timer) clearInterval(this.timer)
    if (this.tty) this.write('\r\x1b[K')
    if (this.original) this.stream.write = this.original
    this.original = null
    this.index = -1
    try {
      let all = {}
      try {
        all = JSON.parse(fs.readFileSync(this.file, 'utf8'))
      } catch {
        all = {}
      }
      all[this.key] = { ...all[this.key], ...this.timing }
      fs.writeFileSync(this.file, JSON.stringify(all, null, 2))
    } catch {
      // The estimate is a convenience: a read-only results directory only loses it.
    }
    return this.timing
  }
}

module.exports = { Progress, clock }
