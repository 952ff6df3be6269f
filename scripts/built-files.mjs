// The .node files a binary check reads: those named on its command line, else every file matching
// `pattern` in the repo root and in npm/*/ (where `napi artifacts` puts the release binaries).
// Exits with status 2 when there is none.
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

export function builtFiles(named, pattern, check) {
  const files = named.map((f) => path.resolve(f))
  if (files.length === 0) {
    const dirs = [root]
    const npmDir = path.join(root, 'npm')
    if (fs.existsSync(npmDir)) dirs.push(...fs.readdirSync(npmDir).map((d) => path.join(npmDir, d)))
    for (const dir of dirs.filter((d) => fs.existsSync(d))) files.push(...fs.readdirSync(dir).filter((f) => pattern.test(f)).map((f) => path.join(dir, f)))
  }
  if (files.length === 0) {
    console.error(`${check}: no file matching ${pattern} found (build one, or pass files)`)
    process.exit(2)
  }
  return files
}
