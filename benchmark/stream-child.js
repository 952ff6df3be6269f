'use strict'
// One case of benchmark/suites/stream.js in a fresh process, so its peak RSS is its own:
//   node benchmark/stream-child.js <case> <src> <dst> <segmentSize>
// Prints { ms, growth }: the wall time and how far the peak RSS (VmHWM, Linux) rose above the
// RSS before the call (null elsewhere). Cases: encryptFile, encryptStream (pipeline of
// createReadStream, encryptStream, createWriteStream), oneShot (readFile, aes.encrypt, writeFile).
const fs = require('node:fs')
const { pipeline } = require('node:stream/promises')
const { cipher } = require('..')

const [kind, src, dst, seg] = process.argv.slice(2)
const key = Buffer.alloc(32, 9)
const segmentSize = Number(seg) || undefined

const status = (field) => {
  try {
    return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(fs.readFileSync('/proc/self/status', 'utf8'))[1]) * 1024
  } catch {
    return null
  }
}

const cases = {
  encryptFile: () => cipher.aes.encryptFile(src, dst, { key, segmentSize }),
  encryptStream: () => pipeline(fs.createReadStream(src, { highWaterMark: 64 * 1024 }), cipher.aes.encryptStream({ key, segmentSize }), fs.createWriteStream(dst)),
  oneShot: async () => fs.writeFileSync(dst, cipher.aes.encrypt(fs.readFileSync(src), { key })),
}

async function main() {
  // Warm-up: the addon and the stream classes are loaded before the baseline.
  cipher.aes.encrypt('x', { key })
  try {
    fs.writeFileSync('/proc/self/clear_refs', '5')
  } catch {}
  const before = status('VmRSS')
  const t0 = performance.now()
  await cases[kind]()
  const ms = performance.now() - t0
  const after = status('VmHWM')
  process.stdout.write(JSON.stringify({ ms, growth: before === null || after === null ? null : after - before }))
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
