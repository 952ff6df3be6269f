#!/usr/bin/env node
'use strict'
// The measurement behind crypto.password's default policy (docs/password.md): the time of one
// hash, one at a time on the libuv pool, for OWASP's Argon2id rows and stronger settings, and for
// OWASP's minimum bcrypt, scrypt and PBKDF2 settings (the cost of a login each policy imposes).
//
//   node benchmark/password-policy.js [--runs 15]
//
// Wall time is what a user waits; CPU time (of this process, all threads) is what the server
// pays, so its inverse is the logins per second one core sustains.
const fs = require('node:fs')
const os = require('node:os')
const { performance } = require('node:perf_hooks')
const { kdf } = require('..')

const runs = Number((process.argv.indexOf('--runs') > 0 && process.argv[process.argv.indexOf('--runs') + 1]) || 15)
const PASSWORD = 'correct horse battery staple'
const SALT = Buffer.alloc(16, 7)

function cpuName() {
  try {
    const info = fs.readFileSync('/proc/cpuinfo', 'utf8')
    const field = (k) => (new RegExp(`^${k}\\s*:\\s*(.*)$`, 'm').exec(info) || [])[1]
    const flags = (field('flags') || '').split(' ')
    const has = ['avx2', 'avx512f', 'sha_ni', 'vaes'].filter((f) => flags.includes(f))
    return `${field('model name')} (family ${field('cpu family')}, model ${field('model')}, stepping ${field('stepping')}; ` +
      `${os.cpus().length} vCPU; ${has.join(', ')})`
  } catch {
    return os.cpus()[0].model
  }
}

async function time(label, fn) {
  await fn()
  const wall = []
  const cpu = []
  for (let i = 0; i < runs; i++) {
    const c0 = process.cpuUsage()
    const t0 = performance.now()
    await fn()
    wall.push(performance.now() - t0)
    const c = process.cpuUsage(c0)
    cpu.push((c.user + c.system) / 1000)
  }
  const med = (a) => [...a].sort((x, y) => x - y)[a.length >> 1]
  const w = med(wall)
  const c = med(cpu)
  console.log(`| ${label} | ${w.toFixed(1)} | ${Math.min(...wall).toFixed(1)} | ${c.toFixed(1)} | ${(1000 / c).toFixed(1)} |`)
}

async function main() {
  console.log(`CPU: ${cpuName()}; Node ${process.version}; load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}; ` +
    `median of ${runs} runs`)
  console.log('')
  console.log('| setting | wall median (ms) | wall min (ms) | CPU median (ms) | logins/s per core |')
  console.log('|---|---:|---:|---:|---:|')
  const argon = [
    [19456, 2, 1, 'OWASP minimum'],
    [47104, 1, 1, 'OWASP, same strength'],
    [65536, 2, 1, 'libsodium INTERACTIVE memory'],
    [65536, 3, 1, 'chosen default'],
    [65536, 3, 4, 'RFC 9106 second option; kdf.argon2 default'],
    [102400, 2, 8, "Django's default"],
    [131072, 2, 1, ''],
    [262144, 3, 1, ''],
  ]
  for (const [m, t, p, note] of argon) {
    await time(`Argon2id m=${m / 1024} MiB t=${t} p=${p}${note ? ` (${note})` : ''}`, () =>
      kdf.argon2(PASSWORD, { salt: SALT, memoryCost: m, timeCost: t, parallelism: p }))
  }
  for (const rounds of [10, 11, 12]) {
    await time(`bcrypt cost ${rounds}${rounds === 10 ? ' (OWASP minimum)' : ''}`, () =>
      kdf.bcrypt.hashAsync(PASSWORD, { rounds, salt: SALT }))
  }
  for (const [N, r, p] of [[2 ** 17, 8, 1], [2 ** 14, 8, 5]]) {
    await time(`scrypt N=2^${Math.log2(N)} r=${r} p=${p}${N === 2 ** 17 ? ' (OWASP)' : " (Django's default)"}`, () =>
      kdf.scryptAsync(PASSWORD, { salt: SALT, N, r, p, keyLength: 32, maxmem: 2 ** 30 }))
  }
  for (const [hash, iterations] of [['sha256', 600000], ['sha512', 210000], ['sha1', 1300000]]) {
    await time(`PBKDF2-HMAC-${hash.toUpperCase()} ${iterations} (OWASP)`, () =>
      kdf.pbkdf2Async(PASSWORD, { salt: SALT, iterations, hash }))
  }
}

main()
