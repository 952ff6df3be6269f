'use strict'
// Statistics of the benchmark, with no dependencies (the report, the tests and `--compare` use it).
//
// A figure is the median of the interleaved rounds' rates, with its interquartile range and a
// distribution-free confidence interval for the median: the order statistics x(k) .. x(n+1-k)
// with the largest k whose binomial coverage 1 - 2·P(Bin(n, ½) < k) is at least the level asked
// (95 %). With five rounds no pair of order statistics reaches 95 %: the interval is then the
// range, whose coverage (93.75 % for five, 75 % for three rounds) is recorded with it.
//
// A ratio (ours ÷ peer) carries the same interval computed over the per-round ratios: round r of
// both contestants ran back to back (interleaved), so their quotient is a paired observation and
// the machine's drift during the run cancels. A ratio whose interval includes 1.0 is a tie.

/** Quantile of sorted numbers, linear interpolation between order statistics (R type 7). */
function quantile(sorted, p) {
  if (sorted.length === 0) return NaN
  const h = (sorted.length - 1) * p
  const lo = Math.floor(h)
  const hi = Math.ceil(h)
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (h - lo)
}

const ascending = (xs) => [...xs].sort((a, b) => a - b)
const median = (xs) => quantile(ascending(xs), 0.5)

/** P(Bin(n, 1/2) <= k). */
function binomialHalfCdf(n, k) {
  let term = 0.5 ** n // C(n, 0) / 2^n
  let sum = 0
  for (let i = 0; i <= k; i++) {
    sum += term
    term = (term * (n - i)) / (i + 1)
  }
  return sum
}

/**
 * Confidence interval for the median of `xs` from order statistics: `{ lo, hi, level }` where
 * `level` is the interval's exact coverage (at least `level` asked when the sample allows it).
 */
function medianInterval(xs, level = 0.95) {
  const s = ascending(xs)
  const n = s.length
  if (n === 0) return { lo: NaN, hi: NaN, level: 0 }
  let k = 1 // 1-based: the range
  for (let j = 2; j <= Math.floor((n + 1) / 2); j++) {
    if (1 - 2 * binomialHalfCdf(n, j - 1) >= level) k = j
    else break
  }
  return { lo: s[k - 1], hi: s[n - k], level: n === 1 ? 0 : 1 - 2 * binomialHalfCdf(n, k - 1) }
}

/** Median, quartiles and the median's interval of one contestant's per-round rates. */
function summarize(rates, level = 0.95) {
  const s = ascending(rates)
  const ci = medianInterval(s, level)
  return { median: quantile(s, 0.5), q1: quantile(s, 0.25), q3: quantile(s, 0.75), lo: ci.lo, hi: ci.hi, level: ci.level }
}

/**
 * Ours ÷ theirs from per-round rates of the same interleaved run: the ratio of the medians, and
 * the interval of the paired per-round ratios (widened to hold the point estimate, should the two
 * disagree). `verdict` is 'win' (interval above 1), 'loss' (below) or 'tie' (it includes 1).
 */
function ratioOf(ours, theirs, level = 0.95) {
  const ratio = median(ours) / median(theirs)
  const n = Math.min(ours.length, theirs.length)
  const paired = Array.from({ length: n }, (_, i) => ours[i] / theirs[i])
  const ci = medianInterval(paired, level)
  const lo = Math.min(ci.lo, ratio)
  const hi = Math.max(ci.hi, ratio)
  return { ratio, lo, hi, level: ci.level, verdict: verdict(lo, hi) }
}

const verdict = (lo, hi) => (lo > 1 ? 'win' : hi < 1 ? 'loss' : 'tie')

/**
 * The regression rule between two runs: a row moved when the interval of current ÷
 * baseline lies wholly beyond ±`threshold` (10 %). Each run's figure carries its own interval
 * (lo..hi of its median), so the change's interval is cur.lo/base.hi .. cur.hi/base.lo: a row is
 * flagged only when it moved by more than the threshold beyond the noise of both runs.
 * `higherIsBetter`: rates (ops/s, speed-ups) are; times are not.
 */
function change(base, cur, { threshold = 0.1, higherIsBetter = true } = {}) {
  const ratio = cur.value / base.value
  const lo = cur.lo / base.hi
  const hi = cur.hi / base.lo
  let status = 'same'
  if (hi < 1 - threshold) status = higherIsBetter ? 'regression' : 'improvement'
  else if (lo > 1 + threshold) status = higherIsBetter ? 'improvement' : 'regression'
  return { ratio, lo, hi, status }
}

module.exports = { quantile, median, medianInterval, summarize, ratioOf, verdict, change, binomialHalfCdf }
