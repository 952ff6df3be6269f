'use strict'
// Known-answer tests: every hash against published vectors (NIST CAVP, RFCs, designers' files).
const test = require('ava')
const { sha } = require('..')
const { json, hex, rsp, cavpMsg } = require('./helpers/vectors')

// Hash in one shot, incrementally (in 3 uneven parts) and on the thread pool (`.async`), in
// hex and as a Buffer: all must agree. Resolves to the hex digest.
async function digestAll(t, fn, msg, options = {}) {
  const one = fn(msg, options)
  const buf = fn(msg, { ...options, outputFormat: 'buffer' })
  t.is(buf.toString('hex'), one)
  const a = Math.floor(msg.length / 3)
  const b = Math.floor((2 * msg.length) / 3)
  const inc = fn.create(options).update(msg.subarray(0, a)).update(msg.subarray(a, b)).update(msg.subarray(b)).digest()
  t.is(inc, one)
  t.is(await fn.async(msg, options), one)
  return one
}

const CAVP = {
  SHA1: 'sha1',
  SHA224: 'sha224',
  SHA256: 'sha256',
  SHA384: 'sha384',
  SHA512: 'sha512',
  SHA512_256: 'sha512_256',
  SHA3_224: 'sha3_224',
  SHA3_256: 'sha3_256',
  SHA3_384: 'sha3_384',
  SHA3_512: 'sha3_512',
}

for (const [file, name] of Object.entries(CAVP)) {
  for (const kind of ['ShortMsg', 'LongMsg']) {
    test(`NIST CAVP ${file}${kind}`, async (t) => {
      let n = 0
      for (const { entries } of rsp(`nist_cavp/${file}${kind}.rsp`)) {
        for (const e of entries) {
          t.is(await digestAll(t, sha[name], cavpMsg(e)), e.MD.toLowerCase(), `Len=${e.Len}`)
          n++
        }
      }
      t.true(n > 60)
    })
  }

  test(`NIST CAVP ${file}Monte`, (t) => {
    const [{ entries, header }] = rsp(`nist_cavp/${file}Monte.rsp`).filter((s) => s.entries.length > 1)
    const seedEntry = rsp(`nist_cavp/${file}Monte.rsp`).flatMap((s) => s.entries).find((e) => e.Seed)
    let seed = hex(seedEntry.Seed)
    const f = sha[name]
    const checkpoints = entries.filter((e) => e.MD)
    t.true(checkpoints.length >= 100, JSON.stringify(header))
    for (const e of checkpoints) {
      if (file.startsWith('SHA3_')) {
        // SHA3VS: MD_i = SHA3(MD_{i-1}), 1000 times per checkpoint.
        for (let i = 0; i < 1000; i++) seed = f(seed, { outputFormat: 'buffer' })
      } else {
        // SHAVS: M_i = MD_{i-3} || MD_{i-2} || MD_{i-1}; 1000 iterations per checkpoint.
        let [m0, m1, m2] = [seed, seed, seed]
        for (let i = 0; i < 1000; i++) {
          const md = f(Buffer.concat([m0, m1, m2]), { outputFormat: 'buffer' })
          ;[m0, m1, m2] = [m1, m2, md]
        }
        seed = m2
      }
      t.is(seed.toString('hex'), e.MD.toLowerCase(), `COUNT=${e.COUNT}`)
    }
  })
}

for (const bits of [128, 256]) {
  const f = sha[`shake${bits}`]
  for (const kind of ['ShortMsg', 'LongMsg']) {
    test(`NIST CAVP SHAKE${bits}${kind}`, async (t) => {
      let n = 0
      for (const { header, entries } of rsp(`nist_cavp/SHAKE${bits}${kind}.rsp`)) {
        const outputLength = Number(header.Outputlen) / 8
        for (const e of entries) {
          t.is(await digestAll(t, f, cavpMsg(e), { outputLength }), e.Output.toLowerCase())
          n++
        }
      }
      t.true(n > 60)
    })
  }

  test(`NIST CAVP SHAKE${bits}VariableOut`, (t) => {
    let n = 0
    for (const { entries } of rsp(`nist_cavp/SHAKE${bits}VariableOut.rsp`)) {
      for (const e of entries) {
        if (!e.Output) continue
        const out = f(hex(e.Msg), { outputLength: Number(e.Outputlen) / 8 })
        t.is(out, e.Output.toLowerCase())
        n++
      }
    }
    t.true(n > 100)
  })

  test(`NIST CAVP SHAKE${bits}Monte`, (t) => {
    const sections = rsp(`nist_cavp/SHAKE${bits}Monte.rsp`)
    const all = sections.flatMap((s) => s.entries)
    const header = sections.find((s) => s.entries.some((e) => e.Output)).header
    const minBytes = Number(header['Minimum Output Length (bits)']) / 8
    const maxBytes = Number(header['Maximum Output Length (bits)']) / 8
    const range = maxBytes - minBytes + 1
    // SHA3VS SHAKE Monte Carlo: M_i = leftmost 128 bits of Output_{i-1}; the next output length
    // comes from the rightmost 16 bits of the output.
    let output = hex(all.find((e) => e.Msg).Msg)
    let outLen = maxBytes
    let n = 0
    for (const e of all.filter((x) => x.Output)) {
      for (let i = 0; i < 1000; i++) {
        const msg = Buffer.alloc(16)
        output.copy(msg, 0, 0, Math.min(16, output.length))
        output = f(msg, { outputLength: outLen, outputFormat: 'buffer' })
        const right = output.readUInt16BE(output.length - 2)
        outLen = minBytes + (right % range)
      }
      t.is(output.toString('hex'), e.Output.toLowerCase(), `COUNT=${e.COUNT}`)
      n++
    }
    t.is(n, 100)
  })
}

