'use strict'
// Error assertions shared by the specs: the class and the stable `code`.

/** `fn` throws an instance of `Class` whose `code` is `code`. */
function isError(t, fn, Class, code) {
  const err = t.throws(fn, { instanceOf: Class })
  t.is(err.code, code, err.message)
}

/** `promise` rejects with an instance of `Class` whose `code` is `code`. */
async function rejects(t, promise, Class, code) {
  const err = await t.throwsAsync(promise, { instanceOf: Class })
  t.is(err.code, code, err.message)
}

module.exports = { isError, rejects }
