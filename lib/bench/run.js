'use strict'
// `npx cryptographer.js bench`: this library against node:crypto on your machine, in about a
// minute, with the repository benchmark's harness and table format (interleaved rounds, outputs
// checked equal first, intervals, ties, a finding under each table, the load it ran under).
// hash-wasm, @noble/hashes, @noble/ciphers and @noble/curves join the rows they have when your
// project has them installed (they are looked up from the current directory); nothing is
// downloaded.
//
//   npx cryptographer.js bench [--quick] [--json file] [--time ms]
const fs = require('node:fs')
const os = require('node:os')
const nodeCrypto = require('node:crypto')
const { Harness, machineLine, markdownOf } = require('./harness')
const noise = require('./noise')

const USAGE = `Usage: npx cryptographer.js bench [--quick] [--json file] [--time ms]

Times cryptographer.js against node:crypto (and hash-wasm, @noble/hashes, @noble/ciphers and
@noble/curves where your project has them) on this machine, about a minute (--quick: about 15 s).

  --quick      shorter timing (5 rounds), fewer rows
  --json file  also write every figure, every round and the load to file
  --time ms    time per contestant and row (default 300, 60 with --quick)
  --help       this text`

function parseArgs(argv) {
  const args = { quick: false, json: null, time: null, help: false }
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    if (a === '--quick') args.quick = true
    else if (a === '--help' || a === '-h') args.help = true
    else if (a === '--json' && argv[i + 1]) args.json = argv[++i]
    else if (a === '--time' && Number(argv[i + 1]) > 0) args.time = Number(argv[++i])
    else {
      const err = new Error(`unknown or incomplete option ${JSON.stringify(a)}\n\n${USAGE}`)
      err.code = 'ERR_INVALID_ARG_VALUE'
      throw err
    }
  }
  return args
}

/** A module of the user's project (looked up from the current directory), or null. */
function peer(h, name) {
  const m = h.peer(name)
  return m && (m.default && Object.keys(m).length === 1 ? m.default : m)
}

