'use strict'
// The JavaScript fuzz targets (fuzz/js/targets/, docs/fuzzing.md) on their committed seeds, in
// the ordinary suite: the properties they assert hold on the test vectors and on the files,
// envelopes and signatures made for their fixed keys, and the targets still load as the library
// changes. (The fuzzing itself runs in CI through scripts/fuzz.mjs.)
const test = require('ava')
const fs = require('fs')
const path = require('path')
const { replay } = require('../fuzz/js/replay')

const targets = path.join(__dirname, '..', 'fuzz', 'js', 'targets')
const seeds = path.join(__dirname, '..', 'fuzz', 'seeds')

for (const file of fs.readdirSync(targets).filter((f) => f.endsWith('.js'))) {
  const name = file.slice(0, -3)
  test(`fuzz target ${name}: its properties hold on its seeds`, async (t) => {
    const n = await replay(name, [path.join(seeds, name)])
    t.true(n >= 5, `${n} seeds`)
  })
}
