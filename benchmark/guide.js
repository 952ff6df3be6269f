'use strict'
// The reading aids of the benchmark page: how to read its figures (fixed text), then a guide
// written from the run's own figures: which hash, which cipher, which password hash, how to
// stream, what a first call costs. Every number in the guide is read from the run; a section
// whose rows the run lacks is left out.
const { fmtRatio, fmtTime } = require('../lib/bench/format')

const READING = [
  'Every row was timed side by side: each contestant once per round, the order rotated, so a burst of load hits all of them alike. ' +
    'A figure is the median of the rounds; under it, the interquartile range. A ratio is cryptographer.js ÷ that contestant, ' +
    'with the confidence interval of the per-round ratios in brackets: when that interval includes 1 the row is a tie, whatever the medians say.',
  'Bands: the error bars on the plots are the medians\' intervals. Where two libraries\' bands overlap, the plot does not rank them.',
  'The sentence under each table is its finding, written from that table\'s figures when the page was made: against the fastest other library in each row, where cryptographer.js leads, ties or trails, and by how much.',
  'Slow operations (password hashing, RSA, key generation) and operations without an input size (signatures, key agreement) show the time per operation first: 2.10 ms reads better than 476 ops/s.',
  'Noise: the run records the load average before and after, the CPU time other processes took and the hypervisor stole, and the width of every interval. A row that broke a bound is marked noisy; a page made from a noisy run says so at its top.',
]

const find = (run, table, group, name = 'cryptographer.js') => run.results.find((r) => table.test(r.table) && r.group === group && r.name === name)
const gbs = (r) => (r.mbPerSec >= 1000 ? `${(r.mbPerSec / 1000).toFixed(2)} GB/s` : `${r.mbPerSec.toFixed(0)} MB/s`)
const ms = (r) => fmtTime(1 / r.opsPerSec)
const times = (a, b) => fmtRatio(a / b)
const has = (run, f) => (run.machine?.features || run.machine?.flags || []).includes(f)

/** The biggest and the smallest input size among the tables `re` matches (`re` captures the size label). */
function sizes(run, re, order) {
  const labels = new Set(run.results.map((r) => re.exec(r.table)?.[1]).filter(Boolean))
  const present = order.filter((l) => labels.has(l))
  return { small: present[0], big: present[present.length - 1] }
}

function whichHash(run) {
  const { small, big } = sizes(run, /^Hash, (.+?) input, hex output/, ['64 B', '1 KiB', '64 KiB', '1 MiB'])
  if (!big || big === small) return null
  const at = (label, alg) => find(run, new RegExp(`^Hash, ${label} input, hex output`), alg)
  const [b3, s256, s512, s3] = ['blake3', 'sha256', 'sha512_256', 'sha3_256'].map((a) => at(big, a))
  if (!b3 || !s256 || !s512 || !s3) return null
  const tiny = ['blake3', 'sha256', 'sha512_256', 'sha3_256'].map((a) => at(small, a)).filter(Boolean)
  const p = [
    `One call on ${big}: BLAKE3 ${gbs(b3)}, SHA-256 ${gbs(s256)}, SHA-512/256 ${gbs(s512)}, SHA3-256 ${gbs(s3)}` +
      (tiny.length === 4 ? `; on ${small}: ${tiny.map((r) => `${{ blake3: 'BLAKE3', sha256: 'SHA-256', sha512_256: 'SHA-512/256', sha3_256: 'SHA3-256' }[r.group]} ${ms(r)}`).join(', ')} a call.` : '.'),
  ]
  p.push(
    b3.mbPerSec > s256.mbPerSec
      ? `BLAKE3 is ${times(b3.mbPerSec, s256.mbPerSec)} SHA-256's rate on ${big} inputs here${big === '1 MiB' ? ' (from 1 MiB one input is hashed on every core)' : ''}: pick it where you choose both ends, as for content addressing, deduplication or checksums of large files.`
      : `BLAKE3 is not faster than SHA-256 here on ${big} inputs (${times(b3.mbPerSec, s256.mbPerSec)}): pick it for its design (a keyed mode, extendable output, one hash for everything) rather than for speed on this machine.`,
  )
  const hw = has(run, 'sha_ni') || has(run, 'sha2')
  p.push(
    s256.mbPerSec >= s512.mbPerSec
      ? `SHA-256 is what formats and peers ask for (certificates, JWT, Git, most protocols)${hw ? ', and this CPU runs it in hardware' : ''}: here it is ${times(s256.mbPerSec, s512.mbPerSec)} SHA-512/256's rate, so SHA-512/256 buys nothing on this machine.`
      : `SHA-512/256 is ${times(s512.mbPerSec, s256.mbPerSec)} SHA-256's rate here (a 64-bit CPU${hw ? '' : ' without SHA instructions'}), with the same 256-bit output and no length extension: a good choice where you pick the hash; SHA-256 where a format or peer asks for it.`,
  )
  p.push(`SHA3-256 runs at ${times(s3.mbPerSec, s256.mbPerSec)} SHA-256's rate here: pick it where a standard requires SHA-3, or as a hedge against a break of SHA-2.`)
  return { title: 'Which hash', paragraphs: p }
}

