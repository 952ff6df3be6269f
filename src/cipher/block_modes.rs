//! The block-cipher modes without authentication: ECB and CBC with optional PKCS#7 padding (any
//! block size: AES and DES), and CTR, CFB-128, CFB-8 and OFB (AES). Generic over the cipher; a
//! failed padding check wipes the output before the error. CBC encryption, CTR and OFB are own
//! loops run inside the cipher's backend (`encrypt_with_backend`), measured faster than the
//! `cbc`/`ctr`/`ofb` crates (docs/backends.md, "Ciphers"); CBC decryption and CFB use the crates.

use cipher::array::{Array, ArraySize};
use cipher::consts::U16;
use cipher::typenum::Unsigned;
use cipher::{
  BlockCipherDecrypt, BlockCipherEncBackend, BlockCipherEncClosure, BlockCipherEncrypt,
  BlockModeDecrypt, BlockSizeUser, InOutBuf, InnerIvInit, ParBlocks,
};

use super::modes::{decrypt_failed, internal, IvRule, Mode, Op};
use crate::error::{Code, CryptoError, CryptoResult};
use zeroize::Zeroize;

/// ECB (a mode without IV) or CBC, with PKCS#7 padding when `op.padding`.
pub fn padded<C>(c: &C, op: &Op, iv: &[u8], input: &[u8], out: &mut [u8]) -> CryptoResult<usize>
where
  C: BlockCipherEncrypt + BlockCipherDecrypt,
{
  let iv = match op.mode.info().iv {
    IvRule::None => None,
    _ => Some(Array::<u8, C::BlockSize>::try_from(iv).map_err(|_| internal("IV size"))?),
  };
  match (op.decrypt, iv) {
    (false, None) => seal_blocks(op, input, out, |b| c.encrypt_blocks_inout(b)),
    (false, Some(mut iv)) => seal_blocks(op, input, out, |blocks| {
      c.encrypt_with_backend(CbcEncrypt {
        iv: &mut iv,
        blocks,
      })
    }),
    (true, None) => open_blocks(op, input, out, |b| c.decrypt_blocks_inout(b)),
    (true, Some(iv)) => {
      let mut m = cbc::Decryptor::<&C>::inner_iv_init(c, &iv);
      open_blocks(op, input, out, |b| m.decrypt_blocks_inout(b))
    }
  }
}

/// CBC encryption of `blocks` chained from `iv` (left holding the last ciphertext block), run
/// inside the cipher's backend so the block function inlines into the loop. The chaining value
/// lives in a local: the `cbc` crate keeps it behind a pointer that may alias the output, so
/// every block paid a store and a reload on the serial chain (0.8-0.9x OpenSSL at 64 KiB).
struct CbcEncrypt<'a, 'i, 'o, B: ArraySize> {
  iv: &'a mut Array<u8, B>,
  blocks: InOutBuf<'i, 'o, Array<u8, B>>,
}

impl<B: ArraySize> BlockSizeUser for CbcEncrypt<'_, '_, '_, B> {
  type BlockSize = B;
}

impl<B: ArraySize> BlockCipherEncClosure for CbcEncrypt<'_, '_, '_, B> {
  #[inline(always)]
  fn call<K: BlockCipherEncBackend<BlockSize = B>>(self, k: &K) {
    let mut chain = self.iv.clone();
    for mut block in self.blocks {
      let mut t = block.clone_in();
      for (a, b) in t.iter_mut().zip(chain.iter()) {
        *a ^= b;
      }
      k.encrypt_block((&mut t).into());
      chain = t.clone();
      *block.get_out() = t;
    }
    *self.iv = chain;
  }
}

/// Counter mode: `out = input ^ E(counter) ‖ E(next(counter)) ‖ ...`, where `next` adds one
/// to the bits of the 128-bit big-endian counter block under `wrap`, modulo their range, and keeps
/// the others: all bits for CTR (node:crypto's `aes-*-ctr`), the low 32 for GCM's inc32.
/// Keystream blocks are made as many at a time as the backend encrypts in parallel (64 with
/// VAES-512) and XORed in as whole slices: the `ctr` crate reached 0.71-0.82x this at 64 KiB.
pub(super) struct Ctr<'i, 'o> {
  pub counter: u128,
  pub wrap: u128,
  /// Buffer to buffer, or in place (GCM's open decrypts its own copy of the ciphertext).
  pub buf: InOutBuf<'i, 'o, u8>,
}

