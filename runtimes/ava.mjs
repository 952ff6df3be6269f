// ava's command line under Bun and Deno. ava takes a V8 coverage snapshot when a run ends
// (`v8.takeCoverage()`), which neither runtime implements (Bun 1.4 throws ERR_NOT_IMPLEMENTED,
// Deno 2.9 "Not implemented"): with no coverage being collected it has nothing to do, so it is
// made a no-op before ava loads.
import v8 from 'node:v8'

try {
  v8.takeCoverage()
} catch {
  v8.takeCoverage = () => {}
}
await import(new URL('../node_modules/ava/entrypoints/cli.mjs', import.meta.url).href)
