'use strict'
// Public key: RSA-2048 sign/verify (PKCS#1 v1.5, PSS), OAEP encrypt/decrypt and RSA-2048/4096
// key generation against node:crypto; Ed25519 sign/verify, ECDSA P-256 and secp256k1 sign/verify, X25519 and ECDH P-256,
// against node:crypto (KeyObjects prepared outside the timed loop) and @noble/curves. Every
// contestant works on the same key and message; deterministic outputs (Ed25519, shared secrets,
// verification results) are checked equal, and randomized ECDSA signatures are checked by
// verifying each contestant's signature with node:crypto before timing. "cryptographer.js" rows
// take keys in their default raw form (one Buffer, whose expanded Ed25519/X25519 key is reused
// while its bytes stay the same); "(KeyObject)" rows take the same KeyObject node gets; "(new key
// Buffer)" rows pass a fresh copy each call, so the key is expanded every time.
const nodeCrypto = require('node:crypto')
const { performance } = require('node:perf_hooks')
const { dsa, cipher, keys } = require('../..')

module.exports = {
  title: 'Public key',
  async run(h) {
    const nobleEd = h.peer('@noble/curves/ed25519.js')
    const nobleNist = h.peer('@noble/curves/nist.js')
    const nobleK1 = h.peer('@noble/curves/secp256k1.js')
    const msg = nodeCrypto.randomBytes(64)
    const table = 'Public key (64-byte messages)'

    // ---- Ed25519 ----
    {
      const { privateKey, publicKey } = dsa.ed25519.generateKeypair()
      const ko = { privateKey: keys.import(privateKey, { algorithm: 'ed25519', keyType: 'private' }), publicKey: keys.import(publicKey, { algorithm: 'ed25519', keyType: 'public' }) }
      const sig = dsa.ed25519.sign(privateKey, msg)
      const sign = [
        { name: 'cryptographer.js', fn: () => dsa.ed25519.sign(privateKey, msg) },
        { name: 'cryptographer.js (KeyObject)', fn: () => dsa.ed25519.sign(ko.privateKey, msg) },
        { name: 'cryptographer.js (new key Buffer)', fn: () => dsa.ed25519.sign(Buffer.from(privateKey), msg) },
        { name: 'node:crypto', fn: () => nodeCrypto.sign(null, msg, ko.privateKey) },
      ]
      const verify = [
        { name: 'cryptographer.js', fn: () => dsa.ed25519.verify(publicKey, msg, sig) },
        { name: 'node:crypto', fn: () => nodeCrypto.verify(null, msg, ko.publicKey, sig) },
      ]
      if (nobleEd) {
        sign.push({ name: '@noble/curves', fn: () => nobleEd.ed25519.sign(msg, privateKey) })
        verify.push({ name: '@noble/curves', fn: () => nobleEd.ed25519.verify(sig, msg, publicKey) })
      }
      await h.compare({ table, row: 'Ed25519 sign' }, sign)
      await h.compare({ table, row: 'Ed25519 verify' }, verify)
    }

    // ---- ECDSA ----
    for (const [curve, noble] of [
      ['p256', nobleNist && nobleNist.p256],
      ['secp256k1', nobleK1 && nobleK1.secp256k1],
    ]) {
      const { privateKey, publicKey } = dsa.ecdsa.generateKeypair(curve)
      const ko = { privateKey: keys.import(privateKey, { algorithm: 'ec', curve }), publicKey: keys.import(publicKey, { algorithm: 'ec', curve }) }
      const digest = nodeCrypto.createHash('sha256').update(msg).digest()
      const sig = dsa.ecdsa.sign(msg, { curve, privateKey })
      // A signature is checked by node:crypto (ECDSA signatures are randomized in node).
      const valid = (s) => String(nodeCrypto.verify('sha256', msg, { key: ko.publicKey, dsaEncoding: s.length === 2 * privateKey.length ? 'ieee-p1363' : 'der' }, s))
      const sign = [
        { name: 'cryptographer.js', fn: () => dsa.ecdsa.sign(msg, { curve, privateKey }), out: valid },
        { name: 'node:crypto', fn: () => nodeCrypto.sign('sha256', msg, ko.privateKey), out: valid },
      ]
      const verify = [
        { name: 'cryptographer.js', fn: () => dsa.ecdsa.verify(msg, { curve, publicKey, signature: sig }) },
        { name: 'node:crypto', fn: () => nodeCrypto.verify('sha256', msg, ko.publicKey, sig) },
      ]
      if (noble) {
        const compact = dsa.ecdsa.sign(msg, { curve, privateKey, format: 'ieee-p1363' })
        sign.push({ name: '@noble/curves', fn: () => noble.sign(msg, privateKey, { lowS: false }), out: (s) => valid(Buffer.from(s)) })
        verify.push({ name: '@noble/curves', fn: () => noble.verify(compact, digest, publicKey, { prehash: false, lowS: false }) })
      }
      const label = curve === 'p256' ? 'P-256' : 'secp256k1'
      await h.compare({ table, row: `ECDSA ${label} sign (SHA-256)` }, sign)
      await h.compare({ table, row: `ECDSA ${label} verify (SHA-256)` }, verify)
    }

    // ---- key agreement ----
    {
      const a = cipher.x25519.generateKeypair()
      const b = cipher.x25519.generateKeypair()
      const kA = keys.import(a.privateKey, { algorithm: 'x25519', keyType: 'private' })
      const kB = keys.import(b.publicKey, { algorithm: 'x25519', keyType: 'public' })
      const contestants = [
        { name: 'cryptographer.js', fn: () => cipher.x25519.deriveSharedSecret(a.privateKey, b.publicKey) },
        { name: 'cryptographer.js (KeyObject)', fn: () => cipher.x25519.deriveSharedSecret(kA, b.publicKey) },
        { name: 'cryptographer.js (new key Buffer)', fn: () => cipher.x25519.deriveSharedSecret(Buffer.from(a.privateKey), b.publicKey) },
        { name: 'node:crypto', fn: () => nodeCrypto.diffieHellman({ privateKey: kA, publicKey: kB }) },
      ]
      if (nobleEd) contestants.push({ name: '@noble/curves', fn: () => nobleEd.x25519.getSharedSecret(a.privateKey, b.publicKey) })
      await h.compare({ table, row: 'X25519 shared secret' }, contestants)
    }
    {
      const a = cipher.ecdh.generateKeypair('p256')
      const b = cipher.ecdh.generateKeypair('p256')
      const kA = keys.import(a.privateKey, { algorithm: 'ec', curve: 'p256' })
      const kB = keys.import(b.publicKey, { algorithm: 'ec', curve: 'p256' })
      const contestants = [
        { name: 'cryptographer.js', fn: () => cipher.ecdh.deriveSharedSecret('p256', a.privateKey, b.publicKey) },
        { name: 'node:crypto', fn: () => nodeCrypto.diffieHellman({ privateKey: kA, publicKey: kB }) },
      ]
      if (nobleNist) {
        contestants.push({ name: '@noble/curves', fn: () => nobleNist.p256.getSharedSecret(a.privateKey, b.publicKey).subarray(1) })
      }
      await h.compare({ table, row: 'ECDH P-256 shared secret' }, contestants)
    }

    // ---- RSA: keygen 2048/4096, encrypt, decrypt, sign, verify ----
    // Both sides get the same KeyObject, prepared outside the timed loop (ours parses it once
    // and keeps the AWS-LC key with it, as node keeps its EVP_PKEY). Sign: PKCS#1 v1.5 is
    // deterministic (outputs compared) and PSS is checked by node's verify; OAEP ciphertexts
    // are checked by decrypting them with node.
    {
      const rsaTable = 'RSA-2048 (SHA-256; 64-byte messages, 32-byte OAEP plaintexts)'
      const kp = nodeCrypto.generateKeyPairSync('rsa', { modulusLength: 2048 })
      const pt = nodeCrypto.randomBytes(32)
      const PSS = { key: kp.privateKey, padding: nodeCrypto.constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 }
      const PSSV = { key: kp.publicKey, padding: nodeCrypto.constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 }
      const OAEP = { oaepHash: 'sha256' }
      const pssValid = (s) => String(nodeCrypto.verify('sha256', msg, PSSV, s))
      const opened = (c) => nodeCrypto.privateDecrypt({ key: kp.privateKey, ...OAEP }, c).toString('hex')
      const sig = dsa.rsa.signPKCS1v15(msg, kp.privateKey)
      const pss = dsa.rsa.signPSS(msg, kp.privateKey)
      const ct = cipher.rsa_oaep.encrypt(pt, kp.publicKey)
      await h.compare({ table: rsaTable, row: 'sign PKCS#1 v1.5' }, [
        { name: 'cryptographer.js', fn: () => dsa.rsa.signPKCS1v15(msg, kp.privateKey) },
        { name: 'node:crypto', fn: () => nodeCrypto.sign('sha256', msg, kp.privateKey) },
      ])
      await h.compare({ table: rsaTable, row: 'sign PSS' }, [
        { name: 'cryptographer.js', fn: () => dsa.rsa.signPSS(msg, kp.privateKey), out: pssValid },
        { name: 'node:crypto', fn: () => nodeCrypto.sign('sha256', msg, PSS), out: pssValid },
      ])
      await h.compare({ table: rsaTable, row: 'verify PKCS#1 v1.5' }, [
        { name: 'cryptographer.js', fn: () => dsa.rsa.verifyPKCS1v15(msg, kp.publicKey, sig) },
        { name: 'node:crypto', fn: () => nodeCrypto.verify('sha256', msg, kp.publicKey, sig) },
      ])
      await h.compare({ table: rsaTable, row: 'verify PSS' }, [
        { name: 'cryptographer.js', fn: () => dsa.rsa.verifyPSS(msg, kp.publicKey, pss) },
        { name: 'node:crypto', fn: () => nodeCrypto.verify('sha256', msg, PSSV, pss) },
      ])
      await h.compare({ table: rsaTable, row: 'encrypt OAEP' }, [
        { name: 'cryptographer.js', fn: () => cipher.rsa_oaep.encrypt(pt, kp.publicKey), out: opened },
        { name: 'node:crypto', fn: () => nodeCrypto.publicEncrypt({ key: kp.publicKey, ...OAEP }, pt), out: opened },
      ])
      await h.compare({ table: rsaTable, row: 'decrypt OAEP' }, [
        { name: 'cryptographer.js', fn: () => cipher.rsa_oaep.decrypt(ct, kp.privateKey) },
        { name: 'node:crypto', fn: () => nodeCrypto.privateDecrypt({ key: kp.privateKey, ...OAEP }, ct) },
      ])
      // Key generation: its time varies a lot from call to call (the prime search), so the
      // rows are mean rates over interleaved slots, exempt from the noise bound on intervals
      // (`variable`); the medians of single calls are a table of their own.
      const bitsOf = (k) => String(nodeCrypto.createPublicKey({ key: k, format: 'der', type: 'spki' }).asymmetricKeyDetails.modulusLength)
      const keygen = []
      for (const bits of [2048, 4096]) {
        const ours = () => dsa.rsa.generateKeypair({ modulusLength: bits }).publicKey
        const node = () => nodeCrypto.generateKeyPairSync('rsa', { modulusLength: bits, publicKeyEncoding: { format: 'der', type: 'spki' }, privateKeyEncoding: { format: 'der', type: 'pkcs8' } }).publicKey
        const timed = await h.compare({ table: 'RSA key generation', row: `RSA-${bits} keygen` }, [
          { name: 'cryptographer.js', fn: ours, out: bitsOf },
          { name: 'node:crypto', fn: node, out: bitsOf },
        ], { time: bits === 4096 ? 3 * h.time : h.time, variable: true })
        if (!timed) continue
        const n = h.quick ? 3 : bits === 4096 ? 15 : 31
        const times = { ours: [], node: [] }
        for (let i = 0; i < n; i++) {
          for (const [k, f] of [['ours', ours], ['node', node]]) {
            const t0 = performance.now()
            f()
            times[k].push(performance.now() - t0)
          }
        }
        const sorted = (a) => [...a].sort((x, y) => x - y)
        const med = (a) => sorted(a)[a.length >> 1]
        keygen.push({ bits, n, ours: times.ours, node: times.node, med })
      }
      if (keygen.length) {
        const ms = (x) => x.toFixed(0)
        const span = (a) => `${ms(Math.min(...a))}–${ms(Math.max(...a))}`
        h.table(
          'RSA key generation, single calls interleaved (ms)',
          ['Key', 'calls', 'cryptographer.js median', 'cryptographer.js range', 'node:crypto median', 'node:crypto range'],
          keygen.map((k) => [`RSA-${k.bits}`, k.n, ms(k.med(k.ours)), span(k.ours), ms(k.med(k.node)), span(k.node)]),
          {
            finding:
              keygen.map((k) => `RSA-${k.bits}: median ${ms(k.med(k.ours))} ms (ours) and ${ms(k.med(k.node))} ms (node:crypto)`).join('; ') +
              '. One call can take several times the median (the search for primes is random): generate keys ahead of need, or with generateKeypairAsync off the event loop.',
          },
        )
      }
    }
  },
}
