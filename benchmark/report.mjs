#!/usr/bin/env node
// The benchmark report: one run's JSON (benchmark/results/latest.json) → a self-contained HTML page
// (tables, plots and styles inline, no script, nothing fetched), each plot as SVG and PNG, and the
// Markdown; or several platforms' JSON files → one cross-platform page (`--merge`); or the
// published page, docs/benchmarks/ (`--docs`: README.md, report.html, the plots and the JSON),
// from a full, complete and quiet run only (docsGate below).
//
// Charts are Vega-Lite specifications compiled by vega-lite and drawn by vega's headless SVG
// renderer; PNG through @resvg/resvg-js. Both live in benchmark/package.json (installed by
// `npm run bench`), not in the library's dependencies.
//
//   node benchmark/report.mjs [run.json] [--out dir] [--no-png]
//   node benchmark/report.mjs --merge --out dir a.json b.json ...
//   node benchmark/report.mjs --docs [run.json] [--out dir] [--allow-noisy] [--allow-partial]
//                                                     (npm run bench:docs)
import fs from 'node:fs'
import path from 'node:path'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'

const require = createRequire(import.meta.url)
const here = path.dirname(fileURLToPath(import.meta.url))
const { markdownOf, machineLine, tablesOf } = require('../lib/bench/harness.js')
const { fmtOps, fmtRatio, fmtTime, fmtMb, showsTime } = require('../lib/bench/format.js')
const { tableFinding } = require('../lib/bench/findings.js')
const noise = require('../lib/bench/noise.js')
const { guideOf, READING } = require('./guide.js')

// One colour per contestant on every chart of every report: the usual peers have fixed colours,
// any other name takes the next free colour in the order of first appearance in the run.
const FIXED = {
  'cryptographer.js': '#d62728',
  'node crypto.hash': '#1f77b4',
  'node createHash': '#aec7e8',
  'node createHmac': '#aec7e8',
  'node subtle.digest': '#17becf',
  'node:crypto': '#1f77b4',
  'hash-wasm': '#2ca02c',
  '@noble/hashes': '#9467bd',
  '@noble/ciphers': '#9467bd',
  'crypto-js': '#ff7f0e',
  sjcl: '#8c564b',
  'node-forge': '#e377c2',
}
const SPARE = ['#7f7f7f', '#bcbd22', '#98df8a', '#ffbb78', '#c5b0d5', '#c49c94', '#f7b6d2', '#dbdb8d', '#9edae5', '#393b79', '#637939', '#8c6d31', '#843c39', '#7b4173', '#3182bd', '#e6550d', '#31a354', '#756bb1', '#636363', '#fd8d3c']

export function palette(results) {
  const colors = { ...FIXED }
  const used = new Set(Object.values(FIXED))
  let next = 0
  for (const r of results) {
    if (colors[r.name]) continue
    while (next < SPARE.length && used.has(SPARE[next])) next++
    colors[r.name] = SPARE[next % SPARE.length]
    used.add(colors[r.name])
    next++
  }
  return colors
}

const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c])
const slug = (s) => String(s).toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 80)
const uniq = (xs) => [...new Set(xs)]

/** Records of a plot, in run order. */
function recordsOf(run, plot) {
  const rows = plot.rows ? new RegExp(plot.rows, 'i') : null
  const tables = [].concat(plot.table)
  return run.results.filter((r) => tables.includes(r.table) && (!rows || rows.test(r.group)) && (plot.type === 'bar' || r.x !== null))
}

// The y figure of a plot and its interval, from a record (the interval is the median's, lo..hi).
const Y = {
  time: { title: 'time per operation (ms, log)', of: (r) => [1000 / r.opsPerSec, 1000 / r.hi, 1000 / r.lo] },
  throughput: { title: 'throughput (MB/s, log)', of: (r) => [r.opsPerSec, r.lo, r.hi].map((v) => (v * r.bytes) / 1e6) },
  perMs: { title: 'iterations per ms (log)', of: (r) => [r.opsPerSec, r.lo, r.hi].map((v) => (v * r.x) / 1000) },
  ops: { title: 'operations per second (log)', of: (r) => [r.opsPerSec, r.lo, r.hi] },
}

