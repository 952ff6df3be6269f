/// <reference types="node" />
// ESM types for index.mjs (the CommonJS entry's are index.d.ts). index.mjs exports the API object
// as its default export plus the same objects under their own names; this file declares exactly
// those, and re-exports every type of index.d.ts (type-only: `AbortError`, for instance, is a
// value only as `kdf.AbortError`, as at run time).
import type * as cjs from './index.js'

export type * from './index.js'

export declare const sha: typeof cjs.sha
export declare const hash: typeof cjs.hash
export declare const hmac: typeof cjs.hmac
export declare const kdf: typeof cjs.kdf
export declare const password: typeof cjs.password
export declare const cipher: typeof cjs.cipher
export declare const dsa: typeof cjs.dsa
export declare const kem: typeof cjs.kem
export declare const hybrid: typeof cjs.hybrid
export declare const keys: typeof cjs.keys
export declare const randomBytes: typeof cjs.randomBytes
export declare const timingSafeEqual: typeof cjs.timingSafeEqual
export declare const cpuPaths: typeof cjs.cpuPaths
export declare const setMemoryBudget: typeof cjs.setMemoryBudget
export declare const memoryBudget: typeof cjs.memoryBudget
export declare const diagnosticsChannels: typeof cjs.diagnosticsChannels

declare const crypto: {
  sha: typeof cjs.sha
  hash: typeof cjs.hash
  hmac: typeof cjs.hmac
  kdf: typeof cjs.kdf
  password: typeof cjs.password
  randomBytes: typeof cjs.randomBytes
  timingSafeEqual: typeof cjs.timingSafeEqual
  cpuPaths: typeof cjs.cpuPaths
  setMemoryBudget: typeof cjs.setMemoryBudget
  memoryBudget: typeof cjs.memoryBudget
  diagnosticsChannels: typeof cjs.diagnosticsChannels
  cipher: typeof cjs.cipher
  dsa: typeof cjs.dsa
  kem: typeof cjs.kem
  hybrid: typeof cjs.hybrid
  keys: typeof cjs.keys
}
export default crypto
