'use strict'
// crypto.cipher.age: round trips, the C2SP test kit through the public API, files the reference
// tools made (committed, __test__/vectors/age/tools), the refusals (wrong passphrase, damaged,
// cut and extended files, work factors above the ceiling, bad options), cancellation, files on
// disk (encryptFile / decryptFile), and live interop with the `age` CLI (Go, the reference) and
// rage (Rust, through pyrage) both ways.
//
// The tools are driven by helpers/age-interop.py, run by the Python found in $AGE_INTEROP_PYTHON,
// target/age-venv (which .ci/run creates from scripts/age-interop-requirements.txt), python3 or
// python. A missing tool skips its half with a message saying what was not checked; with
// AGE_INTEROP_REQUIRED=1 (set by .ci/run once both installed) it fails instead.
const test = require('ava')
const fs = require('node:fs')
const path = require('node:path')
const zlib = require('node:zlib')
const nodeCrypto = require('node:crypto')
const os = require('node:os')
const { spawn, spawnSync } = require('node:child_process')
const crypto = require('..')
const { cipher } = crypto
const { pythonCandidates } = require('./helpers/python')

const { age } = cipher
const VECTORS = path.join(__dirname, 'vectors', 'age')
const FAILED = { instanceOf: Error, code: 'ERR_CRYPTO_DECRYPT_FAILED' }
const MALFORMED = { instanceOf: TypeError, code: 'ERR_INVALID_ARG_VALUE' }
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
const sha256 = (b) => nodeCrypto.createHash('sha256').update(b).digest('hex')
// Interop sizes: empty, one byte, one chunk (64 KiB) ± 1, and a few hundred KiB.
const SIZES = [0, 1, 65535, 65536, 65537, 300000]
// Cheap scrypt for the files this suite makes (the tools' own files use their defaults, 18-19).
const FAST = 4

// ---- round trips and the format --------------------------------------------------------------

test('round trips, sync and async, binary and armored, sizes around the 64 KiB chunk', async (t) => {
  for (const n of [...SIZES, 3 * 65536]) {
    const data = nodeCrypto.randomBytes(n)
    for (const armor of [false, true]) {
      const file = age.encryptSync(data, { passphrase: 'pw', workFactor: FAST, armor })
      t.is(typeof file, armor ? 'string' : 'object')
      t.deepEqual(age.decryptSync(file, { passphrase: 'pw' }), data, `${n} ${armor}`)
      const again = await age.encrypt(data, { passphrase: 'pw', workFactor: FAST, armor })
      t.deepEqual(await age.decrypt(again, { passphrase: 'pw' }), data, `${n} ${armor} async`)
      // Random salt, file key and nonce: two encryptions differ.
      t.notDeepEqual(again, file)
    }
  }
})

test('the layout: version line, one scrypt stanza with the work factor, the MAC line, 16-byte nonce, one tag per chunk', (t) => {
  for (const n of [0, 1, 65536, 65537]) {
    const file = age.encryptSync(Buffer.alloc(n, 1), { passphrase: 'pw', workFactor: 7 })
    const text = file.toString('latin1')
    const m = /^age-encryption\.org\/v1\n-> scrypt ([A-Za-z0-9+/]{22}) 7\n([A-Za-z0-9+/]{43})\n--- ([A-Za-z0-9+/]{43})\n/.exec(text)
    t.truthy(m, text.slice(0, 200))
    const chunks = Math.max(1, Math.ceil(n / 65536))
    t.is(file.length - m[0].length, 16 + n + 16 * chunks)
  }
  t.is(age.defaults.workFactor, 18)
  // Decrypting: files above 2^19 (512 MiB of scrypt memory) are refused by default.
  t.is(age.defaults.maxWorkFactor, 19)
  // The default work factor is age's 18.
  t.regex(age.encryptSync('x', { passphrase: 'pw' }).toString('latin1'), /^age-encryption\.org\/v1\n-> scrypt \S+ 18\n/)
})

test('armor: the PEM lines of 64 columns, LF or CRLF, whitespace around it', (t) => {
  const data = nodeCrypto.randomBytes(500)
  const text = age.encryptSync(data, { passphrase: 'pw', workFactor: FAST, armor: true })
  const lines = text.split('\n')
  t.is(lines[0], '-----BEGIN AGE ENCRYPTED FILE-----')
  t.is(lines.at(-2), '-----END AGE ENCRYPTED FILE-----')
  t.is(lines.at(-1), '')
  t.true(lines.slice(1, -3).every((l) => l.length === 64))
  const bin = Buffer.from(lines.slice(1, -2).join(''), 'base64')
  t.true(bin.toString('latin1').startsWith('age-encryption.org/v1\n'))
  t.deepEqual(age.decryptSync(bin, { passphrase: 'pw' }), data)
  t.deepEqual(age.decryptSync(text.replace(/\n/g, '\r\n'), { passphrase: 'pw' }), data)
  t.deepEqual(age.decryptSync(` \n\t${text}\n\n `, { passphrase: 'pw' }), data)
  // Inside the block, strictness: a space, a short line, a missing end line.
  t.throws(() => age.decryptSync(text.replace('\n', '\n '), { passphrase: 'pw' }), MALFORMED)
  t.throws(() => age.decryptSync(text.replace(/\n([A-Za-z0-9+/]{10})/, '\n$1\n'), { passphrase: 'pw' }), MALFORMED)
  t.throws(() => age.decryptSync(text.replace('-----END AGE ENCRYPTED FILE-----\n', ''), { passphrase: 'pw' }), {
    ...MALFORMED,
    message: /armor/,
  })
})

test('inputs: strings (UTF-8), every view, ArrayBuffer; passphrases as strings or bytes; outputFormat', (t) => {
  const file = age.encryptSync('héllo', { passphrase: Buffer.from('pässwörd'), workFactor: FAST })
  const u8 = new Uint8Array(file)
  for (const input of [file, u8, new DataView(u8.buffer), u8.buffer, new Uint16Array(u8.buffer, 0, u8.length >> 1).length * 2 === u8.length ? new Uint16Array(u8.buffer) : file]) {
    t.is(age.decryptSync(input, { passphrase: 'pässwörd', outputFormat: 'utf8' }), 'héllo')
  }
  t.is(age.decryptSync(file, { passphrase: 'pässwörd', outputFormat: 'hex' }), Buffer.from('héllo').toString('hex'))
  t.is(age.decryptSync(file, { passphrase: new TextEncoder().encode('pässwörd'), outputFormat: 'base64' }), Buffer.from('héllo').toString('base64'))
})

