//! Property tests (proptest) for the algorithms implemented in this crate rather than taken
//! from a crate: MD4 and RIPEMD-160 (`hash/md.rs`, `hash/rmd160.rs`), the scalar BLAKE2b/2s
//! (`hash/blake2.rs`), scrypt and its Salsa20/8 cores (`kdf/scrypt.rs`), the PBKDF2 fast path
//! (`kdf/pbkdf2.rs`) and Blowfish with bcrypt's EksBlowfish (`kdf/blowfish.rs`, `kdf/bcrypt.rs`),
//! each against an independent implementation: the RustCrypto crates (`md4`, `ripemd`, `blake2`,
//! `scrypt`, `pbkdf2` + `hmac`, `blowfish`), `blake2b_simd`/`blake2s_simd`, and a Salsa20/8 written here from
//! RFC 7914 §3. Random inputs cross block boundaries; incremental updates at random split points
//! must equal one-shot hashing.
//!
//! Budget: a fixed number of cases per property (see `cases`), a few seconds each in the dev
//! profile (this crate unoptimised, dependencies optimised). A failure prints the minimal input
//! and proptest records its seed in `proptest-regressions/proptests.txt` (commit that file: the
//! seeds are replayed first on every later run). `PROPTEST_CASES=n` overrides the case counts.

use digest::block_api::{Buffer, UpdateCore, VariableOutputCore};
use digest::Digest;
use proptest::prelude::*;

use crate::arch::{salsa20_8_scalar, Avx512Vl, Baseline, BlowfishIndex, Bmi1, Salsa20Core};
use crate::hash::blake2::{Blake2bScalar, Blake2sScalar};
use crate::hash::core::HashCore;
use crate::hash::list::Alg;
use crate::kdf::scrypt::LAYOUT;
use crate::task::Cancel;

/// The case count of a property, unless `PROPTEST_CASES` is set.
fn cases(n: u32) -> ProptestConfig {
  let env = std::env::var("PROPTEST_CASES")
    .ok()
    .and_then(|v| v.parse().ok());
  ProptestConfig {
    cases: env.unwrap_or(n),
    ..ProptestConfig::default()
  }
}

/// Bytes of a length that is often next to a multiple of the block size (`block`).
fn message(block: usize, max_blocks: usize) -> impl Strategy<Value = Vec<u8>> {
  let near_edge = (0..=max_blocks, -2i64..=2).prop_map(move |(k, d)| {
    ((k * block) as i64 + d).clamp(0, (max_blocks * block) as i64) as usize
  });
  prop_oneof![0..=max_blocks * block, near_edge]
    .prop_flat_map(|n| proptest::collection::vec(any::<u8>(), n))
}

/// Splits `data` at the given points (taken modulo its length + 1, in order).
fn split<'a>(data: &'a [u8], cuts: &[usize]) -> Vec<&'a [u8]> {
  let mut points: Vec<usize> = cuts.iter().map(|c| c % (data.len() + 1)).collect();
  points.sort_unstable();
  let mut parts = Vec::new();
  let mut prev = 0;
  for p in points.into_iter().chain(std::iter::once(data.len())) {
    parts.push(&data[prev..p]);
    prev = p;
  }
  parts
}

/// One of our `HashCore`s fed `parts` one by one.
fn ours<H: HashCore + Default>(parts: &[&[u8]], out_len: usize) -> Vec<u8> {
  let mut h = H::default();
  for p in parts {
    h.update(p);
  }
  let mut out = vec![0u8; out_len];
  h.finalize_into(&mut out);
  out
}

// ---- MD4, RIPEMD-160 --------------------------------------------------------------------------

proptest! {
  #![proptest_config(cases(1024))]

  /// MD4 (`hash/md.rs`) in random pieces equals the `md4` crate in one shot.
  #[test]
  fn md4_equals_rustcrypto(msg in message(64, 8), cuts in proptest::collection::vec(any::<usize>(), 0..6)) {
    let got = ours::<crate::hash::md::Md4>(&split(&msg, &cuts), 16);
    prop_assert_eq!(got, md4::Md4::digest(&msg).to_vec());
  }

  /// RIPEMD-160 (`hash/rmd160.rs`) in random pieces equals the `ripemd` crate in one shot.
  #[test]
  fn ripemd160_equals_rustcrypto(msg in message(64, 8), cuts in proptest::collection::vec(any::<usize>(), 0..6)) {
    let got = ours::<crate::hash::rmd160::Ripemd160>(&split(&msg, &cuts), 20);
    prop_assert_eq!(got, ripemd::Ripemd160::digest(&msg).to_vec());
  }
}

