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

export interface FormatOption<F extends OutputFormat = OutputFormat> {
  /** Default `'hex'`. */
  outputFormat?: F
}

/** An incremental hash or HMAC, from `X.create()`. */
export interface Hasher<D extends OutputFormat = 'hex'> {
  /** Adds data; returns the same hasher. Throws `ERR_HASH_FINALIZED` after `digest()` until `reset()`. */
  update(data: Input): this
  /** Finalises; default format is the `outputFormat` given to `create()`, else `'hex'`. */
  digest(): Output<D>
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
   * never after the Promise settles. An exception it throws cancels the work and is the rejection.
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

/** A one-shot hash function with `.create()` for incremental use. `O` are its extra options. */
export interface HashFunction<O extends object = {}> {
  (data: Input): string
  <F extends OutputFormat = 'hex'>(data: Input, options: O & FormatOption<F>): Output<F>
  create<F extends OutputFormat = 'hex'>(options?: O & FormatOption<F>): Hasher<F>
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
  /**
   * The digest of every input, in one native call: an array in the same order and format as
   * `inputs.map((x) => X(x, options))`. The options (and `outputLength`, keys...) apply to every
   * item. An item that is not bytes throws a TypeError naming it (`inputs[3]`). With
   * `outputFormat: 'buffer'` the Buffers are views of one packed buffer; `packed: true` returns
   * that buffer.
   */
  batch(inputs: readonly Input[]): string[]
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
  /** Default digest length in bytes. */
  readonly outputLength: number
  /** Block length in bytes (0 for XOFs). */
  readonly blockLength: number
}

export interface ShakeOptions {
  /** Output length in bytes; default 16 (SHAKE128) or 32 (SHAKE256). */
  outputLength?: number
}

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

export interface Blake3Options {
  /** 32-byte key: keyed-hash mode (a MAC). Not with `context`. */
  key?: Input
  /** Context string (UTF-8 text; bytes that are not valid UTF-8 are a TypeError, as BLAKE3 defines the context as a string): derive-key mode (KDF). Not with `key`. */
  context?: Input
  /** Output length in bytes (extended output); default 32. */
  outputLength?: number
}

export interface ShaNamespace {
  md4: HashFunction
  md5: HashFunction
  sha1: HashFunction
  sha224: HashFunction
  sha256: HashFunction
  sha384: HashFunction
  sha512: HashFunction
  sha512_224: HashFunction
  sha512_256: HashFunction
  sha3_224: HashFunction
  sha3_256: HashFunction
  sha3_384: HashFunction
  sha3_512: HashFunction
  /** Keccak-256 with the original Keccak padding (Ethereum), not SHA3-256. */
  keccak256: HashFunction
  shake128: HashFunction<ShakeOptions>
  shake256: HashFunction<ShakeOptions>
  blake2b: HashFunction<Blake2Options>
  blake2s: HashFunction<Blake2Options>
  blake3: HashFunction<Blake3Options>
  ripemd160: HashFunction
  whirlpool: HashFunction
}

export interface HmacOptions<F extends OutputFormat = OutputFormat> extends FormatOption<F> {
  /** The key, any length (RFC 2104; keys longer than the block are hashed first). */
  key: Input
}

/** `hmac.X(data, { key })` and `hmac.X.create({ key })`. */
export interface HmacFunction {
  <F extends OutputFormat = 'hex'>(data: Input, options: HmacOptions<F>): Output<F>
  create<F extends OutputFormat = 'hex'>(options: HmacOptions<F>): Hasher<F>
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
  readonly outputLength: number
  readonly blockLength: number
}

export type HmacNamespace = { [K in Exclude<keyof ShaNamespace, 'shake128' | 'shake256' | 'blake3'>]: HmacFunction }

export declare const sha: ShaNamespace
/** Alias of `sha`. */
export declare const hash: ShaNamespace
export declare const hmac: HmacNamespace

/** `size` bytes (0 ≤ size < 2^31) from the operating system's CSPRNG. */
export declare function randomBytes(size: number): Buffer
/** Constant-time equality; throws `RangeError` when the lengths differ. */
export declare function timingSafeEqual(a: Input, b: Input): boolean

// ---------------------------------------------------------------------------------------------
// Encryption (crypto.cipher)
// ---------------------------------------------------------------------------------------------

/** AES modes. `ecb`/`cbc` pad with PKCS#7 unless `padding: 'none'`; `gcm`, `gcm-siv`, `ccm`, `siv` authenticate. */
export type AesMode = 'ecb' | 'cbc' | 'ctr' | 'cfb' | 'cfb8' | 'ofb' | 'gcm' | 'gcm-siv' | 'ccm' | 'siv'

/** Decrypt results may also be read as a UTF-8 string. */
export type DecryptOutputFormat = OutputFormat | 'utf8'

/** The result type for a cipher output format: a Buffer (the default) or a string. */
export type CipherOutput<F extends string | undefined> = F extends undefined | 'buffer' ? Buffer : string

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
  /** Async forms only: rejects with an `AbortError` if aborted before the work starts. */
  signal?: AbortSignal
}

