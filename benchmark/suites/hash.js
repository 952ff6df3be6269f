'use strict'
// One-shot hashing and HMAC against node:crypto (createHash and crypto.hash), hash-wasm,
// @noble/hashes, crypto-js and hash.js (and, for MD5, js-md5, blueimp-md5 and md5), at 64 B,
// 1 KiB, 64 KiB and 1 MiB, for every algorithm; then the series: SHA-1, SHA-256, SHA-512, BLAKE3
// and MD5 at sizes spaced on a log scale from 16 B to 16 MiB, every contestant that has the
// algorithm (plus WebCrypto, sjcl and node-forge), plotted as time and throughput against size.
//
// crypto-browserify is not a contestant: under Node.js its createHash, createHmac and
// createCipheriv are node:crypto's own functions (its create-hash is
// `module.exports = require('crypto').createHash`), so its rows would be node:crypto's.
//
// The inputs are random printable ASCII bytes, so that blueimp-md5, which hashes the UTF-8 of a
// string, gets the same bytes as the others (a hash's speed does not depend on the bytes).
const nodeCrypto = require('node:crypto')
const { sha, hmac } = require('../..')
const { cpuFlags, nodeHas } = require('../harness')

/** `n` random printable ASCII bytes. */
const input = (n) => Buffer.from(nodeCrypto.randomBytes(Math.ceil((n * 3) / 4) + 3).toString('base64').slice(0, n), 'latin1')

/** hash.js's name of each algorithm it has. */
const HASHJS = { sha1: 'sha1', sha224: 'sha224', sha256: 'sha256', sha384: 'sha384', sha512: 'sha512', ripemd160: 'ripemd160' }

/** The pure-JavaScript MD5 packages, each called as its README shows. */
function md5Peers(h) {
  const jsMd5 = h.peer('js-md5')
  const blueimp = h.peer('blueimp-md5')
  const md5 = h.peer('md5')
  return (data) => [
    jsMd5 && { name: 'js-md5', fn: () => jsMd5(data) },
    // blueimp-md5 hashes a string's UTF-8: the ASCII input's latin1 string is the same bytes.
    blueimp && { name: 'blueimp-md5', fn: () => blueimp(data.toString('latin1')) },
    md5 && { name: 'md5', fn: () => md5(data) },
  ]
}

// Our name -> how each peer computes it (absent: the peer lacks the algorithm).
const PEERS = {
  md4: { node: 'md4', wasm: ['createMD4'] },
  md5: { node: 'md5', wasm: ['createMD5'], noble: ['legacy', 'md5'], cryptojs: 'MD5' },
  sha1: { node: 'sha1', wasm: ['createSHA1'], noble: ['legacy', 'sha1'], cryptojs: 'SHA1' },
  sha224: { node: 'sha224', wasm: ['createSHA224'], noble: ['sha2', 'sha224'], cryptojs: 'SHA224' },
  sha256: { node: 'sha256', wasm: ['createSHA256'], noble: ['sha2', 'sha256'], cryptojs: 'SHA256' },
  sha384: { node: 'sha384', wasm: ['createSHA384'], noble: ['sha2', 'sha384'], cryptojs: 'SHA384' },
  sha512: { node: 'sha512', wasm: ['createSHA512'], noble: ['sha2', 'sha512'], cryptojs: 'SHA512' },
  sha512_224: { node: 'sha512-224', noble: ['sha2', 'sha512_224'] },
  sha512_256: { node: 'sha512-256', noble: ['sha2', 'sha512_256'] },
  sha3_224: { node: 'sha3-224', wasm: ['createSHA3', 224], noble: ['sha3', 'sha3_224'] },
  sha3_256: { node: 'sha3-256', wasm: ['createSHA3', 256], noble: ['sha3', 'sha3_256'] },
  sha3_384: { node: 'sha3-384', wasm: ['createSHA3', 384], noble: ['sha3', 'sha3_384'] },
  sha3_512: { node: 'sha3-512', wasm: ['createSHA3', 512], noble: ['sha3', 'sha3_512'] },
  // crypto-js's "SHA3" is the original Keccak (pre-standard padding), i.e. Keccak-256 here.
  keccak256: { wasm: ['createKeccak', 256], noble: ['sha3', 'keccak_256'], cryptojs: ['SHA3', { outputLength: 256 }] },
  shake128: { node: 'shake128', noble: ['sha3', 'shake128'] },
  shake256: { node: 'shake256', noble: ['sha3', 'shake256'] },
  blake2b: { node: 'blake2b512', wasm: ['createBLAKE2b', 512], noble: ['blake2', 'blake2b'] },
  blake2s: { node: 'blake2s256', wasm: ['createBLAKE2s', 256], noble: ['blake2', 'blake2s'] },
  blake3: { wasm: ['createBLAKE3'], noble: ['blake3', 'blake3'] },
  ripemd160: { node: 'ripemd160', wasm: ['createRIPEMD160'], noble: ['legacy', 'ripemd160'], cryptojs: 'RIPEMD160' },
  whirlpool: { node: 'whirlpool', wasm: ['createWhirlpool'] },
}