// ---- BLAKE2 -----------------------------------------------------------------------------------

/// BLAKE2 through the RustCrypto `blake2` block core with the full parameter block: key block
/// first (RFC 7693 §3.3), then the message; the core's lazy buffer holds back the last block.
macro_rules! rustcrypto_blake2 {
  ($fn:ident, $core:ty, $block:literal) => {
    fn $fn(msg: &[u8], out_len: usize, key: &[u8], salt: &[u8], personal: &[u8]) -> Vec<u8> {
      let mut core = <$core>::new_with_params(salt, personal, key.len(), out_len);
      let mut buffer = Buffer::<$core>::default();
      if !key.is_empty() {
        let mut block = [0u8; $block];
        block[..key.len()].copy_from_slice(key);
        buffer.digest_blocks(&block, |b| core.update_blocks(b));
      }
      buffer.digest_blocks(msg, |b| core.update_blocks(b));
      let mut full = digest::Output::<$core>::default();
      core.finalize_variable_core(&mut buffer, &mut full);
      full[..out_len].to_vec()
    }
  };
}
rustcrypto_blake2!(blake2b_rustcrypto, blake2::Blake2bVarCore, 128);
rustcrypto_blake2!(blake2s_rustcrypto, blake2::Blake2sVarCore, 64);

/// (output length, key, salt, personalization) within the limits of a BLAKE2 variant whose
/// block is `block` bytes: out 1..=block/2, key 0..=block/2, salt and personal 0..=block/8.
fn blake2_params(block: usize) -> impl Strategy<Value = (usize, Vec<u8>, Vec<u8>, Vec<u8>)> {
  let bytes = |max: usize| proptest::collection::vec(any::<u8>(), 0..=max);
  (
    1..=block / 2,
    bytes(block / 2),
    bytes(block / 8),
    bytes(block / 8),
  )
}

proptest! {
  #![proptest_config(cases(1024))]

  /// The scalar BLAKE2b (`hash/blake2.rs`, the backend on AMD CPUs) in random pieces, with random
  /// key, salt, personalization and output length, equals the `blake2` crate and `blake2b_simd`.
  #[test]
  fn blake2b_scalar_equals_rustcrypto_and_simd(
    msg in message(128, 6),
    (out_len, key, salt, personal) in blake2_params(128),
    cuts in proptest::collection::vec(any::<usize>(), 0..6),
  ) {
    let mut h = Blake2bScalar::new(out_len, &key, &salt, &personal);
    prop_assert_eq!(h.output_len(), out_len);
    for part in split(&msg, &cuts) {
      h.update(part);
    }
    let mut got = vec![0u8; out_len];
    h.finalize_into(&mut got);
    prop_assert_eq!(&got, &blake2b_rustcrypto(&msg, out_len, &key, &salt, &personal));
    let simd = blake2b_simd::Params::new().hash_length(out_len).key(&key).salt(&salt).personal(&personal).hash(&msg);
    prop_assert_eq!(&got[..], simd.as_bytes());
  }

  /// The scalar BLAKE2s, likewise against the `blake2` crate and `blake2s_simd`.
  #[test]
  fn blake2s_scalar_equals_rustcrypto_and_simd(
    msg in message(64, 8),
    (out_len, key, salt, personal) in blake2_params(64),
    cuts in proptest::collection::vec(any::<usize>(), 0..6),
  ) {
    let mut h = Blake2sScalar::new(out_len, &key, &salt, &personal);
    for part in split(&msg, &cuts) {
      h.update(part);
    }
    let mut got = vec![0u8; out_len];
    h.finalize_into(&mut got);
    prop_assert_eq!(&got, &blake2s_rustcrypto(&msg, out_len, &key, &salt, &personal));
    let simd = blake2s_simd::Params::new().hash_length(out_len).key(&key).salt(&salt).personal(&personal).hash(&msg);
    prop_assert_eq!(&got[..], simd.as_bytes());
  }
}

// ---- Salsa20/8, scrypt ------------------------------------------------------------------------

