// ava's configuration for the runs under Bun, Deno and the WebAssembly build
// (scripts/test-runtimes.mjs): package.json's "ava" section (which ava ignores once --config
// names a file), plus a check that every test process runs on the runtime and loads the binding
// the run is about.
import { readFileSync } from 'node:fs'

const { ava } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))

export default {
  ...ava,
  require: [...(ava.require || []), './runtimes/check-runtime.cjs'],
}