// ---- refusals ---------------------------------------------------------------------------------

test('every failure to decrypt is one ERR_CRYPTO_DECRYPT_FAILED: wrong passphrase, flipped bits, cut, extended', (t) => {
  const data = nodeCrypto.randomBytes(70000)
  const file = age.encryptSync(data, { passphrase: 'right', workFactor: FAST })
  const headerEnd = file.indexOf('\n---') + 49 // '\n--- ' + 43 + '\n'
  t.throws(() => age.decryptSync(file, { passphrase: 'wrong' }), { ...FAILED, message: 'Unsupported state or unable to authenticate data' })
  // A flipped bit in the stanza body, the MAC, the nonce, each chunk and each tag.
  const mac = file.indexOf('--- ') + 4
  for (const at of [file.indexOf('\n', 30) + 3, mac + 5, headerEnd + 3, headerEnd + 16 + 100, headerEnd + 16 + 65536 + 5, file.length - 20, file.length - 1]) {
    const bad = Buffer.from(file)
    // Inside the header text, the next base64 digit (a flipped bit can leave the alphabet:
    // '+' ^ 1 is '*', a malformed header rather than a failed MAC); a flipped bit after it.
    bad[at] = at < headerEnd ? B64.charCodeAt((B64.indexOf(String.fromCharCode(bad[at])) + 1) % 64) : bad[at] ^ 1
    t.throws(() => age.decryptSync(bad, { passphrase: 'right' }), FAILED, `byte ${at}`)
  }
  for (const cut of [headerEnd, headerEnd + 15, headerEnd + 16, headerEnd + 16 + 65536 + 16, file.length - 1]) {
    t.throws(() => age.decryptSync(file.subarray(0, cut), { passphrase: 'right' }), FAILED, `cut at ${cut}`)
  }
  t.throws(() => age.decryptSync(Buffer.concat([file, Buffer.from([0])]), { passphrase: 'right' }), FAILED)
})

test('work factors above maxWorkFactor are refused before any scrypt work (RangeError)', (t) => {
  const file = age.encryptSync('x', { passphrase: 'pw', workFactor: 12 })
  t.throws(() => age.decryptSync(file, { passphrase: 'pw', maxWorkFactor: 11 }), {
    instanceOf: RangeError,
    code: 'ERR_OUT_OF_RANGE',
    message: /maxWorkFactor/,
  })
  t.is(age.decryptSync(file, { passphrase: 'pw', maxWorkFactor: 12, outputFormat: 'utf8' }), 'x')
  // A hostile header claiming N = 2^30 (128 GiB of scrypt memory): refused at the default ceiling
  // with the work-factor error, not after an attempt to allocate the memory.
  const hostile = Buffer.from(file.toString('latin1').replace(/ 12\n/, ' 30\n'), 'latin1')
  t.throws(() => age.decryptSync(hostile, { passphrase: 'pw' }), { instanceOf: RangeError, code: 'ERR_OUT_OF_RANGE', message: /Received 30/ })
  t.throws(() => age.decryptSync(hostile, { passphrase: 'pw', maxWorkFactor: 31 }), { instanceOf: RangeError, code: 'ERR_OUT_OF_RANGE', message: /maxWorkFactor/ })
  // Work factors 20 to 22 (1 to 4 GiB, age's own ceiling) are refused by default, before any
  // scrypt work, naming the option that raises the ceiling.
  for (const n of [20, 22]) {
    const file20 = Buffer.from(file.toString('latin1').replace(/ 12\n/, ` ${n}\n`), 'latin1')
    t.throws(() => age.decryptSync(file20, { passphrase: 'pw' }), {
      instanceOf: RangeError,
      code: 'ERR_OUT_OF_RANGE',
      message: new RegExp(`It must be <= 19 \\(raise options\\.maxWorkFactor to accept it.*Received ${n}$`),
    })
  }
})

test('malformed files: TypeError ERR_INVALID_ARG_VALUE saying what is wrong', (t) => {
  const file = age.encryptSync('x', { passphrase: 'pw', workFactor: FAST }).toString('latin1')
  const cases = {
    'not an age file': 'hello world',
    'another version': file.replace('/v1', '/v2'),
    'CRLF header': file.replace('\n', '\r\n'),
    'padded base64 salt': file.replace(/(-> scrypt \S+)/, '$1=='),
    'leading zero work factor': file.replace(/ 4\n/, ' 04\n'),
    'extra argument': file.replace(/ 4\n/, ' 4 x\n'),
    'second stanza': file.replace('---', '-> X25519 abc\nAAAA\n---'),
    'no MAC line': file.slice(0, file.indexOf('---')),
  }
  for (const [name, text] of Object.entries(cases)) {
    t.throws(() => age.decryptSync(Buffer.from(text, 'latin1'), { passphrase: 'pw' }), MALFORMED, name)
  }
})

