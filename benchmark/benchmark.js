#!/usr/bin/env node
'use strict'
// cryptographer.js benchmark: every suite in benchmark/suites, side by side with its peers.
//
//   node benchmark/benchmark.js [--quick] [--suite hash,kdf] [--filter regex] [--json file] [--md file]
//
// Prints tables as it goes, then writes benchmark/results/latest.{json,md} (or the given files).
const fs = require('node:fs')
const path = require('node:path')
const { execFileSync } = require('node:child_process')
const { Harness } = require('./harness')

function parseArgs(argv) {
  const args = { quick: false, suites: null, filter: null, json: null, md: null }
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    if (a === '--quick') args.quick = true
    else if (a === '--suite') args.suites = argv[++i].split(',')
    else if (a === '--filter') args.filter = new RegExp(argv[++i], 'i')
    else if (a === '--json') args.json = argv[++i]
    else if (a === '--md') args.md = argv[++i]
    else throw new Error(`unknown argument ${a}`)
  }
  return args
}

function rustc() {
  try {
    return execFileSync('rustc', ['-V'], { encoding: 'utf8' }).trim()
  } catch {
    return null
  }
}

async function main() {
  const args = parseArgs(process.argv.slice(2))
  const h = new Harness({ quick: args.quick, filter: args.filter })
  const dir = path.join(__dirname, 'suites')
  const order = ['hash', 'batch', 'files', 'kdf', 'cipher']
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.js'))
    .map((f) => f.slice(0, -3))
    .sort((a, b) => (order.indexOf(a) + 1 || 99) - (order.indexOf(b) + 1 || 99))
    .filter((f) => !args.suites || args.suites.includes(f))

  const ours = require('../package.json')
  const peers = ['hash-wasm', '@noble/hashes', 'crypto-js', ...Object.keys(require('./package.json').dependencies || {})]
  const versions = {}
  for (const p of new Set(peers)) versions[p] = h.peerVersion(p)
  const machine = { ...h.machine(), rustc: rustc(), 'cryptographer.js': ours.version, peers: versions }
  console.log(
    `Machine: ${machine.cpu} (${machine.cores} cores; flags ${machine.flags.join(' ') || 'unknown'}), ${machine.platform}, ` +
      `Node ${machine.node} (OpenSSL ${machine.openssl}), ` +
      `${machine.rustc || 'rustc ?'}; cryptographer.js ${ours.version}; ` +
      Object.entries(versions)
        .filter(([, v]) => v)
        .map(([k, v]) => `${k} ${v}`)
        .join(', '),
  )
  console.log(`Mode: ${args.quick ? 'quick' : 'full'}; each contestant is timed in ${h.rounds} interleaved rounds (median).`)

  for (const f of files) {
    const suite = require(path.join(dir, f))
    h.suite = suite.title || f
    console.log(`\n== ${h.suite} ==`)
    await suite.run(h)
  }

  const outDir = path.join(__dirname, 'results')
  fs.mkdirSync(outDir, { recursive: true })
  const jsonFile = args.json || path.join(outDir, 'latest.json')
  const mdFile = args.md || path.join(outDir, 'latest.md')
  fs.writeFileSync(jsonFile, JSON.stringify({ machine, results: h.results, failures: h.failures }, null, 2))
  fs.writeFileSync(mdFile, `Machine: ${machine.cpu} (flags ${machine.flags.join(' ')}), ${machine.platform}, Node ${machine.node}\n\n${h.markdown()}`)
  console.log(`\nResults: ${jsonFile}, ${mdFile}`)
  if (h.failures.length) {
    console.log(`\n${h.failures.length} contestant(s) were not timed:\n  ${h.failures.join('\n  ')}`)
    process.exitCode = 1
  }
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
