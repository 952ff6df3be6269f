'use strict'
// The contract between lib/ and the native addon: lib/native.d.ts types exactly the raw exports
// src/lib.rs registers, the constants lib/ reads from nativeContract() are the ones the native
// side acts on, the rules lib/ still applies itself (a cipher's output length) equal their native
// twins, and the types index.d.ts writes for native objects follow the generated ones.
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

test('index.d.ts: CpuPaths and Argon2Info follow the declarations napi-rs generates from the native structs', (t) => {
  const file = path.join(__dirname, 'fixtures', 'types', 'public-native.ts')
  const program = ts.createProgram([file], { strict: true, noEmit: true, types: ['node'] })
  const errors = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))
  t.deepEqual(errors, [])
  // The variant names of Argon2Info are the ones the native parser returns.
  const checker = program.getTypeChecker()
  let variant
  ts.forEachChild(program.getSourceFile(file), (node) => {
    if (ts.isTypeAliasDeclaration(node) && node.name.text === 'Argon2Variant') variant = checker.getTypeAtLocation(node.name)
  })
  t.truthy(variant?.isUnion(), 'Argon2Info.variant is a union of names')
  const names = variant.types.map((v) => v.value).sort()
  t.deepEqual(names, [...native.nativeContract().argon2Variants].sort())
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

test('the output length lib/cipher.js sizes buffers with is the native rule, every mode, both directions, around block boundaries', (t) => {
  const { outputLength } = require('../lib/cipher')
  const c = native.nativeContract()
  const sizes = new Set([0, 1, 15, 16, 17, 31, 32, 33, 4095, 4096, 4097, 65535, 65536, 65537, 2 ** 31 + 3])
  for (let k = 0; k <= 3 * 16 + 1; k++) sizes.add(k)
  let compared = 0
  for (const m of native.cipherModes()) {
    const row = { ...m, aead: m.tagLengths.length > 0 }
    for (const bits of [m.id, m.id | c.cipherOpNoPadding, m.id | c.cipherOpDecrypt, m.id | c.cipherOpDecrypt | c.cipherOpNoPadding]) {
      for (const ivGiven of [false, true]) {
        for (const tag of row.aead ? m.tagLengths : [16]) {
          for (const n of sizes) {
            const expected = native.cipherOutputLength(bits, n, ivGiven, tag)
            if (outputLength(row, bits, n, ivGiven, tag) !== expected) {
              t.fail(`${m.family}-${m.name} op ${bits} n ${n} iv ${ivGiven} tag ${tag}: JS ${outputLength(row, bits, n, ivGiven, tag)}, native ${expected}`)
              return
            }
            compared++
          }
        }
      }
    }
  }
  t.true(compared > 5000, `${compared} cases`)
  // The rule is the one cipher() writes by: AES-CBC pads 16 bytes to 32 behind a generated IV, GCM
  // adds IV and tag, a decryption writes at most the input less both.
  const cbc = native.cipherModes().find((m) => m.family === 'aes' && m.name === 'cbc')
  const gcm = native.cipherModes().find((m) => m.family === 'aes' && m.name === 'gcm')
  t.is(native.cipherOutputLength(cbc.id, 16, false), 16 + 32)
  t.is(native.cipherOutputLength(cbc.id | c.cipherOpNoPadding, 16, true), 16)
  t.is(native.cipherOutputLength(gcm.id, 5, false, 12), 12 + 5 + 12)
  t.is(native.cipherOutputLength(gcm.id | c.cipherOpDecrypt, 20, false), 0)
  const key = Buffer.alloc(16, 1)
  for (const [bits, n] of [[cbc.id, 15], [cbc.id, 16], [gcm.id, 0], [gcm.id, 33]]) {
    const out = Buffer.alloc(native.cipherOutputLength(bits, n, false) + 64)
    t.is(native.cipher(bits, key, null, Buffer.alloc(n), null, out, null), native.cipherOutputLength(bits, n, false))
  }
  t.throws(() => native.cipherOutputLength(0xff, 1, false), { code: 'ERR_INVALID_ARG_VALUE' })
  t.throws(() => native.cipherOutputLength(cbc.id, -1, false), { code: 'ERR_OUT_OF_RANGE' })
})