impl BlockSizeUser for Ctr<'_, '_> {
  type BlockSize = U16;
}

impl BlockCipherEncClosure for Ctr<'_, '_> {
  #[inline(always)]
  fn call<K: BlockCipherEncBackend<BlockSize = U16>>(self, k: &K) {
    let mut counter = self.counter;
    let mut ks = ParBlocks::<K>::default();
    let par = 16 * K::ParBlocksSize::USIZE;
    let mut rest = self.buf;
    while !rest.is_empty() {
      let at = par.min(rest.len());
      let (mut chunk, tail) = rest.split_at(at);
      rest = tail;
      let blocks = chunk.len().div_ceil(16);
      if (counter as u32).checked_add(blocks as u32).is_some() {
        // No carry out of the low 32 bits within this chunk (all but one chunk in 2^26), so
        // adding to the low 64 bits is the same as adding to the low 32, whatever `wrap` is.
        let (high, low) = (((counter >> 64) as u64).to_be_bytes(), counter as u64);
        for (i, block) in ks.iter_mut().take(blocks).enumerate() {
          block[..8].copy_from_slice(&high);
          block[8..].copy_from_slice(&(low + i as u64).to_be_bytes());
        }
        counter += blocks as u128;
      } else {
        for block in ks.iter_mut().take(blocks) {
          *block = counter.to_be_bytes().into();
          counter = (counter & !self.wrap) | (counter.wrapping_add(1) & self.wrap);
        }
      }
      if blocks == K::ParBlocksSize::USIZE {
        k.encrypt_par_blocks((&mut ks).into());
      } else {
        for block in ks.iter_mut().take(blocks) {
          k.encrypt_block(block.into());
        }
      }
      let n = chunk.len();
      chunk.xor_in2out(&Array::slice_as_flattened(&ks)[..n]);
    }
    Array::slice_as_flattened_mut(&mut ks).zeroize();
  }
}

/// OFB: the keystream is E(IV), E(E(IV)), ..., XORed into `input` (a last partial block takes the
/// first bytes of its keystream block). Serial, as CBC encryption: the feedback stays in a local
/// (the `ofb` crate keeps it behind a pointer that may alias the output: 0.84-0.88x this).
struct Ofb<'a> {
  iv: Array<u8, U16>,
  input: &'a [u8],
  out: &'a mut [u8],
}

impl BlockSizeUser for Ofb<'_> {
  type BlockSize = U16;
}

impl BlockCipherEncClosure for Ofb<'_> {
  #[inline(always)]
  fn call<K: BlockCipherEncBackend<BlockSize = U16>>(self, k: &K) {
    let mut stream = self.iv;
    for (input, out) in self.input.chunks(16).zip(self.out.chunks_mut(16)) {
      k.encrypt_block((&mut stream).into());
      for ((o, i), s) in out.iter_mut().zip(input).zip(stream.iter()) {
        *o = i ^ s;
      }
    }
    stream.zeroize();
  }
}

fn not_multiple(mode: Mode, bs: usize, n: usize) -> CryptoError {
  CryptoError::new(
    Code::OutOfRange,
    format!(
      "Invalid data length for {} with padding 'none': it must be a multiple of {bs} bytes. Received {n}",
      mode.label()
    ),
  )
}

