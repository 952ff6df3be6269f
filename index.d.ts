/// <reference types="node" />
// cryptographer.js public API. Every algorithm runs natively (Rust through N-API).
import type { Transform } from 'node:stream'
import type { ReadableStream as WebReadableStream } from 'node:stream/web'

/** Bytes in: strings are UTF-8 encoded; views (Buffer, any TypedArray, DataView) give exactly their own bytes. */
export type Input = string | ArrayBufferView | ArrayBuffer

/** How a result is returned. `'binary'` is a latin1 string; `'buffer'` a Buffer. */
export type OutputFormat = 'hex' | 'base64' | 'base64url' | 'binary' | 'buffer'

/** The result type for an output format: a Buffer for `'buffer'`, a string otherwise. */
export type Output<F extends OutputFormat | undefined> = F extends 'buffer' ? Buffer : string

/** The `outputFormat` option of the hash, HMAC and KDF calls. */
export interface FormatOption<F extends OutputFormat = OutputFormat> {
  /** How the result is returned (see {@link OutputFormat}). Default `'hex'`. */
  outputFormat?: F
}

/** An incremental hash or HMAC, from `X.create()`. */
export interface Hasher<D extends OutputFormat = 'hex'> {
  /** Adds data; returns the same hasher. Throws `ERR_HASH_FINALIZED` after `digest()` until `reset()`. */
  update(data: Input): this
  /** Finalises; default format is the `outputFormat` given to `create()`, else `'hex'`. */
  digest(): Output<D>
  /** Finalises, returning the digest in `outputFormat` instead. */
  digest<F extends OutputFormat>(outputFormat: F): Output<F>
  /** An independent clone of the current state (e.g. for a running digest of a stream). */
  copy(): Hasher<D>
  /** Starts over with the same algorithm, key and options. */
  reset(): this
  /** Digest length in bytes. */
  readonly outputLength: number
  /** Algorithm name, e.g. `'sha256'` or `'hmac-sha256'`. */
  readonly algorithm: string
}

/** A file path, as node:fs takes it. */
export type PathLike = string | Buffer | URL

/** Chunks of bytes from a Node `Readable`, a WHATWG `ReadableStream` or an async generator. */
export type ChunkSource = AsyncIterable<Input> | WebReadableStream<Input>

/** What `onProgress` receives. */
export interface Progress {
  /** Bytes hashed so far. */
  bytes: number
  /** The file's size when it was opened; `undefined` for async iterables and for files without one (pipes, devices). */
  total: number | undefined
}

/** Options of the streaming async forms (`file()`, `async(iterable)`). */
export interface StreamOptions extends AbortOptions {
  /**
   * Called on the main thread at most every ~50 ms while data is hashed (only when `bytes` grew),
   * never once the work completed (so never after the Promise settles). An exception it throws
   * cancels the work and is the rejection.
   */
  onProgress?: (progress: Progress) => void
}

/**
 * Options of the batch forms (`X.batch`, `X.batchAsync`). With `outputFormat: 'buffer'`,
 * `packed: true` returns one Buffer of `inputs.length × outputLength` bytes (digest `i` at
 * `i × outputLength`) instead of an array.
 */
export interface BatchOptions {
  /** Only with `outputFormat: 'buffer'`. Default false. */
  packed?: boolean
}

/** The result of a batch call: one Buffer when packed, else one digest per input, in order. */
export type BatchOutput<F extends OutputFormat | undefined, P extends boolean | undefined> = P extends true ? Buffer : Output<F>[]

/**
 * Writes the result into the caller's buffer instead of allocating one (synchronous one-shot
 * calls only: hashes, HMACs, `encrypt`/`decrypt`). The call returns a Buffer view of `output`'s
 * first bytes, as long as the result. Refused: an `output` shorter than the result (or, for
 * `decrypt`, than the input less its prepended IV and tag) with `RangeError` `ERR_OUT_OF_RANGE`;
 * one whose written bytes share memory with an input (data, key, IV, AAD, salt...: the same
 * ArrayBuffer, overlapping ranges) or with an `outputFormat` other
 * than `'buffer'` with `TypeError` `ERR_INVALID_ARG_VALUE`; async calls refuse it the same way
 * (their result is a new Buffer). A failed `decrypt` leaves the bytes it could have written
 * zeroed, so no unauthenticated plaintext is released.
 */
export interface OutputOption {
  /** The buffer written to: at least as long as the result, sharing no memory with an input. */
  output: ArrayBufferView
  /** `'buffer'` or absent: the result is a Buffer view of `output`. */
  outputFormat?: 'buffer'
}

/** A one-shot hash function with `.create()` for incremental use. `O` are its extra options. */
export interface HashFunction<O extends object = {}> {
  /** The digest of `data` as a hex string, computed on the calling thread. */
  (data: Input): string
  /** Into `options.output` (see `OutputOption`): a Buffer view of it. */
  (data: Input, options: O & OutputOption): Buffer
  /** The digest in `options.outputFormat`, with the algorithm's own options (key, length...). */
  <F extends OutputFormat = 'hex'>(data: Input, options: O & FormatOption<F>): Output<F>
  /** An incremental hasher (`update`, `digest`, `copy`, `reset`) with the same options; `outputFormat` is its `digest()`'s default. */
  create<F extends OutputFormat = 'hex'>(options?: O & FormatOption<F>): Hasher<F>
  /** The one-shot digest, by its explicit name: the same as calling the function (blocks the calling thread). */
  sync(data: Input): string
  /** `sync` into `options.output` (see `OutputOption`): a Buffer view of it. */
  sync(data: Input, options: O & OutputOption): Buffer
  /** `sync` in `options.outputFormat`, with the algorithm's own options. */
  sync<F extends OutputFormat = 'hex'>(data: Input, options: O & FormatOption<F>): Output<F>
  /**
   * The same digest computed on the libuv thread pool, for large inputs: the event loop is not
   * blocked by the hashing. The input is copied at call time (into a reused buffer), so the
   * result is the digest of the bytes as they were when the call was made, whatever happens to
   * them meanwhile (as node:crypto and WebCrypto). `signal` cancels it.
   */
  async<F extends OutputFormat = 'hex'>(data: Input, options?: O & FormatOption<F> & AbortOptions): Promise<Output<F>>
  /**
   * The digest of the chunks of an async iterable (a Node `Readable`, a WHATWG `ReadableStream`,
   * an async generator), fed to a native incremental state as they arrive. An abort rejects at
   * once, even while the source waits for data, and destroys a Node stream source.
   */
  async<F extends OutputFormat = 'hex'>(source: ChunkSource, options?: O & FormatOption<F> & StreamOptions): Promise<Output<F>>
  /**
   * A `Transform` for `stream.pipeline`: it takes chunks (any `Input`; strings as UTF-8, or in the
   * encoding given to `write`) and, when its writable side ends, pushes exactly one chunk: the
   * digest in `outputFormat` (object mode on both sides). A chunk that is not bytes destroys it
   * with `ERR_INVALID_ARG_TYPE`.
   */
  stream<F extends OutputFormat = 'hex'>(options?: O & FormatOption<F>): Transform
  /**
   * The digest of a file, which native code opens, reads and hashes on the libuv thread pool (no
   * chunk passes through JavaScript; BLAKE3 hashes files over 1 MiB on several cores). A missing
   * file, a directory, ... reject with node's fs error (`code` 'ENOENT', 'EISDIR', ..., `errno`,
   * `syscall`, `path`).
   */
  file<F extends OutputFormat = 'hex'>(path: PathLike, options?: O & FormatOption<F> & StreamOptions): Promise<Output<F>>
  /** As `file()`, on the calling thread (for scripts). */
  fileSync<F extends OutputFormat = 'hex'>(path: PathLike, options?: O & FormatOption<F>): Output<F>
  /** `file`, by its explicit name (a Promise). */
  fileAsync<F extends OutputFormat = 'hex'>(path: PathLike, options?: O & FormatOption<F> & StreamOptions): Promise<Output<F>>
  /**
   * The digest of every input, in one native call: an array in the same order and format as
   * `inputs.map((x) => X(x, options))`. The options (and `outputLength`, keys...) apply to every
   * item. An item that is not bytes throws a TypeError naming it (`inputs[3]`). With
   * `outputFormat: 'buffer'` the Buffers are views of one packed buffer; `packed: true` returns
   * that buffer.
   */
  batch(inputs: readonly Input[]): string[]
  /** `batch` with options: every item hashed with them, in `outputFormat` (or packed into one Buffer). */
  batch<F extends OutputFormat = 'hex', P extends boolean | undefined = undefined>(
    inputs: readonly Input[],
    options: O & FormatOption<F> & (P extends true ? { outputFormat: 'buffer'; packed: P } : { packed?: P }),
  ): BatchOutput<F, P>
  /**
   * As `batch`, on the libuv thread pool: the inputs are copied at call time, then hashed in
   * several tasks (one per pool thread, `UV_THREADPOOL_SIZE`, for batches of more than about
   * 256 KiB). `signal` stops every task; small batches are hashed on the calling thread.
   */
  batchAsync<F extends OutputFormat = 'hex', P extends boolean | undefined = undefined>(
    inputs: readonly Input[],
    options?: O & FormatOption<F> & AbortOptions & (P extends true ? { outputFormat: 'buffer'; packed: P } : { packed?: P }),
  ): Promise<BatchOutput<F, P>>
  /** `batch`, by its explicit name (blocks the calling thread). */
  batchSync(inputs: readonly Input[]): string[]
  /** `batch` with options, by its explicit name. */
  batchSync<F extends OutputFormat = 'hex', P extends boolean | undefined = undefined>(
    inputs: readonly Input[],
    options: O & FormatOption<F> & (P extends true ? { outputFormat: 'buffer'; packed: P } : { packed?: P }),
  ): BatchOutput<F, P>
  /** Default digest length in bytes. */
  readonly outputLength: number
  /** Block length in bytes (0 for XOFs). */
  readonly blockLength: number
}

/** Options of SHAKE128 and SHAKE256, whose output has the length asked for. */
export interface ShakeOptions {
  /** Output length in bytes, 1 to 2^30; default 16 (SHAKE128) or 32 (SHAKE256). */
  outputLength?: number
}

/** Options of BLAKE2b and BLAKE2s (RFC 7693): keyed mode, salt, personalization, digest length. */
export interface Blake2Options {
  /** Key for keyed (MAC) mode: up to 64 bytes (BLAKE2b) or 32 bytes (BLAKE2s). */
  key?: Input
  /** Salt: up to 16 bytes (BLAKE2b) or 8 bytes (BLAKE2s), zero padded. */
  salt?: Input
  /** Personalization: up to 16 bytes (BLAKE2b) or 8 bytes (BLAKE2s), zero padded. */
  personalization?: Input
  /** Digest length in bytes: 1..64 (BLAKE2b, default 64) or 1..32 (BLAKE2s, default 32). */
  outputLength?: number
}

/** Options of BLAKE3: its keyed-hash and derive-key modes, and extended output. */
export interface Blake3Options {
  /** 32-byte key: keyed-hash mode (a MAC). Not with `context`. */
  key?: Input
  /** Context string (UTF-8 text; bytes that are not valid UTF-8 are a TypeError, as BLAKE3 defines the context as a string): derive-key mode (KDF). Not with `key`. */
  context?: Input
  /** Output length in bytes (extended output), 1 to 2^30; default 32. */
  outputLength?: number
}

/** The hash functions of `crypto.sha`, by name. */
export interface ShaNamespace {
  /** MD4 (RFC 1320), 16 bytes. Broken: for old formats only. */
  md4: HashFunction
  /** MD5 (RFC 1321), 16 bytes. Broken against collisions: for checksums and old formats only. */
  md5: HashFunction
  /** SHA-1 (FIPS 180-4), 20 bytes. Broken against collisions: not for signatures or certificates. */
  sha1: HashFunction
  /** SHA-224 (FIPS 180-4), 28 bytes. */
  sha224: HashFunction
  /** SHA-256 (FIPS 180-4), 32 bytes. */
  sha256: HashFunction
  /** SHA-384 (FIPS 180-4), 48 bytes. */
  sha384: HashFunction
  /** SHA-512 (FIPS 180-4), 64 bytes. */
  sha512: HashFunction
  /** SHA-512/224 (FIPS 180-4), 28 bytes. */
  sha512_224: HashFunction
  /** SHA-512/256 (FIPS 180-4), 32 bytes. */
  sha512_256: HashFunction
  /** SHA3-224 (FIPS 202), 28 bytes. */
  sha3_224: HashFunction
  /** SHA3-256 (FIPS 202), 32 bytes. */
  sha3_256: HashFunction
  /** SHA3-384 (FIPS 202), 48 bytes. */
  sha3_384: HashFunction
  /** SHA3-512 (FIPS 202), 64 bytes. */
  sha3_512: HashFunction
  /** Keccak-256 with the original Keccak padding (Ethereum), not SHA3-256. */
  keccak256: HashFunction
  /** SHAKE128 (FIPS 202), an extendable-output function: 16 bytes unless `outputLength`. */
  shake128: HashFunction<ShakeOptions>
  /** SHAKE256 (FIPS 202), an extendable-output function: 32 bytes unless `outputLength`. */
  shake256: HashFunction<ShakeOptions>
  /** BLAKE2b (RFC 7693), 1 to 64 bytes (default 64); keyed with `key`. */
  blake2b: HashFunction<Blake2Options>
  /** BLAKE2s (RFC 7693), 1 to 32 bytes (default 32); keyed with `key`. */
  blake2s: HashFunction<Blake2Options>
  /** BLAKE3, 32 bytes by default (any length with `outputLength`); keyed-hash and derive-key modes. */
  blake3: HashFunction<Blake3Options>
  /** RIPEMD-160, 20 bytes (Bitcoin addresses, old formats). */
  ripemd160: HashFunction
  /** Whirlpool (ISO/IEC 10118-3), 64 bytes. */
  whirlpool: HashFunction
}

/** Options of an HMAC: the key, and the output format. */
export interface HmacOptions<F extends OutputFormat = OutputFormat> extends FormatOption<F> {
  /** The key, any length (RFC 2104; keys longer than the block are hashed first). */
  key: Input
}

/** `hmac.X(data, { key })` and `hmac.X.create({ key })`. */
export interface HmacFunction {
  /** Into `options.output` (see `OutputOption`): a Buffer view of it. */
  (data: Input, options: HmacOptions<'buffer'> & OutputOption): Buffer
  /** The MAC of `data` under `options.key`, in `outputFormat` (default hex), computed on the calling thread. */
  <F extends OutputFormat = 'hex'>(data: Input, options: HmacOptions<F>): Output<F>
  /** An incremental MAC under `options.key` (`update`, `digest`, `copy`, `reset`). */
  create<F extends OutputFormat = 'hex'>(options: HmacOptions<F>): Hasher<F>
  /** The one-shot MAC, by its explicit name: the same as calling the function (blocks the calling thread). */
  sync(data: Input, options: HmacOptions<'buffer'> & OutputOption): Buffer
  /** `sync` in `options.outputFormat`. */
  sync<F extends OutputFormat = 'hex'>(data: Input, options: HmacOptions<F>): Output<F>
  /** The same MAC computed on the libuv thread pool (see `HashFunction.async`). */
  async<F extends OutputFormat = 'hex'>(data: Input, options: HmacOptions<F> & AbortOptions): Promise<Output<F>>
  /** The MAC of the chunks of an async iterable (see `HashFunction.async`). */
  async<F extends OutputFormat = 'hex'>(source: ChunkSource, options: HmacOptions<F> & StreamOptions): Promise<Output<F>>
  /** A `Transform` pushing the one MAC when its input ends (see `HashFunction.stream`). */
  stream<F extends OutputFormat = 'hex'>(options: HmacOptions<F>): Transform
  /** The MAC of a file, read and computed natively on the thread pool (see `HashFunction.file`). */
  file<F extends OutputFormat = 'hex'>(path: PathLike, options: HmacOptions<F> & StreamOptions): Promise<Output<F>>
  /** As `file()`, on the calling thread. */
  fileSync<F extends OutputFormat = 'hex'>(path: PathLike, options: HmacOptions<F>): Output<F>
  /** `file`, by its explicit name (a Promise). */
  fileAsync<F extends OutputFormat = 'hex'>(path: PathLike, options: HmacOptions<F> & StreamOptions): Promise<Output<F>>
  /** The MAC of every input under one key, in one native call (see `HashFunction.batch`). */
  batch<F extends OutputFormat = 'hex', P extends boolean | undefined = undefined>(
    inputs: readonly Input[],
    options: HmacOptions<F> & (P extends true ? { outputFormat: 'buffer'; packed: P } : { packed?: P }),
  ): BatchOutput<F, P>
  /** As `batch`, split across the libuv thread pool (see `HashFunction.batchAsync`). */
  batchAsync<F extends OutputFormat = 'hex', P extends boolean | undefined = undefined>(
    inputs: readonly Input[],
    options: HmacOptions<F> & AbortOptions & (P extends true ? { outputFormat: 'buffer'; packed: P } : { packed?: P }),
  ): Promise<BatchOutput<F, P>>
  /** `batch`, by its explicit name (blocks the calling thread). */
  batchSync<F extends OutputFormat = 'hex', P extends boolean | undefined = undefined>(
    inputs: readonly Input[],
    options: HmacOptions<F> & (P extends true ? { outputFormat: 'buffer'; packed: P } : { packed?: P }),
  ): BatchOutput<F, P>
  /** MAC length in bytes: the hash's digest length. */
  readonly outputLength: number
  /** Block length in bytes of the underlying hash. */
  readonly blockLength: number
}

