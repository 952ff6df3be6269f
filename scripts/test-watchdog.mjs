#!/usr/bin/env node
// `npm test`'s ava run, watched. ava kills a run when no test has finished for its timeout
// (package.json "ava".timeout), and says only which tests were pending. When the run has printed
// nothing for TEST_STALL_SECONDS (default: half of ava's timeout, at least a minute), this prints
// what every process of the run is doing, once per silent period: each thread's kernel state and wait
// channel from /proc and, where gdb is installed, every thread's native stack
// (`gdb -batch -p <pid> -ex 'thread apply all bt'`). A hang then leaves its evidence in the
// log (a lock, a pool wait, a read) instead of only a timeout. The run itself is not changed:
// ava's arguments pass through, and its exit code is this script's.
//
// Usage: node scripts/test-watchdog.mjs [ava arguments]
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..')
const ava = path.join(root, 'node_modules', 'ava', 'entrypoints', 'cli.mjs')

/** ava's timeout in ms, from the package.json of the working directory ('20m', '90s', 5000). */
function avaTimeout() {
  let value
  try {
    value = JSON.parse(fs.readFileSync('package.json', 'utf8')).ava?.timeout
  } catch {}
  const m = /^(\d+)(ms|s|m)?$/.exec(String(value ?? '10s'))
  return m ? Number(m[1]) * { ms: 1, s: 1000, m: 60000 }[m[2] || 'ms'] : 10000
}

const stallMs = process.env.TEST_STALL_SECONDS
  ? Number(process.env.TEST_STALL_SECONDS) * 1000
  : Math.max(60000, avaTimeout() / 2)

const env = { ...process.env }
if (process.stdout.isTTY && env.FORCE_COLOR === undefined) env.FORCE_COLOR = '1'
const child = spawn(process.execPath, [ava, ...process.argv.slice(2)], { stdio: ['inherit', 'pipe', 'pipe'], env })
let last = Date.now()
child.stdout.on('data', (d) => {
  last = Date.now()
  process.stdout.write(d)
})
child.stderr.on('data', (d) => {
  last = Date.now()
  process.stderr.write(d)
})
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal))

const timer = setInterval(() => {
  if (Date.now() - last < stallMs) return
  report(Math.round((Date.now() - last) / 1000))
  last = Date.now()
}, Math.min(15000, Math.max(500, stallMs / 4)))

child.on('exit', (code, signal) => {
  clearInterval(timer)
  process.exitCode = code ?? (signal ? 1 : 0)
})

const read = (file) => {
  try {
    return fs.readFileSync(file, 'utf8')
  } catch {
    return ''
  }
}

/** The processes under `pid` (Linux: from /proc), deepest last. */
function descendants(pid) {
  const children = new Map()
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    // The state line is "pid (comm) state ppid ...": comm may hold spaces and parentheses.
    const stat = read(`/proc/${entry}/stat`)
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
    if (!children.has(ppid)) children.set(ppid, [])
    children.get(ppid).push(Number(entry))
  }
  const out = []
  const visit = (p) => {
    for (const c of children.get(p) || []) {
      out.push(c)
      visit(c)
    }
  }
  visit(pid)
  return out
}

function report(silentFor) {
  const say = (line) => process.stderr.write(`[test watchdog] ${line}\n`)
  say(`no output for ${silentFor} s: what each process of the test run is doing`)
  if (process.platform !== 'linux') {
    say('(the process and stack dump reads /proc and uses gdb: Linux only)')
    return
  }
  const gdb = spawnSync('gdb', ['--version'], { encoding: 'utf8' }).status === 0
  for (const pid of [child.pid, ...descendants(child.pid)]) {
    const cmd = read(`/proc/${pid}/cmdline`).split('\0').join(' ').trim()
    if (!cmd) continue
    say(`process ${pid}: ${cmd}`)
    const state = /^State:\s*(.*)$/m.exec(read(`/proc/${pid}/status`))
    say(`  state ${state ? state[1] : '?'}`)
    let tasks = []
    try {
      tasks = fs.readdirSync(`/proc/${pid}/task`)
    } catch {}
    for (const tid of tasks) {
      const stat = read(`/proc/${pid}/task/${tid}/stat`)
      const comm = read(`/proc/${pid}/task/${tid}/comm`).trim()
      const run = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0]
      say(`  thread ${tid} ${comm}: ${run} waiting in ${read(`/proc/${pid}/task/${tid}/wchan`) || '-'}`)
    }
    if (!gdb) continue
    const bt = spawnSync('gdb', ['-batch', '-p', String(pid), '-ex', 'thread apply all bt'], {
      encoding: 'utf8',
      timeout: 120000,
    })
    const lines = `${bt.stdout || ''}${bt.stderr || ''}`.split('\n').filter((l) => /^(Thread |#\d)/.test(l) || /ptrace|denied/i.test(l))
    for (const line of lines) say(`  ${line}`)
  }
  if (!gdb) say('(gdb is not installed: no native stacks; `apt-get install gdb` adds them)')
}
