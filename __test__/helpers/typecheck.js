'use strict'
// Type-checks a TypeScript snippet that imports the package (`import ... from 'cryptographer.js'`,
// resolved to this checkout) against index.d.ts, as a user's strict CommonJS project would:
// returns the compiler's messages, none when the snippet is right (its `@ts-expect-error` lines
// included, each of which must meet an error).
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')

const ROOT = path.join(__dirname, '..', '..')

function typeErrors(source) {
  const ts = require('typescript')
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cryptographer-types-'))
  try {
    const file = path.join(dir, 'usage.ts')
    fs.writeFileSync(file, source.replaceAll("from 'cryptographer.js'", `from ${JSON.stringify(ROOT)}`))
    const program = ts.createProgram([file], {
      strict: true,
      noEmit: true,
      module: ts.ModuleKind.CommonJS,
      target: ts.ScriptTarget.ES2022,
      moduleResolution: ts.ModuleResolutionKind.Node10,
      types: ['node'],
      typeRoots: [path.join(ROOT, 'node_modules', '@types')],
    })
    return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

module.exports = { typeErrors }
