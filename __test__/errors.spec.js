'use strict'
// Every error path of the hash/HMAC/utility API: class, stable code, a message that says what
// was expected; and no input can crash the process (the process is still here afterwards).
const test = require('ava')
const { sha, hmac, randomBytes, timingSafeEqual } = require('..')

const typeErr = (code, message) => ({ instanceOf: TypeError, code, ...(message ? { message } : {}) })
const rangeErr = (message) => ({ instanceOf: RangeError, code: 'ERR_OUT_OF_RANGE', ...(message ? { message } : {}) })

const BAD_DATA = [undefined, null, 42, 1.5, true, Symbol('s'), {}, [1, 2, 3], () => 1, 10n]

test('data of the wrong type: TypeError ERR_INVALID_ARG_TYPE, one-shot, incremental and HMAC', (t) => {
  for (const name of Object.keys(sha)) {
    for (const bad of BAD_DATA) {
      t.throws(() => sha[name](bad), typeErr('ERR_INVALID_ARG_TYPE', /"data" argument must be of type string or an instance of Buffer, TypedArray, DataView or ArrayBuffer\. Received/))
      t.throws(() => sha[name](bad, { outputFormat: 'buffer' }), typeErr('ERR_INVALID_ARG_TYPE'))
      t.throws(() => sha[name].create().update(bad), typeErr('ERR_INVALID_ARG_TYPE'))
    }
  }
  for (const name of Object.keys(hmac)) {
    for (const bad of BAD_DATA) {
      t.throws(() => hmac[name](bad, { key: 'k' }), typeErr('ERR_INVALID_ARG_TYPE', /"data"/))
      t.throws(() => hmac[name].create({ key: 'k' }).update(bad), typeErr('ERR_INVALID_ARG_TYPE'))
    }
  }
})

test('messages name what was received', (t) => {
  t.throws(() => sha.sha256(42), { message: /Received type number \(42\)/ })
  t.throws(() => sha.sha256(null), { message: /Received null/ })
  t.throws(() => sha.sha256({}), { message: /Received an instance of Object/ })
  t.throws(() => sha.sha256([1]), { message: /Received an instance of Array/ })
})

test('unknown outputFormat: TypeError ERR_INVALID_ARG_VALUE listing the formats', (t) => {
  for (const fmt of ['HEX', 'utf8', '', 1, null, {}]) {
    t.throws(() => sha.sha256('x', { outputFormat: fmt }), typeErr('ERR_INVALID_ARG_VALUE', /'hex', 'base64', 'base64url', 'binary', 'buffer'/))
    t.throws(() => hmac.sha256('x', { key: 'k', outputFormat: fmt }), typeErr('ERR_INVALID_ARG_VALUE'))
    t.throws(() => sha.sha256.create().update('x').digest(fmt), typeErr('ERR_INVALID_ARG_VALUE'))
  }
})

test('a bad digest format does not consume the state', (t) => {
  const h = sha.sha256.create().update('abc')
  t.throws(() => h.digest('nope'), typeErr('ERR_INVALID_ARG_VALUE'))
  t.is(h.digest(), sha.sha256('abc'))
})

test('unknown options: TypeError ERR_INVALID_ARG_VALUE naming the option and the accepted ones', (t) => {
  t.throws(() => sha.sha256('x', { key: 'k' }), typeErr('ERR_INVALID_ARG_VALUE', /options\.key.*\(outputFormat, output\)/))
  t.throws(() => sha.sha256('x', { outputformat: 'hex' }), typeErr('ERR_INVALID_ARG_VALUE'))
  t.throws(() => sha.shake128('x', { key: 'k' }), typeErr('ERR_INVALID_ARG_VALUE', /outputFormat, outputLength/))
  t.throws(() => sha.blake2b('x', { context: 'c' }), typeErr('ERR_INVALID_ARG_VALUE'))
  t.throws(() => sha.blake3('x', { salt: 's' }), typeErr('ERR_INVALID_ARG_VALUE'))
  t.throws(() => sha.sha256.create({ outputLength: 3 }), typeErr('ERR_INVALID_ARG_VALUE'))
  t.throws(() => hmac.sha256('x', { key: 'k', salt: 's' }), typeErr('ERR_INVALID_ARG_VALUE'))
})

test('options that are not objects: TypeError ERR_INVALID_ARG_TYPE', (t) => {
  for (const bad of ['hex', 5, true, [1]]) {
    t.throws(() => sha.sha256('x', bad), typeErr('ERR_INVALID_ARG_TYPE', /"options"/))
    t.throws(() => hmac.sha256('x', bad), typeErr('ERR_INVALID_ARG_TYPE', /"options"/))
  }
})

test('HMAC without a key, or with a key of the wrong type', (t) => {
  t.throws(() => hmac.sha256('x'), typeErr('ERR_INVALID_ARG_TYPE', /"options" argument must be an object with a "key"/))
  t.throws(() => hmac.sha256('x', {}), typeErr('ERR_INVALID_ARG_TYPE', /"options\.key"/))
  t.throws(() => hmac.sha256.create(), typeErr('ERR_INVALID_ARG_TYPE'))
  for (const bad of [42, {}, true, [1]]) {
    t.throws(() => hmac.sha256('x', { key: bad }), typeErr('ERR_INVALID_ARG_TYPE', /"key"/))
    t.throws(() => hmac.sha256.create({ key: bad }), typeErr('ERR_INVALID_ARG_TYPE', /"key"/))
  }
})