test('bad options are refused with clear errors, synchronously and as rejections', async (t) => {
  const sync = [
    [() => age.encryptSync('x'), { code: 'ERR_INVALID_ARG_TYPE' }],
    [() => age.encryptSync('x', {}), { code: 'ERR_INVALID_ARG_TYPE', message: /options\.passphrase/ }],
    [() => age.encryptSync('x', { passphrase: '' }), { code: 'ERR_INVALID_ARG_VALUE', message: /non-empty/ }],
    [() => age.encryptSync('x', { passphrase: 'p', workFactor: 0 }), { code: 'ERR_OUT_OF_RANGE' }],
    [() => age.encryptSync('x', { passphrase: 'p', workFactor: 31 }), { code: 'ERR_OUT_OF_RANGE' }],
    [() => age.encryptSync('x', { passphrase: 'p', workFactor: 1.5 }), { code: 'ERR_OUT_OF_RANGE' }],
    [() => age.encryptSync('x', { passphrase: 'p', armor: 'yes' }), { code: 'ERR_INVALID_ARG_TYPE' }],
    [() => age.encryptSync('x', { passphrase: 'p', key: 'k' }), { code: 'ERR_INVALID_ARG_VALUE', message: /options\.key/ }],
    [() => age.encryptSync(42, { passphrase: 'p' }), { code: 'ERR_INVALID_ARG_TYPE', message: /"data"/ }],
    [() => age.decryptSync('x', { passphrase: 'p', maxWorkFactor: 0 }), { code: 'ERR_OUT_OF_RANGE' }],
    [() => age.decryptSync('x', { passphrase: 'p', outputFormat: 'latin9' }), { code: 'ERR_INVALID_ARG_VALUE' }],
    [() => age.decryptSync('x', { passphrase: 'p', armor: true }), { code: 'ERR_INVALID_ARG_VALUE', message: /options\.armor/ }],
    [() => age.decryptSync('x', { passphrase: 7 }), { code: 'ERR_INVALID_ARG_TYPE' }],
  ]
  for (const [f, expected] of sync) t.throws(f, expected)
  await t.throwsAsync(age.encrypt('x', { passphrase: '' }), { code: 'ERR_INVALID_ARG_VALUE' })
  await t.throwsAsync(age.decrypt('x', { passphrase: 'p', maxWorkFactor: 99 }), { code: 'ERR_OUT_OF_RANGE' })
  await t.throwsAsync(age.encrypt('x', { passphrase: 'p', signal: 'no' }), { code: 'ERR_INVALID_ARG_TYPE' })
  await t.throwsAsync(age.decrypt('garbage', { passphrase: 'p' }), MALFORMED)
  await t.throwsAsync(age.decrypt(age.encryptSync('x', { passphrase: 'a', workFactor: FAST }), { passphrase: 'b' }), FAILED)
})

test('signal: an aborted signal rejects at once; aborting running scrypt work stops it with an AbortError', async (t) => {
  await t.throwsAsync(age.encrypt('x', { passphrase: 'p', signal: AbortSignal.abort() }), { name: 'AbortError', code: 'ABORT_ERR' })
  const file = age.encryptSync('x', { passphrase: 'p', workFactor: FAST })
  await t.throwsAsync(age.decrypt(file, { passphrase: 'p', signal: AbortSignal.abort() }), { name: 'AbortError' })
  // N = 2^18 takes far longer than the 30 ms before the abort; it stops within milliseconds.
  const ctl = new AbortController()
  const running = age.encrypt('x', { passphrase: 'p', workFactor: 18, signal: ctl.signal })
  setTimeout(() => ctl.abort(), 30)
  await t.throwsAsync(running, { name: 'AbortError', code: 'ABORT_ERR' })
})

test('async inputs are copied at call time: changing them afterwards changes nothing', async (t) => {
  const data = Buffer.alloc(100000, 7)
  const pass = Buffer.from('passphrase')
  const p = age.encrypt(data, { passphrase: pass, workFactor: FAST })
  data.fill(1)
  pass.fill(0x41)
  t.deepEqual(age.decryptSync(await p, { passphrase: 'passphrase' }), Buffer.alloc(100000, 7))
  const file = age.encryptSync('same', { passphrase: 'k', workFactor: FAST })
  const q = age.decrypt(file, { passphrase: 'k', outputFormat: 'utf8' })
  file.fill(0)
  t.is(await q, 'same')
})

// ---- the C2SP test kit ---------------------------------------------------------------------------

/** The test kit's vectors: fields, then the file (zlib-inflated when marked so). */
function testkit() {
  const dir = path.join(VECTORS, 'testkit')
  return fs.readdirSync(dir).sort().map((name) => {
    const raw = fs.readFileSync(path.join(dir, name))
    const split = raw.indexOf('\n\n')
    const fields = {}
    for (const line of raw.subarray(0, split).toString('utf8').split('\n')) {
      const i = line.indexOf(': ')
      fields[line.slice(0, i)] ??= line.slice(i + 2)
    }
    let file = raw.subarray(split + 2)
    if (fields.compressed === 'zlib') file = zlib.inflateSync(file)
    return { name, fields, file }
  })
}

test('C2SP test kit: every vector through decryptSync with its passphrase (or any), the expected outcome class', (t) => {
  const vectors = testkit()
  t.true(vectors.length >= 140)
  let n = 0
  for (const { name, fields, file } of vectors) {
    const { expect, passphrase } = fields
    let result
    try {
      result = { ok: age.decryptSync(file, { passphrase: passphrase ?? 'not the key' }) }
    } catch (e) {
      result = { error: e }
    }
    const e = result.error
    if (passphrase !== undefined) {
      // The passphrase vectors: the full expectation.
      if (expect === 'success') t.is(sha256(result.ok), fields.payload, name)
      else if (expect === 'header failure') t.true(e && ['ERR_INVALID_ARG_VALUE', 'ERR_OUT_OF_RANGE'].includes(e.code), `${name}: ${e && e.message}`)
      else t.is(e && e.code, 'ERR_CRYPTO_DECRYPT_FAILED', `${name}: ${e && e.message}`)
    } else if (/^(x25519|hybrid)/.test(name) || !['armor failure', 'header failure'].includes(expect) || /^stream_(no|short)_nonce$/.test(name)) {
      // Files for X25519 / ML-KEM keys: no passphrase opens them; those whose header parses say
      // they have no scrypt stanza; a cut nonce is a truncated file.
      t.truthy(e, name)
      if (e.code === 'ERR_CRYPTO_DECRYPT_FAILED') {
        if (!name.endsWith('_nonce')) t.regex(e.message, /no scrypt stanza/, name)
      } else {
        t.is(e.code, 'ERR_INVALID_ARG_VALUE', `${name}: ${e.message}`)
        t.regex(name, /not_canonical_body|^armor_garbage_leading$/, `${name}: only generic format failures are TypeErrors here`)
      }
    } else {
      // Armor and header failures of the generic format: refused as malformed, whatever the key.
      t.true(e instanceof TypeError && e.code === 'ERR_INVALID_ARG_VALUE', `${name}: ${e && e.message}`)
      t.regex(e.message, expect === 'armor failure' && name !== 'armor_garbage_leading' ? /armor/ : /header/, name)
    }
    n++
  }
  t.is(n, vectors.length)
})

// ---- files the reference tools made (committed) ------------------------------------------------

