'use strict'
// X.stream(), X.async(async iterable), X.file() and X.fileSync() for every hash and HMAC: each
// equals the one-shot digest (itself checked against the published vectors in hash-vectors and
// hmac-vectors) and node:crypto where node has the algorithm. Sizes: 0, 1, block - 1, block,
// block + 1 (the rate for SHAKE, the chunk for BLAKE3) and random sizes up to 3 MiB, cut into
// random chunks of several byte-input types. The random choices come from fast-check with a
// seed printed per run; FC_SEED=<int> replays one.
const test = require('ava')
const fc = require('fast-check')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const nodeCrypto = require('node:crypto')
const { Readable } = require('node:stream')
const { pipeline } = require('node:stream/promises')
const { sha, hmac } = require('..')
const { nodeName } = require('./helpers/node-reference')

const SEED = process.env.FC_SEED ? Number(process.env.FC_SEED) : Date.now() % 2 ** 31
const MAX = 3 << 20
// Every message is a prefix of this one deterministic buffer.
const DATA = sha.shake256(`streams ${SEED}`, { outputLength: MAX, outputFormat: 'buffer' })
const DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'cryptographer-streams-'))
test.after.always(() => fs.rmSync(DIR, { recursive: true, force: true }))

const sample = (arb, salt) => fc.sample(arb, { seed: SEED + salt, numRuns: 1 })[0]

// Random sizes shared by every algorithm (their files are written once): two up to 64 KiB, two
// up to 1 MiB, two up to 3 MiB.
const RANDOM_SIZES = sample(
  fc.tuple(
    fc.integer({ min: 2, max: 1 << 16 }),
    fc.integer({ min: 2, max: 1 << 16 }),
    fc.integer({ min: 1 << 16, max: 1 << 20 }),
    fc.integer({ min: 1 << 16, max: 1 << 20 }),
    fc.integer({ min: 1 << 20, max: MAX }),
    fc.integer({ min: 1 << 20, max: MAX }),
  ),
  0,
)

// Printed once, so a failing run can be reproduced (not a test: it asserts nothing).
test.before((t) => {
  t.log(`seed ${SEED} (FC_SEED=${SEED} npx ava ${path.relative(process.cwd(), __filename)}); random sizes ${RANDOM_SIZES.join(', ')}`)
})

// The block whose neighbours are the edge cases, for the hashes without an HMAC block.
const XOF_BLOCK = { shake128: 168, shake256: 136, blake3: 1024 }

const KINDS = ['buffer', 'uint8array', 'dataview', 'arraybuffer']

/** `bytes` as a fresh input of `kind`. */
function asKind(bytes, kind) {
  switch (kind) {
    case 'buffer':
      return bytes
    case 'uint8array':
      return new Uint8Array(bytes)
    case 'dataview': {
      const backing = new Uint8Array(bytes.length + 7)
      backing.set(bytes, 3)
      return new DataView(backing.buffer, 3, bytes.length)
    }
    default:
      return new Uint8Array(bytes).buffer
  }
}

/** A random cut of `msg` into chunks of random kinds. */
const chunkingArb = fc.record({
  cuts: fc.array(fc.nat(), { maxLength: 48 }),
  kinds: fc.array(fc.constantFrom(...KINDS), { minLength: 1, maxLength: 4 }),
})

function split(msg, { cuts, kinds }) {
  const points = [...new Set(cuts.map((c) => c % (msg.length + 1)))].sort((a, b) => a - b)
  const chunks = []
  let prev = 0
  for (const p of [...points, msg.length]) {
    if (p === prev && chunks.length > 0) continue
    chunks.push(asKind(msg.subarray(prev, p), kinds[chunks.length % kinds.length]))
    prev = p
  }
  return chunks
}

const files = new Map()
/** The path of a file holding the first `n` bytes of DATA. */
function fileOf(n) {
  if (!files.has(n)) {
    const p = path.join(DIR, `${n}.bin`)
    fs.writeFileSync(p, DATA.subarray(0, n))
    files.set(n, p)
  }
  return files.get(n)
}

const SOURCES = {
  'async generator': (chunks) =>
    (async function* () {
      for (const c of chunks) yield c
    })(),
  Readable: (chunks) => Readable.from(chunks),
  ReadableStream: (chunks) =>
    new ReadableStream({
      start(controller) {
        for (const c of chunks) controller.enqueue(c)
        controller.close()
      },
    }),
}

