#!/usr/bin/env node
// npm run release:dry-run — everything the publish job does, short of `npm publish`, on a copy.
//
// 1. Stage a copy of the package (the files `npm pack` takes, package.json and npm/) in a temp
//    directory, so nothing in the work tree is touched.
// 2. Gather the built binaries: every cryptographer.<target>.node under --artifacts DIR (the
//    CI artifacts, one folder per target) or, without it, in the repo root (`npm run build`).
//    With --all every target in package.json napi.targets must be there (CI); without it the
//    staged package.json is narrowed to the targets that are (locally: this machine's).
// 3. Check each platform package's manifest: name <napi.packageName>-<target>, version,
//    os/cpu/libc, main, files (the binary, LICENSE and THIRD-PARTY-LICENSES), LICENSE equal to
//    the repo's, THIRD-PARTY-LICENSES present and about this package (`npm run check:licenses`
//    checks it against Cargo.lock), repository equal to the root's (with its npm/<target>
//    directory), publishConfig access public and provenance. Then `napi artifacts` (copies each
//    binary into npm/<target>/) and `napi prepublish -t npm --dry-run --no-gh-release` (napi's
//    own release-package validation).
// 4. `npm pack` every platform package (exactly package.json, README.md, LICENSE,
//    THIRD-PARTY-LICENSES and the binary) and the root package with the optionalDependencies
//    `napi prepublish` writes at publish time (every configured target, at the root's version).
// 5. Install the root tarball and this machine's platform tarball offline into a fresh project
//    (no registry, empty cache), and there require() and import the package: digests equal
//    node:crypto's and the addon is loaded from the platform package.
//
// Usage: node scripts/dry-run-publish.mjs [--artifacts DIR] [--all] [--out DIR] [--no-install] [--keep]
//   --out DIR    also copy the tarballs there (CI uploads them as an artifact)
//   --no-install stop after step 4: nothing built is loaded or run (the publish job, which can
//                mint an npm token, runs no code it has just built; step 5 ran in the dry-run job)
//   --expect-repository URL   fail unless package.json repository.url is URL (CI passes the
//                repository it runs in: npm provenance rejects a mismatch at publish time)
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const require = createRequire(import.meta.url)
const { parseTriple } = require('@napi-rs/cli')
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'))
const args = process.argv.slice(2)
const opt = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : null)
const artifactsDir = opt('--artifacts') && path.resolve(opt('--artifacts'))
const outDir = opt('--out') && path.resolve(opt('--out'))
const expectRepository = opt('--expect-repository')
const requireAll = args.includes('--all')
const install = !args.includes('--no-install')
const keep = args.includes('--keep')
const isWin = process.platform === 'win32'
const npm = isWin ? 'npm.cmd' : 'npm'
const napiCli = path.join(root, 'node_modules', '@napi-rs', 'cli', 'dist', 'cli.js')
const NOTICES = 'THIRD-PARTY-LICENSES' // written by scripts/third-party-licenses.mjs
const started = Date.now()

let failures = 0
const check = (ok, what, detail = '') => {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}${!ok && detail ? `\n     ${detail}` : ''}`)
  if (!ok) failures++
  return ok
}
const run = (cmd, argv, opts = {}) => {
  const viaShell = isWin && cmd === npm
  const a = viaShell ? argv.map((x) => (/[\s"]/.test(x) ? `"${x.replace(/"/g, '\\"')}"` : x)) : argv
  return execFileSync(cmd, a, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], shell: viaShell, ...opts })
}
const readJson = (file) => JSON.parse(fs.readFileSync(file, 'utf8'))
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b)

// This machine's napi target name (the same rule as lib/native.js).
function hostTarget() {
  const { platform, arch } = process
  if (platform === 'linux') return `linux-${arch}-${process.report.getReport().header.glibcVersionRuntime ? 'gnu' : 'musl'}`
  return platform === 'win32' ? `win32-${arch}-msvc` : `${platform}-${arch}`
}

function findBinaries(dir, depth = 0) {
  const found = []
  if (!fs.existsSync(dir) || depth > 3) return found
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name)
    if (entry.isDirectory() && depth < 3 && entry.name !== 'node_modules' && entry.name !== 'target' && entry.name !== 'npm') {
      found.push(...findBinaries(file, depth + 1))
    } else if (entry.isFile() && entry.name.startsWith(`${pkg.napi.binaryName}.`) && /\.node$|\.wasm32-wasi\.wasm$/.test(entry.name)) {
      found.push(file)
    }
  }
  return found
}

