#!/usr/bin/env node
// npm run test:package — install the package the way users get it, from packed tarballs, offline.
//
// 1. `npm pack --dry-run --json` of the root package: only the runtime files (with the
//    `cryptographer.js bench` command), no tests, the repository's benchmark, Rust sources or
//    binaries (those ship in the platform packages).
// 2. `npm pack` the root package and this machine's platform package (npm/<target>/ with the
//    built .node copied in; the platform packages are normally filled by `napi artifacts`).
// 3. `npm install` both tarballs into a fresh temporary project with no registry and an empty
//    cache (--offline, registry pointed at a closed port), then there:
//    require() and ESM import hash like node:crypto, the addon comes from the platform package,
//    `npx cryptographer.js bench --quick` runs, and a typed usage file compiles with
//    `tsc --noEmit` against the installed types.
//
// Usage: node scripts/test-package.mjs [--binary path/to/cryptographer.<target>.node] [--keep]
// The binary defaults to the one `npm run build` (or build:release) left in the repo root.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'))
const args = process.argv.slice(2)
const keep = args.includes('--keep')
const binaryArg = args.includes('--binary') ? args[args.indexOf('--binary') + 1] : null
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
const started = Date.now()

let failures = 0
const check = (ok, what, detail = '') => {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}${!ok && detail ? `\n     ${detail}` : ''}`)
  if (!ok) failures++
}
// npm is a .cmd script on Windows, which only runs through a shell (so quote its arguments).
const run = (cmd, argv, opts = {}) => {
  const viaShell = process.platform === 'win32' && cmd === npm
  const args = viaShell ? argv.map((a) => (/[\s"]/.test(a) ? `"${a.replace(/"/g, '\\"')}"` : a)) : argv
  return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], shell: viaShell, ...opts })
}

// This machine's napi target name (the same rule as lib/native.js).
function hostTarget() {
  const { platform, arch } = process
  if (platform === 'linux') {
    const report = process.report.getReport()
    const glibc = report.header && report.header.glibcVersionRuntime
    return `linux-${arch}-${glibc ? 'gnu' : 'musl'}`
  }
  return platform === 'win32' ? `win32-${arch}-msvc` : `${platform}-${arch}`
}
const target = hostTarget()
const platformDir = path.join(root, 'npm', target)
const binaryName = `${pkg.napi.binaryName}.${target}.node`
// The platform package's npm name: `<napi.packageName>-<target>`, e.g. @cryptographer/native-linux-x64-gnu.
const platformName = `${pkg.napi.packageName}-${target}`
const binary = path.resolve(binaryArg || path.join(root, binaryName))

