'use strict'
// Writes the seed inputs of every fuzz target under fuzz/seeds/<target>/ (committed; re-run after
// a format changes: `npm run build && node fuzz/make-seeds.js`). Seeds are the interesting inputs
// of the test vectors (__test__/vectors, __test__/fixtures) and inputs made here with the
// library: files, streams, envelopes and signatures for the fixed test keys the targets open
// them with (fuzz/js/keys/, fuzz/fuzz_targets/*.rs). Encryption is randomised, so a re-run
// rewrites those seeds with other bytes.
const fs = require('fs')
const path = require('path')
const zlib = require('zlib')
const nodeCrypto = require('crypto')
const crypto = require('..')

const here = __dirname
const vectors = path.join(here, '..', '__test__', 'vectors')
const fixtures = path.join(here, '..', '__test__', 'fixtures')
const json = (p) => JSON.parse(fs.readFileSync(p, 'utf8'))

// The constants the targets share with this script.
const PLAINTEXT = Buffer.from('cryptographer.js fuzz seed\n')
const AGE_IDENTITY = 'AGE-SECRET-KEY-1NNAZ96JTU2JMCR7G9J6GZFNF03JV5R56PFCZZKVN3HNGMFAVUXXSV46W0Q'
const AGE_PASSPHRASE = 'cryptographer.js fuzz'
const STREAM_KEY = Buffer.from('cryptographer.js fuzz stream key')
const STREAM_PASSPHRASE = 'cryptographer.js fuzz'
const hybridKeys = require('./js/keys')

const seeds = {}
function seed(target, name, bytes) {
  ;(seeds[target] ||= new Map()).set(name, Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes))
}

// ---- stored password hashes: phc, bcrypt (Rust), password (JS) ------------------------------

for (const t of json(path.join(vectors, 'kdf', 'argon2_phc_reference_tests.json')).tests) {
  if (t.encoded) seed('phc', `reference-${t.tcId}`, t.encoded)
}
for (const t of json(path.join(vectors, 'kdf', 'bcrypt.json')).tests) {
  if (typeof t.hash === 'string' && t.hash.length <= 80) seed('bcrypt', `vector-${t.tcId}`, t.hash)
}
for (const file of ['libpass.json', 'django.json', 'php.json']) {
  for (const c of json(path.join(fixtures, 'password', file)).cases) {
    seed('password', `${file.replace('.json', '')}-${c.id}`, c.hash)
    if (c.hash.startsWith('$argon2')) seed('phc', `${file.replace('.json', '')}-${c.id}`, c.hash)
    if (/^\$2[aby]\$/.test(c.hash)) seed('bcrypt', `${file.replace('.json', '')}-${c.id}`, c.hash)
  }
}
const phcWithData = '$argon2id$v=19$m=64,t=1,p=1,data=YWJjZA$c29tZXNhbHQ$yDPjA6PJcSgbObLN9eyH2qSSbqwwTm9sH5fVKYxiSwA'
seed('phc', 'data-field', phcWithData)
seed('phc', 'no-version', '$argon2i$m=65536,t=2,p=1$c29tZXNhbHQ$wWKIMhR9lyDFvRz9YTZweHKfbftvj+qf+YFY4NeBbtA')
seed('password', 'argon2-data-field', phcWithData)

// ---- base64 -----------------------------------------------------------------------------------

for (const [i, s] of ['', 'AA', 'AB', 'AAA', 'AAB', 'AAAA', 'c29tZXNhbHQ', 'c29tZXNhbHR', './', 'Zm9vYmFy', 'abcde', 'ab$d'].entries()) {
  seed('base64', `text-${i}`, s)
}

// ---- ECDSA DER signatures ---------------------------------------------------------------------

for (const curve of ['p256', 'p384', 'p521', 'secp256k1']) {
  const { privateKey } = crypto.dsa.ecdsa.generateKeypair(curve)
  seed('ecdsa_der', `${curve}`, crypto.dsa.ecdsa.sign(PLAINTEXT, { privateKey, curve }))
}
seed('ecdsa_der', 'small', Buffer.from('3006020101020101', 'hex'))
seed('ecdsa_der', 'padded', Buffer.from('3008020200800202008f', 'hex'))

// ---- age --------------------------------------------------------------------------------------

