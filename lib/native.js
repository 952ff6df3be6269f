'use strict'
// Loads the native addon through the loader @napi-rs/cli generates (../binding.js): a local
// build (`./cryptographer.<platform>.node`) first, then the `@cryptographer/native-<platform>`
// package, or only the file named by NAPI_RS_NATIVE_LIBRARY_PATH when that is set. When no native
// binary loads (or NAPI_RS_FORCE_WASI is set), the WebAssembly build: a local
// `./cryptographer.wasi.cjs`, then the `@cryptographer/native-wasm32-wasi` package. When nothing
// loads, this throws a single error that names the platform it looked for, every attempt that
// failed and the fix. __test__/loader.spec.js runs this file with simulated platforms.

const PACKAGE = 'cryptographer.js'
// The platform packages are `${BINARY_PACKAGE}-<platform>` (package.json "napi.packageName").
const BINARY_PACKAGE = '@cryptographer/native'

// The targets we publish a prebuilt native binary for, by the platform-arch-abi name napi-rs
// gives them (package.json "napi.targets" less the WebAssembly build; __test__/loader.spec.js
// checks that the two lists agree).
const PREBUILT = [
  'linux-x64-gnu',
  'linux-arm64-gnu',
  'linux-x64-musl',
  'linux-arm64-musl',
  'darwin-x64',
  'darwin-arm64',
  'win32-x64-msvc',
  'win32-arm64-msvc',
]

// 'gnu' or 'musl' on Linux ('' elsewhere), probed in the order binding.js probes it: the text of
// /usr/bin/ldd, then the process report (glibc reports its runtime version; musl does not), then
// `ldd --version`. Only called on the error path.
function libc() {
  if (process.platform !== 'linux') return ''
  try {
    return require('fs').readFileSync('/usr/bin/ldd', 'utf8').includes('musl') ? 'musl' : 'gnu'
  } catch {}
  try {
    const report = process.report && process.report.getReport()
    if (report) {
      if (report.header && report.header.glibcVersionRuntime) return 'gnu'
      const musl = (f) => f.includes('libc.musl-') || f.includes('ld-musl-')
      return Array.isArray(report.sharedObjects) && report.sharedObjects.some(musl) ? 'musl' : 'gnu'
    }
  } catch {}
  try {
    const out = require('child_process').execSync('ldd --version', { encoding: 'utf8', stdio: 'pipe' })
    return out.includes('musl') ? 'musl' : 'gnu'
  } catch {
    return 'gnu'
  }
}

// The platform-arch-abi name the loader looks for on this machine (Windows: the MSVC build).
function targetName(c = libc()) {
  const { platform, arch } = process
  if (platform === 'linux') return `linux-${arch}-${c}`
  if (platform === 'win32') return `win32-${arch}-msvc`
  return `${platform}-${arch}`
}

// The loader throws one summary error whose `.cause` chain holds the failed attempts, newest
// first; list them oldest first, one line each.
function attemptsOf(err) {
  const attempts = []
  for (let e = err && err.cause ? err.cause : err; e && attempts.length < 64; e = e.cause) {
    attempts.unshift(String(e && e.message !== undefined ? e.message : e).split('\n')[0])
  }
  return attempts
}

// The environment variables binding.js reads (Deno asks for a permission for each).
const ENV = ['NAPI_RS_NATIVE_LIBRARY_PATH', 'NAPI_RS_ENFORCE_VERSION_CHECK', 'NAPI_RS_FORCE_WASI', 'NAPI_RS_WASI_FLAVOR']

// A variable of the environment, or undefined when the runtime does not let us read it (Deno
// without --allow-env throws NotCapable), so that the explanation itself never fails.
function envVar(name) {
  try {
    return process.env[name]
  } catch {
    return undefined
  }
}