/// Salsa20/8 core exactly as RFC 7914 §3 writes it (C. Percival's reference), natural word order.
fn salsa20_8_rfc7914(input: &[u32; 16]) -> [u32; 16] {
  let r = |a: u32, b: u32| a.rotate_left(b);
  let mut x = *input;
  for _ in (2..=8).rev().step_by(2) {
    x[4] ^= r(x[0].wrapping_add(x[12]), 7);
    x[8] ^= r(x[4].wrapping_add(x[0]), 9);
    x[12] ^= r(x[8].wrapping_add(x[4]), 13);
    x[0] ^= r(x[12].wrapping_add(x[8]), 18);
    x[9] ^= r(x[5].wrapping_add(x[1]), 7);
    x[13] ^= r(x[9].wrapping_add(x[5]), 9);
    x[1] ^= r(x[13].wrapping_add(x[9]), 13);
    x[5] ^= r(x[1].wrapping_add(x[13]), 18);
    x[14] ^= r(x[10].wrapping_add(x[6]), 7);
    x[2] ^= r(x[14].wrapping_add(x[10]), 9);
    x[6] ^= r(x[2].wrapping_add(x[14]), 13);
    x[10] ^= r(x[6].wrapping_add(x[2]), 18);
    x[3] ^= r(x[15].wrapping_add(x[11]), 7);
    x[7] ^= r(x[3].wrapping_add(x[15]), 9);
    x[11] ^= r(x[7].wrapping_add(x[3]), 13);
    x[15] ^= r(x[11].wrapping_add(x[7]), 18);
    x[1] ^= r(x[0].wrapping_add(x[3]), 7);
    x[2] ^= r(x[1].wrapping_add(x[0]), 9);
    x[3] ^= r(x[2].wrapping_add(x[1]), 13);
    x[0] ^= r(x[3].wrapping_add(x[2]), 18);
    x[6] ^= r(x[5].wrapping_add(x[4]), 7);
    x[7] ^= r(x[6].wrapping_add(x[5]), 9);
    x[4] ^= r(x[7].wrapping_add(x[6]), 13);
    x[5] ^= r(x[4].wrapping_add(x[7]), 18);
    x[11] ^= r(x[10].wrapping_add(x[9]), 7);
    x[8] ^= r(x[11].wrapping_add(x[10]), 9);
    x[9] ^= r(x[8].wrapping_add(x[11]), 13);
    x[10] ^= r(x[9].wrapping_add(x[8]), 18);
    x[12] ^= r(x[15].wrapping_add(x[14]), 7);
    x[13] ^= r(x[12].wrapping_add(x[15]), 9);
    x[14] ^= r(x[13].wrapping_add(x[12]), 13);
    x[15] ^= r(x[14].wrapping_add(x[13]), 18);
  }
  std::array::from_fn(|i| x[i].wrapping_add(input[i]))
}

fn words(hex: &str) -> [u32; 16] {
  let b: Vec<u8> = (0..64)
    .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap())
    .collect();
  std::array::from_fn(|i| u32::from_le_bytes([b[4 * i], b[4 * i + 1], b[4 * i + 2], b[4 * i + 3]]))
}

/// The reference above gives RFC 7914 §8's Salsa20/8 Core vector.
#[test]
fn salsa20_8_reference_matches_rfc7914_vector() {
  let input = words(concat!(
    "7e879a214f3ec9867ca940e641718f26baee555b8c61c1b50df846116dcd3b1d",
    "ee24f319df9b3d8514121e4b5ac5aa3276021d2909c74829edebc68db8b8c25e"
  ));
  let output = words(concat!(
    "a41f859c6608cc993b81cacb020cef05044b2181a2fd337dfd7b1c6396682f29",
    "b4393168e3c9e6bcfe6bc5b7a06d96bae424cc102c91745c24ad673dc7618f81"
  ));
  assert_eq!(salsa20_8_rfc7914(&input), output);
}

/// A block in natural order → the crate's [`LAYOUT`] order, and back.
fn to_layout(natural: &[u32; 16]) -> [u32; 16] {
  std::array::from_fn(|i| natural[LAYOUT[i]])
}
fn from_layout(laid: &[u32; 16]) -> [u32; 16] {
  let mut natural = [0u32; 16];
  for (i, &w) in laid.iter().enumerate() {
    natural[LAYOUT[i]] = w;
  }
  natural
}

