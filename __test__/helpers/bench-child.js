'use strict'
// A child of benchmark/child.js's runChild for bench-child.spec.js: two rows of cheap
// contestants (one row with a contestant whose output differs), timed by the child's harness;
// its one table shows the options it was given.
const { childHarness, noteTable } = require('../../benchmark/child')

// BENCH_CHILD_EXIT: a child that fails before timing anything.
if (process.env.BENCH_CHILD_EXIT) process.exit(Number(process.env.BENCH_CHILD_EXIT))

const { h, done } = childHarness('Child')
const table = 'Child table'
const data = Buffer.alloc(256, 1)
async function main() {
  await h.compare({ table, row: 'sum' }, [
    { name: 'cryptographer.js', fn: () => data.reduce((a, b) => a + b, 0) },
    { name: 'loop', fn: () => { let s = 0; for (const b of data) s += b; return s } },
    { name: 'wrong', fn: () => 1 },
  ], { bytes: data.length, x: 1 })
  await h.compare({ table, row: 'copy' }, [
    { name: 'cryptographer.js', fn: () => Buffer.from(data) },
    { name: 'slice', fn: () => data.subarray(0) },
  ], { x: 2 })
  noteTable(h, table, { lead: 'In a child', as: 'ours' })
  h.table('Child figures', ['what', 'value'], [['argv', process.argv.slice(2).filter((a) => a.startsWith('--') && a !== '--json').join(' ')]])
  done()
}
main()