function main() {
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'cryptographer-package-'))
try {
  // --- 1. what the root tarball holds -------------------------------------------------------
  check(!pkg.optionalDependencies, 'package.json lists no optionalDependencies (napi prepublish writes them at publish time)')
  const [dry] = JSON.parse(run(npm, ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root }))
  const files = dry.files.map((f) => f.path).sort()
  console.log(`     root tarball: ${files.length} files, ${dry.size} bytes packed: ${files.join(' ')}`)
  const unwanted = files.filter((f) =>
    /^(__test__|test|tests|benchmark|bench|src|scripts|npm|target|artifacts|docs|\.github|\.ci|\.cargo)\//.test(f) ||
    /\.(rs|node|tgz|map)$/.test(f) ||
    /^(Cargo\.(toml|lock)|build\.rs|rustfmt\.toml|package-lock\.json|\.gitignore|\.gitattributes)$/.test(f),
  )
  check(unwanted.length === 0, 'no tests, benchmarks, Rust sources, binaries or build files in the root tarball', unwanted.join(', '))
  for (const need of ['package.json', 'index.js', 'index.mjs', 'index.d.ts', 'index.d.mts', 'binding.js', 'lib/native.js']) {
    check(files.includes(need), `root tarball has ${need}`)
  }
  // Every file index.js can require at runtime is in the tarball.
  const libFiles = fs.readdirSync(path.join(root, 'lib')).filter((f) => f.endsWith('.js')).map((f) => `lib/${f}`)
  check(libFiles.every((f) => files.includes(f)), 'every lib/*.js is in the tarball', libFiles.filter((f) => !files.includes(f)).join(', '))

  // --- 2. pack the root and the platform package --------------------------------------------
  if (!fs.existsSync(binary)) {
    throw new Error(`no built addon at ${binary}: run \`npm run build\` (or build:release) first, or pass --binary`)
  }
  if (!fs.existsSync(path.join(platformDir, 'package.json'))) {
    throw new Error(`no platform package for ${target} at ${platformDir} (napi create-npm-dirs makes them)`)
  }
  const tarballs = path.join(work, 'tarballs')
  fs.mkdirSync(tarballs)
  const packTo = (cwd) => {
    const [info] = JSON.parse(run(npm, ['pack', '--json', '--ignore-scripts', '--pack-destination', tarballs], { cwd }))
    return { file: path.join(tarballs, info.filename), files: info.files.map((f) => f.path).sort(), size: info.size }
  }
  const rootTgz = packTo(root)
  const staged = path.join(work, `platform-${target}`)
  fs.cpSync(platformDir, staged, { recursive: true })
  fs.copyFileSync(binary, path.join(staged, binaryName))
  const platformPkg = JSON.parse(fs.readFileSync(path.join(staged, 'package.json'), 'utf8'))
  check(platformPkg.version === pkg.version, `platform package version ${platformPkg.version} matches the root's ${pkg.version}`)
  check(platformPkg.name === platformName, `platform package is named ${platformName}`, `name: ${platformPkg.name}`)
  check(
    fs.readFileSync(path.join(staged, 'LICENSE'), 'utf8') === fs.readFileSync(path.join(root, 'LICENSE'), 'utf8'),
    `npm/${target}/LICENSE is the repository's LICENSE`,
  )
  const platformTgz = packTo(staged)
  check(
    JSON.stringify(platformTgz.files) === JSON.stringify(['LICENSE', 'README.md', 'THIRD-PARTY-LICENSES', binaryName, 'package.json'].sort()),
    `platform tarball ${path.basename(platformTgz.file)} holds only package.json, README.md, LICENSE, THIRD-PARTY-LICENSES and ${binaryName} (${platformTgz.size} bytes)`,
    platformTgz.files.join(', '),
  )

  // --- 3. install both offline into a fresh project -----------------------------------------
  const app = path.join(work, 'app')
  fs.mkdirSync(app)
  fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'package-test-app', version: '1.0.0', private: true }, null, 2))
  run(npm, [
    'install', '--offline', '--registry', 'http://127.0.0.1:9/', '--cache', path.join(work, 'empty-npm-cache'),
    '--no-audit', '--no-fund', '--ignore-scripts', '--no-package-lock',
    rootTgz.file, platformTgz.file,
  ], { cwd: app })
  // Top-level entries, with a scope directory (@cryptographer) listed as @scope/name.
  const modules = path.join(app, 'node_modules')
  const installed = fs.readdirSync(modules).filter((d) => !d.startsWith('.'))
    .flatMap((d) => (d.startsWith('@') ? fs.readdirSync(path.join(modules, d)).map((n) => `${d}/${n}`) : [d])).sort()
  check(
    JSON.stringify(installed) === JSON.stringify([pkg.name, platformName].sort()),
    `offline install from the two tarballs (node_modules: ${installed.join(', ')})`,
  )

  fs.writeFileSync(path.join(app, 'check.cjs'), CHECK_CJS)
  fs.writeFileSync(path.join(app, 'check.mjs'), CHECK_MJS)
  for (const file of ['check.cjs', 'check.mjs']) {
    let out
    try {
      out = JSON.parse(run(process.execPath, [file], { cwd: app }))
    } catch (err) {
      check(false, `${file}`, String(err.stderr || err.message))
      continue
    }
    check(out.mismatches.length === 0, `${file}: ${out.checked} digests equal node:crypto's`, out.mismatches.join('; '))
    const expected = path.join(fs.realpathSync(app), 'node_modules', ...platformName.split('/'), binaryName)
    check(
      out.loaded.length === 1 && out.loaded[0] === expected,
      `${file}: the addon was loaded from the platform package`,
      `loaded: ${out.loaded.join(', ')}`,
    )
  }

  // The package's command, as a user runs it (`npx cryptographer.js bench`), briefly.
  try {
    const out = run(npm, ['exec', '--offline', '--no', '--cache', path.join(work, 'empty-npm-cache'), '--', 'cryptographer.js', 'bench', '--quick', '--time', '5'], { cwd: app })
    check(/^\| \| cryptographer\.js \| node /m.test(out) && /^Noise: /m.test(out), 'npx cryptographer.js bench: the installed command times ours beside node:crypto and judges the load')
  } catch (err) {
    check(false, 'npx cryptographer.js bench', String(err.stderr || err.message))
  }

  // TypeScript: strict, NodeNext, the installed index.d.ts (and @types/node from this repo).
  fs.writeFileSync(path.join(app, 'usage.mts'), USAGE_MTS)
  fs.writeFileSync(path.join(app, 'usage.cts'), USAGE_CTS)
  fs.writeFileSync(
    path.join(app, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true, noEmit: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022',
        skipLibCheck: false, typeRoots: [path.join(root, 'node_modules', '@types')], types: ['node'],
      },
      files: ['usage.mts', 'usage.cts'],
    }, null, 2),
  )
  try {
    run(process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], { cwd: app })
    check(true, 'tsc --noEmit: typed ESM and CommonJS usage compiles against the installed types')
  } catch (err) {
    check(false, 'tsc --noEmit against the installed types', String(err.stdout || err.message))
  }
} finally {
  if (keep) console.log(`     kept ${work}`)
  else fs.rmSync(work, { recursive: true, force: true })
}
console.log(`${failures ? `${failures} check(s) FAILED` : 'package test passed'} (${((Date.now() - started) / 1000).toFixed(1)} s)`)
process.exitCode = failures ? 1 : 0
}