async function viaStream(f, chunks, options) {
  let out
  let count = 0
  await pipeline(Readable.from(chunks), f.stream(options), async (digests) => {
    for await (const d of digests) {
      out = d
      count++
    }
  })
  if (count !== 1) throw new Error(`stream() pushed ${count} chunks`)
  return out
}

/** Every streaming form of `f` on the first `n` bytes, against `want`. */
async function checkForms(t, f, n, options, chunking, label) {
  const msg = DATA.subarray(0, n)
  const want = f(msg, options)
  const chunks = split(msg, chunking)
  const what = `${label}, ${n} bytes in ${chunks.length} chunks`
  t.deepEqual(await viaStream(f, chunks, options), want, `${what}: stream()`)
  for (const [kind, make] of Object.entries(SOURCES)) {
    t.deepEqual(await f.async(make(chunks), options), want, `${what}: async(${kind})`)
  }
  t.deepEqual(await f.file(fileOf(n), options), want, `${what}: file()`)
  t.deepEqual(f.fileSync(fileOf(n), options), want, `${what}: fileSync()`)
}

/** The sizes an algorithm is checked at. */
function sizesOf(f, name) {
  const block = f.blockLength || XOF_BLOCK[name]
  return [0, 1, block - 1, block, block + 1, ...RANDOM_SIZES]
}

// Options other than the defaults, per family, checked at the largest random size.
const KEY32 = Buffer.alloc(32, 7)
const HASH_OPTIONS = {
  shake128: [{ outputLength: 100, outputFormat: 'base64' }],
  shake256: [{ outputLength: 1, outputFormat: 'buffer' }],
  blake2b: [{ key: KEY32, salt: Buffer.alloc(16, 1), personalization: 'pers', outputLength: 20, outputFormat: 'buffer' }],
  blake2s: [{ key: KEY32.subarray(0, 16), outputLength: 16, outputFormat: 'base64url' }],
  blake3: [
    { key: KEY32, outputLength: 77, outputFormat: 'buffer' },
    { context: 'cryptographer.js 2026 streams test' },
  ],
}

Object.keys(sha).forEach((name, index) => {
  const node = nodeName(name)
  test(`sha.${name}: stream(), async(iterables), file(), fileSync() equal the one-shot digest${node ? ' and node:crypto' : ''}`, async (t) => {
    const f = sha[name]
    const sizes = sizesOf(f, name)
    for (const [i, n] of sizes.entries()) {
      const msg = DATA.subarray(0, n)
      if (node) t.is(f(msg), nodeCrypto.createHash(node).update(msg).digest('hex'), `${name} one-shot, ${n} bytes, against node:crypto`)
      await checkForms(t, f, n, undefined, sample(chunkingArb, 1000 * index + i), name)
    }
    const big = Math.max(...RANDOM_SIZES)
    for (const [i, options] of [{ outputFormat: 'base64' }, ...(HASH_OPTIONS[name] ?? [])].entries()) {
      await checkForms(t, f, big, options, sample(chunkingArb, 1000 * index + 100 + i), `${name} ${JSON.stringify(options)}`)
    }
    if (node && HASH_OPTIONS[name] && name.startsWith('shake')) {
      const { outputLength } = HASH_OPTIONS[name][0]
      const want = nodeCrypto.createHash(node, { outputLength }).update(DATA.subarray(0, big)).digest()
      t.deepEqual(await f.file(fileOf(big), { outputLength, outputFormat: 'buffer' }), want, `${name} file(), outputLength ${outputLength}, against node:crypto`)
    }
  })
})

Object.keys(hmac).forEach((name, index) => {
  const node = nodeName(name)
  test(`hmac.${name}: stream(), async(iterables), file(), fileSync() equal the one-shot MAC${node ? ' and node:crypto' : ''}`, async (t) => {
    const f = hmac[name]
    const key = DATA.subarray(MAX - 1 - (index * 37) % 200, MAX)
    for (const [i, n] of sizesOf(f, name).entries()) {
      const msg = DATA.subarray(0, n)
      if (node) t.is(f(msg, { key }), nodeCrypto.createHmac(node, key).update(msg).digest('hex'), `hmac ${name} one-shot, ${n} bytes, against node:crypto`)
      await checkForms(t, f, n, { key }, sample(chunkingArb, 50000 + 1000 * index + i), `hmac ${name}`)
    }
    const big = Math.max(...RANDOM_SIZES)
    await checkForms(t, f, big, { key: 'a text key', outputFormat: 'buffer' }, sample(chunkingArb, 50000 + 1000 * index + 100), `hmac ${name} text key`)
  })
})

