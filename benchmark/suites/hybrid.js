'use strict'
// crypto.hybrid (docs/hybrid-format.md), for both suites:
// - key generation, and the peak memory of one key generation in a fresh process;
// - encrypt and decrypt of 1 KB … 1 MB (plotted against size), beside the post-quantum half alone
//   (ML-KEM + SHA3-256 + AES-256-GCM), AES-256-GCM alone with a key already shared, and the
//   classical system the hybrid replaces, done with node:crypto (RSA-4096-OAEP or X25519 + HKDF
//   around AES-256-GCM);
// - sign and verify of 1 KB, beside ML-DSA alone and node:crypto's RSA-PSS-4096 or Ed25519;
// - one call of each, step by step: every component the call runs, timed alone, against the call
//   (the finding under that table says where the time goes);
// - throughput of the async forms with 1, 2 and 4 calls in flight on the libuv pool (4 threads by
//   default: UV_THREADPOOL_SIZE).
// Outputs are checked: every contestant's envelope is opened, every signature verified, before timing.
const nodeCrypto = require('node:crypto')
const { hybrid, kem, dsa, sha, cipher } = require('../..')
const { peak, MiB } = require('../memory')

const SIZES = [1024, 10 * 1024, 100 * 1024, 1024 * 1024]
const label = (n) => (n >= 1 << 20 ? `${n >> 20} MB` : `${n >> 10} KB`)
const KEM_LABEL = Buffer.from('cryptographer.js hybrid kem v1')
const SIG_LABEL = Buffer.from('cryptographer.js hybrid sig v1')
const ZERO_NONCE = Buffer.alloc(12)

/** The component keys of a hybrid key (docs/hybrid-format.md: magic, version, suite, then u16 length ‖ key each). */
function fieldsOf(key) {
  const out = []
  for (let at = 10; at < key.length; ) {
    const n = key.readUInt16BE(at)
    out.push(key.subarray(at + 2, at + 2 + n))
    at += 2 + n
  }
  return out
}

/** Each suite's components, as the library's own calls. */
const SUITES = {
  'x25519-mlkem768': {
    id: 1,
    pq: kem.mlkem768,
    pqName: 'ML-KEM-768',
    dsaName: 'ML-DSA-65',
    mldsa: dsa.mldsa65,
    kems: (pub) => [{ name: 'X-Wing encapsulate', fn: () => kem.xwing.encapsulate(pub[0]) }],
    unkems: (priv, cts) => [{ name: 'X-Wing decapsulate', fn: () => kem.xwing.decapsulate(cts[0], priv[0]) }],
    signers: (priv, m) => [
      { name: 'Ed25519 sign', fn: () => dsa.ed25519.sign(priv[1], m) },
      { name: 'ML-DSA-65 sign', fn: () => dsa.mldsa65.sign(m, priv[2], { context: SIG_LABEL }) },
    ],
    verifiers: (pub, m, sigs) => [
      { name: 'Ed25519 verify', fn: () => dsa.ed25519.verify(pub[1], m, sigs[0]) },
      { name: 'ML-DSA-65 verify', fn: () => dsa.mldsa65.verify(m, pub[2], sigs[1], { context: SIG_LABEL }) },
    ],
  },
  'rsa4096-mlkem1024': {
    id: 2,
    pq: kem.mlkem1024,
    pqName: 'ML-KEM-1024',
    dsaName: 'ML-DSA-87',
    mldsa: dsa.mldsa87,
    kems: (pub) => [
      { name: 'RSA-OAEP-4096 encrypt', fn: () => cipher.rsa_oaep.encrypt(nodeCrypto.randomBytes(32), pub[0], { hash: 'sha256' }) },
      { name: 'ML-KEM-1024 encapsulate', fn: () => kem.mlkem1024.encapsulate(pub[1]) },
    ],
    unkems: (priv, cts, pub) => {
      const ct = cipher.rsa_oaep.encrypt(nodeCrypto.randomBytes(32), pub[0], { hash: 'sha256' })
      return [
        { name: 'RSA-OAEP-4096 decrypt', fn: () => cipher.rsa_oaep.decrypt(ct, priv[0], { hash: 'sha256' }) },
        { name: 'ML-KEM-1024 decapsulate', fn: () => kem.mlkem1024.decapsulate(cts[1], priv[1]) },
      ]
    },
    signers: (priv, m) => [
      { name: 'RSA-PSS-4096 sign', fn: () => dsa.rsa.signPSS(m, priv[2], { hash: 'sha512', saltLength: 64 }) },
      { name: 'ML-DSA-87 sign', fn: () => dsa.mldsa87.sign(m, priv[3], { context: SIG_LABEL }) },
    ],
    verifiers: (pub, m, sigs) => [
      { name: 'RSA-PSS-4096 verify', fn: () => dsa.rsa.verifyPSS(m, pub[2], sigs[0], { hash: 'sha512', saltLength: 64 }) },
      { name: 'ML-DSA-87 verify', fn: () => dsa.mldsa87.verify(m, pub[3], sigs[1], { context: SIG_LABEL }) },
    ],
  },
}