const SIZES = [
  [64, '64 B'],
  [1024, '1 KiB'],
  [64 * 1024, '64 KiB'],
  [1024 * 1024, '1 MiB'],
]

// CPU features the fast paths need, and the bulk speed that shows they are in use. A build that
// silently falls back to portable code (e.g. a bad target-cpu flag) shows up here.
const HW_CHECKS = [
  { name: 'sha256', flag: 'sha_ni', min: 600 },
  { name: 'sha1', flag: 'sha_ni', min: 600 },
  { name: 'blake3', flag: 'avx2', min: 1500 },
]

function hardwareCheck(h, data) {
  const flags = cpuFlags()
  if (!flags) return
  const rows = []
  for (const c of HW_CHECKS) {
    if (!flags.has(c.flag)) continue
    const f = sha[c.name]
    f(data)
    let n = 0
    const start = performance.now()
    while (performance.now() - start < 200) {
      f(data)
      n++
    }
    const mbps = (n * data.length) / 1e3 / (performance.now() - start)
    const ok = mbps >= c.min
    rows.push([c.name, c.flag, mbps.toFixed(0), `≥ ${c.min}`, ok ? 'yes' : 'no: portable code?'])
    if (!ok) h.failures.push(`${c.name} runs at ${mbps.toFixed(0)} MB/s although the CPU has ${c.flag}`)
  }
  if (!rows.length) return
  const slow = rows.filter((r) => r[4] !== 'yes')
  h.table('Hardware paths: 1 MiB hashed for 200 ms, where the CPU has the feature', ['Hash', 'CPU feature', 'MB/s', 'expected MB/s', 'hardware path'], rows, {
    finding: slow.length
      ? `${slow.map((r) => r[0]).join(', ')} ran slower than its hardware path should: this build or this machine fell back to portable code, and the figures below show that code.`
      : `Every hash with a hardware path ran at its hardware speed (${rows.map((r) => `${r[0]} ${r[2]} MB/s`).join(', ')}): the figures below are of that path.`,
  })
}

// The series: sizes ×4 from 16 B to 16 MiB (with --quick: every other one, to 1 MiB).
const SERIES_SIZES = Array.from({ length: 11 }, (_, i) => 16 * 4 ** i)
const SERIES = { sha1: 'SHA-1', sha256: 'SHA-256', sha512: 'SHA-512', blake3: 'BLAKE3', md5: 'MD5' }
const SUBTLE_NAMES = { sha1: 'SHA-1', sha256: 'SHA-256', sha384: 'SHA-384', sha512: 'SHA-512' }
const FORGE_NAMES = { md5: 'md5', sha1: 'sha1', sha256: 'sha256', sha512: 'sha512' }
const sizeLabel = (n) => (n >= 1 << 20 ? `${n / (1 << 20)} MiB` : n >= 1024 ? `${n / 1024} KiB` : `${n} B`)

/**
 * One-shot time and throughput against input size. Each peer is called on a Buffer and converts
 * it to the form it needs (crypto-js WordArray, sjcl bit array, node-forge binary string, blueimp-md5
 * string; sjcl, whose npm build has no bytes codec, through hex) inside the timed call.
 */
