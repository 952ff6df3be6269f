'use strict'
// cryptographer.js: the public API. Every algorithm runs in the native addon (src/, loaded by
// binding.js through lib/native.js); this layer only shapes arguments and results.
//
// Where things live in lib/: one file per family, each built from the native table of its
// algorithms, with no per-algorithm code: hash.js (crypto.sha/hmac from `algorithms()`; their
// stream(), async(iterable), file() and fileSync() forms in hash-stream.js, their batch() and
// batchAsync() in batch.js, which cipher.js also uses for encryptBatch/decryptBatch),
// cipher.js (crypto.cipher from `cipherModes()`; the streaming AEAD's
// encryptStream/decryptStream/encryptFile/decryptFile in cipher-stream.js, from
// `streamAlgorithms()`), kdf.js (crypto.kdf, one wrapper per KDF),
// password.js (crypto.password: one verify over every stored format, on kdf.js), random.js,
// pk.js (crypto.dsa.ed25519/ecdsa, crypto.cipher.x25519/ecdh) over keys.js (crypto.keys: the one
// parser and writer of every key form), rsa.js (crypto.dsa.rsa, crypto.cipher.rsa_oaep),
// kem.js (crypto.kem: ML-KEM and X-Wing, from `kemAlgorithms()`),
// mldsa.js (crypto.dsa.mldsa44/65/87, from `mldsaSets()`), hybrid.js (crypto.hybrid: classical +
// post-quantum encryption and signatures over those families, docs/hybrid-format.md).
// Shared by all: options.js (unknown keys, integer ranges), output.js (output
// formats), errors.js (Node-style errors with a `code`), abort.js (every async form: `signal`,
// cancel token, AbortError, and its diagnostics_channel tracing with diagnostics.js), memory.js (the memory budget of Argon2 and scrypt). A new hash or cipher mode needs no JS at all (plus its line in
// index.d.ts); a new KDF is a `rawKdf(...)` call of about 15 lines in kdf.js; a new family is a
// file here, required below, with its types in index.d.ts.
const { sha, hmac } = require('./lib/hash')
const { randomBytes, timingSafeEqual } = require('./lib/random')
const { cipher } = require('./lib/cipher')
const pk = require('./lib/pk')
const { keys } = require('./lib/keys')
const { rsa, rsa_oaep } = require('./lib/rsa')
const { kem } = require('./lib/kem')
const { mldsa } = require('./lib/mldsa')
const { setMemoryBudget, memoryBudget } = require('./lib/memory')

const api = {
  sha,
  hash: sha,
  hmac,
  kdf: require('./lib/kdf').kdf,
  password: require('./lib/password'),
  randomBytes,
  timingSafeEqual,
  cipher: Object.freeze({ ...cipher, x25519: pk.x25519, ecdh: pk.ecdh, rsa_oaep }),
  dsa: Object.freeze({ ...pk.dsa, rsa, ...mldsa }),
  kem,
  keys: Object.freeze(keys),
  hybrid: require('./lib/hybrid').hybrid,
  /** The code path each backend takes on this CPU (src/cpu.rs). */
  cpuPaths: require('./lib/native').cpuPaths,
  /** The process's memory budget for Argon2 and scrypt (lib/memory.js, src/budget.rs). */
  setMemoryBudget,
  memoryBudget,
  /** The diagnostics_channel TracingChannel of each family of async calls (lib/diagnostics.js). */
  diagnosticsChannels: require('./lib/diagnostics').channels,
}

module.exports = api
module.exports.default = api
