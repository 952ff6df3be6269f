'use strict'
// Readers for the cipher vector files under __test__/vectors (see vectors/README.md).
const fs = require('node:fs')
const path = require('node:path')

const DIR = path.join(__dirname, '..', 'vectors')
const json = (rel) => JSON.parse(fs.readFileSync(path.join(DIR, rel), 'utf8'))
const hex = (s) => Buffer.from(s ?? '', 'hex')

/** A CAVP AESAVS .rsp file: [{ decrypt, KEY, IV, PLAINTEXT, CIPHERTEXT }]. */
function aesRsp(name) {
  const out = []
  let decrypt = false
  let entry = null
  for (const raw of fs.readFileSync(path.join(DIR, 'nist_cavp', 'aes', name), 'utf8').split(/\r?\n/)) {
    const line = raw.trim()
    if (line === '[ENCRYPT]') decrypt = false
    else if (line === '[DECRYPT]') decrypt = true
    const kv = /^(\w+)\s*=\s*([0-9a-fA-F]*)$/.exec(line)
    if (!kv) continue
    if (kv[1] === 'COUNT') {
      entry = { decrypt, COUNT: Number(kv[2]) }
      out.push(entry)
    } else if (entry) entry[kv[1]] = kv[2]
  }
  return out
}

const aesRspFiles = () => fs.readdirSync(path.join(DIR, 'nist_cavp', 'aes')).filter((f) => f.endsWith('.rsp'))

module.exports = { json, hex, aesRsp, aesRspFiles }
