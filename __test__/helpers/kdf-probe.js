'use strict'
// The worker tests also run an async KDF in parallel when the package has one (the KDF family is
// built on another branch). This finds an async PBKDF2 in `api.kdf` without assuming its exact
// spelling: `kdf.pbkdf2Async(...)`, `kdf.pbkdf2.async(...)` or a `kdf.pbkdf2(...)` that returns a
// Promise. It returns `(case) => Promise<hex string>` or null when there is none.
const PBKDF2_CASE = { password: 'correct horse battery staple', salt: 'NaCl-salt-16byte', iterations: 20000, keyLength: 32, hash: 'sha256' }

function asyncKdf(api) {
  const kdf = api && api.kdf
  if (!kdf || typeof kdf !== 'object') return null
  const candidates = [kdf.pbkdf2Async, kdf.pbkdf2 && kdf.pbkdf2.async, kdf.pbkdf2].filter((f) => typeof f === 'function')
  for (const fn of candidates) {
    const call = (c) => fn(c.password, { salt: c.salt, iterations: c.iterations, keyLength: c.keyLength, hash: c.hash })
    let probe
    try {
      probe = call({ ...PBKDF2_CASE, iterations: 1 })
    } catch {
      continue
    }
    if (!probe || typeof probe.then !== 'function') continue
    probe.catch(() => {})
    return (c) => Promise.resolve(call(c)).then((r) => (Buffer.isBuffer(r) ? r.toString('hex') : String(r)))
  }
  return null
}

module.exports = { asyncKdf, PBKDF2_CASE }
