'use strict'
// scripts/test-watchdog.mjs: a test run that hangs prints what its processes are doing before
// ava's timeout. Here a test blocks its worker's main thread forever (as a deadlock would), the
// watchdog is given 3 s of silence, and its report must name the blocked process and, where gdb
// is installed, show the blocked thread's native stack.
const test = require('ava')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawn, spawnSync } = require('node:child_process')

const root = path.join(__dirname, '..')
const linux = process.platform === 'linux'
// Under qemu-user (scripts/test-arm64.mjs) gdb attaches to the emulator and sees its stacks, not
// the emulated program's: the native stacks are then not checked.
const emulated = linux && (Boolean(process.env.QEMU_LD_PREFIX) || (process.arch !== 'x64' && /^vendor_id\s*:/m.test(fs.readFileSync('/proc/cpuinfo', 'utf8'))))
const gdb = linux && !emulated && spawnSync('gdb', ['--version']).status === 0

test('a hung test run: the watchdog reports every process and thread, with native stacks', async (t) => {
  if (!linux) return t.pass('not checked: the report reads /proc (Linux only)')
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'watchdog-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'dir')
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ ava: { files: ['hang.spec.js'], timeout: '2m', workerThreads: false } }))
  fs.writeFileSync(
    path.join(dir, 'hang.spec.js'),
    "require('ava')('blocks its thread for good', () => { Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0) })\n",
  )
  const run = spawn(process.execPath, [path.join(root, 'scripts', 'test-watchdog.mjs')], {
    cwd: dir,
    env: { ...process.env, TEST_STALL_SECONDS: '3' },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let err = ''
  run.stderr.on('data', (d) => (err += d))
  // The main thread's name: 'node' (Node 20, 22), 'MainThread' (24), 'node-MainThread' (26).
  // ... in the test worker's process (the report lists ava's own process and its threads first).
  const blocked = /process \d+: .*ava\/lib\/worker\/base\.js[\s\S]*?thread \d+ (node|(node-)?MainThread): S waiting in futex/
  const done = gdb ? /\[test watchdog\] +#\d+ .*(FutexEmulation|AtomicsWait)/ : emulated ? blocked : /no native stacks/
  const end = Date.now() + 90000
  while (!done.test(err) && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 200))
  process.kill(-run.pid, 'SIGKILL')
  t.regex(err, /\[test watchdog\] no output for \d+ s: what each process of the test run is doing/)
  t.regex(err, /process \d+: .*ava\/lib\/worker\/base\.js/)
  t.regex(err, blocked)
  if (gdb) t.regex(err, done, 'the blocked main thread\'s native stack')
  else t.log(emulated ? 'under emulation: native stacks not checked' : 'gdb is not installed: native stacks not checked')
})