function whichCipher(run) {
  const { small, big } = sizes(run, /^Encryption, (.+)$/, ['1 KiB', '64 KiB', '1 MiB'])
  if (!big || big === small) return null
  const at = (label, row) => find(run, new RegExp(`^Encryption, ${label}$`), row)
  const rows = ['AES-256-GCM encrypt', 'XChaCha20-Poly1305 encrypt', 'AES-256-GCM-SIV encrypt']
  const [g, x, s] = rows.map((r) => at(big, r))
  const [gs, xs, ss] = rows.map((r) => at(small, r))
  if (!g || !x || !s || !gs || !xs || !ss) return null
  const p = [
    `Encrypting ${big}: AES-256-GCM ${gbs(g)}, XChaCha20-Poly1305 ${gbs(x)}, AES-256-GCM-SIV ${gbs(s)}; ${small}: ${ms(gs)}, ${ms(xs)} and ${ms(ss)} a message.`,
  ]
  const aesHw = has(run, 'aes') || has(run, 'vaes')
  p.push(
    g.mbPerSec >= x.mbPerSec
      ? `AES-256-GCM is the fastest here${aesHw ? ' (the CPU has AES instructions)' : ''}, ${times(g.mbPerSec, x.mbPerSec)} XChaCha20-Poly1305's rate. Its 96-bit random nonces allow 2^32 messages per key; a kept key (cipher.aes.key) counts them and refuses the next one.`
      : `XChaCha20-Poly1305 is the faster here (${times(x.mbPerSec, g.mbPerSec)} AES-256-GCM's rate${aesHw ? '' : ': this CPU has no AES instructions'}).`,
  )
  p.push(`XChaCha20-Poly1305 takes random 192-bit nonces with no practical limit on messages per key: the simplest safe choice when many messages share a key, at ${times(x.mbPerSec, g.mbPerSec)} AES-GCM's rate here.`)
  p.push(
    `AES-256-GCM-SIV runs at ${times(s.mbPerSec, g.mbPerSec)} AES-GCM's rate here (two passes over the data): pick it where a nonce could repeat, since a repeated nonce then only shows that two messages were equal, where with GCM it gives the key stream away.`,
  )
  return { title: 'Which cipher', paragraphs: p }
}

function whichKdf(run) {
  const argon = find(run, /^Password hashing$/, 'Argon2id t=3 m=64MiB p=4')
  const bcrypt = find(run, /^Password hashing$/, 'bcrypt rounds=10')
  const bcrypt12 = find(run, /^Password hashing$/, 'bcrypt rounds=12')
  const scrypt = find(run, /^Key derivation$/, 'scrypt N=2^14 r=8 p=1')
  const pbkdf2 = find(run, /^Key derivation$/, 'PBKDF2-SHA-256 100k iterations')
  if (!argon || !bcrypt || !scrypt || !pbkdf2) return null
  const p = [
    `One hash here: Argon2id (t=3, 64 MiB, p=4) ${ms(argon)}, bcrypt cost 10 ${ms(bcrypt)}${bcrypt12 ? ` (cost 12 ${ms(bcrypt12)})` : ''}, ` +
      `scrypt (N=2^14, r=8: 16 MiB) ${ms(scrypt)}, PBKDF2-SHA-256 100,000 iterations ${ms(pbkdf2)}.`,
    'For new password storage pick Argon2id (crypto.password\'s default): the memory each guess costs (64 MiB here) is what makes GPU and ASIC guessing expensive, which bcrypt (4 KiB) and PBKDF2 (none) do not have. ' +
      'scrypt is memory-hard too: pick it where a platform requires it. bcrypt is for existing hashes and interoperability; it reads at most 72 bytes of a password.',
    `PBKDF2 only where FIPS 140 approval is required, at OWASP's 600,000 iterations for SHA-256: about ${fmtTime(6 / pbkdf2.opsPerSec)} a hash on this machine, for no memory cost to an attacker.`,
  ]
  return { title: 'Which password hash or KDF', paragraphs: p }
}