proptest! {
  #![proptest_config(cases(10000))]

  /// The Salsa20/8 cores scrypt runs (SSE2 and, on CPUs with AVX-512VL, AVX-512, in the
  /// diagonal word order; the portable scalar one) equal RFC 7914 §3 on random blocks.
  #[test]
  fn salsa20_8_cores_equal_rfc7914(block in proptest::array::uniform16(any::<u32>())) {
    let want = salsa20_8_rfc7914(&block);
    let mut scalar = block;
    salsa20_8_scalar(&mut scalar);
    prop_assert_eq!(scalar, want, "scalar core");
    let mut laid = to_layout(&block);
    Baseline.salsa20_8(&mut laid);
    prop_assert_eq!(from_layout(&laid), want, "baseline (SSE2 on x86-64) core");
    if let Some(core) = Avx512Vl::detect() {
      let mut laid = to_layout(&block);
      core.salsa20_8(&mut laid);
      prop_assert_eq!(from_layout(&laid), want, "AVX-512VL core");
    }
  }
}

#[cfg(target_arch = "x86_64")]
#[test]
fn salsa20_8_avx512_core_is_tested_here() {
  if Avx512Vl::detect().is_none() {
    eprintln!("no AVX-512VL on this CPU: salsa20_8_cores_equal_rfc7914 checks the SSE2 and scalar cores only");
  }
}

proptest! {
  #![proptest_config(cases(256))]

  /// scrypt (`kdf/scrypt.rs`: ROMix with the dispatched core, PBKDF2-HMAC-SHA256 steps) equals
  /// the `scrypt` crate for small N, r, p and random passwords, salts and output lengths.
  #[test]
  fn scrypt_equals_rustcrypto(
    password in proptest::collection::vec(any::<u8>(), 0..100),
    salt in proptest::collection::vec(any::<u8>(), 0..100),
    log_n in 1u8..=6,
    r in 1u32..=4,
    p in 1u32..=3,
    len in 1usize..=160,
  ) {
    let params = crate::kdf::scrypt::ScryptParams::new(f64::from(1u32 << log_n), r, p, len as u32, 1e9).unwrap();
    let mut got = vec![0u8; len];
    crate::kdf::scrypt::derive(&password, &salt, params, &mut got, &Cancel::NEVER).unwrap();
    let mut want = vec![0u8; len];
    scrypt::scrypt(&password, &salt, &scrypt::Params::new(log_n, r, p).unwrap(), &mut want).unwrap();
    prop_assert_eq!(got, want);
  }
}

// ---- PBKDF2 fast path -------------------------------------------------------------------------

proptest! {
  #![proptest_config(cases(512))]

  /// PBKDF2 for every hash with a fast path (`kdf/pbkdf2.rs`: HMAC on the bare compression
  /// function, SHA-1, SHA-224/256, SHA-384/512) equals the `pbkdf2` crate over `hmac`, for keys
  /// shorter and longer than a block, iteration counts 1..50 and output lengths across blocks.
  #[test]
  fn pbkdf2_fast_path_equals_rustcrypto(
    alg in prop_oneof![Just(Alg::Sha1), Just(Alg::Sha224), Just(Alg::Sha256), Just(Alg::Sha384), Just(Alg::Sha512)],
    password in proptest::collection::vec(any::<u8>(), 0..300),
    salt in proptest::collection::vec(any::<u8>(), 0..100),
    iterations in 1u32..50,
    len in 1usize..200,
  ) {
    let mut got = vec![0u8; len];
    crate::kdf::pbkdf2::derive(alg, &password, &salt, iterations, &mut got, &Cancel::NEVER).unwrap();
    let mut want = vec![0u8; len];
    match alg {
      Alg::Sha1 => pbkdf2::pbkdf2_hmac::<sha1::Sha1>(&password, &salt, iterations, &mut want),
      Alg::Sha224 => pbkdf2::pbkdf2_hmac::<sha2::Sha224>(&password, &salt, iterations, &mut want),
      Alg::Sha256 => pbkdf2::pbkdf2_hmac::<sha2::Sha256>(&password, &salt, iterations, &mut want),
      Alg::Sha384 => pbkdf2::pbkdf2_hmac::<sha2::Sha384>(&password, &salt, iterations, &mut want),
      _ => pbkdf2::pbkdf2_hmac::<sha2::Sha512>(&password, &salt, iterations, &mut want),
    }
    prop_assert_eq!(got, want, "{:?}", alg);
  }
}

