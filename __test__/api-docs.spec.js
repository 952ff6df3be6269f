'use strict'
// The API reference, docs/api/: TypeDoc renders index.d.ts (typedoc.json, `npm run docs:api`)
// with its validation as errors, so an export or member without a doc comment, a {@link} that
// points nowhere or a type the API uses but does not export fails here; and what it renders must
// be exactly the committed docs/api/, so the reference cannot drift from the types.
const test = require('ava')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { execFile } = require('node:child_process')

const ROOT = path.join(__dirname, '..')
const TYPEDOC = path.join(ROOT, 'node_modules', 'typedoc', 'bin', 'typedoc')
const COMMITTED = path.join(ROOT, 'docs', 'api')

function typedoc(args) {
  return new Promise((resolve) => {
    execFile(process.execPath, [TYPEDOC, '--logLevel', 'Warn', ...args], { cwd: ROOT, encoding: 'utf8', timeout: 300_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? (err.code ?? err.signal) : 0, text: `${stdout}${stderr}` }),
    )
  })
}

/** The files under `dir`, relative path -> content. */
function tree(dir) {
  const files = new Map()
  const walk = (rel) => {
    for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const r = path.posix.join(rel, e.name)
      if (e.isDirectory()) walk(r)
      else files.set(r, fs.readFileSync(path.join(dir, r), 'utf8'))
    }
  }
  if (fs.existsSync(dir)) walk('')
  return files
}

test('TypeDoc renders index.d.ts with no warning, into exactly the committed docs/api/', async (t) => {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'api-docs-'))
  try {
    const r = await typedoc(['--out', out])
    t.is(r.code, 0, r.text)
    const fresh = tree(out)
    const committed = tree(COMMITTED)
    const differ = [...new Set([...fresh.keys(), ...committed.keys()])]
      .filter((f) => fresh.get(f) !== committed.get(f))
      .map((f) => `${f}: ${!committed.has(f) ? 'not committed' : !fresh.has(f) ? 'no longer rendered' : 'differs'}`)
    t.deepEqual(differ, [], 'docs/api/ is not what index.d.ts renders to: run `npm run docs:api` and commit docs/api/')
    // The exports have their pages, with their doc comments.
    t.regex(fresh.get('variables/sha.md') ?? '', /The hash functions/)
    t.regex(fresh.get('interfaces/HybridNamespace.md') ?? '', /The public key comes before the signature/)
  } finally {
    fs.rmSync(out, { recursive: true, force: true })
  }
})

test('the check refuses a member without a doc comment, an overload without one, and a broken link', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'api-docs-undocumented-'))
  try {
    fs.writeFileSync(
      path.join(dir, 'index.d.ts'),
      [
        '/** Documented. */',
        'export interface Shape {',
        '  /** Documented. */',
        '  documented: number',
        '  bare: number',
        '  /** Documented, see {@link Nowhere}. */',
        '  call(a: string): void',
        '  call(a: number): void',
        '}',
        '/** Documented. */',
        'export declare const shape: Shape',
        '',
      ].join('\n'),
    )
    fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, noEmit: true, types: [] }, files: ['index.d.ts'] }))
    // The package's TypeDoc options, over this file (TypeDoc reads the tsconfig named in an
    // options file before the command line, so the fixture's options extend the package's).
    const options = { extends: [path.join(ROOT, 'typedoc.json')], tsconfig: 'tsconfig.json', entryPoints: ['index.d.ts'] }
    fs.writeFileSync(path.join(dir, 'typedoc.json'), JSON.stringify(options))
    const r = await typedoc(['--options', path.join(dir, 'typedoc.json'), '--emit', 'none'])
    t.not(r.code, 0, r.text)
    t.regex(r.text, /Shape\.bare.*does not have any documentation/)
    t.regex(r.text, /Shape\.call.*does not have any documentation/)
    t.regex(r.text, /Failed to resolve link to "Nowhere"/)
    t.notRegex(r.text, /Shape\.documented/)
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})