async function sizeSeries(h) {
  const wasm = h.peer('hash-wasm')
  const CryptoJS = h.peer('crypto-js')
  const sjcl = h.peer('sjcl')
  const forge = h.peer('node-forge')
  const subtle = nodeCrypto.webcrypto.subtle
  const hasOneShot = typeof nodeCrypto.hash === 'function'
  const sizes = h.quick ? SERIES_SIZES.filter((n, i) => i % 2 === 0 && n <= 1 << 20) : SERIES_SIZES
  const inputs = new Map(sizes.map((n) => [n, input(n)]))
  const hashjs = h.peer('hash.js')
  const md5s = md5Peers(h)
  for (const [name, title] of Object.entries(SERIES)) {
    const peers = PEERS[name]
    const table = `${title} one-shot by input size, hex output`
    const w = wasm && peers.wasm ? await wasm[peers.wasm[0]](...peers.wasm.slice(1)) : null
    const noble = peers.noble && h.peer(`@noble/hashes/${peers.noble[0]}.js`)?.[peers.noble[1]]
    const nodeName = peers.node && nodeHas(peers.node) ? peers.node : null
    const cj = CryptoJS && typeof peers.cryptojs === 'string' && CryptoJS[peers.cryptojs]
    const sj = sjcl && sjcl.hash[name]
    const fg = forge && FORGE_NAMES[name] && forge.md[FORGE_NAMES[name]]
    for (const size of sizes) {
      const data = inputs.get(size)
      await h.compare(
        { table, row: sizeLabel(size) },
        [
          { name: 'cryptographer.js', fn: () => sha[name](data) },
          nodeName && hasOneShot && { name: 'node crypto.hash', fn: () => nodeCrypto.hash(nodeName, data) },
          nodeName && { name: 'node createHash', fn: () => nodeCrypto.createHash(nodeName).update(data).digest('hex') },
          SUBTLE_NAMES[name] && {
            name: 'node subtle.digest',
            async: true,
            fn: () => subtle.digest(SUBTLE_NAMES[name], data),
            out: (ab) => Buffer.from(ab).toString('hex'),
          },
          w && { name: 'hash-wasm', fn: () => w.init().update(data).digest('hex') },
          noble && { name: '@noble/hashes', fn: () => noble(data) },
          cj && { name: 'crypto-js', fn: () => cj(CryptoJS.lib.WordArray.create(data)).toString() },
          sj && { name: 'sjcl', fn: () => sjcl.codec.hex.fromBits(sj.hash(sjcl.codec.hex.toBits(data.toString('hex')))) },
          fg && { name: 'node-forge', fn: () => fg.create().update(data.toString('binary')).digest().toHex() },
          hashjs && HASHJS[name] && { name: 'hash.js', fn: () => hashjs[HASHJS[name]]().update(data).digest('hex') },
          ...(name === 'md5' ? md5s(data) : []),
        ],
        { bytes: size, x: size, time: size >= 1 << 22 ? Math.max(h.time, 1500) : undefined },
      )
    }
    const note = 'one-shot call on a Buffer; peers convert it to their own input type inside the timed call'
    h.plot({ id: `series-${name}-time`, title: `${title}: time against input size`, table, x: 'input size (bytes, log)', y: 'time', note })
    h.plot({ id: `series-${name}-throughput`, title: `${title}: throughput against input size`, table, x: 'input size (bytes, log)', y: 'throughput', note })
  }
}