/** The plaintext rules of scripts/gen-age-fixtures.py. */
function plaintext(rule, size) {
  if (rule === 'bytes') return Buffer.from(Array.from({ length: size }, (_, i) => (31 * i + 7) % 256))
  const sentence = 'age interop: the quick brown fox jumps over the lazy dog. '
  return Buffer.from(sentence.repeat(Math.floor(size / sentence.length) + 1)).subarray(0, size)
}

test('files made by the age CLI and by rage (committed) open here', async (t) => {
  const dir = path.join(VECTORS, 'tools')
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8'))
  t.true(manifest.files.length >= 5)
  const tools = new Set()
  for (const f of manifest.files) {
    const file = fs.readFileSync(path.join(dir, f.file))
    const expected = plaintext(f.plaintext.rule, f.plaintext.size)
    t.is(sha256(expected), f.plaintext.sha256, f.file)
    t.deepEqual(await age.decrypt(f.armored ? file.toString('utf8') : file, { passphrase: f.passphrase }), expected, f.file)
    // A wrong passphrase once per tool (each try is a full scrypt at the tool's work factor).
    if (![...tools].some((x) => x.startsWith(f.tool))) await t.throwsAsync(age.decrypt(file, { passphrase: `${f.passphrase}!` }), FAILED)
    tools.add(`${f.tool} ${f.armored ? 'armored' : 'binary'}`)
  }
  t.is(tools.size, 4)
})

// ---- files on disk: encryptFile / decryptFile --------------------------------------------------

const DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'cryptographer-age-'))
const BIG_DIR = fs.existsSync('/dev/shm') ? fs.mkdtempSync('/dev/shm/cryptographer-age-') : DIR
test.after.always(() => {
  fs.rmSync(DIR, { recursive: true, force: true })
  fs.rmSync(BIG_DIR, { recursive: true, force: true })
})
let dirs = 0
/** A new empty directory, and a function from names to paths in it. */
function freshDir(base = DIR) {
  const dir = fs.mkdtempSync(path.join(base, `d${dirs++}-`))
  return [dir, (n) => path.join(dir, n)]
}
const MiB = 1024 * 1024

test('encryptFile / decryptFile round trip at 0, 1, 64 KiB ± 1, 300000 bytes; the file opens with the in-memory decrypt', async (t) => {
  const [dir, p] = freshDir()
  for (const n of SIZES) {
    const data = nodeCrypto.randomBytes(n)
    fs.writeFileSync(p('plain'), data)
    const sealed = await age.encryptFile(p('plain'), p('sealed'), { passphrase: 'pw', workFactor: FAST })
    const file = fs.readFileSync(p('sealed'))
    const chunks = Math.max(1, Math.ceil(n / 65536))
    t.is(sealed.bytes, file.length, `${n}`)
    t.regex(file.toString('latin1'), /^age-encryption\.org\/v1\n-> scrypt \S{22} 4\n\S{43}\n--- \S{43}\n/)
    t.is(file.length - (file.indexOf('\n---') + 49), 16 + n + 16 * chunks, `${n}: nonce, payload, one tag per chunk`)
    t.deepEqual(await age.decrypt(file, { passphrase: 'pw' }), data, `${n}: in-memory decrypt`)
    t.deepEqual(await age.decryptFile(p('sealed'), p('out'), { passphrase: 'pw' }), { bytes: n })
    t.deepEqual(fs.readFileSync(p('out')), data, `${n}: decryptFile`)
    // And a file the in-memory encrypt made opens with decryptFile.
    fs.writeFileSync(p('mem'), age.encryptSync(data, { passphrase: 'pw', workFactor: FAST }))
    await age.decryptFile(p('mem'), p('out2'), { passphrase: 'pw' })
    t.deepEqual(fs.readFileSync(p('out2')), data, `${n}: in-memory file through decryptFile`)
  }
  t.deepEqual(fs.readdirSync(dir).sort(), ['mem', 'out', 'out2', 'plain', 'sealed'])
  if (process.platform !== 'win32') t.is(fs.statSync(p('sealed')).mode & 0o777, 0o600)
})

test('binary files made by the age CLI and by rage (committed) open with decryptFile; their armored ones are refused', async (t) => {
  const [dir, p] = freshDir()
  const tools = path.join(VECTORS, 'tools')
  const manifest = JSON.parse(fs.readFileSync(path.join(tools, 'manifest.json'), 'utf8'))
  const binary = manifest.files.filter((f) => !f.armored)
  t.true(binary.length >= 3)
  for (const f of binary) {
    const expected = plaintext(f.plaintext.rule, f.plaintext.size)
    t.deepEqual(await age.decryptFile(path.join(tools, f.file), p('out'), { passphrase: f.passphrase }), { bytes: expected.length })
    t.deepEqual(fs.readFileSync(p('out')), expected, f.file)
  }
  for (const f of manifest.files.filter((x) => x.armored)) {
    await t.throwsAsync(age.decryptFile(path.join(tools, f.file), p('armored'), { passphrase: f.passphrase }), {
      ...MALFORMED,
      message: /binary age file.*cipher\.age\.decrypt in memory for armored files/,
    })
  }
  t.deepEqual(fs.readdirSync(dir), ['out'])
})

test('decryptFile failures are ERR_CRYPTO_DECRYPT_FAILED and leave no dst, no temporary file, an existing dst untouched', async (t) => {
  const [dir, p] = freshDir()
  const data = nodeCrypto.randomBytes(150000)
  fs.writeFileSync(p('plain'), data)
  await age.encryptFile(p('plain'), p('sealed'), { passphrase: 'right', workFactor: FAST })
  const file = fs.readFileSync(p('sealed'))
  const headerEnd = file.indexOf('\n---') + 49
  const flipped = Buffer.from(file)
  flipped[headerEnd + 16 + 70000] ^= 1
  const cases = {
    'wrong passphrase': [file, 'wrong'],
    'cut by one byte': [file.subarray(0, file.length - 1)],
    'cut at a chunk boundary': [file.subarray(0, headerEnd + 16 + 65536 + 16)],
    'cut inside the nonce': [file.subarray(0, headerEnd + 8)],
    'a trailing byte': [Buffer.concat([file, Buffer.from([0])])],
    'a flipped bit in the second chunk': [flipped],
  }
  for (const [what, [bytes, passphrase = 'right']] of Object.entries(cases)) {
    fs.writeFileSync(p('bad'), bytes)
    await t.throwsAsync(age.decryptFile(p('bad'), p('new'), { passphrase }), FAILED, what)
    fs.writeFileSync(p('dst'), 'precious')
    await t.throwsAsync(age.decryptFile(p('bad'), p('dst'), { passphrase }), FAILED, what)
    t.is(fs.readFileSync(p('dst'), 'utf8'), 'precious', what)
    t.deepEqual(fs.readdirSync(dir).sort(), ['bad', 'dst', 'plain', 'sealed'], `${what}: no dst, no temporary file`)
  }
  // The same file, intact, replaces dst.
  await age.decryptFile(p('sealed'), p('dst'), { passphrase: 'right' })
  t.deepEqual(fs.readFileSync(p('dst')), data)
})

