'use strict'
// The loader (lib/native.js around the generated binding.js), run as if on each platform we ship
// for and on some we do not (see helpers/simulate-loader.js), plus the NAPI_RS_NATIVE_LIBRARY_PATH
// override for real, in child processes.
const test = require('ava')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const { parseTriple } = require('@napi-rs/cli')
const { simulate } = require('./helpers/simulate-loader')

const root = path.join(__dirname, '..')
const PKG = 'cryptographer.js'
const pkgJson = require('../package.json')
// The platform packages: `<napi.packageName>-<platform-arch-abi>`, e.g. @cryptographer/native-linux-x64-gnu.
const BIN = pkgJson.napi.packageName

// Every target in package.json napi.targets, as (platform, arch, libc) → platform-arch-abi: the
// native ones, and the WebAssembly build (platform 'wasi').
const TARGETS = pkgJson.napi.targets.map((triple) => {
  const t = parseTriple(triple)
  return { platform: t.platform, arch: t.arch, libc: t.abi === 'musl' ? 'musl' : t.abi === 'gnu' ? 'gnu' : undefined, name: t.platformArchABI }
})
const SUPPORTED = TARGETS.filter((t) => t.platform !== 'wasi')
const WASI = `${BIN}-wasm32-wasi`

const present = (name, value = { loaded: name }, version = pkgJson.version) => ({
  [`${BIN}-${name}`]: value,
  [`${BIN}-${name}/package.json`]: { version },
})

test('the eight native targets and the WebAssembly build are the ones the package declares', (t) => {
  t.deepEqual(TARGETS.filter((s) => s.platform === 'wasi').map((s) => s.name), ['wasm32-wasi'])
  t.deepEqual(SUPPORTED.map((s) => s.name).sort(), [
    'darwin-arm64',
    'darwin-x64',
    'linux-arm64-gnu',
    'linux-arm64-musl',
    'linux-x64-gnu',
    'linux-x64-musl',
    'win32-arm64-msvc',
    'win32-x64-msvc',
  ])
})