/** Every plot of a run: the suites' series plots, then a bar chart for each other results table. */
export function plotsOf(run) {
  const plots = (run.plots || []).map((p) => ({ type: 'line', ...p }))
  const covered = new Set(plots.filter((p) => p.type === 'line').flatMap((p) => [].concat(p.table)))
  for (const table of uniq(run.results.map((r) => r.table))) {
    if (covered.has(table)) continue
    const suite = run.results.find((r) => r.table === table).suite
    plots.push({ type: 'bar', generic: true, id: slug(table), suite, title: table, table, y: 'ops' })
  }
  return plots
    .map((p) => ({ ...p, records: recordsOf(run, p) }))
    .filter((p) => p.records.length > 0)
    .map((p) => ({ ...p, series: uniq(p.records.map((r) => r.name)) }))
}

// Axis labels: sizes in B / KiB / MiB, other counts with thousands separators.
const sizeLabel = `datum.value >= 1048576 ? format(datum.value / 1048576, '~g') + ' MiB' : datum.value >= 1024 ? format(datum.value / 1024, '~g') + ' KiB' : format(datum.value, '~g') + ' B'`
const countLabel = `format(datum.value, ',')`

/** The Vega-Lite specification of one plot. */
export function vegaLiteOf(plot, colors) {
  const y = Y[plot.y] || Y.ops
  const color = {
    field: 'name',
    type: 'nominal',
    sort: plot.series,
    scale: { domain: plot.series, range: plot.series.map((n) => colors[n]) },
    legend: { title: null, orient: plot.type === 'bar' ? 'bottom' : 'right', labelLimit: 420, columns: plot.type === 'bar' ? 3 : 1 },
  }
  const values = plot.records.map((r) => {
    const [v, lo, hi] = y.of(r)
    return { name: r.name, group: r.group, x: r.x, v, lo: Math.min(lo, hi), hi: Math.max(lo, hi), verdict: r.verdict || '' }
  })
  const base = {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: { text: plot.title, subtitle: plot.note || undefined, anchor: 'start', fontSize: 13 },
    data: { values },
    config: { font: 'DejaVu Sans, Helvetica, Arial, sans-serif', view: { stroke: null }, axis: { labelFontSize: 11, titleFontSize: 11 } },
  }
  if (plot.type === 'bar') {
    const groups = uniq(values.map((d) => d.group))
    return {
      ...base,
      width: 560,
      // With yOffset the step is one contestant's share of a row's band.
      height: { step: 11 },
      encoding: {
        y: { field: 'group', type: 'nominal', sort: groups, title: null, axis: { labelLimit: 360 } },
        yOffset: { field: 'name', type: 'nominal', sort: plot.series },
        color,
      },
      layer: [
        // A dot per contestant (bars from an arbitrary baseline mislead on a log axis).
        { name: 'series', mark: { type: 'point', filled: true, size: 40 }, encoding: { x: { field: 'v', type: 'quantitative', scale: { type: 'log' }, title: y.title } } },
        { name: 'errors', mark: { type: 'rule', strokeWidth: 1.5 }, encoding: { x: { field: 'lo', type: 'quantitative' }, x2: { field: 'hi' } } },
      ],
    }
  }
  const xs = uniq(values.map((d) => d.x)).sort((a, b) => a - b)
  const bytes = /size|bytes/i.test(plot.x || '')
  return {
    ...base,
    width: 520,
    height: 300,
    encoding: {
      x: {
        field: 'x',
        type: 'quantitative',
        scale: { type: 'log', domain: [xs[0], xs[xs.length - 1]] },
        axis: { values: xs, labelExpr: bytes ? sizeLabel : countLabel, labelAngle: xs.length > 8 ? -40 : 0, grid: true },
        title: plot.x || 'x',
      },
      color,
    },
    layer: [
      {
        name: 'series',
        mark: { type: 'line', point: { size: 28 }, strokeWidth: 1.8 },
        encoding: { y: { field: 'v', type: 'quantitative', scale: { type: 'log' }, title: plot.yTitle || y.title } },
      },
      { name: 'errors', mark: { type: 'rule', strokeWidth: 1.2 }, encoding: { y: { field: 'lo', type: 'quantitative' }, y2: { field: 'hi' } } },
    ],
  }
}