export interface AesOptions<F extends string = OutputFormat> extends CipherOptions<F> {
  /** Case-insensitive; default `'gcm'`. Unknown modes throw `TypeError` (`ERR_INVALID_ARG_VALUE`) listing the modes. */
  mode?: AesMode
  /** ECB/CBC only: `'pkcs7'` (default) or `'none'` (data must be a multiple of 16 bytes). */
  padding?: 'pkcs7' | 'none'
}

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
  decrypt<F extends DecryptOutputFormat | undefined = undefined>(data: Input, options: O & { outputFormat?: F }): CipherOutput<F>
  /** As `encrypt`, on the libuv thread pool (for large payloads; inputs are copied first). */
  encryptAsync<F extends OutputFormat | undefined = undefined>(data: Input, options: O & { outputFormat?: F }): Promise<CipherOutput<F>>
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

export interface AesNamespace extends CipherNamespace<AesOptions<any>> {
  /**
   * crypto-js compatible: reads the `Salted__` format (base64 string or its bytes). Encryption in
   * that format is only under `cipher.legacy.cryptoJs.encrypt`: `encrypt` with `passphrase` throws.
   */
  decrypt<F extends DecryptOutputFormat | undefined = undefined>(data: Input, options: PassphraseOptions<F & string>): CipherOutput<F>
  decrypt<F extends DecryptOutputFormat | undefined = undefined>(data: Input, options: AesOptions<any> & { outputFormat?: F }): CipherOutput<F>
}

/** A key kept across calls (`crypto.cipher.aes.key(key)`); options as the namespace's, without `key`. */
export interface CipherKey<O> {
  encrypt<F extends OutputFormat | undefined = undefined>(data: Input, options?: O & { outputFormat?: F }): CipherOutput<F>
  decrypt<F extends DecryptOutputFormat | undefined = undefined>(data: Input, options?: O & { outputFormat?: F }): CipherOutput<F>
  encryptAsync<F extends OutputFormat | undefined = undefined>(data: Input, options?: O & { outputFormat?: F }): Promise<CipherOutput<F>>
  decryptAsync<F extends DecryptOutputFormat | undefined = undefined>(data: Input, options?: O & { outputFormat?: F }): Promise<CipherOutput<F>>
}

export interface CipherApi {
  /** AES in ECB, CBC, CTR, CFB, CFB8, OFB, GCM, GCM-SIV, CCM and SIV; default GCM. */
  aes: AesNamespace
  /** ChaCha20-Poly1305 (12-byte nonce) or XChaCha20-Poly1305 (24-byte nonce). */
  chacha20: CipherNamespace<CipherOptions<any>>
  /** XChaCha20-Poly1305 (24-byte nonce; a random nonce is safe to use). */
  xchacha20: CipherNamespace<CipherOptions<any>>
  /** Legacy DES / 3DES (EDE), ECB or CBC, PKCS#7. For old data only. */
  des: CipherNamespace<DesOptions<any>>
  /** Weak formats of other libraries, kept to read old data and migrate it. */
  legacy: {
    /** The crypto-js / OpenSSL `Salted__` passphrase format. See {@link PassphraseOptions}. */
    cryptoJs: CryptoJsNamespace
  }
}

