'use strict'
// `node benchmark/benchmark.js --redo results/latest.json`: the suites of a run that have a row
// which broke a noise bound (lib/bench/noise.js) are run again, and their figures replace the old
// ones in the run, in the run's order. The load of both runs is kept (`noise.segments`), and the
// run's noise is the worse of the two on every count, so a redo cannot make a run look quieter
// than either part was.
const noise = require('../lib/bench/noise')

const uniq = (xs) => [...new Set(xs)]

/** The titles of the suites of `run` with a row that broke a noise bound. */
function noisySuites(run) {
  const tables = new Set(noise.assess(run).noisyRows.map((r) => r.table))
  return uniq(run.results.filter((r) => tables.has(r.table)).map((r) => r.suite))
}

const worst = (a, b) => a.map((x, i) => Math.max(x, b[i]))
const maxOf = (a, b) => (a === null || b === null ? (a ?? b) : Math.max(a, b))

/** The noise of two parts of one run: the worse of the two on every count, both parts kept. */
function combineNoise(a, b) {
  const parts = [...(a.segments || [a]), b]
  return {
    cores: a.cores,
    before: { load: worst(a.before.load, b.before.load) },
    after: { load: worst(a.after.load, b.after.load) },
    during: {
      load: a.during.load && b.during.load ? worst(a.during.load, b.during.load).map((x, i) => (i === 0 ? Math.min(a.during.load[0], b.during.load[0]) : x)) : a.during.load || b.during.load,
      others: maxOf(a.during.others, b.during.others),
      steal: maxOf(a.during.steal, b.during.steal),
      seconds: (a.during.seconds || 0) + (b.during.seconds || 0),
    },
    segments: parts.map((p) => ({ ...p, segments: undefined })),
  }
}

/**
 * `old` with the suites titled `titles` replaced by `fresh`'s (a run of those suites alone, on
 * the same machine): records, tables, plots and notes in the old order, facts updated, failures
 * of the replaced tables dropped, the noise combined, and `config.redone` saying what was redone.
 * With `how` 'resumed', `old` is a run that stopped part-way (`config.partial`) and `fresh` its
 * remaining suites: `config.resumed` says when and at which commit they ran.
 */
/** The code paths (cpuPaths()) of the new run that differ from the first run's: `{ name: path }`. */
function changedPaths(before, now) {
  const a = before?.cpuPaths || {}
  return Object.fromEntries(Object.entries(now?.cpuPaths || {}).filter(([k, v]) => a[k] !== v))
}

function mergeRedo(old, fresh, titles, files = [], how = 'redone') {
  if (old.machine?.cpu !== fresh.machine?.cpu || old.machine?.cores !== fresh.machine?.cores) {
    throw new Error(`--redo needs the same machine: the run was on ${old.machine?.cpu} (${old.machine?.cores} cores), this is ${fresh.machine?.cpu} (${fresh.machine?.cores} cores)`)
  }
  const redone = new Set(titles)
  const order = uniq([...old.results.map((r) => r.suite), ...(old.tables || []).map((t) => t.suite), ...titles])
  const pick = (list) => order.flatMap((s) => ((redone.has(s) ? fresh : old)[list] || []).filter((x) => x.suite === s))
  const replaced = new Set([...old.results, ...(old.tables || [])].filter((x) => redone.has(x.suite)).map((x) => x.table || x.title))
  return {
    ...old,
    config: {
      ...old.config,
      emptySuites: [...(old.config.emptySuites || []).filter((f) => !files.includes(f)), ...(fresh.config.emptySuites || [])],
      skippedSuites: { ...Object.fromEntries(Object.entries(old.config.skippedSuites || {}).filter(([f]) => !files.includes(f))), ...fresh.config.skippedSuites },
      partial: undefined,
      [how]: [...(old.config[how] || []), { suites: titles, date: fresh.machine.date, commit: fresh.machine.commit ?? null, seconds: fresh.config.seconds, paths: changedPaths(old.machine, fresh.machine) }],
    },
    noise: combineNoise(old.noise, fresh.noise),
    results: pick('results'),
    tables: pick('tables'),
    plots: pick('plots'),
    facts: { ...old.facts, ...fresh.facts },
    notes: { ...Object.fromEntries(Object.entries(old.notes || {}).filter(([t]) => !replaced.has(t))), ...fresh.notes },
    failures: [
      ...(old.failures || []).filter((f) => ![...replaced].some((t) => f.startsWith(`${t} / `)) && !titles.some((t) => f.startsWith(`${t}: the suite stopped`))),
      ...(fresh.failures || []),
    ],
  }
}

module.exports = { noisySuites, mergeRedo, combineNoise }
