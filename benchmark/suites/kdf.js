'use strict'
// Password hashing and key derivation: Argon2, bcrypt (also sync, on the JS thread, where no
// thread-pool hop is in the time), PBKDF2 and scrypt, each output checked equal before timing,
// against node:crypto, argon2, @node-rs/argon2, bcrypt, @node-rs/bcrypt, bcryptjs, hash-wasm and
// crypto-js where they have the algorithm; the PBKDF2 series (time and iterations per ms against
// 1 … 10,000 iterations, every library that has it); the throughput of 8 concurrent calls; the
// event-loop delay while 8 Argon2 hashes run (vs 8 node:crypto async PBKDF2 calls of similar
// length); and RSS over 100 Argon2 calls.
const nodeCrypto = require('node:crypto')
const { promisify } = require('node:util')
const { monitorEventLoopDelay, performance } = require('node:perf_hooks')
const { kdf } = require('../..')

const PASSWORD = 'correct horse battery staple'
const SALT = Buffer.from('0123456789abcdef') // 16 bytes, fixed so outputs can be compared
const ARGON2 = { timeCost: 3, memoryCost: 65536, parallelism: 4, keyLength: 32 }

const hexOf = (v) => Buffer.from(v.buffer ? Buffer.from(v.buffer, v.byteOffset, v.byteLength) : v).toString('hex')
/** bcrypt strings compared without the $2a$/$2b$ prefix (the hash and salt are what matter). */
const bcryptBody = (s) => String(s).slice(4)
/** bcrypt-base64 encoding of the salt (for the libraries that take a salt string). */
function bcryptSaltString(rounds) {
  const std = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
  const bc = './ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
  const b64 = SALT.toString('base64').replace(/=+$/, '').slice(0, 22)
  return `$2b$${String(rounds).padStart(2, '0')}$${[...b64].map((c) => bc[std.indexOf(c)]).join('')}`
}

function argon2Contestants(h, variant) {
  const peer = h.peer('argon2')
  const noders = h.peer('@node-rs/argon2')
  const wasm = h.peer('hash-wasm')
  const type = { id: 2, i: 1 }[variant]
  const list = [
    {
      name: 'cryptographer.js',
      fn: () => kdf.argon2(PASSWORD, { ...ARGON2, salt: SALT, variant, outputFormat: 'buffer' }),
    },
  ]
  if (typeof nodeCrypto.argon2 === 'function') {
    const run = promisify(nodeCrypto.argon2)
    list.push({
      name: 'node:crypto',
      fn: () =>
        run(`argon2${variant}`, { message: PASSWORD, nonce: SALT, parallelism: 4, tagLength: 32, memory: 65536, passes: 3 }),
    })
  }
  if (noders) {
    list.push({
      name: '@node-rs/argon2',
      fn: () =>
        noders.hashRaw(PASSWORD, { salt: SALT, timeCost: 3, memoryCost: 65536, parallelism: 4, outputLen: 32, algorithm: type }),
    })
  }
  if (peer) {
    list.push({
      name: 'argon2',
      fn: () =>
        peer.hash(PASSWORD, { type, salt: SALT, timeCost: 3, memoryCost: 65536, parallelism: 4, hashLength: 32, raw: true }),
    })
  }
  if (wasm) {
    const f = variant === 'id' ? wasm.argon2id : wasm.argon2i
    list.push({
      name: 'hash-wasm',
      fn: () =>
        f({ password: PASSWORD, salt: SALT, parallelism: 4, iterations: 3, memorySize: 65536, hashLength: 32, outputType: 'binary' }),
    })
  }
  return list
}

/** bcrypt hashes at cost `rounds`: the async calls (thread pool), or with `sync` the sync ones. */
function bcryptContestants(h, rounds, { sync = false } = {}) {
  const saltString = bcryptSaltString(rounds)
  const wasmOptions = { password: PASSWORD, salt: SALT, costFactor: rounds, outputType: 'encoded' }
  // [name, module, async call, sync call (null: none)]
  const peers = [
    ['@node-rs/bcrypt', h.peer('@node-rs/bcrypt'), (p) => p.hash(PASSWORD, rounds, SALT), (p) => p.hashSync(PASSWORD, rounds, SALT)],
    ['bcrypt', h.peer('bcrypt'), (p) => p.hash(PASSWORD, saltString), (p) => p.hashSync(PASSWORD, saltString)],
    ['bcryptjs', h.peer('bcryptjs'), (p) => p.hash(PASSWORD, saltString), (p) => p.hashSync(PASSWORD, saltString)],
    ['hash-wasm', h.peer('hash-wasm'), (p) => p.bcrypt(wasmOptions), null],
  ]
  const out = bcryptBody
  const options = { rounds, salt: SALT }
  const ours = sync ? () => kdf.bcrypt.hash(PASSWORD, options) : () => kdf.bcrypt.hashAsync(PASSWORD, options)
  const list = [{ name: 'cryptographer.js', fn: ours, out }]
  for (const [name, lib, hashAsync, hashSync] of peers) {
    const call = sync ? hashSync : hashAsync
    if (lib && call) list.push({ name, fn: () => call(lib), out })
  }
  return list
}

