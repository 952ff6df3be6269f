'use strict'
// crypto.cipher against node:crypto (every mode and cipher node has, random keys/IVs/AAD, lengths
// 0..past 64 KiB), round trips for every mode, IV generation and prepending, single-bit flips,
// crypto-js interop both ways, async forms, kept keys, and the seed's calls.
const test = require('ava')
const nodeCrypto = require('node:crypto')
const { nodeEncrypt, nodeDecrypt } = require('./helpers/node-reference')
const CryptoJS = require('crypto-js')
const { cipher, kdf } = require('..')

const { aes, chacha20, xchacha20, des } = cipher
const rnd = (n) => (n ? nodeCrypto.randomBytes(n) : Buffer.alloc(0))
const FAILED = { instanceOf: Error, code: 'ERR_CRYPTO_DECRYPT_FAILED' }
const LENGTHS = [0, 1, 15, 16, 17, 31, 32, 33, 63, 64, 65, 255, 1000, 4095, 4096, 4097, 65535, 65536, 65537, 70001]

const has = (name) => nodeCrypto.getCiphers().includes(name) && (() => {
  try {
    nodeCrypto.createCipheriv(name, Buffer.alloc(nodeCrypto.getCipherInfo(name).keyLength), nodeCrypto.getCipherInfo(name).ivLength ? Buffer.alloc(nodeCrypto.getCipherInfo(name).ivLength) : null)
    return true
  } catch {
    return false
  }
})()



// ---------------------------------------------------------------------------------------------
// Differential tests vs node:crypto
// ---------------------------------------------------------------------------------------------

for (const bits of [128, 192, 256]) {
  for (const mode of ['ecb', 'cbc', 'ctr', 'cfb', 'cfb8', 'ofb']) {
    test(`AES-${bits}-${mode.toUpperCase()} equals node:crypto both ways (random keys/IVs, lengths 0..70001)`, (t) => {
      const name = `aes-${bits}-${mode}`
      for (const n of LENGTHS) {
        const key = rnd(bits / 8)
        const iv = mode === 'ecb' ? null : rnd(16)
        const data = rnd(n)
        const opts = { key, mode, ...(iv ? { iv } : {}) }
        const ours = aes.encrypt(data, opts)
        t.true(ours.equals(nodeEncrypt(name, key, iv, data)), `${name} encrypt n=${n}`)
        t.true(aes.decrypt(ours, opts).equals(data), `${name} decrypt n=${n}`)
        t.true(nodeDecrypt(name, key, iv, ours).equals(data))
        if (mode === 'ecb' || mode === 'cbc') {
          // Without padding (block-aligned data only).
          const m = data.subarray(0, n - (n % 16))
          const raw = aes.encrypt(m, { ...opts, padding: 'none' })
          t.true(raw.equals(nodeEncrypt(name, key, iv, m, { padding: false })))
          t.true(aes.decrypt(raw, { ...opts, padding: 'none' }).equals(m))
        }
      }
    })
  }

  test(`AES-${bits}-CTR equals node:crypto where the 128-bit counter carries and wraps`, (t) => {
    // node:crypto (OpenSSL) increments the whole 128-bit block, as ours does (block_modes::Ctr).
    const name = `aes-${bits}-ctr`
    const near = (hex) => Buffer.from(hex, 'hex')
    const ivs = [
      near('ffffffffffffffffffffffffffffffc0'), // wraps to zero within the first 64 blocks
      near('0123456789abcdefffffffffffffffc3'), // the low 64 bits carry into the high 64
      near('00000000fffffffffffffffffffffffe'), // carries through 96 bits
    ]
    for (const iv of ivs) {
      for (const n of [16 * 63 + 5, 16 * 64, 16 * 64 + 1, 16 * 200 + 9]) {
        const key = rnd(bits / 8)
        const data = rnd(n)
        const ours = aes.encrypt(data, { key, iv, mode: 'ctr' })
        t.true(ours.equals(nodeEncrypt(name, key, iv, data)), `${name} iv=${iv.toString('hex')} n=${n}`)
      }
    }
  })

  test(`AES-${bits}-GCM equals node:crypto (IV lengths 1..64, tags 12..16, random AAD, lengths 0..70001)`, (t) => {
    const name = `aes-${bits}-gcm`
    const ivLens = [12, 12, 1, 8, 16, 13, 64]
    LENGTHS.forEach((n, i) => {
      const key = rnd(bits / 8)
      const iv = rnd(ivLens[i % ivLens.length])
      const aad = rnd((i * 7) % 40)
      const tagLength = 12 + (i % 5)
      const data = rnd(n)
      const opts = { key, iv, aad, tagLength, mode: 'gcm' }
      const ours = aes.encrypt(data, opts)
      t.true(ours.equals(nodeEncrypt(name, key, iv, data, { aad, tagLength })), `${name} n=${n} iv=${iv.length} tag=${tagLength}`)
      t.true(aes.decrypt(ours, opts).equals(data))
      t.true(nodeDecrypt(name, key, iv, ours, { aad, tagLength }).equals(data))
    })
  })

  test(`AES-${bits}-CCM equals node:crypto (nonces 7..13, tags 12/14/16)`, (t) => {
    const name = `aes-${bits}-ccm`
    for (let ivLen = 7; ivLen <= 13; ivLen++) {
      for (const tagLength of [12, 14, 16]) {
        for (const n of [0, 1, 16, 33, 1000, ivLen === 13 ? 65535 : 70001]) {
          const key = rnd(bits / 8)
          const iv = rnd(ivLen)
          const aad = rnd(n % 23)
          const data = rnd(n)
          const opts = { key, iv, aad, tagLength, mode: 'ccm' }
          const ours = aes.encrypt(data, opts)
          t.true(ours.equals(nodeEncrypt(name, key, iv, data, { aad, tagLength })), `${name} iv=${ivLen} tag=${tagLength} n=${n}`)
          t.true(aes.decrypt(ours, opts).equals(data))
        }
      }
    }
  })
}

