//! The Merkle–Damgård layer: one buffering and padding implementation, [`Md`], over any block
//! function ([`BlockFn`]): 32- or 64-bit words, either byte order. Its block functions:
//! - MD4 and MD5 (below) and RIPEMD-160 (`rmd160.rs`), written here for speed (why not the RustCrypto
//!   crates: `docs/backends.md`), hashed through [`Md`];
//! - SHA-1 and SHA-224/256: the raw compression functions of the `sha1`/`sha2` crates (SHA-NI)
//!   with their FIPS 180-4 initial values. Hashing with these goes through the crates
//!   themselves; PBKDF2 drives the block functions directly, two compressions per iteration
//!   (`src/kdf/pbkdf2.rs`);
//! - SHA-384, SHA-512, SHA-512/224 and SHA-512/256: one block function, the AVX2 + BMI2 kernel
//!   `arch::Sha512Avx2` where the CPU has it, else the `sha2` crate's; every use (hashing, HMAC,
//!   PBKDF2, batches, streams) goes through [`Md`] or the block function directly.
//!
//! Batch hashing (`batch.rs`) hashes several messages at once on a block function whose
//! [`BlockFn::compress_lanes`] has a multi-lane kernel on this CPU ([`hash_lanes`]).
//!
//! The hash list (`list.rs`) names each hash's block function, where it has one.

use std::slice;

use zeroize::Zeroize;

use super::core::HashCore;

/// Byte order of a hash's words: message words, digest and length field alike.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Endian {
  Little,
  Big,
}

/// A state word: `u32` or `u64`. Every hash here reads its message as blocks of 16 words, so the
/// word fixes the block size (64 or 128 bytes) and the padding's length field (two words).
pub trait Word: Copy + Zeroize {
  /// One block of 16 words, as bytes.
  type Block: Copy + Zeroize + AsRef<[u8]> + AsMut<[u8]>;
  const BLOCK: usize;
  const ZERO_BLOCK: Self::Block;
  /// Bytes of the message length that ends the padding: 8, or 16 for 64-bit words.
  const LEN_FIELD: usize = Self::BLOCK / 8;
  /// `data` as whole blocks, and the bytes left over.
  fn blocks(data: &[u8]) -> (&[Self::Block], &[u8]);
  /// Writes the first `out.len()` bytes of the word in byte order `e`.
  fn put(self, e: Endian, out: &mut [u8]);
}

macro_rules! word {
  ($($w:ty, block: $block:literal;)*) => {$(
    impl Word for $w {
      type Block = [u8; $block];
      const BLOCK: usize = $block;
      const ZERO_BLOCK: Self::Block = [0; $block];
      #[inline(always)]
      fn blocks(data: &[u8]) -> (&[Self::Block], &[u8]) {
        data.as_chunks()
      }
      #[inline(always)]
      fn put(self, e: Endian, out: &mut [u8]) {
        let b = match e {
          Endian::Little => self.to_le_bytes(),
          Endian::Big => self.to_be_bytes(),
        };
        // A whole word (the usual case) is one store; a truncated digest's last word a copy.
        match <&mut [u8; size_of::<$w>()]>::try_from(&mut *out) {
          Ok(whole) => *whole = b,
          Err(_) => out.copy_from_slice(&b[..out.len()]),
        }
      }
    }
  )*};
}

word! {
  u32, block: 64;
  u64, block: 128;
}

/// The block of a [`BlockFn`].
pub type Block<F> = <<F as BlockFn>::Word as Word>::Block;

/// A Merkle–Damgård compression function with its initial value. Implemented by marker types
/// (never values): the state is `State`, an array of words.
pub trait BlockFn: Copy + Send + 'static {
  type Word: Word;
  /// The chaining value.
  type State: Copy + Zeroize + AsRef<[Self::Word]> + Send + 'static;
  const ENDIAN: Endian;
  const IV: Self::State;
  /// Digest length in bytes: the first `OUTPUT_LEN` bytes of the state words.
  const OUTPUT_LEN: usize;
  fn compress(state: &mut Self::State, blocks: &[Block<Self>]);

  /// True when this CPU runs [`BlockFn::compress_lanes`] faster than one `compress` per state:
  /// the block function has a multi-lane kernel (SHA-224/256 with SHA-NI: `arch::Sha256Ni`).
  #[inline]
  fn has_lanes() -> bool {
    false
  }

  /// Compresses `blocks[i]` into `states[i]`, for each of `L` independent states.
  #[inline]
  fn compress_lanes<const L: usize>(states: [&mut Self::State; L], blocks: [&Block<Self>; L]) {
    each_lane::<Self, L>(states, blocks)
  }
}