/** The classical half alone, with node:crypto: a KEM (RSA-OAEP or X25519 + HKDF) around AES-256-GCM. */
function classical(suite) {
  const gcm = (key, data) => {
    const iv = nodeCrypto.randomBytes(12)
    const c = nodeCrypto.createCipheriv('aes-256-gcm', key, iv)
    return Buffer.concat([iv, c.update(data), c.final(), c.getAuthTag()])
  }
  const ungcm = (key, env) => {
    const d = nodeCrypto.createDecipheriv('aes-256-gcm', key, env.subarray(0, 12))
    d.setAuthTag(env.subarray(env.length - 16))
    return Buffer.concat([d.update(env.subarray(12, env.length - 16)), d.final()])
  }
  if (suite === 'rsa4096-mlkem1024') {
    const enc = nodeCrypto.generateKeyPairSync('rsa', { modulusLength: 4096 })
    const sig = nodeCrypto.generateKeyPairSync('rsa', { modulusLength: 4096 })
    const oaep = (key) => ({ key, oaepHash: 'sha256', padding: nodeCrypto.constants.RSA_PKCS1_OAEP_PADDING })
    const pss = (key) => ({ key, padding: nodeCrypto.constants.RSA_PKCS1_PSS_PADDING, saltLength: 64 })
    return {
      name: 'node:crypto RSA-4096-OAEP + AES-256-GCM (classical only)',
      sigName: 'node:crypto RSA-PSS-4096 (classical only)',
      encrypt(data) {
        const k = nodeCrypto.randomBytes(32)
        return Buffer.concat([nodeCrypto.publicEncrypt(oaep(enc.publicKey), k), gcm(k, data)])
      },
      decrypt: (env) => ungcm(nodeCrypto.privateDecrypt(oaep(enc.privateKey), env.subarray(0, 512)), env.subarray(512)),
      sign: (data) => nodeCrypto.sign('sha512', data, pss(sig.privateKey)),
      verify: (data, s) => nodeCrypto.verify('sha512', data, pss(sig.publicKey), s),
    }
  }
  const enc = nodeCrypto.generateKeyPairSync('x25519')
  const sig = nodeCrypto.generateKeyPairSync('ed25519')
  const kdf = (ss) => Buffer.from(nodeCrypto.hkdfSync('sha256', ss, Buffer.alloc(0), 'classical', 32))
  return {
    name: 'node:crypto X25519 + HKDF + AES-256-GCM (classical only)',
    sigName: 'node:crypto Ed25519 (classical only)',
    encrypt(data) {
      const eph = nodeCrypto.generateKeyPairSync('x25519')
      const ss = nodeCrypto.diffieHellman({ privateKey: eph.privateKey, publicKey: enc.publicKey })
      const epk = eph.publicKey.export({ format: 'der', type: 'spki' }).subarray(12)
      return Buffer.concat([epk, gcm(kdf(ss), data)])
    },
    decrypt(env) {
      const epk = nodeCrypto.createPublicKey({ key: Buffer.concat([Buffer.from('302a300506032b656e032100', 'hex'), env.subarray(0, 32)]), format: 'der', type: 'spki' })
      return ungcm(kdf(nodeCrypto.diffieHellman({ privateKey: enc.privateKey, publicKey: epk })), env.subarray(32))
    },
    sign: (data) => nodeCrypto.sign(null, data, sig.privateKey),
    verify: (data, s) => nodeCrypto.verify(null, data, sig.publicKey, s),
  }
}

