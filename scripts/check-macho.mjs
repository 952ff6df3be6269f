#!/usr/bin/env node
// Checks each macOS .node file (a Mach-O image) for what makes it load in Node on every macOS that
// Node supports, reading the file itself (no Apple tools needed, so it runs on Linux CI too):
//   - a 64-bit little-endian Mach-O dylib or bundle for the CPU its name says (darwin-x64: x86_64,
//     darwin-arm64: arm64), not a universal file;
//   - the minimum macOS it declares (LC_BUILD_VERSION or LC_VERSION_MIN_MACOSX) is no newer than
//     the oldest one Node 20 runs on: 10.15 on Intel, 11.0 on Apple silicon;
//   - it links only system libraries (/usr/lib/..., /System/Library/...): no Homebrew, @rpath or
//     toolchain library a user's Mac would not have;
//   - the Node-API functions (napi_*, node_api_*) are looked up at load time in the process
//     (`-undefined dynamic_lookup`, which napi-rs links with) and every other undefined symbol is
//     bound to one of the linked system libraries: a symbol the link could not resolve would also
//     become a load-time lookup and only fail on the user's machine;
//   - on arm64, an embedded code signature whose page hashes match the file (macOS on Apple
//     silicon refuses to map unsigned code; the linker signs ad hoc).
//
// Usage: node scripts/check-macho.mjs [file.node ...]
// Without files it checks every cryptographer.darwin-*.node in the repo root and npm/*/.
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { builtFiles } from './built-files.mjs'

const files = builtFiles(process.argv.slice(2), /^cryptographer\.darwin-.*\.node$/, 'check-macho')

// <mach/machine.h>, <mach-o/loader.h>, <mach-o/nlist.h>, <kern/cs_blobs.h>.
const CPUS = { x64: { type: 0x01000007, name: 'x86_64', minOs: [10, 15] }, arm64: { type: 0x0100000c, name: 'arm64', minOs: [11, 0] } }
const MH_MAGIC_64 = 0xfeedfacf
const FAT_MAGIC = 0xcafebabe
const FILETYPES = { 6: 'dylib', 8: 'bundle' }
const LC = {
  SYMTAB: 0x2,
  LOAD_DYLIB: 0xc,
  ID_DYLIB: 0xd,
  LAZY_LOAD_DYLIB: 0x20,
  VERSION_MIN_MACOSX: 0x24,
  CODE_SIGNATURE: 0x1d,
  BUILD_VERSION: 0x32,
  LOAD_WEAK_DYLIB: 0x80000018,
  RPATH: 0x8000001c,
  REEXPORT_DYLIB: 0x8000001f,
  LOAD_UPWARD_DYLIB: 0x80000023,
}
const DYLIB_LOADS = new Set([LC.LOAD_DYLIB, LC.LOAD_WEAK_DYLIB, LC.REEXPORT_DYLIB, LC.LAZY_LOAD_DYLIB, LC.LOAD_UPWARD_DYLIB])
const PLATFORM_MACOS = 1
const N_STAB = 0xe0
const N_TYPE = 0x0e
const N_EXT = 0x01
const N_UNDF = 0x0
const DYNAMIC_LOOKUP_ORDINAL = 0xfe
const SELF_OR_FLAT_ORDINAL = 0
const CSMAGIC_EMBEDDED_SIGNATURE = 0xfade0cc0
const CSMAGIC_CODEDIRECTORY = 0xfade0c02
const CS_HASHTYPE_SHA256 = 2
const systemLibrary = (p) => p.startsWith('/usr/lib/') || p.startsWith('/System/Library/')
const fromNode = (s) => /^_(napi_|node_api_)/.test(s)
const version = (v) => `${v >>> 16}.${(v >>> 8) & 0xff}${v & 0xff ? `.${v & 0xff}` : ''}`
const cString = (buf, at) => buf.toString('utf8', at, buf.indexOf(0, at))

// The code signature's CodeDirectory: each page of the file up to codeLimit must hash to its slot.
function checkSignature(buf, dataoff, datasize) {
  const blob = buf.subarray(dataoff, dataoff + datasize)
  if (blob.readUInt32BE(0) !== CSMAGIC_EMBEDDED_SIGNATURE) return 'the code signature is not an embedded signature blob'
  const count = blob.readUInt32BE(8)
  for (let i = 0; i < count; i++) {
    const offset = blob.readUInt32BE(12 + 8 * i + 4)
    const cd = blob.subarray(offset)
    if (cd.readUInt32BE(0) !== CSMAGIC_CODEDIRECTORY) continue
    const hashOffset = cd.readUInt32BE(16)
    const nCodeSlots = cd.readUInt32BE(28)
    const codeLimit = cd.readUInt32BE(32)
    const hashSize = cd.readUInt8(36)
    const hashType = cd.readUInt8(37)
    const pageSize = 2 ** cd.readUInt8(39)
    if (hashType !== CS_HASHTYPE_SHA256) return `the code directory uses hash type ${hashType}, not SHA-256`
    if (Math.ceil(codeLimit / pageSize) !== nCodeSlots) return `the code directory has ${nCodeSlots} page hashes for ${codeLimit} bytes`
    for (let page = 0; page < nCodeSlots; page++) {
      const start = page * pageSize
      const digest = createHash('sha256').update(buf.subarray(start, Math.min(start + pageSize, codeLimit))).digest()
      const slot = cd.subarray(hashOffset + page * hashSize, hashOffset + (page + 1) * hashSize)
      if (!digest.subarray(0, hashSize).equals(slot)) return `page ${page} of the file does not match its code signature hash`
    }
    return null
  }
  return 'the code signature has no code directory'
}

