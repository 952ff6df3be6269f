'use strict'
// age files with a passphrase (crypto.cipher.age) against age-encryption (the TypeScript age by
// age's author, on @noble): decryption of one file (both must give its plaintext back), and
// encryption, whose random output is checked by opening it with our decrypt. Two costs: the
// scrypt work at age's default work factor (18: the whole call, for a small file), and the
// payload (ChaCha20-Poly1305 STREAM) at 1 and 16 MiB under a cheap work factor (10).
const nodeCrypto = require('node:crypto')
const { cipher } = require('../..')

const KiB = 1024
const MiB = 1024 * 1024
const PASSPHRASE = 'correct horse battery staple'

module.exports = {
  title: 'age (passphrase)',
  async run(h) {
    const peer = h.peer('age-encryption')
    const label = (n) => (n >= MiB ? `${n / MiB} MiB` : `${n / KiB} KiB`)
    const hex = (x) => Buffer.from(x).toString('hex')
    const cases = [
      { workFactor: 18, size: KiB },
      { workFactor: 10, size: MiB },
      ...(h.quick ? [] : [{ workFactor: 10, size: 16 * MiB }]),
    ]
    for (const { workFactor, size } of cases) {
      const table = `age with a passphrase, scrypt 2^${workFactor}`
      const data = nodeCrypto.randomBytes(size)
      const file = cipher.age.encryptSync(data, { passphrase: PASSPHRASE, workFactor })
      // Long enough for a few calls of the 2^18 case in every round.
      const time = workFactor >= 18 ? (h.quick ? 3000 : 10000) : undefined

      const decrypt = [{ name: 'cryptographer.js', fn: () => cipher.age.decrypt(file, { passphrase: PASSPHRASE }), out: hex }]
      if (peer) {
        decrypt.push({
          name: 'age-encryption',
          fn: () => {
            const d = new peer.Decrypter()
            d.addPassphrase(PASSPHRASE)
            return d.decrypt(file)
          },
          out: hex,
        })
      }
      await h.compare({ table, row: `decrypt ${label(size)}` }, decrypt, { bytes: size, async: true, time })

      // Encryption: random salt, key and nonce, so each output is opened (by us) to compare.
      const opened = (f) => hex(cipher.age.decryptSync(f, { passphrase: PASSPHRASE }))
      const encrypt = [
        { name: 'cryptographer.js', fn: () => cipher.age.encrypt(data, { passphrase: PASSPHRASE, workFactor }), out: opened },
      ]
      if (peer) {
        encrypt.push({
          name: 'age-encryption',
          fn: () => {
            const e = new peer.Encrypter()
            e.setPassphrase(PASSPHRASE)
            e.setScryptWorkFactor(workFactor)
            return e.encrypt(data)
          },
          out: opened,
        })
      }
      await h.compare({ table, row: `encrypt ${label(size)}` }, encrypt, { bytes: size, async: true, time })
    }
  },
}
