#!/usr/bin/env node
// The benchmark report: one run's JSON (benchmark/results/latest.json) → a self-contained HTML page
// (tables, plots and styles inline, no script, nothing fetched), each plot as SVG and PNG, and the
// Markdown; or several platforms' JSON files → one cross-platform page (`--merge`); or
// docs/benchmarks.md from the last full run (`--docs`).
//
// Charts are Vega-Lite specifications compiled by vega-lite and drawn by vega's headless SVG
// renderer; PNG through @resvg/resvg-js. Both live in benchmark/package.json (installed by
// `npm run bench`), not in the library's dependencies.
//
//   node benchmark/report.mjs [run.json] [--out dir] [--no-png]
//   node benchmark/report.mjs --merge --out dir a.json b.json ...
//   node benchmark/report.mjs --docs [run.json]       (npm run bench:docs)
import fs from 'node:fs'
import path from 'node:path'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'

const require = createRequire(import.meta.url)
const here = path.dirname(fileURLToPath(import.meta.url))
const { markdownOf, fmtOps, fmtRatio } = require('./harness.js')

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
    legend: { title: null, orient: plot.type === 'bar' ? 'bottom' : 'right', labelLimit: 240, columns: plot.type === 'bar' ? 3 : 1 },
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
export async function renderPlots(run, { plotDir = null, png = true, colors = palette(run.results), prefix = '', only = () => true } = {}) {
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
    if (plotDir) {
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
table{border-collapse:collapse;margin:6px 0 14px;font-size:12.5px}th,td{border:1px solid #ddd;padding:3px 7px;text-align:right;vertical-align:top}
th:first-child,td:first-child{text-align:left}th{background:#f4f4f4}
.ci{color:#777;font-size:11px;display:block}.win{color:#0a6b0a;font-weight:600}.loss{color:#a11;font-weight:600}.tie{color:#777;font-weight:600}
figure{margin:10px 0 18px;overflow-x:auto}figure svg{max-width:100%;height:auto}
.toc{columns:2;font-size:13px}.failures{color:#a11}
nav a{margin-right:10px}
`

function fmtCell(r) {
  if (!r) return '<td>n/a</td>'
  const mb = r.mbPerSec ? ` · ${r.mbPerSec >= 100 ? r.mbPerSec.toFixed(0) : r.mbPerSec.toFixed(1)} MB/s` : ''
  const iqr = r.q1 !== undefined && r.q1 !== null ? `<span class="ci">IQR ${fmtOps(r.q1)}–${fmtOps(r.q3)}</span>` : ''
  let ratio = ''
  if (r.ratio) {
    const v = r.verdict || (r.ratio > 1 ? 'win' : 'loss')
    const ci = r.ratioLo ? ` <span class="ci">${(100 * (r.level || 0)).toFixed(0)} % CI ${fmtRatio(r.ratioLo)}–${fmtRatio(r.ratioHi)}</span>` : ''
    ratio = `<br><span class="${v}">${v === 'tie' ? 'tie ' : ''}${fmtRatio(r.ratio)}</span>${ci}`
  }
  return `<td>${fmtOps(r.opsPerSec)} ops/s${mb}${iqr}${ratio}</td>`
}

function resultsTable(records) {
  const cols = uniq(records.map((r) => r.name))
  const groups = uniq(records.map((r) => r.group))
  const at = new Map(records.map((r) => [`${r.group}\u0000${r.name}`, r]))
  const head = `<tr><th></th>${cols.map((c) => `<th>${esc(c)}</th>`).join('')}</tr>`
  const body = groups.map((g) => `<tr><td>${esc(g)}</td>${cols.map((c) => fmtCell(at.get(`${g}\u0000${c}`))).join('')}</tr>`).join('\n')
  return `<table>${head}\n${body}</table>`
}

const plainTable = (t) =>
  `<table><tr>${t.columns.map((c) => `<th>${esc(c)}</th>`).join('')}</tr>\n${t.rows
    .map((r) => `<tr>${r.map((c) => `<td>${esc(c)}</td>`).join('')}</tr>`)
    .join('\n')}</table>`

export function machineLine(m = {}) {
  const peers = Object.entries(m.peers || {})
    .filter(([, v]) => v)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ')
  return (
    `${m.cpu || '?'} (${m.cores || '?'} cores; flags ${(m.flags || []).join(' ') || 'unknown'}), ${m.platform || '?'}, ` +
    (m.cpuPaths ? `paths (${Object.entries(m.cpuPaths).map(([k, v]) => `${k}: ${v}`).join(', ')}), ` : '') +
    `Node ${m.node || '?'} (OpenSSL ${m.openssl || '?'}), ${m.rustc || 'rustc ?'}; cryptographer.js ${m['cryptographer.js'] || '?'}` +
    (peers ? `; ${peers}` : '')
  )
}

function methodNote(run) {
  const c = run.config || {}
  const rounds = c.rounds ? `${c.rounds} interleaved rounds` : 'interleaved rounds'
  const level = run.results.find((r) => r.level)?.level
  return (
    `Each figure is the median rate of ${rounds} (every contestant of a row once per round, the order rotated), after its ` +
    `output was checked equal to cryptographer.js's. Under each figure: the interquartile range of the rounds. Ratios are ` +
    `cryptographer.js ÷ that contestant, with the distribution-free confidence interval of the median of the per-round ` +
    `ratios${level ? ` (coverage ${(100 * level).toFixed(1)} %)` : ''}; a ratio whose interval includes 1.0 is shown as a tie. ` +
    `Error bars on the plots are the medians' intervals. Every round is kept in the JSON.` +
    (c.quick ? ' This was a --quick run: shorter timing, fewer sizes.' : '') +
    (c.filter ? ` Filtered to rows matching /${c.filter}/.` : '')
  )
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
  const bySuite = new Map()
  for (const r of run.results) {
    if (!bySuite.has(r.suite)) bySuite.set(r.suite, [])
    bySuite.get(r.suite).push(r)
  }
  for (const t of run.tables || []) if (!bySuite.has(t.suite)) bySuite.set(t.suite, [])
  for (const [suite, recs] of bySuite) {
    parts.push(`<${heading} id="${idPrefix}${slug(suite)}">${esc(suite)}</${heading}>`)
    for (const p of plots.filter((q) => q.suite === suite && !q.generic)) parts.push(figure(p))
    for (const table of uniq(recs.map((r) => r.table))) {
      parts.push(`<h3>${esc(table)}</h3>`)
      const bar = bars && plots.find((q) => q.generic && q.table === table)
      if (bar) parts.push(figure(bar))
      parts.push(resultsTable(recs.filter((r) => r.table === table)))
    }
    for (const t of (run.tables || []).filter((x) => x.suite === suite)) parts.push(`<h3>${esc(t.title)}</h3>`, plainTable(t))
  }
  if (run.failures?.length) parts.push(`<h2>Not timed</h2><ul class="failures">${run.failures.map((f) => `<li>${esc(f)}</li>`).join('')}</ul>`)
  return parts.join('\n')
}

/** Writes report.html, latest.md (when `md`), and plots/*.svg|png for one run. */
export async function writeReport(run, outDir, { png = true, html = 'report.html', md = null } = {}) {
  fs.mkdirSync(outDir, { recursive: true })
  const plots = await renderPlots(run, { plotDir: path.join(outDir, 'plots'), png })
  const suites = uniq([...run.results.map((r) => r.suite), ...(run.tables || []).map((t) => t.suite)])
  const body = [
    `<h1>cryptographer.js benchmark</h1>`,
    `<p class="machine"><b>Machine:</b> ${esc(machineLine(run.machine))}<br><b>Run:</b> ${esc(run.machine?.date || '')}` +
      (run.config?.seconds ? `, ${Math.round(run.config.seconds)} s` : '') +
      `${run.config?.argv ? ` · <code>${esc(run.config.argv)}</code>` : ''}</p>`,
    `<p class="note">${esc(methodNote(run))}</p>`,
    `<nav class="toc">${suites.map((s) => `<a href="#${slug(s)}">${esc(s)}</a>`).join(' ')}</nav>`,
    runBody(run, plots),
  ].join('\n')
  fs.writeFileSync(path.join(outDir, html), page('cryptographer.js benchmark', body))
  if (md) fs.writeFileSync(md, `Machine: ${machineLine(run.machine)}\n\n${methodNote(run)}\n\n${markdownOf(run)}`)
  return plots
}

/** The cross-platform page: seed 000's platform table, then each platform's plots and tables. */
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
    const plots = (await renderPlots(series, { plotDir: path.join(outDir, 'plots'), png, colors, prefix: `${id}-`, only: (p) => !p.generic }))
    sections.push(`<h2 id="${id}">${esc(label)}</h2><p class="machine">${esc(machineLine(data.machine))}</p>\n${runBody(data, plots, { heading: 'h3', idPrefix: `${id}-`, bars: false })}`)
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

/** docs/benchmarks.md from a run: the machine, the method, every plot (SVG in docs/benchmarks/) and table. */
export async function writeDocs(run, root = path.join(here, '..')) {
  const dir = path.join(root, 'docs', 'benchmarks')
  fs.rmSync(dir, { recursive: true, force: true })
  const plots = await renderPlots(run, { plotDir: dir, png: false })
  const lines = [
    '# Benchmarks',
    '',
    `Generated by \`npm run bench:docs\` from \`benchmark/results/latest.json\` (${run.config?.quick ? 'a `--quick` run' : 'the last full run'}, ${run.machine?.date || '?'}). ` +
      'Regenerate after `npm run bench`. The page with every table is `benchmark/results/report.html`. ' +
      'Timing on a shared machine is noisy: read the intervals (error bars, brackets), not only the medians.',
    '',
    `Machine: ${machineLine(run.machine)}`,
    '',
    methodNote(run),
    '',
  ]
  for (const p of plots.filter((q) => !q.generic)) lines.push(`![${p.title}](benchmarks/${p.file}.svg)`, '')
  lines.push('## Tables', '', markdownOf(run), '')
  const suitesWithBars = plots.filter((q) => q.generic)
  if (suitesWithBars.length) {
    lines.push('## Bar charts of the other tables', '')
    for (const p of suitesWithBars) lines.push(`![${p.title}](benchmarks/${p.file}.svg)`, '')
  }
  fs.writeFileSync(path.join(root, 'docs', 'benchmarks.md'), lines.join('\n'))
  return plots
}

async function main(argv) {
  let out = null
  let png = true
  let mode = 'one'
  const files = []
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    if (a === '--out') out = argv[++i]
    else if (a === '--no-png') png = false
    else if (a === '--merge') mode = 'merge'
    else if (a === '--docs') mode = 'docs'
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
    const plots = await writeDocs(run)
    console.log(`wrote docs/benchmarks.md and ${plots.length} plots in docs/benchmarks/`)
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
