'use strict'
// The documentation as a test:
// - every fenced `js` / `mjs` block of the README and of docs/ runs, each in its own process,
//   against the package as users import it (`require('cryptographer.js')`), so no example rots.
//   A block preceded by `<!-- not run: why -->` is skipped, with its reason logged;
// - the README's error table names every code of lib/errors.js, and every code the library
//   throws (lib/, src/) is in that list;
// - relative links of the README and docs/ point at files that exist;
// - no text a user or maintainer reads speaks of how the project was made (numbered planning
//   documents, the tracker's tickets, working sittings: PROCESS below).
const test = require('ava')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { execFile } = require('node:child_process')
const { CODES } = require('../lib/errors')
const { SCALE, scaled } = require('./helpers/time')

const ROOT = path.join(__dirname, '..')
const read = (f) => fs.readFileSync(path.join(ROOT, f), 'utf8')

/** The Markdown files of the README and docs/ (the generated API reference included). */
function markdownFiles() {
  const out = ['README.md']
  const walk = (dir) => {
    for (const e of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const rel = `${dir}/${e.name}`
      if (e.isDirectory()) walk(rel)
      else if (e.name.endsWith('.md')) out.push(rel)
    }
  }
  walk('docs')
  return out
}

/** The fenced js/mjs blocks of `file`: { file, line, lang, code, skip }. */
function blocksOf(file) {
  const lines = read(file).split('\n')
  const blocks = []
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(js|mjs|javascript)\s*$/.exec(lines[i])
    if (!open) continue
    let j = i + 1
    while (j < lines.length && !/^```\s*$/.test(lines[j])) j++
    let k = i - 1
    while (k >= 0 && lines[k].trim() === '') k--
    const marker = k >= 0 ? /^<!--\s*not run:\s*(.+?)\s*-->$/.exec(lines[k].trim()) : null
    blocks.push({ file, line: i + 1, lang: open[1], code: lines.slice(i + 1, j).join('\n'), skip: marker && marker[1] })
    i = j
  }
  return blocks
}

// The blocks are written inside the package (so that `cryptographer.js` resolves to it, by its
// own name, as in a project that installed it) and run with a scratch directory as cwd.
const BLOCK_DIR = path.join(ROOT, 'target', 'doc-blocks')

function run(block, n) {
  const esm = block.lang === 'mjs' || /^\s*import\s/m.test(block.code)
  const base = `${block.file.replace(/[/.]/g, '_')}-${block.line}`
  const file = path.join(BLOCK_DIR, `${base}.${esm ? 'mjs' : 'cjs'}`)
  const body = esm ? block.code : `(async () => {\n${block.code}\n})().catch((err) => { console.error(err); process.exitCode = 1 })\n`
  fs.writeFileSync(file, body)
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), `doc-${n}-`))
  return new Promise((resolve) => {
    execFile(process.execPath, [file], { cwd, timeout: scaled(120_000), encoding: 'utf8' }, (err, stdout, stderr) => {
      fs.rmSync(cwd, { recursive: true, force: true })
      resolve({ code: err ? (err.code ?? err.signal) : 0, stdout, stderr })
    })
  })
}

const BLOCKS = markdownFiles().flatMap(blocksOf)

test('the README and docs/ have examples to run', (t) => {
  t.true(BLOCKS.filter((b) => b.file === 'README.md' && !b.skip).length >= 5)
})

fs.mkdirSync(BLOCK_DIR, { recursive: true })
BLOCKS.forEach((block, n) => {
  const name = `${block.file}:${block.line} runs`
  if (block.skip) {
    test(`${block.file}:${block.line} is not run: ${block.skip}`, (t) => t.pass())
    return
  }
  // An example that bounds its own time (AbortSignal.timeout) is written for real hardware: under
  // emulation (scripts/test-arm64.mjs) its work can outlast the bound.
  if (SCALE > 1 && /AbortSignal\.timeout\(/.test(block.code)) {
    test(`${block.file}:${block.line} is not run under emulation: it bounds its own time with AbortSignal.timeout`, (t) => t.pass())
    return
  }
  test(name, async (t) => {
    const r = await run(block, n)
    t.is(r.code, 0, `${block.file}:${block.line} failed:\n${r.stderr}${r.stdout}`)
  })
})

test("the README's error table lists every code of lib/errors.js, and nothing else", (t) => {
  const readme = read('README.md')
  const table = readme.slice(readme.indexOf('## Errors'), readme.indexOf('\n## ', readme.indexOf('## Errors') + 1))
  const listed = [...table.matchAll(/^\| `((?:ERR|ABORT)_[A-Z_]+)`/gm)].map((m) => m[1])
  t.deepEqual([...listed].sort(), Object.keys(CODES).sort())
  for (const [code, cls] of Object.entries(CODES)) {
    t.regex(table, new RegExp(`\\| \`${code}\` \\| \`${cls}\``), `${code} is a ${cls}`)
  }
})

test('every error code the library throws (lib/, src/) is in lib/errors.js', (t) => {
  const sources = []
  const walk = (dir, ext) => {
    for (const e of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const rel = `${dir}/${e.name}`
      if (e.isDirectory()) walk(rel, ext)
      else if (e.name.endsWith(ext)) sources.push(rel)
    }
  }
  walk('lib', '.js')
  walk('src', '.rs')
  const thrown = new Set()
  for (const f of sources) for (const m of read(f).matchAll(/['"]((?:ERR|ABORT)_[A-Z0-9_]+)['"]/g)) thrown.add(m[1])
  // A file error's code is its errno name (ENOENT...): src/error.rs names the Rust code
  // ERR_SYSTEM_ERROR, which src/js/error.rs always replaces by that name.
  thrown.delete('ERR_SYSTEM_ERROR')
  t.deepEqual([...thrown].filter((c) => !(c in CODES)).sort(), [])
})

test('relative links of the README and docs/ point at files that exist', (t) => {
  const broken = []
  for (const file of markdownFiles()) {
    for (const m of read(file).matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1].split('#')[0]
      if (target === '' || /^[a-z]+:/i.test(target)) continue
      if (!fs.existsSync(path.join(ROOT, path.dirname(file), target))) broken.push(`${file}: ${m[1]}`)
    }
  }
  t.deepEqual(broken, [])
})

// How the project was made is not what a reader of it needs: no numbered planning document, no
// ticket, no working sitting, no name for the project's own jobs (PROCESS). Text files that git
// tracks, but for third-party data (test vectors), recorded outputs (fixtures) and generated code.
const PROCESS = /\bseed\s+\d{3}\b|\bsession\s+\d+\b|\b(?:the|this|that|an?) issue\b|\bissue's\b|\bthe main job\b|\breview finding/i
const NOT_OURS = /^(?:__test__\/(?:vectors|fixtures)\/|binding\.(?:js|d\.ts)$|package-lock\.json$|benchmark\/package-lock\.json$|fuzz\/js\/package-lock\.json$|npm\/)/
const TEXT = /\.(?:js|mjs|cjs|ts|mts|rs|md|toml|json|yml|yaml|sh|svg|html)$|^\.ci\/run$/

test('no process vocabulary in anything a user or maintainer reads', (t) => {
  const files = require('node:child_process')
    .execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter((f) => f && TEXT.test(f) && !NOT_OURS.test(f) && fs.existsSync(path.join(ROOT, f)))
  const found = []
  for (const f of files) {
    read(f).split('\n').forEach((line, i) => {
      const m = PROCESS.exec(line)
      if (m) found.push(`${f}:${i + 1}: ${m[0]}`)
    })
  }
  t.deepEqual(found, [])
})
