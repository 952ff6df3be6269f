'use strict'
// Real-world workloads. (1) File processing: SHA-256 and AES-256-CBC of 1, 10 and 100 MB
// files read from disk (in the page cache), time side by side and peak RSS growth of one run in a
// fresh process, ours (`sha256.file()`; read + encrypt for AES-CBC, which has no file API) against
// node's streams and crypto-js. (2) An "API request": 100 SHA-256 hashes of 1 KiB, 100
// HMAC-SHA-256 and 10 AES-256-GCM encryptions; time per request and requests per second.
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const nodeCrypto = require('node:crypto')
const { sha, hmac, cipher } = require('../..')
const { peak, processFile, MiB } = require('../memory')
const { makeFile } = require('../harness')

const MB = 1000 * 1000
const ms = (ops) => (ops ? (1000 / ops < 10 ? (1000 / ops).toFixed(2) : (1000 / ops).toFixed(0)) : 'n/a')
const rate = (rows, name) => (rows || []).find((r) => r.name === name)
const speedup = (a, b) => (a && b ? `${(a.opsPerSec / b.opsPerSec).toFixed(1)}×` : 'n/a')
const sha256 = (b) => nodeCrypto.createHash('sha256').update(b).digest('hex')

async function fileTable(h) {
  const dir = fs.mkdtempSync(path.join(process.env.BENCH_FILE_DIR || os.tmpdir(), 'cryptographer-app-'))
  const CryptoJS = h.peer('crypto-js')
  const rows = []
  const tooBig = []
  try {
    for (const size of h.quick ? [MB, 10 * MB] : [MB, 10 * MB, 100 * MB]) {
      const file = path.join(dir, `f-${size}.bin`)
      let written = false
      for (const [alg, title] of [
        ['sha256', 'SHA-256'],
        ['aes-256-cbc', 'AES-256-CBC'],
      ]) {
        const group = {
          table:
            'File processing: a file read from disk (ops/s; ours: sha256.file(), AES-CBC read then encrypted; ' +
            'node: createReadStream piped to createHash / createCipheriv; crypto-js: read, WordArray, one call)',
          row: `${size / MB} MB ${title}`,
        }
        if (h.filter && !h.filter.test(`${group.table} / ${group.row}`)) continue
        if (!written) makeFile(file, size)
        written = true
        // Ciphertexts are compared through their SHA-256 (computed in the check only, not timed).
        const out = (v) => (typeof v === 'string' ? v : sha256(v.sigBytes !== undefined ? Buffer.from(v.toString(CryptoJS.enc.Hex), 'hex') : v))
        // The same names on every row (one column and one colour each); the table's title says how.
        // crypto-js cannot encrypt 100 MB in one call: its WordArray outgrows V8's largest array,
        // a fatal error that ends the process (the row says so instead of timing it).
        const cjsFits = !(alg === 'aes-256-cbc' && size > 64 * MB)
        const impls = [['ours', 'cryptographer.js'], ['node', 'node:crypto'], CryptoJS && cjsFits && ['crypto-js', 'crypto-js']].filter(Boolean)
        const r = await h.compare(
          group,
          impls.map(([impl, name]) => ({ name, fn: () => processFile(require('../..'), { alg, path: file, impl }), out })),
          { bytes: size, async: true, time: size >= 100 * MB ? Math.max(h.time * 4, 3000) : undefined },
        )
        if (!r) continue
        const mem = ['ours', 'node', 'crypto-js'].map((impl) => (impls.some(([i]) => i === impl) ? (peak('process', { alg, path: file, impl }).peak / MiB).toFixed(1) : 'n/a'))
        const [o, n, c] = ['cryptographer.js', 'node:crypto', 'crypto-js'].map((name) => rate(r, name))
        rows.push([`${size / MB} MB`, title, ms(o?.opsPerSec), ms(n?.opsPerSec), ms(c?.opsPerSec), speedup(o, c), speedup(o, n), ...mem])
        if (CryptoJS && !cjsFits) tooBig.push(`${size / MB} MB ${title}`)
      }
      fs.rmSync(file, { force: true })
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
  if (rows.length) {
    const big = rows[rows.length - 1]
    // A filtered run may lack the SHA-256 rows: the finding then names the AES-256-CBC ones only.
    const hash = rows.filter((r) => r[1] === 'SHA-256').pop()
    const hashPart = hash ? `On a ${hash[0]} file, sha256.file() takes ${hash[2]} ms with ${hash[7]} MiB of peak memory growth (node's stream ${hash[3]} ms, ${hash[8]} MiB; crypto-js ${hash[4]} ms, ${hash[9]} MiB); ` : ''
    h.table(
      'File processing (ms per file; peak RSS growth of one run in a fresh process, MiB)',
      ['File size', 'Algorithm', 'cryptographer.js ms', 'node ms', 'crypto-js ms', 'vs crypto-js', 'vs node', 'peak ours', 'peak node', 'peak crypto-js'],
      rows,
      {
        finding:
          hashPart +
          `AES-256-CBC, which has no file API, reads the file whole: ${big[7]} MiB for ${big[0]}. For large files prefer the file and stream APIs (aes.encryptFile).` +
          (tooBig.length ? ` crypto-js is not timed on ${tooBig.join(', ')}: encrypting that in one call outgrows V8's largest array, a fatal error that ends the process.` : ''),
      },
    )
  }
}

async function requestTable(h) {
  const CryptoJS = h.peer('crypto-js')
  const inputs = Array.from({ length: 100 }, () => nodeCrypto.randomBytes(1024))
  const ivs = Array.from({ length: 10 }, () => nodeCrypto.randomBytes(12))
  const key = nodeCrypto.randomBytes(32)
  const aesKey = nodeCrypto.randomBytes(32)
  const kept = cipher.aes.key(aesKey)
  const table = 'API request: 100 hashes, 100 HMACs, 10 encryptions of 1 KiB (requests/s)'

  const parts = {
    hash: {
      row: '100 × SHA-256',
      ours: () => inputs.map((d) => sha.sha256(d)).join(),
      node: () => inputs.map((d) => nodeCrypto.createHash('sha256').update(d).digest('hex')).join(),
      cjs: CryptoJS && (() => inputs.map((d) => CryptoJS.SHA256(CryptoJS.lib.WordArray.create(d)).toString()).join()),
    },
    hmac: {
      row: '100 × HMAC-SHA-256',
      ours: () => inputs.map((d) => hmac.sha256(d, { key })).join(),
      node: () => inputs.map((d) => nodeCrypto.createHmac('sha256', key).update(d).digest('hex')).join(),
      cjs: CryptoJS && (() => inputs.map((d) => CryptoJS.HmacSHA256(CryptoJS.lib.WordArray.create(d), CryptoJS.lib.WordArray.create(key)).toString()).join()),
    },
    encrypt: {
      row: '10 × AES-256-GCM',
      ours: () => ivs.map((iv, i) => cipher.aes.encrypt(inputs[i], { key: aesKey, iv, mode: 'gcm' }).toString('hex')).join(),
      kept: () => ivs.map((iv, i) => kept.encrypt(inputs[i], { iv, mode: 'gcm' }).toString('hex')).join(),
      node: () =>
        ivs
          .map((iv, i) => {
            const c = nodeCrypto.createCipheriv('aes-256-gcm', aesKey, iv)
            return Buffer.concat([c.update(inputs[i]), c.final(), c.getAuthTag()]).toString('hex')
          })
          .join(),
      // crypto-js has no AEAD: its nearest is AES-256-CBC then HMAC-SHA-256 (encrypt-then-MAC).
      cjs:
        CryptoJS &&
        (() =>
          ivs
            .map((iv, i) => {
              const wa = (b) => CryptoJS.lib.WordArray.create(b)
              const ct = CryptoJS.AES.encrypt(wa(inputs[i]), wa(aesKey), { iv: wa(iv.subarray(0, 12)), mode: CryptoJS.mode.CBC }).ciphertext
              return ct.toString() + CryptoJS.HmacSHA256(ct, wa(key)).toString()
            })
            .join()),
    },
  }
  const whole = (k) => () => ['hash', 'hmac', 'encrypt'].map((p) => (parts[p][k] || parts[p].ours)()).join('|')
  const rows = []
  for (const p of [...Object.values(parts), { row: 'whole request', ours: whole('ours'), kept: whole('kept'), node: whole('node'), cjs: CryptoJS && whole('cjs') }]) {
    const cbc = p === parts.encrypt || p.row === 'whole request'
    const r = await h.compare({ table, row: p.row }, [
      { name: 'cryptographer.js', fn: p.ours },
      p.kept && { name: 'cryptographer.js (kept key)', fn: p.kept },
      { name: 'node:crypto', fn: p.node },
      // Not the same output where crypto-js encrypts with CBC + HMAC: that part is not checked.
      p.cjs && { name: cbc ? 'crypto-js (CBC + HMAC)' : 'crypto-js', fn: p.cjs, check: !cbc },
    ])
    if (!r) continue
    const o = rate(r, 'cryptographer.js')
    const n = rate(r, 'node:crypto')
    const c = r.find((x) => x.name.startsWith('crypto-js'))
    rows.push([p.row, ms(o?.opsPerSec), ms(n?.opsPerSec), ms(c?.opsPerSec), speedup(o, c), speedup(o, n), o ? o.opsPerSec.toFixed(0) : 'n/a'])
  }
  if (rows.length) {
    const whole = rows.find((r) => r[0] === 'whole request')
    h.table(
      'API request processing (ms per request part; crypto-js encrypts with AES-256-CBC + HMAC-SHA-256, having no GCM)',
      ['Operations per request', 'cryptographer.js ms', 'node ms', 'crypto-js ms', 'vs crypto-js', 'vs node', 'cryptographer.js per second'],
      rows,
      whole && {
        finding:
          `The cryptography of one request takes ${whole[1]} ms with cryptographer.js (${whole[6]} requests a second on one core), ` +
          `against ${whole[2]} ms with node:crypto and ${whole[3]} ms with crypto-js (speed-ups ${whole[5]} and ${whole[4]}).`,
      },
    )
  }
}

module.exports = {
  title: 'Real-world workloads',
  async run(h) {
    await fileTable(h)
    await requestTable(h)
  },
}