function pbkdf2Contestants(h, hash) {
  const wasm = h.peer('hash-wasm')
  const cjs = h.peer('crypto-js')
  const iterations = 100000
  const list = [
    { name: 'cryptographer.js', fn: () => kdf.pbkdf2(PASSWORD, { salt: SALT, iterations, keyLength: 32, hash }) },
    { name: 'cryptographer.js async', fn: () => kdf.pbkdf2Async(PASSWORD, { salt: SALT, iterations, keyLength: 32, hash }) },
    { name: 'node:crypto', fn: () => nodeCrypto.pbkdf2Sync(PASSWORD, SALT, iterations, 32, hash) },
  ]
  if (wasm) {
    const fns = { sha1: wasm.createSHA1, sha256: wasm.createSHA256, sha512: wasm.createSHA512 }
    list.push({
      name: 'hash-wasm',
      fn: () => wasm.pbkdf2({ password: PASSWORD, salt: SALT, iterations, hashLength: 32, hashFunction: fns[hash](), outputType: 'hex' }),
    })
  }
  if (cjs && !h.quick) {
    const hasher = { sha1: cjs.algo.SHA1, sha256: cjs.algo.SHA256, sha512: cjs.algo.SHA512 }[hash]
    const salt = cjs.enc.Hex.parse(SALT.toString('hex'))
    list.push({ name: 'crypto-js', fn: () => cjs.PBKDF2(PASSWORD, salt, { keySize: 8, iterations, hasher }) })
  }
  return list
}

function scryptContestants(h) {
  const wasm = h.peer('hash-wasm')
  const o = { salt: SALT, N: 16384, r: 8, p: 1, keyLength: 64 }
  const list = [
    { name: 'cryptographer.js', fn: () => kdf.scrypt(PASSWORD, o) },
    { name: 'cryptographer.js async', fn: () => kdf.scryptAsync(PASSWORD, o) },
    { name: 'node:crypto', fn: () => nodeCrypto.scryptSync(PASSWORD, SALT, 64, { N: 16384, r: 8, p: 1 }) },
    { name: 'node:crypto async', fn: () => promisify(nodeCrypto.scrypt)(PASSWORD, SALT, 64, { N: 16384, r: 8, p: 1 }) },
  ]
  if (wasm) {
    list.push({
      name: 'hash-wasm',
      fn: () => wasm.scrypt({ password: PASSWORD, salt: SALT, costFactor: 16384, blockSize: 8, parallelism: 1, hashLength: 64, outputType: 'hex' }),
    })
  }
  return list
}

// The PBKDF2 series: iterations on a log scale from 1 to 10,000.
const ITERATIONS = [1, 3, 10, 30, 100, 300, 1000, 3000, 10000]
const HASH_TITLES = { sha1: 'SHA-1', sha256: 'SHA-256' }