test('maxWorkFactor: a file above the ceiling is refused (RangeError) before any scrypt work, with no dst', async (t) => {
  const [dir, p] = freshDir()
  fs.writeFileSync(p('plain'), 'x')
  await age.encryptFile(p('plain'), p('sealed'), { passphrase: 'pw', workFactor: 12 })
  await t.throwsAsync(age.decryptFile(p('sealed'), p('out'), { passphrase: 'pw', maxWorkFactor: 11 }), {
    instanceOf: RangeError,
    code: 'ERR_OUT_OF_RANGE',
    message: /maxWorkFactor/,
  })
  // A hostile header claiming N = 2^30 (1 GiB x 128 of scrypt memory, were it run): refused at the
  // default ceiling by the header check, whose message names it (no timing: the error is the proof).
  fs.writeFileSync(p('hostile'), Buffer.from(fs.readFileSync(p('sealed'), 'latin1').replace(/ 12\n/, ' 30\n'), 'latin1'))
  await t.throwsAsync(age.decryptFile(p('hostile'), p('out'), { passphrase: 'pw' }), { instanceOf: RangeError, message: /Received 30/ })
  t.deepEqual(fs.readdirSync(dir).sort(), ['hostile', 'plain', 'sealed'])
  t.deepEqual(await age.decryptFile(p('sealed'), p('out'), { passphrase: 'pw', maxWorkFactor: 12 }), { bytes: 1 })
})

test('encryptFile / decryptFile options: armor refused (use encrypt / decrypt), bad options and paths, node-style file errors', async (t) => {
  const [dir, p] = freshDir()
  fs.writeFileSync(p('plain'), 'x')
  await t.throwsAsync(age.encryptFile(p('plain'), p('out'), { passphrase: 'pw', armor: true }), {
    ...MALFORMED,
    message: /options\.armor.*binary form.*cipher\.age\.encrypt\/decrypt \(in memory\) for armored files/,
  })
  // armor: false is the binary form, as in encrypt.
  await age.encryptFile(p('plain'), p('out'), { passphrase: 'pw', workFactor: FAST, armor: false })
  t.true(fs.readFileSync(p('out'), 'latin1').startsWith('age-encryption.org/v1\n'))
  const refused = [
    [() => age.encryptFile(p('plain'), p('x'), {}), { code: 'ERR_INVALID_ARG_TYPE', message: /options\.passphrase/ }],
    [() => age.encryptFile(p('plain'), p('x')), { code: 'ERR_INVALID_ARG_TYPE' }],
    [() => age.encryptFile(p('plain'), p('x'), { passphrase: '' }), { code: 'ERR_INVALID_ARG_VALUE', message: /non-empty/ }],
    [() => age.encryptFile(p('plain'), p('x'), { passphrase: 'p', workFactor: 31 }), { code: 'ERR_OUT_OF_RANGE' }],
    [() => age.encryptFile(p('plain'), p('x'), { passphrase: 'p', outputFormat: 'hex' }), { code: 'ERR_INVALID_ARG_VALUE', message: /options\.outputFormat/ }],
    [() => age.decryptFile(p('out'), p('x'), { passphrase: 'p', armor: false }), { code: 'ERR_INVALID_ARG_VALUE', message: /options\.armor/ }],
    [() => age.decryptFile(p('out'), p('x'), { passphrase: 'p', maxWorkFactor: 0 }), { code: 'ERR_OUT_OF_RANGE' }],
    [() => age.decryptFile(p('out'), p('x'), { passphrase: 'p', onProgress: 3 }), { code: 'ERR_INVALID_ARG_TYPE' }],
    [() => age.decryptFile(p('out'), p('x'), { passphrase: 'p', signal: 'no' }), { code: 'ERR_INVALID_ARG_TYPE' }],
    [() => age.decryptFile(42, p('x'), { passphrase: 'p' }), { code: 'ERR_INVALID_ARG_TYPE' }],
    [() => age.decryptFile(p('missing'), p('x'), { passphrase: 'p' }), { code: 'ENOENT', message: /^ENOENT: .*, open '.*missing'/ }],
    [() => age.encryptFile(p('plain'), dir, { passphrase: 'p', workFactor: FAST }), { code: 'EISDIR' }],
    [() => age.decryptFile(p('plain'), p('x'), { passphrase: 'p' }), MALFORMED],
  ]
  for (const [call, expected] of refused) await t.throwsAsync(call(), expected)
  t.deepEqual(fs.readdirSync(dir).sort(), ['out', 'plain'])
})

