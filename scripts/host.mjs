// What the cross-platform test scripts need from this Linux x86-64 host, installed when missing:
// Debian packages, Rust targets, and qemu-user registered so that aarch64 programs start as if
// native (scripts/test-arm64.mjs, and the arm64 runs of the other platform scripts). Installing
// needs root on Debian 12 (the versions below are its); elsewhere each function throws an Error
// that says what to install.
import { execFileSync, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'

const isRoot = process.getuid?.() === 0
const which = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' }).stdout.trim()

let aptUpdated = false
/** Installs Debian `packages` (`name` or `name=version`, globs allowed) with apt-get, as root. */
export function aptInstall(packages) {
  if (!isRoot || !which('apt-get')) throw new Error(`install ${packages.join(' ')} (Debian packages) first, as root`)
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  // A new machine has no package lists.
  const steps = aptUpdated ? [] : [['update', '-qq']]
  steps.push(['install', '-y', '-qq', '--no-install-recommends', ...packages])
  for (const argv of steps) {
    console.log(`$ apt-get ${argv.join(' ')}`)
    const r = spawnSync('apt-get', argv, { stdio: ['ignore', 'inherit', 'inherit'], env })
    if (r.status !== 0) throw new Error(`apt-get ${argv[0]} ${packages.join(' ')} exited with ${r.status ?? r.signal}`)
  }
  aptUpdated = true
}

/** Adds the Rust target `triple` to the toolchain when it is not installed. */
export function rustTarget(triple) {
  const installed = execFileSync('rustup', ['target', 'list', '--installed'], { encoding: 'utf8' })
  if (installed.split('\n').includes(triple)) return
  console.log(`$ rustup target add ${triple}`)
  const r = spawnSync('rustup', ['target', 'add', triple], { stdio: 'inherit' })
  if (r.status !== 0) throw new Error(`rustup target add ${triple} exited with ${r.status ?? r.signal}`)
}

// Debian 12's qemu-user and arm64 glibc, by version series (an exact Debian revision leaves the
// mirror when the next security update lands).
const QEMU = 'qemu-user=1:7.2+dfsg-7+deb12u*'
const GLIBC = ['libc6-arm64-cross=2.36-*', 'libstdc++6-arm64-cross=12.2.0-*']
/** Where the arm64 glibc lands: QEMU_LD_PREFIX for dynamically linked glibc programs. */
export const AARCH64_SYSROOT = '/usr/aarch64-linux-gnu'

const BINFMT = '/proc/sys/fs/binfmt_misc'
// Debian's qemu-user-binfmt entry for aarch64 (ELF64, little-endian, EM_AARCH64) with flag F: the
// kernel opens the interpreter once, at registration, so it also serves programs in a chroot.
const MAGIC = '\\x7f\\x45\\x4c\\x46\\x02\\x01\\x01\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x02\\x00\\xb7\\x00'
const MASK = '\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\x00\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\xfe\\xff\\xff\\xff'

/**
 * qemu-aarch64 installed and registered with binfmt_misc (for the whole machine, until reboot),
 * and with `glibc` the arm64 glibc in AARCH64_SYSROOT; returns the path of qemu-aarch64 and its
 * version line. Without root, or where binfmt_misc cannot be mounted, it throws saying what is
 * missing and how to provide it.
 */
export function qemuAarch64({ glibc = false } = {}) {
  const have = () => which('qemu-aarch64') && (!glibc || fs.existsSync(path.join(AARCH64_SYSROOT, 'lib', 'ld-linux-aarch64.so.1')))
  if (!have()) {
    aptInstall([QEMU, ...(glibc ? GLIBC : [])])
    if (!have()) throw new Error(`qemu-aarch64${glibc ? ` or ${AARCH64_SYSROOT}/lib/ld-linux-aarch64.so.1` : ''} still missing after apt-get install`)
  }
  const qemu = fs.realpathSync(which('qemu-aarch64'))
  const version = execFileSync(qemu, ['--version'], { encoding: 'utf8' }).split('\n')[0]
  if (!fs.existsSync(path.join(BINFMT, 'qemu-aarch64'))) {
    const line = `:qemu-aarch64:M::${MAGIC}:${MASK}:${qemu}:F`
    if (!isRoot) {
      throw new Error(`aarch64 programs cannot start here: qemu-aarch64 is not registered with binfmt_misc, and registering it needs root (apt-get install qemu-user-binfmt, or as root: echo '${line}' > ${BINFMT}/register)`)
    }
    if (!fs.existsSync(path.join(BINFMT, 'register'))) {
      const r = spawnSync('mount', ['-t', 'binfmt_misc', 'binfmt_misc', BINFMT], { encoding: 'utf8' })
      if (r.status !== 0) throw new Error(`binfmt_misc is not mounted and mounting it failed (${r.stderr.trim()}): this machine cannot start aarch64 programs through qemu-user`)
    }
    console.log(`registering ${qemu} for aarch64 programs in ${BINFMT}`)
    fs.writeFileSync(path.join(BINFMT, 'register'), line)
  }
  return { qemu, version }
}