// From 8 KiB, CPUs with AVX-512 IFMA take the library's own kernel (cpuPaths().chacha20 is
// 'avx512-ifma'): its steps are Poly1305's 128 bytes, ChaCha20's 1 KiB and an 8 KiB stitch.
const CHACHA_LENGTHS = [...LENGTHS, 8191, 8192, 8193, 8192 + 127, 8192 + 960, 9216 + 15, 16384 + 129, (1 << 20) + 3]

test('ChaCha20-Poly1305 equals node:crypto (random keys, nonces, AAD, lengths 0..1 MiB); a flipped bit is refused', (t) => {
  for (const [i, n] of CHACHA_LENGTHS.entries()) {
    const key = rnd(32)
    const iv = rnd(12)
    const aad = rnd([0, 5, 16, 127, 128, 129, 300][i % 7])
    const data = rnd(n)
    const ours = chacha20.encrypt(data, { key, iv, aad })
    t.true(ours.equals(nodeEncrypt('chacha20-poly1305', key, iv, data, { aad })), `n=${n}`)
    t.true(chacha20.decrypt(ours, { key, iv, aad }).equals(data))
    t.true(nodeDecrypt('chacha20-poly1305', key, iv, ours, { aad }).equals(data))
    const bad = Buffer.from(ours)
    bad[(i * 7919) % bad.length] ^= 1 << (i % 8)
    t.throws(() => chacha20.decrypt(bad, { key, iv, aad }), FAILED, `n=${n}`)
  }
})

test('3DES (EDE3, EDE2) in CBC and ECB equals node:crypto; single DES too where the OpenSSL build has it', (t) => {
  const cases = [
    ['des-ede3-cbc', 24, 'cbc'],
    ['des-ede3', 24, 'ecb'],
    ['des-ede-cbc', 16, 'cbc'],
    ['des-ede', 16, 'ecb'],
    ['des-cbc', 8, 'cbc'],
    ['des-ecb', 8, 'ecb'],
  ]
  let compared = 0
  for (const [name, keyLen, mode] of cases) {
    if (!has(name)) {
      t.log(`${name}: not available in this node:crypto (OpenSSL legacy provider); round trip only`)
    }
    for (const n of [0, 1, 7, 8, 9, 100, 4097]) {
      const key = rnd(keyLen)
      const iv = mode === 'cbc' ? rnd(8) : null
      const data = rnd(n)
      const opts = { key, mode, ...(iv ? { iv } : {}) }
      const ours = des.encrypt(data, opts)
      t.is(ours.length, (Math.floor(n / 8) + 1) * 8)
      t.true(des.decrypt(ours, opts).equals(data))
      if (has(name)) {
        t.true(ours.equals(nodeEncrypt(name, key, iv, data)), `${name} n=${n}`)
        compared++
      }
    }
  }
  t.true(compared >= 14)
})

// ---------------------------------------------------------------------------------------------
// Round trips, IV generation
// ---------------------------------------------------------------------------------------------

const AEAD_CASES = [
  ['aes gcm-128', aes, { mode: 'gcm' }, 16, 12],
  ['aes gcm-256', aes, { mode: 'gcm' }, 32, 12],
  ['aes gcm-192', aes, { mode: 'gcm' }, 24, 12],
  ['aes gcm-siv', aes, { mode: 'gcm-siv' }, 32, 12],
  ['aes ccm', aes, { mode: 'ccm' }, 16, 12],
  ['aes siv', aes, { mode: 'siv' }, 64, 16],
  ['chacha20', chacha20, {}, 32, 12],
  ['xchacha20', xchacha20, {}, 32, 24],
]

