//! AES-GCM for what `ring` does not cover: IVs of any non-zero length (NIST SP 800-38D §7.1:
//! J0 = GHASH(IV ‖ 0-pad ‖ [len(IV)]64) unless the IV has 96 bits), AES-192, and truncated tags
//! (12..16 bytes) on decryption. Built from `aes` 0.9 (VAES), the own counter mode
//! (`block_modes::Ctr`, 32-bit wrap) and `ghash`.
//! The `aes-gcm` crate fixes the nonce length as a type, so it cannot take arbitrary IVs.
//! Framed (layout, lengths, wiping) by [`super::aead::seal_or_open`].

use cipher::array::Array;
use cipher::consts::U16;
use cipher::{BlockCipherEncrypt, InOutBuf};
use ghash::universal_hash::UniversalHash;
use ghash::GHash;

use super::aead::{put_tag, DetachedAead};
use super::block_modes::Ctr;
use super::modes::{decrypt_failed, internal, too_long};
use crate::error::CryptoResult;

type Block = Array<u8, U16>;

fn lengths_block(a_bytes: usize, b_bytes: usize) -> Block {
  let mut b = Block::default();
  b[..8].copy_from_slice(&((a_bytes as u64).wrapping_mul(8)).to_be_bytes());
  b[8..].copy_from_slice(&((b_bytes as u64).wrapping_mul(8)).to_be_bytes());
  b
}

/// (H, J0) for this key and IV.
fn setup<C: BlockCipherEncrypt<BlockSize = U16>>(c: &C, iv: &[u8]) -> (Block, Block) {
  let mut h = Block::default();
  c.encrypt_block(&mut h);
  let j0 = if iv.len() == 12 {
    let mut j = Block::default();
    j[..12].copy_from_slice(iv);
    j[15] = 1;
    j
  } else {
    let mut g = GHash::new(&h);
    g.update_padded(iv);
    g.update(&[lengths_block(0, iv.len())]);
    g.finalize()
  };
  (h, j0)
}

/// GCTR from inc32(J0) over `buf` (buffer to buffer or in place): the 32-bit counter wraps, as
/// the standard says. At most 2^32 - 2 blocks (SP 800-38D §5.2.1.1), so no counter value repeats.
fn gctr<C: BlockCipherEncrypt<BlockSize = U16>>(
  c: &C,
  j0: &Block,
  buf: InOutBuf<'_, '_, u8>,
) -> CryptoResult<()> {
  if buf.len().div_ceil(16) as u64 > (1 << 32) - 2 {
    return Err(too_long());
  }
  let j0 = u128::from_be_bytes((*j0).into());
  let wrap = u128::from(u32::MAX);
  c.encrypt_with_backend(Ctr {
    counter: (j0 & !wrap) | (j0.wrapping_add(1) & wrap),
    wrap,
    buf,
  });
  Ok(())
}

fn lengths<'i, 'o>(input: &'i [u8], out: &'o mut [u8]) -> CryptoResult<InOutBuf<'i, 'o, u8>> {
  InOutBuf::new(input, out).map_err(|_| internal("lengths"))
}

fn tag<C: BlockCipherEncrypt<BlockSize = U16>>(
  c: &C,
  h: &Block,
  j0: &Block,
  aad: &[u8],
  ct: &[u8],
) -> Block {
  let mut g = GHash::new(h);
  g.update_padded(aad);
  g.update_padded(ct);
  g.update(&[lengths_block(aad.len(), ct.len())]);
  let mut s = g.finalize();
  let mut ek = *j0;
  c.encrypt_block(&mut ek);
  for (a, b) in s.iter_mut().zip(ek.iter()) {
    *a ^= b;
  }
  s
}

/// AES-GCM over any AES key size and any IV length, truncated tags included.
pub struct Gcm<'a, C> {
  c: &'a C,
  iv: &'a [u8],
}

impl<'a, C> Gcm<'a, C> {
  pub fn new(c: &'a C, iv: &'a [u8]) -> Self {
    Gcm { c, iv }
  }
}

impl<C: BlockCipherEncrypt<BlockSize = U16>> DetachedAead for Gcm<'_, C> {
  fn seal(self, aad: &[u8], input: &[u8], out: &mut [u8], tag_out: &mut [u8]) -> CryptoResult<()> {
    let (h, j0) = setup(self.c, self.iv);
    gctr(self.c, &j0, lengths(input, out)?)?;
    put_tag(tag_out, &tag(self.c, &h, &j0, aad, out))
  }

  /// Verifies the (possibly truncated) tag first, in constant time, and only then decrypts.
  /// `input` is read once, into `out`: the tag is checked over that copy and the copy is what is
  /// decrypted (in place), so a ciphertext in memory another thread can write (a
  /// SharedArrayBuffer) cannot change between the check and the decryption.
  fn open(self, aad: &[u8], input: &[u8], given: &[u8], out: &mut [u8]) -> CryptoResult<()> {
    let (h, j0) = setup(self.c, self.iv);
    let out = out
      .get_mut(..input.len())
      .ok_or_else(|| internal("lengths"))?;
    out.copy_from_slice(input);
    let t = tag(self.c, &h, &j0, aad, out);
    let expected = t.get(..given.len()).ok_or_else(|| internal("tag size"))?;
    if !crate::ct::eq(expected, given) {
      return Err(decrypt_failed());
    }
    gctr(self.c, &j0, InOutBuf::from(out))
  }
}