function main() {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'cryptographer-dry-run-'))
  try {
    const all = pkg.napi.targets.map((triple) => parseTriple(triple))
    const isWasi = (t) => t.platform === 'wasi'
    const binaryOf = (t) => `${pkg.napi.binaryName}.${t.platformArchABI}.${isWasi(t) ? 'wasm' : 'node'}`
    // The WebAssembly package also ships what napi build writes beside the .wasm: its loader
    // (main), types, browser entry and thread workers, which `napi artifacts` copies in.
    const loaderOf = (t) => (isWasi(t) ? `${pkg.napi.binaryName}.wasi.cjs` : binaryOf(t))
    const shippedOf = (t) =>
      isWasi(t)
        ? [binaryOf(t), loaderOf(t), `${pkg.napi.binaryName}.wasi.d.cts`, `${pkg.napi.binaryName}.wasi-browser.js`, 'wasi-worker.mjs', 'wasi-worker-browser.mjs']
        : [binaryOf(t)]
    const nameOf = (t) => `${pkg.napi.packageName}-${t.platformArchABI}`

    // --- root manifest -------------------------------------------------------------------------
    check(typeof pkg.napi.packageName === 'string' && pkg.napi.packageName.startsWith('@cryptographer/'), `napi.packageName ${pkg.napi.packageName} is in the @cryptographer scope`)
    check(same(pkg.publishConfig, { access: 'public', provenance: true }), 'root publishConfig: access public, provenance', JSON.stringify(pkg.publishConfig))
    check(pkg.repository && typeof pkg.repository.url === 'string', `root repository.url is set (${pkg.repository && pkg.repository.url})`)
    if (expectRepository) {
      check(pkg.repository && pkg.repository.url === expectRepository, `repository.url is the repository this runs in (${expectRepository})`, `package.json has ${pkg.repository && pkg.repository.url}`)
    }
    check(!pkg.optionalDependencies, 'package.json lists no optionalDependencies (napi prepublish writes them at publish time)')
    try {
      run(process.execPath, [path.join(root, 'scripts', 'sync-binding-version.mjs'), '--check'])
      check(true, `binding.js checks platform packages against version ${pkg.version}`)
    } catch (err) {
      check(false, 'binding.js version literals', String(err.stderr || err.message))
    }

    // --- 1. stage --------------------------------------------------------------------------------
    const stage = path.join(work, 'stage')
    const [dry] = JSON.parse(run(npm, ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root }))
    for (const f of dry.files.map((x) => x.path)) {
      fs.mkdirSync(path.dirname(path.join(stage, f)), { recursive: true })
      fs.copyFileSync(path.join(root, f), path.join(stage, f))
    }
    fs.cpSync(path.join(root, 'npm'), path.join(stage, 'npm'), {
      recursive: true,
      filter: (src) => !src.endsWith('.node'), // a stale binary in npm/<target>/ must not leak in
    })

    // --- 2. binaries ---------------------------------------------------------------------------
    const binaries = findBinaries(artifactsDir || root)
    const byName = new Map(binaries.map((f) => [path.basename(f), f]))
    const present = all.filter((t) => byName.has(binaryOf(t)))
    const missing = all.filter((t) => !byName.has(binaryOf(t)))
    console.log(`     binaries from ${artifactsDir || root}: ${present.map((t) => t.platformArchABI).join(', ') || 'none'}`)
    if (requireAll) check(missing.length === 0, `--all: a binary for every target in napi.targets`, `missing: ${missing.map(binaryOf).join(', ')}`)
    else if (missing.length) console.log(`     (not checked here, no binary: ${missing.map((t) => t.platformArchABI).join(', ')})`)
    if (present.length === 0) throw new Error('no binary found: run `npm run build` first, or pass --artifacts DIR')
    const stagedArtifacts = path.join(stage, 'artifacts')
    fs.mkdirSync(stagedArtifacts)
    for (const t of present) {
      for (const f of shippedOf(t)) fs.copyFileSync(path.join(path.dirname(byName.get(binaryOf(t))), f), path.join(stagedArtifacts, f))
    }
    const stagedPkg = readJson(path.join(stage, 'package.json'))
    stagedPkg.napi.targets = pkg.napi.targets.filter((_, i) => present.includes(all[i]))
    fs.writeFileSync(path.join(stage, 'package.json'), JSON.stringify(stagedPkg, null, 2) + '\n')

    // --- 3. platform manifests, napi artifacts, napi prepublish --dry-run ---------------------
    const license = fs.readFileSync(path.join(root, 'LICENSE'), 'utf8')
    for (const t of all) {
      const dir = path.join(root, 'npm', t.platformArchABI)
      const m = readJson(path.join(dir, 'package.json'))
      const problems = []
      if (m.name !== nameOf(t)) problems.push(`name ${m.name}`)
      if (m.version !== pkg.version) problems.push(`version ${m.version} (root ${pkg.version}: run \`napi version\`)`)
      if (m.main !== loaderOf(t)) problems.push(`main ${m.main}`)
      if (!same([...(m.files || [])].sort(), [...shippedOf(t), 'LICENSE', NOTICES].sort())) problems.push(`files ${JSON.stringify(m.files)}`)
      // WebAssembly runs on every OS: that package names a cpu (wasm32, opted into) and no os.
      if (!same(m.os, isWasi(t) ? undefined : [t.platform])) problems.push(`os ${JSON.stringify(m.os)}`)
      if (!same(m.cpu, [t.arch])) problems.push(`cpu ${JSON.stringify(m.cpu)}`)
      const libc = t.abi === 'gnu' ? ['glibc'] : t.abi === 'musl' ? ['musl'] : undefined
      if (!same(m.libc, libc)) problems.push(`libc ${JSON.stringify(m.libc)}`)
      if (!same(m.publishConfig, { access: 'public', provenance: true })) problems.push(`publishConfig ${JSON.stringify(m.publishConfig)}`)
      if (!same(m.repository, { ...pkg.repository, directory: `npm/${t.platformArchABI}` })) problems.push(`repository ${JSON.stringify(m.repository)}`)
      if (m.license !== pkg.license) problems.push(`license ${m.license}`)
      if (!fs.existsSync(path.join(dir, 'LICENSE')) || fs.readFileSync(path.join(dir, 'LICENSE'), 'utf8') !== license) problems.push('LICENSE missing or not the repo LICENSE')
      const notices = path.join(dir, NOTICES)
      if (!fs.existsSync(notices) || !fs.readFileSync(notices, 'utf8').startsWith(`Third-party software in ${nameOf(t)}\n`)) problems.push(`${NOTICES} missing or not about ${nameOf(t)} (npm run licenses)`)
      check(problems.length === 0, `npm/${t.platformArchABI}/package.json: ${nameOf(t)}, files, os/cpu/libc, publishConfig, repository, LICENSE, ${NOTICES}`, problems.join('; '))
    }
    try {
      run(process.execPath, [napiCli, 'artifacts', '--cwd', stage, '--output-dir', 'artifacts'])
      check(present.every((t) => shippedOf(t).every((f) => fs.existsSync(path.join(stage, 'npm', t.platformArchABI, f)))), 'napi artifacts: each binary (and the WebAssembly loader) copied into npm/<target>/')
    } catch (err) {
      check(false, 'napi artifacts', String(err.stderr || err.message))
    }
    // napi prepublish reads the release commit with git, as it would in the real checkout.
    run('git', ['init', '--quiet'], { cwd: stage })
    run('git', ['-c', 'user.name=dry-run', '-c', 'user.email=dry-run@localhost', 'commit', '--quiet', '--allow-empty', '-m', `v${pkg.version}`], { cwd: stage })
    try {
      run(process.execPath, [napiCli, 'prepublish', '--cwd', stage, '-t', 'npm', '--dry-run', '--no-gh-release'])
      check(true, `napi prepublish -t npm --dry-run --no-gh-release: ${present.length} release package(s) valid`)
    } catch (err) {
      check(false, 'napi prepublish -t npm --dry-run --no-gh-release', String(err.stderr || err.stdout || err.message))
    }

    // --- 4. pack ---------------------------------------------------------------------------------
    const tarballs = path.join(work, 'tarballs')
    fs.mkdirSync(tarballs)
    const packTo = (cwd) => {
      const [info] = JSON.parse(run(npm, ['pack', '--json', '--ignore-scripts', '--pack-destination', tarballs], { cwd }))
      return { file: path.join(tarballs, info.filename), files: info.files.map((f) => f.path).sort(), size: info.size }
    }
    const platformTgz = new Map()
    for (const t of present) {
      const tgz = packTo(path.join(stage, 'npm', t.platformArchABI))
      platformTgz.set(t.platformArchABI, tgz)
      check(
        same(tgz.files, ['LICENSE', NOTICES, 'README.md', ...shippedOf(t), 'package.json'].sort()),
        `${path.basename(tgz.file)}: package.json, README.md, LICENSE, ${NOTICES}, ${shippedOf(t).join(', ')} (${tgz.size} bytes)`,
        tgz.files.join(', '),
      )
    }
    // The root as `napi prepublish` leaves it just before `npm publish`: optionalDependencies
    // naming every configured target's package at the root's version.
    const optionalDependencies = Object.fromEntries(all.map((t) => [nameOf(t), pkg.version]))
    fs.writeFileSync(path.join(stage, 'package.json'), JSON.stringify({ ...pkg, optionalDependencies }, null, 2) + '\n')
    const rootTgz = packTo(stage)
    const packedRoot = JSON.parse(run('tar', ['-xzOf', rootTgz.file, 'package/package.json']))
    check(same(packedRoot.optionalDependencies, optionalDependencies), `${path.basename(rootTgz.file)}: optionalDependencies name all ${all.length} @cryptographer/native-* packages at ${pkg.version}`)
    check(!rootTgz.files.some((f) => /\.node$|\.wasm$|wasi/.test(f) || f.startsWith('npm/') || f.startsWith('artifacts/')), `${path.basename(rootTgz.file)}: no binaries, WebAssembly loader, npm/ or artifacts/ (${rootTgz.files.length} files, ${rootTgz.size} bytes)`, rootTgz.files.join(', '))
    if (outDir) {
      fs.mkdirSync(outDir, { recursive: true })
      for (const f of fs.readdirSync(tarballs)) fs.copyFileSync(path.join(tarballs, f), path.join(outDir, f))
      console.log(`     tarballs copied to ${outDir}`)
    }

    // --- 5. offline install of the root + this machine's platform package ---------------------
    if (!install) {
      console.log('     --no-install: the packed binaries are not installed or loaded here')
      return
    }
    const host = hostTarget()
    const hostTgz = platformTgz.get(host)
    if (!check(Boolean(hostTgz), `a platform tarball for this machine (${host}) to install`)) return
    const app = path.join(work, 'app')
    fs.mkdirSync(app)
    fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'dry-run-app', version: '1.0.0', private: true }, null, 2))
    try {
      run(npm, [
        'install', '--offline', '--registry', 'http://127.0.0.1:9/', '--cache', path.join(work, 'empty-npm-cache'),
        '--no-audit', '--no-fund', '--ignore-scripts', '--no-package-lock', rootTgz.file, hostTgz.file,
      ], { cwd: app })
      check(true, `offline npm install of ${path.basename(rootTgz.file)} + ${path.basename(hostTgz.file)} (the other optional packages are skipped)`)
    } catch (err) {
      check(false, 'offline npm install of the root and platform tarballs', String(err.stderr || err.message))
      return
    }
    const expected = path.join(fs.realpathSync(app), 'node_modules', ...`${pkg.napi.packageName}-${host}`.split('/'), `${pkg.napi.binaryName}.${host}.node`)
    const probes = {
      'require.cjs': `const c = require('${pkg.name}')\n`,
      'import.mjs': `import c from '${pkg.name}'\nimport { sha } from '${pkg.name}'\nimport { createRequire } from 'node:module'\nconst require = createRequire(import.meta.url)\nif (sha !== c.sha) throw new Error('named export differs')\n`,
    }
    for (const [file, head] of Object.entries(probes)) {
      fs.writeFileSync(path.join(app, file), `${head}const nodeCrypto = require('node:crypto')
const data = nodeCrypto.randomBytes(1000)
const ok = c.sha.sha256(data) === nodeCrypto.createHash('sha256').update(data).digest('hex') &&
  c.hmac.sha512(data, { key: 'k' }) === nodeCrypto.createHmac('sha512', 'k').update(data).digest('hex')
console.log(JSON.stringify({ ok, loaded: Object.keys(require.cache).filter((k) => k.endsWith('.node')) }))
`)
      try {
        const out = JSON.parse(run(process.execPath, [file], { cwd: app }))
        check(out.ok && same(out.loaded, [expected]), `${file}: digests equal node:crypto's, addon loaded from ${pkg.napi.packageName}-${host}`, JSON.stringify(out))
      } catch (err) {
        check(false, file, String(err.stderr || err.message))
      }
    }
  } finally {
    if (keep) console.log(`     kept ${work}`)
    else fs.rmSync(work, { recursive: true, force: true })
    console.log(`${failures ? `${failures} check(s) FAILED` : 'publish dry run passed'} (${((Date.now() - started) / 1000).toFixed(1)} s)`)
    process.exitCode = failures ? 1 : 0
  }
}

main()
