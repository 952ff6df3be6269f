/// <reference types="node" />
// cryptographer.js public API. Every algorithm runs natively (Rust through N-API).

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

/** A one-shot hash function with `.create()` for incremental use. `O` are its extra options. */
export interface HashFunction<O extends object = {}> {
  (data: Input): string
  <F extends OutputFormat = 'hex'>(data: Input, options: O & FormatOption<F>): Output<F>
  create<F extends OutputFormat = 'hex'>(options?: O & FormatOption<F>): Hasher<F>
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
  /** Context string: derive-key mode (KDF). Not with `key`. */
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
   * Resolves false for a wrong password; rejects with a TypeError (`ERR_INVALID_ARG_VALUE`) for a malformed string.
   */
  verify(hash: string, password: Input, options?: { secret?: Input } & AbortOptions): Promise<boolean>
  /** Synchronous `verify` (blocks the event loop for a whole hash). Throws TypeError on a malformed string. */
  verifySync(hash: string, password: Input, options?: { secret?: Input }): boolean
  /** True when `hash` was made with other parameters than `options` (or the defaults): rehash at next login. */
  needsRehash(hash: string, options?: Argon2Params): boolean
  /** The parameters of a PHC string (TypeError when malformed). */
  parse(hash: string): Argon2Info
  readonly defaults: Readonly<Required<Pick<Argon2Params, 'timeCost' | 'memoryCost' | 'parallelism' | 'keyLength'>>> & { variant: 'id' }
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
  /** Verifies `$2a$`, `$2b$` and `$2y$` hashes (first 72 password bytes). Malformed hashes throw a TypeError. */
  verify(password: Input, hash: string): boolean
  /** `verify` on the libuv pool. */
  verifyAsync(password: Input, hash: string, options?: AbortOptions): Promise<boolean>
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

declare const crypto: {
  sha: ShaNamespace
  hash: ShaNamespace
  hmac: HmacNamespace
  kdf: KdfNamespace
  randomBytes: typeof randomBytes
  timingSafeEqual: typeof timingSafeEqual
}
export default crypto