test('round trips for every mode, with generated IVs: the IV is prepended and read back', (t) => {
  const all = [
    ...['ecb', 'cbc', 'ctr', 'cfb', 'cfb8', 'ofb', 'gcm', 'gcm-siv', 'ccm', 'siv'].flatMap((mode) =>
      (mode === 'siv' ? [32, 64] : mode === 'gcm-siv' ? [16, 32] : [16, 24, 32]).map((k) => [aes, mode, k]),
    ),
    [chacha20, undefined, 32],
    [xchacha20, undefined, 32],
    [des, 'cbc', 24],
    [des, 'ecb', 8],
  ]
  for (const [ns, mode, keyLen] of all) {
    const ivLen = { ecb: 0, gcm: 12, 'gcm-siv': 12, ccm: 12, siv: 16 }[mode] ?? (ns === des ? 8 : ns === chacha20 ? 12 : ns === xchacha20 ? 24 : 16)
    for (const n of [0, 1, 16, 100, 5000]) {
      const key = rnd(keyLen)
      const data = rnd(n)
      const opts = mode ? { key, mode } : { key }
      const out = ns.encrypt(data, opts)
      t.true(ns.decrypt(out, opts).equals(data), `${mode} ${keyLen} n=${n}`)
      // The same data with the prefix split off as an explicit IV.
      if (ivLen > 0) {
        const iv = out.subarray(0, ivLen)
        t.true(ns.decrypt(out.subarray(ivLen), { ...opts, iv }).equals(data))
        // A fresh IV each time.
        t.false(ns.encrypt(data, opts).subarray(0, ivLen).equals(iv))
      }
    }
  }
})

test('explicit IV: nothing prepended; strings are UTF-8; every input type; output formats', (t) => {
  const key = rnd(32)
  const iv = rnd(12)
  const a = aes.encrypt('héllo', { key, iv })
  t.is(a.length, Buffer.byteLength('héllo') + 16)
  t.true(a.equals(nodeEncrypt('aes-256-gcm', key, iv, Buffer.from('héllo'))))
  const data = rnd(40)
  const u8 = new Uint8Array(data)
  const shared = new Uint8Array(new SharedArrayBuffer(40))
  shared.set(data)
  const wide = Buffer.concat([rnd(5), data])
  const padded = new DataView(wide.buffer, wide.byteOffset + 5, 40)
  const views = [data, u8, new DataView(u8.buffer), u8.buffer, new Uint16Array(u8.buffer), Buffer.concat([rnd(3), data]).subarray(3), shared.buffer, padded]
  for (const v of views) t.true(aes.encrypt(v, { key, iv }).equals(aes.encrypt(data, { key, iv })))
  const ref = aes.encrypt(data, { key, iv })
  t.is(aes.encrypt(data, { key, iv, outputFormat: 'hex' }), ref.toString('hex'))
  t.is(aes.encrypt(data, { key, iv, outputFormat: 'base64' }), ref.toString('base64'))
  t.is(aes.encrypt(data, { key, iv, outputFormat: 'base64url' }), ref.toString('base64url'))
  t.is(aes.decrypt(a, { key, iv, outputFormat: 'utf8' }), 'héllo')
  t.is(aes.decrypt(a, { key, iv, outputFormat: 'hex' }), Buffer.from('héllo').toString('hex'))
  t.true(Buffer.isBuffer(aes.decrypt(a, { key, iv })))
  // Mode names are case-insensitive.
  t.true(aes.encrypt(data, { key, iv, mode: 'GCM' }).equals(ref))
})

test('the seed calls run unchanged: encrypt(data, { key, iv, mode }) for cbc, ecb, ctr and the GCM default', (t) => {
  const data = rnd(1024)
  const key = rnd(32)
  const iv = rnd(16)
  for (const mode of ['cbc', 'ecb', 'ctr']) {
    const out = aes.encrypt(data, { key, iv, mode })
    t.true(out.equals(nodeEncrypt(`aes-256-${mode}`, key, mode === 'ecb' ? null : iv, data)), mode)
  }
  // Default mode: GCM, here with the seed's 16-byte IV (the general GCM IV path).
  const gcm = aes.encrypt(data, { key, iv })
  t.true(gcm.equals(nodeEncrypt('aes-256-gcm', key, iv, data)))
})

// ---------------------------------------------------------------------------------------------
// Tampering
// ---------------------------------------------------------------------------------------------

