'use strict'
// How the benchmark writes its figures: rates, times, throughputs and ratios.

function fmtOps(x) {
  if (x >= 1e6) return `${(x / 1e6).toFixed(2)} M`
  if (x >= 1e3) return `${(x / 1e3).toFixed(1)} k`
  if (x >= 10) return x.toFixed(0)
  return x.toFixed(2)
}

/** A duration in seconds with three significant digits in ns, µs, ms or s. */
function fmtTime(s) {
  const [v, unit] = s >= 1 ? [s, 's'] : s >= 1e-3 ? [s * 1e3, 'ms'] : s >= 1e-6 ? [s * 1e6, 'µs'] : [s * 1e9, 'ns']
  return `${v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2)} ${unit}`
}

const fmtMb = (x) => (x >= 100 ? x.toFixed(0) : x.toFixed(1))

const fmtRatio = (r) => (r >= 10 ? `${r.toFixed(0)}×` : `${r.toFixed(2)}×`)

/** A ratio with its interval; a tie (the interval includes 1) reads as one. */
const fmtRatioCi = (r) =>
  r.ratioLo === undefined || r.ratioLo === null
    ? fmtRatio(r.ratio)
    : `${r.verdict === 'tie' ? 'tie ' : ''}${fmtRatio(r.ratio)} [${fmtRatio(r.ratioLo)}–${fmtRatio(r.ratioHi)}]`

/**
 * Whether a record reads better as a time per operation: a slow operation (under 1,000 a second:
 * KDFs, RSA, key generation) or one with no input size (signatures, key agreement, KEMs).
 */
const showsTime = (r) => r.opsPerSec > 0 && (r.opsPerSec < 1000 || !r.bytes)

module.exports = { fmtOps, fmtTime, fmtMb, fmtRatio, fmtRatioCi, showsTime }
