'use strict'
// Readers for the published vector files under __test__/vectors (see vectors/README.md).
const fs = require('node:fs')
const path = require('node:path')

const DIR = path.join(__dirname, '..', 'vectors')

const json = (rel) => JSON.parse(fs.readFileSync(path.join(DIR, rel), 'utf8'))
const hex = (s) => Buffer.from(s, 'hex')

/**
 * Parses a NIST CAVP .rsp file into sections: [{ header: {Key: value}, entries: [{Key: value}] }].
 * Header lines look like `[L = 256]`; entries are blank-line separated `Key = value` groups.
 */
function rsp(rel) {
  const sections = []
  let section = { header: {}, entries: [] }
  let entry = null
  const flush = () => {
    if (entry) section.entries.push(entry)
    entry = null
  }
  for (const raw of fs.readFileSync(path.join(DIR, rel), 'utf8').split(/\r?\n/)) {
    const line = raw.trim()
    if (line.startsWith('#')) continue
    if (line === '') {
      flush()
      continue
    }
    const h = /^\[(.+?)\s*=\s*(.+)\]$/.exec(line) || /^\[(.+)\]$/.exec(line)
    if (h) {
      flush()
      if (section.entries.length) {
        sections.push(section)
        section = { header: { ...section.header }, entries: [] }
      }
      if (h[2] !== undefined) section.header[h[1]] = h[2]
      continue
    }
    const kv = /^(\w+)\s*=\s*(.*)$/.exec(line)
    if (kv) {
      entry = entry || {}
      entry[kv[1]] = kv[2]
    }
  }
  flush()
  if (section.entries.length) sections.push(section)
  return sections
}

/** The message of a CAVP entry: `Len` is in bits, `Msg = 00` when Len = 0. */
const cavpMsg = (e) => hex(e.Msg).subarray(0, Number(e.Len) / 8)

module.exports = { DIR, json, hex, rsp, cavpMsg }
