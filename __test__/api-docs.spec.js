'use strict'
// The API reference generated from index.d.ts by TypeDoc (typedoc.json, `npm run docs:api`,
// written to docs/api/): it must build with TypeDoc's validation as errors, so a {@link} that
// points nowhere, a type the API uses but does not export, or an exported value without a doc
// comment fails here.
const test = require('ava')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { execFile } = require('node:child_process')

const ROOT = path.join(__dirname, '..')

test('TypeDoc renders index.d.ts with no warning (links, exports, doc comments of the exports)', async (t) => {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'api-docs-'))
  try {
    const typedoc = path.join(ROOT, 'node_modules', 'typedoc', 'bin', 'typedoc')
    const r = await new Promise((resolve) => {
      execFile(process.execPath, [typedoc, '--out', out, '--logLevel', 'Warn'], { cwd: ROOT, encoding: 'utf8', timeout: 300_000 }, (err, stdout, stderr) =>
        resolve({ code: err ? (err.code ?? err.signal) : 0, text: `${stdout}${stderr}` }),
      )
    })
    t.is(r.code, 0, r.text)
    t.true(fs.existsSync(path.join(out, 'index.html')))
    // Every exported value of the package has its page, with its doc comment.
    const html = fs.readFileSync(path.join(out, 'variables', 'sha.html'), 'utf8')
    t.regex(html, /The hash functions/)
  } finally {
    fs.rmSync(out, { recursive: true, force: true })
  }
})