// ----------------------------------------------------------------------------------------------
// Differential check run inside the temporary project: random inputs, our digest vs node:crypto.
function checkBody(importLine) {
  return `${importLine}
const cases = []
const lengths = [0, 1, 3, 55, 56, 63, 64, 65, 127, 128, 1000, 4096, 100000]
for (const len of lengths) cases.push(nodeCrypto.randomBytes(len))
const mismatches = []
let checked = 0
const same = (what, ours, theirs) => { checked++; if (ours !== theirs) mismatches.push(what + ': ' + ours + ' != ' + theirs) }
for (const data of cases) {
  for (const [ours, theirs] of [['sha1', 'sha1'], ['sha256', 'sha256'], ['sha512', 'sha512'], ['sha3_256', 'sha3-256'], ['md5', 'md5']]) {
    same(ours + ' len ' + data.length, api.sha[ours](data), nodeCrypto.createHash(theirs).update(data).digest('hex'))
    same('hmac-' + ours + ' len ' + data.length, api.hmac[ours](data, { key: 'key' }), nodeCrypto.createHmac(theirs, 'key').update(data).digest('hex'))
  }
  same('sha256 base64 len ' + data.length, api.sha.sha256(data, { outputFormat: 'base64' }), nodeCrypto.createHash('sha256').update(data).digest('base64'))
  const incremental = api.sha.sha256.create().update(data.subarray(0, 7)).update(data.subarray(7)).digest()
  same('incremental sha256 len ' + data.length, incremental, nodeCrypto.createHash('sha256').update(data).digest('hex'))
}
same('sha256 of a string', api.sha.sha256('h\\u00e9llo'), nodeCrypto.createHash('sha256').update('h\\u00e9llo', 'utf8').digest('hex'))
same('named export is the default export\\'s', String(named.sha === api.sha), 'true')
const loaded = Object.keys(require.cache).filter((k) => k.endsWith('.node'))
console.log(JSON.stringify({ checked, mismatches, loaded }))
`
}
// In the .mjs, require.cache is CommonJS's: the addon is loaded through CommonJS either way.
const CHECK_CJS = checkBody(`'use strict'
const nodeCrypto = require('node:crypto')
const api = require('${pkg.name}')
const named = require('${pkg.name}')`)
const CHECK_MJS = checkBody(`import nodeCrypto from 'node:crypto'
import { createRequire } from 'node:module'
import api from '${pkg.name}'
import * as named from '${pkg.name}'
const require = createRequire(import.meta.url)`)

const USAGE_BODY = `
const hex: string = crypto.sha.sha256('abc')
const buf: Buffer = crypto.sha.sha512(new Uint8Array(8), { outputFormat: 'buffer' })
const b64: string = crypto.hmac.sha256('data', { key: Buffer.from('k'), outputFormat: 'base64' })
const h = crypto.sha.blake3.create({ outputLength: 64 })
const digest: Buffer = h.update('a').update(new DataView(new ArrayBuffer(4))).digest('buffer')
const random: Buffer = crypto.randomBytes(16)
const equal: boolean = crypto.timingSafeEqual(random, random)
const pending: Promise<Buffer> = crypto.sha.sha3_256.async(random, { outputFormat: 'buffer', signal: AbortSignal.timeout(1000) })
const pendingMac: Promise<string> = crypto.hmac.sha512.async('data', { key: random })
const pendingXof: Promise<string> = crypto.sha.blake3.async('data', { outputLength: 64 })
// @ts-expect-error: data must be bytes or a string
crypto.sha.sha256(42)
// @ts-expect-error: hmac needs a key
crypto.hmac.sha256('data', {})
// @ts-expect-error: 'buffer' gives a Buffer, not a string
const wrong: string = crypto.sha.sha256('abc', { outputFormat: 'buffer' })
// @ts-expect-error: hmac.X.async needs a key too
crypto.hmac.sha256.async('data')
export { hex, buf, b64, digest, equal, wrong, pending, pendingMac, pendingXof }
`
// ESM resolves to index.d.mts: the default export and the named exports index.mjs has.
const USAGE_MTS = `import crypto from '${pkg.name}'
import { sha, kdf, cipher, randomBytes, type OutputFormat, type AbortError } from '${pkg.name}'
const format: OutputFormat = 'hex'
const named: string = sha.sha256('abc', { outputFormat: format })
const sameObject: boolean = crypto.sha === sha && crypto.kdf === kdf && crypto.cipher === cipher
const bytes: Buffer = randomBytes(4)
const aborted = (e: unknown): e is AbortError => e instanceof kdf.AbortError
export { named, sameObject, bytes, aborted }
${USAGE_BODY}`
const USAGE_CTS = `import crypto = require('${pkg.name}')
${USAGE_BODY}`

main()
