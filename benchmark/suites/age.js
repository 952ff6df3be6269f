'use strict'
// age files with a passphrase (crypto.cipher.age) against age-encryption (the TypeScript age by
// age's author, on @noble): decryption of one file (both must give its plaintext back), and
// encryption, whose random output is checked by opening it with our decrypt. Two costs: the
// scrypt work at age's default work factor (18: the whole call, for a small file), and the
// payload (ChaCha20-Poly1305 STREAM) at 1 and 16 MiB under a cheap work factor (10). Files on
// disk (64 MiB, 16 with --quick, work factor 10): encryptFile / decryptFile against reading the
// file, the in-memory call (ours, the peer's) and writing the result; each contestant writes its
// own output file, which is read back (and opened, when encrypted) to compare.
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
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
    await files(h, peer, h.quick ? 16 * MiB : 64 * MiB, label)
  },
}

/** encryptFile / decryptFile against read, in-memory call, write. */
async function files(h, peer, size, label) {
  const dir = fs.mkdtempSync(path.join(fs.existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir(), 'age-bench-'))
  const p = (n) => path.join(dir, n)
  const seal = { passphrase: PASSPHRASE, workFactor: 10 }
  const open = { passphrase: PASSPHRASE }
  try {
    fs.writeFileSync(p('plain'), nodeCrypto.randomBytes(size))
    await cipher.age.encryptFile(p('plain'), p('sealed'), seal)
    const table = `age files of ${label(size)} (page cache), scrypt 2^10`
    const hexOf = (name) => () => Buffer.from(fs.readFileSync(p(name))).toString('hex')
    const openedOf = (name) => () => cipher.age.decryptSync(fs.readFileSync(p(name)), open).toString('hex')
    const peerDecrypt = async (file) => {
      const d = new peer.Decrypter()
      d.addPassphrase(PASSPHRASE)
      return d.decrypt(file)
    }
    const peerEncrypt = async (data) => {
      const e = new peer.Encrypter()
      e.setPassphrase(PASSPHRASE)
      e.setScryptWorkFactor(10)
      return e.encrypt(data)
    }
    /** read `src`, `call` in memory, write `dst`. */
    const viaMemory = (src, dst, call) => async () => fs.promises.writeFile(p(dst), await call(await fs.promises.readFile(p(src))))
    const decrypt = [
      { name: 'decryptFile', fn: () => cipher.age.decryptFile(p('sealed'), p('d1'), open), out: hexOf('d1') },
      { name: 'readFile + age.decrypt + writeFile', ours: true, fn: viaMemory('sealed', 'd2', (f) => cipher.age.decrypt(f, open)), out: hexOf('d2') },
    ]
    if (peer) decrypt.push({ name: 'readFile + age-encryption decrypt + writeFile', fn: viaMemory('sealed', 'd3', peerDecrypt), out: hexOf('d3') })
    await h.compare({ table, row: 'decrypt' }, decrypt, { bytes: size, async: true })
    const encrypt = [
      { name: 'encryptFile', fn: () => cipher.age.encryptFile(p('plain'), p('e1'), seal), out: openedOf('e1') },
      { name: 'readFile + age.encrypt + writeFile', ours: true, fn: viaMemory('plain', 'e2', (d) => cipher.age.encrypt(d, seal)), out: openedOf('e2') },
    ]
    if (peer) encrypt.push({ name: 'readFile + age-encryption encrypt + writeFile', fn: viaMemory('plain', 'e3', peerEncrypt), out: openedOf('e3') })
    await h.compare({ table, row: 'encrypt' }, encrypt, { bytes: size, async: true })
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}