function explain(err) {
  const c = libc()
  const target = targetName(c)
  const override = envVar('NAPI_RS_NATIVE_LIBRARY_PATH')
  const wasiOnly = envVar('NAPI_RS_FORCE_WASI') === 'error'
  const fix = []
  if (typeof Deno !== 'undefined') {
    fix.push(
      `Deno: run with --allow-ffi --allow-env=${ENV.join(',')}` +
        `${process.platform === 'linux' ? ' --allow-read=/usr/bin/ldd' : ''} (or -A), with the packages in a local node_modules;`,
    )
  }
  if (wasiOnly) {
    fix.push(
      'NAPI_RS_FORCE_WASI is set to "error", so only the WebAssembly build is tried: install ' +
        `"${BINARY_PACKAGE}-wasm32-wasi" (\`npm install ${PACKAGE} --cpu=wasm32\`), or unset it.`,
    )
  } else if (override) {
    fix.push(
      `NAPI_RS_NATIVE_LIBRARY_PATH is set to "${override}", so that is the only file tried: ` +
        `point it at a ${PACKAGE} .node file built for ${target}, or unset it.`,
    )
  } else if (PREBUILT.includes(target)) {
    fix.push(
      `reinstall so npm installs the optional package "${BINARY_PACKAGE}-${target}": delete node_modules ` +
        'and package-lock.json if the lock file was made on another platform, and do not install ' +
        'with --no-optional or --omit=optional;',
      `in a bundler, mark "${PACKAGE}" as external so the .node file is loaded from node_modules;`,
      'in Electron, unpack "**/*.node" from the asar archive (asarUnpack);',
    )
  } else {
    fix.push(
      `no prebuilt binary is published for ${target} (prebuilt: ${PREBUILT.join(', ')});`,
      `install the WebAssembly build instead (slower, Node >= 20.19): \`npm install ${PACKAGE} --cpu=wasm32\` ` +
        `installs "${BINARY_PACKAGE}-wasm32-wasi", which this loader then takes (pnpm, Yarn: add wasm32 to supportedArchitectures.cpu);`,
    )
  }
  fix.push(
    'or build it from source (a clone and Rust: `npm ci && npm run build`) and set ' +
      'NAPI_RS_NATIVE_LIBRARY_PATH to the .node file it writes.',
  )
  const message = [
    `${PACKAGE}: no native binary could be loaded for ${target} (platform ${process.platform}, ` +
      `arch ${process.arch}${c ? `, libc ${c}` : ''}, Node ${process.version}).`,
    'Attempts:',
    ...attemptsOf(err).map((a) => `  - ${a}`),
    'How to fix:',
    ...fix.map((f) => `  - ${f}`),
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
// binding.js falls back to the WebAssembly build when the file NAPI_RS_NATIVE_LIBRARY_PATH names
// does not load; that variable means "only this file", so that fallback is an error here (unless
// the WebAssembly build was asked for, or is the file named).
const override = envVar('NAPI_RS_NATIVE_LIBRARY_PATH')
if (override && binding.__napiBindingTarget === 'wasm32-wasi' && !envVar('NAPI_RS_FORCE_WASI') && !/\.c?js$/.test(override)) {
  let cause
  try {
    require(override)
  } catch (err) {
    cause = err
  }
  throw explain(cause)
}

// The WebAssembly build hands each result Buffer out as a view of its linear memory, which it
// frees when that one Buffer object is collected: a subarray or another view made from it
// outlives the bytes and later shows whatever reuses them (two hybrid key pairs generated at once
// showed zeros and each other's bytes). Under that build every result leaves as a copy of its own.
const isWasmMemory = (memory) => Object.prototype.toString.call(memory) === '[object SharedArrayBuffer]'

function owned(value) {
  if (ArrayBuffer.isView(value)) {
    if (!isWasmMemory(value.buffer)) return value
    return Buffer.isBuffer(value) ? Buffer.from(value) : new value.constructor(value)
  }
  if (value === null || typeof value !== 'object') return value
  if (typeof value.then === 'function') return value.then(owned)
  if (Array.isArray(value) || Object.getPrototypeOf(value) === Object.prototype) {
    for (const key of Object.keys(value)) value[key] = owned(value[key])
  }
  return value
}

function ownResults(fn) {
  return function (...args) {
    return owned(Reflect.apply(fn, this, args))
  }
}

if (binding.__napiBindingTarget === 'wasm32-wasi') {
  const wrapped = {}
  for (const [name, value] of Object.entries(binding)) {
    const methods = typeof value === 'function' ? Object.getOwnPropertyNames(value.prototype || {}) : []
    if (methods.length > 1) {
      // A class: its methods return results too.
      for (const m of methods) {
        const d = Object.getOwnPropertyDescriptor(value.prototype, m)
        if (m !== 'constructor' && typeof d.value === 'function') value.prototype[m] = ownResults(d.value)
      }
      wrapped[name] = value
    } else {
      wrapped[name] = typeof value === 'function' ? ownResults(value) : value
    }
  }
  binding = wrapped
}

module.exports = binding