test('flipping any single bit of IV, ciphertext, tag or AAD is rejected, for every AEAD', (t) => {
  for (const [label, ns, extra, keyLen, ivLen] of AEAD_CASES) {
    const key = rnd(keyLen)
    const aad = rnd(20)
    const data = rnd(33)
    const out = ns.encrypt(data, { ...extra, key, aad }) // IV ‖ ciphertext ‖ tag
    t.true(ns.decrypt(out, { ...extra, key, aad }).equals(data))
    for (let i = 0; i < out.length * 8; i++) {
      const bad = Buffer.from(out)
      bad[i >> 3] ^= 1 << (i & 7)
      t.throws(() => ns.decrypt(bad, { ...extra, key, aad }), FAILED, `${label} bit ${i} (IV is the first ${ivLen * 8})`)
    }
    for (let i = 0; i < aad.length * 8; i++) {
      const bad = Buffer.from(aad)
      bad[i >> 3] ^= 1 << (i & 7)
      t.throws(() => ns.decrypt(out, { ...extra, key, aad: bad }), FAILED, `${label} aad bit ${i}`)
    }
    t.throws(() => ns.decrypt(out, { ...extra, key }), FAILED, `${label} missing aad`)
    t.throws(() => ns.decrypt(out.subarray(0, out.length - 1), { ...extra, key, aad }), FAILED, `${label} truncated`)
    t.throws(() => ns.decrypt(out.subarray(0, 3), { ...extra, key, aad }), FAILED, `${label} shorter than the IV`)
  }
})

test('padding and authentication failures look the same (one code, one message: no padding oracle)', (t) => {
  const key = rnd(32)
  const iv = rnd(16)
  const messages = new Set()
  let paddingFailures = 0
  for (let i = 0; i < 64; i++) {
    const ct = aes.encrypt(rnd(40), { key, iv, mode: 'cbc' })
    ct[ct.length - 1 - (i % 16)] ^= 1 + (i % 255)
    try {
      aes.decrypt(ct, { key, iv, mode: 'cbc' })
    } catch (e) {
      t.is(e.code, 'ERR_CRYPTO_DECRYPT_FAILED')
      t.is(e.constructor, Error)
      messages.add(e.message)
      paddingFailures++
    }
  }
  t.true(paddingFailures > 32)
  // Wrong lengths for PKCS#7 data are the same failure.
  for (const n of [0, 1, 15, 17]) {
    t.throws(() => aes.decrypt(rnd(n), { key, iv, mode: 'cbc' }), FAILED)
  }
  const gcm = aes.encrypt('x', { key })
  gcm[gcm.length - 1] ^= 1
  try {
    aes.decrypt(gcm, { key })
  } catch (e) {
    messages.add(e.message)
  }
  t.is(messages.size, 1)
})

// ---------------------------------------------------------------------------------------------
// crypto-js compatibility
// ---------------------------------------------------------------------------------------------

const wa = (buf) => CryptoJS.enc.Hex.parse(buf.toString('hex'))

const { cryptoJs } = cipher.legacy

test('crypto-js passphrase format: ours decrypts with CryptoJS.AES.decrypt and the reverse', (t) => {
  for (const text of ['', 'hello', 'x'.repeat(16), 'ünïcødé 🔐 text', 'a'.repeat(1000)]) {
    for (const pass of ['secret', 'pässwörd', 'x']) {
      const ours = cryptoJs.encrypt(text, { passphrase: pass })
      t.is(typeof ours, 'string')
      t.true(Buffer.from(ours, 'base64').subarray(0, 8).equals(Buffer.from('Salted__')))
      t.is(CryptoJS.AES.decrypt(ours, pass).toString(CryptoJS.enc.Utf8), text)
      const theirs = CryptoJS.AES.encrypt(text, pass).toString()
      t.is(cryptoJs.decrypt(theirs, { passphrase: pass, outputFormat: 'utf8' }), text)
      t.true(cryptoJs.decrypt(theirs, { passphrase: pass }).equals(Buffer.from(text)))
    }
  }
})