test('nativeContract(): the Argon2 ids, versions, ceilings and bounds are the ones the native side reads', (t) => {
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
  // The default ceilings on a stored hash's costs: the native parser's, and crypto.password's, read from it.
  t.deepEqual(
    [c.argon2MaxMemoryCost, c.argon2MaxTimeCost, c.argon2MaxParallelism, c.bcryptMaxRounds],
    [2 ** 21, 10, 64, 16],
  )
  t.like(crypto.password.ceilings, {
    maxMemoryCost: c.argon2MaxMemoryCost,
    maxTimeCost: c.argon2MaxTimeCost,
    maxParallelism: c.argon2MaxParallelism,
    maxRounds: c.bcryptMaxRounds,
  })
  const at = (passes) => `$argon2id$v=19$m=64,t=${passes},p=1$c2FsdHNhbHRzYWx0c2FsdA$${'A'.repeat(43)}`
  t.is(crypto.kdf.argon2.parse(at(c.argon2MaxTimeCost)).timeCost, c.argon2MaxTimeCost)
  const passes = `The value of "timeCost" is out of range. It must be <= ${c.argon2MaxTimeCost} for a stored hash (raise options.maxTimeCost to accept it). Received ${c.argon2MaxTimeCost + 1}`
  t.throws(() => crypto.kdf.argon2.parse(at(c.argon2MaxTimeCost + 1)), { instanceOf: RangeError, code: 'ERR_OUT_OF_RANGE', message: passes })
  t.throws(() => crypto.password.parse(at(c.argon2MaxTimeCost + 1)), { instanceOf: RangeError, code: 'ERR_OUT_OF_RANGE', message: passes })
  // The longest stored string the Argon2 parser reads, and crypto.password's bound, read from it.
  t.is(c.maxPhcLength, 4096)
  const params = { variant: 'argon2id', salt: Buffer.alloc(16, 7), memoryCost: 64, timeCost: 1, parallelism: 1 }
  const phc = crypto.kdf.argon2Sync('password', params)
  const longest = phc + '$'.repeat(c.maxPhcLength - phc.length)
  const tooLong = longest + '$'
  const refused = / Received a string of 4097 characters \(at most 4096\)$/
  t.throws(() => crypto.kdf.argon2.parse(tooLong), { instanceOf: TypeError, code: 'ERR_INVALID_ARG_VALUE', message: refused })
  t.throws(() => crypto.password.parse(tooLong), { instanceOf: TypeError, code: 'ERR_INVALID_ARG_VALUE', message: refused })
  // One character less is read, and refused for what it holds (the '$' fields), not for its length.
  const extra = / Received extra '\$' fields$/
  t.throws(() => crypto.kdf.argon2.parse(longest), { instanceOf: TypeError, code: 'ERR_INVALID_ARG_VALUE', message: extra })
  t.throws(() => crypto.password.parse(longest), { instanceOf: TypeError, code: 'ERR_INVALID_ARG_VALUE', message: extra })
})

test('scrypt: the memory rule and default maxmem lib/ reads are the ones kdf.scrypt refuses by', (t) => {
  const c = native.nativeContract()
  t.is(c.scryptMaxmem, 32 * 2 ** 20) // Node's default
  // RFC 7914 and Node: V is N blocks of 128·r bytes, B p of them, X and Y two more.
  for (const [N, r, p] of [[2, 1, 1], [1024, 8, 16], [2 ** 14, 8, 1], [2 ** 17, 8, 1], [2 ** 20, 1, 3]]) {
    t.is(native.scryptMemory(N, r, p), 128 * r * (N + 2 + p), `N ${N} r ${r} p ${p}`)
  }
  t.is(native.scryptMemory(2 ** 40, 2 ** 29, 1), 2 ** 64, 'saturates past 2^64')
  // The default maxmem: N = 2^14 r = 8 fits, N = 2^15 does not (as in Node).
  const o = { salt: 's', r: 8, p: 1, keyLength: 16, outputFormat: 'buffer' }
  t.true(native.scryptMemory(2 ** 14, 8, 1) <= c.scryptMaxmem)
  t.is(crypto.kdf.scrypt('pw', { ...o, N: 2 ** 14 }).length, 16)
  t.true(native.scryptMemory(2 ** 15, 8, 1) > c.scryptMaxmem)
  t.throws(() => crypto.kdf.scrypt('pw', { ...o, N: 2 ** 15 }), { instanceOf: RangeError, code: 'ERR_OUT_OF_RANGE', message: /maxmem/ })
  // A stored hash is refused by the same rule before any work, saying how to accept it.
  const need = native.scryptMemory(2 ** 10, 8, 1)
  const stored = crypto.password.hashSync('pw', { policy: crypto.password.createPolicy({ algorithm: 'scrypt', scrypt: { N: 2 ** 10, r: 8, p: 1 } }) })
  t.is(crypto.password.parse(stored, { maxmem: need }).params.N, 2 ** 10)
  t.throws(() => crypto.password.parse(stored, { maxmem: need - 1 }), {
    instanceOf: RangeError,
    code: 'ERR_OUT_OF_RANGE',
    message: `The value of "maxmem" is out of range. It must be >= 128 * r * (N + 2 + p) = ${need} bytes for this stored hash (raise options.maxmem to accept it). Received ${need - 1}`,
  })
})

