'use strict'
// index.d.ts against the native tables it describes: the hash names, which hashes have HMAC, and
// the AES and DES modes. The types are written by hand, so a row added to src/hash/list.rs or to
// the cipher mode table without its line in index.d.ts fails here.
const test = require('ava')
const path = require('path')
const ts = require('typescript')
const crypto = require('..')

const { sha, hmac, cipher, kem, hybrid } = crypto

const file = path.join(__dirname, '..', 'index.d.ts')
const program = ts.createProgram([file], { strict: true, noEmit: true })
const checker = program.getTypeChecker()
const source = program.getSourceFile(file)

/** The type a top-level interface or type alias of index.d.ts declares. */
function declared(name) {
  let found
  ts.forEachChild(source, (node) => {
    if ((ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) && node.name.text === name) {
      found = checker.getTypeAtLocation(node.name)
    }
  })
  if (!found) throw new Error(`index.d.ts declares no ${name}`)
  return found
}

const keys = (type) => checker.getPropertiesOfType(type).map((p) => p.name).sort()
const literals = (type) => (type.isUnion() ? type.types : [type]).filter((t) => t.isStringLiteral()).map((t) => t.value).sort()

test('index.d.ts: ShaNamespace names every hash of the native list, and no other', (t) => {
  t.deepEqual(keys(declared('ShaNamespace')), Object.keys(sha).sort())
})

test('index.d.ts: HmacNamespace names exactly the hashes that have an HMAC', (t) => {
  t.deepEqual(keys(declared('HmacNamespace')), Object.keys(hmac).sort())
})

test('index.d.ts: AesMode and the DES mode option list exactly the native modes', (t) => {
  t.deepEqual(literals(declared('AesMode')), [...cipher.aes.modes].sort())
  const des = checker.getPropertyOfType(declared('DesOptions'), 'mode')
  t.truthy(des, 'DesOptions has a mode option')
  t.deepEqual(literals(checker.getNonNullableType(checker.getTypeOfSymbolAtLocation(des, source))), [...cipher.des.modes].sort())
})

test('index.d.ts: KemApi names every KEM of the native list, and no other', (t) => {
  t.deepEqual(keys(declared('KemApi')), Object.keys(kem).sort())
  t.deepEqual(keys(declared('KemNamespace')), Object.keys(kem.mlkem768).sort())
})

test('index.d.ts: HybridNamespace names every crypto.hybrid member, HybridSuite every suite', (t) => {
  t.deepEqual(keys(declared('HybridNamespace')), Object.keys(hybrid).sort())
  t.deepEqual(literals(declared('HybridSuite')), [...hybrid.suites].sort())
})

test('index.d.ts: DsaApi names every crypto.dsa member, MlDsaAlgorithm every native ML-DSA set', (t) => {
  const { dsa } = require('..')
  t.deepEqual(keys(declared('DsaApi')), Object.keys(dsa).sort())
  t.deepEqual(literals(declared('MlDsaAlgorithm')), require('../lib/native').mldsaSets().map((s) => s.name).sort())
  t.deepEqual(keys(declared('MlDsaNamespace')), Object.keys(dsa.mldsa65).sort())
})

/** The declared type of `crypto` (the default export). */
function apiType() {
  let found
  ts.forEachChild(source, (node) => {
    if (ts.isVariableStatement(node)) {
      for (const d of node.declarationList.declarations) if (d.name.text === 'crypto') found = checker.getTypeAtLocation(d.name)
    }
  })
  return found
}

/**
 * The paths where the runtime object `value` and its declared `type` disagree: members present on
 * one and not the other, at every depth (functions with members, such as sha.sha256, included;
 * arrays, classes and Buffers are leaves).
 */
function mismatches(value, type, path, out = []) {
  const own = Object.keys(value).filter((k) => k !== 'default')
  const declared = checker.getPropertiesOfType(checker.getNonNullableType(type)).map((p) => p.name)
  for (const k of own) if (!declared.includes(k)) out.push(`${path}.${k}: at run time, not in index.d.ts`)
  for (const k of declared) if (!own.includes(k) && !(k in value)) out.push(`${path}.${k}: in index.d.ts, not at run time`)
  for (const k of own) {
    const v = value[k]
    const leaf = v === null || typeof v !== 'object' && typeof v !== 'function' || Array.isArray(v) || Buffer.isBuffer(v) ||
      (typeof v === 'function' && /^class\b/.test(Function.prototype.toString.call(v)))
    if (leaf || !declared.includes(k) || Object.keys(v).length === 0) continue
    const sym = checker.getPropertyOfType(checker.getNonNullableType(type), k)
    mismatches(v, checker.getTypeOfSymbolAtLocation(sym, source), `${path}.${k}`, out)
  }
  return out
}

test('index.d.ts declares every member of the API, at every depth, and nothing the API lacks', (t) => {
  t.deepEqual(mismatches(crypto, apiType(), 'crypto'), [])
})

test('every Sync name has its Async twin and every Async name its Sync twin (the one naming rule)', (t) => {
  const unpaired = []
  const seen = new Set()
  const walk = (o, path) => {
    if (seen.has(o)) return
    seen.add(o)
    for (const k of Object.keys(o)) {
      const v = o[k]
      if (v === null || (typeof v !== 'object' && typeof v !== 'function') || Array.isArray(v) || Buffer.isBuffer(v)) continue
      const m = /^(.*?)(Sync|Async|sync|async)$/.exec(k)
      if (m && typeof v === 'function') {
        const twin = m[1] + { Sync: 'Async', Async: 'Sync', sync: 'async', async: 'sync' }[m[2]]
        if (!(twin in o)) unpaired.push(`${path}.${k} has no ${twin}`)
      }
      if (typeof v === 'object' || Object.keys(v).length > 0) walk(v, `${path}.${k}`)
    }
  }
  walk(crypto, 'crypto')
  t.deepEqual(unpaired, [])
})

test('index.d.ts: PassphraseSealing names the sealing methods of cipher.aes and cipher.xchacha20; PassphraseKey the key\'s members', (t) => {
  const sealing = keys(declared('PassphraseSealing'))
  t.deepEqual(sealing, ['deriveKeyAsync', 'deriveKeySync', 'openAsync', 'openSync', 'sealAsync', 'sealSync'])
  for (const ns of ['aes', 'xchacha20']) t.deepEqual(Object.keys(cipher[ns]).filter((k) => sealing.includes(k)).sort(), sealing)
  const key = cipher.aes.deriveKeySync('p', { memoryCost: 64, timeCost: 1 })
  const members = Object.getOwnPropertyNames(Object.getPrototypeOf(key)).filter((k) => k !== 'constructor')
  t.deepEqual(keys(declared('PassphraseKey')).filter((k) => !k.startsWith('__@')), members.sort())
  t.is(typeof key[Symbol.dispose], 'function')
  key.dispose()
})
