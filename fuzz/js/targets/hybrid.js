'use strict'
// crypto.hybrid: key blobs (bytes or PEM), envelopes and composite signatures. The first byte
// picks what the rest is: bits 0-1 a public key (0), a private key (1), an envelope (2) or a
// signature (3); bit 2 the suite of the fixed test keys (fuzz/js/keys/) for envelopes and
// signatures. Properties: a refusal is a coded error; a public key that is read takes an
// envelope of the right length; a private key that is read opens what is sealed to its public
// key; an envelope that opens holds the seeds' plaintext, and a signature that verifies is one
// of the seeds' (anything else would be a forgery).
const assert = require('assert')
const fs = require('fs')
const path = require('path')
const { hybrid } = require('../../..')
const { suites } = require('../keys')
const { attempt } = require('../check')

const PLAINTEXT = Buffer.from('cryptographer.js fuzz seed\n')
const publics = suites.map((s) => hybrid.getPublicKey(s.privateKey))
// The signatures among the seeds (fuzz/make-seeds.js), the only ones that may verify.
const seedDir = path.join(__dirname, '..', '..', 'seeds', 'hybrid')
const signatures = fs.existsSync(seedDir)
  ? fs.readdirSync(seedDir).filter((f) => f.endsWith('-signature')).map((f) => fs.readFileSync(path.join(seedDir, f)).subarray(1).toString('hex'))
  : []

const KEY_CODES = ['ERR_CRYPTO_INVALID_KEY', 'ERR_INVALID_ARG_VALUE', 'ERR_INVALID_ARG_TYPE']
const asKey = (body) => (body.subarray(0, 5).toString('latin1') === '-----' ? body.toString('latin1') : body)

function fuzz(buf) {
  if (buf.length === 0) return
  const body = buf.subarray(1)
  const suite = (buf[0] >> 2) & 1
  switch (buf[0] & 3) {
    case 0: {
      const env = attempt(() => hybrid.encrypt(PLAINTEXT, asKey(body)), KEY_CODES)
      if (env) assert.strictEqual(env.subarray(0, 8).toString('latin1'), 'cjs.henv')
      break
    }
    case 1: {
      const pub = attempt(() => hybrid.getPublicKey(asKey(body)), KEY_CODES)
      if (pub) assert.deepStrictEqual(hybrid.decrypt(hybrid.encrypt(PLAINTEXT, pub), asKey(body)), PLAINTEXT)
      break
    }
    case 2: {
      const plain = attempt(() => hybrid.decrypt(body, suites[suite].privateKey), ['ERR_CRYPTO_DECRYPT_FAILED'])
      if (plain) assert.deepStrictEqual(plain, PLAINTEXT, 'an envelope that was not sealed to the key opened')
      break
    }
    default: {
      const ok = hybrid.verify(PLAINTEXT, publics[suite], body)
      assert.ok(!ok || signatures.includes(body.toString('hex')), 'a signature that was not made with the key verified')
    }
  }
}

module.exports = { fuzz }