/** HMAC (RFC 2104) over each fixed-output hash of {@link ShaNamespace}, by the same names. */
export type HmacNamespace = { [K in Exclude<keyof ShaNamespace, 'shake128' | 'shake256' | 'blake3'>]: HmacFunction }

/** The hash functions: `sha.sha256(data, options?)`, `.create()`, `.async()`, `.file()`, `.stream()`, `.batch()` (docs/hashing.md). */
export declare const sha: ShaNamespace
/** Alias of `sha`. */
export declare const hash: ShaNamespace
/** HMAC over every fixed-output hash of `sha`: `hmac.sha256(data, { key })` (docs/hashing.md). */
export declare const hmac: HmacNamespace

/** `size` bytes (0 ≤ size < 2^31) from the operating system's CSPRNG. */
export declare function randomBytes(size: number): Buffer
/** Constant-time equality; throws `RangeError` when the lengths differ. */
export declare function timingSafeEqual(a: Input, b: Input): boolean

/**
 * The code path each backend took on this CPU at run time (feature detection), so that a fall
 * back to portable code shows: e.g. `{ sha256: 'sha-ni', aes: 'vaes256', aesGcm: 'vaes-avx2' }` on
 * a recent x86-64 CPU, `{ sha256: 'sha2', aes: 'aes', aesGcm: 'aes+pmull' }` on an arm64 CPU with
 * the crypto extensions. The crates' own tests are restated from their sources (src/cpu.rs) for
 * x86-64 and arm64; on other architectures their rows read 'unprobed' (ours are always read
 * directly).
 */
export interface CpuPaths {
  /** RustCrypto sha1: 'sha-ni' | 'sha1' (ARMv8 SHA-1 instructions) | 'soft'. */
  sha1: string
  /** SHA-224/256 (RustCrypto sha2): 'sha-ni' | 'sha2' (ARMv8 SHA-256 instructions) | 'soft'. */
  sha256: string
  /** SHA-256 batch hashing (ours): 'sha-ni' | 'one-by-one'. */
  sha256Batch: string
  /** SHA-384/512/512-224/512-256 (hashing, HMAC, PBKDF2, batches, streams): 'avx2-bmi2' (ours: AVX2 message schedule, BMI2 rounds) | else RustCrypto sha2's 'avx2' | 'sha512' (ARMv8.2 SHA-512 instructions) | 'soft'. */
  sha512: string
  /** MD5 (no SIMD path): 'soft'. */
  md5: string
  /** Every Keccak hash (SHA-3, SHAKE, Keccak-256: our sponge): 'bmi2-asm' (our x86-64 BMI1/BMI2 assembly, where it measured faster than AWS-LC's permutation in this process) | else AWS-LC's Keccak-f[1600]: 'aws-lc-asm' (s2n-bignum scalar assembly: x86-64 Linux and macOS, arm64 Neoverse N1/V1/V2/V3) | 'aws-lc-sha3' (arm64 with the SHA-3 instructions) | 'aws-lc-armv8' (other arm64) | 'aws-lc-c' (x86-64 Windows) | 'unprobed'. */
  sha3: string
  /** BLAKE2b: 'simd' (blake2b_simd) | 'scalar' (ours), whichever measured faster in this process on its first BLAKE2b hash (40-80 µs, once); 'scalar' off x86-64. */
  blake2b: string
  /** BLAKE2s: the same choice between blake2s_simd and ours. */
  blake2s: string
  /** BLAKE3: 'avx512' | 'avx2' | 'sse41' | 'sse2' | 'neon' | 'portable'. */
  blake3: string
  /** AES in every mode but 96-bit-IV GCM (RustCrypto aes): 'vaes512' | 'vaes256' | 'aes-ni' | 'aes' (ARMv8 AES instructions) | 'soft'. */
  aes: string
  /** AES-GCM with a 96-bit IV and 16-byte tag (ring; else aes + ghash): 'vaes-avx2' | 'aes-ni-avx-movbe' | 'aes-ni-clmul' | 'vpaes-ssse3' | 'aes+pmull' (ARMv8 AES and PMULL) | 'vpaes-neon' | 'nohw'. */
  aesGcm: string
  /** GHASH of GCM with other IV lengths (polyval): 'clmul' | 'pmull' | 'soft'. */
  ghash: string
  /** (X)ChaCha20-Poly1305: 'avx512-ifma' (ours, AVX-512F ChaCha20 and AVX-512 IFMA Poly1305, messages of 8 KiB and more; shorter ones take ring's AVX2 code) | ring's 'avx2' | 'ssse3' | 'neon' (inputs over 192 bytes) | 'nohw'. */
  chacha20: string
  /** scrypt's Salsa20/8 core (ours): 'avx512vl' | 'sse2' (x86-64) | 'portable'. */
  scrypt: string
  /** bcrypt's Blowfish index (ours): 'bextr' | 'shift'. */
  bcrypt: string
  /** Argon2 block function (argon2-rust's own choice; on arm64 Linux it times Neon against scalar once per process): 'avx512' | 'avx2' | 'sse2' | 'neon' | 'scalar'. */
  argon2: string
}

/** The code path each backend takes on this CPU (see {@link CpuPaths}). */
export declare function cpuPaths(): CpuPaths

/** The process's memory budget for the working memory of Argon2 and scrypt, in bytes. */
export interface MemoryBudget {
  /** The limit. */
  limit: number
  /** Leased now: working memory, and Argon2 memory pooled for reuse. */
  inUse: number
  /** The most in use at once since the limit was last set. */
  peak: number
  /** Async calls waiting for memory. */
  waiting: number
}

/**
 * Sets the memory budget shared by every Argon2 and scrypt call of the process (worker threads
 * included), in bytes. Default: half the memory available to the process, at most 1 GiB and at
 * least 64 MiB, or the environment variable CRYPTOGRAPHER_MEMORY_BUDGET (bytes, or 512M, 1G).
 * An async call whose memory does not fit waits its turn; a synchronous one is refused
 * (`ERR_CRYPTO_MEMORY_BUDGET_BUSY`); one needing more than the whole budget is refused
 * (`ERR_CRYPTO_MEMORY_BUDGET`).
 */
export declare function setMemoryBudget(bytes: number): void

/** The memory budget's limit and what is in use and waiting now. */
export declare function memoryBudget(): MemoryBudget

/** A family of async calls with its own diagnostics channel. */
export type DiagnosticsFamily = 'hash' | 'hmac' | 'cipher' | 'kdf' | 'password' | 'pk' | 'kem' | 'hybrid' | 'age' | 'stream' | 'file'

/**
 * The name of each family's `diagnostics_channel` TracingChannel (`cryptographer:<family>`):
 * `diagnostics_channel.tracingChannel(diagnosticsChannels.hash).subscribe({ asyncEnd(ctx) {} })`.
 * Its events are `tracing:cryptographer:<family>:start`, `:end`, `:asyncStart`, `:asyncEnd` and
 * `:error`, each with one {@link DiagnosticsContext} per call (docs/diagnostics.md).
 */
export declare const diagnosticsChannels: Readonly<Record<DiagnosticsFamily, string>>

/**
 * What an async call publishes on its family's channel: names, byte counts, cost parameters and
 * times, never a key, password, salt, plaintext or result. The same object goes with every event
 * of one call; times are `performance.now()` milliseconds of the calling thread.
 */
export interface DiagnosticsContext {
  /** The call's family: it is published on `cryptographer:<family>`. */
  family: DiagnosticsFamily
  /** 'digest', 'mac', 'batch', 'hashFile', 'encrypt', 'decrypt', 'derive', 'hash', 'verify', 'sign', 'generateKeypair', ... */
  operation: string
  /** 'sha256', 'aes-gcm', 'argon2', 'ml-kem-768', ...: the function's, made precise (mode, curve, suite) once the arguments are read. */
  algorithm: string
  /** Bytes of data the call processes; undefined where the input is a secret (passwords, keys) or not counted (files, signatures). */
  bytesIn: number | undefined
  /** Cost parameters and sizes (Argon2 memoryCost/timeCost/parallelism, scrypt N/r/p, bcrypt cost, PBKDF2 iterations, RSA modulusLength, batch items); undefined where there are none. */
  params: Record<string, number | string> | undefined
  /** When the call started. */
  startedAt: number
  /** When its first job was queued on the thread pool; undefined when it queued none (small inputs run inline; refused arguments). */
  queuedAt: number | undefined
  /** When a pool thread first picked one of its jobs; undefined when none ran (cancelled while queued). */
  runningAt: number | undefined
  /** When its last job finished on the pool. */
  finishedAt: number | undefined
  /** When the returned Promise settled (set before asyncStart and error). */
  settledAt: number | undefined
  /** The rejection, on error (an AbortError when `signal` aborted). */
  error?: unknown
}

// ---------------------------------------------------------------------------------------------
// Encryption (crypto.cipher)
// ---------------------------------------------------------------------------------------------

/** AES modes. `ecb`/`cbc` pad with PKCS#7 unless `padding: 'none'`; `gcm`, `gcm-siv`, `ccm`, `siv` authenticate. */
export type AesMode = 'ecb' | 'cbc' | 'ctr' | 'cfb' | 'cfb8' | 'ofb' | 'gcm' | 'gcm-siv' | 'ccm' | 'siv'

/** Decrypt results may also be read as a UTF-8 string. */
export type DecryptOutputFormat = OutputFormat | 'utf8'

/** The result type for a cipher output format: a Buffer (the default) or a string. */
export type CipherOutput<F extends string | undefined> = F extends undefined | 'buffer' ? Buffer : string

/** Options of the one-shot ciphers (`encrypt`/`decrypt` and their forms) of every namespace. */
export interface CipherOptions<F extends string = OutputFormat> {
  /**
   * The key. AES: 16, 24 or 32 bytes (AES-128/192/256); `gcm-siv` 16 or 32; `siv` 32 or 64
   * (two AES-128/256 keys). ChaCha20: 32 bytes. DES: 8 (DES), 16 (two-key 3DES) or 24 (3DES).
   * A wrong length throws `RangeError` (`ERR_OUT_OF_RANGE`) naming the mode and the accepted lengths.
   */
  key: Input
  /**
   * IV / nonce. When omitted (every mode but ECB), a random one of the mode's default length is
   * generated and PREPENDED to the output, and `decrypt` reads it from the front of its input.
   * When given, nothing is prepended. Lengths in bytes (default in brackets): cbc, ctr, cfb,
   * cfb8, ofb 16 [16]; gcm any length ≥ 1 [12] (12 is the fast path); gcm-siv 12 [12]; ccm 7..13
   * [12]; siv any length [16] (empty = deterministic SIV); ChaCha20 12 [12] or 24 (XChaCha20);
   * XChaCha20 24 [24]; DES-CBC 8 [8]. ECB ignores it. ctr uses a 128-bit big-endian counter (as node:crypto).
   */
  iv?: Input
  /** Additional authenticated data (AEAD modes only; any length). Default none. */
  aad?: Input
  /** AEAD tag length in bytes: gcm 12..16, ccm 12, 14 or 16, others 16. Default 16. */
  tagLength?: number
  /** Default `'buffer'`. */
  outputFormat?: F
  /**
   * Synchronous `encrypt`/`decrypt` only: the result is written into this buffer and returned
   * as a Buffer view of it (see `OutputOption`: size, overlap and format rules). Encrypting
   * needs the exact output length; decrypting, the input length less the prepended IV and tag.
   */
  output?: ArrayBufferView
  /** Async forms only: rejects with an `AbortError` if aborted before the work starts. */
  signal?: AbortSignal
}

/** Options of `cipher.aes`: the cipher options with the mode and padding. */
export interface AesOptions<F extends string = OutputFormat> extends CipherOptions<F> {
  /** Case-insensitive; default `'gcm'`. Unknown modes throw `TypeError` (`ERR_INVALID_ARG_VALUE`) listing the modes. */
  mode?: AesMode
  /** ECB/CBC only: `'pkcs7'` (default) or `'none'` (data must be a multiple of 16 bytes). */
  padding?: 'pkcs7' | 'none'
}

/** Options of `cipher.des`: the cipher options with the mode and padding. */
export interface DesOptions<F extends string = OutputFormat> extends CipherOptions<F> {
  /** Default `'cbc'`. */
  mode?: 'ecb' | 'cbc'
  /** `'pkcs7'` (default) or `'none'` (data must be a multiple of 8 bytes). */
  padding?: 'pkcs7' | 'none'
}

/**
 * crypto-js / OpenSSL passphrase format (`"Salted__"` ‖ salt ‖ AES-256-CBC, key and IV from
 * EVP_BytesToKey with one MD5 round, no MAC). WEAK: a guessable passphrase is cheap to
 * brute-force and the ciphertext is malleable. For reading data that crypto-js made
 * (`CryptoJS.AES.encrypt(text, passphrase).toString()`) and migrating it; for new data use GCM with
 * a random key (or an Argon2-derived one). Empty passphrases are refused.
 */
export interface PassphraseOptions<F extends string = string> {
  /** Non-empty. */
  passphrase: Input
  /** Encrypt: default `'base64'` (the crypto-js string). Decrypt: default `'buffer'`. */
  outputFormat?: F
}

/**
 * One cipher namespace. Decryption failures of any kind (wrong tag, wrong key, bad padding,
 * truncated input) throw one `Error` with `code: 'ERR_CRYPTO_DECRYPT_FAILED'` and one message, and
 * release no plaintext.
 */
