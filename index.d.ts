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

declare const crypto: {
  sha: ShaNamespace
  hash: ShaNamespace
  hmac: HmacNamespace
  randomBytes: typeof randomBytes
  timingSafeEqual: typeof timingSafeEqual
}
export default crypto