/**
 * The post-quantum half alone (ML-KEM, SHA3-256 of the secret, AES-256-GCM) and AES-256-GCM alone
 * under a key both sides already hold: what the hybrid costs beyond each.
 */
function halves(spec) {
  const { publicKey, privateKey } = spec.pq.generateKeypair()
  const shared = nodeCrypto.randomBytes(32)
  const gcm = (key, data) => cipher.aes.encrypt(data, { key, mode: 'gcm' })
  const ungcm = (key, env) => cipher.aes.decrypt(env, { key, mode: 'gcm' })
  const keyOf = (ss) => sha.sha3_256(ss, { outputFormat: 'buffer' })
  const ctLength = spec.pq.lengths.ciphertext
  return {
    pq: {
      name: `cryptographer.js, ${spec.pqName} + AES-256-GCM only`,
      encrypt(data) {
        const { ciphertext, sharedSecret } = spec.pq.encapsulate(publicKey)
        return Buffer.concat([ciphertext, gcm(keyOf(sharedSecret), data)])
      },
      decrypt: (env) => ungcm(keyOf(spec.pq.decapsulate(env.subarray(0, ctLength), privateKey)), env.subarray(ctLength)),
    },
    aes: {
      name: 'cryptographer.js, AES-256-GCM only (key already shared)',
      encrypt: (data) => gcm(shared, data),
      decrypt: (env) => ungcm(shared, env),
    },
  }
}

/**
 * One call step by step: each component alone and the whole call, side by side (columns "the
 * whole call", "step 1", ...; the row names the steps in order). The finding under the table is
 * the share of the call each step takes; the rest is parsing, checks and copies.
 */
async function steps(h, table, op, whole, parts) {
  const row = `${op}: ${parts.map((p) => p.name).join(' → ')}`
  const r = await h.compare({ table, row }, [{ name: 'the whole call', fn: whole }, ...parts.map((p, i) => ({ name: `step ${i + 1}`, fn: p.fn, ours: true }))], { check: false })
  return r && r.map((x, i) => ({ ...x, step: i ? parts[i - 1].name : 'the whole call' }))
}

function stepsFinding(what, r) {
  const us = (x) => 1e6 / x.opsPerSec
  const [whole, ...parts] = r
  const total = us(whole)
  const sum = parts.reduce((a, p) => a + us(p), 0)
  const share = (t) => `${((100 * t) / total).toFixed(0)} %`
  return (
    `One ${what} takes ${total.toFixed(0)} µs: ${parts.map((p) => `${p.step} ${us(p).toFixed(1)} µs (${share(us(p))})`).join(', ')}` +
    (sum < total ? `; the rest, ${(total - sum).toFixed(1)} µs (${share(total - sum)}), is reading the keys, the checks and the framing.` : '.')
  )
}

