#!/usr/bin/env node
// Checks that each Linux musl .node file needs nothing but musl's libc, so that it loads on Alpine
// and any other musl distribution (which has no glibc, and no libgcc_s unless a package pulls it
// in). For every file:
//   - an ELF64 little-endian shared object for the machine its name says (x64: x86-64, arm64:
//     AArch64), with no program interpreter (Node loads it with dlopen);
//   - every NEEDED entry is a name musl's dynamic linker resolves to itself (libc.so,
//     libc.musl-<arch>.so.1, ld-musl-<arch>.so.1, and libc/libm/libpthread/libdl/librt/... which
//     musl folds into libc): no libgcc_s, libstdc++ or glibc library;
//   - no symbol version requirements at all (musl has none; a GLIBC_* one means glibc was linked);
//   - every undefined symbol is a Node-API function (napi_*, node_api_*: Node defines them) or,
//     given a musl libc.so of the same machine (--libc), one that libc exports. Without --libc the
//     libc symbols are only checked against glibc's private names (__*_chk, __libc_*, gnu_*).
//     Weak references (Rust's std probing __cxa_thread_atexit_impl, AWS-LC's optional allocator
//     hooks) may stay unresolved and are only counted.
//
// Usage: node scripts/check-musl.mjs [--libc path/to/musl/libc.so] [file.node ...]
// Without files it checks every cryptographer.linux-*-musl.node in the repo root and npm/*/.
// Reads the file with `readelf` (binutils; reads any ELF machine, so an aarch64 build can be
// checked on an x64 host).
import { execFileSync } from 'node:child_process'
import path from 'node:path'
import { builtFiles } from './built-files.mjs'

const args = process.argv.slice(2)
const libcs = []
const named = []
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--libc') libcs.push(path.resolve(args[++i]))
  else named.push(args[i])
}
const files = builtFiles(named, /^cryptographer\.linux-.*-musl\.node$/, 'check-musl')

// readelf's name for each architecture, and musl's name for it (ld-musl-<arch>.so.1).
const MACHINES = {
  x64: { elf: 'Advanced Micro Devices X86-64', musl: 'x86_64' },
  arm64: { elf: 'AArch64', musl: 'aarch64' },
}
// musl's dynamic linker treats these library names as itself (ldso/dynlink.c, load_library:
// "lib" + one of these + ".so..." or "lib" + one of these + "."): they need no file.
const FOLDED = ['c', 'pthread', 'rt', 'm', 'dl', 'util', 'xnet']
const foldedByMusl = (name, arch) =>
  name === `libc.musl-${arch}.so.1` || name === `ld-musl-${arch}.so.1` || FOLDED.some((l) => name === `lib${l}.so` || name.startsWith(`lib${l}.so.`) || name === `lib${l}.a`)
// Names only glibc defines (its fortified and private entry points, its version queries).
const GLIBC_ONLY = /^(__\w+_chk|__libc_\w+|gnu_\w+|__cxa_thread_atexit_impl|__register_atfork)$/

function readelf(argv, file) {
  try {
    return execFileSync('readelf', [...argv, '-W', file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20 })
  } catch (err) {
    if (err.code === 'ENOENT') throw new Error('readelf is not installed (apt-get install binutils)')
    throw new Error(`readelf ${argv.join(' ')} failed on ${file}: ${err.stderr || err.message}`)
  }
}

// Defined, global dynamic symbols (names without @version) of an ELF file.
function exported(file) {
  const names = new Set()
  for (const line of readelf(['--dyn-syms'], file).split('\n')) {
    const f = line.trim().split(/\s+/)
    if (f.length >= 8 && /^\d+:$/.test(f[0]) && f[6] !== 'UND' && (f[4] === 'GLOBAL' || f[4] === 'WEAK')) names.add(f[7].split('@')[0])
  }
  return names
}
const libcMachines = libcs.map((file) => ({ file, machine: /Machine:\s+(.+)/.exec(readelf(['-h'], file))[1].trim(), names: exported(file) }))

