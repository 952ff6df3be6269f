'use strict'
// Runs the real loader (lib/native.js wrapping the generated binding.js) as if on another
// platform: both files are compiled as CommonJS functions whose `process` and `require` are
// stand-ins, so `process.platform/arch/env/report` are whatever a case says and every
// `require()` the loader makes is recorded and answered from a table instead of the disk.
const fs = require('node:fs')
const path = require('node:path')
const vm = require('node:vm')

const root = path.join(__dirname, '..', '..')
const PARAMS = ['exports', 'require', 'module', '__filename', '__dirname', 'process']

function compile(file) {
  const filename = path.join(root, file)
  return { filename, fn: vm.compileFunction(fs.readFileSync(filename, 'utf8'), PARAMS, { filename }) }
}
const NATIVE = compile('lib/native.js')
const BINDING = compile('binding.js')

function notFound(id) {
  const err = new Error(`Cannot find module '${id}'\nRequire stack:\n- ${BINDING.filename}`)
  err.code = 'MODULE_NOT_FOUND'
  return err
}

/**
 * @param {object} c
 * @param {string} c.platform  process.platform to simulate
 * @param {string} c.arch      process.arch to simulate
 * @param {'gnu'|'musl'} [c.libc]  Linux only: what /usr/bin/ldd, the process report and
 *   `ldd --version` say. `probes` narrows which of them answer (default all three).
 * @param {Array<'ldd'|'report'|'exec'>} [c.probes]
 * @param {Record<string,string>} [c.env]  process.env
 * @param {Record<string,unknown>} [c.modules]  require(id) → value for ids that "exist"
 *   (anything else throws MODULE_NOT_FOUND; a value that is an Error is thrown instead)
 * @returns {{ requests: string[], binding?: unknown, error?: Error }}
 */
function simulate(c) {
  const probes = new Set(c.probes || ['ldd', 'report', 'exec'])
  const musl = c.libc === 'musl'
  const requests = []
  const modules = c.modules || {}
  const report = {
    header: musl ? { osName: 'Linux' } : { osName: 'Linux', glibcVersionRuntime: '2.36' },
    sharedObjects: musl ? ['/lib/ld-musl-x86_64.so.1'] : ['/lib/x86_64-linux-gnu/libc.so.6'],
  }
  const fakeProcess = {
    platform: c.platform,
    arch: c.arch,
    version: 'v22.0.0',
    versions: { node: '22.0.0' },
    env: { ...c.env },
    config: { variables: {} },
    report: {
      excludeNetwork: false,
      getReport: () => (probes.has('report') ? report : null),
    },
  }
  const fakeFs = {
    readFileSync(file) {
      if (file === '/usr/bin/ldd' && probes.has('ldd')) {
        return musl ? '#!/bin/sh\nexec /lib/ld-musl-x86_64.so.1 --list "$@"\n' : '#!/bin/bash\n# glibc ldd\n'
      }
      const err = new Error(`ENOENT: no such file or directory, open '${file}'`)
      err.code = 'ENOENT'
      throw err
    },
  }
  const fakeChildProcess = {
    execSync(cmd) {
      if (cmd === 'ldd --version' && probes.has('exec')) {
        return musl ? 'musl libc (x86_64)\nVersion 1.2.5\n' : 'ldd (GNU libc) 2.36\n'
      }
      throw new Error(`/bin/sh: ${cmd.split(' ')[0]}: not found`)
    },
  }

  const run = ({ filename, fn }, req) => {
    const mod = { exports: {} }
    fn.call(mod.exports, mod.exports, req, mod, filename, path.dirname(filename), fakeProcess)
    return mod.exports
  }
  const bindingRequire = (id) => {
    if (id === 'fs') return fakeFs
    if (id === 'child_process') return fakeChildProcess
    requests.push(id)
    if (!Object.prototype.hasOwnProperty.call(modules, id)) throw notFound(id)
    if (modules[id] instanceof Error) throw modules[id]
    return modules[id]
  }
  bindingRequire.resolve = (id) => {
    if (!Object.prototype.hasOwnProperty.call(modules, id)) throw notFound(id)
    return id
  }
  const nativeRequire = (id) => {
    if (id === '../binding.js') return run(BINDING, bindingRequire)
    if (id === 'fs') return fakeFs
    if (id === 'child_process') return fakeChildProcess
    throw new Error(`lib/native.js required an unexpected module: ${id}`)
  }

  try {
    return { requests, binding: run(NATIVE, nativeRequire) }
  } catch (error) {
    return { requests, error }
  }
}

module.exports = { simulate }