export interface CipherNamespace<O extends CipherOptions<any>> {
  /** Encrypts; AEAD output is `ciphertext ‖ tag` (SIV: `V ‖ ciphertext`, as RFC 5297). */
  encrypt<F extends OutputFormat | undefined = undefined>(data: Input, options: O & { outputFormat?: F }): CipherOutput<F>
  /**
   * Decrypts what `encrypt` wrote (the IV read from the front unless `iv` is given); AEAD modes
   * check the tag before any plaintext is returned. Blocks the calling thread.
   */
  decrypt<F extends DecryptOutputFormat | undefined = undefined>(data: Input, options: O & { outputFormat?: F }): CipherOutput<F>
  /** `encrypt`, by its explicit name (blocks the calling thread). */
  encryptSync<F extends OutputFormat | undefined = undefined>(data: Input, options: O & { outputFormat?: F }): CipherOutput<F>
  /** `decrypt`, by its explicit name (blocks the calling thread). */
  decryptSync<F extends DecryptOutputFormat | undefined = undefined>(data: Input, options: O & { outputFormat?: F }): CipherOutput<F>
  /** As `encrypt`, on the libuv thread pool (for large payloads; inputs are copied first). */
  encryptAsync<F extends OutputFormat | undefined = undefined>(data: Input, options: O & { outputFormat?: F }): Promise<CipherOutput<F>>
  /** As `decrypt`, on the libuv thread pool (inputs are copied first). */
  decryptAsync<F extends DecryptOutputFormat | undefined = undefined>(data: Input, options: O & { outputFormat?: F }): Promise<CipherOutput<F>>
  /**
   * Encrypts every message under one key, in one native call (the key schedule is expanded
   * once): an array of results, each exactly what `encrypt(message, options)` returns, so a fresh
   * random IV is generated and prepended for each message (one call to the CSPRNG per 256
   * messages). `ivs` gives one IV per message instead (nothing is prepended, as with `iv`); they
   * must be pairwise distinct. `aad` applies to every message.
   */
  encryptBatch<F extends OutputFormat | undefined = undefined>(messages: readonly Input[], options: BatchCipherOptions<O> & { outputFormat?: F }): CipherOutput<F>[]
  /**
   * Decrypts every message (`ivs`: when the IVs are not prepended). A failure of any message
   * (wrong tag, bad padding, truncated) throws `ERR_CRYPTO_DECRYPT_FAILED` naming it
   * (`messages[3]`), and no plaintext of any message is returned.
   */
  decryptBatch<F extends DecryptOutputFormat | undefined = undefined>(messages: readonly Input[], options: BatchCipherOptions<O> & { outputFormat?: F }): CipherOutput<F>[]
  /** `encryptBatch`, by its explicit name (blocks the calling thread). */
  encryptBatchSync<F extends OutputFormat | undefined = undefined>(messages: readonly Input[], options: BatchCipherOptions<O> & { outputFormat?: F }): CipherOutput<F>[]
  /** `decryptBatch`, by its explicit name (blocks the calling thread). */
  decryptBatchSync<F extends DecryptOutputFormat | undefined = undefined>(messages: readonly Input[], options: BatchCipherOptions<O> & { outputFormat?: F }): CipherOutput<F>[]
  /** As `encryptBatch`, on the libuv thread pool: messages copied at call time, one task per pool thread. */
  encryptBatchAsync<F extends OutputFormat | undefined = undefined>(messages: readonly Input[], options: BatchCipherOptions<O> & { outputFormat?: F }): Promise<CipherOutput<F>[]>
  /** As `decryptBatch`, on the libuv thread pool; rejects as a whole, releasing no plaintext. */
  decryptBatchAsync<F extends DecryptOutputFormat | undefined = undefined>(messages: readonly Input[], options: BatchCipherOptions<O> & { outputFormat?: F }): Promise<CipherOutput<F>[]>
  /** A kept key: the key schedule is expanded once (per mode) and reused; about 1.2–1.6× cheaper per small message (64 B–1 KiB) end to end. */
  key(key: Input): CipherKey<Omit<O, 'key'>>
  /** The accepted `mode` values. */
  readonly modes: readonly string[]
}

/** The options of the batch forms: the namespace's, with `ivs` (one IV per message) for `iv`. */
export type BatchCipherOptions<O> = Omit<O, 'iv' | 'outputFormat'> & {
  /** One IV (nonce) per message, of a length the mode takes; for encryption, pairwise distinct. */
  ivs?: readonly Input[]
}

/**
 * AES. The crypto-js `Salted__` passphrase format is read and written only by
 * `cipher.legacy.cryptoJs`: `encrypt` / `decrypt` (and their async forms) with `passphrase` throw
 * `ERR_INVALID_ARG_VALUE` naming it.
 */
export interface AesNamespace extends CipherNamespace<AesOptions<any>> {}

/** A key kept across calls (`crypto.cipher.aes.key(key)`); options as the namespace's, without `key`. */
export interface CipherKey<O> {
  /** As the namespace's `encrypt`, with this key (blocks the calling thread). */
  encrypt<F extends OutputFormat | undefined = undefined>(data: Input, options?: O & { outputFormat?: F }): CipherOutput<F>
  /** As the namespace's `decrypt`, with this key (blocks the calling thread). */
  decrypt<F extends DecryptOutputFormat | undefined = undefined>(data: Input, options?: O & { outputFormat?: F }): CipherOutput<F>
  /** `encrypt`, by its explicit name. */
  encryptSync<F extends OutputFormat | undefined = undefined>(data: Input, options?: O & { outputFormat?: F }): CipherOutput<F>
  /** `decrypt`, by its explicit name. */
  decryptSync<F extends DecryptOutputFormat | undefined = undefined>(data: Input, options?: O & { outputFormat?: F }): CipherOutput<F>
  /** `encrypt` on the libuv thread pool (inputs copied first). */
  encryptAsync<F extends OutputFormat | undefined = undefined>(data: Input, options?: O & { outputFormat?: F }): Promise<CipherOutput<F>>
  /** `decrypt` on the libuv thread pool (inputs copied first). */
  decryptAsync<F extends DecryptOutputFormat | undefined = undefined>(data: Input, options?: O & { outputFormat?: F }): Promise<CipherOutput<F>>
}

/**
 * The secret of a streaming AEAD call: exactly one of a 32-byte `key` and a `passphrase` (its key
 * comes from Argon2id on the libuv pool; the Argon2id parameters and salt go in the header).
 */
export type StreamSecret =
  | {
      /** The 32-byte key. */
      key: Input
      /** Not with `key`. */
      passphrase?: undefined
    }
  | {
      /** Non-empty; a string is used as its UTF-8 bytes. */
      passphrase: Input
      /** Not with `passphrase`. */
      key?: undefined
    }

/** Options of `encryptStream` / `encryptFile` (see docs/stream-format.md). */
export type SealStreamOptions = StreamSecret & AbortOptions & {
  /** Additional data bound to the stream (not stored in it): decryption needs the same bytes. */
  aad?: Input
  /** Plaintext bytes per segment, 1024 to 16777216. Default 65536 (64 KiB). */
  segmentSize?: number
  /** Argon2id memory in KiB, with a passphrase only. Default 65536 (the password policy's). */
  memoryCost?: number
  /** Argon2id passes, with a passphrase only. Default 3. */
  timeCost?: number
  /** Argon2id lanes, with a passphrase only. Default 4. */
  parallelism?: number
}

/**
 * Options of `decryptStream` / `decryptFile`. The segment size and the Argon2id cost are read from
 * the header; a header asking for more than the `max*` ceilings (defaults 2 GiB, t = 10, p = 64)
 * is refused before any work.
 */
export type OpenStreamOptions = StreamSecret & AbortOptions & Argon2Limits & {
  /** The additional data the stream was sealed with. */
  aad?: Input
  /**
   * Also read version-1 streams (default false: refused with `ERR_CRYPTO_DECRYPT_FAILED`).
   * Version 1 does not commit to its key: a crafted version-1 stream opens under two keys or
   * passphrases, so set this only to re-encrypt your own old streams.
   */
  allowV1?: boolean
}

/** What `onProgress` of `encryptFile` / `decryptFile` receives: source bytes read, the source's size. */
export interface FileProgress {
  /** Bytes of `src` read so far. */
  bytes: number
  /** The size of `src` when it was opened; `undefined` for files without one (pipes, devices). */
  total: number | undefined
}

/** Options of `encryptFile` / `decryptFile` besides the stream's. */
export interface FileOptions {
  /**
   * Called on the main thread at most every ~50 ms while the file is processed (only when `bytes`
   * grew), never once the work completed (so never after the Promise settles, nor after `dst`
   * was renamed into place). An exception it throws cancels the work and is the rejection.
   */
  onProgress?: (progress: FileProgress) => void
}

/** What `encryptFile` / `decryptFile` resolve to. */
export interface FileResult {
  /** Bytes written to `dst`. */
  bytes: number
}

/**
 * Streaming authenticated encryption (AES-256-GCM on `cipher.aes`, XChaCha20-Poly1305 on
 * `cipher.xchacha20`) in the STREAM construction: a header, then segments each sealed with its own
 * nonce, so truncation, reordering and appended bytes are detected. The header commits to the key,
 * passphrase and aad, so a stream opens under one of each only. Every refusal (a flipped bit,
 * truncation, a wrong key, passphrase or aad, an empty input) is `ERR_CRYPTO_DECRYPT_FAILED`.
 * Format: docs/stream-format.md (version 2).
 */
export interface StreamingAead {
  /** A Transform from plaintext chunks to the sealed stream. */
  encryptStream(options: SealStreamOptions): Transform
  /**
   * A Transform from a sealed stream to its plaintext. A segment's plaintext is pushed only after
   * its tag verified; the stream fails (and earlier segments may have been pushed) on any refusal,
   * so treat an error as the failure of the whole message.
   */
  decryptStream(options: OpenStreamOptions): Transform
  /**
   * Reads `src`, seals it and writes `dst`, natively on the libuv pool, through a temporary file
   * beside `dst` (mode 0600) renamed over it: `dst` is replaced by a new file (a symlink at `dst`
   * is replaced, its target untouched).
   */
  encryptFile(src: PathLike, dst: PathLike, options: SealStreamOptions & FileOptions): Promise<FileResult>
  /**
   * Reads `src`, opens it and writes `dst` natively on the libuv pool: to a temporary file beside
   * `dst`, renamed over it only after the last segment verified. After any failure or abort no
   * `dst` and no temporary file remain, and an existing `dst` is untouched.
   */
  decryptFile(src: PathLike, dst: PathLike, options: OpenStreamOptions & FileOptions): Promise<FileResult>
}

/** The Argon2id cost of a passphrase (key derivation); the library's password policy by default. */
export interface SealCostOptions {
  /** Argon2id memory in KiB. Default 65536 (64 MiB). */
  memoryCost?: number
  /** Argon2id passes. Default 3. */
  timeCost?: number
  /** Argon2id lanes. Default 4. */
  parallelism?: number
}

/** Options of `sealSync` / `sealAsync` (docs/stream-format.md, "Sealed messages"). */
export interface SealOptions extends SealCostOptions {
  /** Non-empty; a string is used as its UTF-8 bytes. */
  passphrase: Input
  /** Additional data bound to the message (not stored in it): opening needs the same bytes. */
  aad?: Input
}

/**
 * Options of `openSync` / `openAsync`. The Argon2id cost is read from the message; one above the
 * `max*` ceilings (defaults 2 GiB, t = 10, p = 64) is refused before any work.
 */
export interface OpenOptions<F extends string = DecryptOutputFormat> extends Argon2Limits {
  /** The passphrase the message was sealed with (a string as its UTF-8 bytes). */
  passphrase: Input
  /** The additional data the message was sealed with. */
  aad?: Input
  /** Default: a Buffer. `'utf8'` for text. */
  outputFormat?: F
}

/**
 * A key derived once from a passphrase (`deriveKeySync` / `deriveKeyAsync`): Argon2id's 32-byte
 * output under its own random salt, held natively (never the passphrase). It seals any number of
 * messages without running Argon2id again, each under its own random salt (so its own key and
 * nonces). Its messages carry that salt and cost, so `openSync`/`openAsync` with the passphrase
 * opens them; the key itself opens only messages it sealed. `dispose()` (or `using`) wipes it at
 * once; a key never disposed is wiped when it is garbage-collected.
 */
export interface PassphraseKey {
  /** Seals `data` (a string as its UTF-8 bytes). No Argon2id: microseconds for a small message. */
  sealSync(data: Input, options?: { aad?: Input }): Buffer
  /** `sealSync` on the libuv thread pool (the data copied at call time). */
  sealAsync(data: Input, options?: { aad?: Input } & AbortOptions): Promise<Buffer>
  /** Opens a message this key sealed (`ERR_CRYPTO_DECRYPT_FAILED` for any other). */
  openSync<F extends DecryptOutputFormat | undefined = undefined>(sealed: ArrayBufferView | ArrayBuffer, options?: { aad?: Input; outputFormat?: F }): CipherOutput<F>
  /** `openSync` on the libuv thread pool. */
  openAsync<F extends DecryptOutputFormat | undefined = undefined>(sealed: ArrayBufferView | ArrayBuffer, options?: { aad?: Input; outputFormat?: F } & AbortOptions): Promise<CipherOutput<F>>
  /** Wipes the key; later calls throw `ERR_INVALID_STATE` (calls already started finish). */
  dispose(): void
  /** `dispose()`, for `using` declarations. */
  [Symbol.dispose](): void
  /** True once disposed. */
  readonly disposed: boolean
}

/**
 * Sealed messages: a message and a passphrase in one call, in memory (AES-256-GCM on `cipher.aes`,
 * XChaCha20-Poly1305 on `cipher.xchacha20`). A sealed message is a stream of the library's format
 * (docs/stream-format.md, "Sealed messages"): authenticated, versioned, committing to the
 * passphrase and aad, with Argon2id's cost and salt in its header; 107 bytes longer than the
 * message up to 64 KiB (123 from a {@link PassphraseKey}), 16 more per further 64 KiB. Every
 * refusal (wrong passphrase or aad, a changed, cut or extended message) is
 * `ERR_CRYPTO_DECRYPT_FAILED`. The `*Sync` forms block for the Argon2id hash (about 85 ms of a core at
 * the default cost); the `*Async` forms run on the libuv pool and take `signal`.
 */
export interface PassphraseSealing {
  /** Seals `data` (a string as its UTF-8 bytes) with `options.passphrase`, over a new random salt: the sealed message. */
  sealSync(data: Input, options: SealOptions): Buffer
  /** `sealSync` with Argon2id and the sealing on the libuv pool (the data copied at call time). */
  sealAsync(data: Input, options: SealOptions & AbortOptions): Promise<Buffer>
  /**
   * Opens a sealed message with `options.passphrase`: a Buffer, or `outputFormat`. Argon2id
   * costs above the `max*` ceilings are refused before any work.
   */
  openSync<F extends DecryptOutputFormat | undefined = undefined>(sealed: ArrayBufferView | ArrayBuffer, options: OpenOptions<F & string> & { outputFormat?: F }): CipherOutput<F>
  /** `openSync` with Argon2id and the opening on the libuv pool. */
  openAsync<F extends DecryptOutputFormat | undefined = undefined>(sealed: ArrayBufferView | ArrayBuffer, options: OpenOptions<F & string> & { outputFormat?: F } & AbortOptions): Promise<CipherOutput<F>>
  /** Derives a {@link PassphraseKey} from `passphrase` (one Argon2id hash, over a new random salt). */
  deriveKeySync(passphrase: Input, options?: SealCostOptions): PassphraseKey
  /** `deriveKeySync` with Argon2id on the libuv pool. */
  deriveKeyAsync(passphrase: Input, options?: SealCostOptions & AbortOptions): Promise<PassphraseKey>
}

/** The namespaces of `crypto.cipher`. */
export interface CipherApi {
  /** X25519 key agreement (RFC 7748). */
  x25519: X25519Namespace
  /** ECDH on P-256, P-384, P-521 and secp256k1. */
  ecdh: EcdhNamespace
  /** RSAES-OAEP (AWS-LC). */
  rsa_oaep: RsaOaepNamespace
  /** AES in ECB, CBC, CTR, CFB, CFB8, OFB, GCM, GCM-SIV, CCM and SIV; default GCM. Streaming AES-256-GCM. */
  aes: AesNamespace & StreamingAead & PassphraseSealing
  /** ChaCha20-Poly1305 (12-byte nonce) or XChaCha20-Poly1305 (24-byte nonce). */
  chacha20: CipherNamespace<CipherOptions<any>>
  /** XChaCha20-Poly1305 (24-byte nonce; a random nonce is safe to use). Streaming XChaCha20-Poly1305. */
  xchacha20: CipherNamespace<CipherOptions<any>> & StreamingAead & PassphraseSealing
  /** Legacy DES / 3DES (EDE), ECB or CBC, PKCS#7. For old data only. */
  des: CipherNamespace<DesOptions<any>>
  /** Weak formats of other libraries, kept to read old data and migrate it. */
  legacy: {
    /** The crypto-js / OpenSSL `Salted__` passphrase format. See {@link PassphraseOptions}. */
    cryptoJs: CryptoJsNamespace
  }
  /** age v1 files (age-encryption.org/v1) encrypted to a passphrase or X25519 keys. See {@link AgeNamespace}. */
  age: AgeNamespace
}

/**
 * What an age file is encrypted to: a passphrase (scrypt), or one or more X25519 recipients
 * (`age1…` strings, as `age-keygen` prints; see {@link AgeNamespace.generateIdentity}), not both.
 */
export type AgeEncryptKey =
  | {
      /** Non-empty; a string is used as its UTF-8 bytes (as the `age` and `rage` tools do). */
      passphrase: Input
      /** Not with `passphrase`. */
      recipients?: undefined
    }
  | {
      /** `age1…` strings (Bech32); each gets its own X25519 stanza. */
      recipients: readonly string[]
      /** Not with `recipients`. */
      passphrase?: undefined
    }

/** Options of `cipher.age.encrypt` and its forms: the passphrase or recipients, the scrypt cost, armor. */
export type AgeEncryptOptions = AgeEncryptKey & {
  /**
   * scrypt work factor (passphrases only; refused with `recipients`): N = 2^workFactor (r = 8, p = 1), 1..30. Default 18 (as
   * age: about 0.3-1 s and 256 MiB). Decrypting needs `maxWorkFactor` >= this value (19 by
   * default here; the age tool accepts up to 22).
   */
  workFactor?: number
  /** Return the ASCII-armored (PEM) text as a string instead of the binary file. Default false. */
  armor?: boolean
}

