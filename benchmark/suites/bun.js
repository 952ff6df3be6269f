'use strict'
// Under Bun: our hashes and password hashing against Bun's own (Bun.CryptoHasher, its
// node:crypto, Bun.password), timed by benchmark/bun.js in a Bun child process and recorded here.
// Bun is the one pinned in runtimes/package-lock.json (`npm run bench` installs it with
// `npm --prefix runtimes install`), else `bun` on the PATH; without either the suite puts no row
// on the page and says so.
const fs = require('node:fs')
const path = require('node:path')
const { execFileSync } = require('node:child_process')
const { runChild } = require('../child')

const CHILD = path.join(__dirname, '..', 'bun.js')
// The npm package's binary itself (not the .bin shim, a .cmd file on Windows).
const PINNED = path.join(__dirname, '..', '..', 'runtimes', 'node_modules', 'bun', 'bin', 'bun.exe')

/** The Bun to run, with its version, or null. */
function findBun() {
  for (const cmd of fs.existsSync(PINNED) ? [PINNED, 'bun'] : ['bun']) {
    try {
      const version = execFileSync(cmd, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()
      return { cmd, version }
    } catch {
      // not this one
    }
  }
  return null
}

module.exports = {
  title: 'Under Bun',
  async run(h) {
    const bun = findBun()
    if (!bun) {
      const why = 'no Bun (npm --prefix runtimes install, or bun on the PATH)'
      console.log(`  Bun's own crypto: not measured: ${why}`)
      return why
    }
    console.log(`  Bun ${bun.version} (${bun.cmd}), benchmark/bun.js in a child process`)
    runChild(h, `Bun ${bun.version}`, bun.cmd, [CHILD])
  },
}