/** `cipher.legacy.cryptoJs`: the async forms run on the libuv pool. */
export interface CryptoJsNamespace {
  /** Returns the `Salted__` message: by default the base64 string `CryptoJS.AES.encrypt` returns. */
  encrypt<F extends OutputFormat | undefined = undefined>(data: Input, options: PassphraseOptions<F & string>): F extends undefined ? string : CipherOutput<F>
  /** Reads a `Salted__` message (base64 string or its bytes); default output a Buffer. */
  decrypt<F extends DecryptOutputFormat | undefined = undefined>(data: Input, options: PassphraseOptions<F & string>): CipherOutput<F>
  encryptAsync<F extends OutputFormat | undefined = undefined>(data: Input, options: PassphraseOptions<F & string> & AbortOptions): Promise<F extends undefined ? string : CipherOutput<F>>
  decryptAsync<F extends DecryptOutputFormat | undefined = undefined>(data: Input, options: PassphraseOptions<F & string> & AbortOptions): Promise<CipherOutput<F>>
}

export declare const cipher: CipherApi
// ---- Password hashing and key derivation (crypto.kdf) ------------------------------------------

/** Options every async KDF form accepts. */
export interface AbortOptions {
  /**
   * Cancels the call. Work still queued never runs and the Promise rejects at once; running
   * PBKDF2, scrypt and bcrypt work stops within milliseconds; a running Argon2 hash finishes on
   * its thread and its result is discarded. The Promise rejects with an `AbortError`
   * (`name` 'AbortError', `code` 'ABORT_ERR', `cause` = `signal.reason`).
   */
  signal?: AbortSignal
}

/** Hashes PBKDF2 and HKDF accept: every fixed-output hash of `crypto.sha` (with HMAC). */
export type KdfHash = Exclude<keyof ShaNamespace, 'shake128' | 'shake256' | 'blake3'> | 'sha-1' | 'sha-256' | 'sha-384' | 'sha-512'

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

export type Argon2Variant = 'id' | 'i' | 'd' | 'argon2id' | 'argon2i' | 'argon2d'

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

export type Argon2Output<F> = F extends 'phc' | undefined ? string : F extends 'buffer' ? Buffer : string

export interface Argon2Info {
  variant: 'argon2id' | 'argon2i' | 'argon2d'
  version: number
  memoryCost: number
  timeCost: number
  parallelism: number
  saltLength: number
  keyLength: number
}

