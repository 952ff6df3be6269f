// ESM entry: the same objects as the CommonJS entry.
import api from './index.js'

export default api
export const { sha, hash, hmac, kdf, password, cipher, dsa, kem, hybrid, keys, randomBytes, timingSafeEqual, cpuPaths,
  setMemoryBudget, memoryBudget, diagnosticsChannels } = api
