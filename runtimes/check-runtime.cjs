'use strict'
// Loaded by ava before each test file in the runs of scripts/test-runtimes.mjs: fails the file
// when it does not run where the run says it does (a runner that silently fell back to Node, or a
// loader that took the native binary when the WebAssembly build was asked for).
const runtime = process.versions.bun ? 'bun' : typeof Deno !== 'undefined' ? 'deno' : 'node'
const want = process.env.CRYPTOGRAPHER_TEST_RUNTIME
if (want && want !== runtime) {
  throw new Error(`this test process runs on ${runtime}, not on ${want} as the run asked`)
}
const wantBinding = process.env.CRYPTOGRAPHER_TEST_BINDING
if (wantBinding) {
  const loaded = require('../binding.js').__napiBindingTarget
  if (loaded !== wantBinding) {
    throw new Error(`the loader took the ${loaded} binding, not ${wantBinding} as the run asked`)
  }
}
