// The native addon as the modules of lib/ call it (lib/native.js loads it): every #[napi] export
// with the declarations napi-rs generates (../binding.d.ts), and the raw exports src/lib.rs
// registers directly against N-API (RAW_EXPORTS, RAW_REST_EXPORTS: the hot synchronous paths,
// positional), which napi-rs does not see. `tsc` checks this file (CI's type step), and
// __test__/native-contract.spec.js checks that RawExports names exactly the raw exports.
import type * as Generated from '../binding'

declare namespace native {
  /** Bytes the native side reads: a string (as UTF-8), a Buffer, TypedArray, DataView or ArrayBuffer. */
  type BytesInput = string | ArrayBufferView | ArrayBuffer
  /** A buffer JavaScript allocated for the output (its exact length). */
  type OutputBuffer = ArrayBufferView
  /** `undefined` and `null` are both "absent" for an optional argument. */
  type Absent = undefined | null

  /** Native state held by JavaScript: an External tagged with its Rust type (`js::Kept`). */
  interface Handle<Kind extends string> {
    readonly __native: Kind
  }
  type Hasher = Handle<'hasher'>
  type CipherKey = Handle<'cipherKey'>

  interface RawExports {
    /** The digest of `data` as lower-case hex, or into `out` (then `undefined`). */
    hash(alg: number, data: BytesInput, out?: OutputBuffer | Absent, caller?: boolean): string | undefined
    /** As `hash`, with the options of a parameterised hash as positional arguments. */
    hashWith(
      alg: number,
      data: BytesInput,
      out?: OutputBuffer | Absent,
      key?: BytesInput | Absent,
      salt?: BytesInput | Absent,
      personalization?: BytesInput | Absent,
      context?: BytesInput | Absent,
      outputLength?: number | Absent,
      caller?: boolean,
    ): string | undefined
    /** HMAC of `data` under `key`, as hex or into `out`. */
    hmac(alg: number, key: BytesInput, data: BytesInput, out?: OutputBuffer | Absent, caller?: boolean): string | undefined
    hasherNew(
      alg: number,
      key?: BytesInput | Absent,
      salt?: BytesInput | Absent,
      personalization?: BytesInput | Absent,
      context?: BytesInput | Absent,
      outputLength?: number | Absent,
    ): Hasher
    hmacNew(alg: number, key: BytesInput): Hasher
    hasherUpdate(hasher: Hasher, data: BytesInput): undefined
    /** The digest as hex, or into `out` (then `undefined`); the hasher is finalised either way. */
    hasherDigest(hasher: Hasher, out?: OutputBuffer | Absent): string | undefined
    hasherCopy(hasher: Hasher): Hasher
    hasherReset(hasher: Hasher): undefined
    /** Encrypts or decrypts `data` into `out`; returns the bytes written. `op`: mode id | NativeContract bits. */
    cipher(
      op: number,
      key: BytesInput | CipherKey,
      iv: BytesInput | Absent,
      data: BytesInput,
      aad: BytesInput | Absent,
      out: OutputBuffer,
      tagLength: number | Absent,
      caller?: boolean,
    ): number
    /** A kept key of one family (an id of `nativeContract().cipherFamilies`). */
    cipherKey(family: number, key: BytesInput): CipherKey
    /** An Ed25519 or X25519 private key expanded once. */
    pkPrepare(alg: number, privateKey: BytesInput): Handle<'pkPrepared'>
    /** A KEM private key expanded once. */
    kemPrepare(alg: number, privateKey: BytesInput): Handle<'kemPrepared'>
    /** An ML-DSA private key (seed or expanded) expanded and checked once. */
    mldsaPrepare(set: number, privateKey: BytesInput): Handle<'mldsaPrepared'>
    /** Every message encrypted or decrypted: the outputs back to back, and their lengths. */
    cipherBatch(
      op: number,
      key: BytesInput | CipherKey,
      ivs: readonly BytesInput[] | Absent,
      messages: readonly BytesInput[],
      aad?: BytesInput | Absent,
      tagLength?: number | Absent,
    ): [Buffer, Uint32Array]
    /** The digests (or MACs) of the inputs back to back, or with `hex` that buffer's hex. */
    hashBatch(
      alg: number,
      first: number,
      hex: boolean,
      hmac: boolean,
      key: BytesInput | Absent,
      salt: BytesInput | Absent,
      personalization: BytesInput | Absent,
      context: BytesInput | Absent,
      outputLength: number | Absent,
      ...inputs: BytesInput[]
    ): Buffer | string
  }
}

declare const native: typeof Generated & native.RawExports
export = native