let failed = false
for (const file of files) {
  const rel = path.relative(process.cwd(), file) || file
  const problems = []
  const arch = /darwin-(\w+)\.node$/.exec(path.basename(file))?.[1]
  const cpu = CPUS[arch]
  const buf = fs.readFileSync(file)
  if (!cpu) problems.push('the name says no known architecture (expected cryptographer.darwin-{x64,arm64}.node)')
  else if (buf.readUInt32BE(0) === FAT_MAGIC) problems.push('a universal (fat) file; each platform package holds one architecture')
  else if (buf.readUInt32LE(0) !== MH_MAGIC_64) problems.push(`not a 64-bit little-endian Mach-O file (magic 0x${buf.readUInt32LE(0).toString(16)})`)
  if (problems.length) {
    failed = true
    console.log(`${rel}: FAIL\n  ${problems.join('\n  ')}`)
    continue
  }
  const cputype = buf.readUInt32LE(4)
  const filetype = buf.readUInt32LE(12)
  const ncmds = buf.readUInt32LE(16)
  if (cputype !== cpu.type) problems.push(`CPU type 0x${cputype.toString(16)}, expected ${cpu.name} (0x${cpu.type.toString(16)})`)
  if (!FILETYPES[filetype]) problems.push(`file type ${filetype}, expected a dylib (6) or bundle (8)`)

  const libraries = []
  const rpaths = []
  let minOs = null
  let symtab = null
  let signature = null
  for (let i = 0, at = 32; i < ncmds; i++) {
    const cmd = buf.readUInt32LE(at)
    const size = buf.readUInt32LE(at + 4)
    if (DYLIB_LOADS.has(cmd)) libraries.push(cString(buf, at + buf.readUInt32LE(at + 8)))
    else if (cmd === LC.RPATH) rpaths.push(cString(buf, at + buf.readUInt32LE(at + 8)))
    else if (cmd === LC.BUILD_VERSION) {
      if (buf.readUInt32LE(at + 8) !== PLATFORM_MACOS) problems.push(`built for platform ${buf.readUInt32LE(at + 8)}, not macOS (1)`)
      minOs = buf.readUInt32LE(at + 12)
    } else if (cmd === LC.VERSION_MIN_MACOSX) minOs = buf.readUInt32LE(at + 8)
    else if (cmd === LC.SYMTAB) symtab = { symoff: buf.readUInt32LE(at + 8), nsyms: buf.readUInt32LE(at + 12), stroff: buf.readUInt32LE(at + 16) }
    else if (cmd === LC.CODE_SIGNATURE) signature = { dataoff: buf.readUInt32LE(at + 8), datasize: buf.readUInt32LE(at + 12) }
    at += size
  }

  if (minOs === null) problems.push('declares no minimum macOS version')
  else if (minOs > ((cpu.minOs[0] << 16) | (cpu.minOs[1] << 8))) problems.push(`minimum macOS ${version(minOs)} is newer than ${cpu.minOs.join('.')}`)
  const foreign = libraries.filter((l) => !systemLibrary(l))
  if (foreign.length) problems.push(`links libraries a Mac does not have: ${foreign.join(', ')}`)
  if (rpaths.length) problems.push(`has run-time search paths: ${rpaths.join(', ')}`)

  const lookedUp = []
  const bound = new Map()
  if (!symtab) problems.push('has no symbol table')
  else {
    for (let i = 0; i < symtab.nsyms; i++) {
      const at = symtab.symoff + 16 * i
      const type = buf.readUInt8(at + 4)
      if (type & N_STAB || (type & N_TYPE) !== N_UNDF || !(type & N_EXT)) continue
      const name = cString(buf, symtab.stroff + buf.readUInt32LE(at))
      const ordinal = buf.readUInt16LE(at + 6) >> 8
      // ld64 marks a load-time lookup with DYNAMIC_LOOKUP_ORDINAL, zig's linker with 0 (its bind
      // opcodes say flat namespace, as `llvm-objdump --macho --lazy-bind` shows).
      if (ordinal === DYNAMIC_LOOKUP_ORDINAL || ordinal === SELF_OR_FLAT_ORDINAL) lookedUp.push(name)
      else {
        const lib = libraries[ordinal - 1] || `library ordinal ${ordinal}`
        bound.set(lib, (bound.get(lib) || 0) + 1)
      }
    }
    const unresolved = lookedUp.filter((s) => !fromNode(s))
    if (unresolved.length) problems.push(`symbols left to a load-time lookup that Node does not define: ${unresolved.join(', ')}`)
    for (const lib of bound.keys()) if (!libraries.includes(lib)) problems.push(`symbols bound to ${lib}, which it does not link`)
  }

  if (arch === 'arm64') {
    if (!signature) problems.push('has no code signature (Apple silicon refuses to load unsigned code)')
    else {
      const bad = checkSignature(buf, signature.dataoff, signature.datasize)
      if (bad) problems.push(bad)
    }
  }

  if (problems.length) {
    failed = true
    console.log(`${rel}: FAIL`)
    for (const p of problems) console.log(`  ${p}`)
  } else {
    const imports = [...bound].map(([lib, n]) => `${n} from ${lib}`).join(', ')
    console.log(
      `${rel}: ok (${cpu.name} ${FILETYPES[filetype]}, macOS ${version(minOs)}+, links ${libraries.join(', ')}; ` +
        `${lookedUp.length} Node-API symbols looked up at load time, ${imports}` +
        `${signature ? `; ${arch === 'arm64' ? 'code signature verified' : 'signed'}` : ''})`,
    )
  }
}
process.exit(failed ? 1 : 0)