test('crypto-js passphrase format only under cipher.legacy.cryptoJs (cipher.aes refuses it both ways); empty passphrases refused', async (t) => {
  for (const encrypt of [aes.encrypt, aes.encryptAsync]) {
    const e = await t.throwsAsync(async () => encrypt('x', { passphrase: 'p' }), { instanceOf: TypeError, code: 'ERR_INVALID_ARG_VALUE' })
    t.regex(e.message, /cipher\.legacy\.cryptoJs\.encrypt\(\)/)
  }
  // Reading it from the main API would accept modified data (no MAC): a flipped bit decrypts.
  const sealed = CryptoJS.AES.encrypt('attack at dawn, attack at dawn!', 'pw').toString()
  for (const decrypt of [aes.decrypt, aes.decryptAsync]) {
    const e = await t.throwsAsync(async () => decrypt(sealed, { passphrase: 'pw', outputFormat: 'utf8' }), { instanceOf: TypeError, code: 'ERR_INVALID_ARG_VALUE' })
    t.regex(e.message, /cipher\.legacy\.cryptoJs\.decrypt\(\)/)
  }
  const flipped = Buffer.from(sealed, 'base64')
  flipped[16] ^= 1
  t.is(cryptoJs.decrypt(flipped, { passphrase: 'pw', outputFormat: 'binary' }).slice(17), 'ttack at dawn!')
  const theirs = CryptoJS.AES.encrypt('old data', '').toString()
  for (const fn of [cryptoJs.encrypt, cryptoJs.decrypt, cryptoJs.encryptAsync, cryptoJs.decryptAsync]) {
    await t.throwsAsync(async () => fn(theirs, { passphrase: '' }), { instanceOf: TypeError, code: 'ERR_INVALID_ARG_VALUE' })
  }
  // The async forms run on the pool and honour signal like every other async call.
  const s = await cryptoJs.encryptAsync('pool', { passphrase: 'q' })
  t.is(CryptoJS.AES.decrypt(s, 'q').toString(CryptoJS.enc.Utf8), 'pool')
  t.is(await cryptoJs.decryptAsync(s, { passphrase: 'q', outputFormat: 'utf8' }), 'pool')
  const ac = new AbortController()
  ac.abort()
  const e = await t.throwsAsync(cryptoJs.decryptAsync(s, { passphrase: 'q', signal: ac.signal }))
  t.true(e instanceof kdf.AbortError)
  t.throws(() => cryptoJs.encrypt('x', { passphrase: 'q', key: rnd(32) }), { instanceOf: TypeError, code: 'ERR_INVALID_ARG_VALUE' })
})

test('crypto-js with explicit key and IV: CBC/ECB (PKCS#7) and CTR/CFB/OFB (NoPadding) interoperate both ways', (t) => {
  const modes = { cbc: CryptoJS.mode.CBC, ecb: CryptoJS.mode.ECB, ctr: CryptoJS.mode.CTR, cfb: CryptoJS.mode.CFB, ofb: CryptoJS.mode.OFB }
  for (const [mode, cjsMode] of Object.entries(modes)) {
    for (const keyLen of [16, 24, 32]) {
      for (const n of [0, 5, 16, 100]) {
        if (n === 0 && mode !== 'cbc' && mode !== 'ecb') continue
        const key = rnd(keyLen)
        const iv = rnd(16)
        const data = rnd(n)
        const padding = mode === 'cbc' || mode === 'ecb' ? CryptoJS.pad.Pkcs7 : CryptoJS.pad.NoPadding
        const theirs = CryptoJS.AES.encrypt(wa(data), wa(key), { iv: wa(iv), mode: cjsMode, padding })
        const opts = { key, mode, ...(mode === 'ecb' ? {} : { iv }) }
        const ours = aes.encrypt(data, opts)
        t.is(ours.toString('hex'), theirs.ciphertext.toString(CryptoJS.enc.Hex), `${mode} ${keyLen} ${n}`)
        const back = CryptoJS.AES.decrypt({ ciphertext: wa(ours) }, wa(key), { iv: wa(iv), mode: cjsMode, padding })
        t.is(back.toString(CryptoJS.enc.Hex), data.toString('hex'))
        t.true(aes.decrypt(Buffer.from(theirs.ciphertext.toString(CryptoJS.enc.Hex), 'hex'), opts).equals(data))
      }
    }
  }
})

test('DES and 3DES (ECB/CBC, PKCS#7) equal crypto-js, which has single DES that node:crypto lacks', (t) => {
  for (const [keyLen, algo] of [[8, CryptoJS.DES], [16, CryptoJS.TripleDES], [24, CryptoJS.TripleDES]]) {
    for (const [mode, cjsMode] of [['cbc', CryptoJS.mode.CBC], ['ecb', CryptoJS.mode.ECB]]) {
      for (const n of [0, 1, 8, 9, 100]) {
        const key = rnd(keyLen)
        const iv = rnd(8)
        const data = rnd(n)
        const opts = { key, mode, ...(mode === 'cbc' ? { iv } : {}) }
        const theirs = algo.encrypt(wa(data), wa(key), { iv: wa(iv), mode: cjsMode, padding: CryptoJS.pad.Pkcs7 })
        const ours = des.encrypt(data, opts)
        t.is(ours.toString('hex'), theirs.ciphertext.toString(CryptoJS.enc.Hex), `${keyLen} ${mode} ${n}`)
        t.true(des.decrypt(ours, opts).equals(data))
      }
    }
  }
})