/// [`BlockFn::compress_lanes`] without a multi-lane kernel: one lane after the other.
#[inline(always)]
fn each_lane<F: BlockFn, const L: usize>(states: [&mut F::State; L], blocks: [&Block<F>; L]) {
  for (s, b) in states.into_iter().zip(blocks) {
    F::compress(s, slice::from_ref(b));
  }
}

/// The chaining values after HMAC's key block (RFC 2104: the key, hashed if longer than a block,
/// zero padded) XORed with ipad and with opad: `(inner, outer)`.
pub fn hmac_states<F: BlockFn>(key: &[u8]) -> (F::State, F::State) {
  let size = F::Word::BLOCK;
  let mut kb = super::core::hmac_key_block(&Md::<F>::default(), key, size);
  let kb = &mut kb[..size];
  let mut pad = |x: u8| {
    kb.iter_mut().for_each(|b| *b ^= x);
    let mut s = F::IV;
    F::compress(&mut s, F::Word::blocks(kb).0);
    s
  };
  let inner = pad(0x36);
  (inner, pad(0x36 ^ 0x5c))
}

/// Hashes `L` messages at once, `msgs[i]` into `outs[i]` (the digest, or its first
/// `outs[i].len()` bytes), each from `start`, a chaining value that has absorbed `prefix` bytes
/// (`F::IV` and 0 for a plain hash; an HMAC state and one block). Block `k` of every lane is
/// compressed in one [`BlockFn::compress_lanes`] call while every lane has one; the longer
/// lanes then finish alone.
pub fn hash_lanes<F: BlockFn, const L: usize>(
  start: &F::State,
  prefix: u64,
  msgs: [&[u8]; L],
  outs: [&mut [u8]; L],
) {
  let mut states = [*start; L];
  // Each lane: its whole blocks, then its last bytes (`rest[l]` of them) and the padding in one
  // or two blocks.
  let mut tails = [[F::Word::ZERO_BLOCK; 2]; L];
  let mut whole: [&[Block<F>]; L] = [&[]; L];
  let mut rest = [0usize; L];
  let mut count = [0usize; L];
  for l in 0..L {
    let (blocks, last) = F::Word::blocks(msgs[l]);
    whole[l] = blocks;
    rest[l] = last.len();
    tails[l][0].as_mut()[..last.len()].copy_from_slice(last);
    let total = prefix.wrapping_add(msgs[l].len() as u64);
    let spill = pad_zeroed::<F>(&mut tails[l][0], last.len(), total);
    if let Some(next) = spill {
      tails[l][1] = next;
    }
    count[l] = blocks.len() + 1 + usize::from(spill.is_some());
  }
  let block = |l: usize, k: usize| match whole[l].get(k) {
    Some(b) => b,
    None => &tails[l][k - whole[l].len()],
  };
  let common = count.iter().copied().min().unwrap_or(0);
  for k in 0..common {
    F::compress_lanes(states.each_mut(), std::array::from_fn(|l| block(l, k)));
  }
  for l in 0..L {
    for k in common..count[l] {
      F::compress(&mut states[l], slice::from_ref(block(l, k)));
    }
    put_state::<F>(&states[l], outs[l]);
  }
  // The message bytes copied here, and the final states (keyed for HMAC), are overwritten: with
  // plain stores (zeroize's byte-by-byte volatile stores cost as much as the bookkeeping above).
  for (t, &n) in tails.iter_mut().zip(&rest) {
    crate::staging::wipe(&mut t[0].as_mut()[..n]);
  }
  states = [*start; L];
  std::hint::black_box(&mut states);
}

