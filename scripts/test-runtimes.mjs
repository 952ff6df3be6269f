#!/usr/bin/env node
// npm run test:runtimes — the ava suite's spec files for every family under Bun, under Deno, and
// under Node with the WebAssembly build forced (the fallback for platforms without a prebuilt
// binary).
//
// Bun and Deno come from npm, pinned in runtimes/package-lock.json (`npm --prefix runtimes ci`,
// run here when they are missing). Each runs ava itself (runtimes/ava.mjs), on the addon already
// built in the repo root; every test process checks that it runs on that runtime and loaded that
// binding (runtimes/check-runtime.cjs), so a run that silently fell back to Node or to the native
// binary fails.
//
// Some tests compare us with the runtime's own node:crypto, and Bun's (BoringSSL) and Deno's
// (their own Rust implementation) lack algorithms Node's OpenSSL has. Those tests are left out by
// title (NOT_CHECKED below, each with what its runtime lacks) and listed at the end of the run:
// the same algorithms are checked there against the published vectors and @noble/*.
//
// Usage: node scripts/test-runtimes.mjs [bun] [deno] [wasi] [-- <spec files> <extra ava args>]
// (all three when none is named). Exit status: 0 when every run passed. `.ci/run` runs it with
// `bun deno` on every CI run.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { avaSummary, runAva } from './node-runtimes.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const dir = path.join(root, 'runtimes')
const argv = process.argv.slice(2)
const dashdash = argv.indexOf('--')
const afterDashes = dashdash === -1 ? [] : argv.slice(dashdash + 1)
// Spec files given after `--` are run instead of the whole list; other arguments go to ava.
const givenFiles = afterDashes.filter((a) => /\.spec\.m?js$/.test(a))
const avaArgs = afterDashes.filter((a) => !givenFiles.includes(a))
const own = dashdash === -1 ? argv : argv.slice(0, dashdash)
const wanted = own.length ? own : ['bun', 'deno', 'wasi']

// Every family: hashes and HMAC, every cipher mode, KDFs and passwords, public key, post-quantum,
// hybrid, streams, files, age and batch; errors, output buffers, aborts, ESM and workers. The rest of the
// suite (properties, fuzz seeds, memory, the benchmark's and distribution's own tests) is
// runtime-independent or Node-specific and runs under Node only.
const FILES = [
  'hash-vectors', 'hmac-vectors', 'hash-stream', 'hash-stream-files', 'hash-async', 'hash-diff',
  'cipher-vectors', 'cipher', 'cipher-stream', 'stream-commitment',
  'kdf', 'kdf-passwords', 'password',
  'pk-agreement', 'pk-ecdsa', 'pk-ed25519', 'pk-keys', 'pk-rsa',
  'pq-kem', 'pq-dsa', 'pq-kem-node', 'pq-dsa-node',
  'hybrid', 'age', 'batch', 'errors', 'output', 'workers', 'abort',
].map((f) => `__test__/${f}.spec.js`).concat('__test__/esm.spec.mjs')

// Tests not run under a runtime, by ava title pattern, and what that runtime lacks.
const BUN_SSL = "Bun's node:crypto (BoringSSL)"
const FILES_REFUSED = 'the file functions throw ERR_FEATURE_UNAVAILABLE_ON_PLATFORM in the WebAssembly build (__test__/loader.spec.js checks that)'
const DENO = "Deno's node:crypto"
const BUN_LATE =
  'timing: in a whole run under Bun on a loaded machine, a 128-256 MiB file operation could finish before its first 50 ms progress report, so the abort or throw from onProgress came too late (these pass run alone)'