/// Encrypts the whole blocks of `input` with `f`, then the PKCS#7-padded last block.
fn seal_blocks<B: ArraySize>(
  op: &Op,
  input: &[u8],
  out: &mut [u8],
  mut f: impl FnMut(InOutBuf<'_, '_, Array<u8, B>>),
) -> CryptoResult<usize> {
  let (padding, bs) = (op.padding, B::USIZE);
  let n = input.len();
  let full = n / bs * bs;
  if !padding && full != n {
    return Err(not_multiple(op.mode, bs, n));
  }
  let total = if padding { full + bs } else { full };
  let out = out
    .get_mut(..total)
    .ok_or_else(|| internal("output size"))?;
  let (body, last) = out.split_at_mut(full);
  let buf = InOutBuf::new(&input[..full], body).map_err(|_| internal("lengths"))?;
  f(buf.into_chunks::<B>().0);
  if padding {
    let rem = &input[full..];
    let pad = (bs - rem.len()) as u8;
    last.fill(pad);
    last[..rem.len()].copy_from_slice(rem);
    f(InOutBuf::from(last).into_chunks::<B>().0);
  }
  Ok(total)
}

/// Decrypts whole blocks with `f`, then checks and strips PKCS#7 padding in constant time.
fn open_blocks<B: ArraySize>(
  op: &Op,
  input: &[u8],
  out: &mut [u8],
  mut f: impl FnMut(InOutBuf<'_, '_, Array<u8, B>>),
) -> CryptoResult<usize> {
  let (padding, bs) = (op.padding, B::USIZE);
  let n = input.len();
  if !n.is_multiple_of(bs) || (padding && n == 0) {
    return Err(if padding {
      decrypt_failed()
    } else {
      not_multiple(op.mode, bs, n)
    });
  }
  let out = out.get_mut(..n).ok_or_else(|| internal("output size"))?;
  let buf = InOutBuf::new(input, &mut *out).map_err(|_| internal("lengths"))?;
  f(buf.into_chunks::<B>().0);
  if !padding {
    return Ok(n);
  }
  let last = &out[n - bs..];
  let p = u32::from(last[bs - 1]);
  // bad = p == 0 || p > bs || any of the last p bytes != p, without branching on secret data.
  let mut bad = (p.wrapping_sub(1) >> 31) | ((bs as u32).wrapping_sub(p) >> 31);
  for (i, &b) in last.iter().enumerate() {
    let from_end = (bs - i) as u32;
    let in_pad = 1 ^ (p.wrapping_sub(from_end) >> 31);
    let diff = u32::from(b) ^ p;
    bad |= in_pad & ((diff | diff.wrapping_neg()) >> 31);
  }
  if std::hint::black_box(bad) != 0 {
    out.fill(0);
    return Err(decrypt_failed());
  }
  Ok(n - p as usize)
}

/// CTR (128-bit big-endian counter), CFB-128, CFB-8 or OFB.
pub fn stream<C>(c: &C, op: &Op, iv: &[u8], input: &[u8], out: &mut [u8]) -> CryptoResult<usize>
where
  C: BlockCipherEncrypt<BlockSize = U16>,
{
  let n = input.len();
  let out = out.get_mut(..n).ok_or_else(|| internal("output size"))?;
  let iv = Array::<u8, U16>::try_from(iv).map_err(|_| internal("IV size"))?;
  let lengths = |_| internal("lengths");
  match (op.mode, op.decrypt) {
    (Mode::Ctr, _) => c.encrypt_with_backend(Ctr {
      counter: u128::from_be_bytes(iv.into()),
      wrap: u128::MAX,
      buf: InOutBuf::new(input, out).map_err(lengths)?,
    }),
    (Mode::Ofb, _) => c.encrypt_with_backend(Ofb { iv, input, out }),
    (Mode::Cfb, false) => cfb_mode::Encryptor::<&C>::inner_iv_init(c, &iv)
      .encrypt_b2b(input, out)
      .map_err(lengths)?,
    (Mode::Cfb, true) => cfb_mode::Decryptor::<&C>::inner_iv_init(c, &iv)
      .decrypt_b2b(input, out)
      .map_err(lengths)?,
    (Mode::Cfb8, false) => cfb8::Encryptor::<&C>::inner_iv_init(c, &iv)
      .encrypt_b2b(input, out)
      .map_err(lengths)?,
    (Mode::Cfb8, true) => cfb8::Decryptor::<&C>::inner_iv_init(c, &iv)
      .decrypt_b2b(input, out)
      .map_err(lengths)?,
    _ => return Err(internal("not a stream mode")),
  }
  Ok(n)
}
