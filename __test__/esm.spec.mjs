// The package works from ESM: default import and named imports are the CommonJS objects.
import test from 'ava'
import { createHash } from 'node:crypto'
import crypto, { sha, hash, hmac, randomBytes, timingSafeEqual } from 'cryptographer.js'
import cjs from '../index.js'

test('default and named ESM imports', (t) => {
  t.is(crypto, cjs)
  t.is(sha, cjs.sha)
  t.is(hash, cjs.sha)
  t.is(hmac, cjs.hmac)
  t.is(randomBytes(5).length, 5)
  t.true(timingSafeEqual('a', 'a'))
  t.is(crypto.sha.sha256('esm'), createHash('sha256').update('esm').digest('hex'))
})