/** The rows: [table, row, contestants, options], cryptographer.js first in each. */
async function rowsOf(h, crypto) {
  const { sha, hmac, cipher, kdf, dsa, kem } = crypto
  const wasm = peer(h, 'hash-wasm')
  const nobleSha2 = peer(h, '@noble/hashes/sha2.js')
  const nobleSha3 = peer(h, '@noble/hashes/sha3.js')
  const nobleBlake3 = peer(h, '@noble/hashes/blake3.js')
  const nobleAes = peer(h, '@noble/ciphers/aes.js')
  const nobleChacha = peer(h, '@noble/ciphers/chacha.js')
  const nobleEd = peer(h, '@noble/curves/ed25519.js')
  const hex = (x) => Buffer.from(x).toString('hex')
  const rows = []

  const HASHES = [
    ['sha256', 'sha256', wasm?.createSHA256 && (() => wasm.createSHA256()), nobleSha2?.sha256],
    ['sha512', 'sha512', wasm?.createSHA512 && (() => wasm.createSHA512()), nobleSha2?.sha512],
    ['sha3_256', 'sha3-256', wasm?.createSHA3 && (() => wasm.createSHA3(256)), nobleSha3?.sha3_256],
    ['blake3', null, wasm?.createBLAKE3 && (() => wasm.createBLAKE3()), nobleBlake3?.blake3],
  ]
  const sizes = h.quick ? [[64, '64 B'], [1 << 20, '1 MiB']] : [[64, '64 B'], [1024, '1 KiB'], [1 << 20, '1 MiB']]
  for (const [bytes, label] of sizes) {
    const data = nodeCrypto.randomBytes(bytes)
    for (const [name, nodeName, makeWasm, noble] of HASHES) {
      const w = makeWasm && (await makeWasm())
      rows.push([
        `Hash, ${label}, hex output`,
        name,
        [
          { name: 'cryptographer.js', fn: () => sha[name](data) },
          nodeName && typeof nodeCrypto.hash === 'function' && { name: 'node crypto.hash', fn: () => nodeCrypto.hash(nodeName, data) },
          nodeName && { name: 'node createHash', fn: () => nodeCrypto.createHash(nodeName).update(data).digest('hex') },
          w && { name: 'hash-wasm', fn: () => w.init().update(data).digest('hex') },
          noble && { name: '@noble/hashes', fn: () => noble(data) },
        ],
        { bytes },
      ])
    }
  }
  const key = nodeCrypto.randomBytes(32)
  const kib = nodeCrypto.randomBytes(1024)
  rows.push(['HMAC, 1 KiB, hex output', 'HMAC-SHA-256', [
    { name: 'cryptographer.js', fn: () => hmac.sha256(kib, { key }) },
    { name: 'node createHmac', fn: () => nodeCrypto.createHmac('sha256', key).update(kib).digest('hex') },
  ], { bytes: 1024 }])

  for (const [bytes, label] of h.quick ? [[1024, '1 KiB']] : [[1024, '1 KiB'], [1 << 20, '1 MiB']]) {
    const data = nodeCrypto.randomBytes(bytes)
    const iv = nodeCrypto.randomBytes(12)
    const aead = (name) => () => {
      const c = nodeCrypto.createCipheriv(name, key, iv, { authTagLength: 16 })
      return Buffer.concat([c.update(data), c.final(), c.getAuthTag()])
    }
    rows.push([`Encryption, ${label}`, 'AES-256-GCM', [
      { name: 'cryptographer.js', fn: () => cipher.aes.encrypt(data, { key, iv, mode: 'gcm' }) },
      { name: 'node:crypto', fn: aead('aes-256-gcm') },
      nobleAes && { name: '@noble/ciphers', fn: () => nobleAes.gcm(key, iv).encrypt(data), out: hex },
    ], { bytes }])
    rows.push([`Encryption, ${label}`, 'ChaCha20-Poly1305', [
      { name: 'cryptographer.js', fn: () => cipher.chacha20.encrypt(data, { key, iv }) },
      { name: 'node:crypto', fn: aead('chacha20-poly1305') },
      nobleChacha && { name: '@noble/ciphers', fn: () => nobleChacha.chacha20poly1305(key, iv).encrypt(data), out: hex },
    ], { bytes }])
  }

  const salt = nodeCrypto.randomBytes(16)
  rows.push(['Key derivation', 'PBKDF2-SHA-256, 10,000 iterations', [
    { name: 'cryptographer.js', fn: () => kdf.pbkdf2('password', { salt, iterations: 10000, keyLength: 32, hash: 'sha256' }) },
    { name: 'node:crypto', fn: () => nodeCrypto.pbkdf2Sync('password', salt, 10000, 32, 'sha256') },
  ], {}])
  if (!h.quick) {
    rows.push(['Key derivation', 'scrypt N=2^14 r=8 p=1', [
      { name: 'cryptographer.js', fn: () => kdf.scrypt('password', { salt, N: 16384, r: 8, p: 1, keyLength: 32 }) },
      { name: 'node:crypto', fn: () => nodeCrypto.scryptSync('password', salt, 32, { N: 16384, r: 8, p: 1 }) },
    ], {}])
  }

  const msg = nodeCrypto.randomBytes(64)
  const ed = dsa.ed25519.generateKeypair()
  const edKey = crypto.keys.import(ed.privateKey, { algorithm: 'ed25519', keyType: 'private' })
  const edPub = crypto.keys.import(ed.publicKey, { algorithm: 'ed25519', keyType: 'public' })
  const sig = dsa.ed25519.sign(ed.privateKey, msg)
  rows.push(['Signatures and key agreement (64-byte messages)', 'Ed25519 sign', [
    { name: 'cryptographer.js', fn: () => dsa.ed25519.sign(ed.privateKey, msg) },
    { name: 'node:crypto', fn: () => nodeCrypto.sign(null, msg, edKey) },
    nobleEd && { name: '@noble/curves', fn: () => nobleEd.ed25519.sign(msg, ed.privateKey) },
  ], {}])
  rows.push(['Signatures and key agreement (64-byte messages)', 'Ed25519 verify', [
    { name: 'cryptographer.js', fn: () => dsa.ed25519.verify(ed.publicKey, msg, sig) },
    { name: 'node:crypto', fn: () => nodeCrypto.verify(null, msg, edPub, sig) },
    nobleEd && { name: '@noble/curves', fn: () => nobleEd.ed25519.verify(sig, msg, ed.publicKey) },
  ], {}])
  const a = cipher.x25519.generateKeypair()
  const b = cipher.x25519.generateKeypair()
  const kA = crypto.keys.import(a.privateKey, { algorithm: 'x25519', keyType: 'private' })
  const kB = crypto.keys.import(b.publicKey, { algorithm: 'x25519', keyType: 'public' })
  rows.push(['Signatures and key agreement (64-byte messages)', 'X25519 shared secret', [
    { name: 'cryptographer.js', fn: () => cipher.x25519.deriveSharedSecret(a.privateKey, b.publicKey) },
    { name: 'node:crypto', fn: () => nodeCrypto.diffieHellman({ privateKey: kA, publicKey: kB }) },
    nobleEd && { name: '@noble/curves', fn: () => nobleEd.x25519.getSharedSecret(a.privateKey, b.publicKey) },
  ], {}])

  // ML-KEM-768: node:crypto has it from Node 24.7.
  const mlkem = kem.mlkem768.generateKeypair()
  const { ciphertext } = kem.mlkem768.encapsulate(mlkem.publicKey)
  let nodeKem = null
  try {
    if (typeof nodeCrypto.decapsulate === 'function') nodeKem = crypto.keys.import(mlkem.privateKey, { algorithm: 'ml-kem-768' })
  } catch {
    nodeKem = null
  }
  rows.push(['Post-quantum (ML-KEM-768)', 'decapsulate', [
    { name: 'cryptographer.js', fn: () => kem.mlkem768.decapsulate(ciphertext, mlkem.privateKey) },
    nodeKem && { name: 'node:crypto', fn: () => nodeCrypto.decapsulate(nodeKem, ciphertext) },
  ], {}])
  return rows
}

