'use strict'
// Runs a JavaScript fuzz target on inputs, without the fuzzer: `node fuzz/js/replay.js <target>
// <file or directory>...` (a crash's input, or a whole corpus). Exits non-zero at the first input
// whose properties fail, printing it.
const fs = require('fs')
const path = require('path')

async function replay(target, paths) {
  const { fuzz } = require(path.join(__dirname, 'targets', `${target}.js`))
  let n = 0
  for (const p of paths) {
    const files = fs.statSync(p).isDirectory() ? fs.readdirSync(p).sort().map((f) => path.join(p, f)) : [p]
    for (const f of files) {
      try {
        await fuzz(fs.readFileSync(f))
      } catch (err) {
        console.error(`${target}: ${f} fails`)
        throw err
      }
      n++
    }
  }
  return n
}

module.exports = { replay }

if (require.main === module) {
  const [target, ...paths] = process.argv.slice(2)
  replay(target, paths).then(
    (n) => console.log(`${target}: ${n} inputs passed`),
    (err) => {
      console.error(err)
      process.exit(1)
    },
  )
}
