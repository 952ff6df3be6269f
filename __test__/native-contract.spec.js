'use strict'
// The contract between lib/ and the native addon: lib/native.d.ts types exactly the raw exports
// src/lib.rs registers, the constants lib/ reads from nativeContract() are the ones the native
// side acts on, and the one value lib/ still spells out itself equals its native twin.
const test = require('ava')
const fs = require('fs')
const path = require('path')
const ts = require('typescript')
const native = require('../lib/native')
const crypto = require('..')

const root = path.join(__dirname, '..')
const dts = path.join(root, 'lib', 'native.d.ts')

test('lib/native.d.ts compiles under --strict', (t) => {
  const program = ts.createProgram([dts], { strict: true, noEmit: true, types: ['node'] })
  const errors = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))
  t.deepEqual(errors, [])
})

test('RawExports in lib/native.d.ts names exactly the raw exports of src/lib.rs, each a native function', (t) => {
  const lib = fs.readFileSync(path.join(root, 'src', 'lib.rs'), 'utf8')
  const registered = [...lib.matchAll(/\(c"(\w+)",/g)].map((m) => m[1]).sort()
  t.true(registered.length >= 16, `found ${registered.length} raw exports in src/lib.rs`)
  const source = ts.createSourceFile(dts, fs.readFileSync(dts, 'utf8'), ts.ScriptTarget.Latest)
  let typed
  const visit = (node) => {
    if (ts.isInterfaceDeclaration(node) && node.name.text === 'RawExports') {
      typed = [...new Set(node.members.map((m) => m.name.text))].sort()
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  t.deepEqual(typed, registered)
  for (const name of registered) t.is(typeof native[name], 'function', name)
})

test('nativeContract(): the cipher op bits and families are the ones cipher() acts on', (t) => {
  const c = native.nativeContract()
  t.deepEqual(c.cipherFamilies, ['aes', 'chacha20', 'des'])
  for (const m of native.cipherModes()) t.true(c.cipherFamilies.includes(m.family), m.name)
  // Above the mode id byte, distinct.
  t.true(c.cipherOpDecrypt > 0xff && c.cipherOpNoPadding > 0xff && c.cipherOpDecrypt !== c.cipherOpNoPadding)
  const cbc = native.cipherModes().find((m) => m.family === 'aes' && m.name === 'cbc')
  const key = Buffer.alloc(16, 1)
  const iv = Buffer.alloc(16, 2)
  const data = Buffer.alloc(32, 3)
  // Without padding, 32 bytes encrypt to 32 and decrypt back; with it, to 48.
  const sealed = Buffer.alloc(48)
  t.is(native.cipher(cbc.id | c.cipherOpNoPadding, key, iv, data, null, sealed, null), 32)
  const opened = Buffer.alloc(32)
  t.is(native.cipher(cbc.id | c.cipherOpNoPadding | c.cipherOpDecrypt, key, iv, sealed.subarray(0, 32), null, opened, null), 32)
  t.deepEqual(opened, data)
  t.is(native.cipher(cbc.id, key, iv, data, null, sealed, null), 48)
  // A kept key of each family by its id; an id past the list is refused.
  c.cipherFamilies.forEach((family, id) => {
    const mode = native.cipherModes().find((m) => m.family === family)
    t.truthy(native.cipherKey(id, Buffer.alloc(mode.keyLengths[0], 1)), family)
  })
  t.throws(() => native.cipherKey(c.cipherFamilies.length, key), { code: 'ERR_INVALID_ARG_VALUE' })
})

test('nativeContract(): the Argon2 ids, versions and bounds are the ones the native side reads', (t) => {
  const c = native.nativeContract()
  t.deepEqual(c.argon2Variants, ['argon2d', 'argon2i', 'argon2id'])
  t.deepEqual(c.argon2Versions, [0x13, 0x10])
  t.is(c.maxOutputLength, 2 ** 30)
  // Each variant id hashes as the variant the PHC string then names.
  c.argon2Variants.forEach((name, variant) => {
    const phc = crypto.kdf.argon2Sync('password', { variant: name, salt: Buffer.alloc(16, 7), memoryCost: 64, timeCost: 1, parallelism: 1 })
    t.true(phc.startsWith(`$${name}$v=19$`), phc)
    t.is(crypto.kdf.argon2.parse(phc).variant, name, `id ${variant}`)
  })
  // The longest stored string the parser reads, and lib/password's copy of it.
  t.is(c.maxPhcLength, 4096)
  const stored = fs.readFileSync(path.join(root, 'lib', 'password', 'stored.js'), 'utf8')
  t.is(Number(/const MAX_STORED = (\d+)/.exec(stored)[1]), c.maxPhcLength)
})