/// Writes the first `out.len()` bytes of the state words in `F`'s byte order (the digest, when
/// `out` is `F::OUTPUT_LEN` long).
#[inline(always)]
pub fn put_state<F: BlockFn>(state: &F::State, out: &mut [u8]) {
  let n = size_of::<F::Word>();
  for (chunk, w) in out.chunks_mut(n).zip(state.as_ref()) {
    w.put(F::ENDIAN, chunk);
  }
}

/// MD padding for a `total`-byte message whose last `used` bytes (fewer than a block) start
/// `block`: 0x80, zeros, and the message length in bits in the block's last
/// [`Word::LEN_FIELD`] bytes. When the length does not fit behind the 0x80, it goes in a second
/// block of zeros, returned.
pub fn pad<F: BlockFn>(block: &mut Block<F>, used: usize, total: u64) -> Option<Block<F>> {
  block.as_mut()[used + 1..].fill(0);
  pad_zeroed::<F>(block, used, total)
}

/// [`pad`] for a block whose bytes from `used` on are already zero.
fn pad_zeroed<F: BlockFn>(block: &mut Block<F>, used: usize, total: u64) -> Option<Block<F>> {
  let b = block.as_mut();
  b[used] = 0x80;
  if used < F::Word::BLOCK - F::Word::LEN_FIELD {
    put_length::<F>(b, total);
    return None;
  }
  let mut next = F::Word::ZERO_BLOCK;
  put_length::<F>(next.as_mut(), total);
  Some(next)
}

fn put_length<F: BlockFn>(block: &mut [u8], total: u64) {
  let bits = u128::from(total) << 3;
  let n = F::Word::LEN_FIELD;
  let field = &mut block[F::Word::BLOCK - n..];
  match F::ENDIAN {
    Endian::Little => field.copy_from_slice(&bits.to_le_bytes()[..n]),
    Endian::Big => field.copy_from_slice(&bits.to_be_bytes()[16 - n..]),
  }
}

/// A running hash over a [`BlockFn`]: buffering, padding and output.
#[derive(Clone)]
pub struct Md<F: BlockFn> {
  state: F::State,
  buf: Block<F>,
  /// Bytes in `buf`.
  used: usize,
  /// Bytes hashed so far, `buf` included.
  total: u64,
}

impl<F: BlockFn> Default for Md<F> {
  fn default() -> Self {
    Md {
      state: F::IV,
      buf: F::Word::ZERO_BLOCK,
      used: 0,
      total: 0,
    }
  }
}

/// The chaining value and the buffered block are wiped when a state is dropped: an HMAC's keyed
/// states are these (`core.rs`'s `Hmac` holds two), and a hashed secret passes through `buf`.
impl<F: BlockFn> Drop for Md<F> {
  fn drop(&mut self) {
    self.state.zeroize();
    self.buf.zeroize();
  }
}

impl<F: BlockFn> HashCore for Md<F> {
  fn update(&mut self, mut data: &[u8]) {
    self.total = self.total.wrapping_add(data.len() as u64);
    if self.used > 0 {
      let take = (F::Word::BLOCK - self.used).min(data.len());
      self.buf.as_mut()[self.used..self.used + take].copy_from_slice(&data[..take]);
      self.used += take;
      data = &data[take..];
      if self.used < F::Word::BLOCK {
        return;
      }
      F::compress(&mut self.state, slice::from_ref(&self.buf));
      self.used = 0;
    }
    let (blocks, rest) = F::Word::blocks(data);
    F::compress(&mut self.state, blocks);
    self.buf.as_mut()[..rest.len()].copy_from_slice(rest);
    self.used = rest.len();
  }

  fn finalize_into(mut self, out: &mut [u8]) {
    let next = pad::<F>(&mut self.buf, self.used, self.total);
    F::compress(&mut self.state, slice::from_ref(&self.buf));
    if let Some(next) = next {
      F::compress(&mut self.state, slice::from_ref(&next));
    }
    put_state::<F>(&self.state, out);
  }

  fn output_len(&self) -> usize {
    F::OUTPUT_LEN
  }

  fn block_len(&self) -> usize {
    F::Word::BLOCK
  }
}

// ---- SHA-1, SHA-2 (FIPS 180-4): the crates' compression functions ---------------------------