test('string chunks are UTF-8, also when a character is split between writes; other encodings as written', async (t) => {
  const text = 'päßwörd ✓ 𝄞 '.repeat(3000)
  const pieces = text.match(/[\s\S]{1,997}/gu)
  const want = sha.sha256(text)
  t.is(await viaStream(sha.sha256, pieces), want)
  t.is(await sha.sha256.async(Readable.from(pieces)), want)
  // A multi-byte character whose bytes arrive in two Buffers.
  const bytes = Buffer.from('€')
  t.is(await viaStream(sha.sha256, [bytes.subarray(0, 1), bytes.subarray(1)]), sha.sha256('€'))
  // write(string, encoding) decodes with that encoding.
  const s = sha.sha256.stream()
  s.write('00ff10', 'hex')
  s.end('tail')
  const [digest] = await s.toArray()
  t.is(digest, sha.sha256(Buffer.concat([Buffer.from('00ff10', 'hex'), Buffer.from('tail')])))
})

// Chunks below 4 KiB are gathered in a 16 KiB buffer before they reach the hasher: every kind
// of byte input, sizes around both bounds, and a buffer changed after it was written.
test('stream() and async(): many small chunks of every byte-input kind, around the gathering bounds, equal node:crypto', async (t) => {
  const sizes = [0, 1, 1, 2, 3, 7, 64, 255, 1000, 4095, 4096, 4097, 1, 16383, 16384, 16385, 5, 12000, 4300, 3, 65536, 1]
  const msgs = []
  const chunks = []
  let at = 0
  sizes.forEach((n, i) => {
    const bytes = DATA.subarray(at, at + n)
    at += n
    let chunk
    switch (i % 8) {
      case 0:
        chunk = bytes
        break
      case 1:
        chunk = new Uint8Array(bytes)
        break
      case 2: {
        const backing = new Uint8Array(n + 5)
        backing.set(bytes, 2)
        chunk = new DataView(backing.buffer, 2, n)
        break
      }
      case 3:
        chunk = new Uint8Array(bytes).buffer
        break
      case 4: {
        const shared = new SharedArrayBuffer(n)
        new Uint8Array(shared).set(bytes)
        chunk = shared
        break
      }
      case 5:
        // Bytes of a wider view, whose element count is not its byte count.
        chunk = n % 2 === 0 ? new Uint16Array(new Uint8Array(bytes).buffer) : new Int8Array(new Uint8Array(bytes).buffer)
        break
      case 6:
        chunk = new Uint8ClampedArray(bytes)
        break
      default:
        chunk = bytes.toString('latin1')
    }
    msgs.push(i % 8 === 7 ? Buffer.from(chunk, 'utf8') : bytes)
    chunks.push(chunk)
  })
  const want = nodeCrypto.createHash('sha256').update(Buffer.concat(msgs)).digest('hex')
  t.is(await viaStream(sha.sha256, chunks), want, 'stream()')
  t.is(await sha.sha256.async(Readable.from(chunks, { objectMode: true })), want, 'async(Readable)')
  const bytes = DATA.subarray(0, 40000)
  const ones = Array.from(bytes, (b) => Buffer.of(b))
  t.is(await viaStream(sha.sha256, ones), nodeCrypto.createHash('sha256').update(bytes).digest('hex'), '40000 1-byte chunks')
  const key = Buffer.alloc(32, 9)
  t.is(
    await viaStream(hmac.sha512, chunks, { key }),
    nodeCrypto.createHmac('sha512', key).update(Buffer.concat(msgs)).digest('hex'),
    'hmac.sha512.stream()',
  )
  // create().update() with a SharedArrayBuffer, also once the hasher has its native state.
  const shared = new SharedArrayBuffer(3)
  new Uint8Array(shared).set([1, 2, 3])
  t.is(sha.sha256.create().update(DATA.subarray(0, 9000)).update(shared).digest(), nodeCrypto.createHash('sha256').update(DATA.subarray(0, 9000)).update(Buffer.of(1, 2, 3)).digest('hex'))
})

