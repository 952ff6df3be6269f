//! The Keccak sponge (FIPS 202 §4, with the Keccak team's padding) over AWS-LC's Keccak-f[1600]
//! (`arch::keccak_f1600`: s2n-bignum's assembly on x86-64): SHA3-224/256/384/512, SHAKE128/256
//! and Keccak-256 are one [`Keccak`] each, differing in rate, domain byte and output length.
//! One sponge for all of them, rather than AWS-LC's digests for some (an allocated `EVP_MD_CTX`
//! per hash, no SHA3-224 in aws-lc-rs, no SHAKE) and RustCrypto's portable permutation for the
//! rest (why: `docs/backends.md`).

use zeroize::Zeroize;

use super::core::HashCore;
use crate::arch::keccak_f1600;

/// Domain bytes: the suffix bits after the message and the first bit of the `10*1` padding.
const SHA3: u8 = 0x06;
const SHAKE: u8 = 0x1f;
const KECCAK: u8 = 0x01;

/// A sponge in its absorbing phase; `finalize_into` pads and squeezes.
#[derive(Clone)]
pub struct Keccak {
  state: [u64; 25],
  /// Bytes absorbed per permutation (200 - capacity / 8), a multiple of 8.
  rate: usize,
  /// Bytes of the current block already XORed into the state.
  used: usize,
  domain: u8,
  out_len: usize,
  /// The block HMAC pads its key to: the rate for SHA-3 and Keccak-256, none (0) for the XOFs.
  hmac_block: usize,
}

impl Keccak {
  const fn new(capacity_bits: usize, domain: u8, out_len: usize) -> Keccak {
    let rate = 200 - capacity_bits / 8;
    Keccak {
      state: [0; 25],
      rate,
      used: 0,
      domain,
      out_len,
      hmac_block: if domain == SHAKE { 0 } else { rate },
    }
  }

  /// SHA3-`bits` (224, 256, 384 or 512): capacity 2 × bits.
  pub const fn sha3(bits: usize) -> Keccak {
    Keccak::new(2 * bits, SHA3, bits / 8)
  }

  /// SHAKE`security` (128 or 256) with `out_len` bytes of output.
  pub const fn shake(security: usize, out_len: usize) -> Keccak {
    Keccak::new(2 * security, SHAKE, out_len)
  }

  /// Keccak-256 (the original padding, as Ethereum uses it).
  pub const fn keccak256() -> Keccak {
    Keccak::new(512, KECCAK, 32)
  }

  /// XORs `byte` into the state at byte position `at` (lanes are little-endian).
  #[inline(always)]
  fn xor_byte(&mut self, at: usize, byte: u8) {
    self.state[at / 8] ^= u64::from(byte) << (8 * (at % 8));
  }
}

impl HashCore for Keccak {
  fn update(&mut self, mut data: &[u8]) {
    // Continue a started block byte by byte.
    while self.used > 0 {
      let Some((&b, rest)) = data.split_first() else {
        return;
      };
      self.xor_byte(self.used, b);
      data = rest;
      self.used += 1;
      if self.used == self.rate {
        keccak_f1600(&mut self.state);
        self.used = 0;
      }
    }
    // Whole blocks, a lane at a time.
    let mut blocks = data.chunks_exact(self.rate);
    for block in &mut blocks {
      let (words, _) = block.as_chunks::<8>();
      for (lane, word) in self.state.iter_mut().zip(words) {
        *lane ^= u64::from_le_bytes(*word);
      }
      keccak_f1600(&mut self.state);
    }
    for (i, &b) in blocks.remainder().iter().enumerate() {
      self.xor_byte(i, b);
    }
    self.used = blocks.remainder().len();
  }

  fn finalize_into(mut self, out: &mut [u8]) {
    self.xor_byte(self.used, self.domain);
    self.xor_byte(self.rate - 1, 0x80);
    keccak_f1600(&mut self.state);
    let mut chunks = out.chunks_mut(self.rate).peekable();
    while let Some(chunk) = chunks.next() {
      for (i, o) in chunk.iter_mut().enumerate() {
        *o = (self.state[i / 8] >> (8 * (i % 8))) as u8;
      }
      if chunks.peek().is_some() {
        keccak_f1600(&mut self.state);
      }
    }
  }

  fn output_len(&self) -> usize {
    self.out_len
  }

  fn block_len(&self) -> usize {
    self.hmac_block
  }
}

/// The state holds what was absorbed (an HMAC's keyed state, a hashed secret): wiped on drop.
impl Drop for Keccak {
  fn drop(&mut self) {
    self.state.zeroize();
  }
}

#[cfg(test)]
mod tests {
  use super::*;
  use digest::{Digest, ExtendableOutput, Update, XofReader};

  /// Every length 0..600 (both sides of each rate), whole and split at every eighth point,
  /// against RustCrypto's `sha3`/`shake` (its own permutation): the same bytes.
  #[test]
  fn equals_rustcrypto() {
    let data: Vec<u8> = (0..600u32)
      .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
      .collect();
    fn ours(mut k: Keccak, parts: &[&[u8]], n: usize) -> Vec<u8> {
      k.out_len = n;
      for p in parts {
        k.update(p);
      }
      let mut out = vec![0u8; n];
      k.finalize_into(&mut out);
      out
    }
    fn xof<X: Default + Update + ExtendableOutput>(data: &[u8], n: usize) -> Vec<u8> {
      let mut x = X::default();
      x.update(data);
      let mut out = vec![0u8; n];
      x.finalize_xof().read(&mut out);
      out
    }
    for len in 0..data.len() {
      let m = &data[..len];
      let expect: [(Keccak, Vec<u8>); 7] = [
        (Keccak::sha3(224), sha3::Sha3_224::digest(m).to_vec()),
        (Keccak::sha3(256), sha3::Sha3_256::digest(m).to_vec()),
        (Keccak::sha3(384), sha3::Sha3_384::digest(m).to_vec()),
        (Keccak::sha3(512), sha3::Sha3_512::digest(m).to_vec()),
        (Keccak::keccak256(), sha3::Keccak256::digest(m).to_vec()),
        // Outputs over one rate: squeezing crosses permutations.
        (Keccak::shake(128, 0), xof::<shake::Shake128>(m, 400)),
        (Keccak::shake(256, 0), xof::<shake::Shake256>(m, 300)),
      ];
      for (k, want) in expect {
        assert_eq!(ours(k.clone(), &[m], want.len()), want, "len {len}");
        for cut in (0..=len).step_by(len / 8 + 1) {
          let (a, b) = m.split_at(cut);
          assert_eq!(
            ours(
              k.clone(),
              &[a, &b[..b.len() / 2], &b[b.len() / 2..]],
              want.len()
            ),
            want
          );
        }
      }
    }
  }
}