test('scrypt: the parameter limits crypto.password checks are the ones kdf.scrypt refuses by (r·p < 2^30, N < 2^(16·r))', (t) => {
  // RFC 7914 §2 at both sides of each bound.
  t.is(native.scryptLimit(2 ** 15, 1, 1), null)
  t.is(native.scryptLimit(2 ** 16, 1, 1), 'N')
  t.is(native.scryptLimit(2 ** 47, 3, 1), null)
  t.is(native.scryptLimit(2 ** 48, 3, 1), 'N')
  t.is(native.scryptLimit(2 ** 52, 4, 1), null)
  t.is(native.scryptLimit(2, 2 ** 15, 2 ** 15 - 1), null)
  t.is(native.scryptLimit(2, 2 ** 15, 2 ** 15), 'r * p')
  t.is(native.scryptLimit(2 ** 16, 1, 2 ** 30), 'r * p')
  // kdf.scrypt (with maxmem 0, so that parameters it accepts are refused for memory before any
  // work), a policy and a stored hash refuse the same parameters for the same limit.
  const hash = Buffer.alloc(32, 3).toString('base64').replace(/=+$/, '')
  const limits = { maxmem: Infinity, maxScryptWork: Number.MAX_SAFE_INTEGER, maxParallelism: 0xffffff }
  const refusal = (f) => {
    try {
      f()
      return null
    } catch (e) {
      return e
    }
  }
  const seen = new Set()
  for (const ln of [1, 15, 16, 17, 31, 32]) {
    for (const r of [1, 2, 3, 4, 8, 2 ** 15, 2 ** 30 - 1, 2 ** 30]) {
      for (const p of [1, 2, 2 ** 15 - 1, 2 ** 15, 2 ** 24 - 1]) {
        const [N, at] = [2 ** ln, `N 2^${ln} r ${r} p ${p}`]
        const broken = native.scryptLimit(N, r, p)
        seen.add(broken)
        const e = refusal(() => crypto.kdf.scrypt('pw', { salt: 's', N, r, p, keyLength: 16, maxmem: 0 }))
        t.is(e?.code, 'ERR_OUT_OF_RANGE', at)
        t.true(e?.message.startsWith(`The value of "${broken ?? 'maxmem'}" is out of range.`), `${at}: ${e?.message}`)
        const policy = refusal(() => crypto.password.createPolicy({ algorithm: 'scrypt', scrypt: { N, r, p } }))
        const name = { 'r * p': 'policy.scrypt.p', N: 'policy.scrypt.N' }[broken]
        t.is(policy === null ? null : policy.message.startsWith(`The value of "${name}" is out of range.`), broken && true, `${at}: ${policy?.message}`)
        const stored = refusal(() => crypto.password.parse(`$scrypt$ln=${ln},r=${r},p=${p}$c2FsdHNhbHQ$${hash}`, limits))
        // (One within the limits may still be over a ceiling: refused, but not as invalid.)
        const invalid = `Received N = ${N}, r = ${r}, p = ${p} (not valid scrypt parameters)`
        t.is(Boolean(stored?.message.endsWith(invalid)), broken !== null, `${at}: ${stored?.message}`)
      }
    }
  }
  t.deepEqual([...seen].sort(), ['N', 'r * p', null].sort())
})
