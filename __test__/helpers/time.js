'use strict'
// Wall-clock bounds (child-process timeouts, "settles within" limits) are set for code running
// natively. Under an emulator the same work takes many times longer: scripts/test-arm64.mjs sets
// CRYPTOGRAPHER_TEST_TIME_SCALE when it runs the suite under qemu-user, and every absolute bound
// is multiplied by it. Bounds measured relative to the same machine (a pass measured just
// before) are not scaled.
const SCALE = Number(process.env.CRYPTOGRAPHER_TEST_TIME_SCALE) || 1

/** `ms` milliseconds of native time, in this run's time. */
const scaled = (ms) => ms * SCALE

module.exports = { SCALE, scaled }
