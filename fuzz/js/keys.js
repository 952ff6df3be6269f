'use strict'
// The fixed hybrid private keys the `hybrid` target opens envelopes and checks signatures with
// (test keys, made once with crypto.hybrid.generateKeypair and used for nothing else).
const fs = require('fs')
const path = require('path')

const SUITES = ['x25519-mlkem768', 'rsa4096-mlkem1024']

module.exports = {
  suites: SUITES.map((name) => ({ name, privateKey: fs.readFileSync(path.join(__dirname, 'keys', `${name}.key`)) })),
}
