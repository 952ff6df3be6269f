'use strict'
// Loads the native addon through the loader @napi-rs/cli generates (../binding.js): a local
// build (`./cryptographer.<platform>.node`) first, then the `cryptographer.js-<platform>`
// package, or the file named by NAPI_RS_NATIVE_LIBRARY_PATH. When nothing loads, this throws a
// single error that names the platform it looked for, every attempt that failed and the fix.

function libc() {
  if (process.platform !== 'linux') return ''
  try {
    const report = process.report && process.report.getReport()
    const header = report && (typeof report === 'string' ? JSON.parse(report) : report).header
    if (header && header.glibcVersionRuntime) return 'gnu'
    return 'musl'
  } catch {
    return 'unknown libc'
  }
}

function explain(err) {
  const target = [process.platform, process.arch, libc()].filter(Boolean).join('-')
  const attempts = []
  for (let e = err; e; e = e.cause) {
    attempts.push(`  - ${String(e.message).split('\n')[0]}`)
    if (attempts.length > 32) break
  }
  const message = [
    `cryptographer.js: no native binary could be loaded for ${target} ` +
      `(platform ${process.platform}, arch ${process.arch}${libc() ? `, libc ${libc()}` : ''}, Node ${process.version}).`,
    'Attempts:',
    ...attempts,
    'How to fix:',
    `  - reinstall so npm fetches the optional package "cryptographer.js-${target}" ` +
      '(delete node_modules and package-lock.json if the lock file was made on another platform, ' +
      'and do not install with --no-optional or --omit=optional);',
    '  - in a bundler, mark "cryptographer.js" as external so the .node file is loaded from node_modules;',
    '  - or build from source (`npm run build` in a clone, needs Rust) and set ' +
      'NAPI_RS_NATIVE_LIBRARY_PATH to the .node file.',
  ].join('\n')
  const out = new Error(message)
  out.code = 'ERR_CRYPTOGRAPHER_NATIVE_NOT_FOUND'
  out.cause = err
  return out
}

let binding
try {
  binding = require('../binding.js')
} catch (err) {
  throw explain(err)
}

module.exports = binding
module.exports.explainLoadFailure = explain