async function chartTools() {
  const vega = await import(require.resolve('vega'))
  const vl = await import(require.resolve('vega-lite'))
  let Resvg = null
  try {
    ;({ Resvg } = require('@resvg/resvg-js'))
  } catch {
    Resvg = null
  }
  return { vega, vl, Resvg }
}

/** Renders the plots of `run` to SVG strings (and PNG files under `plotDir` when given). */
export async function renderPlots(run, { plotDir = null, png = true, colors = palette(run.results), prefix = '', only = () => true, files = () => true } = {}) {
  const { vega, vl, Resvg } = await chartTools()
  const out = []
  if (plotDir) {
    fs.mkdirSync(plotDir, { recursive: true })
    // The plots of an earlier run with other rows must not linger beside this run's.
    for (const f of fs.readdirSync(plotDir)) if (f.startsWith(prefix) && /\.(svg|png)$/.test(f)) fs.rmSync(path.join(plotDir, f))
  }
  for (const plot of plotsOf(run).filter(only)) {
    const spec = vegaLiteOf(plot, colors)
    const view = new vega.View(vega.parse(vl.compile(spec).spec), { renderer: 'none' })
    const svg = await view.toSVG()
    view.finalize()
    const file = `${prefix}${plot.id}`
    if (plotDir && files(plot)) {
      fs.writeFileSync(path.join(plotDir, `${file}.svg`), svg)
      if (png && Resvg) {
        const img = new Resvg(svg, { fitTo: { mode: 'zoom', value: 2 }, background: 'white', font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans' } })
        fs.writeFileSync(path.join(plotDir, `${file}.png`), img.render().asPng())
      }
    }
    out.push({ ...plot, file, svg })
  }
  return out
}

const CSS = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Helvetica,Arial,sans-serif;margin:0 auto;max-width:1180px;padding:0 18px 60px;color:#222}
h1{font-size:24px;margin:22px 0 4px}h2{font-size:19px;margin:34px 0 8px;border-bottom:1px solid #ddd;padding-bottom:4px}h3{font-size:15px;margin:22px 0 6px}
.machine{color:#444;font-size:13px}.note{color:#555;font-size:13px;max-width:900px}
table{border-collapse:collapse;margin:6px 0 6px;font-size:12.5px}th,td{border:1px solid #ddd;padding:3px 7px;text-align:right;vertical-align:top}
th:first-child,td:first-child{text-align:left}th{background:#f4f4f4}
.ci{color:#777;font-size:11px;display:block}.win{color:#0a6b0a;font-weight:600}.loss{color:#a11;font-weight:600}.tie{color:#777;font-weight:600}
.time{font-weight:600}
tr.noisy td{background:#fff6e0}.flag{display:block;color:#a15c00;font-size:11px}
.finding{margin:4px 0 18px;max-width:960px;font-style:italic;color:#333}
.verdict{padding:8px 12px;border-radius:4px;margin:10px 0;max-width:960px}.verdict.quiet{background:#eef7ee;border:1px solid #9c9}.verdict.noisy,.verdict.unknown{background:#fff3e0;border:1px solid #e0a040}
.guide p{max-width:960px}
figure{margin:10px 0 18px;overflow-x:auto}figure svg{max-width:100%;height:auto}
.toc{columns:2;font-size:13px}.failures{color:#a11}
nav a{margin-right:10px}
`

function fmtCell(r) {
  if (!r) return '<td>n/a</td>'
  const mb = r.mbPerSec ? ` · ${fmtMb(r.mbPerSec)} MB/s` : ''
  const rate = showsTime(r) ? `<span class="time">${fmtTime(1 / r.opsPerSec)}</span> · ${fmtOps(r.opsPerSec)}/s${mb}` : `${fmtOps(r.opsPerSec)} ops/s${mb}`
  const iqr = r.q1 !== undefined && r.q1 !== null ? `<span class="ci">IQR ${fmtOps(r.q1)}–${fmtOps(r.q3)}</span>` : ''
  let ratio = ''
  if (r.ratio) {
    const v = r.verdict || (r.ratio > 1 ? 'win' : 'loss')
    const ci = r.ratioLo ? ` <span class="ci">${(100 * (r.level || 0)).toFixed(0)} % CI ${fmtRatio(r.ratioLo)}–${fmtRatio(r.ratioHi)}</span>` : ''
    ratio = `<br><span class="${v}">${v === 'tie' ? 'tie ' : ''}${fmtRatio(r.ratio)}</span>${ci}`
  }
  return `<td>${rate}${iqr}${ratio}</td>`
}

/** A results table: a row per group, a column per contestant; a row that broke a noise bound is marked. */
function resultsTable(t) {
  const head = `<tr><th></th>${t.cols.map((c) => `<th>${esc(c)}</th>`).join('')}</tr>`
  const body = [...t.rows]
    .map(([group, cells]) => {
      const flags = Object.values(cells)[0]?.noise?.flags || []
      const label = flags.length ? `${esc(group)}<span class="flag">noisy: ${esc(flags.join('; '))}</span>` : esc(group)
      return `<tr${flags.length ? ' class="noisy"' : ''}><td>${label}</td>${t.cols.map((c) => fmtCell(cells[c])).join('')}</tr>`
    })
    .join('\n')
  return `<table>${head}\n${body}</table>`
}

const plainTable = (t) =>
  `<table><tr>${t.columns.map((c) => `<th>${esc(c)}</th>`).join('')}</tr>\n${t.rows
    .map((r) => `<tr>${r.map((c) => `<td>${esc(c)}</td>`).join('')}</tr>`)
    .join('\n')}</table>`

const finding = (text) => (text ? `<p class="finding">${esc(text)}</p>` : '')

export { machineLine }

function methodNote(run) {
  const c = run.config || {}
  const rounds = c.rounds ? `${c.rounds} interleaved rounds` : 'interleaved rounds'
  const level = run.results.find((r) => r.level)?.level
  return (
    `Each figure is the median rate of ${rounds} (every contestant of a row once per round, the order rotated), after its ` +
    `output was checked equal to cryptographer.js's. Under each figure: the interquartile range of the rounds. Ratios are ` +
    `cryptographer.js ÷ that contestant, with the distribution-free confidence interval of the median of the per-round ` +
    `ratios${level ? ` (coverage ${(100 * level).toFixed(1)} %)` : ''}; a ratio whose interval includes 1.0 is shown as a tie. ` +
    `Where a rate is hard to read (slow operations, operations without an input size) the time per operation comes first. ` +
    `Error bars on the plots are the medians' intervals. Every round is kept in the JSON.` +
    (c.quick ? ' This was a --quick run: shorter timing, fewer sizes.' : '') +
    (c.redone || [])
      .map((r) => {
        const paths = Object.entries(r.paths || {}).map(([k, v]) => `${k} ${v}`)
        const changed = paths.length ? ` (code paths that differ from the machine line's: ${paths.join(', ')})` : ''
        return ` Run again on ${r.date || '?'}${r.commit ? ` at commit ${r.commit}` : ''}${changed}, their figures replacing the first run's: ${r.suites.join(', ')}.`
      })
      .join('') +
    (c.resumed || [])
      .map((r) => ` The run stopped part-way; its remaining suites ran on ${r.date || '?'}${r.commit ? ` at commit ${r.commit}` : ''}: ${r.suites.join(', ')}.`)
      .join('') +
    (c.filter ? ` Filtered to rows matching /${c.filter}/.` : '')
  )
}

/** The run's noise verdict as a sentence: quiet, or noisy and why. */
export function verdictLine(run) {
  const v = noise.assess(run)
  const b = v.bounds
  const bounds =
    `bounds: load average at most the core count before and after the run; other processes at most ${noise.pct(b.others)} ` +
    `and steal at most ${noise.pct(b.steal)} of the CPU time, over the run and in each row; our figures' and the ties' intervals at most ${b.spread}× wide (hi ÷ lo)`
  if (v.verdict === 'quiet') return { verdict: v, text: `Quiet run: every noise bound held over the run and its ${v.rows} rows (${bounds}).` }
  if (v.verdict === 'unknown') return { verdict: v, text: `This run recorded no load figures: it cannot be judged quiet (${bounds}).` }
  if (v.machineQuiet) {
    return {
      verdict: v,
      text: `Quiet machine, rows over a bound: ${v.reasons[0]} (an interval wider than the bound); every machine-wide bound held. Those rows are marked; the others stand as measured (${bounds}).`,
    }
  }
  return { verdict: v, text: `Noisy run: ${v.reasons.join('; ')}. Its figures are not the product's (${bounds}).` }
}

function page(title, body) {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(title)}</title><style>${CSS}</style></head>
<body>
${body}
</body></html>
`
}

const figure = (p) =>
  `<figure class="plot" id="plot-${esc(p.file)}" data-plot="${esc(p.id)}" data-kind="${p.type}" data-table="${esc([].concat(p.table).join(' + '))}">${p.svg}</figure>`

/** The HTML body of one run (also one platform's section of the merged page). */
function runBody(run, plots, { heading = 'h2', idPrefix = '', bars = true } = {}) {
  const parts = []
  const tables = tablesOf(run.results)
  const suites = uniq([...run.results.map((r) => r.suite), ...(run.tables || []).map((t) => t.suite)])
  for (const suite of suites) {
    parts.push(`<${heading} id="${idPrefix}${slug(suite)}">${esc(suite)}</${heading}>`)
    for (const p of plots.filter((q) => q.suite === suite && !q.generic)) parts.push(figure(p))
    for (const t of [...tables.values()].filter((x) => x.suite === suite)) {
      parts.push(`<h3 id="${idPrefix}t-${slug(t.title)}">${esc(t.title)}</h3>`)
      const bar = bars && plots.find((q) => q.generic && q.table === t.title)
      if (bar) parts.push(figure(bar))
      parts.push(resultsTable(t), finding(run.notes?.[t.title] || tableFinding(t.records, run.machine)))
    }
    for (const t of (run.tables || []).filter((x) => x.suite === suite)) parts.push(`<h3 id="${idPrefix}t-${slug(t.title)}">${esc(t.title)}</h3>`, plainTable(t), finding(t.finding))
  }
  if (run.failures?.length) parts.push(`<h2>Not timed</h2><ul class="failures">${run.failures.map((f) => `<li>${esc(f)}</li>`).join('')}</ul>`)
  return parts.join('\n')
}

/** The reading aids: how to read the figures (fixed), then the guide generated from the run. */
function guideHtml(run) {
  const parts = [`<section class="guide"><h2 id="reading">Reading this page</h2>`, ...READING.map((p) => `<p>${esc(p)}</p>`)]
  for (const g of guideOf(run)) parts.push(`<h3 id="${slug(g.title)}">${esc(g.title)}</h3>`, ...g.paragraphs.map((p) => `<p>${esc(p)}</p>`))
  parts.push('</section>')
  return parts.join('\n')
}

function guideMarkdown(run) {
  const lines = ['## Reading this page', '', ...READING.flatMap((p) => [p, ''])]
  for (const g of guideOf(run)) lines.push(`### ${g.title}`, '', ...g.paragraphs.flatMap((p) => [p, '']))
  return lines.join('\n')
}

/** The page's head: title, the noise verdict (and a stamp when published despite it), machine, load, method. */
function headHtml(run, { stamp = null } = {}) {
  const { verdict, text } = verdictLine(run)
  return [
    `<h1>cryptographer.js benchmark</h1>`,
    stamp ? `<p class="verdict noisy" id="stamp"><b>${esc(stamp)}</b></p>` : '',
    `<p class="verdict ${verdict.verdict}" id="verdict">${esc(text)}</p>`,
    `<p class="machine"><b>Machine:</b> ${esc(machineLine(run.machine))}<br><b>Load:</b> ${esc(noise.describe(run.noise))}<br><b>Run:</b> ${esc(run.machine?.date || '')}` +
      (run.config?.seconds ? `, ${Math.round(run.config.seconds)} s` : '') +
      `${run.config?.argv ? ` · <code>${esc(run.config.argv)}</code>` : ''}</p>`,
    `<p class="note">${esc(methodNote(run))}</p>`,
  ].join('\n')
}

function markdownHead(run, { stamp = null } = {}) {
  const { text } = verdictLine(run)
  return [stamp ? `> **${stamp}**\n` : '', `> ${text}`, '', `Machine: ${machineLine(run.machine)}`, '', `Load: ${noise.describe(run.noise)}`, '', methodNote(run), ''].join('\n')
}

/** Markdown lines of a suite's series plots (their SVG files under plots/), for markdownOf's `images`. */
const seriesImages = (plots) => (suite) => plots.filter((q) => !q.generic && q.suite === suite).flatMap((p) => [`![${p.title}](plots/${p.file}.svg)`, ''])

/** Writes report.html, latest.md (when `md`), and plots/*.svg|png for one run (those `files` selects). */
export async function writeReport(run, outDir, { png = true, html = 'report.html', md = null, stamp = null, files } = {}) {
  fs.mkdirSync(outDir, { recursive: true })
  const plots = await renderPlots(run, { plotDir: path.join(outDir, 'plots'), png, files })
  const suites = uniq([...run.results.map((r) => r.suite), ...(run.tables || []).map((t) => t.suite)])
  const body = [
    headHtml(run, { stamp }),
    `<nav class="toc"><a href="#reading">Reading this page</a> ${suites.map((s) => `<a href="#${slug(s)}">${esc(s)}</a>`).join(' ')}</nav>`,
    guideHtml(run),
    runBody(run, plots),
  ].join('\n')
  fs.writeFileSync(path.join(outDir, html), page('cryptographer.js benchmark', body))
  if (md) fs.writeFileSync(md, `${markdownHead(run, { stamp })}\n${guideMarkdown(run)}\n${markdownOf(run, { images: seriesImages(plots) })}`)
  return plots
}

/** The cross-platform page: the platform table, then each platform's plots and tables. */
export async function writeMerged(files, outDir, { png = true } = {}) {
  const { mergeTable, rowLabel } = await import('../scripts/merge-bench.mjs')
  const loaded = files.map((file) => ({ file, data: JSON.parse(fs.readFileSync(file, 'utf8')) }))
  fs.mkdirSync(outDir, { recursive: true })
  const colors = palette(loaded.flatMap((l) => l.data.results || []))
  const sections = []
  for (const { file, data } of loaded) {
    const label = rowLabel(data.machine || {}, file)
    const id = slug(label)
    // Per platform: the series plots (the dot plot of every table is in that platform's own report).
    const series = { ...data, plots: data.plots || [], results: data.results || [] }
    const plots = await renderPlots(series, { plotDir: path.join(outDir, 'plots'), png, colors, prefix: `${id}-`, only: (p) => !p.generic })
    sections.push(
      `<h2 id="${id}">${esc(label)}</h2><p class="machine">${esc(machineLine(data.machine))}</p>` +
        `<p class="verdict ${noise.assess(data).verdict}">${esc(verdictLine(data).text)}</p>\n${runBody(data, plots, { heading: 'h3', idPrefix: `${id}-`, bars: false })}`,
    )
  }
  const table = mergeTable(loaded)
  const rows = table.split('\n').filter((l) => l.startsWith('|') && !l.startsWith('|-'))
  const cells = (l) => l.slice(1, -1).split('|').map((c) => c.trim())
  const [head, ...body] = rows.map(cells)
  const platformTable = plainTable({ columns: head, rows: body })
  const html = page(
    'cryptographer.js benchmark: every platform',
    [
      `<h1>cryptographer.js on every platform</h1>`,
      `<p class="note">One CI runner per platform: shared runners differ in CPU and load, so read across rows with care. Ratios within one platform's section were measured side by side.</p>`,
      `<h2 id="platforms">Platform performance</h2>`,
      platformTable,
      `<nav class="toc">${loaded.map(({ file, data }) => `<a href="#${slug(rowLabel(data.machine || {}, file))}">${esc(rowLabel(data.machine || {}, file))}</a>`).join(' ')}</nav>`,
      ...sections,
    ].join('\n'),
  )
  fs.writeFileSync(path.join(outDir, 'index.html'), html)
  fs.writeFileSync(path.join(outDir, 'platform-performance.md'), `### Platform Performance\n\n${table}\n`)
  return path.join(outDir, 'index.html')
}

/** Every suite of the benchmark (benchmark/suites/*.js): a published run must have run them all. */
export function allSuites() {
  return fs
    .readdirSync(path.join(here, 'suites'))
    .filter((f) => f.endsWith('.js'))
    .map((f) => f.slice(0, -3))
    .sort()
}

/**
 * Whether a run may become the published page: `{ noisy: [reasons], partial: [reasons] }`, both
 * empty for a run that may. Noisy: the noise verdict of the run, or of the Node.js-versions run
 * beside it, is not quiet (noise.js). Partial: a --quick,
 * filtered or suite-selected run, a suite missing or without a figure, a contestant not timed, or
 * no Node.js-versions table (npm run bench:node-matrix) beside it.
 */
export function docsGate(run, { suites = allSuites() } = {}) {
  const v = noise.assess(run)
  const noisy = v.verdict === 'quiet' ? [] : [...v.reasons]
  // The Node.js-versions table is a run of its own, judged by the same bounds.
  if (run.nodeMatrix) {
    const m = noise.assess(run.nodeMatrix)
    if (m.verdict !== 'quiet') noisy.push(`the Node.js-versions run: ${m.reasons.join(', ')}`)
  }
  const partial = []
  const c = run.config || {}
  if (c.partial) partial.push(`it stopped part-way, before the suites ${c.partial.remaining.join(', ')} (node benchmark/benchmark.js --resume completes it)`)
  if (c.quick) partial.push('it is a --quick run (shorter timing, fewer sizes: the series stop at 1 MiB)')
  if (c.filter) partial.push(`it is filtered (--filter ${c.filter})`)
  const missing = suites.filter((s) => !(c.suites || []).includes(s))
  if (missing.length) partial.push(`it lacks the suites ${missing.join(', ')}`)
  if (c.emptySuites?.length) {
    const why = (s) => (c.skippedSuites?.[s] ? `${s} (${c.skippedSuites[s]})` : s)
    partial.push(`the suites ${c.emptySuites.map(why).join(', ')} put no figure on the page`)
  }
  if (run.failures?.length) partial.push(`${run.failures.length} contestant(s) were not timed: ${run.failures.slice(0, 3).join('; ')}`)
  if (!run.results.some((r) => r.suite?.startsWith('Node.js versions'))) partial.push('it has no Node.js-versions table (run npm run bench:node-matrix on the same machine first)')
  return { noisy, partial }
}

/** The run with the Node.js-versions table of `npm run bench:node-matrix` (node-matrix.json) when it is from the same CPU. */
export function withNodeMatrix(run, file) {
  if (!file || !fs.existsSync(file)) return run
  const m = JSON.parse(fs.readFileSync(file, 'utf8'))
  if (m.machine?.cpu !== run.machine?.cpu) return run
  const note = ` (npm run bench:node-matrix, ${m.config?.date || '?'})`
  return {
    ...run,
    results: [...run.results, ...m.results.map((r) => ({ ...r, table: r.table + note }))],
    tables: [...(run.tables || []), ...(m.tables || []).map((t) => ({ ...t, title: t.title + note }))],
    nodeMatrix: { noise: m.noise, results: m.results, config: m.config },
  }
}

/**
 * The published page, docs/benchmarks/ (or `out`): README.md (the guide, every table with its
 * finding, every series plot), report.html (the same, self-contained), plots/*.svg and
 * results.json. Refuses (throws, code ERR_BENCH_NOT_PUBLISHABLE) a noisy run unless `allowNoisy`,
 * and a partial one unless `allowPartial`; an allowed run is stamped as what it is on the page.
 */
/**
 * The stamp of a run published despite its noise verdict. When the machine-wide bounds held and
 * only some rows' intervals came out wider than the bound, it says that, rather than calling the
 * machine busy: those rows are marked on the page, and the rest stand as measured.
 */
function noisyStamp(run, reasons) {
  const machineQuiet = (r) => !r || noise.assess(r).machineQuiet === true
  if (machineQuiet(run) && machineQuiet(run.nodeMatrix)) {
    return (
      `Published with rows over a noise bound (--allow-noisy): ${reasons.join('; ')}. The machine-wide bounds held (load, other processes, steal); ` +
      'each such row is marked where it is shown, and its figure is less certain than the others.'
    )
  }
  return `Published from a NOISY run (--allow-noisy): ${reasons.join('; ')}. These figures understate the product.`
}

export async function writeDocs(run, { out = path.join(here, '..', 'docs', 'benchmarks'), allowNoisy = false, allowPartial = false, suites } = {}) {
  const gate = docsGate(run, { suites })
  const refused = [...(allowNoisy ? [] : gate.noisy), ...(allowPartial ? [] : gate.partial)]
  if (refused.length) {
    const how = [gate.noisy.length && !allowNoisy && '--allow-noisy', gate.partial.length && !allowPartial && '--allow-partial'].filter(Boolean).join(' and ')
    const err = new Error(
      `This run is not published: ${refused.join('; ')}. Run \`npm run bench\` in full on a quiet machine ` +
        `(and \`npm run bench:node-matrix\`), or pass ${how} to publish it stamped as such.`,
    )
    err.code = 'ERR_BENCH_NOT_PUBLISHABLE'
    throw err
  }
  const stamps = [
    gate.noisy.length && noisyStamp(run, gate.noisy),
    gate.partial.length && `Published from a PARTIAL run (--allow-partial): ${gate.partial.join('; ')}.`,
  ].filter(Boolean)
  const stamp = stamps.length ? stamps.join(' ') : null
  fs.rmSync(out, { recursive: true, force: true })
  fs.mkdirSync(out, { recursive: true })
  // The dot plots are in report.html only; the series plots are files too, for README.md.
  const plots = await writeReport(run, out, { png: false, md: null, stamp, files: (p) => !p.generic })
  fs.writeFileSync(path.join(out, 'results.json'), JSON.stringify({ ...run, published: { date: new Date().toISOString(), stamp } }))
  const lines = [
    '# Benchmarks',
    '',
    `Written by \`npm run bench:docs\` from one run of \`npm run bench\` (${run.machine?.date || '?'}); the same page with ` +
      'every figure\'s interval: [report.html](report.html) (download it: one self-contained file); every round of every ' +
      'contestant: [results.json](results.json). To measure your own machine: `npx cryptographer.js bench`.',
    '',
    markdownHead(run, { stamp }),
    guideMarkdown(run),
    // Each suite's series plots under its heading, then its tables.
    markdownOf(run, { images: seriesImages(plots) }),
    '',
  ]
  fs.writeFileSync(path.join(out, 'README.md'), lines.join('\n'))
  return plots
}

async function main(argv) {
  let out = null
  let png = true
  let mode = 'one'
  let allowNoisy = false
  let allowPartial = false
  const files = []
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    if (a === '--out') out = argv[++i]
    else if (a === '--no-png') png = false
    else if (a === '--merge') mode = 'merge'
    else if (a === '--docs') mode = 'docs'
    else if (a === '--allow-noisy') allowNoisy = true
    else if (a === '--allow-partial') allowPartial = true
    else if (a.startsWith('--')) throw new Error(`unknown option ${a}`)
    else files.push(a)
  }
  const results = path.join(here, 'results')
  if (mode === 'merge') {
    if (!files.length) throw new Error('usage: report.mjs --merge --out dir a.json b.json ...')
    console.log(`wrote ${await writeMerged(files, out || results, { png })}`)
    return
  }
  const file = files[0] || path.join(results, 'latest.json')
  const run = JSON.parse(fs.readFileSync(file, 'utf8'))
  if (mode === 'docs') {
    const dir = out || path.join(here, '..', 'docs', 'benchmarks')
    try {
      const plots = await writeDocs(withNodeMatrix(run, path.join(path.dirname(file), 'node-matrix.json')), { out: dir, allowNoisy, allowPartial })
      console.log(`wrote ${path.join(dir, 'README.md')}, report.html, results.json and ${plots.filter((p) => !p.generic).length} plots`)
    } catch (err) {
      if (err.code !== 'ERR_BENCH_NOT_PUBLISHABLE') throw err
      console.error(err.message)
      process.exitCode = 3
    }
    return
  }
  const dir = out || path.dirname(file)
  const plots = await writeReport(run, dir, { png })
  console.log(`wrote ${path.join(dir, 'report.html')} and ${plots.length} plots in ${path.join(dir, 'plots')}`)
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  main(process.argv.slice(2)).catch((err) => {
    console.error(err)
    process.exit(1)
  })
}
