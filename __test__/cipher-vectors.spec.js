'use strict'
// Known-answer tests for crypto.cipher from published vectors (see vectors/README.md):
// NIST SP 800-38A, the CAVP AESAVS KAT/MMT files, RFC 3686, Wycheproof AES-GCM, RFC 8452,
// RFC 8439 and the XChaCha20-Poly1305 draft.
const test = require('ava')
const { cipher } = require('..')
const { json, hex, aesRsp, aesRspFiles } = require('./helpers/cipher-vectors')

const { aes, chacha20, xchacha20 } = cipher
const FAILED = { instanceOf: Error, code: 'ERR_CRYPTO_DECRYPT_FAILED' }

test('NIST SP 800-38A: ECB, CBC, CFB128, OFB, CTR for 128/192/256-bit keys', (t) => {
  const MODE = { ECB: 'ecb', CBC: 'cbc', CFB128: 'cfb', OFB: 'ofb', CTR: 'ctr' }
  const { tests } = json('rfc/aes_sp800_38a.json')
  t.is(tests.length, 15)
  for (const v of tests) {
    const opts = { key: hex(v.key), mode: MODE[v.mode], padding: 'none' }
    if (v.iv) opts.iv = hex(v.iv)
    t.is(aes.encrypt(hex(v.plaintext), opts).toString('hex'), v.ciphertext, `tc ${v.tcId} ${v.mode}`)
    t.is(aes.decrypt(hex(v.ciphertext), opts).toString('hex'), v.plaintext, `tc ${v.tcId} ${v.mode}`)
  }
})

test('NIST CAVP AESAVS KAT + MMT: ECB, CBC, CFB8, CFB128, OFB, every key size, both directions', (t) => {
  const MODE = { ECB: 'ecb', CBC: 'cbc', CFB8: 'cfb8', CFB128: 'cfb', OFB: 'ofb' }
  const files = aesRspFiles()
  t.is(files.length, 75)
  let count = 0
  for (const file of files) {
    const mode = MODE[/^(ECB|CBC|CFB8|CFB128|OFB)/.exec(file)[1]]
    const entries = aesRsp(file)
    t.true(entries.length > 0, file)
    for (const e of entries) {
      const opts = { key: hex(e.KEY), mode, padding: 'none' }
      if (e.IV !== undefined) opts.iv = hex(e.IV)
      if (e.decrypt) {
        t.is(aes.decrypt(hex(e.CIPHERTEXT), opts).toString('hex'), e.PLAINTEXT.toLowerCase(), `${file} #${e.COUNT}`)
      } else {
        t.is(aes.encrypt(hex(e.PLAINTEXT), opts).toString('hex'), e.CIPHERTEXT.toLowerCase(), `${file} #${e.COUNT}`)
      }
      count++
    }
  }
  t.true(count > 5000, `${count} vectors`)
})

test('RFC 3686: AES-CTR with the initial counter block as IV', (t) => {
  const { tests } = json('rfc/aes_ctr_rfc3686.json')
  t.is(tests.length, 9)
  for (const v of tests) {
    const opts = { key: hex(v.key), iv: hex(v.counter_block), mode: 'ctr' }
    t.is(aes.encrypt(hex(v.plaintext), opts).toString('hex'), v.ciphertext, `tc ${v.tcId}`)
    t.is(aes.decrypt(hex(v.ciphertext), opts).toString('hex'), v.plaintext, `tc ${v.tcId}`)
  }
})

test('Wycheproof AES-GCM: every valid vector passes, every invalid one is rejected', (t) => {
  const file = json('wycheproof/aes_gcm_test.json')
  let valid = 0
  let invalid = 0
  for (const g of file.testGroups) {
    for (const v of g.tests) {
      const opts = { key: hex(v.key), iv: hex(v.iv), aad: hex(v.aad), mode: 'gcm', tagLength: g.tagSize / 8 }
      const sealed = Buffer.concat([hex(v.ct), hex(v.tag)])
      const label = `tc ${v.tcId} (iv ${g.ivSize} bits, key ${g.keySize})`
      if (v.result === 'valid') {
        t.is(aes.encrypt(hex(v.msg), opts).toString('hex'), sealed.toString('hex'), label)
        t.is(aes.decrypt(sealed, opts).toString('hex'), v.msg, label)
        valid++
      } else {
        if (g.ivSize === 0) {
          // A zero-length IV is a parameter error, refused before any work.
          t.throws(() => aes.decrypt(sealed, opts), { instanceOf: RangeError, code: 'ERR_OUT_OF_RANGE' }, label)
          t.throws(() => aes.encrypt(hex(v.msg), opts), { instanceOf: RangeError, code: 'ERR_OUT_OF_RANGE' }, label)
        } else {
          t.throws(() => aes.decrypt(sealed, opts), FAILED, label)
        }
        invalid++
      }
    }
  }
  t.is(valid + invalid, file.numberOfTests)
  t.true(invalid > 0)
})