/**
 * What an age file is decrypted with: the passphrase, or X25519 identities
 * (`AGE-SECRET-KEY-1…` strings, one as `identity` or several as `identities`), not both.
 */
export type AgeDecryptKey =
  | {
      /** The passphrase the file was encrypted with; a string is used as its UTF-8 bytes. */
      passphrase: Input
      /** Not with `passphrase`. */
      identity?: undefined
      /** Not with `passphrase`. */
      identities?: undefined
    }
  | {
      /** One `AGE-SECRET-KEY-1…` string. */
      identity: string
      /** Not with `identity`. */
      passphrase?: undefined
      /** Not with `identity`. */
      identities?: undefined
    }
  | {
      /** `AGE-SECRET-KEY-1…` strings: the file opens with whichever of them it was encrypted to. */
      identities: readonly string[]
      /** Not with `identities`. */
      passphrase?: undefined
      /** Not with `identities`. */
      identity?: undefined
    }

/** Options of `cipher.age.decrypt` and its forms: the passphrase or identities, the scrypt ceiling, the output format. */
export type AgeDecryptOptions<F extends string = DecryptOutputFormat> = AgeDecryptKey & {
  /**
   * Refuse files whose scrypt work factor (log2 N) is above this, before any scrypt work, with
   * `RangeError` (`ERR_OUT_OF_RANGE`): a hostile file cannot pin a CPU or take gigabytes (scrypt
   * takes 2^workFactor KiB: 512 MiB at 19, 4 GiB at 22). 1..30, default 19 (opens files the age
   * tool writes, 18, and rage's, 18-19); the scrypt memory also comes from the memory budget
   * (`setMemoryBudget`).
   */
  maxWorkFactor?: number
  /** Default `'buffer'`; `'utf8'` for text. */
  outputFormat?: F
}

/**
 * age v1 (age-encryption.org/v1) with a passphrase (the scrypt recipient type) or X25519 keys
 * (`age1…` recipients, `AGE-SECRET-KEY-1…` identities, as `age-keygen` writes): header MAC, and
 * ChaCha20-Poly1305 STREAM payload in 64 KiB chunks. Files open with `age -d` and `rage -d`, and
 * theirs open here. `encrypt`/`decrypt` take whole files in memory; `encryptFile`/`decryptFile`
 * stream files on disk natively (binary form only).
 *
 * Errors: a file that is not an age file, or whose header or armor breaks the format (including
 * an scrypt stanza beside other stanzas, a low-order X25519 share), and a malformed key string
 * throw `TypeError` (`ERR_INVALID_ARG_VALUE`, the message says what is wrong); a work factor above `maxWorkFactor` throws `RangeError`
 * (`ERR_OUT_OF_RANGE`); every failure to decrypt (wrong passphrase, a file for other recipients
 * or another identity, bad MAC, damaged, truncated or extended payload) throws one `Error` with
 * `code: 'ERR_CRYPTO_DECRYPT_FAILED'` and releases no plaintext.
 */
export interface AgeNamespace {
  /** Encrypts on the libuv thread pool (inputs copied first): the binary file, or with `armor` the PEM text. */
  encrypt(data: Input, options: AgeEncryptOptions & { armor: true } & AbortOptions): Promise<string>
  /** Encrypts on the libuv thread pool: the binary age file. */
  encrypt(data: Input, options: AgeEncryptOptions & AbortOptions): Promise<Buffer>
  /** Decrypts a binary or armored (detected) age file on the libuv thread pool. */
  decrypt<F extends DecryptOutputFormat | undefined = undefined>(data: Input, options: AgeDecryptOptions<F & string> & { outputFormat?: F } & AbortOptions): Promise<CipherOutput<F>>
  /** `encrypt`, by its explicit name (a Promise). */
  encryptAsync(data: Input, options: AgeEncryptOptions & { armor: true } & AbortOptions): Promise<string>
  /** `encrypt` (the binary file), by its explicit name. */
  encryptAsync(data: Input, options: AgeEncryptOptions & AbortOptions): Promise<Buffer>
  /** `decrypt`, by its explicit name (a Promise). */
  decryptAsync<F extends DecryptOutputFormat | undefined = undefined>(data: Input, options: AgeDecryptOptions<F & string> & { outputFormat?: F } & AbortOptions): Promise<CipherOutput<F>>
  /** `encrypt`, blocking the calling thread for the scrypt work. */
  encryptSync(data: Input, options: AgeEncryptOptions & { armor: true }): string
  /** `encrypt` (the binary file), blocking the calling thread. */
  encryptSync(data: Input, options: AgeEncryptOptions): Buffer
  /** `decrypt`, blocking the calling thread. */
  decryptSync<F extends DecryptOutputFormat | undefined = undefined>(data: Input, options: AgeDecryptOptions<F & string> & { outputFormat?: F }): CipherOutput<F>
  /**
   * Encrypts the file `src` into `dst` (a binary age file) natively on the libuv pool; the output
   * goes to a temporary file beside `dst` (mode 0600) renamed over it at the end, so after a
   * failure or an abort no `dst` and no temporary file remain and an existing `dst` is untouched.
   * `armor: true` is refused (`ERR_INVALID_ARG_VALUE`): use `encrypt` for armored files.
   */
  encryptFile(src: PathLike, dst: PathLike, options: AgeEncryptOptions & { armor?: false } & AbortOptions & FileOptions): Promise<FileResult>
  /**
   * Decrypts the binary age file `src` into `dst` natively on the libuv pool; `dst` appears only
   * after the last chunk verified. Failures as `decrypt` (no `dst` left); an armored file is
   * refused (`ERR_INVALID_ARG_VALUE`): use `decrypt` for armored files.
   */
  decryptFile(src: PathLike, dst: PathLike, options: AgeDecryptKey & { maxWorkFactor?: number } & AbortOptions & FileOptions): Promise<FileResult>
  /**
   * A new X25519 identity from the CSPRNG: `identity` (`AGE-SECRET-KEY-1…`, keep it secret; a
   * file holding this line is an `age -i` key file) and its `recipient` (`age1…`).
   */
  generateIdentity(): {
    /** The `AGE-SECRET-KEY-1…` string: keep it secret. */
    identity: string
    /** Its `age1…` recipient, to give to those who encrypt to it. */
    recipient: string
  }
  /** The `age1…` recipient of an `AGE-SECRET-KEY-1…` identity (as `age-keygen -y`). */
  toRecipient(identity: string): string
  /** `{ workFactor: 18, maxWorkFactor: 19 }`. */
  readonly defaults: {
    /** The scrypt work factor `encrypt` writes: 18. */
    readonly workFactor: number
    /** The highest work factor `decrypt` accepts unless told otherwise: 19. */
    readonly maxWorkFactor: number
  }
}

/** `cipher.legacy.cryptoJs`: the async forms run on the libuv pool. */
export interface CryptoJsNamespace {
  /** Returns the `Salted__` message: by default the base64 string `CryptoJS.AES.encrypt` returns. */
  encrypt<F extends OutputFormat | undefined = undefined>(data: Input, options: PassphraseOptions<F & string>): F extends undefined ? string : CipherOutput<F>
  /** Reads a `Salted__` message (base64 string or its bytes); default output a Buffer. */
  decrypt<F extends DecryptOutputFormat | undefined = undefined>(data: Input, options: PassphraseOptions<F & string>): CipherOutput<F>
  /** `encrypt`, by its explicit name (blocks the calling thread). */
  encryptSync<F extends OutputFormat | undefined = undefined>(data: Input, options: PassphraseOptions<F & string>): F extends undefined ? string : CipherOutput<F>
  /** `decrypt`, by its explicit name (blocks the calling thread). */
  decryptSync<F extends DecryptOutputFormat | undefined = undefined>(data: Input, options: PassphraseOptions<F & string>): CipherOutput<F>
  /** `encrypt` on the libuv thread pool. */
  encryptAsync<F extends OutputFormat | undefined = undefined>(data: Input, options: PassphraseOptions<F & string> & AbortOptions): Promise<F extends undefined ? string : CipherOutput<F>>
  /** `decrypt` on the libuv thread pool. */
  decryptAsync<F extends DecryptOutputFormat | undefined = undefined>(data: Input, options: PassphraseOptions<F & string> & AbortOptions): Promise<CipherOutput<F>>
}

/** Symmetric encryption, sealed messages, streams and files, age, X25519/ECDH and RSA-OAEP (docs/encryption.md, docs/public-key.md). */
export declare const cipher: CipherApi

// ---- Public-key cryptography (crypto.dsa, crypto.cipher.x25519/ecdh, crypto.keys) ------------

/**
 * A key in any form every public-key function accepts: bytes in the algorithm's default form (raw
 * 32 bytes for Ed25519/X25519; the private scalar or a SEC1 point, compressed or not, for EC) or DER
 * (PKCS#8, SPKI, SEC1), a PEM string, a JWK object, or a `node:crypto` `KeyObject` / `CryptoKey`.
 * A key of the wrong algorithm, curve or kind throws a `TypeError` with code
 * `ERR_CRYPTO_INVALID_KEY_TYPE`; malformed keys `ERR_INVALID_ARG_VALUE` (`ERR_CRYPTO_INVALID_JWK`
 * for JWKs); a point off the curve `ERR_CRYPTO_ECDH_INVALID_PUBLIC_KEY`. A private key is accepted
 * where a public key is needed (its public key is used).
 */
export type KeyInput = Buffer | NodeJS.TypedArray | DataView | ArrayBuffer | string | import('crypto').JsonWebKey | import('crypto').KeyObject | import('crypto').webcrypto.CryptoKey

/** The forms keys are produced in. */
export type KeyFormat = 'raw' | 'der' | 'pem' | 'jwk' | 'keyobject'

/** The value type of a key in format `F` ('raw' and 'der': Buffer; 'pem': string; 'jwk': object). */
export type KeyOutput<F extends KeyFormat | undefined> = F extends 'pem'
  ? string
  : F extends 'jwk'
    ? import('crypto').JsonWebKey
    : F extends 'keyobject'
      ? import('crypto').KeyObject
      : Buffer

/** Options of the key pair generators: the form of the keys. */
export interface KeyPairOptions<F extends KeyFormat = KeyFormat> {
  /** Default 'raw': Ed25519/X25519 32 + 32 bytes; EC the private scalar and the uncompressed SEC1 point. 'der' is PKCS#8 / SPKI. */
  format?: F
}

/** A generated key pair, both keys in the form asked for (see {@link KeyOutput}). */
export interface KeyPair<F extends KeyFormat | undefined = undefined> {
  /** The private key: keep it secret. */
  privateKey: KeyOutput<F>
  /** The public key, to give to others. */
  publicKey: KeyOutput<F>
}

/** Curve names (case-insensitive); `secp256r1`/`prime256v1`, `secp384r1`, `secp521r1` are aliases. */
export type EcCurve = 'p256' | 'p384' | 'p521' | 'secp256k1' | 'secp256r1' | 'prime256v1' | 'secp384r1' | 'secp521r1'

/**
 * Other spellings of hash names that every `hash` option accepts (any case), as node:crypto,
 * WebCrypto and JOSE write them.
 */
export type HashAlias =
  | 'sha-1' | 'sha-224' | 'sha-256' | 'sha-384' | 'sha-512'
  | 'sha512-224' | 'sha512/224' | 'sha-512/224' | 'sha512-256' | 'sha512/256' | 'sha-512/256'
  | 'sha3-224' | 'sha3-256' | 'sha3-384' | 'sha3-512'
  | 'ripemd-160' | 'rmd160'

/** A hash name: a member of `crypto.sha` or one of its {@link HashAlias}es. */
export type HashName = keyof ShaNamespace | HashAlias

/** Any hash of crypto.sha (SHAKE128/256 at 256/512 bits, RFC 8692), or an alias. */
export type EcdsaHash = HashName

/** Options of ECDSA signing. */
export interface EcdsaSignOptions {
  /** Default: the key's own curve when it says (DER, PEM, JWK, KeyObject), else 'p256'. */
  curve?: EcCurve
  /** Default 'sha256'. 'md4', 'md5' and 'sha1' need `allowWeakHash: true`. */
  hash?: EcdsaHash
  /** 'der' (default, as node:crypto) or 'ieee-p1363' (r ‖ s, fixed length, as WebCrypto). */
  format?: 'der' | 'ieee-p1363'
  /** Default true: s ≤ n/2 on every curve. false: the s of the RFC 6979 nonce as it is (half the time above n/2). */
  lowS?: boolean
  /** Sign with MD4, MD5 or SHA-1 (collisions let one signature cover two messages). Default false. */
  allowWeakHash?: boolean
}

/** Options of ECDSA verification. */
export interface EcdsaVerifyOptions {
  /** Default: the key's own curve when it says, else 'p256'. */
  curve?: EcCurve
  /** Default 'sha256'. 'md4' and 'md5' need `allowWeakHash: true`. */
  hash?: EcdsaHash
  /** 'der' (default) or 'ieee-p1363'. */
  format?: 'der' | 'ieee-p1363'
  /**
   * Refuse signatures with s > n/2 (their twin (r, n − s) is valid too). Default true on secp256k1
   * (Bitcoin's and Ethereum's rule), false on the NIST curves (other signers' high-S signatures verify).
   */
  lowS?: boolean
  /** Verify MD4 or MD5 signatures. Default false. */
  allowWeakHash?: boolean
}

/** The private key of a signing call given in its options object: `sign(message, { privateKey, ...options })`. */
export interface WithPrivateKey {
  /** The signing key, in any {@link KeyInput} form. */
  privateKey: KeyInput
}

/** The public key and signature of a verifying call given in its options object: `verify(message, { publicKey, signature, ...options })`. */
export interface WithPublicKey {
  /** The key to verify with, in any {@link KeyInput} form (a private key stands for its public key). */
  publicKey: KeyInput
  /** The signature to check. */
  signature: Input
}

/**
 * A signature scheme's calls, in the library's argument order (data, key, signature, options),
 * or with the key (and signature) in the options object. `O` are the signing options, `V` the
 * verifying ones.
 */
export interface Signer<O extends object, V extends object> {
  /** A signature of `message`, blocking the calling thread. */
  signSync(message: Input, privateKey: KeyInput, options?: O): Buffer
  /** `signSync` with the key in the options object. */
  signSync(message: Input, options: O & WithPrivateKey): Buffer
  /** `sign` on the libuv thread pool (inputs copied at call time). */
  signAsync(message: Input, privateKey: KeyInput, options?: O & AbortOptions): Promise<Buffer>
  /** `signAsync` with the key in the options object. */
  signAsync(message: Input, options: O & WithPrivateKey & AbortOptions): Promise<Buffer>
  /** Whether `signature` is a valid signature of `message` (false for any invalid one), blocking the calling thread. */
  verifySync(message: Input, publicKey: KeyInput, signature: Input, options?: V): boolean
  /** `verifySync` with the key and signature in the options object. */
  verifySync(message: Input, options: V & WithPublicKey): boolean
  /** `verify` on the libuv thread pool (inputs copied at call time). */
  verifyAsync(message: Input, publicKey: KeyInput, signature: Input, options?: V & AbortOptions): Promise<boolean>
  /** `verifyAsync` with the key and signature in the options object. */
  verifyAsync(message: Input, options: V & WithPublicKey & AbortOptions): Promise<boolean>
}

/** Key generation in its three names: the plain one blocks, as `…Sync`; `…Async` runs on the libuv pool. */
export interface KeyGenerator<O extends object, R> {
  /** A new key pair (blocks the calling thread). */
  generateKeypair(options?: O): R
  /** `generateKeypair`, by its explicit name. */
  generateKeypairSync(options?: O): R
  /** `generateKeypair` on the libuv thread pool. */
  generateKeypairAsync(options?: O & AbortOptions): Promise<R>
}

/**
 * Ed25519 (RFC 8032). `sign(privateKey, message)` and `verify(publicKey, message, signature)`
 * keep the original cryptographer.js order (key first); every form of the library's order
 * (`signSync`, `signAsync`, ... and `sign(message, { privateKey })`) is there too.
 */