let failed = false
for (const file of files) {
  const rel = path.relative(process.cwd(), file) || file
  const problems = []
  const arch = /linux-(\w+)-musl/.exec(path.basename(file))?.[1]
  const want = MACHINES[arch]
  if (!want) {
    console.log(`${rel}: FAIL\n  the name says no known architecture (expected cryptographer.linux-{x64,arm64}-musl.node)`)
    failed = true
    continue
  }
  const header = readelf(['-h'], file)
  const field = (name) => new RegExp(`${name}:\\s+(.+)`).exec(header)?.[1].trim()
  if (field('Class') !== 'ELF64') problems.push(`class ${field('Class')}, expected ELF64`)
  if (!/little endian/.test(field('Data') || '')) problems.push(`data ${field('Data')}, expected little endian`)
  if (!/^DYN\b/.test(field('Type') || '')) problems.push(`type ${field('Type')}, expected DYN (a shared object)`)
  if (field('Machine') !== want.elf) problems.push(`machine ${field('Machine')}, expected ${want.elf}`)

  const segments = readelf(['-l'], file)
  const interp = /Requesting program interpreter: ([^\]]+)/.exec(segments)
  if (interp) problems.push(`has a program interpreter (${interp[1]}); a shared object Node loads has none`)

  const dynamic = readelf(['-d'], file)
  const needed = [...dynamic.matchAll(/\(NEEDED\)\s+Shared library: \[([^\]]+)\]/g)].map((m) => m[1])
  const foreign = needed.filter((n) => !foldedByMusl(n, want.musl))
  if (foreign.length) problems.push(`NEEDED libraries musl does not provide: ${foreign.join(', ')}`)
  if (/\(VERNEED\)/.test(dynamic)) {
    const versions = [...new Set([...readelf(['-V'], file).matchAll(/Name: (\S+)\s+Flags/g)].map((m) => m[1]))]
    problems.push(`needs symbol versions (musl has none): ${versions.join(', ')}`)
  }

  const undefinedSyms = []
  let weak = 0
  for (const line of readelf(['--dyn-syms'], file).split('\n')) {
    const f = line.trim().split(/\s+/)
    if (f.length < 8 || !/^\d+:$/.test(f[0]) || f[6] !== 'UND' || !f[7]) continue
    if (f[4] === 'WEAK') weak++
    else undefinedSyms.push(f[7])
  }
  const versioned = undefinedSyms.filter((s) => s.includes('@'))
  if (versioned.length) problems.push(`versioned symbols: ${versioned.slice(0, 10).join(', ')}`)
  const fromNode = (s) => /^(napi_|node_api_)/.test(s)
  const fromLibc = undefinedSyms.filter((s) => !fromNode(s)).map((s) => s.split('@')[0])
  const libc = libcMachines.find((l) => l.machine === want.elf)
  let libcNote
  if (libc) {
    const missing = fromLibc.filter((s) => !libc.names.has(s))
    if (missing.length) problems.push(`symbols ${path.basename(libc.file)} (${libc.file}) does not export: ${missing.join(', ')}`)
    libcNote = `all ${fromLibc.length} libc symbols exported by ${libc.file}`
  } else {
    const glibcOnly = fromLibc.filter((s) => GLIBC_ONLY.test(s))
    if (glibcOnly.length) problems.push(`glibc-only symbols: ${glibcOnly.join(', ')}`)
    libcNote = `${fromLibc.length} libc symbols not checked against a musl libc.so (pass --libc)`
  }

  if (problems.length) {
    failed = true
    console.log(`${rel}: FAIL`)
    for (const p of problems) console.log(`  ${p}`)
  } else {
    console.log(
      `${rel}: ok (${want.elf} shared object, NEEDED ${needed.join(', ') || 'nothing'}, no symbol versions, ` +
        `${undefinedSyms.length - fromLibc.length} Node-API imports; ${libcNote}; ${weak} weak references)`,
    )
  }
}
process.exit(failed ? 1 : 0)