// ---- Blowfish and bcrypt ----------------------------------------------------------------------

/// One block under Blowfish's own key schedule of `key`, by `kdf/blowfish.rs` with index `ix`.
fn blowfish_ours<I: BlowfishIndex>(ix: I, key: &[u8], block: [u8; 8]) -> [u8; 8] {
  use crate::kdf::blowfish::{cyclic_words, Blowfish};
  let mut bf = Blowfish::new();
  bf.expand(ix, &cyclic_words(key), None);
  bf.encrypt_block(ix, block)
}

/// bcrypt's 24 output bytes over the `blowfish` crate's primitives (the EksBlowfish loop of the
/// paper, as the `bcrypt` crate writes it).
fn bcrypt_blowfish_crate(cost: u32, salt: &[u8; 16], key: &[u8]) -> [u8; 24] {
  let mut state = blowfish::Blowfish::bc_init_state();
  state.salted_expand_key(salt, key);
  for _ in 0..1u64 << cost {
    state.bc_expand_key(key);
    state.bc_expand_key(salt);
  }
  let mut out = [0u8; 24];
  for (src, dst) in b"OrpheanBeholderScryDoubt"
    .chunks_exact(8)
    .zip(out.chunks_exact_mut(8))
  {
    let mut lr = [0, 4].map(|i| u32::from_be_bytes(src[i..i + 4].try_into().unwrap()));
    for _ in 0..64 {
      lr = state.bc_encrypt(lr);
    }
    dst[..4].copy_from_slice(&lr[0].to_be_bytes());
    dst[4..].copy_from_slice(&lr[1].to_be_bytes());
  }
  out
}

proptest! {
  #![proptest_config(cases(2048))]

  /// Blowfish (`kdf/blowfish.rs`, with every round index this CPU has) equals the `blowfish`
  /// crate for random keys of 4..56 bytes (the lengths it accepts) and blocks.
  #[test]
  fn blowfish_equals_rustcrypto(
    key in proptest::collection::vec(any::<u8>(), 4..=56),
    block in proptest::array::uniform8(any::<u8>()),
  ) {
    use cipher::{BlockCipherEncrypt, KeyInit};
    let mut want = cipher::Block::<blowfish::Blowfish>::from(block);
    <blowfish::Blowfish as KeyInit>::new_from_slice(&key).unwrap().encrypt_block(&mut want);
    prop_assert_eq!(&blowfish_ours(Baseline, &key, block)[..], &want[..], "baseline index");
    if let Some(ix) = Bmi1::detect() {
      prop_assert_eq!(&blowfish_ours(ix, &key, block)[..], &want[..], "bextr index");
    }
  }
}

proptest! {
  #![proptest_config(cases(48))]

  /// bcrypt's EksBlowfish and output encryption (`kdf/bcrypt.rs` `raw_with`, each round index,
  /// and the dispatched `raw_fastest`) equal the same steps over the `blowfish` crate, for
  /// random keys of 1..72 bytes (bcrypt's: the password and its NUL, cut at 72), salts, cost 4-5.
  #[test]
  fn bcrypt_equals_blowfish_crate(
    key in proptest::collection::vec(any::<u8>(), 1..=72),
    salt in proptest::array::uniform16(any::<u8>()),
    cost in 4u32..=5,
  ) {
    let want = bcrypt_blowfish_crate(cost, &salt, &key);
    use crate::kdf::bcrypt::raw_with;
    let never = &Cancel::NEVER;
    prop_assert_eq!(raw_with(Baseline, cost, &salt, &key, never).unwrap(), want, "baseline index");
    if let Some(ix) = Bmi1::detect() {
      prop_assert_eq!(raw_with(ix, cost, &salt, &key, never).unwrap(), want, "bextr index");
    }
    prop_assert_eq!(crate::kdf::bcrypt::raw_fastest(cost, &salt, &key, never).unwrap(), want, "dispatched");
  }
}

#[cfg(target_arch = "x86_64")]
#[test]
fn blowfish_bextr_index_is_tested_here() {
  if Bmi1::detect().is_none() {
    eprintln!("not an AMD CPU with BMI1: the Blowfish properties check the baseline index only");
  }
}