/** Every library's PBKDF2-`hash` with `iterations`, 32-byte key, output as hex (checked equal). */
function pbkdf2Series(h, hash, iterations) {
  const wasm = h.peer('hash-wasm')
  const cjs = h.peer('crypto-js')
  const noble = h.peer('@noble/hashes/pbkdf2.js')
  const nobleHash = h.peer(hash === 'sha1' ? '@noble/hashes/legacy.js' : '@noble/hashes/sha2.js')?.[hash]
  const sjcl = h.peer('sjcl')
  const forge = h.peer('node-forge')
  const subtle = nodeCrypto.webcrypto.subtle
  const saltHex = SALT.toString('hex')
  const fromBinary = (s) => Buffer.from(s, 'binary').toString('hex')
  return [
    { name: 'cryptographer.js', fn: () => kdf.pbkdf2(PASSWORD, { salt: SALT, iterations, keyLength: 32, hash }) },
    { name: 'node:crypto', fn: () => nodeCrypto.pbkdf2Sync(PASSWORD, SALT, iterations, 32, hash) },
    {
      // The password is imported on every call, as a fresh derivation does.
      name: 'node subtle.deriveBits',
      async: true,
      fn: async () => {
        const key = await subtle.importKey('raw', Buffer.from(PASSWORD), 'PBKDF2', false, ['deriveBits'])
        return subtle.deriveBits({ name: 'PBKDF2', hash: HASH_TITLES[hash], salt: SALT, iterations }, key, 256)
      },
      out: (ab) => Buffer.from(ab).toString('hex'),
    },
    wasm && {
      name: 'hash-wasm',
      async: true,
      fn: () =>
        wasm.pbkdf2({ password: PASSWORD, salt: SALT, iterations, hashLength: 32, hashFunction: hash === 'sha1' ? wasm.createSHA1() : wasm.createSHA256(), outputType: 'hex' }),
    },
    noble && nobleHash && { name: '@noble/hashes', fn: () => noble.pbkdf2(nobleHash, PASSWORD, SALT, { c: iterations, dkLen: 32 }) },
    cjs && {
      name: 'crypto-js',
      fn: () => cjs.PBKDF2(PASSWORD, cjs.enc.Hex.parse(saltHex), { keySize: 8, iterations, hasher: hash === 'sha1' ? cjs.algo.SHA1 : cjs.algo.SHA256 }),
    },
    // sjcl's npm build has HMAC-SHA-256 only (its PBKDF2 default).
    sjcl && hash === 'sha256' && { name: 'sjcl', fn: () => sjcl.codec.hex.fromBits(sjcl.misc.pbkdf2(PASSWORD, sjcl.codec.hex.toBits(saltHex), iterations, 256)) },
    forge && { name: 'node-forge', fn: () => forge.pkcs5.pbkdf2(PASSWORD, SALT.toString('binary'), iterations, 32, forge.md[hash].create()), out: fromBinary },
  ]
}

async function seriesTables(h) {
  const counts = h.quick ? [1, 10, 100, 1000, 10000] : ITERATIONS
  for (const [hash, title] of Object.entries(HASH_TITLES)) {
    const table = `PBKDF2-${title} by iterations, 32-byte key`
    for (const n of counts) {
      await h.compare({ table, row: `${n} iterations` }, pbkdf2Series(h, hash, n), { x: n, time: n >= 3000 ? Math.max(h.time, 1000) : undefined })
    }
    const note = 'one call, password and salt given as the library takes them; WebCrypto imports the password in each call'
    h.plot({ id: `series-pbkdf2-${hash}-time`, title: `PBKDF2-${title}: time against iterations`, table, x: 'iterations (log)', y: 'time', note })
    h.plot({ id: `series-pbkdf2-${hash}-per-ms`, title: `PBKDF2-${title}: iterations per millisecond`, table, x: 'iterations (log)', y: 'perMs', note })
  }
}

/** Event-loop delay (ms) while `start()` runs to completion. */
async function loopDelay(start) {
  const hist = monitorEventLoopDelay({ resolution: 1 })
  const elu0 = performance.eventLoopUtilization()
  hist.enable()
  const t0 = performance.now()
  await start()
  const wall = performance.now() - t0
  hist.disable()
  return {
    wall,
    p50: hist.percentile(50) / 1e6,
    p99: hist.percentile(99) / 1e6,
    max: hist.max / 1e6,
    elu: performance.eventLoopUtilization(elu0).utilization,
  }
}

async function eventLoop(h) {
  const argonOne = () => kdf.argon2(PASSWORD, { ...ARGON2, salt: SALT })
  const argonBurst = () => Promise.all(Array.from({ length: 8 }, argonOne))
  const pbkdf2 = promisify(nodeCrypto.pbkdf2)
  const nodeBurst = (n) => Promise.all(Array.from({ length: 8 }, () => pbkdf2(PASSWORD, SALT, n, 32, 'sha512')))
  // Calibrate node:crypto PBKDF2-SHA512 so that its burst of 8 lasts as long as the Argon2 one.
  await argonBurst()
  let t0 = performance.now()
  await argonBurst()
  const argonWall = performance.now() - t0
  const probe = 20000
  t0 = performance.now()
  await nodeBurst(probe)
  const iterations = Math.max(1000, Math.round((probe * argonWall) / (performance.now() - t0)))
  const rounds = h.quick ? 1 : 5
  const ours = []
  const node = []
  for (let i = 0; i < rounds; i++) {
    ours.push(await loopDelay(argonBurst))
    node.push(await loopDelay(() => nodeBurst(iterations)))
  }
  // Median of each figure over the rounds (each round is one burst of 8 calls).
  const med = (list) => {
    const m = (k) => list.map((r) => r[k]).sort((a, b) => a - b)[list.length >> 1]
    return { wall: m('wall'), p50: m('p50'), p99: m('p99'), max: m('max'), elu: m('elu') }
  }
  const row = (name, list) => {
    const r = med(list)
    return [name, r.wall.toFixed(0), r.p50.toFixed(1), r.p99.toFixed(1), Math.max(...list.map((x) => x.max)).toFixed(1), `${(r.elu * 100).toFixed(1)} %`]
  }
  const a = med(ours)
  const b = med(node)
  h.table(
    `Event loop while 8 async calls run (median of ${rounds} bursts; UV_THREADPOOL_SIZE=${process.env.UV_THREADPOOL_SIZE || 4})`,
    ['Burst', 'wall ms', 'loop delay p50 ms', 'p99 ms', 'worst max ms', 'loop utilisation'],
    [
      row('8 × argon2id t=3 m=64MiB p=4 (cryptographer.js)', ours),
      row(`8 × node:crypto pbkdf2 async, SHA-512 × ${iterations} (a burst as long as the Argon2 one)`, node),
    ],
    {
      finding:
        `While 8 Argon2id hashes run on the pool, the event loop stays responsive: p99 delay ${a.p99.toFixed(1)} ms, ` +
        `${(a.elu * 100).toFixed(1)} % of it busy (node:crypto's async PBKDF2 in a burst as long: p99 ${b.p99.toFixed(1)} ms, ${(b.elu * 100).toFixed(1)} %).`,
    },
  )
}

