#!/usr/bin/env node
// npm run build:release [-- --target <triple>] — the build that ships.
//
// Linux gnu targets are linked against glibc 2.17 (CentOS/RHEL 7 and every newer distribution):
// `napi build -x --target <triple>.2.17` runs cargo-zigbuild, which links with `zig cc` and
// zig's glibc 2.17 stubs. Then scripts/check-glibc.mjs fails the build if any symbol needs a
// newer glibc. Linux musl targets build with the same zig toolchain (`-x`). Other targets
// (macOS, Windows) build natively with `napi build --release`.
//
// Zig and cargo-zigbuild come from PyPI (scripts/zig-requirements.txt, pinned by version and
// SHA-256, installed with --require-hashes): when `cargo-zigbuild` is not on PATH, they are
// installed once into a virtualenv under target/zig-venv (scripts/zig.mjs).
// The generated binding.js / binding.d.ts are rewritten like `npm run build` does.
import { execFileSync, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { zigEnv } from './zig.mjs'

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

const napi = path.join(root, 'node_modules', '@napi-rs', 'cli', 'dist', 'cli.js')
const common = ['build', '--platform', '--release', '--js', 'binding.js', '--dts', 'binding.d.ts', '--no-const-enum', ...rest]
if (triple.endsWith('-linux-gnu')) {
  run(process.execPath, [napi, ...common, '-x', '--target', `${triple}.${GLIBC_FLOOR}`], zigEnv())
  const arch = triple.startsWith('aarch64') ? 'arm64' : triple.startsWith('x86_64') ? 'x64' : null
  const outAt = rest.findIndex((a) => a === '-o' || a === '--output-dir')
  const outDir = outAt === -1 ? root : path.resolve(root, rest[outAt + 1])
  const built = arch && path.join(outDir, `cryptographer.linux-${arch}-gnu.node`)
  run(process.execPath, [path.join(root, 'scripts', 'check-glibc.mjs'), '--max', GLIBC_FLOOR, ...(built && fs.existsSync(built) ? [built] : [])])
} else if (triple.endsWith('-linux-musl')) {
  run(process.execPath, [napi, ...common, '-x', '--target', triple], zigEnv())
} else {
  run(process.execPath, [napi, ...common, '--target', triple])
}