const RFC = [
  ['md4', 'rfc/md4_rfc1320.json'],
  ['md5', 'rfc/md5_rfc1321.json'],
  ['ripemd160', 'rfc/ripemd160_bosselaers.json'],
  ['whirlpool', 'rfc/whirlpool_iso.json'],
  ['keccak256', 'rfc/keccak256_keccak_team_kat.json'],
]

for (const [name, file] of RFC) {
  test(`${name}: ${file}`, async (t) => {
    const { tests } = json(file)
    for (const v of tests) {
      const msg = v.msg_repeat ? Buffer.alloc(v.msg_repeat.count, v.msg_repeat.byte_hex, 'hex') : hex(v.msg_hex)
      t.is(await digestAll(t, sha[name], msg), v.md, `tcId ${v.tcId}`)
    }
    t.true(tests.length >= 7)
  })
}

test('BLAKE2 official KAT (blake2b, blake2s; keyed and unkeyed)', async (t) => {
  let n = 0
  for (const v of json('blake2/blake2-kat.json')) {
    if (v.hash !== 'blake2b' && v.hash !== 'blake2s') continue
    const options = v.key ? { key: hex(v.key) } : {}
    t.is(await digestAll(t, sha[v.hash], hex(v.in), options), v.out)
    n++
  }
  t.is(n, 1024)
})

// RFC 7693 Appendix E: the self-test "grand hash" over many lengths and keys.
function selftestSeq(len, seed) {
  const out = Buffer.alloc(len)
  let a = Math.imul(0xdead4bad, seed) >>> 0
  let b = 1
  for (let i = 0; i < len; i++) {
    const t = (a + b) >>> 0
    a = b
    b = t
    out[i] = t >>> 24
  }
  return out
}

test('BLAKE2 RFC 7693 (abc and the Appendix E self-test grand hashes)', (t) => {
  for (const v of json('rfc/blake2_rfc7693.json').tests) {
    const f = v.algorithm === 'BLAKE2b' ? sha.blake2b : sha.blake2s
    if (v.type === 'digest') {
      t.is(f(hex(v.msg), { outputLength: v.digest_size }), v.digest)
      continue
    }
    const grand = f.create({ outputLength: v.grand_hash_size })
    for (const outlen of v.md_lens) {
      for (const inlen of v.in_lens) {
        const msg = selftestSeq(inlen, inlen)
        grand.update(f(msg, { outputLength: outlen, outputFormat: 'buffer' }))
        grand.update(f(msg, { outputLength: outlen, key: selftestSeq(outlen, outlen), outputFormat: 'buffer' }))
      }
    }
    t.is(grand.digest(), v.digest)
  }
})

test('BLAKE3 official vectors: hash, keyed_hash, derive_key, extended output', async (t) => {
  const v = json('blake3/test_vectors.json')
  const key = Buffer.from(v.key, 'ascii')
  for (const c of v.cases) {
    const input = Buffer.alloc(c.input_len)
    for (let i = 0; i < c.input_len; i++) input[i] = i % 251
    const modes = [
      [c.hash, {}],
      [c.keyed_hash, { key }],
      [c.derive_key, { context: v.context_string }],
    ]
    for (const [expected, options] of modes) {
      t.is(await digestAll(t, sha.blake3, input, options), expected.slice(0, 64), `len ${c.input_len}`)
      t.is(sha.blake3(input, { ...options, outputLength: expected.length / 2 }), expected)
      const xof = sha.blake3.create({ ...options, outputLength: expected.length / 2 }).update(input).digest()
      t.is(xof, expected)
      t.is(await sha.blake3.async(input, { ...options, outputLength: expected.length / 2 }), expected)
    }
  }
})