test('encryptFile / decryptFile: abort before, during scrypt and during the payload rejects with AbortError and leaves nothing', async (t) => {
  const [, p] = freshDir(BIG_DIR)
  const [out, o] = freshDir(BIG_DIR)
  fs.closeSync(fs.openSync(p('big'), 'w'))
  fs.truncateSync(p('big'), 128 * MiB)
  await age.encryptFile(p('big'), p('sealed'), { passphrase: 'pw', workFactor: FAST })
  fs.writeFileSync(p('slow'), age.encryptSync('x', { passphrase: 'pw', workFactor: 16 }))
  const ABORT = { name: 'AbortError', code: 'ABORT_ERR' }
  for (const [op, from] of [['encryptFile', 'big'], ['decryptFile', 'sealed']]) {
    const cost = op === 'encryptFile' ? { workFactor: FAST } : {}
    await t.throwsAsync(age[op](p(from), o('out'), { passphrase: 'pw', ...cost, signal: AbortSignal.abort() }), ABORT)
    // Once progress was reported: within the payload.
    const c = new AbortController()
    let calls = 0
    const options = { passphrase: 'pw', ...cost, signal: c.signal, onProgress: () => calls++ === 0 && c.abort() }
    await t.throwsAsync(age[op](p(from), o('out'), options), ABORT, op)
    t.true(calls > 0, op)
    t.deepEqual(fs.readdirSync(out), [], `${op}: no dst, no temporary file`)
  }
  // During scrypt: N = 2^18 to seal, and a 2^16 header to open, both far longer than 20 ms.
  for (const [op, from, wf] of [['encryptFile', 'big', { workFactor: 18 }], ['decryptFile', 'slow', {}]]) {
    const c = new AbortController()
    const running = age[op](p(from), o('out'), { passphrase: 'pw', ...wf, signal: c.signal })
    setTimeout(() => c.abort(), 20)
    await t.throwsAsync(running, ABORT, `${op} during scrypt`)
    t.deepEqual(fs.readdirSync(out), [], `${op}: no dst, no temporary file`)
  }
})

// ---- live interop with the tools -----------------------------------------------------------------

const HELPER = path.join(__dirname, 'helpers', 'age-interop.py')
const REQUIRED = process.env.AGE_INTEROP_REQUIRED === '1'

const pythons = () => pythonCandidates('AGE_INTEROP_PYTHON', 'age-venv')

/** Per tool, the Python that drives it (the first that can), and why the others could not. */
function findTools() {
  const found = {}
  const why = { age: [], pyrage: [] }
  for (const python of pythons()) {
    const r = spawnSync(python, [HELPER], { input: '[]', encoding: 'utf8', timeout: 60000 })
    if (r.status !== 0) {
      const reason = r.error ? r.error.code || r.error.message : (r.stderr || '').trim().split('\n').pop()
      for (const k of Object.keys(why)) why[k].push(`${python}: ${reason}`)
      continue
    }
    const caps = JSON.parse(r.stdout)
    for (const tool of ['age', 'pyrage']) {
      if (found[tool]) continue
      if (caps[tool] && (tool !== 'age' || process.platform !== 'win32')) found[tool] = { python, version: caps[tool] }
      else why[tool].push(`${python}: ${caps.why[tool] || 'not on a platform with pseudo-terminals'}`)
    }
  }
  return { found, why }
}

/** Runs helper jobs; resolves to their results. */
function helper(python, jobs) {
  return new Promise((resolve, reject) => {
    const child = spawn(python, [HELPER], { stdio: ['pipe', 'pipe', 'pipe'] })
    let out = ''
    let err = ''
    child.stdout.on('data', (d) => (out += d))
    child.stderr.on('data', (d) => (err += d))
    child.on('error', reject)
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`helper exited ${code}: ${err}`))))
    child.stdin.end(JSON.stringify(jobs))
  })
}

const { found, why } = findTools()
const NAMES = { age: 'the age CLI (Go reference)', pyrage: 'rage (through pyrage)' }
const PASSPHRASES = ['correct horse battery staple', 'pässwörd 🔑 with spaces']

for (const tool of ['age', 'pyrage']) {
  const what = `that files made by ${NAMES[tool]} open here and files made here open in it (binary and armored, sizes ${SIZES.join(', ')})`
  if (!found[tool]) {
    const message = `[age-interop] ${REQUIRED ? 'FAIL' : 'SKIP'}: not checked ${what}: ${tool} unavailable (tried ${why[tool].join('; ')}). To check it: apt-get install age; python3 -m venv target/age-venv && target/age-venv/bin/pip install --require-hashes --only-binary=:all: -r scripts/age-interop-requirements.txt`
    console.warn(message)
    if (REQUIRED) test(`${tool} interop (required by AGE_INTEROP_REQUIRED=1)`, (t) => t.fail(message))
    continue
  }
  const { python, version } = found[tool]
  const cases = []
  for (const size of SIZES) {
    for (const armor of [false, true]) {
      cases.push({ size, armor, passphrase: PASSPHRASES[cases.length % 2], data: nodeCrypto.randomBytes(size) })
    }
  }
  const label = (c) => `${c.size} bytes ${c.armor ? 'armored' : 'binary'}`

  test(`${tool} ${version}: its files open here`, async (t) => {
    const made = await helper(
      python,
      cases.map((c) => ({ tool, op: 'encrypt', armor: c.armor, passphrase: c.passphrase, data: c.data.toString('base64') })),
    )
    // One at a time: each is scrypt at the tool's work factor (2^18 or more: 256+ MiB). rage
    // picks the factor that takes about a second on this machine, which can be above the default
    // ceiling (19): such a file is refused by default, naming the option, and opens with the
    // ceiling and the memory budget raised to its factor.
    for (const [i, c] of cases.entries()) {
      t.true(made[i].ok, `${label(c)}: ${made[i].error}`)
      const file = Buffer.from(made[i].data, 'base64')
      t.is(file.toString('latin1').startsWith('-----BEGIN AGE ENCRYPTED FILE-----\n'), c.armor, label(c))
      let opened
      try {
        opened = await age.decrypt(file, { passphrase: c.passphrase })
      } catch (e) {
        const factor = Number(/maxWorkFactor.* Received (\d+)$/s.exec(e.message)?.[1])
        if (e.code !== 'ERR_OUT_OF_RANGE' || !(factor > age.defaults.maxWorkFactor && factor <= 22)) throw e
        t.log(`${label(c)}: ${tool} chose work factor ${factor}, above the default ceiling; opened with maxWorkFactor: ${factor}`)
        const budget = crypto.memoryBudget().limit
        crypto.setMemoryBudget(Math.max(budget, 2 ** (factor + 10) + 2 ** 20))
        try {
          opened = await age.decrypt(file, { passphrase: c.passphrase, maxWorkFactor: factor })
        } finally {
          crypto.setMemoryBudget(budget)
        }
      }
      t.deepEqual(opened, c.data, label(c))
    }
  })

  test(`${tool} ${version}: files made here open in it`, async (t) => {
    const files = await Promise.all(cases.map((c) => age.encrypt(c.data, { passphrase: c.passphrase, workFactor: 10, armor: c.armor })))
    const jobs = cases.map((c, i) => ({ tool, op: 'decrypt', armor: c.armor, passphrase: c.passphrase, data: Buffer.from(files[i]).toString('base64') }))
    // And one it must refuse: a wrong passphrase.
    jobs.push({ ...jobs[1], passphrase: 'wrong' })
    const opened = await helper(python, jobs)
    cases.forEach((c, i) => {
      t.true(opened[i].ok, `${label(c)}: ${opened[i].error}`)
      t.deepEqual(Buffer.from(opened[i].data, 'base64'), c.data, label(c))
    })
    t.false(opened.at(-1).ok)
  })

  test(`${tool} ${version}: files written by encryptFile open in it`, async (t) => {
    const [, p] = freshDir()
    const binary = cases.filter((c) => !c.armor)
    const files = []
    for (const [i, c] of binary.entries()) {
      fs.writeFileSync(p(`plain${i}`), c.data)
      await age.encryptFile(p(`plain${i}`), p(`sealed${i}`), { passphrase: c.passphrase, workFactor: 10 })
      files.push(fs.readFileSync(p(`sealed${i}`)))
    }
    const opened = await helper(
      python,
      binary.map((c, i) => ({ tool, op: 'decrypt', armor: false, passphrase: c.passphrase, data: files[i].toString('base64') })),
    )
    binary.forEach((c, i) => {
      t.true(opened[i].ok, `${label(c)}: ${opened[i].error}`)
      t.deepEqual(Buffer.from(opened[i].data, 'base64'), c.data, label(c))
    })
  })
}

