'use strict'
// The README's conventions, checked across families: one argument order for signatures (data,
// then key, then signature, then options; or one options object with the key), explicit Sync
// and Async names that agree with each other and with the plain name, the plain names that keep
// the original library's behaviour, and `signal: null` read as no signal everywhere.
const test = require('ava')
const crypto = require('..')

const { dsa, kdf, cipher, kem } = crypto
const MESSAGE = Buffer.from('the message')

// Each signer: a key pair and the options its calls take.
const SIGNERS = {
  ed25519: () => [dsa.ed25519, dsa.ed25519.generateKeypair(), {}],
  ecdsa: () => [dsa.ecdsa, dsa.ecdsa.generateKeypair('p256'), { hash: 'sha384' }],
  mldsa44: () => [dsa.mldsa44, dsa.mldsa44.generateKeypair(), { context: 'ctx' }],
}

for (const [name, make] of Object.entries(SIGNERS)) {
  test(`${name}: signSync/signAsync/verifySync/verifyAsync take (message, key, ...) and (message, { key, ... })`, async (t) => {
    const [ns, { privateKey, publicKey }, options] = make()
    const sigs = [
      ns.signSync(MESSAGE, privateKey, options),
      ns.signSync(MESSAGE, { privateKey, ...options }),
      await ns.signAsync(MESSAGE, privateKey, { ...options, signal: null }),
      await ns.signAsync(MESSAGE, { privateKey, ...options }),
    ]
    for (const signature of sigs) {
      t.true(ns.verifySync(MESSAGE, publicKey, signature, options))
      t.true(ns.verifySync(MESSAGE, { publicKey, signature, ...options }))
      t.true(await ns.verifyAsync(MESSAGE, publicKey, signature, { ...options, signal: null }))
      t.true(await ns.verifyAsync(MESSAGE, { publicKey, signature, ...options }))
      // Another message does not verify: the order is not silently swapped.
      t.false(ns.verifySync(Buffer.from('another'), publicKey, signature, options))
    }
  })
}

test('ed25519: the plain names keep the original order (key first) and read the options form', (t) => {
  const { privateKey, publicKey } = dsa.ed25519.generateKeypair()
  const sig = dsa.ed25519.sign(privateKey, MESSAGE)
  t.deepEqual(sig, dsa.ed25519.signSync(MESSAGE, privateKey)) // Ed25519 is deterministic
  t.deepEqual(dsa.ed25519.sign(MESSAGE, { privateKey }), sig)
  t.true(dsa.ed25519.verify(publicKey, MESSAGE, sig))
  t.true(dsa.ed25519.verify(MESSAGE, { publicKey, signature: sig }))
  t.false(dsa.ed25519.verify(publicKey, Buffer.from('another'), sig))
})

test('ecdsa: the original options form and the library order give signatures of the same key', (t) => {
  const { privateKey, publicKey } = dsa.ecdsa.generateKeypair('p256')
  const original = dsa.ecdsa.sign(MESSAGE, { privateKey })
  t.true(dsa.ecdsa.verify(MESSAGE, { publicKey, signature: original }))
  t.true(dsa.ecdsa.verify(MESSAGE, publicKey, original))
})

test('plain names: kdf.argon2 and argon2.verify return Promises, pbkdf2/scrypt/hkdf/bcrypt return values', async (t) => {
  const cheap = { memoryCost: 64, timeCost: 1, parallelism: 1 }
  const pending = kdf.argon2('pw', cheap)
  t.true(pending instanceof Promise)
  const phc = await pending
  t.true(kdf.argon2.verify('pw', phc) instanceof Promise)
  t.true(await kdf.argon2Async('pw', { ...cheap, salt: 'saltsaltsalt' }) === kdf.argon2Sync('pw', { ...cheap, salt: 'saltsaltsalt' }))
  t.is(typeof kdf.pbkdf2('pw', { salt: 'salt', iterations: 1 }), 'string')
  t.is(kdf.pbkdf2Sync, kdf.pbkdf2)
  t.is(typeof kdf.scrypt('pw', { salt: 'salt', N: 16 }), 'string')
  t.is(typeof kdf.hkdf('key', { keyLength: 16 }), 'string')
  const bcrypt = kdf.bcrypt.hash('pw', { rounds: 4 })
  t.is(typeof bcrypt, 'string')
  t.true(kdf.bcrypt.verify('pw', bcrypt))
  t.is(kdf.bcrypt.verifySync, kdf.bcrypt.verify)
})

test('signal: null is no signal in every family; anything else but an AbortSignal is a TypeError', async (t) => {
  const key = crypto.randomBytes(32)
  const { publicKey, privateKey } = kem.mlkem512.generateKeypair()
  // Each async call with `signal: null` gives what its sync twin gives.
  const same = [
    [crypto.sha.sha256.async('x', { signal: null }), crypto.sha.sha256('x')],
    [crypto.hmac.sha256.async('x', { key: 'k', signal: null }), crypto.hmac.sha256('x', { key: 'k' })],
    [kdf.pbkdf2Async('pw', { salt: 'salt', iterations: 1, signal: null }), kdf.pbkdf2('pw', { salt: 'salt', iterations: 1 })],
    [kdf.scryptAsync('pw', { salt: 'salt', N: 16, signal: null }), kdf.scrypt('pw', { salt: 'salt', N: 16 })],
    [kdf.hkdfAsync('key', { keyLength: 16, signal: null }), kdf.hkdf('key', { keyLength: 16 })],
  ]
  for (const [pending, expected] of same) t.is(await pending, expected)
  const iv = crypto.randomBytes(12)
  t.deepEqual(await cipher.aes.encryptAsync('x', { key, iv, signal: null }), cipher.aes.encrypt('x', { key, iv }))
  t.true(kdf.bcrypt.verify('pw', await kdf.bcrypt.hashAsync('pw', { rounds: 4, signal: null })))
  const enc = await kem.mlkem512.encapsulateAsync(publicKey, { signal: null })
  t.deepEqual(kem.mlkem512.decapsulate(enc.ciphertext, privateKey), enc.sharedSecret)
  const pair = await cipher.x25519.generateKeypairAsync({ signal: null })
  t.is(pair.privateKey.length, 32)
  const { ciphertext, sharedSecret } = kem.mlkem512.encapsulate(publicKey)
  t.deepEqual(await kem.mlkem512.decapsulateAsync(ciphertext, privateKey, { signal: null }), sharedSecret)
  await t.throwsAsync(crypto.sha.sha256.async('x', { signal: 'abort' }), { instanceOf: TypeError, code: 'ERR_INVALID_ARG_TYPE' })
  await t.throwsAsync(kdf.pbkdf2Async('pw', { salt: 'salt', iterations: 1, signal: {} }), { instanceOf: TypeError, code: 'ERR_INVALID_ARG_TYPE' })
})

test('hash names: one table of names and aliases for the KDFs and the signatures', (t) => {
  const derived = (hash) => kdf.pbkdf2('pw', { salt: 'salt', iterations: 1, hash })
  t.is(derived('SHA-512/256'), derived('sha512_256'))
  t.is(derived('sha3-256'), derived('sha3_256'))
  const { privateKey, publicKey } = dsa.ecdsa.generateKeypair('p256')
  const sig = dsa.ecdsa.sign(MESSAGE, privateKey, { hash: 'SHA-512/256' })
  t.true(dsa.ecdsa.verify(MESSAGE, publicKey, sig, { hash: 'sha512_256' }))
  t.throws(() => derived('sha-256x'), { instanceOf: TypeError, code: 'ERR_INVALID_ARG_VALUE' })
})
