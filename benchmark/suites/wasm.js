'use strict'
// The WebAssembly build (npm run build:wasm) against hash-wasm and @noble: SHA-256, BLAKE3,
// Argon2id, AES-256-GCM and Ed25519, timed by benchmark/wasm.js in a Node child process that
// allows only that build (NAPI_RS_FORCE_WASI=error) and recorded here. When it is not built the
// suite puts no row on the page and says so.
const fs = require('node:fs')
const path = require('node:path')
const { runChild } = require('../child')

const CHILD = path.join(__dirname, '..', 'wasm.js')
const LOADER = path.join(__dirname, '..', '..', 'cryptographer.wasi.cjs')

module.exports = {
  title: 'WebAssembly build',
  async run(h) {
    if (!fs.existsSync(LOADER)) {
      const why = 'the WebAssembly build is not built (npm run build:wasm)'
      console.log(`  WebAssembly build: not measured: ${why}`)
      return why
    }
    runChild(h, 'WebAssembly build', process.execPath, ['--disable-warning=ExperimentalWarning', CHILD], {
      env: { ...process.env, NAPI_RS_FORCE_WASI: 'error' },
    })
  },
}
