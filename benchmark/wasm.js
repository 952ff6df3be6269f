'use strict'
// The WebAssembly build (wasm32-wasip1-threads: the package for platforms without a native
// binary, docs/runtimes.md) against the libraries that also run without native code: hash-wasm
// (WebAssembly) and @noble (JavaScript). SHA-256, BLAKE3 and AES-256-GCM at 64 B, 1 KiB and
// 1 MiB; Argon2id at OWASP's first setting (m = 19 MiB, t = 2, p = 1); Ed25519 sign and verify.
// Our native build is not a contestant here: where it loads, the loader takes it.
//
//   node benchmark/wasm.js [--quick] [--filter regex]      (after npm run build:wasm)
//
// prints the tables; the `wasm` suite (suites/wasm.js) runs it as a child process and records its
// rows on the page.
process.env.NAPI_RS_FORCE_WASI = 'error'
const nodeCrypto = require('node:crypto')
const { childHarness, noteTable } = require('./child')

// The loader allows only the WebAssembly build (NAPI_RS_FORCE_WASI=error): it throws when that
// is not built, and is checked to have loaded it.
const target = require('../binding.js').__napiBindingTarget
if (target !== 'wasm32-wasi') throw new Error(`the loader took the ${target} binding, not the WebAssembly build`)
const { sha, kdf, cipher, dsa } = require('..')

const { h, done } = childHarness('WebAssembly build')
const OURS = 'cryptographer.js (WebAssembly)'
const note = (table) => noteTable(h, table, { as: 'the WebAssembly build' })

const SIZES = [
  [64, '64 B'],
  [1024, '1 KiB'],
  [1024 * 1024, '1 MiB'],
]

async function hashes() {
  const wasm = h.peer('hash-wasm')
  const noble = (mod, fn) => h.peer(`@noble/hashes/${mod}.js`)?.[fn]
  for (const [title, ours, create, nobleFn] of [
    ['SHA-256', sha.sha256, 'createSHA256', noble('sha2', 'sha256')],
    ['BLAKE3', sha.blake3, 'createBLAKE3', noble('blake3', 'blake3')],
  ]) {
    const table = `WebAssembly build: ${title} by input size, hex output`
    const hasher = wasm && (await wasm[create]())
    for (const [size, label] of SIZES) {
      const data = nodeCrypto.randomBytes(size)
      await h.compare({ table, row: label }, [
        { name: OURS, fn: () => ours(data) },
        hasher && { name: 'hash-wasm', fn: () => hasher.init().update(data).digest('hex') },
        nobleFn && { name: '@noble/hashes', fn: () => nobleFn(data) },
      ], { bytes: size, x: size })
    }
    note(table)
  }
}

async function argon2() {
  const wasm = h.peer('hash-wasm')
  const nobleArgon2 = h.peer('@noble/hashes/argon2.js')
  const table = 'WebAssembly build: Argon2id (m = 19 MiB, t = 2, p = 1), 32-byte tag'
  const password = 'correct horse battery staple'
  const salt = Buffer.from('0123456789abcdef')
  const params = { memoryCost: 19456, timeCost: 2, parallelism: 1, keyLength: 32, salt, outputFormat: 'buffer' }
  await h.compare({ table, row: 'Argon2id' }, [
    { name: OURS, async: true, fn: () => kdf.argon2(password, params) },
    { name: `${OURS}, argon2Sync`, fn: () => kdf.argon2Sync(password, params) },
    wasm && {
      name: 'hash-wasm',
      async: true,
      fn: () => wasm.argon2id({ password, salt, parallelism: 1, iterations: 2, memorySize: 19456, hashLength: 32, outputType: 'binary' }),
    },
    nobleArgon2 && { name: '@noble/hashes', fn: () => nobleArgon2.argon2id(password, salt, { t: 2, m: 19456, p: 1, dkLen: 32 }) },
  ])
  note(table)
}

async function aesGcm() {
  const nobleAes = h.peer('@noble/ciphers/aes.js')
  const table = 'WebAssembly build: AES-256-GCM encrypt by input size'
  const key = nodeCrypto.randomBytes(32)
  const iv = nodeCrypto.randomBytes(12)
  for (const [size, label] of SIZES) {
    const data = nodeCrypto.randomBytes(size)
    await h.compare({ table, row: label }, [
      { name: OURS, fn: () => cipher.aes.encrypt(data, { key, iv, mode: 'gcm' }) },
      nobleAes && { name: '@noble/ciphers', fn: () => nobleAes.gcm(key, iv).encrypt(data) },
    ], { bytes: size, x: size })
  }
  note(table)
}

async function ed25519() {
  const noble = h.peer('@noble/curves/ed25519.js')
  const table = 'WebAssembly build: Ed25519, 64-byte messages'
  const msg = nodeCrypto.randomBytes(64)
  const { privateKey, publicKey } = dsa.ed25519.generateKeypair()
  const sig = dsa.ed25519.sign(privateKey, msg)
  await h.compare({ table, row: 'Ed25519 sign' }, [
    { name: OURS, fn: () => dsa.ed25519.sign(privateKey, msg) },
    noble && { name: '@noble/curves', fn: () => noble.ed25519.sign(msg, privateKey) },
  ])
  await h.compare({ table, row: 'Ed25519 verify' }, [
    { name: OURS, fn: () => dsa.ed25519.verify(publicKey, msg, sig) },
    noble && { name: '@noble/curves', fn: () => noble.ed25519.verify(sig, msg, publicKey) },
  ])
  note(table)
}

async function main() {
  await hashes()
  await argon2()
  await aesGcm()
  await ed25519()
  done()
  // The WebAssembly build's worker threads would keep the process alive.
  process.exit(process.exitCode ?? 0)
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
