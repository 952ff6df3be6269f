'use strict'
// benchmark/report.mjs: the report generated from a small fixture run (two real --quick runs of
// the kdf and hash suites, trimmed: __test__/fixtures/bench-report.json) opened in headless
// Chromium (Debian package `chromium`, driven by puppeteer-core). It must render with no console
// error and no network request, and every plot must have one labelled series per contestant of
// its table, in the same colour on every plot; the reading aids are on it: the run's noise
// verdict at the top, a row that broke a noise bound marked, a finding under every table, the
// time per operation first where the rate is hard to read, and the guide.
//
// Needs the benchmark's own packages (vega, vega-lite, @resvg/resvg-js: `npm --prefix benchmark
// ci`, which .ci/run does) and a Chromium; skips with a message without them, unless
// BENCH_REPORT_REQUIRED=1 (set by .ci/run once both are installed).
const test = require('ava')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { pathToFileURL } = require('node:url')
const { execFileSync } = require('node:child_process')

const root = path.join(__dirname, '..')
const recorded = JSON.parse(fs.readFileSync(path.join(__dirname, 'fixtures', 'bench-report.json'), 'utf8'))
const required = process.env.BENCH_REPORT_REQUIRED === '1'

// The fixture with the load a run records: a quiet machine, but one row whose interval was wide.
const noisyRow = recorded.results.find((r) => r.table.startsWith('PBKDF2')).group
const fixture = {
  ...recorded,
  noise: { cores: 2, before: { load: [0.4, 0.5, 0.6] }, after: { load: [0.9, 0.8, 0.7] }, during: { load: [0.9, 1, 1.1], others: 0.02, steal: 0, seconds: 51 } },
  results: recorded.results.map((r) => ({
    ...r,
    noise: { others: 0.02, steal: 0, load: [1, 1], flags: r.table.startsWith('PBKDF2') && r.group === noisyRow ? ['an interval spans 1.31×'] : [] },
  })),
}
const resultTables = [...new Set(fixture.results.map((r) => r.table))]
/** Cells that read as a time per operation: no input size, or under 1,000 a second. */
const timeCells = fixture.results.filter((r) => !r.bytes || r.opsPerSec < 1000).length

function chartLibraries() {
  // (vega's package exports hide its package.json from require.resolve: look for the folders.)
  return ['vega', 'vega-lite', '@resvg/resvg-js'].every((m) => fs.existsSync(path.join(root, 'benchmark', 'node_modules', m, 'package.json')))
}

function chromium() {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH
  for (const name of ['chromium', 'chromium-browser', 'google-chrome-stable', 'google-chrome']) {
    try {
      return execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim()
    } catch {
      // next name
    }
  }
  return null
}

/** What the page must show, worked out from the fixture here (not by the report code). */
function expectedPlots() {
  const names = (tables) => [...new Set(fixture.results.filter((r) => tables.includes(r.table)).map((r) => r.name))].sort()
  const plots = fixture.plots.map((p) => ({ id: p.id, series: names([].concat(p.table)) }))
  const covered = new Set(fixture.plots.flatMap((p) => [].concat(p.table)))
  for (const table of new Set(fixture.results.map((r) => r.table))) {
    if (!covered.has(table)) plots.push({ table, series: names([table]) })
  }
  return plots
}

let report
const out = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-report-'))
test.after.always(() => fs.rmSync(out, { recursive: true, force: true }))

const needCharts = chartLibraries() ? test.serial : test.serial.skip
if (!chartLibraries()) {
  const msg = 'report.spec.js: vega/vega-lite/@resvg/resvg-js are not installed in benchmark/ (npm --prefix benchmark ci): the report was not rendered or checked'
  if (required) test('the chart libraries are installed (BENCH_REPORT_REQUIRED=1)', (t) => t.fail(msg))
  else console.warn(msg)
}