function streaming(run) {
  const chunks = run.results.filter((r) => r.table.startsWith('MD5 of 1 MB in chunks through a digest stream') && r.name === 'md5.stream()')
  const p = []
  if (chunks.length >= 3) {
    const best = chunks.reduce((a, b) => (b.mbPerSec > a.mbPerSec ? b : a))
    const enough = chunks.find((r) => r.mbPerSec >= 0.9 * best.mbPerSec)
    const small = chunks[0]
    p.push(
      `stream() pays a fixed cost per chunk written to it, whatever the hash: with ${small.group} chunks it hashes ${gbs(small)}, and from ${enough.group} chunks ${gbs(enough)} ` +
        `(${((100 * enough.mbPerSec) / best.mbPerSec).toFixed(0)} % of its best, ${gbs(best)} at ${best.group}). Write to it in chunks of ${enough.group} or more ` +
        "(node's file streams read 64 KiB at a time); to hash many small pieces, create().update() costs less per piece.",
    )
  }
  const file = run.results.filter((r) => /^File of .+ in the page cache \(ops\/s; bold: file\(\) speed-up\)/.test(r.table) && r.group === 'sha256')
  const f = file.find((r) => r.name === 'file()')
  const one = file.find((r) => r.name === 'one-shot, in memory')
  const pipe = file.find((r) => r.name.startsWith('node pipeline'))
  const mem = run.facts?.fileMemory
  if (f && one && pipe) {
    p.push(
      `Data already in memory: one call (${gbs(one)} for SHA-256 here). A file: sha256.file() reads and hashes it off the event loop at ${gbs(f)}, ` +
        `${times(f.opsPerSec, pipe.opsPerSec)} node's createReadStream pipeline` +
        (mem ? `, with a peak memory growth of ${mem.fileMiB.toFixed(1)} MiB on a ${mem.label} file, where reading it whole to hash it in one call needs its size in memory` : '') +
        '. Stream (stream(), encryptStream) when the data arrives in pieces, as a request body does, or is larger than what you want to hold.',
    )
  }
  const seal = run.facts?.sealMemory
  if (seal) {
    p.push(
      `Encrypting a ${seal.label} file: aes.encryptFile ${seal.fileMBs.toFixed(0)} MB/s with ${seal.fileMiB.toFixed(1)} MiB of peak memory growth; ` +
        `readFile + aes.encrypt + writeFile ${seal.oneShotMBs.toFixed(0)} MB/s with ${seal.oneShotMiB.toFixed(1)} MiB.`,
    )
  }
  return p.length ? { title: 'Streams and files', paragraphs: p } : null
}

function warmUp(run) {
  const f = run.facts?.firstCall
  if (!f) return null
  const extra = (op) => f.ops.find((o) => o.op === op)
  const parts = ['blake2b', 'blake2s', 'sha3_256', 'sha256', 'aes-256-gcm'].map(extra).filter(Boolean)
  if (!parts.length) return null
  return {
    title: 'The first call',
    paragraphs: [
      `Loading the addon takes ${fmtTime(f.requireSeconds)}. The first call of an algorithm in a process costs more than the next ones: ` +
        parts.map((o) => `${o.label} ${fmtTime(o.oursExtra)} more`).join(', ') +
        ` (medians over ${f.processes} fresh processes). BLAKE2 and SHA-3 time their candidate code paths once per process and keep the faster; the others pay for first use only.` +
        (f.nodeNote ? ` ${f.nodeNote}` : ''),
      'Where the first request\'s latency matters, call each algorithm you use once at start-up.',
    ],
  }
}

/** The guide's sections for a run: `[{ title, paragraphs }]`, each written from the run's figures. */
function guideOf(run) {
  return [whichHash, whichCipher, whichKdf, streaming, warmUp].map((f) => f(run)).filter(Boolean)
}

module.exports = { READING, guideOf }