module.exports = {
  title: 'Hashing',
  async run(h) {
    hardwareCheck(h, nodeCrypto.randomBytes(1 << 20))
    const wasm = h.peer('hash-wasm')
    const CryptoJS = h.peer('crypto-js')
    const noble = (mod, fn) => {
      const m = h.peer(`@noble/hashes/${mod}.js`)
      return m && m[fn]
    }
    const wasmHasher = async (spec) => (wasm && spec ? wasm[spec[0]](...spec.slice(1)) : null)
    const hasOneShot = typeof nodeCrypto.hash === 'function'
    const sizes = h.quick ? SIZES.slice(0, 3) : SIZES
    const nobleHmac = h.peer('@noble/hashes/hmac.js')
    const hashjs = h.peer('hash.js')
    const md5s = md5Peers(h)

    for (const [size, label] of sizes) {
      const data = input(size)
      const wordArray = CryptoJS && CryptoJS.lib.WordArray.create(data)
      for (const [name, peers] of Object.entries(PEERS)) {
        const ours = sha[name]
        const nodeName = peers.node && nodeHas(peers.node) ? peers.node : null
        const w = await wasmHasher(peers.wasm)
        const n = peers.noble && noble(...peers.noble)
        const cj = CryptoJS && peers.cryptojs && (Array.isArray(peers.cryptojs) ? peers.cryptojs : [peers.cryptojs])
        await h.compare(
          { table: `Hash, ${label} input, hex output (ops/s; bold: cryptographer.js speed-up)`, row: name },
          [
            { name: 'cryptographer.js', fn: () => ours(data) },
            nodeName && { name: 'node createHash', fn: () => nodeCrypto.createHash(nodeName).update(data).digest('hex') },
            nodeName && hasOneShot && { name: 'node crypto.hash', fn: () => nodeCrypto.hash(nodeName, data) },
            w && { name: 'hash-wasm', fn: () => w.init().update(data).digest('hex') },
            n && { name: '@noble/hashes', fn: () => n(data) },
            cj && { name: 'crypto-js', fn: () => CryptoJS[cj[0]](wordArray, cj[1]).toString() },
            hashjs && HASHJS[name] && { name: 'hash.js', fn: () => hashjs[HASHJS[name]]().update(data).digest('hex') },
            ...(name === 'md5' ? md5s(data) : []),
          ],
          { bytes: size },
        )
      }
    }

    // Binary output at 64 B: where a native call beats node's object and Buffer plumbing most.
    const small = input(64)
    for (const [name, peers] of Object.entries(PEERS)) {
      if (!peers.node || !nodeHas(peers.node)) continue
      const ours = sha[name]
      await h.compare(
        { table: 'Hash, 64 B input, Buffer output', row: name },
        [
          { name: 'cryptographer.js', fn: () => ours(small, { outputFormat: 'buffer' }) },
          hasOneShot && { name: 'node crypto.hash', fn: () => nodeCrypto.hash(peers.node, small, 'buffer') },
          { name: 'node createHash', fn: () => nodeCrypto.createHash(peers.node).update(small).digest() },
        ],
        { bytes: 64 },
      )
    }

    // Into the caller's buffer (`options.output`) at 64 B, where allocating the result is a large
    // share of the call: ours with and without it against node's one-shot.
    for (const name of ['sha512', 'md5']) {
      const node = PEERS[name].node
      if (!node || !nodeHas(node)) continue
      const output = Buffer.allocUnsafe(sha[name].outputLength)
      const into = { output }
      await h.compare(
        { table: 'Hash, 64 B input, into options.output', row: name },
        [
          { name: 'cryptographer.js (output)', fn: () => sha[name](small, into) },
          { name: 'cryptographer.js', ours: true, fn: () => sha[name](small, { outputFormat: 'buffer' }) },
          hasOneShot && { name: 'node crypto.hash', fn: () => nodeCrypto.hash(node, small, 'buffer') },
        ],
        { bytes: 64 },
      )
    }

    // Incremental API on a short message: create().update().digest() against createHash.
    for (const name of ['sha256', 'sha512', 'blake2b']) {
      const nodeName = PEERS[name].node
      await h.compare(
        { table: 'Incremental create().update(64 B).digest(), hex', row: name },
        [
          { name: 'cryptographer.js', fn: () => sha[name].create().update(small).digest() },
          { name: 'node createHash', fn: () => nodeCrypto.createHash(nodeName).update(small).digest('hex') },
        ],
        { bytes: 64 },
      )
    }

    // Async one-shot on a large input: ours and WebCrypto run on the libuv pool (WebCrypto copies
    // the input first, ours reads it in place); hash-wasm's async API hashes on the main thread.
    const large = input(h.quick ? 1 << 20 : 8 << 20)
    const largeLabel = `${large.length >> 20} MiB`
    const SUBTLE = { sha1: 'SHA-1', sha256: 'SHA-256', sha384: 'SHA-384', sha512: 'SHA-512' }
    for (const [name, subtleName] of Object.entries(SUBTLE)) {
      const wasmOneShot = wasm && wasm[name]
      await h.compare(
        { table: `Async hash, ${largeLabel} input, hex output (awaited one at a time)`, row: name },
        [
          { name: 'cryptographer.js', fn: () => sha[name].async(large) },
          { name: 'node subtle.digest', fn: () => nodeCrypto.webcrypto.subtle.digest(subtleName, large), out: (ab) => Buffer.from(ab).toString('hex') },
          wasmOneShot && { name: 'hash-wasm', fn: () => wasmOneShot(large) },
        ],
        { bytes: large.length, async: true },
      )
    }

    // HMAC, 32-byte key.
    const key = nodeCrypto.randomBytes(32)
    const keyWords = CryptoJS && CryptoJS.lib.WordArray.create(key)
    for (const [size, label] of sizes) {
      const data = input(size)
      const wordArray = CryptoJS && CryptoJS.lib.WordArray.create(data)
      for (const [name, peers] of Object.entries(PEERS)) {
        if (!hmac[name]) continue
        const ours = hmac[name]
        const nodeName = peers.node && nodeHas(peers.node) ? peers.node : null
        const w = wasm && peers.wasm ? await wasm.createHMAC(wasmHasher(peers.wasm), key) : null
        const n = nobleHmac && peers.noble && noble(...peers.noble)
        const cj = CryptoJS && typeof peers.cryptojs === 'string' && CryptoJS[`Hmac${peers.cryptojs}`]
        await h.compare(
          { table: `HMAC, ${label} input, hex output`, row: name },
          [
            { name: 'cryptographer.js', fn: () => ours(data, { key }) },
            nodeName && { name: 'node createHmac', fn: () => nodeCrypto.createHmac(nodeName, key).update(data).digest('hex') },
            w && { name: 'hash-wasm', fn: () => w.init().update(data).digest('hex') },
            n && { name: '@noble/hashes', fn: () => nobleHmac.hmac(n, key, data) },
            cj && { name: 'crypto-js', fn: () => cj(wordArray, keyWords).toString() },
            hashjs && HASHJS[name] && { name: 'hash.js', fn: () => hashjs.hmac(hashjs[HASHJS[name]], key).update(data).digest('hex') },
          ],
          { bytes: size },
        )
      }
    }

    await sizeSeries(h)
  },
}