// The C2SP age test kit: a few header lines, an empty line, then the file (zlib when it says so).
const kit = path.join(vectors, 'age', 'testkit')
for (const name of fs.readdirSync(kit).sort()) {
  const raw = fs.readFileSync(path.join(kit, name))
  const split = raw.indexOf('\n\n')
  const head = raw.subarray(0, split).toString('latin1')
  let file = raw.subarray(split + 2)
  if (/^compressed: zlib$/m.test(head)) file = zlib.inflateSync(file)
  if (file.length > 16 * 1024) continue
  if (name.startsWith('armor')) seed('age_armor', name, file)
  else seed('age_header', name, file)
  seed('age_decrypt', `${name}-x25519`, Buffer.concat([Buffer.from([0]), file]))
  seed('age_decrypt', `${name}-scrypt`, Buffer.concat([Buffer.from([1]), file]))
  for (const m of head.matchAll(/^identity: (\S+)$/gm)) seed('age_keys', `${name}-identity`, m[1])
}
const { recipient } = { recipient: crypto.cipher.age.toRecipient(AGE_IDENTITY) }
seed('age_keys', 'fuzz-identity', AGE_IDENTITY)
seed('age_keys', 'fuzz-recipient', recipient)
seed('age_keys', 'fuzz-identity-lower', AGE_IDENTITY.toLowerCase())
const toX25519 = crypto.cipher.age.encryptSync(PLAINTEXT, { recipients: [recipient] })
const toScrypt = crypto.cipher.age.encryptSync(PLAINTEXT, { passphrase: AGE_PASSPHRASE, workFactor: 2 })
const armored = crypto.cipher.age.encryptSync(PLAINTEXT, { recipients: [recipient], armor: true })
seed('age_decrypt', 'fuzz-x25519', Buffer.concat([Buffer.from([0]), toX25519]))
seed('age_decrypt', 'fuzz-scrypt', Buffer.concat([Buffer.from([1]), toScrypt]))
seed('age_decrypt', 'fuzz-armored', Buffer.concat([Buffer.from([0]), Buffer.from(armored)]))
seed('age_header', 'fuzz-x25519', toX25519)
seed('age_header', 'fuzz-scrypt', toScrypt)
seed('age_armor', 'fuzz-armored', armored)

// ---- the streaming AEAD format ----------------------------------------------------------------

function sealStream(cipher, options) {
  const s = cipher.encryptStream(options)
  const out = []
  s.on('data', (d) => out.push(d))
  return new Promise((resolve, reject) => {
    s.on('end', () => resolve(Buffer.concat(out)))
    s.on('error', reject)
    s.end(PLAINTEXT)
  })
}

// ---- keys (JS): DER, PEM and JWK of every algorithm ---------------------------------------------

function keySeeds() {
  const forms = (name, raw, algorithm) => {
    const priv = algorithm ? crypto.keys.export(raw, { format: 'der', algorithm }) : raw
    for (const [kind, k] of [['private', priv], ['public', crypto.keys.export(priv, { format: 'der', public: true })]]) {
      const der = crypto.keys.export(k, { format: 'der' })
      seed('keys', `${name}-${kind}-der`, Buffer.concat([Buffer.from([0]), der]))
      seed('keys', `${name}-${kind}-pem`, Buffer.concat([Buffer.from([1]), Buffer.from(crypto.keys.export(k, { format: 'pem' }))]))
      try {
        seed('keys', `${name}-${kind}-jwk`, Buffer.concat([Buffer.from([2]), Buffer.from(JSON.stringify(crypto.keys.export(k, { format: 'jwk' })))]))
      } catch {}
    }
  }
  for (const type of ['ed25519', 'x25519']) forms(type, nodeCrypto.generateKeyPairSync(type).privateKey.export({ format: 'der', type: 'pkcs8' }))
  for (const namedCurve of ['P-256', 'P-384', 'P-521', 'secp256k1']) {
    const { privateKey } = nodeCrypto.generateKeyPairSync('ec', { namedCurve })
    forms(namedCurve, privateKey.export({ format: 'der', type: 'pkcs8' }))
    seed('keys', `${namedCurve}-sec1-der`, Buffer.concat([Buffer.from([0]), privateKey.export({ format: 'der', type: 'sec1' })]))
  }
  const rsa = nodeCrypto.generateKeyPairSync('rsa', { modulusLength: 1024 })
  forms('rsa1024', rsa.privateKey.export({ format: 'der', type: 'pkcs8' }))
  seed('keys', 'rsa1024-pkcs1-der', Buffer.concat([Buffer.from([0]), rsa.privateKey.export({ format: 'der', type: 'pkcs1' })]))
  seed('keys', 'rsa1024-pkcs1-pem', Buffer.concat([Buffer.from([1]), Buffer.from(rsa.publicKey.export({ format: 'pem', type: 'pkcs1' }))]))
  for (const kem of ['mlkem512', 'xwing']) forms(kem, crypto.kem[kem].generateKeypair().privateKey, kem)
  forms('mldsa44', crypto.dsa.mldsa44.generateKeypair().privateKey, 'mldsa44')
}