needCharts('writes report.html, an SVG and a PNG per plot, and the Markdown', async (t) => {
  report = await import(pathToFileURL(path.join(root, 'benchmark', 'report.mjs')).href)
  const md = path.join(out, 'latest.md')
  const plots = await report.writeReport(fixture, out, { md })
  t.is(plots.length, expectedPlots().length)
  const html = fs.readFileSync(path.join(out, 'report.html'), 'utf8')
  // Self-contained: no script, no stylesheet link, no src attribute (the charts are inline SVG).
  t.notRegex(html, /<script|<link|\ssrc=|<img|url\(/i)
  for (const p of plots) {
    t.regex(fs.readFileSync(path.join(out, 'plots', `${p.file}.svg`), 'utf8'), /^<svg/)
    t.deepEqual([...fs.readFileSync(path.join(out, 'plots', `${p.file}.png`)).subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
  }
  const text = fs.readFileSync(md, 'utf8')
  t.regex(text, /PBKDF2-SHA-256/)
  // The verdict, the noisy row, a finding under every results table, the time per operation.
  t.regex(html, /<p class="verdict noisy" id="verdict">Quiet machine, rows over a bound: 1 of \d+ rows broke a bound \(an interval wider than the bound\); every machine-wide bound held\./)
  t.is((html.match(/<tr class="noisy">/g) || []).length, 1)
  t.regex(html, new RegExp(`<td>${noisyRow}<span class="flag">noisy: an interval spans 1\\.31×</span>`))
  t.is((html.match(/<p class="finding">/g) || []).length, resultTables.length + fixture.tables.filter((x) => x.finding).length)
  // In the Markdown: each results table, then its finding in italics.
  for (const table of resultTables) {
    const at = text.indexOf(`### ${table}\n`)
    t.true(at >= 0, table)
    const after = text.slice(at).split('\n').slice(2)
    const end = after.findIndex((l) => !l.startsWith('|'))
    t.is(after[end], '', table)
    t.regex(after[end + 1], /^\*[^*]+\.\*$/, table)
  }
  t.is((html.match(/<span class="time">/g) || []).length, timeCells)
  t.regex(html, /<h2 id="reading">Reading this page<\/h2>/)
  // Every ratio in the Markdown carries its interval: "1.23× [1.10×–1.40×]".
  const ratios = text.match(/\*\*[^*]+\*\*/g)
  t.true(ratios.length > 0)
  for (const r of ratios) t.regex(r, /^\*\*(tie )?[\d.]+× \[[\d.]+×–[\d.]+×\]\*\*$/)
  // The fixture has ties: the page must say so where the interval includes 1.
  const ties = fixture.results.filter((r) => r.ratioLo !== null && r.ratioLo <= 1 && r.ratioHi >= 1).length
  t.true(ties > 0)
  t.is((html.match(/class="tie">tie /g) || []).length, ties)
})

needCharts('the cross-platform page: the platform table, then each platform\'s series plots', async (t) => {
  const dir = path.join(out, 'merged')
  fs.mkdirSync(dir)
  // Two platforms: the fixture as it is, and the fixture as if from an arm64 Mac.
  const a = path.join(dir, 'bench-linux-x64-gnu.json')
  const b = path.join(dir, 'bench-darwin-arm64.json')
  fs.writeFileSync(a, JSON.stringify(fixture))
  fs.writeFileSync(b, JSON.stringify({ ...fixture, machine: { ...fixture.machine, platform: 'darwin-arm64', cpu: 'Apple M4' } }))
  report = report || (await import(pathToFileURL(path.join(root, 'benchmark', 'report.mjs')).href))
  const index = await report.writeMerged([a, b], dir, { png: false })
  const html = fs.readFileSync(index, 'utf8')
  t.regex(html, /<td>Linux \(x64\)<\/td><td>AMD EPYC/)
  t.regex(html, /<td>macOS \(arm64\)<\/td><td>Apple M4/)
  // Each platform's section has the fixture's series plots (and not the per-table dot plots).
  for (const prefix of ['linux-x64', 'macos-arm64']) {
    for (const p of fixture.plots) t.true(html.includes(`id="plot-${prefix}-${p.id}"`), `${prefix}: ${p.id}`)
  }
  t.is((html.match(/data-kind="bar"/g) || []).length, 0)
  t.notRegex(html, /<script|<link|\ssrc=/i)
})

const browser = chromium()
const needBrowser = chartLibraries() && browser ? test.serial : test.serial.skip
if (chartLibraries() && !browser) {
  const msg = 'report.spec.js: no Chromium found (apt-get install chromium, or CHROMIUM_PATH): report.html was not opened in a browser'
  if (required) test('Chromium is installed (BENCH_REPORT_REQUIRED=1)', (t) => t.fail(msg))
  else console.warn(msg)
}

needBrowser('report.html renders in Chromium: no console error, no request, one labelled series per contestant', async (t) => {
  t.truthy(report, 'the previous test wrote the report')
  const puppeteer = require('puppeteer-core')
  const b = await puppeteer.launch({
    executablePath: browser,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-extensions'],
  })
  t.teardown(() => b.close())
  const page = await b.newPage()
  const errors = []
  const requests = []
  const url = pathToFileURL(path.join(out, 'report.html')).href
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()))
  page.on('pageerror', (e) => errors.push(String(e)))
  await page.setRequestInterception(true)
  page.on('request', (r) => {
    if (r.url() !== url) {
      requests.push(r.url())
      r.abort()
    } else r.continue()
  })
  await page.goto(url, { waitUntil: 'load' })
  const figures = await page.$$eval('figure.plot', (fs) =>
    fs.map((f) => {
      const labels = [...f.querySelectorAll('.role-legend-label text')].map((x) => x.textContent)
      const symbols = [...f.querySelectorAll('.role-legend-symbol path')].map((x) => x.getAttribute('fill') || x.getAttribute('stroke'))
      // Series marks: one path per point (dot plot) or per line; the contestant is in aria-label.
      const marks = [...f.querySelectorAll('.series_marks path')].map((x) => ({
        name: (/name: ([^;]+?)(;|$)/.exec(x.getAttribute('aria-label') || '') || [])[1],
        color: x.getAttribute('stroke') || x.getAttribute('fill'),
      }))
      const box = f.querySelector('svg').getBoundingClientRect()
      return { id: f.dataset.plot, table: f.dataset.table, kind: f.dataset.kind, labels, symbols, marks, width: box.width, height: box.height }
    }),
  )
  t.deepEqual(errors, [])
  t.deepEqual(requests, [])
  // The reading aids are shown: the verdict, a finding under every results table.
  const aids = await page.evaluate(() => ({
    verdict: document.querySelector('#verdict')?.getBoundingClientRect().height || 0,
    findings: [...document.querySelectorAll('p.finding')].filter((p) => p.getBoundingClientRect().height > 0 && p.previousElementSibling?.tagName === 'TABLE').length,
    noisy: [...document.querySelectorAll('tr.noisy .flag')].map((f) => f.textContent),
  }))
  t.true(aids.verdict > 0)
  t.is(aids.findings, resultTables.length)
  t.deepEqual(aids.noisy, ['noisy: an interval spans 1.31×'])
  const expected = expectedPlots()
  t.is(figures.length, expected.length)
  const colorOf = new Map()
  for (const e of expected) {
    const f = figures.find((x) => (e.id ? x.id === e.id : x.table === e.table && x.kind === 'bar'))
    t.truthy(f, `plot ${e.id || e.table} is on the page`)
    t.true(f.width > 200 && f.height > 100, `${f.id} is drawn`)
    t.deepEqual([...f.labels].sort(), e.series, `${f.id}: one legend label per contestant`)
    t.deepEqual([...new Set(f.marks.map((m) => m.name))].sort(), e.series, `${f.id}: one series per contestant`)
    if (f.kind === 'line') t.is(f.marks.length, e.series.length, `${f.id}: one line per contestant`)
    for (const [i, name] of f.labels.entries()) {
      // The legend's colour is the series' colour, and a contestant's colour is the same everywhere.
      for (const m of f.marks.filter((x) => x.name === name)) t.is(m.color, f.symbols[i], `${f.id}: ${name}'s marks match its legend`)
      if (colorOf.has(name)) t.is(colorOf.get(name), f.symbols[i], `${name} has one colour on every plot`)
      colorOf.set(name, f.symbols[i])
    }
  }
  t.is(new Set(colorOf.values()).size, colorOf.size, 'no two contestants share a colour')
})