test('Wycheproof AES-GCM through a kept key gives the same answers', (t) => {
  const file = json('wycheproof/aes_gcm_test.json')
  for (const g of file.testGroups) {
    if (g.ivSize === 0) continue
    for (const v of g.tests) {
      const k = aes.key(hex(v.key))
      const opts = { iv: hex(v.iv), aad: hex(v.aad) }
      const sealed = Buffer.concat([hex(v.ct), hex(v.tag)])
      if (v.result === 'valid') {
        t.is(k.encrypt(hex(v.msg), opts).toString('hex'), sealed.toString('hex'))
        t.is(k.decrypt(sealed, opts).toString('hex'), v.msg)
      } else {
        t.throws(() => k.decrypt(sealed, opts), FAILED)
      }
    }
  }
})

test('RFC 8452: AES-GCM-SIV (128 and 256-bit keys, including counter wrap)', (t) => {
  const { tests } = json('rfc/aes_gcm_siv_rfc8452.json')
  t.is(tests.length, 46)
  for (const v of tests) {
    const opts = { key: hex(v.key), iv: hex(v.nonce), aad: hex(v.aad), mode: 'gcm-siv' }
    const sealed = v.ciphertext + v.tag
    t.is(aes.encrypt(hex(v.plaintext), opts).toString('hex'), sealed, `tc ${v.tcId}`)
    t.is(aes.decrypt(hex(sealed), opts).toString('hex'), v.plaintext, `tc ${v.tcId}`)
    const bad = hex(sealed)
    bad[bad.length - 1] ^= 1
    t.throws(() => aes.decrypt(bad, opts), FAILED)
  }
})

test('RFC 8439: ChaCha20-Poly1305', (t) => {
  const { tests } = json('rfc/chacha20_poly1305_rfc8439.json')
  for (const v of tests) {
    const opts = { key: hex(v.key), iv: hex(v.nonce), aad: hex(v.aad) }
    const sealed = hex(v.ciphertext + v.tag)
    if (v.result === 'valid') {
      t.is(chacha20.encrypt(hex(v.plaintext), opts).toString('hex'), sealed.toString('hex'), `tc ${v.tcId}`)
      t.is(chacha20.decrypt(sealed, opts).toString('hex'), v.plaintext, `tc ${v.tcId}`)
    } else {
      t.throws(() => chacha20.decrypt(sealed, opts), FAILED, `tc ${v.tcId}`)
    }
  }
})

test('draft-irtf-cfrg-xchacha A.3.1: XChaCha20-Poly1305 (xchacha20 and chacha20 with a 24-byte nonce)', (t) => {
  const [v] = json('rfc/xchacha20_poly1305_draft.json').tests
  const opts = { key: hex(v.key), iv: hex(v.nonce), aad: hex(v.aad) }
  const sealed = v.ciphertext + v.tag
  t.is(xchacha20.encrypt(hex(v.plaintext), opts).toString('hex'), sealed)
  t.is(chacha20.encrypt(hex(v.plaintext), opts).toString('hex'), sealed)
  t.is(xchacha20.decrypt(hex(sealed), opts).toString('hex'), v.plaintext)
  t.is(chacha20.key(hex(v.key)).decrypt(hex(sealed), { iv: hex(v.nonce), aad: hex(v.aad) }).toString('hex'), v.plaintext)
})

test('RFC 5297 A.1: deterministic AES-SIV (empty IV = no nonce header), output V ‖ C', (t) => {
  // RFC 5297 Appendix A.1 (key, AD, plaintext and output as printed in the RFC).
  const key = hex('fffefdfcfbfaf9f8f7f6f5f4f3f2f1f0f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff')
  const aad = hex('101112131415161718191a1b1c1d1e1f2021222324252627')
  const pt = hex('112233445566778899aabbccddee')
  const out = '85632d07c6e8f37f950acd320a2ecc93' + '40c02b9690c4dc04daef7f6afe5c'
  const opts = { key, aad, iv: Buffer.alloc(0), mode: 'siv' }
  t.is(aes.encrypt(pt, opts).toString('hex'), out)
  t.is(aes.decrypt(hex(out), opts).toString('hex'), pt.toString('hex'))
})