// ---- X25519 recipients and identities ------------------------------------------------------------

const RECIPIENT = /^age1[qpzry9x8gf2tvdw0s3jn54khce6mua7l]{58}$/
const IDENTITY = /^AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}$/

test('X25519: generateIdentity / toRecipient strings; round trips to 1 and 3 recipients, sync, async, armored', async (t) => {
  const ids = [0, 1, 2].map(() => age.generateIdentity())
  for (const { identity, recipient } of ids) {
    t.regex(identity, IDENTITY)
    t.regex(recipient, RECIPIENT)
    t.is(age.toRecipient(identity), recipient)
  }
  t.not(ids[0].identity, ids[1].identity)
  const data = nodeCrypto.randomBytes(70000)
  const one = age.encryptSync(data, { recipients: [ids[0].recipient] })
  t.regex(one.toString('latin1'), /^age-encryption\.org\/v1\n-> X25519 [A-Za-z0-9+/]{43}\n[A-Za-z0-9+/]{43}\n--- /)
  t.deepEqual(age.decryptSync(one, { identity: ids[0].identity }), data)
  const three = await age.encrypt(data, { recipients: ids.map((i) => i.recipient), armor: true })
  t.regex(three, /^-----BEGIN AGE ENCRYPTED FILE-----\n/)
  t.is(Buffer.from(three.split('\n').slice(1, -2).join(''), 'base64').toString('latin1').match(/\n-> X25519 /g).length, 3)
  for (const { identity } of ids) {
    t.deepEqual(await age.decrypt(three, { identity }), data)
    t.deepEqual(age.decryptSync(three, { identities: [age.generateIdentity().identity, identity] }), data)
  }
  const stranger = age.generateIdentity().identity
  t.throws(() => age.decryptSync(one, { identity: stranger }), FAILED)
  await t.throwsAsync(age.decrypt(three, { identities: [stranger] }), FAILED)
  // A passphrase file opened with an identity, and the other way round, say what is missing.
  const pass = age.encryptSync(data, { passphrase: 'pw', workFactor: FAST })
  t.throws(() => age.decryptSync(pass, { identity: stranger }), { ...FAILED, message: /no X25519 stanza/ })
  t.throws(() => age.decryptSync(one, { passphrase: 'pw' }), { ...FAILED, message: /no scrypt stanza/ })
})

test('X25519: bad options and key strings are refused with stable codes', async (t) => {
  const { identity, recipient } = age.generateIdentity()
  const BAD_KEY = { instanceOf: TypeError, code: 'ERR_INVALID_ARG_VALUE' }
  const TYPE = { instanceOf: TypeError, code: 'ERR_INVALID_ARG_TYPE' }
  t.throws(() => age.encryptSync(Buffer.from('x'), { recipients: [recipient], passphrase: 'pw' }), BAD_KEY)
  t.throws(() => age.encryptSync(Buffer.from('x'), { recipients: [] }), TYPE)
  t.throws(() => age.encryptSync(Buffer.from('x'), { recipients: recipient }), TYPE)
  t.throws(() => age.encryptSync(Buffer.from('x'), { recipients: [recipient, 7] }), TYPE)
  t.throws(() => age.decryptSync(Buffer.from('x'), { identity, identities: [identity] }), BAD_KEY)
  t.throws(() => age.decryptSync(Buffer.from('x'), { identity: 1 }), TYPE)
  for (const bad of [identity, recipient.toUpperCase(), recipient.slice(0, -1) + (recipient.endsWith('q') ? 'p' : 'q'), 'age1', '']) {
    t.throws(() => age.encryptSync(Buffer.from('x'), { recipients: [recipient, bad] }), { ...BAD_KEY, message: /options\.recipients\[1\]/ }, bad)
  }
  for (const bad of [recipient, identity.toLowerCase(), identity.slice(0, -1) + (identity.endsWith('Q') ? 'P' : 'Q')]) {
    t.throws(() => age.decryptSync(Buffer.from('x'), { identity: bad }), BAD_KEY, bad)
    t.throws(() => age.toRecipient(bad), BAD_KEY, bad)
  }
  t.throws(() => age.toRecipient(undefined), TYPE)
  // A work factor is scrypt's: with X25519 recipients it would silently mean nothing.
  const WORK = { ...BAD_KEY, message: /options\.workFactor/ }
  t.throws(() => age.encryptSync(Buffer.from('x'), { recipients: [recipient], workFactor: 12 }), WORK)
  const dst = path.join(os.tmpdir(), `age-work-factor-${process.pid}`)
  await t.throwsAsync(age.encryptFile(__filename, dst, { recipients: [recipient], workFactor: 12 }), WORK)
  t.false(fs.existsSync(dst))
})