export interface Ed25519Namespace extends Signer<{}, {}> {
  /** A new key pair: a 32-byte seed and a 32-byte public key (or `options.format`). */
  generateKeypair<F extends KeyFormat | undefined = undefined>(options?: KeyPairOptions<F & KeyFormat>): KeyPair<F>
  /** `generateKeypair`, by its explicit name. */
  generateKeypairSync<F extends KeyFormat | undefined = undefined>(options?: KeyPairOptions<F & KeyFormat>): KeyPair<F>
  /** `generateKeypair` on the libuv thread pool. */
  generateKeypairAsync<F extends KeyFormat | undefined = undefined>(options?: KeyPairOptions<F & KeyFormat> & AbortOptions): Promise<KeyPair<F>>
  /** The 64-byte RFC 8032 signature of `message` (key first, as the original library). */
  sign(privateKey: KeyInput, message: Input): Buffer
  /** The library's order: the key in the options object. */
  sign(message: Input, options: WithPrivateKey): Buffer
  /** `sign` in the library's order: `signSync(message, privateKey)`. */
  signSync(message: Input, privateKey: KeyInput, options?: {}): Buffer
  /** `signSync` with the key in the options object. */
  signSync(message: Input, options: WithPrivateKey): Buffer
  /** Strict RFC 8032 verification (non-canonical S and small-order keys refused): false for any invalid signature. Key first, as the original library. */
  verify(publicKey: KeyInput, message: Input, signature: Input): boolean
  /** The library's order: the key and signature in the options object. */
  verify(message: Input, options: WithPublicKey): boolean
}

/**
 * ECDSA on P-256, P-384, P-521 and secp256k1 with RFC 6979 deterministic nonces. The original
 * cryptographer.js form `sign(message, { privateKey, ...options })` and the library's order
 * `sign(message, privateKey, options)` are both taken.
 */
export interface EcdsaNamespace extends Signer<EcdsaSignOptions, EcdsaVerifyOptions> {
  /** A new key pair on `curve` (default 'p256'): the private scalar and the uncompressed SEC1 public point. */
  generateKeypair<F extends KeyFormat | undefined = undefined>(curve?: EcCurve, options?: KeyPairOptions<F & KeyFormat>): KeyPair<F>
  /** `generateKeypair`, by its explicit name. */
  generateKeypairSync<F extends KeyFormat | undefined = undefined>(curve?: EcCurve, options?: KeyPairOptions<F & KeyFormat>): KeyPair<F>
  /** `generateKeypair` on the libuv thread pool. */
  generateKeypairAsync<F extends KeyFormat | undefined = undefined>(curve?: EcCurve, options?: KeyPairOptions<F & KeyFormat> & AbortOptions): Promise<KeyPair<F>>
  /** A deterministic (RFC 6979) signature of `message` hashed with `hash`, blocking the calling thread. */
  sign(message: Input, options: EcdsaSignOptions & WithPrivateKey): Buffer
  /** `sign` with the key as its own argument. */
  sign(message: Input, privateKey: KeyInput, options?: EcdsaSignOptions): Buffer
  /** False for any invalid signature (wrong length, r or s out of range, BER encoding, ...). */
  verify(message: Input, options: EcdsaVerifyOptions & WithPublicKey): boolean
  /** `verify` with the key and signature as their own arguments. */
  verify(message: Input, publicKey: KeyInput, signature: Input, options?: EcdsaVerifyOptions): boolean
}

/** Hashes RSA accepts: SHA-1, SHA-2 (incl. SHA-512/224, SHA-512/256) and SHA-3, in any spelling of {@link HashName}. */
export type RsaHash = 'sha1' | 'sha224' | 'sha256' | 'sha384' | 'sha512' | 'sha512_224' | 'sha512_256' | 'sha3_224' | 'sha3_256' | 'sha3_384' | 'sha3_512' | Exclude<HashAlias, 'ripemd-160' | 'rmd160'>

/** Options of RSA key generation. */
export interface RsaKeyPairOptions<F extends KeyFormat = KeyFormat> {
  /** Bits, a multiple of 128 from 1024 to 16384 (AWS-LC generates only multiples of 128). Default 2048. */
  modulusLength?: number
  /** Odd, 3 to 2^32 − 1. Default 65537. */
  publicExponent?: number
  /** Default 'der' (PKCS#8 / SPKI); 'raw' is PKCS#1 DER. */
  format?: F
  /** 'pkcs1' for PKCS#1 DER/PEM (`RSA PRIVATE KEY` / `RSA PUBLIC KEY`); default PKCS#8 / SPKI. */
  type?: 'pkcs8' | 'pkcs1'
}

/** Options of RSASSA-PKCS1-v1_5 signing and verification (and the base of the PSS options). */
export interface RsaPkcs1Options {
  /** Default 'sha256'. Signing with 'sha1' needs `allowWeakHash: true`. */
  hash?: RsaHash
  /** Sign with SHA-1 (collisions let one signature cover two messages). Default false. */
  allowWeakHash?: boolean
}

/** Options of RSASSA-PSS signing. */
export interface RsaPssOptions extends RsaPkcs1Options {
  /** The MGF1 hash; default `hash`. */
  mgf1Hash?: RsaHash
  /** Salt bytes, 0 to emLen − hLen − 2 (RangeError beyond); default the digest length. */
  saltLength?: number
}

/** Options of RSASSA-PSS verification. */
export interface RsaPssVerifyOptions extends RsaPkcs1Options {
  /** The MGF1 hash; default `hash`. */
  mgf1Hash?: RsaHash
  /** As for signing; 'auto' accepts any salt length. */
  saltLength?: number | 'auto'
}

/**
 * RSA in AWS-LC (constant-time, blinded private-key operations). Keys: DER PKCS#8 / SPKI or PKCS#1,
 * PEM, JWK or KeyObject, of 1024 to 16384 bits. Every call takes the data, then the key (and
 * signature), then options, as the original library, or the key in the options object. The
 * plain names block (as `…Sync`); the `…Async` forms run on the libuv pool, and `signal` stops
 * key generation during its prime search.
 */
export interface RsaNamespace {
  /** A new key pair (blocks the calling thread; 2048 bits take tens to hundreds of milliseconds). */
  generateKeypair<F extends KeyFormat | undefined = undefined>(options?: RsaKeyPairOptions<F & KeyFormat>): KeyPair<F extends undefined ? 'der' : F>
  /** `generateKeypair`, by its explicit name. */
  generateKeypairSync<F extends KeyFormat | undefined = undefined>(options?: RsaKeyPairOptions<F & KeyFormat>): KeyPair<F extends undefined ? 'der' : F>
  /** `generateKeypair` on the libuv thread pool. */
  generateKeypairAsync<F extends KeyFormat | undefined = undefined>(options?: RsaKeyPairOptions<F & KeyFormat> & AbortOptions): Promise<KeyPair<F extends undefined ? 'der' : F>>
  /** RSASSA-PSS: a signature of the modulus length. */
  signPSS(message: Input, privateKey: KeyInput, options?: RsaPssOptions): Buffer
  /** `signPSS` with the key in the options object. */
  signPSS(message: Input, options: RsaPssOptions & WithPrivateKey): Buffer
  /** `signPSS`, by its explicit name. */
  signPSSSync(message: Input, privateKey: KeyInput, options?: RsaPssOptions): Buffer
  /** `signPSSSync` with the key in the options object. */
  signPSSSync(message: Input, options: RsaPssOptions & WithPrivateKey): Buffer
  /** `signPSS` on the libuv thread pool. */
  signPSSAsync(message: Input, privateKey: KeyInput, options?: RsaPssOptions & AbortOptions): Promise<Buffer>
  /** `signPSSAsync` with the key in the options object. */
  signPSSAsync(message: Input, options: RsaPssOptions & WithPrivateKey & AbortOptions): Promise<Buffer>
  /** False for any invalid signature (wrong length included). */
  verifyPSS(message: Input, publicKey: KeyInput, signature: Input, options?: RsaPssVerifyOptions): boolean
  /** `verifyPSS` with the key and signature in the options object. */
  verifyPSS(message: Input, options: RsaPssVerifyOptions & WithPublicKey): boolean
  /** `verifyPSS`, by its explicit name. */
  verifyPSSSync(message: Input, publicKey: KeyInput, signature: Input, options?: RsaPssVerifyOptions): boolean
  /** `verifyPSSSync` with the key and signature in the options object. */
  verifyPSSSync(message: Input, options: RsaPssVerifyOptions & WithPublicKey): boolean
  /** `verifyPSS` on the libuv thread pool. */
  verifyPSSAsync(message: Input, publicKey: KeyInput, signature: Input, options?: RsaPssVerifyOptions & AbortOptions): Promise<boolean>
  /** `verifyPSSAsync` with the key and signature in the options object. */
  verifyPSSAsync(message: Input, options: RsaPssVerifyOptions & WithPublicKey & AbortOptions): Promise<boolean>
  /** RSASSA-PKCS1-v1_5 (deterministic). */
  signPKCS1v15(message: Input, privateKey: KeyInput, options?: RsaPkcs1Options): Buffer
  /** `signPKCS1v15` with the key in the options object. */
  signPKCS1v15(message: Input, options: RsaPkcs1Options & WithPrivateKey): Buffer
  /** `signPKCS1v15`, by its explicit name. */
  signPKCS1v15Sync(message: Input, privateKey: KeyInput, options?: RsaPkcs1Options): Buffer
  /** `signPKCS1v15Sync` with the key in the options object. */
  signPKCS1v15Sync(message: Input, options: RsaPkcs1Options & WithPrivateKey): Buffer
  /** `signPKCS1v15` on the libuv thread pool. */
  signPKCS1v15Async(message: Input, privateKey: KeyInput, options?: RsaPkcs1Options & AbortOptions): Promise<Buffer>
  /** `signPKCS1v15Async` with the key in the options object. */
  signPKCS1v15Async(message: Input, options: RsaPkcs1Options & WithPrivateKey & AbortOptions): Promise<Buffer>
  /** False for any invalid signature. */
  verifyPKCS1v15(message: Input, publicKey: KeyInput, signature: Input, options?: RsaPkcs1Options): boolean
  /** `verifyPKCS1v15` with the key and signature in the options object. */
  verifyPKCS1v15(message: Input, options: RsaPkcs1Options & WithPublicKey): boolean
  /** `verifyPKCS1v15`, by its explicit name. */
  verifyPKCS1v15Sync(message: Input, publicKey: KeyInput, signature: Input, options?: RsaPkcs1Options): boolean
  /** `verifyPKCS1v15Sync` with the key and signature in the options object. */
  verifyPKCS1v15Sync(message: Input, options: RsaPkcs1Options & WithPublicKey): boolean
  /** `verifyPKCS1v15` on the libuv thread pool. */
  verifyPKCS1v15Async(message: Input, publicKey: KeyInput, signature: Input, options?: RsaPkcs1Options & AbortOptions): Promise<boolean>
  /** `verifyPKCS1v15Async` with the key and signature in the options object. */
  verifyPKCS1v15Async(message: Input, options: RsaPkcs1Options & WithPublicKey & AbortOptions): Promise<boolean>
}

/** Options of RSAES-OAEP. */
export interface RsaOaepOptions {
  /** The label hash; default 'sha256'. */
  hash?: RsaHash
  /** The MGF1 hash; default `hash`. */
  mgf1Hash?: RsaHash
  /** Default empty; a string is UTF-8. */
  label?: Input
}

/**
 * RSAES-OAEP. Plaintexts of at most k − 2·hLen − 2 bytes (RangeError beyond). Every decryption
 * failure is one `ERR_CRYPTO_DECRYPT_FAILED` error with one message (AWS-LC's constant-time check).
 * The data first, then the key, then options (the original library's order), or the key in the
 * options object.
 */
export interface RsaOaepNamespace {
  /** Encrypts `plaintext` to `publicKey` (blocks the calling thread). */
  encrypt(plaintext: Input, publicKey: KeyInput, options?: RsaOaepOptions): Buffer
  /** `encrypt` with the key in the options object. */
  encrypt(plaintext: Input, options: RsaOaepOptions & { publicKey: KeyInput }): Buffer
  /** Decrypts with `privateKey` (blocks the calling thread). */
  decrypt(ciphertext: Input, privateKey: KeyInput, options?: RsaOaepOptions): Buffer
  /** `decrypt` with the key in the options object. */
  decrypt(ciphertext: Input, options: RsaOaepOptions & WithPrivateKey): Buffer
  /** `encrypt`, by its explicit name. */
  encryptSync(plaintext: Input, publicKey: KeyInput, options?: RsaOaepOptions): Buffer
  /** `encryptSync` with the key in the options object. */
  encryptSync(plaintext: Input, options: RsaOaepOptions & { publicKey: KeyInput }): Buffer
  /** `decrypt`, by its explicit name. */
  decryptSync(ciphertext: Input, privateKey: KeyInput, options?: RsaOaepOptions): Buffer
  /** `decryptSync` with the key in the options object. */
  decryptSync(ciphertext: Input, options: RsaOaepOptions & WithPrivateKey): Buffer
  /** `encrypt` on the libuv thread pool. */
  encryptAsync(plaintext: Input, publicKey: KeyInput, options?: RsaOaepOptions & AbortOptions): Promise<Buffer>
  /** `encryptAsync` with the key in the options object. */
  encryptAsync(plaintext: Input, options: RsaOaepOptions & { publicKey: KeyInput } & AbortOptions): Promise<Buffer>
  /** `decrypt` on the libuv thread pool. */
  decryptAsync(ciphertext: Input, privateKey: KeyInput, options?: RsaOaepOptions & AbortOptions): Promise<Buffer>
  /** `decryptAsync` with the key in the options object. */
  decryptAsync(ciphertext: Input, options: RsaOaepOptions & WithPrivateKey & AbortOptions): Promise<Buffer>
}

// ---- ML-DSA (FIPS 204) -------------------------------------------------------------------

/** The ML-DSA parameter sets, as `crypto.keys` and node:crypto name them. */
export type MlDsaAlgorithm = 'ml-dsa-44' | 'ml-dsa-65' | 'ml-dsa-87'

/** Options of ML-DSA key generation. */
export interface MlDsaKeyPairOptions<F extends KeyFormat = KeyFormat> extends KeyPairOptions<F> {
  /** The 32-byte seed ξ: the same seed gives the same key pair (FIPS 204 ML-DSA.KeyGen_internal). Default: 32 random bytes. */
  seed?: ArrayBufferView | ArrayBuffer
  /** The raw private key: 'seed' (default, 32 bytes) or 'expanded' (the FIPS 204 private key: 2560 / 4032 / 4896 bytes; PKCS#8 `expandedKey`). */
  privateKeyFormat?: 'seed' | 'expanded'
}

/** Options of ML-DSA signing. */
export interface MlDsaSignOptions {
  /** 0..255 bytes (a string counts as its UTF-8) bound into the signature; default empty. Longer throws a `RangeError` (`ERR_OUT_OF_RANGE`). */
  context?: Input
  /** `true`: the FIPS 204 deterministic variant (rnd = 0^32). Default `false`: hedged, a fresh 32-byte rnd from the OS RNG. */
  deterministic?: boolean
}

/** Options of ML-DSA verification. */
export interface MlDsaVerifyOptions {
  /** The context the signature was made with (default empty); over 255 bytes makes `verify` return false. */
  context?: Input
}

/**
 * One ML-DSA parameter set (pure ML-DSA; HashML-DSA is not offered). Private keys are the 32-byte
 * seed or the expanded key (told apart by length) in any key form; public keys raw (1312 / 1952 /
 * 2592 bytes) or in any key form (SPKI per RFC 9881, PEM, JWK `AKP`, KeyObject). The library's
 * argument order: `sign(message, privateKey, options)`, `verify(message, publicKey, signature,
 * options)`, or the key (and signature) in the options object.
 */
