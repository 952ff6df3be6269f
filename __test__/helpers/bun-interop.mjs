// Run under Bun by bun-interop.spec.js: Bun's own password hashing, checking and digests, for the
// jobs given as JSON on stdin ({ hash: [{ password, options }], verify: [{ password, hash }],
// digest: [{ algorithm, hex }] }); prints one JSON object with the answers in the same order
// (a thrown error as { error }), Bun's version and Bun.CryptoHasher's algorithms.
const { Bun } = globalThis
const jobs = JSON.parse(await Bun.stdin.text())

const settle = async (f) => {
  try {
    return await f()
  } catch (err) {
    return { error: String(err?.message ?? err) }
  }
}

const out = {
  version: Bun.version,
  algorithms: Bun.CryptoHasher.algorithms,
  hashes: [],
  verified: [],
  digests: [],
}
for (const j of jobs.hash) out.hashes.push(await settle(() => Bun.password.hash(j.password, j.options)))
for (const j of jobs.verify) out.verified.push(await settle(() => Bun.password.verify(j.password, j.hash)))
for (const j of jobs.digest) out.digests.push(await settle(() => Bun.CryptoHasher.hash(j.algorithm, Buffer.from(j.hex, 'hex'), 'hex')))
process.stdout.write(JSON.stringify(out))
