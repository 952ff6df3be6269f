#!/usr/bin/env node
// The loader napi build generates (binding.js) has the package version written into it: with
// NAPI_RS_ENFORCE_VERSION_CHECK=1 it refuses a platform package of another version. `npm version`
// bumps package.json (and, through `napi version`, npm/*/package.json) but does not rebuild, so
// this rewrites those version literals to package.json's version without a cargo build.
// The result is what `npm run build` would generate (only the literals differ between versions).
//
// Usage: node scripts/sync-binding-version.mjs [--check]   (--check: exit 1 if out of date)
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const { version } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'))
const file = path.join(root, 'binding.js')
const before = fs.readFileSync(file, 'utf8')
const patterns = [/(bindingPackageVersion !== ')([^']*)(')/g, /(version mismatch, expected )(\S+)( but got)/g]
const found = new Set()
let after = before
for (const re of patterns) {
  after = after.replace(re, (_, a, v, b) => {
    found.add(v)
    return `${a}${version}${b}`
  })
}
if (found.size === 0) {
  console.error('sync-binding-version: no version literal found in binding.js (did napi change its loader?)')
  process.exit(2)
}
if (process.argv.includes('--check')) {
  const stale = [...found].filter((v) => v !== version)
  if (stale.length) {
    console.error(`binding.js checks platform packages against ${stale.join(', ')}, package.json is ${version}: run node scripts/sync-binding-version.mjs (npm version does)`)
    process.exit(1)
  }
  console.log(`binding.js version literals: ${version}`)
} else if (after !== before) {
  fs.writeFileSync(file, after)
  console.log(`binding.js: version literals ${[...found].join(', ')} -> ${version}`)
}