async function rss(h) {
  const n = h.quick ? 20 : 100
  const o = { ...ARGON2, salt: SALT }
  await kdf.argon2(PASSWORD, o)
  if (global.gc) global.gc()
  const first = process.memoryUsage.rss()
  for (let i = 1; i < n; i++) await kdf.argon2(PASSWORD, o)
  if (global.gc) global.gc()
  const last = process.memoryUsage.rss()
  const mib = (x) => (x / 2 ** 20).toFixed(1)
  h.table(`RSS over ${n} Argon2id calls (t=3, 64 MiB, p=4), one after another (MiB)`, ['after 1 call', `after ${n}`, 'growth'], [[mib(first), mib(last), mib(last - first)]], {
    finding:
      last - first < 32 * 2 ** 20
        ? `RSS grew by ${mib(last - first)} MiB over ${n - 1} more calls: each call's 64 MiB is given back when it ends.`
        : `RSS grew by ${mib(last - first)} MiB over ${n - 1} more calls: memory beyond one call's 64 MiB stays held.`,
  })
}

module.exports = {
  title: 'Password hashing and key derivation',
  async run(h) {
    const async = { async: true }
    for (const variant of ['id', 'i']) {
      await h.compare({ table: 'Password hashing', row: `Argon2${variant} t=3 m=64MiB p=4` }, argon2Contestants(h, variant), async)
    }
    for (const rounds of h.quick ? [10] : [10, 12]) {
      await h.compare({ table: 'Password hashing', row: `bcrypt rounds=${rounds}` }, bcryptContestants(h, rounds), async)
      const row = `bcrypt rounds=${rounds} sync`
      await h.compare({ table: 'Password hashing', row }, bcryptContestants(h, rounds, { sync: true }))
    }
    for (const hash of ['sha1', 'sha256', 'sha512']) {
      const name = { sha1: 'SHA-1', sha256: 'SHA-256', sha512: 'SHA-512' }[hash]
      await h.compare({ table: 'Key derivation', row: `PBKDF2-${name} 100k iterations` }, pbkdf2Contestants(h, hash), async)
    }
    await h.compare({ table: 'Key derivation', row: 'scrypt N=2^14 r=8 p=1' }, scryptContestants(h), async)
    h.plot({
      id: 'password-hashing-time',
      type: 'bar',
      title: 'Argon2, bcrypt, PBKDF2 and scrypt: time per hash (ms, log; lower is faster)',
      table: ['Password hashing', 'Key derivation'],
      y: 'time',
    })
    await seriesTables(h)

    // Throughput of 8 concurrent async calls (ops/s × 8 = hashes per second).
    const eight = (list) =>
      list
        .filter((c) => c.name !== 'hash-wasm') // single-threaded wasm: concurrency does not apply
        .map((c) => ({
          name: c.name,
          fn: () => Promise.all(Array.from({ length: 8 }, c.fn)),
          out: (all) => all.map((x) => (c.out ? c.out(x) : hexOf(x))).join(),
        }))
    await h.compare({ table: 'Concurrency', row: '8 concurrent Argon2id calls' }, eight(argon2Contestants(h, 'id')), async)
    await h.compare({ table: 'Concurrency', row: '8 concurrent bcrypt(10) calls' }, eight(bcryptContestants(h, 10)), async)

    await eventLoop(h)
    await rss(h)
  },
}