test('passphrase errors: not the Salted__ format → TypeError; wrong passphrase → decrypt failure or garbage', (t) => {
  t.throws(() => cryptoJs.decrypt('aGVsbG8gd29ybGQgaGVsbG8gd29ybGQ=', { passphrase: 'p' }), { instanceOf: TypeError, code: 'ERR_INVALID_ARG_VALUE' })
  t.throws(() => aes.encrypt('x', { passphrase: 'p', key: rnd(32) }), { instanceOf: TypeError, code: 'ERR_INVALID_ARG_VALUE' })
  t.throws(() => cryptoJs.encrypt('x', { passphrase: 42 }), { instanceOf: TypeError, code: 'ERR_INVALID_ARG_TYPE' })
  let failures = 0
  for (let i = 0; i < 20; i++) {
    const s = cryptoJs.encrypt('attack at dawn', { passphrase: 'right' })
    try {
      t.not(cryptoJs.decrypt(s, { passphrase: 'wrong', outputFormat: 'utf8' }), 'attack at dawn')
    } catch (e) {
      t.is(e.code, 'ERR_CRYPTO_DECRYPT_FAILED')
      failures++
    }
  }
  t.true(failures >= 15)
})

// ---------------------------------------------------------------------------------------------
// Async, kept keys
// ---------------------------------------------------------------------------------------------

test('encryptAsync/decryptAsync equal the sync forms (1 MiB) and copy their inputs first', async (t) => {
  const key = rnd(32)
  const iv = rnd(12)
  const data = rnd(1 << 20)
  const copy = Buffer.from(data)
  const p = aes.encryptAsync(data, { key, iv })
  data.fill(0) // must not affect the running encryption
  const out = await p
  t.true(out.equals(aes.encrypt(copy, { key, iv })))
  t.true((await aes.decryptAsync(out, { key, iv })).equals(copy))
  for (const mode of ['cbc', 'ctr', 'siv', 'ccm']) {
    const k = mode === 'siv' ? rnd(64) : key
    const sealed = await aes.encryptAsync(copy.subarray(0, 5000), { key: k, mode })
    t.true(aes.decrypt(sealed, { key: k, mode }).equals(copy.subarray(0, 5000)))
  }
  const cc = await chacha20.encryptAsync('x', { key })
  t.is(await chacha20.decryptAsync(cc, { key, outputFormat: 'utf8' }), 'x')
})

test('async errors reject with the same class and code', async (t) => {
  const key = rnd(32)
  await t.throwsAsync(aes.encryptAsync('x', { key: rnd(5) }), { instanceOf: RangeError, code: 'ERR_OUT_OF_RANGE' })
  await t.throwsAsync(aes.encryptAsync('x', { key, mode: 'nope' }), { instanceOf: TypeError, code: 'ERR_INVALID_ARG_VALUE' })
  await t.throwsAsync(aes.encryptAsync(42, { key }), { instanceOf: TypeError, code: 'ERR_INVALID_ARG_TYPE' })
  const out = aes.encrypt('x', { key })
  out[out.length - 1] ^= 1
  await t.throwsAsync(aes.decryptAsync(out, { key }), FAILED)
  await t.throwsAsync(aes.decryptAsync(rnd(31), { key, mode: 'cbc' }), FAILED)
})

test('an aborted signal rejects the async form', async (t) => {
  const err = await t.throwsAsync(aes.encryptAsync(rnd(100), { key: rnd(32), signal: AbortSignal.abort() }))
  t.regex(String(err.name) + String(err.message), /Abort/i)
})

test('kept keys: same results as one-shot for every mode; options without key; errors', (t) => {
  for (const [keyLen, modes] of [
    [16, ['ecb', 'cbc', 'ctr', 'cfb', 'cfb8', 'ofb', 'gcm', 'gcm-siv', 'ccm']],
    [24, ['cbc', 'gcm', 'ccm']],
    [32, ['ecb', 'cbc', 'ctr', 'gcm', 'gcm-siv', 'siv']],
    [64, ['siv']],
  ]) {
    const key = rnd(keyLen)
    const k = aes.key(key)
    t.is(Object.prototype.toString.call(k), '[object CipherKey]')
    for (const mode of modes) {
      const iv = rnd(mode === 'siv' ? 16 : ['gcm', 'gcm-siv', 'ccm'].includes(mode) ? 12 : 16)
      const data = rnd(100)
      const opts = mode === 'ecb' ? { mode } : { mode, iv }
      const a = k.encrypt(data, opts)
      t.true(a.equals(aes.encrypt(data, { ...opts, key })), `${keyLen} ${mode}`)
      t.true(k.decrypt(a, opts).equals(data))
      t.true(k.decrypt(k.encrypt(data, { mode }), { mode }).equals(data))
    }
    if (keyLen < 32) t.throws(() => k.encrypt('x', { mode: 'siv' }), { instanceOf: RangeError, code: 'ERR_OUT_OF_RANGE' })
  }
  const ck = chacha20.key(rnd(32))
  t.true(ck.decrypt(ck.encrypt('abc'), { outputFormat: 'buffer' }).equals(Buffer.from('abc')))
  const xk = xchacha20.key(rnd(32))
  t.is(xk.encrypt('abc').length, 24 + 3 + 16)
  const dk = des.key(rnd(24))
  t.is(dk.decrypt(dk.encrypt('abc'), { outputFormat: 'utf8' }), 'abc')
  t.throws(() => aes.key(rnd(17)), { instanceOf: RangeError, code: 'ERR_OUT_OF_RANGE', message: /16, 24, 32 or 64/ })
  t.throws(() => aes.key(42), { instanceOf: TypeError, code: 'ERR_INVALID_ARG_TYPE' })
  t.throws(() => aes.key(rnd(32)).encrypt('x', { key: rnd(32) }), { instanceOf: TypeError, code: 'ERR_INVALID_ARG_VALUE' })
})