export interface MlDsaNamespace extends Signer<MlDsaSignOptions, MlDsaVerifyOptions> {
  /** Sizes in bytes. */
  readonly lengths: {
    /** The seed ξ, the default private key form: 32. */
    readonly seed: 32
    /** The FIPS 204 private key: 2560 / 4032 / 4896. */
    readonly expandedPrivateKey: number
    /** The raw public key: 1312 / 1952 / 2592. */
    readonly publicKey: number
    /** A signature: 2420 / 3309 / 4627. */
    readonly signature: number
  }
  /** A new key pair: the 32-byte seed and the raw public key by default (or `options.format`). */
  generateKeypair<F extends KeyFormat | undefined = undefined>(options?: MlDsaKeyPairOptions<F & KeyFormat>): KeyPair<F>
  /** `generateKeypair`, by its explicit name. */
  generateKeypairSync<F extends KeyFormat | undefined = undefined>(options?: MlDsaKeyPairOptions<F & KeyFormat>): KeyPair<F>
  /** `generateKeypair` on the libuv thread pool. */
  generateKeypairAsync<F extends KeyFormat | undefined = undefined>(options?: MlDsaKeyPairOptions<F & KeyFormat> & AbortOptions): Promise<KeyPair<F>>
  /** The signature (2420 / 3309 / 4627 bytes) of `message` (blocks the calling thread). */
  sign(message: Input, privateKey: KeyInput, options?: MlDsaSignOptions): Buffer
  /** `sign` with the key in the options object. */
  sign(message: Input, options: MlDsaSignOptions & WithPrivateKey): Buffer
  /** False for any invalid signature (wrong length, key, message or context). Wrong argument types and key lengths throw. */
  verify(message: Input, publicKey: KeyInput, signature: Input, options?: MlDsaVerifyOptions): boolean
  /** `verify` with the key and signature in the options object. */
  verify(message: Input, options: MlDsaVerifyOptions & WithPublicKey): boolean
}

/** The signature schemes. */
export interface DsaApi {
  /** Ed25519 (RFC 8032). */
  ed25519: Ed25519Namespace
  /** ECDSA on P-256, P-384, P-521 and secp256k1. */
  ecdsa: EcdsaNamespace
  /** RSASSA-PSS and RSASSA-PKCS1-v1_5. */
  rsa: RsaNamespace
  /** ML-DSA-44 (FIPS 204, NIST category 2). */
  mldsa44: MlDsaNamespace
  /** ML-DSA-65 (category 3). */
  mldsa65: MlDsaNamespace
  /** ML-DSA-87 (category 5). */
  mldsa87: MlDsaNamespace
}

/** X25519 key agreement (RFC 7748). The plain names block (as `…Sync`). */
export interface X25519Namespace {
  /** A new key pair: 32-byte private and public keys (or `options.format`). */
  generateKeypair<F extends KeyFormat | undefined = undefined>(options?: KeyPairOptions<F & KeyFormat>): KeyPair<F>
  /** `generateKeypair`, by its explicit name. */
  generateKeypairSync<F extends KeyFormat | undefined = undefined>(options?: KeyPairOptions<F & KeyFormat>): KeyPair<F>
  /** `generateKeypair` on the libuv thread pool. */
  generateKeypairAsync<F extends KeyFormat | undefined = undefined>(options?: KeyPairOptions<F & KeyFormat> & AbortOptions): Promise<KeyPair<F>>
  /** The 32-byte shared secret; a low-order peer key (all-zero secret) throws `ERR_CRYPTO_ECDH_INVALID_PUBLIC_KEY`. */
  deriveSharedSecret(privateKey: KeyInput, peerPublicKey: KeyInput): Buffer
  /** `deriveSharedSecret`, by its explicit name. */
  deriveSharedSecretSync(privateKey: KeyInput, peerPublicKey: KeyInput): Buffer
  /** `deriveSharedSecret` on the libuv thread pool. */
  deriveSharedSecretAsync(privateKey: KeyInput, peerPublicKey: KeyInput, options?: AbortOptions): Promise<Buffer>
}

/** ECDH on P-256, P-384, P-521 and secp256k1, with the original library's argument order (the curve first). */
export interface EcdhNamespace {
  /** A new key pair on `curve` (default 'p256'). */
  generateKeypair<F extends KeyFormat | undefined = undefined>(curve?: EcCurve, options?: KeyPairOptions<F & KeyFormat>): KeyPair<F>
  /** `generateKeypair`, by its explicit name. */
  generateKeypairSync<F extends KeyFormat | undefined = undefined>(curve?: EcCurve, options?: KeyPairOptions<F & KeyFormat>): KeyPair<F>
  /** `generateKeypair` on the libuv thread pool. */
  generateKeypairAsync<F extends KeyFormat | undefined = undefined>(curve?: EcCurve, options?: KeyPairOptions<F & KeyFormat> & AbortOptions): Promise<KeyPair<F>>
  /** The shared secret (the x-coordinate, as node:crypto); a peer point off the curve throws. */
  deriveSharedSecret(curve: EcCurve, privateKey: KeyInput, peerPublicKey: KeyInput): Buffer
  /** `deriveSharedSecret`, by its explicit name. */
  deriveSharedSecretSync(curve: EcCurve, privateKey: KeyInput, peerPublicKey: KeyInput): Buffer
  /** `deriveSharedSecret` on the libuv thread pool. */
  deriveSharedSecretAsync(curve: EcCurve, privateKey: KeyInput, peerPublicKey: KeyInput, options?: AbortOptions): Promise<Buffer>
}

/** How raw key bytes are read by `keys.export` / `keys.import` (other forms say what they are). */
export interface RawKeyHints {
  /** ML-DSA: `'ml-dsa-65'` (or `'mldsa65'`); raw ML-DSA keys say by their length which kind they are. */
  algorithm?: 'ed25519' | 'x25519' | 'ec' | 'ecdsa' | 'ecdh' | 'rsa' | 'ml-kem-512' | 'ml-kem-768' | 'ml-kem-1024' | 'x-wing' | 'mlkem512' | 'mlkem768' | 'mlkem1024' | 'xwing' | MlDsaAlgorithm | 'mldsa44' | 'mldsa65' | 'mldsa87'
  /** For EC keys. */
  curve?: EcCurve
  /** For 32-byte Ed25519/X25519 keys, which cannot be told apart. */
  keyType?: 'private' | 'public'
}

/** Options of `keys.export`: the form to write, and how to read raw key bytes. */
export interface KeyExportOptions<F extends KeyFormat = KeyFormat> extends RawKeyHints {
  /** Default 'der'. */
  format?: F
  /** 'pkcs8' (default for private keys) or 'sec1' (EC); 'spki' for public keys; 'compressed' / 'uncompressed' (default) for raw EC public keys. */
  type?: 'pkcs8' | 'sec1' | 'spki' | 'pkcs1' | 'compressed' | 'uncompressed'
  /** Export the public key of a private key. */
  public?: boolean
}

/** `crypto.keys`: conversion between the key forms. */
export interface KeysNamespace {
  /** Any key form in another (PKCS#8/SPKI/SEC1 DER, PEM, JWK, raw, KeyObject), byte-identical to node:crypto's. */
  export<F extends KeyFormat | undefined = undefined>(key: KeyInput, options?: KeyExportOptions<F & KeyFormat>): KeyOutput<F extends undefined ? 'der' : F>
  /** Any key form as a node:crypto KeyObject. */
  import(key: KeyInput, options?: RawKeyHints): import('crypto').KeyObject
}

/** Signatures: Ed25519, ECDSA, RSA (PSS, PKCS#1 v1.5) and ML-DSA (docs/public-key.md, docs/post-quantum.md). */
export declare const dsa: DsaApi
/** Key conversion between raw, DER, PEM, JWK and `KeyObject` forms (docs/public-key.md). */
export declare const keys: KeysNamespace

// ---- Key encapsulation (crypto.kem): ML-KEM (FIPS 203) and X-Wing ------------------------------

/** The forms KEM keys are produced in (no JWK form exists for them). */
export type KemKeyFormat = Exclude<KeyFormat, 'jwk'>

/** Options of KEM key generation. */
export interface KemKeyPairOptions<F extends KemKeyFormat = KemKeyFormat> {
  /**
   * The seed to derive the key pair from (ML-KEM: d‖z, 64 bytes; X-Wing: its 32-byte private key);
   * random (the OS CSPRNG) when absent. A wrong length throws `ERR_INVALID_ARG_VALUE`.
   */
  seed?: Buffer | NodeJS.TypedArray | DataView | ArrayBuffer
  /**
   * 'seed' (default): the private key is the seed. 'expanded' (ML-KEM only): the FIPS 203
   * decapsulation key (1632 / 2400 / 3168 bytes). Both forms are accepted wherever a private key
   * is taken, told apart by length.
   */
  privateKeyFormat?: 'seed' | 'expanded'
  /**
   * Default 'raw'. 'der' / 'pem' are PKCS#8 (the seed, or the expandedKey choice) and SPKI, as
   * IETF LAMPS ML-KEM in X.509 (and X-Wing's draft) define them; 'keyobject' needs a Node.js with
   * ML-KEM KeyObjects (>= 24.7; none has X-Wing), else `ERR_FEATURE_UNAVAILABLE_ON_PLATFORM`.
   */
  format?: F
}

/** What `encapsulate` returns: the secret, and the ciphertext that carries it. */
export interface Encapsulation {
  /** Send this to the private key's holder. */
  ciphertext: Buffer
  /** 32 bytes, known to both sides after decapsulation. */
  sharedSecret: Buffer
}

/**
 * One KEM. Keys are any {@link KeyInput} form except JWK: raw bytes of the algorithm's lengths
 * (public key; private seed or expanded key), DER SPKI / PKCS#8, PEM, KeyObject. Errors are
 * typed, with a `code`: wrong lengths, a public key failing the FIPS 203 modulus check (a
 * coefficient >= q), an expanded private key failing the hash check (H(ek)) throw
 * `ERR_INVALID_ARG_VALUE`; a key of another algorithm `ERR_CRYPTO_INVALID_KEY_TYPE`; non-byte
 * ciphertexts `ERR_INVALID_ARG_TYPE`. The plain names block (tens of microseconds), as their
 * `…Sync` names; the `…Async` forms run on the libuv pool.
 */
export interface KemNamespace {
  /** This KEM's lengths in bytes (`expandedPrivateKey`: undefined for X-Wing, which has none). */
  readonly lengths: {
    /** The seed, the default private key form: 64 (ML-KEM) or 32 (X-Wing). */
    readonly seed: number
    /** The FIPS 203 decapsulation key: 1632 / 2400 / 3168; undefined for X-Wing. */
    readonly expandedPrivateKey: number | undefined
    /** The raw public key: 800 / 1184 / 1568 (ML-KEM), 1216 (X-Wing). */
    readonly publicKey: number
    /** The ciphertext: 768 / 1088 / 1568 (ML-KEM), 1120 (X-Wing). */
    readonly ciphertext: number
    /** The shared secret: 32. */
    readonly sharedSecret: number
  }
  /** A key pair from `options.seed`, or from fresh randomness. */
  generateKeypair<F extends KemKeyFormat | undefined = undefined>(options?: KemKeyPairOptions<F & KemKeyFormat>): KeyPair<F>
  /** `generateKeypair`, by its explicit name. */
  generateKeypairSync<F extends KemKeyFormat | undefined = undefined>(options?: KemKeyPairOptions<F & KemKeyFormat>): KeyPair<F>
  /** `generateKeypair` on the libuv thread pool. */
  generateKeypairAsync<F extends KemKeyFormat | undefined = undefined>(options?: KemKeyPairOptions<F & KemKeyFormat> & AbortOptions): Promise<KeyPair<F>>
  /** A fresh shared secret and the ciphertext that carries it to `publicKey`'s holder. */
  encapsulate(publicKey: KeyInput): Encapsulation
  /** `encapsulate` with the key in the options object. */
  encapsulate(options: { publicKey: KeyInput }): Encapsulation
  /** `encapsulate`, by its explicit name. */
  encapsulateSync(publicKey: KeyInput): Encapsulation
  /** `encapsulateSync` with the key in the options object. */
  encapsulateSync(options: { publicKey: KeyInput }): Encapsulation
  /** `encapsulate` on the libuv thread pool. */
  encapsulateAsync(publicKey: KeyInput, options?: AbortOptions): Promise<Encapsulation>
  /** `encapsulateAsync` with the key in the options object. */
  encapsulateAsync(options: { publicKey: KeyInput } & AbortOptions): Promise<Encapsulation>
  /**
   * The shared secret of `ciphertext`. A ciphertext that was not made for this key does not
   * throw: it gives a different, deterministic secret (FIPS 203 implicit rejection, J(z‖c)).
   */
  decapsulate(ciphertext: ArrayBufferView | ArrayBuffer, privateKey: KeyInput): Buffer
  /** `decapsulate` with the key in the options object. */
  decapsulate(ciphertext: ArrayBufferView | ArrayBuffer, options: WithPrivateKey): Buffer
  /** `decapsulate`, by its explicit name. */
  decapsulateSync(ciphertext: ArrayBufferView | ArrayBuffer, privateKey: KeyInput): Buffer
  /** `decapsulateSync` with the key in the options object. */
  decapsulateSync(ciphertext: ArrayBufferView | ArrayBuffer, options: WithPrivateKey): Buffer
  /** `decapsulate` on the libuv thread pool. */
  decapsulateAsync(ciphertext: ArrayBufferView | ArrayBuffer, privateKey: KeyInput, options?: AbortOptions): Promise<Buffer>
  /** `decapsulateAsync` with the key in the options object. */
  decapsulateAsync(ciphertext: ArrayBufferView | ArrayBuffer, options: WithPrivateKey & AbortOptions): Promise<Buffer>
}

/** The KEMs, by the names of `kemAlgorithms()` without dashes. */
export interface KemApi {
  /** ML-KEM-512 (FIPS 203): 800-byte public keys, 768-byte ciphertexts. */
  mlkem512: KemNamespace
  /** ML-KEM-768 (FIPS 203): 1184-byte public keys, 1088-byte ciphertexts. */
  mlkem768: KemNamespace
  /** ML-KEM-1024 (FIPS 203): 1568-byte public keys and ciphertexts. */
  mlkem1024: KemNamespace
  /** X-Wing (draft-connolly-cfrg-xwing-kem-10): ML-KEM-768 + X25519, 1216-byte public keys, 1120-byte ciphertexts, 32-byte private keys. */
  xwing: KemNamespace
}

/** Key encapsulation: ML-KEM-512/768/1024 and X-Wing (docs/post-quantum.md). */
export declare const kem: KemApi
// ---- Password hashing and key derivation (crypto.kdf) ------------------------------------------

/** Options every `…Async` form accepts. */
export interface AbortOptions {
  /**
   * Cancels the call (`null` and `undefined` mean no signal). Work still queued never runs and
   * the Promise rejects at once; running work stops at its next check (hashing every 4 MiB;
   * PBKDF2, scrypt, bcrypt and RSA key generation within milliseconds; Argon2 between passes
   * when the hash is long), or finishes on its thread with its result discarded. The Promise
   * rejects with an `AbortError` (`name` 'AbortError', `code` 'ABORT_ERR', `cause` = `signal.reason`),
   * and the call leaves nothing behind: a file function writes no `dst`.
   *
   * An abort counts until the work completes on the calling thread: when a pool job's result
   * is handed over (a file function renames its output into place then), or, for work done on
   * the calling thread (a hash of under 16 KiB), as the call returns. After that the result
   * stands, as with `fs.promises`: the Promise fulfils even if the signal aborts before its
   * callbacks run. So a rejection always means no output, and a fulfilment an output in place.
   */
  signal?: AbortSignal | null
}

/** Hashes PBKDF2 and HKDF accept: every fixed-output hash of `crypto.sha` (with HMAC), in any spelling of {@link HashName}. */
export type KdfHash = Exclude<HashName, 'shake128' | 'shake256' | 'blake3'>

/** Options of PBKDF2 (RFC 8018). */
export interface Pbkdf2Options<F extends OutputFormat = OutputFormat> extends FormatOption<F> {
  /** Salt (required). */
  salt: Input
  /** Iterations, 1..2^32-1. Default 100000. */
  iterations?: number
  /** Derived key length in bytes, 1..2^30. Default 32. */
  keyLength?: number
  /** HMAC hash. Default 'sha256'. */
  hash?: KdfHash
}

/** Options of scrypt (RFC 7914). */
export interface ScryptOptions<F extends OutputFormat = OutputFormat> extends FormatOption<F> {
  /** Salt (required). */
  salt: Input
  /** CPU/memory cost: a power of 2, 2..2^32. Default 16384. */
  N?: number
  /** Block size, ≥ 1. Default 8. */
  r?: number
  /** Parallelisation, ≥ 1 (r·p < 2^30). Default 1. */
  p?: number
  /** Derived key length in bytes, 1..2^30. Default 64. */
  keyLength?: number
  /** Memory limit in bytes: 128·r·(N + 2 + p) must not exceed it (RangeError). Default 32 MiB, as Node. */
  maxmem?: number
}

