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
 * EVP_BytesToKey with one MD5 round). WEAK: a guessable passphrase is cheap to brute-force. For
 * reading or writing data that crypto-js made (`CryptoJS.AES.encrypt(text, passphrase).toString()`);
 * for new data use GCM with a random key (or an Argon2-derived one).
 */
export interface PassphraseOptions<F extends string = string> {
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
  /** A kept key: the key schedule is expanded once (per mode) and reused; about 1.2–1.6× cheaper per small message (64 B–1 KiB) end to end. */
  key(key: Input): CipherKey<Omit<O, 'key'>>
  /** The accepted `mode` values. */
  readonly modes: readonly string[]
}

export interface AesNamespace extends CipherNamespace<AesOptions<any>> {
  /** crypto-js compatible: returns the OpenSSL `Salted__` base64 string. See {@link PassphraseOptions}. */
  encrypt<F extends OutputFormat | undefined = undefined>(data: Input, options: PassphraseOptions<F & string>): F extends undefined ? string : CipherOutput<F>
  encrypt<F extends OutputFormat | undefined = undefined>(data: Input, options: AesOptions<any> & { outputFormat?: F }): CipherOutput<F>
  /** crypto-js compatible: reads the `Salted__` format (base64 string or its bytes). */
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
}

export declare const cipher: CipherApi

declare const crypto: {
  sha: ShaNamespace
  hash: ShaNamespace
  hmac: HmacNamespace
  randomBytes: typeof randomBytes
  timingSafeEqual: typeof timingSafeEqual
  cipher: CipherApi
}
export default crypto