test('kept keys async', async (t) => {
  const k = aes.key(rnd(32))
  const out = await k.encryptAsync('hello', { mode: 'cbc' })
  t.is(await k.decryptAsync(out, { mode: 'cbc', outputFormat: 'utf8' }), 'hello')
  t.is(k.decrypt(out, { mode: 'cbc', outputFormat: 'utf8' }), 'hello')
})

// ---------------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------------

const range = (message) => ({ instanceOf: RangeError, code: 'ERR_OUT_OF_RANGE', ...(message ? { message } : {}) })
const typeErr = (code, message) => ({ instanceOf: TypeError, code, ...(message ? { message } : {}) })

test('wrong key length: RangeError naming the mode and the accepted lengths', (t) => {
  const cases = [
    [aes, 'gcm', 15, /aes-gcm.*16, 24 or 32 bytes\. Received 15/],
    [aes, 'cbc', 0, /aes-cbc.*16, 24 or 32/],
    [aes, 'ecb', 33, /aes-ecb/],
    [aes, 'gcm-siv', 24, /aes-gcm-siv.*16 or 32/],
    [aes, 'siv', 16, /aes-siv.*32 or 64/],
    [aes, 'ccm', 31, /aes-ccm/],
    [des, 'cbc', 12, /des-cbc.*8, 16 or 24/],
    [chacha20, undefined, 16, /chacha20-poly1305.*32 bytes\. Received 16/],
    [xchacha20, undefined, 31, /xchacha20-poly1305.*32/],
  ]
  for (const [ns, mode, len, message] of cases) {
    const opts = { key: rnd(len), ...(mode ? { mode } : {}) }
    t.throws(() => ns.encrypt('x', opts), range(message))
    t.throws(() => ns.decrypt(rnd(64), opts), range(message))
  }
})

test('wrong IV / nonce / tag length: RangeError naming the mode and the accepted lengths', (t) => {
  const key = rnd(32)
  t.throws(() => aes.encrypt('x', { key, mode: 'cbc', iv: rnd(12) }), range(/IV length for aes-cbc: it must be 16 bytes\. Received 12/))
  t.throws(() => aes.encrypt('x', { key, mode: 'ctr', iv: rnd(17) }), range(/aes-ctr/))
  t.throws(() => aes.encrypt('x', { key, mode: 'gcm', iv: Buffer.alloc(0) }), range(/aes-gcm: it must be 1 to/))
  t.throws(() => aes.encrypt('x', { key, mode: 'gcm-siv', iv: rnd(16) }), range(/aes-gcm-siv: it must be 12 bytes/))
  t.throws(() => aes.encrypt('x', { key, mode: 'ccm', iv: rnd(6) }), range(/aes-ccm: it must be 7 to 13 bytes/))
  t.throws(() => aes.encrypt('x', { key, mode: 'ccm', iv: rnd(14) }), range(/aes-ccm/))
  t.throws(() => chacha20.encrypt('x', { key, iv: rnd(16) }), range(/chacha20-poly1305: it must be 12 or 24 bytes/))
  t.throws(() => xchacha20.encrypt('x', { key, iv: rnd(12) }), range(/xchacha20-poly1305: it must be 24 bytes/))
  t.throws(() => des.encrypt('x', { key: rnd(24), iv: rnd(16) }), range(/des-cbc: it must be 8 bytes/))
  t.throws(() => aes.encrypt('x', { key, tagLength: 11 }), range(/tag length for aes-gcm: it must be 12, 13, 14, 15 or 16 bytes/))
  t.throws(() => aes.encrypt('x', { key, tagLength: 17 }), range(/aes-gcm/))
  t.throws(() => aes.encrypt('x', { key, mode: 'ccm', tagLength: 13 }), range(/aes-ccm: it must be 12, 14 or 16/))
  t.throws(() => aes.encrypt('x', { key: rnd(64), mode: 'siv', tagLength: 12 }), range(/aes-siv: it must be 16/))
  t.throws(() => chacha20.encrypt('x', { key, tagLength: 12 }), range(/chacha20-poly1305: it must be 16/))
  t.throws(() => aes.encrypt('x', { key, tagLength: 12.5 }), range(/tagLength/))
  t.throws(() => aes.encrypt('x', { key, tagLength: '16' }), typeErr('ERR_INVALID_ARG_TYPE', /tagLength/))
  t.throws(() => aes.decrypt(rnd(40), { key, tagLength: 4 }), range())
})