test('the platform packages are scoped: @cryptographer/native-<target>, in binding.js and npm/<target>/', (t) => {
  t.is(BIN, '@cryptographer/native')
  const binding = fs.readFileSync(path.join(root, 'binding.js'), 'utf8')
  for (const s of SUPPORTED) {
    t.true(binding.includes(`require('${BIN}-${s.name}')`), `binding.js requires ${BIN}-${s.name}`)
    const manifest = JSON.parse(fs.readFileSync(path.join(root, 'npm', s.name, 'package.json'), 'utf8'))
    t.is(manifest.name, `${BIN}-${s.name}`)
    t.is(manifest.version, pkgJson.version)
  }
  // No leftover of the old unscoped `cryptographer.js-<target>` names.
  t.false(/require\('cryptographer\.js-/.test(binding))
})

test('npm/wasm32-wasi/ is the WebAssembly package: its loader as main, opted into with --cpu=wasm32, the runtime it needs', (t) => {
  const binding = fs.readFileSync(path.join(root, 'binding.js'), 'utf8')
  t.true(binding.includes(`require('${WASI}')`))
  const manifest = JSON.parse(fs.readFileSync(path.join(root, 'npm', 'wasm32-wasi', 'package.json'), 'utf8'))
  t.is(manifest.name, WASI)
  t.is(manifest.version, pkgJson.version)
  t.is(manifest.main, 'cryptographer.wasi.cjs')
  // npm skips it on every real CPU unless asked for (`npm install --cpu=wasm32`).
  t.deepEqual(manifest.cpu, ['wasm32'])
  for (const f of ['cryptographer.wasm32-wasi.wasm', 'cryptographer.wasi.cjs', 'wasi-worker.mjs', 'LICENSE', 'THIRD-PARTY-LICENSES']) t.true(manifest.files.includes(f), f)
  // The emnapi runtime it loads with is the one the build links against (napi build refuses a mismatch).
  for (const dep of ['@emnapi/core', '@emnapi/runtime']) t.is(manifest.dependencies[dep], pkgJson.devDependencies[dep], dep)
  t.is(manifest.dependencies['@napi-rs/wasm-runtime'], `~${pkgJson.devDependencies['@napi-rs/wasm-runtime']}`)
})

const wasiPresent = () => ({ [WASI]: { loaded: 'wasm32-wasi' }, [`${WASI}/package.json`]: { version: pkgJson.version } })

test('a platform without a prebuilt binary loads the WebAssembly package when it is installed', (t) => {
  const r = simulate({ platform: 'freebsd', arch: 'x64', modules: wasiPresent() })
  t.falsy(r.error, r.error && r.error.message)
  t.is(r.binding.loaded, 'wasm32-wasi')
  t.is(r.binding.__napiBindingTarget, 'wasm32-wasi')
})

test('a native binary is preferred to the WebAssembly package, which NAPI_RS_FORCE_WASI=error forces', (t) => {
  const modules = { ...present('linux-x64-gnu'), ...wasiPresent() }
  const native = simulate({ platform: 'linux', arch: 'x64', libc: 'gnu', modules })
  t.is(native.binding.loaded, 'linux-x64-gnu')
  t.false(native.requests.includes(WASI))
  const forced = simulate({ platform: 'linux', arch: 'x64', libc: 'gnu', modules, env: { NAPI_RS_FORCE_WASI: 'error' } })
  t.is(forced.binding.loaded, 'wasm32-wasi')
  t.false(forced.requests.includes(`${BIN}-linux-x64-gnu`))
})

test('NAPI_RS_FORCE_WASI=error without the WebAssembly package: the error says only it was tried and how to install it', (t) => {
  const r = simulate({ platform: 'linux', arch: 'x64', libc: 'gnu', modules: present('linux-x64-gnu'), env: { NAPI_RS_FORCE_WASI: 'error' } })
  t.is(r.error.code, 'ERR_CRYPTOGRAPHER_NATIVE_NOT_FOUND')
  t.true(r.error.message.includes(`  - Cannot find module '${WASI}'`), r.error.message)
  t.true(r.error.message.includes('NAPI_RS_FORCE_WASI is set to "error", so only the WebAssembly build is tried'), r.error.message)
  t.true(r.error.message.includes('--cpu=wasm32'), r.error.message)
})

test('a package under the old unscoped name is not loaded', (t) => {
  const r = simulate({ platform: 'linux', arch: 'x64', libc: 'gnu', modules: { [`${PKG}-linux-x64-gnu`]: { loaded: 'old name' } } })
  t.truthy(r.error)
  t.false(r.requests.includes(`${PKG}-linux-x64-gnu`))
  t.true(r.error.message.includes(`reinstall so npm installs the optional package "${BIN}-linux-x64-gnu"`), r.error.message)
})

for (const s of SUPPORTED) {
  const label = `${s.platform} ${s.arch}${s.libc ? ` ${s.libc}` : ''}`

  test(`${label}: loads ${BIN}-${s.name} when it is installed`, (t) => {
    const r = simulate({ ...s, modules: present(s.name) })
    t.falsy(r.error, r.error && r.error.message)
    t.is(r.binding.loaded, s.name)
    t.true(r.requests.includes(`${BIN}-${s.name}`))
    // The local build next to binding.js is tried first, and no package of another libc/arch.
    t.true(r.requests.indexOf(`./cryptographer.${s.name}.node`) < r.requests.indexOf(`${BIN}-${s.name}`))
    const others = SUPPORTED.filter((o) => o.name !== s.name).map((o) => `${BIN}-${o.name}`)
    t.deepEqual(r.requests.filter((id) => others.includes(id)), [])
  })

  test(`${label}: a local build beats the installed package`, (t) => {
    const r = simulate({ ...s, modules: { [`./cryptographer.${s.name}.node`]: { loaded: 'local' }, ...present(s.name) } })
    t.is(r.binding.loaded, 'local')
    t.false(r.requests.includes(`${BIN}-${s.name}`))
  })

  test(`${label}: without the package, one error naming the target, every attempt and the fix`, (t) => {
    const r = simulate(s)
    t.truthy(r.error)
    const { message } = r.error
    t.is(r.error.code, 'ERR_CRYPTOGRAPHER_NATIVE_NOT_FOUND')
    t.true(message.startsWith(`${PKG}: no native binary could be loaded for ${s.name} (platform ${s.platform}, arch ${s.arch}`), message)
    if (s.libc) t.true(message.includes(`libc ${s.libc}`), message)
    else t.false(message.includes('libc'), message)
    // Every attempt the loader made, in order, one line each.
    const attempts = message.split('\nAttempts:\n')[1].split('\nHow to fix:\n')[0].split('\n')
    const expected = [
      ...(s.platform === 'darwin' ? [`./cryptographer.darwin-universal.node`, `${BIN}-darwin-universal`] : []),
      `./cryptographer.${s.name}.node`,
      `${BIN}-${s.name}`,
      './cryptographer.wasi.cjs',
      `${BIN}-wasm32-wasi`,
    ].map((id) => `  - Cannot find module '${id}'`)
    t.deepEqual(attempts, expected)
    t.true(message.includes(`reinstall so npm installs the optional package "${BIN}-${s.name}"`), message)
    t.true(message.includes('--omit=optional'))
    t.true(message.includes('mark "cryptographer.js" as external'))
    t.true(message.includes('asarUnpack'))
    t.true(message.includes('NAPI_RS_NATIVE_LIBRARY_PATH'))
    // The loader's own error, with its chain of attempts, stays reachable as the cause.
    t.regex(r.error.cause.message, /^Cannot find native binding/)
  })
}

// musl detection: the loader asks /usr/bin/ldd, then the process report, then `ldd --version`.
// Each probe alone must be enough, and lib/native.js must name the libc the loader chose.
for (const arch of ['x64', 'arm64']) {
  for (const libc of ['gnu', 'musl']) {
    for (const probes of [['ldd'], ['report'], ['exec'], ['ldd', 'report', 'exec']]) {
      test(`musl detection: linux ${arch} ${libc} from ${probes.join('+')}`, (t) => {
        const name = `linux-${arch}-${libc}`
        t.is(simulate({ platform: 'linux', arch, libc, probes, modules: present(name) }).binding.loaded, name)
        const r = simulate({ platform: 'linux', arch, libc, probes })
        t.true(r.requests.includes(`${BIN}-${name}`))
        t.false(r.requests.includes(`${BIN}-linux-${arch}-${libc === 'gnu' ? 'musl' : 'gnu'}`))
        t.true(r.error.message.includes(`for ${name} (platform linux, arch ${arch}, libc ${libc},`), r.error.message)
      })
    }
  }
}

test('musl detection: with no probe answering, glibc is assumed (and said)', (t) => {
  const r = simulate({ platform: 'linux', arch: 'x64', libc: 'musl', probes: [] })
  t.deepEqual(r.requests, ['./cryptographer.linux-x64-gnu.node', `${BIN}-linux-x64-gnu`])
  t.true(r.error.message.includes('libc gnu'))
})

test('the error names the real load failure, e.g. a binary that needs a newer glibc', (t) => {
  const dlopen = new Error(`/lib/x86_64-linux-gnu/libc.so.6: version \`GLIBC_2.34' not found (required by .../cryptographer.linux-x64-gnu.node)`)
  const r = simulate({ platform: 'linux', arch: 'x64', libc: 'gnu', modules: { ...present('linux-x64-gnu'), [`${BIN}-linux-x64-gnu`]: dlopen } })
  t.true(r.error.message.includes("  - /lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.34' not found"), r.error.message)
})

test('a platform package of another version is reported when NAPI_RS_ENFORCE_VERSION_CHECK=1', (t) => {
  const modules = present('darwin-arm64', { loaded: 'old' }, '0.0.1')
  t.is(simulate({ platform: 'darwin', arch: 'arm64', modules }).binding.loaded, 'old') // not enforced by default
  const r = simulate({ platform: 'darwin', arch: 'arm64', modules, env: { NAPI_RS_ENFORCE_VERSION_CHECK: '1' } })
  t.true(r.error.message.includes(`  - Native binding package version mismatch, expected ${pkgJson.version} but got 0.0.1.`), r.error.message)
})

// Platforms without a prebuilt binary.
const UNSUPPORTED = [
  { platform: 'linux', arch: 'ia32', libc: 'gnu', name: 'linux-ia32-gnu', attempt: 'Unsupported architecture on Linux: ia32' },
  { platform: 'linux', arch: 'arm', libc: 'musl', name: 'linux-arm-musl', attempt: `Cannot find module '${BIN}-linux-arm-musleabihf'` },
  { platform: 'freebsd', arch: 'x64', name: 'freebsd-x64', attempt: `Cannot find module '${BIN}-freebsd-x64'` },
  { platform: 'win32', arch: 'ia32', name: 'win32-ia32-msvc', attempt: `Cannot find module '${BIN}-win32-ia32-msvc'` },
  { platform: 'aix', arch: 'ppc64', name: 'aix-ppc64', attempt: 'Unsupported OS: aix, architecture: ppc64' },
]
for (const u of UNSUPPORTED) {
  test(`unsupported ${u.platform} ${u.arch}: the error says no prebuilt binary exists and how to build one`, (t) => {
    const r = simulate(u)
    const { message } = r.error
    t.is(r.error.code, 'ERR_CRYPTOGRAPHER_NATIVE_NOT_FOUND')
    t.true(message.startsWith(`${PKG}: no native binary could be loaded for ${u.name} (platform ${u.platform}, arch ${u.arch}`), message)
    if (u.libc) t.true(message.includes(`libc ${u.libc}`))
    t.true(message.includes(`  - ${u.attempt}`), message)
    t.true(message.includes(`no prebuilt binary is published for ${u.name}`), message)
    t.true(message.includes(`\`npm install ${PKG} --cpu=wasm32\` installs "${WASI}"`), message)
    // The list of prebuilt targets in the message is exactly what package.json ships.
    const listed = message.match(/\(prebuilt: ([^)]*)\)/)[1].split(', ')
    t.deepEqual(listed.sort(), SUPPORTED.map((s) => s.name).sort())
    t.true(message.includes('build it from source'))
    t.false(message.includes('reinstall so npm installs'))
    // Nothing of ours for a supported platform was asked for.
    t.deepEqual(r.requests.filter((id) => SUPPORTED.some((s) => id === `${BIN}-${s.name}`)), [])
  })
}

test('NAPI_RS_NATIVE_LIBRARY_PATH: only that file is loaded (simulated)', (t) => {
  const file = '/opt/custom/cryptographer.node'
  const r = simulate({ platform: 'linux', arch: 'x64', libc: 'gnu', env: { NAPI_RS_NATIVE_LIBRARY_PATH: file }, modules: { [file]: { loaded: 'override' }, ...present('linux-x64-gnu') } })
  t.is(r.binding.loaded, 'override')
  t.deepEqual(r.requests, [file])
})

test('NAPI_RS_NATIVE_LIBRARY_PATH pointing nowhere: the error names it and nothing else is tried', (t) => {
  const file = '/opt/missing.node'
  const r = simulate({ platform: 'win32', arch: 'x64', env: { NAPI_RS_NATIVE_LIBRARY_PATH: file }, modules: present('win32-x64-msvc') })
  const { message } = r.error
  t.deepEqual(r.requests, [file])
  t.true(message.includes(`  - Cannot find module '${file}'`), message)
  t.true(message.includes(`NAPI_RS_NATIVE_LIBRARY_PATH is set to "${file}", so that is the only file tried`), message)
  t.false(message.includes('reinstall'))
})

// The real thing: a child process with the variable set, loading a copy of the built addon.
function builtAddon() {
  require('../lib/native.js')
  const found = Object.keys(require.cache).filter((k) => k.endsWith('.node'))
  if (found.length !== 1) throw new Error(`expected one loaded .node, got ${found.join(', ')}`)
  return found[0]
}

const CHILD = `
const crypto = require(${JSON.stringify(root)})
const loaded = Object.keys(require.cache).filter((k) => k.endsWith('.node'))
console.log(JSON.stringify({ loaded, digest: crypto.sha.sha256('abc') }))
`

test('NAPI_RS_NATIVE_LIBRARY_PATH loads the named .node for real, and a bad path fails with the full error', (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cryptographer-override-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  const copy = path.join(dir, 'elsewhere.node')
  fs.copyFileSync(builtAddon(), copy)
  const run = (value) =>
    spawnSync(process.execPath, ['-e', CHILD], { env: { ...process.env, NAPI_RS_NATIVE_LIBRARY_PATH: value }, encoding: 'utf8' })

  const ok = run(copy)
  t.is(ok.status, 0, ok.stderr)
  const out = JSON.parse(ok.stdout)
  t.deepEqual(out.loaded, [fs.realpathSync(copy)])
  t.is(out.digest, require('node:crypto').createHash('sha256').update('abc').digest('hex'))

  const missing = path.join(dir, 'missing.node')
  const bad = run(missing)
  t.not(bad.status, 0)
  t.true(bad.stderr.includes(`cryptographer.js: no native binary could be loaded for ${process.platform}-`), bad.stderr)
  t.true(bad.stderr.includes(`Cannot find module '${missing}'`), bad.stderr)
  t.true(bad.stderr.includes(`NAPI_RS_NATIVE_LIBRARY_PATH is set to "${missing}"`), bad.stderr)
  t.true(bad.stderr.includes("code: 'ERR_CRYPTOGRAPHER_NATIVE_NOT_FOUND'"), bad.stderr)
})

// The WebAssembly build for real (`npm run build:wasm` leaves it next to binding.js): forced on
// this machine, it loads and hashes like node:crypto. CI builds it first (WASI_BUILD_REQUIRED=1);
// elsewhere without the build the test is skipped and says so.
const wasiBuilt = fs.existsSync(path.join(root, 'cryptographer.wasi.cjs'))
if (!wasiBuilt && process.env.WASI_BUILD_REQUIRED !== '1') {
  test('the WebAssembly build, forced: not built here (npm run build:wasm), not checked', (t) => {
    t.log('not checked: require() of the WebAssembly build with NAPI_RS_FORCE_WASI=error')
    t.false(wasiBuilt)
  })
} else {
  test('NAPI_RS_FORCE_WASI=error loads the WebAssembly build for real, which hashes like node:crypto, keeps error codes and refuses the file functions', (t) => {
    const child = `
const crypto = require(${JSON.stringify(root)})
const target = require(${JSON.stringify(path.join(root, 'binding.js'))}).__napiBindingTarget
const loaded = Object.keys(require.cache).filter((k) => k.endsWith('.node'))
// Errors keep their class and code through napi-rs functions too; the file functions refuse.
const codeOf = (f) => { try { f() } catch (e) { return e.constructor.name + ' ' + e.code } }
const refusals = [
  codeOf(() => crypto.sha.sha256.fileSync(__filename)),
  codeOf(() => crypto.cipher.aes.decrypt(Buffer.alloc(40), { key: Buffer.alloc(32) })),
]
crypto.sha.sha256.file(__filename).then(
  () => console.log('{}'),
  (e) => console.log(JSON.stringify({ target, loaded, digest: crypto.sha.sha256('abc'), refusals: [...refusals, e.code] })),
)
`
    const r = spawnSync(process.execPath, ['--disable-warning=ExperimentalWarning', '-e', child], {
      env: { ...process.env, NAPI_RS_FORCE_WASI: 'error' },
      encoding: 'utf8',
    })
    t.is(r.status, 0, r.stderr)
    const out = JSON.parse(r.stdout)
    t.is(out.target, 'wasm32-wasi')
    t.deepEqual(out.loaded, [])
    t.is(out.digest, require('node:crypto').createHash('sha256').update('abc').digest('hex'))
    t.deepEqual(out.refusals, ['Error ERR_FEATURE_UNAVAILABLE_ON_PLATFORM', 'Error ERR_CRYPTO_DECRYPT_FAILED', 'ERR_FEATURE_UNAVAILABLE_ON_PLATFORM'])
  })

  test('the WebAssembly build, forced: results are memory of their own, so a subarray kept after its result was collected keeps its bytes', (t) => {
    // The build hands result Buffers out as views of its shared linear memory, freed when that
    // Buffer object is collected; lib/native.js copies them. Without the copy, the kept public
    // keys below change once their results are collected and more keys are made.
    const child = `
const native = require(${JSON.stringify(path.join(root, 'lib', 'native.js'))})
const mlkem768 = native.kemAlgorithms().find((a) => a.name === 'ML-KEM-768').id
const shared = (b) => Object.prototype.toString.call(b.buffer) === '[object SharedArrayBuffer]'
const kept = []
let anyShared = false
for (let i = 0; i < 20; i++) {
  const [priv, pub] = native.kemGenerate(mlkem768, Buffer.alloc(64, i), false)
  anyShared ||= shared(priv) || shared(pub)
  kept.push([i, pub.subarray(0, 32), Buffer.from(pub.subarray(0, 32))])
}
// Collected, finalized on a later turn, then the memory reused by more keys.
globalThis.gc()
setTimeout(() => {
  globalThis.gc()
  for (let i = 0; i < 200; i++) native.kemGenerate(mlkem768, Buffer.alloc(64, 255), false)
  native.kemGenerateAsync(mlkem768, Buffer.alloc(64, 7), false, undefined).then((parts) => {
    anyShared ||= parts.some(shared)
    console.log(JSON.stringify({ anyShared, changed: kept.filter(([, view, copy]) => !view.equals(copy)).map(([i]) => i) }))
  })
}, 50)
`
    const r = spawnSync(process.execPath, ['--expose-gc', '--disable-warning=ExperimentalWarning', '-e', child], {
      env: { ...process.env, NAPI_RS_FORCE_WASI: 'error' },
      encoding: 'utf8',
    })
    t.is(r.status, 0, r.stderr)
    t.deepEqual(JSON.parse(r.stdout), { anyShared: false, changed: [] })
  })
}