export interface Argon2Function {
  /** Argon2 on the libuv pool. Default output: the PHC string. */
  <F extends OutputFormat | 'phc' = 'phc'>(password: Input, options?: Argon2Options<F> & AbortOptions): Promise<Argon2Output<F>>
  /**
   * Checks a password against a PHC string (`$argon2id$`, `$argon2i$`, `$argon2d$`; v=16/19).
   * Resolves false for a wrong password; rejects with a TypeError (`ERR_INVALID_ARG_VALUE`) for a
   * malformed string and a RangeError (`ERR_OUT_OF_RANGE`) for parameters above the ceilings
   * ({@link Argon2Limits}), before any work. `signal` stops a long hash between passes.
   */
  verify(hash: string, password: Input, options?: { secret?: Input } & Argon2Limits & AbortOptions): Promise<boolean>
  /** Synchronous `verify` (blocks the event loop for a whole hash); same errors and ceilings. */
  verifySync(hash: string, password: Input, options?: { secret?: Input } & Argon2Limits): boolean
  /** True when `hash` was made with other parameters than `options` (or the defaults): rehash at next login. */
  needsRehash(hash: string, options?: Argon2Params & Argon2Limits): boolean
  /** The parameters of a PHC string (TypeError when malformed, RangeError above the ceilings). */
  parse(hash: string, options?: Argon2Limits): Argon2Info
  readonly defaults: Readonly<Required<Pick<Argon2Params, 'timeCost' | 'memoryCost' | 'parallelism' | 'keyLength'>>> & { variant: 'id' }
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

export interface BcryptOptions {
  /** Cost (log2 of the rounds), 4..31. Default 10. */
  rounds?: number
  /** Hash only the first 72 bytes of longer passwords instead of throwing a RangeError. Default false. */
  truncate?: boolean
  /** 16-byte salt; default random. */
  salt?: Input
}

export interface BcryptNamespace {
  /** `$2b$` hash, synchronous (blocks the event loop). Passwords over 72 bytes throw a RangeError unless `truncate`. A number is taken as `rounds`. */
  hash(password: Input, options?: BcryptOptions | number): string
  /** `hash` on the libuv pool. */
  hashAsync(password: Input, options?: (BcryptOptions & AbortOptions) | number): Promise<string>
  /**
   * Verifies `$2a$`, `$2b$` and `$2y$` hashes (first 72 password bytes). Malformed hashes throw a
   * TypeError; a cost above `maxRounds` a RangeError (`ERR_OUT_OF_RANGE`), before any work.
   */
  verify(password: Input, hash: string, options?: BcryptLimits): boolean
  /** `verify` on the libuv pool. */
  verifyAsync(password: Input, hash: string, options?: BcryptLimits & AbortOptions): Promise<boolean>
  /** The cost of a bcrypt hash. */
  rounds(hash: string): number
}

/** The error async KDFs reject with when their `signal` aborts. */
export declare class AbortError extends Error {
  readonly name: 'AbortError'
  readonly code: 'ABORT_ERR'
}

export interface KdfNamespace {
  argon2: Argon2Function
  /** Synchronous Argon2 (blocks the event loop for the whole hash, about 0.1 s at the defaults). */
  argon2Sync<F extends OutputFormat | 'phc' = 'phc'>(password: Input, options?: Argon2Options<F>): Argon2Output<F>
  bcrypt: BcryptNamespace
  /** PBKDF2-HMAC, synchronous. Default hex output. */
  pbkdf2<F extends OutputFormat = 'hex'>(password: Input, options: Pbkdf2Options<F>): Output<F>
  pbkdf2Async<F extends OutputFormat = 'hex'>(password: Input, options: Pbkdf2Options<F> & AbortOptions): Promise<Output<F>>
  /** scrypt, synchronous. Default hex output. */
  scrypt<F extends OutputFormat = 'hex'>(password: Input, options: ScryptOptions<F>): Output<F>
  scryptAsync<F extends OutputFormat = 'hex'>(password: Input, options: ScryptOptions<F> & AbortOptions): Promise<Output<F>>
  /** HKDF (extract and expand), synchronous. Default hex output. */
  hkdf<F extends OutputFormat = 'hex'>(ikm: Input, options?: HkdfOptions<F>): Output<F>
  hkdfAsync<F extends OutputFormat = 'hex'>(ikm: Input, options?: HkdfOptions<F> & AbortOptions): Promise<Output<F>>
  AbortError: typeof AbortError
}

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
  /** Default m = 65536 KiB (64 MiB), t = 3, p = 1. */
  readonly argon2id: { readonly memoryCost: number; readonly timeCost: number; readonly parallelism: number }
  /** Default cost 10 (OWASP's minimum). */
  readonly bcrypt: { readonly rounds: number }
  /** Default N = 131072 (2^17), r = 8, p = 1 (OWASP). */
  readonly scrypt: { readonly N: number; readonly r: number; readonly p: number }
  /** Default digest 'sha256'; iterations per digest (OWASP): sha256 600000, sha512 210000, sha1 1300000. */
  readonly pbkdf2: {
    readonly hash: PasswordPbkdf2Hash
    readonly iterations: { readonly sha256: number; readonly sha512: number; readonly sha1: number }
  }
}