/// One [`BlockFn`] per SHA variant: `Name: [word; n] = compression function, digest length,
/// initial value`, and `lanes: K` where the `arch` kernel `K` compresses several states at once.
macro_rules! sha_block_fns {
  ($(
    $(#[$doc:meta])* $name:ident: [$w:ty; $n:literal] = $compress:path, $out:literal, $iv:expr
    $(, lanes: $lanes:ident)?;
  )*) => {$(
    $(#[$doc])*
    #[derive(Clone, Copy)]
    pub enum $name {}

    impl BlockFn for $name {
      type Word = $w;
      type State = [$w; $n];
      const ENDIAN: Endian = Endian::Big;
      const IV: [$w; $n] = $iv;
      const OUTPUT_LEN: usize = $out;
      #[inline(always)]
      fn compress(state: &mut [$w; $n], blocks: &[Block<Self>]) {
        $compress(state, blocks)
      }
      $(
        #[inline]
        fn has_lanes() -> bool {
          crate::arch::$lanes::detect().is_some()
        }
        #[inline]
        fn compress_lanes<const L: usize>(states: [&mut [$w; $n]; L], blocks: [&Block<Self>; L]) {
          match crate::arch::$lanes::detect() {
            Some(kernel) => kernel.compress(states, blocks),
            None => each_lane::<Self, L>(states, blocks),
          }
        }
      )?
    }
  )*};
}

sha_block_fns! {
  /// SHA-1; initial value FIPS 180-4 §5.3.1.
  Sha1Compress: [u32; 5] = sha1::block_api::compress, 20,
    [0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476, 0xc3d2_e1f0];
  /// SHA-224; initial value FIPS 180-4 §5.3.2.
  Sha224Compress: [u32; 8] = sha2::block_api::compress256, 28, [
    0xc105_9ed8, 0x367c_d507, 0x3070_dd17, 0xf70e_5939,
    0xffc0_0b31, 0x6858_1511, 0x64f9_8fa7, 0xbefa_4fa4,
  ], lanes: Sha256Ni;
  /// SHA-256; initial value FIPS 180-4 §5.3.3.
  Sha256Compress: [u32; 8] = sha2::block_api::compress256, 32, [
    0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a,
    0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
  ], lanes: Sha256Ni;
  /// SHA-384; initial value FIPS 180-4 §5.3.4.
  Sha384Compress: [u64; 8] = sha512_compress, 48, [
    0xcbbb_9d5d_c105_9ed8, 0x629a_292a_367c_d507, 0x9159_015a_3070_dd17, 0x152f_ecd8_f70e_5939,
    0x6733_2667_ffc0_0b31, 0x8eb4_4a87_6858_1511, 0xdb0c_2e0d_64f9_8fa7, 0x47b5_481d_befa_4fa4,
  ];
  /// SHA-512; initial value FIPS 180-4 §5.3.5.
  Sha512Compress: [u64; 8] = sha512_compress, 64, [
    0x6a09_e667_f3bc_c908, 0xbb67_ae85_84ca_a73b, 0x3c6e_f372_fe94_f82b, 0xa54f_f53a_5f1d_36f1,
    0x510e_527f_ade6_82d1, 0x9b05_688c_2b3e_6c1f, 0x1f83_d9ab_fb41_bd6b, 0x5be0_cd19_137e_2179,
  ];
  /// SHA-512/224; initial value FIPS 180-4 §5.3.6.1.
  Sha512_224Compress: [u64; 8] = sha512_compress, 28, [
    0x8c3d_37c8_1954_4da2, 0x73e1_9966_89dc_d4d6, 0x1dfa_b7ae_32ff_9c82, 0x679d_d514_582f_9fcf,
    0x0f6d_2b69_7bd4_4da8, 0x77e3_6f73_04c4_8942, 0x3f9d_85a8_6a1d_36c8, 0x1112_e6ad_91d6_92a1,
  ];
  /// SHA-512/256; initial value FIPS 180-4 §5.3.6.2.
  Sha512_256Compress: [u64; 8] = sha512_compress, 32, [
    0x2231_2194_fc2b_f72c, 0x9f55_5fa3_c84c_64c2, 0x2393_b86b_6f53_b151, 0x9638_7719_5940_eabd,
    0x9628_3ee2_a88e_ffe3, 0xbe5e_1e25_5386_3992, 0x2b01_99fc_2c85_b8aa, 0x0eb7_2ddc_81c5_2ca2,
  ];
}

/// The SHA-512 family's block function: the AVX2 + BMI2 kernel (`arch::Sha512Avx2`) where this
/// CPU has it, else the `sha2` crate's (its own AVX2 path, or portable code).
#[inline]
fn sha512_compress(state: &mut [u64; 8], blocks: &[[u8; 128]]) {
  sha512_compress_with(crate::arch::Sha512Avx2::detect(), state, blocks)
}

/// [`sha512_compress`] on `kernel` when given, else on the `sha2` crate.
#[inline(always)]
fn sha512_compress_with(
  kernel: Option<crate::arch::Sha512Avx2>,
  state: &mut [u64; 8],
  blocks: &[[u8; 128]],
) {
  match kernel {
    Some(kernel) => kernel.compress(state, blocks),
    None => sha2::block_api::compress512(state, blocks),
  }
}

// ---- MD4 (RFC 1320) ------------------------------------------------------------------------

/// MD4's block function. The `md4` crate is close; this one shortens each step's dependency
/// chain: the message word and constant are added to `a` while the boolean function waits for
/// the `b` just computed, and that function is arranged so `b` enters it last.
#[derive(Clone, Copy)]
pub enum Md4Compress {}

pub type Md4 = Md<Md4Compress>;

/// MD4 and MD5 share everything but the block: 32-bit little-endian words, four of state, the
/// same initial value, a 16-byte digest.
macro_rules! md4_family {
  ($compress:ty, $block:ident) => {
    impl BlockFn for $compress {
      type Word = u32;
      type State = [u32; 4];
      const ENDIAN: Endian = Endian::Little;
      const IV: [u32; 4] = [0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476];
      const OUTPUT_LEN: usize = 16;
      fn compress(state: &mut [u32; 4], blocks: &[[u8; 64]]) {
        for block in blocks {
          $block(state, block);
        }
      }
    }
  };
}
md4_family!(Md4Compress, md4_block);
md4_family!(Md5Compress, md5_block);

#[inline(always)]
fn md4_block(state: &mut [u32; 4], block: &[u8; 64]) {
  let mut x = [0u32; 16];
  for (w, b) in x.iter_mut().zip(block.chunks_exact(4)) {
    *w = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
  }
  let [mut a, mut b, mut c, mut d] = *state;
  // `$f(b, c, d)` with `b` the newest value: F = d ^ (b & (c ^ d)), G = majority written as
  // (c & d) | (b & (c | d)), H = b ^ c ^ d.
  macro_rules! step {
    ($f:ident, $a:ident, $b:ident, $c:ident, $d:ident, $k:expr, $s:literal) => {
      $a = $a
        .wrapping_add($k)
        .wrapping_add($f($b, $c, $d))
        .rotate_left($s);
    };
  }
  #[inline(always)]
  fn ff(b: u32, c: u32, d: u32) -> u32 {
    d ^ (b & (c ^ d))
  }
  #[inline(always)]
  fn gg(b: u32, c: u32, d: u32) -> u32 {
    (c & d) | (b & (c | d))
  }
  #[inline(always)]
  fn hh(b: u32, c: u32, d: u32) -> u32 {
    b ^ c ^ d
  }
  const K1: u32 = 0x5a82_7999;
  const K2: u32 = 0x6ed9_eba1;
  macro_rules! round1 {
    ($($i:literal)*) => {$(
      step!(ff, a, b, c, d, x[$i], 3);
      step!(ff, d, a, b, c, x[$i + 1], 7);
      step!(ff, c, d, a, b, x[$i + 2], 11);
      step!(ff, b, c, d, a, x[$i + 3], 19);
    )*};
  }
  macro_rules! round2 {
    ($($i:literal)*) => {$(
      step!(gg, a, b, c, d, x[$i].wrapping_add(K1), 3);
      step!(gg, d, a, b, c, x[$i + 4].wrapping_add(K1), 5);
      step!(gg, c, d, a, b, x[$i + 8].wrapping_add(K1), 9);
      step!(gg, b, c, d, a, x[$i + 12].wrapping_add(K1), 13);
    )*};
  }
  macro_rules! round3 {
    ($($i:literal)*) => {$(
      step!(hh, a, b, c, d, x[$i].wrapping_add(K2), 3);
      step!(hh, d, a, b, c, x[$i + 8].wrapping_add(K2), 9);
      step!(hh, c, d, a, b, x[$i + 4].wrapping_add(K2), 11);
      step!(hh, b, c, d, a, x[$i + 12].wrapping_add(K2), 15);
    )*};
  }
  round1!(0 4 8 12);
  round2!(0 1 2 3);
  round3!(0 2 1 3);
  for (h, v) in state.iter_mut().zip([a, b, c, d]) {
    *h = h.wrapping_add(v);
  }
}

// ---- MD5 (RFC 1321) ------------------------------------------------------------------------

/// MD5's block function, written like MD4's above: in each step the message word and constant
/// go into `a` first, each boolean function is arranged so the `b` just computed enters last, and
/// G is a sum of disjoint terms ((b & d) + (c & !d)), so `c & !d` joins `a` before `b` is ready.
#[derive(Clone, Copy)]
pub enum Md5Compress {}

pub type Md5 = Md<Md5Compress>;

/// T[i] = floor(2^32 · |sin(i + 1)|).
const MD5_T: [u32; 64] = [
  0xd76a_a478,
  0xe8c7_b756,
  0x2420_70db,
  0xc1bd_ceee,
  0xf57c_0faf,
  0x4787_c62a,
  0xa830_4613,
  0xfd46_9501,
  0x6980_98d8,
  0x8b44_f7af,
  0xffff_5bb1,
  0x895c_d7be,
  0x6b90_1122,
  0xfd98_7193,
  0xa679_438e,
  0x49b4_0821,
  0xf61e_2562,
  0xc040_b340,
  0x265e_5a51,
  0xe9b6_c7aa,
  0xd62f_105d,
  0x0244_1453,
  0xd8a1_e681,
  0xe7d3_fbc8,
  0x21e1_cde6,
  0xc337_07d6,
  0xf4d5_0d87,
  0x455a_14ed,
  0xa9e3_e905,
  0xfcef_a3f8,
  0x676f_02d9,
  0x8d2a_4c8a,
  0xfffa_3942,
  0x8771_f681,
  0x6d9d_6122,
  0xfde5_380c,
  0xa4be_ea44,
  0x4bde_cfa9,
  0xf6bb_4b60,
  0xbebf_bc70,
  0x289b_7ec6,
  0xeaa1_27fa,
  0xd4ef_3085,
  0x0488_1d05,
  0xd9d4_d039,
  0xe6db_99e5,
  0x1fa2_7cf8,
  0xc4ac_5665,
  0xf429_2244,
  0x432a_ff97,
  0xab94_23a7,
  0xfc93_a039,
  0x655b_59c3,
  0x8f0c_cc92,
  0xffef_f47d,
  0x8584_5dd1,
  0x6fa8_7e4f,
  0xfe2c_e6e0,
  0xa301_4314,
  0x4e08_11a1,
  0xf753_7e82,
  0xbd3a_f235,
  0x2ad7_d2bb,
  0xeb86_d391,
];

#[inline(always)]
fn md5_block(state: &mut [u32; 4], block: &[u8; 64]) {
  let mut x = [0u32; 16];
  for (w, b) in x.iter_mut().zip(block.chunks_exact(4)) {
    *w = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
  }
  // T read through an opaque reference: as a constant, the compiler would fold it into the step
  // after the boolean function, onto the critical path; as a loaded value it is added to the
  // message word early.
  let t = std::hint::black_box(&MD5_T);
  let [mut a, mut b, mut c, mut d] = *state;
  // `$f(b, c, d)` is `(early, late)`: `early` does not depend on `b` and is added to `a` with
  // the message word and constant; `late` is the part that waits for `b`.
  macro_rules! step {
    ($f:ident, $a:ident, $b:ident, $c:ident, $d:ident, $i:expr, $k:expr, $s:literal) => {
      let (early, late) = $f($b, $c, $d);
      $a = $b.wrapping_add(
        $a.wrapping_add(x[$k].wrapping_add(t[$i]))
          .wrapping_add(early)
          .wrapping_add(late)
          .rotate_left($s),
      );
    };
  }
  #[inline(always)]
  fn ff(b: u32, c: u32, d: u32) -> (u32, u32) {
    (0, d ^ (b & (c ^ d)))
  }
  #[inline(always)]
  fn gg(b: u32, c: u32, d: u32) -> (u32, u32) {
    (c & !d, b & d)
  }
  #[inline(always)]
  fn hh(b: u32, c: u32, d: u32) -> (u32, u32) {
    (0, (c ^ d) ^ b)
  }
  #[inline(always)]
  fn ii(b: u32, c: u32, d: u32) -> (u32, u32) {
    (0, c ^ (b | !d))
  }
  // Four steps of a round from step `$i`; message words `$k0 + $m * j` mod 16.
  macro_rules! four {
    ($f:ident, $i:expr, $k:expr, $m:expr, $s0:literal $s1:literal $s2:literal $s3:literal) => {
      step!($f, a, b, c, d, $i, ($k) % 16, $s0);
      step!($f, d, a, b, c, $i + 1, ($k + $m) % 16, $s1);
      step!($f, c, d, a, b, $i + 2, ($k + 2 * $m) % 16, $s2);
      step!($f, b, c, d, a, $i + 3, ($k + 3 * $m) % 16, $s3);
    };
  }
  four!(ff, 0, 0, 1, 7 12 17 22);
  four!(ff, 4, 4, 1, 7 12 17 22);
  four!(ff, 8, 8, 1, 7 12 17 22);
  four!(ff, 12, 12, 1, 7 12 17 22);
  four!(gg, 16, 1, 5, 5 9 14 20);
  four!(gg, 20, 1 + 20, 5, 5 9 14 20);
  four!(gg, 24, 1 + 40, 5, 5 9 14 20);
  four!(gg, 28, 1 + 60, 5, 5 9 14 20);
  four!(hh, 32, 5, 3, 4 11 16 23);
  four!(hh, 36, 5 + 12, 3, 4 11 16 23);
  four!(hh, 40, 5 + 24, 3, 4 11 16 23);
  four!(hh, 44, 5 + 36, 3, 4 11 16 23);
  four!(ii, 48, 0, 7, 6 10 15 21);
  four!(ii, 52, 28, 7, 6 10 15 21);
  four!(ii, 56, 56, 7, 6 10 15 21);
  four!(ii, 60, 84, 7, 6 10 15 21);
  for (h, v) in state.iter_mut().zip([a, b, c, d]) {
    *h = h.wrapping_add(v);
  }
}

#[cfg(test)]
pub(crate) mod tests {
  use super::*;
  use digest::Digest;

  pub(crate) fn ours<H: HashCore + Default>(msg: &[u8], out: &mut [u8]) {
    let mut h = H::default();
    let (a, b) = msg.split_at(msg.len() / 3);
    h.update(a);
    h.update(b);
    h.finalize_into(out);
  }

  /// Every length of `data` (across several blocks: both padding cases of both block sizes),
  /// with split updates, hashed through [`Md`] over `F`, equals the crate `D`. (Also used by
  /// `rmd160.rs`.)
  pub(in crate::hash) fn equals_crate<F: BlockFn, D: Digest>(name: &str, data: &[u8]) {
    for len in 0..data.len() {
      let msg = &data[..len];
      let mut out = [0u8; 64];
      let out = &mut out[..F::OUTPUT_LEN];
      ours::<Md<F>>(msg, out);
      assert_eq!(out[..], D::digest(msg)[..], "{name} len {len}");
    }
  }

  /// The message `equals_crate` is run on: 300 bytes.
  pub(in crate::hash) fn check_data() -> Vec<u8> {
    (0..300u32).map(|i| (i * 7 + 3) as u8).collect()
  }

  /// Every block function here equals its RustCrypto crate (see `equals_crate`).
  #[test]
  fn equals_rustcrypto() {
    let data = check_data();
    equals_crate::<Md4Compress, md4::Md4>("md4", &data);
    equals_crate::<Md5Compress, md5::Md5>("md5", &data);
    equals_crate::<Sha1Compress, sha1::Sha1>("sha1", &data);
    equals_crate::<Sha224Compress, sha2::Sha224>("sha224", &data);
    equals_crate::<Sha256Compress, sha2::Sha256>("sha256", &data);
    equals_crate::<Sha384Compress, sha2::Sha384>("sha384", &data);
    equals_crate::<Sha512Compress, sha2::Sha512>("sha512", &data);
    equals_crate::<Sha512_224Compress, sha2::Sha512_224>("sha512_224", &data);
    equals_crate::<Sha512_256Compress, sha2::Sha512_256>("sha512_256", &data);
    // The fallback too, when the kernel ran above.
    equals_crate::<Sha512Soft, sha2::Sha512>("sha512 soft", &data);
  }

  /// SHA-512 on the `sha2` crate's block function whatever the CPU: the path taken without
  /// `arch::Sha512Avx2`.
  #[derive(Clone, Copy)]
  enum Sha512Soft {}

  impl BlockFn for Sha512Soft {
    type Word = u64;
    type State = [u64; 8];
    const ENDIAN: Endian = Endian::Big;
    const IV: [u64; 8] = Sha512Compress::IV;
    const OUTPUT_LEN: usize = 64;
    fn compress(state: &mut [u64; 8], blocks: &[[u8; 128]]) {
      sha512_compress_with(None, state, blocks)
    }
  }

  /// The SHA-512 kernel equals the `sha2` crate's block function from arbitrary chaining values,
  /// on 0..7 blocks (odd counts: a lone last block) of varied bytes.
  #[test]
  fn sha512_kernel_equals_crate() {
    let Some(kernel) = crate::arch::Sha512Avx2::detect() else {
      eprintln!("no AVX2 + BMI2 here, or an unoptimised build: the SHA-512 kernel is not checked");
      return;
    };
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      x
    };
    for n in 0..8 {
      for _ in 0..20 {
        let blocks: Vec<[u8; 128]> = (0..n)
          .map(|_| std::array::from_fn(|_| next() as u8))
          .collect();
        let start: [u64; 8] = std::array::from_fn(|_| next());
        let (mut ours, mut want) = (start, start);
        kernel.compress(&mut ours, &blocks);
        sha2::block_api::compress512(&mut want, &blocks);
        assert_eq!(ours, want, "{n} blocks");
      }
    }
  }

  /// Lanes of every length mix (both padding cases, lanes ending at different blocks), plain
  /// and from an HMAC state, equal one message at a time.
  #[test]
  fn lanes_equal_one_at_a_time() {
    fn check<F: BlockFn>(name: &str, data: &[u8]) {
      let (inner, _) = hmac_states::<F>(b"key");
      for (start, prefix) in [(F::IV, 0u64), (inner, F::Word::BLOCK as u64)] {
        for step in [1, 7, 61] {
          for len in (0..data.len() - 3 * step).step_by(5) {
            let msgs: [&[u8]; 4] = std::array::from_fn(|l| &data[..len + l * step]);
            let mut outs = [[0u8; 64]; 4];
            hash_lanes::<F, 4>(
              &start,
              prefix,
              msgs,
              outs.each_mut().map(|o| &mut o[..F::OUTPUT_LEN]),
            );
            for (msg, out) in msgs.iter().zip(&outs) {
              let mut one = [0u8; 64];
              hash_lanes::<F, 1>(&start, prefix, [msg], [&mut one[..F::OUTPUT_LEN]]);
              let mut md = Md::<F> {
                state: start,
                total: prefix,
                ..Md::default()
              };
              let mut want = [0u8; 64];
              md.update(msg);
              md.finalize_into(&mut want[..F::OUTPUT_LEN]);
              assert_eq!(
                out[..],
                want[..],
                "{name} len {} prefix {prefix}",
                msg.len()
              );
              assert_eq!(
                one[..],
                want[..],
                "{name} len {} prefix {prefix}",
                msg.len()
              );
            }
          }
        }
      }
    }
    let data: Vec<u8> = (0..400u32).map(|i| (i * 13 + 5) as u8).collect();
    check::<Sha256Compress>("sha256", &data);
    check::<Sha224Compress>("sha224", &data);
    check::<Sha1Compress>("sha1", &data);
    check::<Sha512Compress>("sha512", &data);
    check::<Sha384Compress>("sha384", &data);
    check::<Md4Compress>("md4", &data);
  }
}