test('X25519: C2SP test kit vectors with an X25519 identity: the expected outcome, payload hash on success', (t) => {
  let n = 0
  for (const { name, fields, file } of testkit()) {
    const { expect, identity } = fields
    if (!identity || !identity.startsWith('AGE-SECRET-KEY-1')) continue
    let result
    try {
      result = { ok: age.decryptSync(file, { identity }) }
    } catch (e) {
      result = { error: e }
    }
    const e = result.error
    if (expect === 'success') t.is(sha256(result.ok), fields.payload, name)
    else if (expect === 'header failure' && !name.endsWith('_nonce')) t.is(e && e.code, 'ERR_INVALID_ARG_VALUE', `${name}: ${e && e.message}`)
    else if (expect === 'armor failure') t.is(e && e.code, 'ERR_INVALID_ARG_VALUE', `${name}: ${e && e.message}`)
    else t.is(e && e.code, 'ERR_CRYPTO_DECRYPT_FAILED', `${name}: ${e && e.message}`)
    n++
  }
  t.true(n >= 70, String(n))
})

const hasTool = (cmd) => spawnSync(cmd, ['--version'], { encoding: 'utf8' }).status === 0

test('X25519: interop with the age CLI both ways, and age-keygen keys', async (t) => {
  if (!hasTool('age') || !hasTool('age-keygen')) {
    if (REQUIRED) t.fail('the age CLI is required (AGE_INTEROP_REQUIRED=1)')
    else t.log('SKIPPED: the age / age-keygen CLI is not installed; X25519 interop with age was not checked')
    t.pass()
    return
  }
  const [dir] = freshDir()
  for (const n of [0, 1, 65536, 65537, 300000]) {
    const data = nodeCrypto.randomBytes(n)
    const { identity, recipient } = age.generateIdentity()
    const keyFile = path.join(dir, `key-${n}`)
    fs.writeFileSync(keyFile, `# made by cryptographer.js\n${identity}\n`)
    // age-keygen -y agrees on the recipient of our identity.
    t.is(spawnSync('age-keygen', ['-y', keyFile], { encoding: 'utf8' }).stdout.trim(), recipient)
    // Ours -> age, to two recipients.
    const other = age.generateIdentity()
    const ours = path.join(dir, `ours-${n}.age`)
    fs.writeFileSync(ours, age.encryptSync(data, { recipients: [other.recipient, recipient] }))
    const d = spawnSync('age', ['-d', '-i', keyFile, ours])
    t.is(d.status, 0, String(d.stderr))
    t.deepEqual(d.stdout, data, `age decrypts ours (${n})`)
    // age -> ours, binary and armored, in memory and from a file.
    const plain = path.join(dir, `plain-${n}`)
    fs.writeFileSync(plain, data)
    for (const armor of [false, true]) {
      const theirs = path.join(dir, `theirs-${n}-${armor}.age`)
      const e = spawnSync('age', [...(armor ? ['-a'] : []), '-r', recipient, '-o', theirs, plain])
      t.is(e.status, 0, String(e.stderr))
      t.deepEqual(age.decryptSync(fs.readFileSync(theirs), { identity }), data, `ours decrypts age's (${n}, armor ${armor})`)
      if (!armor) {
        const out = path.join(dir, `out-${n}`)
        await age.decryptFile(theirs, out, { identities: [identity] })
        t.deepEqual(fs.readFileSync(out), data)
      }
    }
  }
  // age-keygen's key file: its identity line decrypts, its public key line encrypts.
  const keygen = path.join(dir, 'keygen.txt')
  t.is(spawnSync('age-keygen', ['-o', keygen]).status, 0)
  const text = fs.readFileSync(keygen, 'utf8')
  const identity = /^AGE-SECRET-KEY-1\S+$/m.exec(text)[0]
  const recipient = /public key: (age1\S+)/.exec(text)[1]
  t.is(age.toRecipient(identity), recipient)
  const src = path.join(dir, 'k-src')
  const dst = path.join(dir, 'k.age')
  fs.writeFileSync(src, 'hello age-keygen')
  await age.encryptFile(src, dst, { recipients: [recipient] })
  const d = spawnSync('age', ['-d', '-i', keygen, dst], { encoding: 'utf8' })
  t.is(d.stdout, 'hello age-keygen', String(d.stderr))
})

const PYRAGE_X25519 = `
import sys, json, base64, pyrage
j = json.load(sys.stdin)
b64, unb64 = (lambda b: base64.b64encode(b).decode()), base64.b64decode
mine = pyrage.x25519.Identity.generate()
print(json.dumps({
  'identity': str(mine), 'recipient': str(mine.to_public()),
  'to_ours': b64(pyrage.encrypt(unb64(j['data']), [pyrage.x25519.Recipient.from_str(j['recipient'])])),
  'from_ours': b64(pyrage.decrypt(unb64(j['file']), [pyrage.x25519.Identity.from_str(j['identity'])])),
}))
`

test('X25519: interop with rage (pyrage) both ways, and its key strings', (t) => {
  if (!found.pyrage) {
    if (REQUIRED) t.fail('pyrage is required (AGE_INTEROP_REQUIRED=1)')
    else t.log(`SKIPPED: pyrage unavailable (${why.pyrage.join('; ')}); X25519 interop with rage was not checked`)
    t.pass()
    return
  }
  for (const n of [0, 1, 65536, 100000]) {
    const data = nodeCrypto.randomBytes(n)
    const a = age.generateIdentity()
    const c = age.generateIdentity()
    const file = age.encryptSync(data, { recipients: [a.recipient, c.recipient] })
    const r = spawnSync(found.pyrage.python, ['-c', PYRAGE_X25519], {
      input: JSON.stringify({ data: data.toString('base64'), recipient: a.recipient, identity: c.identity, file: file.toString('base64') }),
      encoding: 'utf8',
    })
    t.is(r.status, 0, r.stderr)
    const out = JSON.parse(r.stdout)
    t.deepEqual(Buffer.from(out.from_ours, 'base64'), data, `rage decrypts ours (${n})`)
    t.deepEqual(age.decryptSync(Buffer.from(out.to_ours, 'base64'), { identity: a.identity }), data, `ours decrypts rage's (${n})`)
    t.is(age.toRecipient(out.identity), out.recipient)
  }
})
