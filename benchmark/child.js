'use strict'
// Rows timed in another process: under another runtime (benchmark/bun.js under Bun) or with
// another build of the addon loaded (benchmark/wasm.js, the WebAssembly build). The child times
// its rows with the same harness (outputs checked equal first, interleaved rounds) and hands
// back every round, the load it measured around each row, its findings and failures; the parent
// records them as its own rows (`h.record`), so they get the same statistics, noise bounds and
// place on the page as every other row.
//
// In the child:  const { h, done } = childHarness(title); ...h.compare(...)...; done()
// In the parent: runChild(h, label, command, args, { env })
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const { Harness, markdownOf } = require('./harness')
const { tableFinding } = require('../lib/bench/findings')

/**
 * The child's side: a harness for the options the parent passed (`--quick`, `--filter regex`,
 * `--json file`), and `done()`, which writes the rows to that file for the parent, or, run on
 * its own (no `--json`), prints them as the page's Markdown.
 */
function childHarness(title, argv = process.argv.slice(2)) {
  const opt = (name) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : null)
  const json = opt('--json')
  const filter = opt('--filter')
  const h = new Harness({ quick: argv.includes('--quick'), filter: filter ? new RegExp(filter, 'i') : null })
  h.suite = title
  h.begin()
  const done = () => {
    h.end()
    if (json) fs.writeFileSync(json, JSON.stringify(childReport(h)))
    else console.log(`\n${markdownOf({ results: h.results, tables: h.tables, notes: h.notes })}`)
    if (!json && h.failures.length) {
      console.log(`${h.failures.length} contestant(s) were not timed:\n  ${h.failures.join('\n  ')}`)
      process.exitCode = 1
    }
  }
  return { h, done }
}

/**
 * The finding under a table the child timed, from its rows (findings.js), after `lead` (what the
 * table is); `as` names our contestant where "cryptographer.js" alone would mislead (another
 * build of it).
 */
function noteTable(h, table, { lead = null, as = null } = {}) {
  const records = h.results.filter((r) => r.table === table)
  if (!records.length) return
  let text = tableFinding(records)
  if (as) text = text.replace(/cryptographer\.js(?! \()/g, as).replace(/^./, (c) => c.toUpperCase())
  // After the lead the sentence goes on in lower case (findings.js capitalises it).
  h.note(table, lead ? `${lead}: ${text.replace(/^[A-Z](?=[a-z])/, (c) => c.toLowerCase())}` : text)
}

/**
 * What a child hands back: its rows (each contestant's rounds, the row's options and the load
 * window its own samples measured), tables, findings and failures.
 */
function childReport(h) {
  const rows = new Map()
  for (const r of h.results) {
    const key = `${r.table}\u0000${r.group}`
    if (!rows.has(key)) {
      const { others, steal, load } = r.noise
      rows.set(key, { table: r.table, row: r.group, bytes: r.bytes || 0, x: r.x ?? undefined, variable: r.noise.variable, window: { others, steal, load }, records: [] })
    }
    rows.get(key).records.push(r)
  }
  return {
    rows: [...rows.values()].map(({ records, ...row }) => ({
      ...row,
      contestants: records.map((r) => ({ name: r.name, rates: r.rounds, ours: r.ours })),
      // The figure the ratios were taken against: ours, with no ratio of its own (-1: none was timed).
      reference: records.some((r) => r.ratio !== null) ? records.findIndex((r) => r.ours && r.ratio === null) : -1,
    })),
    tables: h.tables,
    notes: h.notes,
    failures: h.failures,
  }
}

/** Records a child's report as rows of `h` (the parent's harness). */
function recordReport(h, report, label) {
  const noted = new Set()
  const note = (table) => {
    if (table in report.notes && !noted.has(table)) h.note(table, report.notes[table])
    noted.add(table)
  }
  for (const [i, r] of report.rows.entries()) {
    h.record({ table: r.table, row: r.row }, r.contestants, { bytes: r.bytes, x: r.x, variable: r.variable, reference: r.reference, window: r.window })
    // Each table's finding under its last row, as the child printed it.
    if (report.rows[i + 1]?.table !== r.table) note(r.table)
  }
  for (const t of report.tables) h.table(t.title, t.columns, t.rows, { finding: t.finding })
  for (const table of Object.keys(report.notes)) note(table)
  h.failures.push(...report.failures.map((f) => `${label}: ${f}`))
}

let children = 0

/**
 * The parent's side: runs `command args` with the parent's `--quick` and `--filter` and records
 * the rows it hands back (printed then, as every row; the child's own lines are not shown, its
 * errors are). A child that fails is one failure of the run (its rows are then missing); returns
 * the report, or null.
 */
function runChild(h, label, command, args, { env = process.env } = {}) {
  const json = path.join(os.tmpdir(), `cryptographer-bench-${process.pid}-${++children}.json`)
  const argv = [...args, '--json', json, ...(h.quick ? ['--quick'] : []), ...(h.filter ? ['--filter', h.filter.source] : [])]
  h.onRow?.(label)
  try {
    const r = spawnSync(command, argv, { env, stdio: ['ignore', 'ignore', 'inherit'] })
    if (r.error || r.status !== 0) {
      const why = r.error ? r.error.message : r.signal ? `signal ${r.signal}` : `exit ${r.status}`
      h.failures.push(`${label}: ${path.basename(command)} ${args.map((a) => path.basename(a)).join(' ')} failed (${why})`)
      return null
    }
    const report = JSON.parse(fs.readFileSync(json, 'utf8'))
    recordReport(h, report, label)
    return report
  } finally {
    fs.rmSync(json, { force: true })
  }
}

module.exports = { childHarness, childReport, noteTable, recordReport, runChild }