/** `createPolicy` input: any subset, section by section; absent fields keep the default's. */
export interface PasswordPolicyOverrides {
  algorithm?: PasswordAlgorithm
  argon2id?: { memoryCost?: number; timeCost?: number; parallelism?: number }
  bcrypt?: { rounds?: number }
  scrypt?: { N?: number; r?: number; p?: number }
  pbkdf2?: { hash?: PasswordPbkdf2Hash; iterations?: { sha256?: number; sha512?: number; sha1?: number } }
}

/**
 * Ceilings on the parameters of a stored (untrusted) hash; a hash above one is refused with a
 * RangeError (`ERR_OUT_OF_RANGE`) before any work. Each default is raised to what the policy in
 * use writes.
 */
export interface PasswordLimits extends Argon2Limits, BcryptLimits {
  /** scrypt: largest 128·r·(N + 2 + p) in bytes. Default 268435456 (256 MiB). (scrypt's p is capped by `maxParallelism`.) */
  maxmem?: number
  /** PBKDF2: largest iteration count. Default 10000000. */
  maxIterations?: number
}

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

/** The parameters of a stored hash, by algorithm. */
export type StoredPasswordParams =
  | { version: number; memoryCost: number; timeCost: number; parallelism: number; saltLength: number; keyLength: number }
  | { rounds: number }
  | { N: number; r: number; p: number; keyLength: number; saltLength: number }
  | { hash: PasswordPbkdf2Hash; iterations: number; saltLength: number; keyLength: number }

export interface StoredPasswordInfo {
  algorithm: StoredPasswordAlgorithm
  format: StoredPasswordFormat
  params: StoredPasswordParams
}

export type PasswordVerifyResult =
  | {
      valid: boolean
      /** True only when `valid` and the stored hash is weaker than the policy: store `await password.hash(password)`. */
      needsRehash: boolean
      algorithm: StoredPasswordAlgorithm
      format: StoredPasswordFormat
      params: StoredPasswordParams
    }
  /** `stored` was null or undefined (no such user): one policy hash was spent all the same. */
  | { valid: false; needsRehash: false; algorithm: null; format: null; params: null }

export interface PasswordNamespace {
  /**
   * Hashes a password for storage, on the libuv pool: by default Argon2id with the policy's
   * parameters (a PHC string); `algorithm: 'bcrypt'` gives `$2b$`, `'scrypt'` passlib's
   * `$scrypt$ln=…`, `'pbkdf2'` passlib's `$pbkdf2-sha256$…` (or `-sha512`, `$pbkdf2$` for SHA-1).
   */
  hash(password: Input, options?: PasswordHashOptions & AbortOptions): Promise<string>
  /** Synchronous `hash`: blocks the event loop for the whole hash (about 85 ms at the default policy). */
  hashSync(password: Input, options?: PasswordHashOptions): string
  /**
   * Checks a password against a stored hash of any format listed in {@link StoredPasswordFormat},
   * on the libuv pool; every comparison is constant-time. `stored` null or undefined (no such
   * user) spends one policy hash and resolves `valid: false`. Rejects with `ERR_INVALID_ARG_VALUE`
   * for an unknown or malformed format, `ERR_OUT_OF_RANGE` for parameters above the ceilings
   * (before any work), `ERR_INVALID_ARG_TYPE` for wrong types.
   */
  verify(password: Input, stored: string | null | undefined, options?: PasswordVerifyOptions & AbortOptions): Promise<PasswordVerifyResult>
  /** Synchronous `verify`: blocks the event loop for the whole derivation. */
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

export declare const password: PasswordNamespace

declare const crypto: {
  sha: ShaNamespace
  hash: ShaNamespace
  hmac: HmacNamespace
  kdf: KdfNamespace
  password: PasswordNamespace
  randomBytes: typeof randomBytes
  timingSafeEqual: typeof timingSafeEqual
  cipher: CipherApi
}
export default crypto