const NOT_CHECKED = {
  bun: [
    ['hmac.blake2b*node:crypto*', `${BUN_SSL} has no BLAKE2 HMAC (createHmac: Invalid digest: blake2b512)`],
    ['hmac.blake2s*node:crypto*', `${BUN_SSL} has no BLAKE2 HMAC (createHmac: Invalid digest: blake2s256)`],
    ['large inputs (across the 4 MiB slices) equal node:crypto*', `${BUN_SSL} has no BLAKE2 HMAC, which this test compares too`],
    ['AES-*-CFB8 equals node:crypto*', `${BUN_SSL} has no AES-CFB8 (createCipheriv: Unknown cipher)`],
    ['AES-192-CFB equals node:crypto*', `${BUN_SSL} has no AES-192-CFB`],
    ['AES-*-CCM equals node:crypto*', `${BUN_SSL} has no AES-CCM`],
    ['ChaCha20-Poly1305 equals node:crypto*', `${BUN_SSL} has no chacha20-poly1305 cipher`],
    ['cipher aes-cfb8:*node:crypto*', `${BUN_SSL} has no AES-CFB8`],
    ['cipher aes-ccm:*node:crypto*', `${BUN_SSL} has no AES-CCM`],
    ['cipher chacha20:*node:crypto*', `${BUN_SSL} has no chacha20-poly1305 cipher`],
    ['encryptBatch output is read by node:crypto*', `${BUN_SSL} has no AES-CCM`],
    ['the independent implementation:*', `the independent XChaCha20-Poly1305 stream decoder uses node:crypto's chacha20-poly1305, which ${BUN_SSL} lacks`],
    ['xchacha20:*independent*', 'as above'],
    ['xchacha20: files round trip*', 'as above'],
    ['vectors/stream/xchacha20-poly1305-*', 'as above'],
    ['ECDH secp256k1:*', `${BUN_SSL} has no secp256k1 (UNKNOWN_GROUP)`],
    ['differential secp256k1:*', `${BUN_SSL} has no secp256k1`],
    ['lowS verification:*', `${BUN_SSL} has no secp256k1`],
    ['keys: every form from node loads*', `${BUN_SSL} has no secp256k1`],
    ['node:crypto keys round-trip through every format*', `${BUN_SSL} has no secp256k1`],
    ['malformed DER:*', `${BUN_SSL} has no secp256k1`],
    ['mutated DER, PEM and JWK keys*', `${BUN_SSL} has no secp256k1`],
    ['differential p256:*', `${BUN_SSL} has no ECDSA with MD4, MD5, SHA-512/t, SHA-3 or RIPEMD-160 (INVALID_DIGEST_TYPE)`],
    ['differential p384:*', `${BUN_SSL} has no ECDSA with MD4, MD5, SHA-512/t, SHA-3 or RIPEMD-160 (INVALID_DIGEST_TYPE)`],
    ['differential p521:*', `${BUN_SSL} has no ECDSA with MD4, MD5, SHA-512/t, SHA-3 or RIPEMD-160 (INVALID_DIGEST_TYPE)`],
    ['weak hashes: MD4/MD5*', `${BUN_SSL} has no ECDSA with MD4/MD5 (INVALID_DIGEST_TYPE)`],
    ['a key resolved from an enclosing format*', "Bun's stream.pipeline rejects with 'Premature close' where Node's passes on the stream's AbortError"],
    ['*abort (queued, at once, after progress)*', BUN_LATE],
    ['encryptFile / decryptFile: abort before, during scrypt*', BUN_LATE],
    ['onProgress reports the source bytes*', BUN_LATE],
  ],
  deno: [
    ['hmac.md4*node:crypto*', `${DENO} has no MD4 HMAC (createHmac: Invalid digest: md4)`],
    ['AES-*-CFB equals node:crypto*', `${DENO} has no AES-CFB (createCipheriv: Unknown cipher)`],
    ['AES-*-CFB8 equals node:crypto*', `${DENO} has no AES-CFB8`],
    ['AES-*-OFB equals node:crypto*', `${DENO} has no AES-OFB`],
    ['AES-*-CCM equals node:crypto*', `${DENO} has no AES-CCM`],
    ['AES-192-CBC equals node:crypto*', `${DENO} has no AES-192-CBC`],
    ['AES-192-GCM equals node:crypto*', `${DENO} has no AES-192-GCM`],
    ['3DES (EDE3, EDE2)*', `${DENO} lacks some of the DES and 3DES modes compared`],
    ['cipher aes-ccm:*node:crypto*', `${DENO} has no AES-CCM`],
    ['cipher aes-cfb8:*node:crypto*', `${DENO} has no AES-CFB8`],
    ['cipher aes-cfb:*node:crypto*', `${DENO} has no AES-CFB`],
    ['cipher aes-ofb:*node:crypto*', `${DENO} has no AES-OFB`],
    ['encryptBatch output is read by node:crypto*', `${DENO} has no AES-CCM`],
    ['differential p384:*', `${DENO}'s verify returns false for P-384/P-521 ECDSA over a hash shorter than the curve (MD5), which OpenSSL and noble verify`],
    ['differential p521:*', `${DENO}'s verify returns false for P-384/P-521 ECDSA over a hash shorter than the curve (MD5), which OpenSSL and noble verify`],
    ['lowS verification:*', `${DENO} cannot sign with secp256k1 (failed to sign digest)`],
    ['keys: every form from node loads*', `${DENO}'s verify returns false for P-521 ECDSA over SHA-256, which OpenSSL and noble verify`],
    ['malformed PEM:*', `${DENO}'s createPrivateKey accepts PEM the test corrupts`],
    ['malformed DER:*', `${DENO} cannot export an RSA-PSS private key as PKCS#8`],
    ['keys: each component in its canonical form*', `${DENO}'s createPublicKey does not take a PKCS#8 private key`],
    ['a directory rejects as node does*', "Deno's fs reports a directory's EISDIR from open, Node's (and ours) from read"],
    ['encryptFile / decryptFile: abort before, during scrypt*', 'timing: in a whole run on a loaded machine, a 128 MiB file could finish before its first 50 ms progress report (passes run alone)'],
  ],
  wasi: [
    ['*file(), fileSync()*', FILES_REFUSED],
    ['file(): *', FILES_REFUSED],
    ['*encryptFile*', FILES_REFUSED],
    ['*decryptFile*', FILES_REFUSED],
    ['*files round trip*', FILES_REFUSED],
    ['vectors/stream/*', `${FILES_REFUSED} (each vector is decoded by a stream and by decryptFile)`],
    ['*abort (queued, at once, after progress)*', FILES_REFUSED],
    ['an abort made after the pool finished*', FILES_REFUSED],
    ['files: *', FILES_REFUSED],
    ['every file output*', FILES_REFUSED],
    ['onProgress reports the source bytes*', FILES_REFUSED],
    ['X25519: interop with the age CLI both ways*', FILES_REFUSED],
    ['file errors are node-style*', FILES_REFUSED],
    ['maxWorkFactor: a file above the ceiling*', FILES_REFUSED],
    ['workers terminated mid-work while the addon is also loaded in main', 'the test finds the loaded addon by its .node file in require.cache; the WebAssembly build has none'],
    ['cpuPaths() lists every backend*', "the test expects the paths this CPU's extensions give; the WebAssembly build uses none of them"],
    ['*: refuses a wrong key, passphrase or aad*', `${FILES_REFUSED} (each case is also tried through decryptFile)`],
    ['*: refuses a flipped bit anywhere*', `${FILES_REFUSED} (each case is also tried through decryptFile)`],
    ['*: refuses truncation anywhere*', `${FILES_REFUSED} (each case is also tried through decryptFile)`],
  ],
}
// Spec files not run under a runtime, and why.
const FILES_NOT_RUN = {
  wasi: { 'hash-stream-files': FILES_REFUSED },
}