test('outputLength out of range or of the wrong type', (t) => {
  for (const [f, max] of [[sha.blake2b, 64], [sha.blake2s, 32], [sha.shake128, 2 ** 30], [sha.shake256, 2 ** 30], [sha.blake3, 2 ** 30]]) {
    for (const bad of [0, -1, max + 1, 1.5, NaN, Infinity]) {
      t.throws(() => f('x', { outputLength: bad }), rangeErr(new RegExp(`outputLength.*>= 1 && <= ${max}`)))
      t.throws(() => f.create({ outputLength: bad }), rangeErr())
    }
    t.throws(() => f('x', { outputLength: '32' }), typeErr('ERR_INVALID_ARG_TYPE', /of type number/))
    t.is(f('x', { outputLength: max > 64 ? 100 : max, outputFormat: 'buffer' }).length, max > 64 ? 100 : max)
  }
})

test('BLAKE2 key, salt, personalization too long: RangeError naming the limit', (t) => {
  const b = (n) => Buffer.alloc(n)
  t.throws(() => sha.blake2b('x', { key: b(65) }), rangeErr(/key\.length.*<= 64 bytes.*65/))
  t.throws(() => sha.blake2s('x', { key: b(33) }), rangeErr(/<= 32 bytes/))
  t.throws(() => sha.blake2b('x', { salt: b(17) }), rangeErr(/salt\.length.*<= 16/))
  t.throws(() => sha.blake2s('x', { salt: b(9) }), rangeErr(/salt\.length.*<= 8/))
  t.throws(() => sha.blake2b('x', { personalization: b(17) }), rangeErr(/personalization/))
  t.throws(() => sha.blake2s.create({ personalization: b(9) }), rangeErr(/personalization/))
  t.throws(() => sha.blake2b('x', { key: 42 }), typeErr('ERR_INVALID_ARG_TYPE', /"key"/))
})

test('BLAKE3 key must be 32 bytes; key and context are exclusive', (t) => {
  for (const n of [0, 16, 31, 33, 64]) {
    t.throws(() => sha.blake3('x', { key: Buffer.alloc(n) }), rangeErr(/key\.length.*32 bytes/))
  }
  t.throws(() => sha.blake3('x', { key: Buffer.alloc(32), context: 'ctx' }), typeErr('ERR_INVALID_ARG_VALUE', /not both/))
  t.throws(() => sha.blake3('x', { context: Buffer.from([0xff, 0xfe]) }), typeErr('ERR_INVALID_ARG_VALUE', /UTF-8/))
  t.throws(() => sha.blake3('x', { context: 5 }), typeErr('ERR_INVALID_ARG_TYPE', /"context"/))
})

test('update/digest after digest: ERR_HASH_FINALIZED until reset()', (t) => {
  for (const h of [sha.sha256.create(), sha.blake3.create({ outputLength: 50 }), hmac.sha1.create({ key: 'k' })]) {
    h.update('a').digest()
    t.throws(() => h.update('b'), { instanceOf: Error, code: 'ERR_HASH_FINALIZED', message: /reset\(\)/ })
    t.throws(() => h.digest(), { code: 'ERR_HASH_FINALIZED' })
    t.throws(() => h.digest('buffer'), { code: 'ERR_HASH_FINALIZED' })
    t.throws(() => h.copy().update('c'), { code: 'ERR_HASH_FINALIZED' })
    t.notThrows(() => h.reset().update('a').digest())
  }
})

test('randomBytes: size must be an integer in [0, 2^31 - 1]', (t) => {
  for (const bad of ['1', null, undefined, {}, 1n]) {
    t.throws(() => randomBytes(bad), typeErr('ERR_INVALID_ARG_TYPE', /"size"/))
  }
  for (const bad of [-1, 1.5, NaN, Infinity, 2 ** 31]) {
    t.throws(() => randomBytes(bad), rangeErr(/"size"/))
  }
})

test('timingSafeEqual: RangeError on different lengths, TypeError on bad types', (t) => {
  t.throws(() => timingSafeEqual(Buffer.alloc(3), Buffer.alloc(4)), { instanceOf: RangeError, code: 'ERR_OUT_OF_RANGE', message: /same byte length/ })
  t.throws(() => timingSafeEqual(1, Buffer.alloc(1)), typeErr('ERR_INVALID_ARG_TYPE', /"buf1"/))
  t.throws(() => timingSafeEqual(Buffer.alloc(1), null), typeErr('ERR_INVALID_ARG_TYPE', /"buf2"/))
})

test('detached and empty buffers are empty input, not a crash', (t) => {
  const ab = new ArrayBuffer(16)
  const view = new Uint8Array(ab)
  structuredClone(ab, { transfer: [ab] }) // detaches ab
  t.is(view.length, 0)
  t.is(sha.sha256(view), sha.sha256(''))
  t.is(sha.sha256(ab), sha.sha256(''))
  t.is(sha.sha256(new Uint8Array(0)), sha.sha256(''))
  t.is(hmac.sha256(view, { key: view }), hmac.sha256('', { key: '' }))
})

test('a XOF output too large for a string is a RangeError, not a crash', (t) => {
  // 2^30 bytes of SHAKE in hex would be a 2 GiB string: more than V8 allows.
  t.throws(() => sha.shake128('x', { outputLength: 2 ** 30 }), rangeErr(/outputFormat 'buffer'/))
})

test('an incremental XOF digest too large for hex is refused before finalising', (t) => {
  const h = sha.shake256.create({ outputLength: 2 ** 30 }).update('x')
  t.throws(() => h.digest(), rangeErr(/outputFormat 'buffer'/))
  t.is(h.digest('buffer').length, 2 ** 30)
})