async function main(argv = process.argv.slice(2), { crypto = require('../..'), log = console.log } = {}) {
  const args = parseArgs(argv)
  if (args.help) {
    log(USAGE)
    return null
  }
  const h = new Harness({ quick: args.quick, time: args.time ?? (args.quick ? 60 : 300), peerPaths: [process.cwd()] })
  const machine = {
    ...h.machine(),
    cpuPaths: crypto.cpuPaths(),
    'cryptographer.js': require('../../package.json').version,
    peers: Object.fromEntries(['hash-wasm', '@noble/hashes', '@noble/ciphers', '@noble/curves'].map((p) => [p, h.peerVersion(p)])),
  }
  log(`cryptographer.js bench: this machine, cryptographer.js beside node:crypto (${h.rounds} interleaved rounds a row)`)
  log(`Machine: ${machineLine(machine)}`)
  log(`Load before: load average ${os.loadavg().map((x) => x.toFixed(2)).join(' / ')} (1 / 5 / 15 min) on ${os.cpus().length} cores`)
  h.begin()
  for (const [table, row, contestants, options] of await rowsOf(h, crypto)) await h.compare({ table, row }, contestants, options)
  const load = h.end()
  const run = { machine, config: { quick: args.quick, rounds: h.rounds, timePerContestantMs: h.time }, noise: load, results: h.results, tables: h.tables, failures: h.failures }
  const v = noise.assess(run)
  log('')
  log(markdownOf(run))
  log(`Load: ${noise.describe(load)}`)
  log(
    v.verdict === 'quiet'
      ? 'Noise: quiet: the figures above are this machine\'s.'
      : `Noise: NOISY (${v.reasons.join('; ')}): the figures above understate this machine; run again when it is idle.`,
  )
  if (h.failures.length) log(`Not timed: ${h.failures.join('; ')}`)
  if (args.json) {
    fs.writeFileSync(args.json, JSON.stringify(run, null, 2))
    log(`Every figure and round: ${args.json}`)
  }
  return run
}

module.exports = { main, parseArgs, USAGE }