const bin = (name) => path.join(dir, 'node_modules', '.bin', process.platform === 'win32' ? `${name}.cmd` : name)

function ensureRuntimes() {
  if (fs.existsSync(bin('bun')) && fs.existsSync(bin('deno'))) return
  console.log('installing Bun and Deno from runtimes/package-lock.json ...')
  execFileSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['--prefix', dir, 'ci', '--no-audit', '--no-fund'], {
    stdio: ['ignore', 'inherit', 'inherit'],
    shell: process.platform === 'win32',
  })
}

// How each run starts ava: the command, its arguments before ava's, and the environment.
const RUNS = {
  bun: () => ({ cmd: bin('bun'), pre: [], env: {} }),
  // The suite itself spawns processes, writes temporary files and reads the environment, so it
  // runs with every permission; what an application needs is in docs/runtimes.md.
  deno: () => ({ cmd: bin('deno'), pre: ['run', '--allow-all'], env: {} }),
  wasi: () => ({
    cmd: process.execPath,
    pre: ['--disable-warning=ExperimentalWarning'],
    env: { NAPI_RS_FORCE_WASI: 'error', CRYPTOGRAPHER_TEST_BINDING: 'wasm32-wasi' },
  }),
}

function version(name, cmd) {
  if (name === 'wasi') return `Node ${process.version}, WebAssembly build`
  const v = execFileSync(cmd, ['--version'], { encoding: 'utf8' }).split('\n')[0].trim()
  return v.startsWith(name) ? v : `${name} ${v}`
}

