'use strict'
// Encryption: AES-128/192/256 × ECB/CBC/CTR/GCM, ChaCha20-Poly1305, XChaCha20-Poly1305 and
// AES-256-GCM-SIV at 1 KiB and 1 MiB, against node:crypto, WebCrypto (a CryptoKey imported once;
// AES-CBC, -CTR, -GCM), crypto-js, @noble/ciphers and node-forge; 1 MiB AES-256-GCM/CTR and
// ChaCha20-Poly1305 into a caller's buffer (`options.output`). Every contestant encrypts the same
// data with the same key and IV, and its output is checked equal to ours (hex) before timing.
const nodeCrypto = require('node:crypto')
const { cipher } = require('../..')

const KiB = 1024
const MiB = 1024 * 1024

module.exports = {
  title: 'Encryption',
  async run(h) {
    const CryptoJS = await h.peer('crypto-js')
    const forge = await h.peer('node-forge')
    const nobleAes = await h.peer('@noble/ciphers/aes.js')
    const nobleChacha = await h.peer('@noble/ciphers/chacha.js')

    const sizes = h.quick ? [KiB, 64 * KiB] : [KiB, MiB]
    const label = (n) => (n >= MiB ? `${n / MiB} MiB` : `${n / KiB} KiB`)
    const hex = (x) => Buffer.from(x).toString('hex')
    const cjsModes = CryptoJS && { ecb: CryptoJS.mode.ECB, cbc: CryptoJS.mode.CBC, ctr: CryptoJS.mode.CTR }
    const nobleModes = nobleAes && { ecb: nobleAes.ecb, cbc: nobleAes.cbc, ctr: nobleAes.ctr, gcm: nobleAes.gcm }
    const subtle = nodeCrypto.webcrypto.subtle
    /** WebCrypto's encryption in `mode` (no ECB) under a CryptoKey imported once, or null. */
    const webCrypto = async (mode, key, iv, data) => {
      const name = { cbc: 'AES-CBC', ctr: 'AES-CTR', gcm: 'AES-GCM' }[mode]
      if (!name) return null
      const k = await subtle.importKey('raw', key, name, false, ['encrypt'])
      const algo = mode === 'ctr' ? { name, counter: iv, length: 128 } : { name, iv }
      return { name: 'WebCrypto (CryptoKey kept)', async: true, fn: () => subtle.encrypt(algo, k, data), out: hex }
    }

    for (const bits of [128, 192, 256]) {
      for (const mode of ['cbc', 'ctr', 'gcm', 'ecb']) {
        for (const size of sizes) {
          const data = nodeCrypto.randomBytes(size)
          const key = nodeCrypto.randomBytes(bits / 8)
          const iv = nodeCrypto.randomBytes(mode === 'gcm' ? 12 : 16)
          const name = `aes-${bits}-${mode}`
          const opts = mode === 'ecb' ? { key, mode } : { key, iv, mode }
          const kept = cipher.aes.key(key)
          const keptOpts = mode === 'ecb' ? { mode } : { iv, mode }
          const contestants = [
            { name: 'cryptographer.js', fn: () => cipher.aes.encrypt(data, opts) },
            { name: 'cryptographer.js (kept key)', fn: () => kept.encrypt(data, keptOpts) },
            {
              name: 'node:crypto',
              fn: () => {
                const c = nodeCrypto.createCipheriv(name, key, mode === 'ecb' ? null : iv)
                const out = [c.update(data), c.final()]
                if (mode === 'gcm') out.push(c.getAuthTag())
                return Buffer.concat(out)
              },
            },
          ]
          const web = await webCrypto(mode, key, iv, data)
          if (web) contestants.push(web)
          if (CryptoJS && cjsModes[mode]) {
            const wa = (b) => CryptoJS.enc.Hex.parse(b.toString('hex'))
            const [d, k, v] = [wa(data), wa(key), wa(iv)]
            const padding = mode === 'ctr' ? CryptoJS.pad.NoPadding : CryptoJS.pad.Pkcs7
            contestants.push({
              name: 'crypto-js',
              fn: () => CryptoJS.AES.encrypt(d, k, { iv: v, mode: cjsModes[mode], padding }).ciphertext,
              out: (r) => r.toString(CryptoJS.enc.Hex),
            })
          }
          if (nobleModes) {
            const make = nobleModes[mode]
            contestants.push({
              name: '@noble/ciphers',
              fn: () => (mode === 'ecb' ? make(key) : make(key, iv)).encrypt(data),
              out: hex,
            })
          }
          if (forge) {
            const fkey = key.toString('binary')
            const fiv = iv.toString('binary')
            const fdata = data.toString('binary')
            contestants.push({
              name: 'node-forge',
              fn: () => {
                const c = forge.cipher.createCipher(`AES-${mode.toUpperCase()}`, fkey)
                c.start(mode === 'gcm' ? { iv: fiv, tagLength: 128 } : mode === 'ecb' ? {} : { iv: fiv })
                c.update(forge.util.createBuffer(fdata))
                c.finish()
                return c.output.getBytes() + (mode === 'gcm' ? c.mode.tag.getBytes() : '')
              },
              out: (s) => Buffer.from(s, 'binary').toString('hex'),
            })
          }
          await h.compare({ table: `Encryption, ${label(size)}`, row: `AES-${bits}-${mode.toUpperCase()} encrypt` }, contestants, { bytes: size })
        }
      }
    }

    for (const size of sizes) {
      const data = nodeCrypto.randomBytes(size)
      const key = nodeCrypto.randomBytes(32)
      const iv = nodeCrypto.randomBytes(12)
      const kept = cipher.chacha20.key(key)
      const contestants = [
        { name: 'cryptographer.js', fn: () => cipher.chacha20.encrypt(data, { key, iv }) },
        { name: 'cryptographer.js (kept key)', fn: () => kept.encrypt(data, { iv }) },
        {
          name: 'node:crypto',
          fn: () => {
            const c = nodeCrypto.createCipheriv('chacha20-poly1305', key, iv, { authTagLength: 16 })
            return Buffer.concat([c.update(data), c.final(), c.getAuthTag()])
          },
        },
      ]
      if (nobleChacha) {
        contestants.push({ name: '@noble/ciphers', fn: () => nobleChacha.chacha20poly1305(key, iv).encrypt(data), out: hex })
      }
      await h.compare({ table: `Encryption, ${label(size)}`, row: 'ChaCha20-Poly1305 encrypt' }, contestants, { bytes: size })

      // XChaCha20-Poly1305 (192-bit nonces) and AES-256-GCM-SIV: node:crypto has neither.
      const iv24 = nodeCrypto.randomBytes(24)
      const keptX = cipher.xchacha20.key(key)
      await h.compare(
        { table: `Encryption, ${label(size)}`, row: 'XChaCha20-Poly1305 encrypt' },
        [
          { name: 'cryptographer.js', fn: () => cipher.xchacha20.encrypt(data, { key, iv: iv24 }) },
          { name: 'cryptographer.js (kept key)', fn: () => keptX.encrypt(data, { iv: iv24 }) },
          nobleChacha && { name: '@noble/ciphers', fn: () => nobleChacha.xchacha20poly1305(key, iv24).encrypt(data), out: hex },
        ],
        { bytes: size },
      )
      const keptAes = cipher.aes.key(key)
      await h.compare(
        { table: `Encryption, ${label(size)}`, row: 'AES-256-GCM-SIV encrypt' },
        [
          { name: 'cryptographer.js', fn: () => cipher.aes.encrypt(data, { key, iv, mode: 'gcm-siv' }) },
          { name: 'cryptographer.js (kept key)', fn: () => keptAes.encrypt(data, { iv, mode: 'gcm-siv' }) },
          nobleAes && { name: '@noble/ciphers', fn: () => nobleAes.gcmsiv(key, iv).encrypt(data), out: hex },
        ],
        { bytes: size },
      )
    }

    // Into the caller's buffer (`options.output`): at 1 MiB a fresh result buffer costs about as much
    // as the cipher, so these rows show the cipher's own speed. node has no output parameter: its
    // best form (createCipheriv, update + final) and ours allocating are the peers.
    const big = sizes[sizes.length - 1]
    const intoOutput = [
      ['AES-256-GCM', 'aes-256-gcm', cipher.aes, { mode: 'gcm' }, 12, 16],
      ['AES-256-CTR', 'aes-256-ctr', cipher.aes, { mode: 'ctr' }, 16, 0],
      ['ChaCha20-Poly1305', 'chacha20-poly1305', cipher.chacha20, {}, 12, 16],
    ]
    for (const [row, nodeName, ns, extra, ivLen, tagLen] of intoOutput) {
      const data = nodeCrypto.randomBytes(big)
      const key = nodeCrypto.randomBytes(32)
      const iv = nodeCrypto.randomBytes(ivLen)
      const opts = { key, iv, ...extra }
      const output = Buffer.allocUnsafe(big + tagLen)
      const withOutput = { ...opts, output }
      await h.compare(
        { table: `Encryption into options.output, ${label(big)}`, row: `${row} encrypt` },
        [
          { name: 'cryptographer.js (output)', fn: () => ns.encrypt(data, withOutput) },
          { name: 'cryptographer.js', ours: true, fn: () => ns.encrypt(data, opts) },
          {
            name: 'node:crypto',
            fn: () => {
              const c = nodeCrypto.createCipheriv(nodeName, key, iv, tagLen ? { authTagLength: tagLen } : undefined)
              const out = [c.update(data), c.final()]
              if (tagLen) out.push(c.getAuthTag())
              return Buffer.concat(out)
            },
          },
        ],
        { bytes: big },
      )
    }

    // Decryption, where the modes differ most (CBC decrypt is parallel, CBC encrypt is not).
    for (const mode of ['cbc', 'gcm']) {
      for (const size of sizes) {
        const data = nodeCrypto.randomBytes(size)
        const key = nodeCrypto.randomBytes(32)
        const iv = nodeCrypto.randomBytes(mode === 'gcm' ? 12 : 16)
        const sealed = cipher.aes.encrypt(data, { key, iv, mode })
        const contestants = [
          { name: 'cryptographer.js', fn: () => cipher.aes.decrypt(sealed, { key, iv, mode }) },
          {
            name: 'node:crypto',
            fn: () => {
              const d = nodeCrypto.createDecipheriv(`aes-256-${mode}`, key, iv)
              let body = sealed
              if (mode === 'gcm') {
                body = sealed.subarray(0, sealed.length - 16)
                d.setAuthTag(sealed.subarray(sealed.length - 16))
              }
              return Buffer.concat([d.update(body), d.final()])
            },
          },
        ]
        if (nobleAes) contestants.push({ name: '@noble/ciphers', fn: () => nobleModes[mode](key, iv).decrypt(sealed), out: hex })
        await h.compare({ table: `Encryption, ${label(size)}`, row: `AES-256-${mode.toUpperCase()} decrypt` }, contestants, { bytes: size })
      }
    }
  },
}