/** Options of HKDF (RFC 5869). */
export interface HkdfOptions<F extends OutputFormat = OutputFormat> extends FormatOption<F> {
  /** Salt; default HashLen zero bytes (RFC 5869). */
  salt?: Input
  /** Context/application info; default empty. */
  info?: Input
  /** Output length in bytes, 1..255·HashLen. Default HashLen. */
  keyLength?: number
  /** HMAC hash. Default 'sha256'. */
  hash?: KdfHash
}

/** The Argon2 variants (case-insensitive), short or full: Argon2id is the one to use for passwords. */
export type Argon2Variant = 'id' | 'i' | 'd' | 'argon2id' | 'argon2i' | 'argon2d'

/** The cost and shape of an Argon2 hash (RFC 9106). */
export interface Argon2Params {
  /** Passes, ≥ 1. Default 3. */
  timeCost?: number
  /** Memory in KiB, ≥ 8·parallelism. Default 65536 (64 MiB). */
  memoryCost?: number
  /** Lanes, 1..2^24-1 (run on parallel threads, up to the cores available). Default 4. */
  parallelism?: number
  /** Tag length in bytes, 4..2^30. Default 32. */
  keyLength?: number
  /** Default 'id'. */
  variant?: Argon2Variant
  /** 19 (0x13, default) or 16 (0x10, legacy). */
  version?: 19 | 16
}

/** Options of `kdf.argon2` and `argon2Sync`: the parameters, salt, secret and output format. */
export interface Argon2Options<F extends OutputFormat | 'phc' = 'phc'> extends Argon2Params {
  /** Salt, ≥ 8 bytes. Default: 16 random bytes. */
  salt?: Input
  /** Secret key (pepper) mixed into the hash; needed again to verify. */
  secret?: Input
  /** Associated data (stored in the PHC string as `data=`). */
  associatedData?: Input
  /** 'phc' (default): the `$argon2id$v=19$m=..,t=..,p=..$salt$hash` string; otherwise the raw tag. */
  outputFormat?: F
}

/** The result of `kdf.argon2` for an output format: the PHC string, a Buffer or an encoded string. */
export type Argon2Output<F> = F extends 'phc' | undefined ? string : F extends 'buffer' ? Buffer : string

/** The parameters of a stored Argon2 PHC string (`kdf.argon2.parse`). */
export interface Argon2Info {
  /** The variant. */
  variant: 'argon2id' | 'argon2i' | 'argon2d'
  /** 19 (0x13) or 16 (0x10, strings without `v=`). */
  version: number
  /** Memory in KiB. */
  memoryCost: number
  /** Passes. */
  timeCost: number
  /** Lanes. */
  parallelism: number
  /** Salt length in bytes. */
  saltLength: number
  /** Tag length in bytes. */
  keyLength: number
}

/** The library's one Argon2 parameter set (`kdf.argon2`, the password policy, passphrase streams and sealed messages). */
export interface Argon2Defaults {
  /** Argon2id. */
  readonly variant: 'argon2id'
  /** 65536 KiB (64 MiB). */
  readonly memoryCost: number
  /** 3. */
  readonly timeCost: number
  /** 4. */
  readonly parallelism: number
  /** 16 bytes. */
  readonly saltLength: number
  /** 32 bytes. */
  readonly keyLength: number
}

/** `kdf.argon2`: a function that hashes (a Promise), with verification, parsing and rehash checks as members. */
export interface Argon2Function {
  /** Argon2 on the libuv pool (a Promise, as the original library). Default output: the PHC string. */
  <F extends OutputFormat | 'phc' = 'phc'>(password: Input, options?: Argon2Options<F> & AbortOptions): Promise<Argon2Output<F>>
  /**
   * Checks a password against a PHC string (`$argon2id$`, `$argon2i$`, `$argon2d$`; v=16/19), on
   * the libuv pool. Resolves false for a wrong password; rejects with a TypeError
   * (`ERR_INVALID_ARG_VALUE`) for a malformed string and a RangeError (`ERR_OUT_OF_RANGE`) for
   * parameters above the ceilings ({@link Argon2Limits}), before any work. `signal` stops a long
   * hash between passes.
   */
  verify(password: Input, hash: string, options?: { secret?: Input } & Argon2Limits & AbortOptions): Promise<boolean>
  /** `verify`, by its explicit name (a Promise). */
  verifyAsync(password: Input, hash: string, options?: { secret?: Input } & Argon2Limits & AbortOptions): Promise<boolean>
  /** `verify`, blocking the calling thread for a whole hash; same errors and ceilings. */
  verifySync(password: Input, hash: string, options?: { secret?: Input } & Argon2Limits): boolean
  /**
   * True when `hash` is weaker than `options` (or the defaults): another variant, an older
   * version, less memory or less memory × passes, a shorter tag, or a salt under 16 bytes (lanes
   * are not compared: they add no work for an attacker). Rehash the password at its next login.
   */
  needsRehash(hash: string, options?: Argon2Params & Argon2Limits): boolean
  /** The parameters of a PHC string (TypeError when malformed, RangeError above the ceilings). */
  parse(hash: string, options?: Argon2Limits): Argon2Info
  /** The library's Argon2 parameters. */
  readonly defaults: Argon2Defaults
}

/**
 * Ceilings on the parameters of a stored (possibly attacker-controlled) Argon2 hash string. The
 * defaults accept every setting RFC 9106 and OWASP recommend and refuse absurd ones at once.
 */
export interface Argon2Limits {
  /** Largest memoryCost in KiB. Default 2097152 (2 GiB). */
  maxMemoryCost?: number
  /** Largest timeCost. Default 10. */
  maxTimeCost?: number
  /** Largest parallelism. Default 64. */
  maxParallelism?: number
}

/** Ceiling on the cost of a stored bcrypt hash. */
export interface BcryptLimits {
  /** Largest cost accepted (each step doubles the work). Default 16. */
  maxRounds?: number
}

/** Options of bcrypt hashing. */
export interface BcryptOptions {
  /** Cost (log2 of the rounds), 4..31. Default 10. */
  rounds?: number
  /** Hash only the first 72 bytes of longer passwords instead of throwing a RangeError. Default false. */
  truncate?: boolean
  /** 16-byte salt; default random. */
  salt?: Input
}

/** `kdf.bcrypt`: the `$2b$` hash of a password, verification, and the cost of a stored hash. */
export interface BcryptNamespace {
  /** `$2b$` hash, blocking the calling thread (as the original library). Passwords over 72 bytes throw a RangeError unless `truncate`. A number is taken as `rounds`. */
  hash(password: Input, options?: BcryptOptions | number): string
  /** `hash`, by its explicit name. */
  hashSync(password: Input, options?: BcryptOptions | number): string
  /** `hash` on the libuv pool. */
  hashAsync(password: Input, options?: (BcryptOptions & AbortOptions) | number): Promise<string>
  /**
   * Verifies `$2a$`, `$2b$` and `$2y$` hashes (first 72 password bytes), blocking the calling
   * thread. Malformed hashes throw a TypeError; a cost above `maxRounds` a RangeError
   * (`ERR_OUT_OF_RANGE`), before any work.
   */
  verify(password: Input, hash: string, options?: BcryptLimits): boolean
  /** `verify`, by its explicit name. */
  verifySync(password: Input, hash: string, options?: BcryptLimits): boolean
  /** `verify` on the libuv pool. */
  verifyAsync(password: Input, hash: string, options?: BcryptLimits & AbortOptions): Promise<boolean>
  /** The cost of a bcrypt hash. */
  rounds(hash: string): number
}

/** The error async KDFs reject with when their `signal` aborts. */
export declare class AbortError extends Error {
  /** `'AbortError'`, as node's. */
  readonly name: 'AbortError'
  /** `'ABORT_ERR'`, as node's. */
  readonly code: 'ABORT_ERR'
}

/**
 * Password hashing and key derivation. Every algorithm has a `…Sync` form (blocks the calling
 * thread) and an `…Async` form (a Promise; the work on the libuv pool). The plain names are the
 * original library's: `argon2` and `argon2.verify` return Promises; `pbkdf2`, `scrypt`, `hkdf`
 * and `bcrypt.hash` / `bcrypt.verify` return values.
 */
export interface KdfNamespace {
  /** Argon2 (RFC 9106); a Promise. */
  argon2: Argon2Function
  /** `argon2`, by its explicit name (a Promise). */
  argon2Async<F extends OutputFormat | 'phc' = 'phc'>(password: Input, options?: Argon2Options<F> & AbortOptions): Promise<Argon2Output<F>>
  /** Argon2, blocking the calling thread for the whole hash (about 0.1 s at the defaults). */
  argon2Sync<F extends OutputFormat | 'phc' = 'phc'>(password: Input, options?: Argon2Options<F>): Argon2Output<F>
  /** bcrypt. */
  bcrypt: BcryptNamespace
  /** PBKDF2-HMAC, blocking the calling thread. Default hex output. */
  pbkdf2<F extends OutputFormat = 'hex'>(password: Input, options: Pbkdf2Options<F>): Output<F>
  /** `pbkdf2`, by its explicit name. */
  pbkdf2Sync<F extends OutputFormat = 'hex'>(password: Input, options: Pbkdf2Options<F>): Output<F>
  /** `pbkdf2` on the libuv pool; `signal` stops it within milliseconds. */
  pbkdf2Async<F extends OutputFormat = 'hex'>(password: Input, options: Pbkdf2Options<F> & AbortOptions): Promise<Output<F>>
  /** scrypt, blocking the calling thread. Default hex output. */
  scrypt<F extends OutputFormat = 'hex'>(password: Input, options: ScryptOptions<F>): Output<F>
  /** `scrypt`, by its explicit name. */
  scryptSync<F extends OutputFormat = 'hex'>(password: Input, options: ScryptOptions<F>): Output<F>
  /** `scrypt` on the libuv pool; `signal` stops it within milliseconds. */
  scryptAsync<F extends OutputFormat = 'hex'>(password: Input, options: ScryptOptions<F> & AbortOptions): Promise<Output<F>>
  /** HKDF (extract and expand), blocking the calling thread. Default hex output. */
  hkdf<F extends OutputFormat = 'hex'>(ikm: Input, options?: HkdfOptions<F>): Output<F>
  /** `hkdf`, by its explicit name. */
  hkdfSync<F extends OutputFormat = 'hex'>(ikm: Input, options?: HkdfOptions<F>): Output<F>
  /** `hkdf` on the libuv pool. */
  hkdfAsync<F extends OutputFormat = 'hex'>(ikm: Input, options?: HkdfOptions<F> & AbortOptions): Promise<Output<F>>
  /** The class of the error a cancelled call rejects with. */
  AbortError: typeof AbortError
}

/** Password hashing and key derivation: Argon2, bcrypt, scrypt, PBKDF2, HKDF (docs/password-hashing.md). */
export declare const kdf: KdfNamespace

// ---- Password storage (crypto.password) --------------------------------------------------------

/** The algorithms `password.hash` writes (and a policy may choose). */
export type PasswordAlgorithm = 'argon2id' | 'bcrypt' | 'scrypt' | 'pbkdf2'

/** The digests of PBKDF2 password hashes. */
export type PasswordPbkdf2Hash = 'sha256' | 'sha512' | 'sha1'

/**
 * A password policy: the algorithm and parameters `password.hash` uses, and the bar
 * `password.verify` measures stored hashes against (`needsRehash`). `password.policy` is the
 * library's; `password.createPolicy(overrides)` makes others.
 */
export interface PasswordPolicy {
  /** What `hash` writes; a stored hash of another algorithm needs a rehash. Default 'argon2id'. */
  readonly algorithm: PasswordAlgorithm
  /** Default: `kdf.argon2.defaults`, m = 65536 KiB (64 MiB), t = 3, p = 4. */
  readonly argon2id: {
    /** Memory in KiB. */
    readonly memoryCost: number
    /** Passes. */
    readonly timeCost: number
    /** Lanes. */
    readonly parallelism: number
  }
  /** Default cost 10 (OWASP's minimum). */
  readonly bcrypt: {
    /** The cost, log2 of the rounds (4..31). */
    readonly rounds: number
  }
  /** Default N = 131072 (2^17), r = 8, p = 1 (OWASP). */
  readonly scrypt: {
    /** The CPU/memory cost, a power of 2. */
    readonly N: number
    /** The block size. */
    readonly r: number
    /** The parallelisation. */
    readonly p: number
  }
  /** Default digest 'sha256'; iterations per digest (OWASP): sha256 600000, sha512 210000, sha1 1300000. */
  readonly pbkdf2: {
    /** The HMAC digest `hash` writes with. */
    readonly hash: PasswordPbkdf2Hash
    /** The iteration count for each digest: a stored hash of that digest with fewer needs a rehash. */
    readonly iterations: {
      /** Iterations of PBKDF2-HMAC-SHA256. */
      readonly sha256: number
      /** Iterations of PBKDF2-HMAC-SHA512. */
      readonly sha512: number
      /** Iterations of PBKDF2-HMAC-SHA1. */
      readonly sha1: number
    }
  }
}

/** `createPolicy` input: any subset, section by section; absent fields keep the default's. */
export interface PasswordPolicyOverrides {
  /** What `hash` writes. */
  algorithm?: PasswordAlgorithm
  /** Argon2id's cost. */
  argon2id?: {
    /** Memory in KiB, ≥ 8·parallelism. */
    memoryCost?: number
    /** Passes, ≥ 1. */
    timeCost?: number
    /** Lanes, ≥ 1. */
    parallelism?: number
  }
  /** bcrypt's cost. */
  bcrypt?: {
    /** The cost, log2 of the rounds, 4..31. */
    rounds?: number
  }
  /** scrypt's cost. */
  scrypt?: {
    /** The CPU/memory cost, a power of 2. */
    N?: number
    /** The block size. */
    r?: number
    /** The parallelisation. */
    p?: number
  }
  /** PBKDF2's digest and iteration counts. */
  pbkdf2?: {
    /** The HMAC digest `hash` writes with. */
    hash?: PasswordPbkdf2Hash
    /** The iteration count for each digest. */
    iterations?: {
      /** Iterations of PBKDF2-HMAC-SHA256. */
      sha256?: number
      /** Iterations of PBKDF2-HMAC-SHA512. */
      sha512?: number
      /** Iterations of PBKDF2-HMAC-SHA1. */
      sha1?: number
    }
  }
}

/**
 * Ceilings on the parameters of a stored (untrusted) hash; a hash above one is refused with a
 * RangeError (`ERR_OUT_OF_RANGE`) before any work. Each default is raised to what the policy in
 * use writes.
 */
export interface PasswordLimits extends Argon2Limits, BcryptLimits {
  /** scrypt: largest 128·r·(N + 2 + p) in bytes. Default 268435456 (256 MiB). (scrypt's p is capped by `maxParallelism`.) */
  maxmem?: number
  /** scrypt: largest N·r·p (its time is linear in it). Default 4194304, 4 times the default policy's. */
  maxScryptWork?: number
  /** PBKDF2: largest iteration count. Default 10000000. */
  maxIterations?: number
}

/** Options of `password.hash`: the algorithm, the policy, and parameters that override the policy's. */
export interface PasswordHashOptions {
  /** Default: the policy's algorithm. Parameters not given come from the policy's section for it. */
  algorithm?: PasswordAlgorithm
  /** Default `password.policy`. */
  policy?: PasswordPolicy | PasswordPolicyOverrides
  /** argon2id: KiB, ≥ 8·parallelism. */
  memoryCost?: number
  /** argon2id: passes, ≥ 1. */
  timeCost?: number
  /** argon2id: lanes. */
  parallelism?: number
  /** bcrypt: cost 4..31 (passwords over 72 bytes are refused with a RangeError). */
  rounds?: number
  /** scrypt: a power of 2. */
  N?: number
  /** scrypt: block size. */
  r?: number
  /** scrypt: parallelisation. */
  p?: number
  /** pbkdf2: iterations. */
  iterations?: number
  /** pbkdf2: the HMAC digest. */
  hash?: PasswordPbkdf2Hash
}

/** Options of `password.verify`, `parse` and `needsRehash`: the policy and the ceilings on stored hashes. */
export interface PasswordVerifyOptions extends PasswordLimits {
  /** The policy `needsRehash` compares with, and whose hash an unknown user costs. Default `password.policy`. */
  policy?: PasswordPolicy | PasswordPolicyOverrides
}

/** Names `verify` reports: the algorithm of the stored hash. */
export type StoredPasswordAlgorithm =
  | 'argon2id' | 'argon2i' | 'argon2d' | 'bcrypt' | 'bcrypt-sha256' | 'scrypt' | 'pbkdf2-sha256' | 'pbkdf2-sha512' | 'pbkdf2-sha1'

