//! The Keccak sponge (FIPS 202 §4, with the Keccak team's padding): SHA3-224/256/384/512,
//! SHAKE128/256 and Keccak-256 are one [`Keccak`] each, differing in rate, domain byte and output
//! length. The permutation is the own x86-64 BMI1/BMI2 assembly (`arch::KeccakBmi`) where the CPU
//! has it and it measures faster than AWS-LC's (`awslc::keccak::keccak_f1600`: s2n-bignum's
//! assembly on x86-64, C or Neon elsewhere), chosen once per process ([`Permutation`]). One sponge
//! for all of them, rather than AWS-LC's digests for some (an allocated `EVP_MD_CTX` per hash, no
//! SHA3-224 in aws-lc-rs, no SHAKE) and RustCrypto's portable permutation for the rest (why:
//! `docs/backends.md`).

use std::sync::OnceLock;

use zeroize::Zeroize;

use super::core::{first_is_faster, HashCore};
use crate::arch::KeccakBmi;
use crate::awslc::keccak::keccak_f1600;

/// Keccak-f[1600] as this process runs it.
#[derive(Clone, Copy)]
pub enum Permutation {
  /// The own assembly (`arch::KeccakBmi`).
  Bmi(KeccakBmi),
  /// AWS-LC's `KeccakF1600`.
  AwsLc,
}

impl Permutation {
  /// The own assembly where the CPU has BMI1/BMI2 and it absorbs 8 KiB faster than AWS-LC's
  /// permutation does (timed once), else AWS-LC's.
  pub fn get() -> Permutation {
    static PICK: OnceLock<Permutation> = OnceLock::new();
    *PICK.get_or_init(|| {
      let Some(own) = KeccakBmi::detect() else {
        return Permutation::AwsLc;
      };
      let data = [0x5a_u8; 136 * 60];
      let run = |p: Permutation| {
        let mut state = [0u64; 25];
        p.absorb(&mut state, std::hint::black_box(&data), 136);
        std::hint::black_box(state);
      };
      if first_is_faster(&|| run(Permutation::Bmi(own)), &|| run(Permutation::AwsLc)) {
        Permutation::Bmi(own)
      } else {
        Permutation::AwsLc
      }
    })
  }

  /// For each whole `rate`-byte block of `data`: XOR it into the state, then permute.
  #[inline]
  pub(crate) fn absorb(self, state: &mut [u64; 25], data: &[u8], rate: usize) {
    match self {
      Permutation::Bmi(own) => own.absorb(state, data, rate),
      Permutation::AwsLc => {
        for block in data.chunks_exact(rate) {
          let (words, _) = block.as_chunks::<8>();
          for (lane, word) in state.iter_mut().zip(words) {
            *lane ^= u64::from_le_bytes(*word);
          }
          keccak_f1600(state);
        }
      }
    }
  }

  #[inline]
  fn permute(self, state: &mut [u64; 25]) {
    match self {
      Permutation::Bmi(own) => own.permute(state),
      Permutation::AwsLc => keccak_f1600(state),
    }
  }

  /// Whether the own assembly runs (`cpuPaths().sha3` is then `'bmi2-asm'`; AWS-LC's path is
  /// named by the caller, which knows how AWS-LC was built).
  pub fn is_own(self) -> bool {
    matches!(self, Permutation::Bmi(_))
  }
}

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
        Permutation::get().permute(&mut self.state);
        self.used = 0;
      }
    }
    // Whole blocks, then the rest into the state byte by byte.
    let whole = data.len() - data.len() % self.rate;
    let (blocks, rest) = data.split_at(whole);
    if !blocks.is_empty() {
      Permutation::get().absorb(&mut self.state, blocks, self.rate);
    }
    for (i, &b) in rest.iter().enumerate() {
      self.xor_byte(i, b);
    }
    self.used = rest.len();
  }

  fn finalize_into(mut self, out: &mut [u8]) {
    self.xor_byte(self.used, self.domain);
    self.xor_byte(self.rate - 1, 0x80);
    let permutation = Permutation::get();
    permutation.permute(&mut self.state);
    let mut chunks = out.chunks_mut(self.rate).peekable();
    while let Some(chunk) = chunks.next() {
      for (i, o) in chunk.iter_mut().enumerate() {
        *o = (self.state[i / 8] >> (8 * (i % 8))) as u8;
      }
      if chunks.peek().is_some() {
        permutation.permute(&mut self.state);
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

  /// The own assembly equals AWS-LC's permutation: absorbing 0 to 40 blocks at every rate the
  /// sponge uses (and the extremes 8 and 192 bytes) from a varied state, and 100 chained bare
  /// permutations. Skipped, saying so, on a CPU without BMI1/BMI2.
  #[test]
  fn own_permutation_equals_aws_lc() {
    let Some(own) = KeccakBmi::detect() else {
      eprintln!("no BMI1/BMI2 on this CPU: the own Keccak assembly not checked");
      return;
    };
    let data: Vec<u8> = (0..8000u32)
      .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
      .collect();
    let start: [u64; 25] =
      std::array::from_fn(|i| (i as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    for rate in [8, 72, 104, 136, 144, 168, 192] {
      for blocks in [0, 1, 2, 3, 40] {
        let (mut a, mut b) = (start, start);
        let input = &data[..rate * blocks + 5]; // a partial block after: ignored by both
        Permutation::AwsLc.absorb(&mut a, input, rate);
        Permutation::Bmi(own).absorb(&mut b, input, rate);
        assert_eq!(a, b, "rate {rate}, {blocks} blocks");
      }
    }
    let (mut a, mut b) = (start, start);
    for i in 0..100 {
      keccak_f1600(&mut a);
      own.permute(&mut b);
      assert_eq!(a, b, "permutation {i}");
    }
  }

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
