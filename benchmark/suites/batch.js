'use strict'
// Batch calls: sha.X.batch / hmac.X.batch of 10,000 × 64 B against a loop of our one-shot calls
// and loops of node:crypto (createHash / crypto.hash / createHmac); cipher.aes.encryptBatch
// against loops of aes.encrypt and createCipheriv; and batchAsync of 10,000 × 64 KiB with 1, 2
// and 4 libuv threads (UV_THREADPOOL_SIZE, one child process each) against 10,000 X.async calls
// at once and as many WebCrypto digests at once (both also on the pool).
//
//   node benchmark/benchmark.js --suite batch
const path = require('node:path')
const nodeCrypto = require('node:crypto')
const { execFileSync } = require('node:child_process')
const { sha, hmac, cipher } = require('../..')

const N = 10000
/** The digests of a result, in one string, whatever its shape (array of hex, array of Buffers, packed). */
const joined = (r) => (Buffer.isBuffer(r) ? r.toString('hex') : r.map((d) => (typeof d === 'string' ? d : d.toString('hex'))).join(''))

/** The child process that times batchAsync with the pool size it was started with. */
const THREADS_CHILD = path.join(__dirname, '..', 'batch-threads.js')

module.exports = {
  title: 'Batch calls',
  async run(h) {
    const inputs = Array.from({ length: N }, () => nodeCrypto.randomBytes(64))
    const hasOneShot = typeof nodeCrypto.hash === 'function'
    // One table: the contestants' names are generic (`batch`, `loop of ours`, node's), the rows say
    // what is computed (create*() is createHash, createHmac or createCipheriv).
    const table = `${N.toLocaleString('en')} × 64 B per operation (ops/s = batches/s; bold: speed-up of the batch)`
    const loop = (f) => () => {
      const out = new Array(N)
      for (let i = 0; i < N; i++) out[i] = f(inputs[i])
      return out
    }
    const check = { out: joined }

    await h.compare({ table, row: 'sha256, hex' }, [
      { name: 'batch', fn: () => sha.sha256.batch(inputs), ...check },
      { name: 'batch, packed', ours: true, fn: () => sha.sha256.batch(inputs, { outputFormat: 'buffer', packed: true }), ...check },
      { name: 'loop of ours', ours: true, fn: loop((x) => sha.sha256(x)), ...check },
      hasOneShot && { name: 'loop of node crypto.hash', fn: loop((x) => nodeCrypto.hash('sha256', x)), ...check },
      { name: 'loop of node create*()', fn: loop((x) => nodeCrypto.createHash('sha256').update(x).digest('hex')), ...check },
    ], { bytes: 64 * N })
    await h.compare({ table, row: 'sha256, Buffer' }, [
      { name: 'batch', fn: () => sha.sha256.batch(inputs, { outputFormat: 'buffer' }), ...check },
      { name: 'loop of ours', ours: true, fn: loop((x) => sha.sha256(x, { outputFormat: 'buffer' })), ...check },
      hasOneShot && { name: 'loop of node crypto.hash', fn: loop((x) => nodeCrypto.hash('sha256', x, 'buffer')), ...check },
    ], { bytes: 64 * N })
    // Hashes without a multi-lane kernel: the batch saves the per-call cost only.
    for (const [name, node] of [['sha512', 'sha512'], ['md5', 'md5'], ['blake3', null], ['sha3_256', 'sha3-256']]) {
      await h.compare({ table, row: `${name}, hex` }, [
        { name: 'batch', fn: () => sha[name].batch(inputs), ...check },
        { name: 'loop of ours', ours: true, fn: loop((x) => sha[name](x)), ...check },
        node && hasOneShot && { name: 'loop of node crypto.hash', fn: loop((x) => nodeCrypto.hash(node, x)), ...check },
      ], { bytes: 64 * N })
    }
    const key = nodeCrypto.randomBytes(32)
    await h.compare({ table, row: 'HMAC-SHA256, hex' }, [
      { name: 'batch', fn: () => hmac.sha256.batch(inputs, { key }), ...check },
      { name: 'loop of ours', ours: true, fn: loop((x) => hmac.sha256(x, { key })), ...check },
      { name: 'loop of node create*()', fn: loop((x) => nodeCrypto.createHmac('sha256', key).update(x).digest('hex')), ...check },
    ], { bytes: 64 * N })

    // Encryption with a fresh random IV per message: outputs differ, so each is checked by
    // decrypting it (our decryptBatch) instead of comparing.
    const plain = joined(inputs)
    const opened = (r) => joined(cipher.aes.decryptBatch(r, { key }))
    const gcm = await h.compare({ table, row: 'AES-256-GCM encrypt' }, [
      { name: 'batch', fn: () => cipher.aes.encryptBatch(inputs, { key }), out: opened },
      { name: 'loop of ours', ours: true, fn: loop((x) => cipher.aes.encrypt(x, { key })), out: opened },
      {
        name: 'loop of node create*()',
        fn: loop((x) => {
          const iv = nodeCrypto.randomBytes(12)
          const c = nodeCrypto.createCipheriv('aes-256-gcm', key, iv)
          return Buffer.concat([iv, c.update(x), c.final(), c.getAuthTag()])
        }),
        out: opened,
      },
    ], { bytes: 64 * N })
    if (gcm && opened(cipher.aes.encryptBatch(inputs, { key })) !== plain) h.failures.push('aes.encryptBatch does not round-trip')

    // batchAsync on the pool, by pool size (one child process each: libuv reads UV_THREADPOOL_SIZE
    // once). 10,000 × 64 KiB, or 2,000 with --quick.
    const count = h.quick ? 2000 : N
    const threadsTable = `batchAsync of ${count.toLocaleString('en')} × 64 KiB, sha256, by UV_THREADPOOL_SIZE (ops/s; MB/s of input)`
    for (const threads of [1, 2, 4]) {
      const row = `${threads} thread${threads > 1 ? 's' : ''}`
      if (!h.selected({ table: threadsTable, row })) continue
      h.onRow?.(`${threadsTable} / ${row}`)
      const start = h.monitor.mark()
      let report
      try {
        const out = execFileSync(process.execPath, [THREADS_CHILD, String(count), String(h.rounds), String(h.quick ? 1500 : 4000)], {
          env: { ...process.env, UV_THREADPOOL_SIZE: String(threads) },
          encoding: 'utf8',
          maxBuffer: 1 << 20,
        })
        report = JSON.parse(out.trim().split('\n').pop())
      } catch (err) {
        h.failures.push(`${threadsTable} / ${row}: the child failed: ${err.message.split('\n')[0]}`)
        continue
      }
      if (!report.equal) h.failures.push(`${threadsTable} / ${row}: outputs differ`)
      // The first contestant is sha256.batchAsync; every one but WebCrypto's is ours.
      const rows = report.rows.map((r) => ({ ...r, ours: !/subtle/.test(r.name) }))
      h.record({ table: threadsTable, row }, rows, { bytes: count * 65536, x: threads, start })
    }
    h.plot({ id: 'batch-async-threads', title: 'batchAsync of 64 KiB inputs: throughput by pool threads', table: threadsTable, x: 'threads (UV_THREADPOOL_SIZE, log)', y: 'throughput' })
  },
}