/**
 * The envelope: 'phc' (`$argon2id$…`, `$scrypt$…`), 'bcrypt' (`$2a$`/`$2b$`/`$2y$`), 'passlib'
 * (`$pbkdf2-sha256$…`), 'django' (`pbkdf2_sha256$…`, `argon2$…`, `bcrypt_sha256$…`, `scrypt$…`).
 */
export type StoredPasswordFormat = 'phc' | 'bcrypt' | 'passlib' | 'django'

/** The parameters of a stored hash, by algorithm (Argon2: those of {@link Argon2Info} but the variant, which `algorithm` names). */
export type StoredPasswordParams =
  | Omit<Argon2Info, 'variant'>
  | {
      /** bcrypt (and bcrypt-sha256): the cost, log2 of the rounds. */
      rounds: number
    }
  | {
      /** scrypt: the CPU/memory cost, a power of 2. */
      N: number
      /** scrypt: the block size. */
      r: number
      /** scrypt: the parallelisation. */
      p: number
      /** Derived key length in bytes. */
      keyLength: number
      /** Salt length in bytes. */
      saltLength: number
    }
  | {
      /** PBKDF2: the HMAC digest. */
      hash: PasswordPbkdf2Hash
      /** PBKDF2: the iteration count. */
      iterations: number
      /** Salt length in bytes. */
      saltLength: number
      /** Derived key length in bytes. */
      keyLength: number
    }

/** What `password.parse` reads from a stored hash. */
export interface StoredPasswordInfo {
  /** The algorithm of the stored hash. */
  algorithm: StoredPasswordAlgorithm
  /** The format it is written in. */
  format: StoredPasswordFormat
  /** Its parameters. */
  params: StoredPasswordParams
}

/** What `password.verify` resolves to. */
export type PasswordVerifyResult =
  | {
      /** True when the password matches the stored hash. */
      valid: boolean
      /** True only when `valid` and the stored hash is weaker than the policy: store `await password.hash(password)`. */
      needsRehash: boolean
      /** The algorithm of the stored hash. */
      algorithm: StoredPasswordAlgorithm
      /** The format it is written in. */
      format: StoredPasswordFormat
      /** Its parameters. */
      params: StoredPasswordParams
    }
  /** `stored` was null or undefined (no such user): one policy hash was spent all the same. */
  | {
      /** False: there was no hash to match. */
      valid: false
      /** False. */
      needsRehash: false
      /** Null: no stored hash. */
      algorithm: null
      /** Null: no stored hash. */
      format: null
      /** Null: no stored hash. */
      params: null
    }

/** `crypto.password`: password storage under one policy. */
export interface PasswordNamespace {
  /**
   * Hashes a password for storage, on the libuv pool: by default Argon2id with the policy's
   * parameters (a PHC string); `algorithm: 'bcrypt'` gives `$2b$`, `'scrypt'` passlib's
   * `$scrypt$ln=…`, `'pbkdf2'` passlib's `$pbkdf2-sha256$…` (or `-sha512`, `$pbkdf2$` for SHA-1).
   */
  hash(password: Input, options?: PasswordHashOptions & AbortOptions): Promise<string>
  /** `hash`, by its explicit name (a Promise). */
  hashAsync(password: Input, options?: PasswordHashOptions & AbortOptions): Promise<string>
  /** `hash`, blocking the calling thread for the whole hash (about 85 ms at the default policy). */
  hashSync(password: Input, options?: PasswordHashOptions): string
  /**
   * Checks a password against a stored hash of any format listed in {@link StoredPasswordFormat},
   * on the libuv pool; every comparison is constant-time. `stored` null or undefined (no such
   * user) spends one policy hash and resolves `valid: false`. Rejects with `ERR_INVALID_ARG_VALUE`
   * for an unknown or malformed format, `ERR_OUT_OF_RANGE` for parameters above the ceilings
   * (before any work), `ERR_INVALID_ARG_TYPE` for wrong types.
   */
  verify(password: Input, stored: string | null | undefined, options?: PasswordVerifyOptions & AbortOptions): Promise<PasswordVerifyResult>
  /** `verify`, by its explicit name (a Promise). */
  verifyAsync(password: Input, stored: string | null | undefined, options?: PasswordVerifyOptions & AbortOptions): Promise<PasswordVerifyResult>
  /** `verify`, blocking the calling thread for the whole derivation. */
  verifySync(password: Input, stored: string | null | undefined, options?: PasswordVerifyOptions): PasswordVerifyResult
  /** The algorithm, format and parameters of a stored hash (no derivation); same errors as `verify`. */
  parse(stored: string, options?: PasswordVerifyOptions): StoredPasswordInfo
  /** True when a stored hash is weaker than the policy (no password checked). */
  needsRehash(stored: string, options?: PasswordVerifyOptions): boolean
  /** A frozen policy: the default with `overrides` applied section by section. */
  createPolicy(overrides?: PasswordPolicyOverrides): PasswordPolicy
  /** The library's policy (frozen). */
  readonly policy: PasswordPolicy
  /** The default ceilings for stored hashes (before being raised to a policy's own parameters). */
  readonly ceilings: Readonly<Required<PasswordLimits>>
  /** The algorithms `hash` writes. */
  readonly algorithms: readonly PasswordAlgorithm[]
}

/** Password storage under one policy: hash, verify any stored format, needsRehash (docs/password.md). */
export declare const password: PasswordNamespace

// ---- crypto.hybrid ------------------------------------------------------------------------

/**
 * A hybrid suite: `'x25519-mlkem768'` (X-Wing KEM; Ed25519 + ML-DSA-65 signatures) or
 * `'rsa4096-mlkem1024'` (RSA-OAEP-4096 + ML-KEM-1024; RSA-PSS-4096 + ML-DSA-87).
 */
export type HybridSuite = 'x25519-mlkem768' | 'rsa4096-mlkem1024'

/** A hybrid key: its documented byte string (docs/hybrid-format.md), or that as PEM. */
export type HybridKey = Input | string

/** Options of hybrid key generation. */
export interface HybridKeyPairOptions<F extends 'raw' | 'pem' = 'raw'> {
  /** Default `'x25519-mlkem768'`. */
  suite?: HybridSuite
  /** `'raw'` (Buffers, the default) or `'pem'` (strings). */
  format?: F
}

/** A hybrid key pair, as bytes or PEM (docs/hybrid-format.md, "Keys"). */
export interface HybridKeyPair<F extends 'raw' | 'pem' = 'raw'> {
  /** The public key: every component's public key, under the suite's header. */
  publicKey: F extends 'pem' ? string : Buffer
  /** The private key: every component's private key (seeds, and RSA PKCS#8). Keep it secret. */
  privateKey: F extends 'pem' ? string : Buffer
}

/** Options of hybrid encryption and decryption. */
export interface HybridEncryptOptions {
  /** Additional authenticated data: needed again, equal, to decrypt. */
  aad?: Input
}

/** Options of `hybrid.encryptStream` and `encryptFile`. */
export interface HybridStreamOptions extends HybridEncryptOptions, AbortOptions {
  /** Plaintext bytes per segment of the streaming format (encrypting only; default 65,536). */
  segmentSize?: number
}

/**
 * Public-key encryption and signatures that stay secure while EITHER the classical or the
 * post-quantum component does: the payload key is derived from both KEM secrets together with
 * both ciphertexts and the recipient's public key (never wrapped under each component
 * separately), and a composite signature verifies only when both components do, each over a
 * domain-separated message naming the whole public key. Formats: docs/hybrid-format.md.
 */
export interface HybridNamespace {
  /** The suites' names. */
  readonly suites: readonly HybridSuite[]
  /** A new key pair (blocks the calling thread: RSA-4096 key generation takes up to seconds). */
  generateKeypair<F extends 'raw' | 'pem' = 'raw'>(options?: HybridKeyPairOptions<F>): HybridKeyPair<F>
  /** `generateKeypair`, by its explicit name. */
  generateKeypairSync<F extends 'raw' | 'pem' = 'raw'>(options?: HybridKeyPairOptions<F>): HybridKeyPair<F>
  /** The components generated on the libuv pool side by side (RSA-4096 key generation dominates). */
  generateKeypairAsync<F extends 'raw' | 'pem' = 'raw'>(options?: HybridKeyPairOptions<F> & AbortOptions): Promise<HybridKeyPair<F>>
  /** The public key of a private key. */
  getPublicKey(privateKey: HybridKey, options?: { format?: 'raw' }): Buffer
  /** The public key of a private key, as PEM. */
  getPublicKey(privateKey: HybridKey, options: { format: 'pem' }): string
  /** The envelope: head, KEM ciphertexts, AES-256-GCM payload (blocks the calling thread). */
  encrypt(data: Input, recipientPublicKey: HybridKey, options?: HybridEncryptOptions): Buffer
  /** `encrypt` with the key in the options object. */
  encrypt(data: Input, options: HybridEncryptOptions & { publicKey: HybridKey }): Buffer
  /** `encrypt`, by its explicit name. */
  encryptSync(data: Input, recipientPublicKey: HybridKey, options?: HybridEncryptOptions): Buffer
  /** `encryptSync` with the key in the options object. */
  encryptSync(data: Input, options: HybridEncryptOptions & { publicKey: HybridKey }): Buffer
  /** `encrypt` with the encapsulations and the payload on the libuv pool. */
  encryptAsync(data: Input, recipientPublicKey: HybridKey, options?: HybridEncryptOptions & AbortOptions): Promise<Buffer>
  /** `encryptAsync` with the key in the options object. */
  encryptAsync(data: Input, options: HybridEncryptOptions & { publicKey: HybridKey } & AbortOptions): Promise<Buffer>
  /** Throws `ERR_CRYPTO_DECRYPT_FAILED` for any modified, truncated or misaddressed envelope, releasing nothing. */
  decrypt(envelope: Input, privateKey: HybridKey, options?: HybridEncryptOptions): Buffer
  /** `decrypt` with the key in the options object. */
  decrypt(envelope: Input, options: HybridEncryptOptions & { privateKey: HybridKey }): Buffer
  /** `decrypt`, by its explicit name. */
  decryptSync(envelope: Input, privateKey: HybridKey, options?: HybridEncryptOptions): Buffer
  /** `decryptSync` with the key in the options object. */
  decryptSync(envelope: Input, options: HybridEncryptOptions & { privateKey: HybridKey }): Buffer
  /** `decrypt` with the decapsulations and the payload on the libuv pool. */
  decryptAsync(envelope: Input, privateKey: HybridKey, options?: HybridEncryptOptions & AbortOptions): Promise<Buffer>
  /** `decryptAsync` with the key in the options object. */
  decryptAsync(envelope: Input, options: HybridEncryptOptions & { privateKey: HybridKey } & AbortOptions): Promise<Buffer>
  /** A Transform from plaintext to a stream envelope (the streaming AEAD format after the KEM ciphertexts). */
  encryptStream(recipientPublicKey: HybridKey, options?: HybridStreamOptions): import('node:stream').Transform
  /** `encryptStream` with the key in the options object. */
  encryptStream(options: HybridStreamOptions & { publicKey: HybridKey }): import('node:stream').Transform
  /** A Transform from a stream envelope to its plaintext, released segment by verified segment. */
  decryptStream(privateKey: HybridKey, options?: HybridEncryptOptions & AbortOptions): import('node:stream').Transform
  /** `decryptStream` with the key in the options object. */
  decryptStream(options: HybridEncryptOptions & AbortOptions & { privateKey: HybridKey }): import('node:stream').Transform
  /** Reads `src`, writes its stream envelope to `dst` (natively on the libuv pool). */
  encryptFile(src: PathLike, dst: PathLike, recipientPublicKey: HybridKey, options?: HybridStreamOptions & FileOptions): Promise<FileResult>
  /** `encryptFile` with the key in the options object. */
  encryptFile(src: PathLike, dst: PathLike, options: HybridStreamOptions & FileOptions & { publicKey: HybridKey }): Promise<FileResult>
  /** Opens the stream envelope `src` into `dst` (renamed over it only after the last segment verified). */
  decryptFile(src: PathLike, dst: PathLike, privateKey: HybridKey, options?: HybridEncryptOptions & AbortOptions & FileOptions): Promise<FileResult>
  /** `decryptFile` with the key in the options object. */
  decryptFile(src: PathLike, dst: PathLike, options: HybridEncryptOptions & AbortOptions & FileOptions & { privateKey: HybridKey }): Promise<FileResult>
  /** One composite signature (both components over the same domain-separated message), blocking the calling thread. */
  sign(data: Input, privateKey: HybridKey): Buffer
  /** `sign` with the key in the options object. */
  sign(data: Input, options: { privateKey: HybridKey }): Buffer
  /** `sign`, by its explicit name. */
  signSync(data: Input, privateKey: HybridKey): Buffer
  /** `signSync` with the key in the options object. */
  signSync(data: Input, options: { privateKey: HybridKey }): Buffer
  /** `sign` with the components on the libuv pool, side by side. */
  signAsync(data: Input, privateKey: HybridKey, options?: AbortOptions): Promise<Buffer>
  /** `signAsync` with the key in the options object. */
  signAsync(data: Input, options: { privateKey: HybridKey } & AbortOptions): Promise<Buffer>
  /**
   * True only when every component verifies; false for any other signature, key suite or data.
   * The public key comes before the signature: a string where the signature goes (a PEM key
   * given last) throws `ERR_INVALID_ARG_TYPE` naming the order, and a signature where the key
   * goes is a malformed key (`ERR_INVALID_ARG_VALUE`).
   */
  verify(data: Input, publicKey: HybridKey, signature: ArrayBufferView | ArrayBuffer): boolean
  /** `verify` with the key and signature in the options object. */
  verify(data: Input, options: { publicKey: HybridKey; signature: ArrayBufferView | ArrayBuffer }): boolean
  /** `verify`, by its explicit name. */
  verifySync(data: Input, publicKey: HybridKey, signature: ArrayBufferView | ArrayBuffer): boolean
  /** `verifySync` with the key and signature in the options object. */
  verifySync(data: Input, options: { publicKey: HybridKey; signature: ArrayBufferView | ArrayBuffer }): boolean
  /** `verify` with the components checked on the libuv pool, side by side. */
  verifyAsync(data: Input, publicKey: HybridKey, signature: ArrayBufferView | ArrayBuffer, options?: AbortOptions): Promise<boolean>
  /** `verifyAsync` with the key and signature in the options object. */
  verifyAsync(data: Input, options: { publicKey: HybridKey; signature: ArrayBufferView | ArrayBuffer } & AbortOptions): Promise<boolean>
}

/** Hybrid post-quantum encryption and signatures, X25519 + ML-KEM-768 or RSA-4096 + ML-KEM-1024 (docs/hybrid-format.md). */
export declare const hybrid: HybridNamespace

/** The whole API, as `require('cryptographer.js')` and the default import give it. */
declare const crypto: {
  /** {@link sha}: the hash functions. */
  sha: ShaNamespace
  /** {@link hash}: the hash functions, by another name. */
  hash: ShaNamespace
  /** {@link hmac}: HMAC over each fixed-output hash. */
  hmac: HmacNamespace
  /** {@link kdf}: password hashing and key derivation. */
  kdf: KdfNamespace
  /** {@link password}: password storage under one policy. */
  password: PasswordNamespace
  /** {@link randomBytes}: bytes from the operating system's CSPRNG. */
  randomBytes: typeof randomBytes
  /** {@link timingSafeEqual}: constant-time equality. */
  timingSafeEqual: typeof timingSafeEqual
  /** {@link cpuPaths}: the code path each backend takes on this CPU. */
  cpuPaths: typeof cpuPaths
  /** {@link setMemoryBudget}: the Argon2 and scrypt memory budget. */
  setMemoryBudget: typeof setMemoryBudget
  /** {@link memoryBudget}: the memory budget's limit and use. */
  memoryBudget: typeof memoryBudget
  /** {@link diagnosticsChannels}: the diagnostics_channel name of each family of async calls. */
  diagnosticsChannels: typeof diagnosticsChannels
  /** {@link cipher}: symmetric encryption, age, X25519/ECDH, RSA-OAEP. */
  cipher: CipherApi
  /** {@link dsa}: signatures. */
  dsa: DsaApi
  /** {@link kem}: key encapsulation. */
  kem: KemApi
  /** {@link keys}: key conversion. */
  keys: KeysNamespace
  /** {@link hybrid}: hybrid post-quantum encryption and signatures. */
  hybrid: HybridNamespace
}
export default crypto
