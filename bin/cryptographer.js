#!/usr/bin/env node
'use strict'
// The package's command: `npx cryptographer.js bench` times this library against node:crypto
// on the machine it runs on (lib/bench/run.js).
const USAGE = 'Usage: npx cryptographer.js bench [--quick] [--json file] [--time ms]   (bench --help for more)'

const [command, ...args] = process.argv.slice(2)
if (command === 'bench') {
  require('../lib/bench/run.js')
    .main(args)
    .catch((err) => {
      console.error(err.code === 'ERR_INVALID_ARG_VALUE' ? err.message : err)
      process.exitCode = err.code === 'ERR_INVALID_ARG_VALUE' ? 2 : 1
    })
} else if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
  console.log(USAGE)
} else {
  console.error(`unknown command ${JSON.stringify(command)}\n${USAGE}`)
  process.exitCode = 2
}