test('unknown mode: TypeError listing the modes', (t) => {
  for (const mode of ['xts', 'aes-256-gcm', '', 'gcm ']) {
    t.throws(() => aes.encrypt('x', { key: rnd(32), mode }), typeErr('ERR_INVALID_ARG_VALUE', /'ecb', 'cbc', 'ctr', 'cfb', 'cfb8', 'ofb', 'gcm', 'gcm-siv', 'ccm', 'siv'/))
  }
  t.throws(() => des.encrypt('x', { key: rnd(24), mode: 'ctr' }), typeErr('ERR_INVALID_ARG_VALUE', /'ecb', 'cbc'/))
  t.throws(() => aes.encrypt('x', { key: rnd(32), mode: 7 }), typeErr('ERR_INVALID_ARG_TYPE'))
  t.throws(() => chacha20.encrypt('x', { key: rnd(32), mode: 'gcm' }), typeErr('ERR_INVALID_ARG_VALUE'))
})

test('argument types and options', (t) => {
  const key = rnd(32)
  for (const bad of [undefined, null, 42, true, {}, [1], () => 1]) {
    t.throws(() => aes.encrypt(bad, { key }), typeErr('ERR_INVALID_ARG_TYPE', /"data" argument must be/))
    t.throws(() => aes.decrypt(bad, { key }), typeErr('ERR_INVALID_ARG_TYPE'))
  }
  for (const bad of [undefined, null, 42, {}, [1]]) {
    t.throws(() => aes.encrypt('x', { key: bad }), typeErr('ERR_INVALID_ARG_TYPE', /options\.key/))
  }
  t.throws(() => aes.encrypt('x', { key, iv: 12 }), typeErr('ERR_INVALID_ARG_TYPE', /options\.iv/))
  t.throws(() => aes.encrypt('x', { key, aad: 12 }), typeErr('ERR_INVALID_ARG_TYPE', /options\.aad/))
  t.throws(() => aes.encrypt('x'), typeErr('ERR_INVALID_ARG_TYPE', /options/))
  t.throws(() => aes.encrypt('x', 'key'), typeErr('ERR_INVALID_ARG_TYPE'))
  t.throws(() => aes.encrypt('x', { key, bogus: 1 }), typeErr('ERR_INVALID_ARG_VALUE', /options\.bogus/))
  t.throws(() => aes.encrypt('x', { key, outputFormat: 'utf8' }), typeErr('ERR_INVALID_ARG_VALUE'))
  t.throws(() => aes.decrypt('x', { key, outputFormat: 'latin2' }), typeErr('ERR_INVALID_ARG_VALUE'))
  t.throws(() => aes.encrypt('x', { key, mode: 'cbc', padding: 'zero' }), typeErr('ERR_INVALID_ARG_VALUE', /'pkcs7' or 'none'/))
  t.throws(() => aes.encrypt('x', { key, mode: 'cbc', aad: 'a' }), typeErr('ERR_INVALID_ARG_VALUE', /aes-cbc does not authenticate/))
  t.throws(() => aes.encrypt(rnd(17), { key, mode: 'cbc', padding: 'none' }), range(/aes-cbc with padding 'none'.*multiple of 16/))
  t.throws(() => aes.decrypt(rnd(17), { key, mode: 'ecb', padding: 'none', iv: rnd(16) }), range(/multiple of 16/))
  t.throws(() => des.encrypt(rnd(9), { key: rnd(8), mode: 'ecb', padding: 'none' }), range(/des-ecb.*multiple of 8/))
})

test('ESM: the named export cipher is the CommonJS object', async (t) => {
  const esm = await import('cryptographer.js')
  t.is(esm.cipher, cipher)
  t.is(esm.default.cipher, cipher)
})

test('a foreign N-API external (a hasher handle) is never taken for a kept key', (t) => {
  const native = require('../lib/native')
  const foreign = native.hasherNew(0)
  const out = Buffer.alloc(64)
  t.throws(() => native.cipher(6, foreign, rnd(12), rnd(16), undefined, out), typeErr('ERR_INVALID_ARG_TYPE', /options\.key/))
  t.throws(() => native.cipherAsync(6, foreign, rnd(12), rnd(16)), typeErr('ERR_INVALID_ARG_TYPE'))
  // And a kept-key handle of one family is refused by another family's modes.
  const chachaKey = native.cipherKey(1, rnd(32))
  t.throws(() => native.cipher(6, chachaKey, rnd(12), rnd(16), undefined, out), typeErr('ERR_INVALID_ARG_VALUE'))
})