// ---- hybrid (JS): key blobs, envelopes, signatures -----------------------------------------------

function hybridSeeds() {
  const h = crypto.hybrid
  hybridKeys.suites.forEach((k, i) => {
    const pub = h.getPublicKey(k.privateKey)
    seed('hybrid', `suite${i}-public`, Buffer.concat([Buffer.from([0]), pub]))
    seed('hybrid', `suite${i}-public-pem`, Buffer.concat([Buffer.from([0]), Buffer.from(h.getPublicKey(k.privateKey, { format: 'pem' }))]))
    seed('hybrid', `suite${i}-private`, Buffer.concat([Buffer.from([1]), k.privateKey]))
    seed('hybrid', `suite${i}-envelope`, Buffer.concat([Buffer.from([2 + 4 * i]), h.encrypt(PLAINTEXT, pub)]))
    seed('hybrid', `suite${i}-signature`, Buffer.concat([Buffer.from([3 + 4 * i]), h.sign(PLAINTEXT, k.privateKey)]))
  })
}

async function main() {
  keySeeds()
  hybridSeeds()
  // mode byte: bit 0 algorithm, bit 1 passphrase, bit 2 seal-and-open (stream.rs).
  for (const [i, [ns, alg]] of [['aes', 0], ['xchacha20', 1]].entries()) {
    const c = crypto.cipher[ns]
    const byKey = await sealStream(c, { key: STREAM_KEY, segmentSize: 1024 })
    const byPass = await sealStream(c, { passphrase: STREAM_PASSPHRASE, memoryCost: 8, timeCost: 1, parallelism: 1, segmentSize: 1024 })
    seed('stream', `${ns}-key`, Buffer.concat([Buffer.from([alg]), byKey]))
    seed('stream', `${ns}-passphrase`, Buffer.concat([Buffer.from([alg | 2]), byPass]))
    seed('stream', `${ns}-seal`, Buffer.concat([Buffer.from([alg | 4, 7, 0, 1]), PLAINTEXT]))
    // A sealed message of a key derived from the passphrase (key source 2): the passphrase opens it.
    const derived = c.deriveKeySync(STREAM_PASSPHRASE, { memoryCost: 8, timeCost: 1, parallelism: 1 })
    seed('stream', `${ns}-derived-key`, Buffer.concat([Buffer.from([alg | 2]), derived.sealSync(PLAINTEXT)]))
    derived.dispose()
    void i
  }
  for (const [target, files] of Object.entries(seeds)) {
    const dir = path.join(here, 'seeds', target)
    // Inputs kept from findings (`regression-*`) stay.
    const kept = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.startsWith('regression-')) : []
    for (const f of fs.existsSync(dir) ? fs.readdirSync(dir) : []) if (!kept.includes(f)) fs.rmSync(path.join(dir, f))
    fs.mkdirSync(dir, { recursive: true })
    const seen = new Set(kept.map((f) => fs.readFileSync(path.join(dir, f)).toString('hex')))
    for (const [name, bytes] of files) {
      if (seen.has(bytes.toString('hex'))) continue
      seen.add(bytes.toString('hex'))
      fs.writeFileSync(path.join(dir, name.replace(/[^A-Za-z0-9_.-]/g, '_')), bytes)
    }
    console.log(`${target}: ${seen.size} seeds (${kept.length} from findings)`)
  }
}

main().catch((e) => {
  console.error(e)
  process.exit(1)
})