test('stream(): a small chunk changed after write() still counts as written', async (t) => {
  const s = sha.sha256.stream()
  const chunk = Buffer.from('written')
  s.write(chunk)
  chunk.fill(0)
  s.write(Buffer.alloc(10000, 1))
  chunk.write('changed')
  s.end()
  const [digest] = await s.toArray()
  t.is(digest, nodeCrypto.createHash('sha256').update('written').update(Buffer.alloc(10000, 1)).digest('hex'))
})

test('stream(): the digest in every output format, one chunk; piping into a file writes it', async (t) => {
  const msg = DATA.subarray(0, 100000)
  for (const outputFormat of ['hex', 'base64', 'base64url', 'binary', 'buffer']) {
    t.deepEqual(await viaStream(sha.sha512, [msg], { outputFormat }), sha.sha512(msg, { outputFormat }), outputFormat)
  }
  const out = path.join(DIR, 'digest.txt')
  await pipeline(fs.createReadStream(fileOf(100000)), sha.blake3.stream(), fs.createWriteStream(out))
  t.is(fs.readFileSync(out, 'utf8'), sha.blake3(msg))
})

test('file(): string, Buffer and file: URL paths; files that are not regular (no size) are read to their end', async (t) => {
  const p = fileOf(RANDOM_SIZES[0])
  const want = sha.sha1(DATA.subarray(0, RANDOM_SIZES[0]))
  t.is(await sha.sha1.file(Buffer.from(p)), want)
  t.is(await sha.sha1.file(new URL(`file://${p}`)), want)
  t.is(sha.sha1.fileSync(new URL(`file://${p}`)), want)
  t.is(await sha.md5.file('/dev/null'), sha.md5(''))
  if (process.platform === 'linux') {
    // /proc files report size 0 and have content.
    const stat = '/proc/self/stat'
    t.is(await sha.sha256.file(stat).then((d) => d.length), 64)
    t.is(sha.sha256.fileSync('/proc/version'), sha.sha256(fs.readFileSync('/proc/version')))
  }
})

test('index.d.ts: the streaming forms type-check as documented, and misuse does not', (t) => {
  const ts = require('typescript')
  const root = path.join(__dirname, '..')
  const file = path.join(DIR, 'usage.ts')
  fs.writeFileSync(
    file,
    `import { sha, hmac, type Progress } from ${JSON.stringify(root)}
import { Readable, Transform } from 'node:stream'
import { ReadableStream } from 'node:stream/web'
const a: Promise<string> = sha.sha256.file('x')
const b: Promise<Buffer> = sha.blake3.file(new URL('file:///x'), {
  outputFormat: 'buffer', key: new Uint8Array(32), signal: AbortSignal.timeout(10),
  onProgress: ({ bytes, total }: Progress) => { const n: number = bytes + (total ?? 0); void n },
})
const c: string = sha.sha256.fileSync(Buffer.from('x'), { outputFormat: 'base64' })
const d: Promise<string> = sha.sha256.async(Readable.from(['a']), { onProgress: () => {} })
const e: Promise<Buffer> = hmac.sha256.async(new ReadableStream<Uint8Array>(), { key: 'k', outputFormat: 'buffer' })
const f: Promise<string> = sha.shake256.async((async function* () { yield 'a' })(), { outputLength: 64 })
const g: Transform = sha.sha256.stream({ outputFormat: 'base64' })
const h: Transform = hmac.md5.stream({ key: 'k' })
const i: Buffer = hmac.sha512.fileSync('x', { key: 'k', outputFormat: 'buffer' })
void [a, b, c, d, e, f, g, h, i]
// @ts-expect-error an HMAC needs its key
hmac.sha256.file('x')
// @ts-expect-error fileSync takes no signal
sha.sha256.fileSync('x', { signal: AbortSignal.timeout(10) })
// @ts-expect-error a path is a string, Buffer or URL
sha.sha256.file(42)
// @ts-expect-error stream() takes no onProgress
sha.sha256.stream({ onProgress: () => {} })
`,
  )
  const program = ts.createProgram([file], { strict: true, noEmit: true, module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, moduleResolution: ts.ModuleResolutionKind.Node10, types: ['node'], typeRoots: [path.join(root, 'node_modules', '@types')] })
  const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))
  t.deepEqual(diagnostics, [])
})