const runOn = ({ cmd, pre, env }, args) =>
  runAva(cmd, ['--config', path.join(dir, 'ava.config.mjs'), ...args], { ...process.env, ...env }, { pre, entry: path.join(dir, 'ava.mjs') })

if (wanted.some((w) => w !== 'wasi')) ensureRuntimes()
const rows = []
for (const name of wanted) {
  if (!RUNS[name]) throw new Error(`unknown runtime ${name} (bun, deno or wasi)`)
  const run = RUNS[name]()
  if (name === 'wasi' && !fs.existsSync(path.join(root, 'cryptographer.wasi.cjs'))) {
    console.log('\n=== WebAssembly build: not built (npm run build:wasm); not checked')
    rows.push({ name, version: 'not built', ok: false, passed: '0', failed: '0', seconds: '0', failures: [] })
    continue
  }
  const v = version(name, run.cmd)
  const skipped = NOT_CHECKED[name]
  const started = Date.now()
  const match = skipped.map(([pattern]) => `--match=!${pattern}`)
  const notRun = FILES_NOT_RUN[name] || {}
  const files = (givenFiles.length ? givenFiles : FILES).filter((f) => !Object.keys(notRun).some((n) => f.endsWith(`/${n}.spec.js`)))
  console.log(`\n=== ${v}: ${files.length} spec files${skipped.length ? `, ${skipped.length} tests left out (listed below)` : ''}`)
  const r = await runOn({ ...run, env: { ...run.env, CRYPTOGRAPHER_TEST_RUNTIME: name === 'wasi' ? 'node' : name } }, [...files, ...match, ...avaArgs])
  const { passed, failed, failures } = avaSummary(r.out)
  rows.push({ name, version: v, ok: r.code === 0 && !r.signal, passed, failed, failures, seconds: ((Date.now() - started) / 1000).toFixed(1), why: r.signal ? `signal ${r.signal}` : r.code ? `exit ${r.code}` : '' })
}

console.log('\nRuntimes:')
console.log('| runtime | result | passed | failed | time |')
console.log('|---|---|--:|--:|--:|')
for (const r of rows) console.log(`| ${r.version} | ${r.ok ? 'ok' : `FAIL ${r.why || ''}`} | ${r.passed} | ${r.failed} | ${r.seconds} s |`)
for (const r of rows) {
  for (const [file, why] of Object.entries(FILES_NOT_RUN[r.name] || {})) console.log(`not run under ${r.name}: __test__/${file}.spec.js (${why})`)
  for (const [pattern, why] of NOT_CHECKED[r.name]) console.log(`not checked under ${r.name}: ${pattern} (${why})`)
  if (r.failures.length) console.log(`\nfailures under ${r.version}:\n  ${r.failures.join('\n  ')}`)
}
process.exitCode = rows.every((r) => r.ok) ? 0 : 1
