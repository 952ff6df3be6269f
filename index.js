'use strict'
// cryptographer.js: the public API. Every algorithm runs in the native addon (see binding.js for
// the loader and src/ for the Rust code); this layer only shapes arguments and results.
const { sha, hmac } = require('./lib/hash')
const { randomBytes, timingSafeEqual } = require('./lib/random')
const { cipher } = require('./lib/cipher')

const api = {
  sha,
  hash: sha,
  hmac,
  kdf: require('./lib/kdf'),
  password: require('./lib/password'),
  randomBytes,
  timingSafeEqual,
  cipher,
}

module.exports = api
module.exports.default = api