async function suiteRows(h, suite) {
  const spec = SUITES[suite]
  const prefix = `Hybrid ${suite}`
  const rsa = suite.startsWith('rsa')
  const { publicKey, privateKey } = await hybrid.generateKeypairAsync({ suite })
  const pub = fieldsOf(publicKey)
  const priv = fieldsOf(privateKey)
  const c = classical(suite)
  const half = halves(spec)

  // Key generation: RSA-4096 takes ~0.5-3 s a key, a prime search whose time varies by nature.
  await h.compare(
    { table: `${prefix}: key generation`, row: 'key pair' },
    [
      { name: 'cryptographer.js (async, components in parallel)', fn: () => hybrid.generateKeypairAsync({ suite }), async: true },
      { name: 'cryptographer.js (sync)', fn: () => hybrid.generateKeypair({ suite }) },
      { name: `cryptographer.js, ${spec.pqName} only`, ours: true, fn: () => spec.pq.generateKeypair() },
    ],
    { check: false, time: rsa ? 20000 : undefined, variable: rsa },
  )

  const opened = (data) => (x) => (x.equals(data) ? 'ok' : 'wrong')
  for (const [op, table] of [
    ['encrypt', `${prefix}: encrypt by message size`],
    ['decrypt', `${prefix}: decrypt by message size`],
  ]) {
    for (const n of SIZES) {
      const data = nodeCrypto.randomBytes(n)
      const ok = opened(data)
      const contestants =
        op === 'encrypt'
          ? [
              { name: 'cryptographer.js', fn: () => hybrid.encrypt(data, publicKey), out: (e) => ok(hybrid.decrypt(e, privateKey)) },
              { name: half.pq.name, fn: () => half.pq.encrypt(data), out: (e) => ok(half.pq.decrypt(e)) },
              { name: half.aes.name, fn: () => half.aes.encrypt(data), out: (e) => ok(half.aes.decrypt(e)) },
              { name: c.name, fn: () => c.encrypt(data), out: (e) => ok(c.decrypt(e)) },
            ]
          : (() => {
              const env = hybrid.encrypt(data, publicKey)
              const [pq, aes, theirs] = [half.pq.encrypt(data), half.aes.encrypt(data), c.encrypt(data)]
              return [
                { name: 'cryptographer.js', fn: () => hybrid.decrypt(env, privateKey), out: ok },
                { name: half.pq.name, fn: () => half.pq.decrypt(pq), out: ok },
                { name: half.aes.name, fn: () => half.aes.decrypt(aes), out: ok },
                { name: c.name, fn: () => c.decrypt(theirs), out: ok },
              ]
            })()
      await h.compare({ table, row: `${op} ${label(n)}` }, contestants, { bytes: n, x: n })
    }
    h.plot({ id: `hybrid-${suite}-${op}`, title: `${prefix}: ${op} throughput by message size`, table, x: 'message size (bytes, log)', y: 'throughput' })
  }

  const msg = nodeCrypto.randomBytes(1024)
  const sig = hybrid.sign(msg, privateKey)
  const theirSig = c.sign(msg)
  const pqSig = spec.mldsa.sign(msg, priv[priv.length - 1])
  const sigTable = `${prefix}: sign and verify 1 KB`
  await h.compare({ table: sigTable, row: 'sign' }, [
    { name: 'cryptographer.js', fn: () => hybrid.sign(msg, privateKey), out: (s) => String(hybrid.verify(msg, publicKey, s)) },
    { name: `cryptographer.js, ${spec.dsaName} only`, ours: true, fn: () => spec.mldsa.sign(msg, priv[priv.length - 1]), out: (s) => String(spec.mldsa.verify(msg, pub[pub.length - 1], s)) },
    { name: c.sigName, fn: () => c.sign(msg), out: (s) => String(c.verify(msg, s)) },
  ])
  await h.compare({ table: sigTable, row: 'verify' }, [
    { name: 'cryptographer.js', fn: () => hybrid.verify(msg, publicKey, sig), out: String },
    { name: `cryptographer.js, ${spec.dsaName} only`, ours: true, fn: () => spec.mldsa.verify(msg, pub[pub.length - 1], pqSig), out: String },
    { name: c.sigName, fn: () => c.verify(msg, theirSig), out: String },
  ])

  // One call of each, step by step (1 KB). The combiner hashes the label, the suite, the secrets,
  // the ciphertexts and the public key's hash; the signers sign label ‖ suite ‖ H(public key) ‖ SHA-512(data).
  const data = nodeCrypto.randomBytes(1024)
  const enc = spec.kems(pub).map((k) => k.fn())
  const cts = enc.map((e) => e.ciphertext || e)
  const combinerInput = Buffer.concat([KEM_LABEL, Buffer.from([spec.id]), ...enc.map(() => Buffer.alloc(32)), ...cts, Buffer.alloc(32)])
  const payloadKey = nodeCrypto.randomBytes(32)
  const aad = Buffer.from(envelopeHead(spec.id))
  const sealed = cipher.aes.encrypt(data, { key: payloadKey, iv: ZERO_NONCE, mode: 'gcm', aad })
  const env = hybrid.encrypt(data, publicKey)
  const signed = Buffer.concat([SIG_LABEL, Buffer.from([spec.id]), Buffer.alloc(32), sha.sha512(data, { outputFormat: 'buffer' })])
  const sigs = spec.signers(priv, signed).map((s) => s.fn())
  const stepTable = `${prefix}: one 1 KB call, step by step (each step alone, timed side by side with the call)`
  const combiner = { name: 'SHA3-256 combiner', fn: () => sha.sha3_256(combinerInput, { outputFormat: 'buffer' }) }
  const findings = []
  const hybridSig = hybrid.sign(data, privateKey)
  const digest = { name: 'SHA-512 of the data', fn: () => sha.sha512(data, { outputFormat: 'buffer' }) }
  const plan = [
    ['encrypt', 'hybrid.encrypt', () => hybrid.encrypt(data, publicKey), [...spec.kems(pub), combiner, { name: 'AES-256-GCM seal', fn: () => cipher.aes.encrypt(data, { key: payloadKey, iv: ZERO_NONCE, mode: 'gcm', aad }) }]],
    ['decrypt', 'hybrid.decrypt', () => hybrid.decrypt(env, privateKey), [...spec.unkems(priv, cts, pub), combiner, { name: 'AES-256-GCM open', fn: () => cipher.aes.decrypt(sealed, { key: payloadKey, iv: ZERO_NONCE, mode: 'gcm', aad }) }]],
    ['sign', 'hybrid.sign', () => hybrid.sign(data, privateKey), [digest, ...spec.signers(priv, signed)]],
    ['verify', 'hybrid.verify', () => hybrid.verify(data, publicKey, hybridSig), [digest, ...spec.verifiers(pub, signed, sigs)]],
  ]
  for (const [op, what, whole, parts] of plan) {
    const r = await steps(h, stepTable, op, whole, parts)
    if (r) findings.push(stepsFinding(what, r))
  }
  if (findings.length) h.note(stepTable, findings.join(' '))

  // Throughput on the pool: k calls in flight at a time (a call of the contestant awaits all k,
  // so its rate counts operations: `ops: k`).
  const small = nodeCrypto.randomBytes(1024)
  const envelope = hybrid.encrypt(small, publicKey)
  const pool = Number(process.env.UV_THREADPOOL_SIZE) || 4
  for (const [what, one] of [
    ['decryptAsync 1 KB', () => hybrid.decryptAsync(envelope, privateKey)],
    ['signAsync 1 KB', () => hybrid.signAsync(small, privateKey)],
  ]) {
    const rows = [1, 2, 4].map((k) => ({
      name: `${k} in flight`,
      fn: () => Promise.all(Array.from({ length: k }, one)).then(() => k),
      async: true,
      ours: true,
      ops: k,
    }))
    await h.compare({ table: `${prefix}: async calls in flight on the libuv pool (operations a second; ${pool} pool threads, ${require('node:os').cpus().length} cores)`, row: what }, rows, { check: false })
  }
}

