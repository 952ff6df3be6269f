'use strict'
// The Pythons an interop test tries, in order: the one named by `envVar`, the project's venv
// `target/<venv>` (created by .ci/run from a pinned requirements file), then python3 and python.
const fs = require('node:fs')
const path = require('node:path')

const ROOT = path.join(__dirname, '..', '..')

function pythonCandidates(envVar, venvName) {
  const list = []
  if (process.env[envVar]) list.push(process.env[envVar])
  const venv = path.join(ROOT, 'target', venvName)
  list.push(path.join(venv, 'bin', 'python'), path.join(venv, 'Scripts', 'python.exe'), 'python3', 'python')
  return list.filter((p) => !p.includes(path.sep) || fs.existsSync(p))
}

module.exports = { pythonCandidates }
