'use strict'
// HMAC known answers: Wycheproof (incl. truncated tags and over-long keys), RFC 4231, RFC 2202.
const test = require('ava')
const { hmac } = require('..')
const { json, hex } = require('./helpers/vectors')

const WYCHEPROOF = {
  sha1: 'hmac_sha1_test.json',
  sha224: 'hmac_sha224_test.json',
  sha256: 'hmac_sha256_test.json',
  sha384: 'hmac_sha384_test.json',
  sha512: 'hmac_sha512_test.json',
  sha512_224: 'hmac_sha512_224_test.json',
  sha512_256: 'hmac_sha512_256_test.json',
  sha3_224: 'hmac_sha3_224_test.json',
  sha3_256: 'hmac_sha3_256_test.json',
  sha3_384: 'hmac_sha3_384_test.json',
  sha3_512: 'hmac_sha3_512_test.json',
}

for (const [name, file] of Object.entries(WYCHEPROOF)) {
  test(`Wycheproof ${file}`, async (t) => {
    const suite = json(`wycheproof/${file}`)
    let valid = 0
    let invalid = 0
    for (const group of suite.testGroups) {
      const tagBytes = group.tagSize / 8
      for (const v of group.tests) {
        const key = hex(v.key)
        const msg = hex(v.msg)
        const full = hmac[name](msg, { key, outputFormat: 'buffer' })
        const streamed = hmac[name].create({ key }).update(msg.subarray(0, 7)).update(msg.subarray(7)).digest('buffer')
        t.true(full.equals(streamed), `tcId ${v.tcId}`)
        t.true(full.equals(await hmac[name].async(msg, { key, outputFormat: 'buffer' })), `tcId ${v.tcId} async`)
        // Verification as an application does it: the leftmost tagSize bits, compared in full.
        const ok = full.subarray(0, tagBytes).equals(hex(v.tag))
        if (v.result === 'valid') {
          t.true(ok, `tcId ${v.tcId} ${v.comment}`)
          valid++
        } else {
          t.false(ok, `tcId ${v.tcId} ${v.comment}`)
          invalid++
        }
      }
    }
    t.true(valid > 50 && invalid > 50)
  })
}

const NAMES = { 'SHA-224': 'sha224', 'SHA-256': 'sha256', 'SHA-384': 'sha384', 'SHA-512': 'sha512', 'SHA-1': 'sha1', MD5: 'md5' }

for (const file of ['rfc/hmac_rfc4231.json', 'rfc/hmac_rfc2202.json']) {
  test(file, async (t) => {
    const { tests } = json(file)
    for (const v of tests) {
      const f = hmac[NAMES[v.hash]]
      const out = f(hex(v.msg), { key: hex(v.key) })
      t.is(await f.async(hex(v.msg), { key: hex(v.key) }), out)
      const n = v.truncated_to_bytes ? v.truncated_to_bytes * 2 : out.length
      t.is(out.slice(0, n), v.mac, `${v.hash} case ${v.rfc_test_case}`)
    }
    t.true(tests.length >= 14)
  })
}
