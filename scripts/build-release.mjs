#!/usr/bin/env node
// npm run build:release [-- --target <triple>] — the build that ships.
//
// Linux gnu targets are linked against glibc 2.17 (CentOS/RHEL 7 and every newer distribution):
// `napi build -x --target <triple>.2.17` runs cargo-zigbuild, which links with `zig cc` and
// zig's glibc 2.17 stubs. Then scripts/check-glibc.mjs fails the build if any symbol needs a
// newer glibc. Linux musl targets build with the same zig toolchain (`-x`), then
// scripts/check-musl.mjs fails the build if the file needs anything but musl's libc. macOS targets
// build natively on a Mac; elsewhere with zig too (`-x`), then scripts/check-macho.mjs checks the
// Mach-O file (docs/platforms.md). Windows targets build natively with `napi build --release`.
// The WebAssembly build (`--target wasm32-wasip1-threads`, `npm run build:wasm`) compiles AWS-LC's
// and ring's C with `zig cc` for wasm32-wasi (zig ships wasi-libc with its pthreads), so no
// wasi-sdk is needed.
//
// Zig and cargo-zigbuild come from PyPI (scripts/zig-requirements.txt, pinned by version and
// SHA-256, installed with --require-hashes): when `cargo-zigbuild` is not on PATH, they are
// installed once into a virtualenv under target/zig-venv (scripts/zig.mjs).
// The generated binding.js / binding.d.ts are rewritten like `npm run build` does.
import { execFileSync, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { zigCommand, zigEnv } from './zig.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const args = process.argv.slice(2)
const targetAt = args.findIndex((a) => a === '--target' || a === '-t')
const hostTriple = /host: (\S+)/.exec(execFileSync('rustc', ['-vV'], { encoding: 'utf8' }))[1]
const triple = targetAt === -1 ? hostTriple : args[targetAt + 1]
const rest = targetAt === -1 ? args : args.filter((_, i) => i !== targetAt && i !== targetAt + 1)
const GLIBC_FLOOR = '2.17'

function run(cmd, argv, env = process.env) {
  console.log(`$ ${cmd} ${argv.join(' ')}`)
  const r = spawnSync(cmd, argv, { stdio: 'inherit', cwd: root, env })
  if (r.status !== 0) process.exit(r.status || 1)
}

// The napi name of a triple's architecture, and the file napi writes for `target` ([] if absent).
const arch = (t) => (t.startsWith('aarch64') ? 'arm64' : t.startsWith('x86_64') ? 'x64' : null)
function builtFile(target) {
  const outAt = rest.findIndex((a) => a === '-o' || a === '--output-dir')
  const file = path.join(outAt === -1 ? root : path.resolve(root, rest[outAt + 1]), `cryptographer.${target}.node`)
  return fs.existsSync(file) ? [file] : []
}

// `zig cc` as the C compiler and archiver of the wasm32-wasip1-threads target: two wrapper
// scripts under target/wasi-cc/ (cc-rs and CMake each take a single program). The wrapper drops
// the `--target=wasm32-wasip1-threads` cc-rs adds (zig knows the target as wasm32-wasi-musl) and
// turns on what the Rust target has: atomics and bulk memory (shared memory), mutable globals,
// sign extension.
function wasiEnv() {
  const env = zigEnv()
  const zig = zigCommand(env).map((a) => JSON.stringify(a)).join(' ')
  const dir = path.join(root, 'target', 'wasi-cc')
  fs.mkdirSync(dir, { recursive: true })
  const cc = path.join(dir, 'cc')
  const ar = path.join(dir, 'ar')
  fs.writeFileSync(
    cc,
    `#!/bin/sh\nfor a in "$@"; do\n  case "$a" in --target=*) ;; *) set -- "$@" "$a" ;; esac\n  shift\ndone\n` +
      `exec ${zig} cc -target wasm32-wasi-musl -mcpu=generic+atomics+bulk_memory+mutable_globals+sign_ext -pthread "$@"\n`,
    { mode: 0o755 },
  )
  fs.writeFileSync(ar, `#!/bin/sh\nexec ${zig} ar "$@"\n`, { mode: 0o755 })
  // AWS-LC with locks and per-thread state: scripts/wasi/aws-lc-threads.h says why.
  const threads = path.join(root, 'scripts', 'wasi', 'aws-lc-threads.h')
  return {
    ...env,
    CC_wasm32_wasip1_threads: cc,
    AR_wasm32_wasip1_threads: ar,
    AWS_LC_SYS_CFLAGS_wasm32_wasip1_threads: `-include ${threads}`,
  }
}

const napi = path.join(root, 'node_modules', '@napi-rs', 'cli', 'dist', 'cli.js')
const common = ['build', '--platform', '--release', '--js', 'binding.js', '--dts', 'binding.d.ts', '--no-const-enum', ...rest]
if (triple.endsWith('-linux-gnu')) {
  run(process.execPath, [napi, ...common, '-x', '--target', `${triple}.${GLIBC_FLOOR}`], zigEnv())
  run(process.execPath, [path.join(root, 'scripts', 'check-glibc.mjs'), '--max', GLIBC_FLOOR, ...builtFile(`linux-${arch(triple)}-gnu`)])
} else if (triple === 'wasm32-wasip1-threads') {
  if (process.platform === 'win32') throw new Error('the WebAssembly build runs on Linux or macOS (a POSIX shell wraps zig cc)')
  run(process.execPath, [napi, ...common, '--target', triple], wasiEnv())
} else if (triple.endsWith('-linux-musl')) {
  run(process.execPath, [napi, ...common, '-x', '--target', triple], zigEnv())
  run(process.execPath, [path.join(root, 'scripts', 'check-musl.mjs'), ...builtFile(`linux-${arch(triple)}-musl`)])
} else if (triple.endsWith('-apple-darwin') && process.platform !== 'darwin') {
  // macOS from another OS: zig compiles the C code and links against its macOS stubs (no SDK).
  // Zig's default minimum macOS is its newest; rustc's own defaults (what a build on a Mac
  // declares) are 10.12 for x86_64 and 11.0 for arm64.
  const env = { ...zigEnv() }
  env.MACOSX_DEPLOYMENT_TARGET ||= triple.startsWith('aarch64') ? '11.0' : '10.12'
  run(process.execPath, [napi, ...common, '-x', '--target', triple], env)
  run(process.execPath, [path.join(root, 'scripts', 'check-macho.mjs'), ...builtFile(`darwin-${arch(triple)}`)])
} else {
  run(process.execPath, [napi, ...common, '--target', triple])
}