/** The first 11 bytes of a one-shot envelope: magic, version, suite, form (the payload's aad). */
const envelopeHead = (id) => [...Buffer.from('cjs.henv'), 1, id, 1]

function keygenMemory(h) {
  const rows = []
  for (const suite of hybrid.suites) {
    for (const form of ['sync', 'async']) {
      if (!h.selected({ table: 'Hybrid key generation memory', row: `${suite} ${form}` })) continue
      h.onRow?.(`hybrid key generation memory: ${suite} ${form}`)
      const r = peak('hybridKeygen', { suite, form })
      rows.push([suite, form === 'sync' ? 'generateKeypair' : 'generateKeypairAsync', (r.peak / MiB).toFixed(1), r.ms < 10 ? r.ms.toFixed(2) : r.ms.toFixed(0)])
    }
  }
  if (!rows.length) return
  const most = rows.reduce((a, b) => (Number(b[2]) > Number(a[2]) ? b : a))
  h.table('Hybrid key generation: peak RSS growth of one key pair in a fresh process', ['Suite', 'Call', 'peak RSS growth MiB', 'ms'], rows, {
    finding: `One key pair raises the peak RSS by at most ${most[2]} MiB (${most[0]}, ${most[1]}).`,
  })
}

module.exports = {
  title: 'Hybrid post-quantum',
  async run(h) {
    for (const suite of hybrid.suites) await suiteRows(h, suite)
    keygenMemory(h)
  },
}
