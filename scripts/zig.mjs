// Zig and cargo-zigbuild for the Linux release builds (scripts/build-release.mjs) and for the C
// helper the arm64 tests compile (scripts/test-arm64.mjs). Taken from PATH when both are there,
// else installed once from PyPI into a virtualenv under target/zig-venv, every file checked
// against the SHA-256 in scripts/zig-requirements.txt (no sdist builds).
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const isWin = process.platform === 'win32'

const ok = (cmd, argv, env) => spawnSync(cmd, argv, { stdio: 'ignore', env }).status === 0
function run(cmd, argv) {
  console.log(`$ ${cmd} ${argv.join(' ')}`)
  const r = spawnSync(cmd, argv, { stdio: 'inherit', cwd: root })
  if (r.status !== 0) process.exit(r.status || 1)
}

/** The command that runs zig in `env` (from zigEnv): `zig` itself, else `python3 -m ziglang`. */
export function zigCommand(env) {
  if (ok('zig', ['version'], env)) return ['zig']
  if (ok('python3', ['-m', 'ziglang', 'version'], env)) return ['python3', '-m', 'ziglang']
  throw new Error('zig is not runnable')
}

/** The environment (PATH) with zig and cargo-zigbuild on it. */
export function zigEnv() {
  const have = (env) => ok('cargo-zigbuild', ['--version'], env) && (ok('zig', ['version'], env) || ok('python3', ['-m', 'ziglang', 'version'], env))
  if (have(process.env)) return process.env
  const venv = path.join(root, 'target', 'zig-venv')
  const bin = path.join(venv, isWin ? 'Scripts' : 'bin')
  const env = { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH}` }
  if (!have(env)) {
    console.log(`installing zig + cargo-zigbuild from PyPI into ${path.relative(root, venv)}`)
    run(isWin ? 'python' : 'python3', ['-m', 'venv', venv])
    run(path.join(bin, 'pip'), [
      'install', '--quiet', '--require-hashes', '--only-binary=:all:',
      '-r', path.join(root, 'scripts', 'zig-requirements.txt'),
    ])
  }
  if (!have(env)) throw new Error('zig/cargo-zigbuild still not runnable after installing them')
  return env
}
