//! Blowfish (B. Schneier, 1993) and the expensive key schedule bcrypt runs on it (EksBlowfish,
//! N. Provos and D. Mazières, "A Future-Adaptable Password Scheme", 1999).
//!
//! Written here rather than taken from the `blowfish` crate for speed (`docs/backends.md`,
//! bcrypt): bcrypt is one chain of dependent round functions, so its time is the latency of a
//! round times 2^cost · 1042 · 16. Three things shorten that chain here:
//! - the 16 rounds are unrolled and inlined into the key schedule (no call per block);
//! - each round XORs its subkey into the half it updates before the round function's result
//!   arrives (`r ^ P[i]`, then `^ F(l)`): one XOR after F instead of two. LLVM orders it so when
//!   the subkeys are loop-invariant locals, hence the copy of P in [`Blowfish::expand`];
//! - the byte index `(x >> 16) & 0xff` comes from [`BlowfishIndex`], one `bextr` on the CPUs
//!   where that is faster than a shift and a mask (`crate::arch`).
//!
//! Timing: the S-box lookups are indexed by bytes of secret-dependent words, which is inherent to
//! Blowfish: every bcrypt implementation does the same, and bcrypt's cache-timing exposure is
//! this one. There are no other secret-dependent branches or indices.
//!
//! The state is wiped when dropped. Register spills and stack temporaries of the round loop are
//! not (as in any Rust or C implementation).

mod pi;

use zeroize::Zeroize;

pub use crate::arch::BlowfishIndex;

/// A Blowfish state: 18 subkeys and four S-boxes of 256 words. Wiped when dropped.
pub struct Blowfish {
  p: [u32; 18],
  s: [[u32; 256]; 4],
}

impl Drop for Blowfish {
  fn drop(&mut self) {
    self.p.zeroize();
    self.s.zeroize();
  }
}

/// The 18 words a key schedule XORs into P: `data` repeated from its start as often as needed,
/// read as big-endian words. `data` must not be empty.
pub fn cyclic_words(data: &[u8]) -> [u32; 18] {
  let mut bytes = data.iter().copied().cycle();
  let mut words = [0u32; 18];
  for w in &mut words {
    for _ in 0..4 {
      *w = (*w << 8) | u32::from(bytes.next().unwrap_or(0));
    }
  }
  words
}

impl Blowfish {
  /// The initial state: P and S from the digits of π.
  pub fn new() -> Self {
    Blowfish { p: pi::P, s: pi::S }
  }

  /// The round function F.
  #[inline(always)]
  fn f<I: BlowfishIndex>(ix: I, s: &[[u32; 256]; 4], x: u32) -> u32 {
    let a = s[0][(x >> 24) as usize];
    let b = s[1][usize::from(ix.byte2(x))];
    let c = s[2][usize::from((x >> 8) as u8)];
    let d = s[3][usize::from(x as u8)];
    (a.wrapping_add(b) ^ c).wrapping_add(d)
  }

  /// Encrypts the block `(l, r)` under subkeys `p` and S-boxes `s`: 16 unrolled rounds.
  #[inline(always)]
  fn encrypt_with<I: BlowfishIndex>(
    ix: I,
    p: &[u32; 18],
    s: &[[u32; 256]; 4],
    (mut l, mut r): (u32, u32),
  ) -> (u32, u32) {
    l ^= p[0];
    macro_rules! rounds {
      ($($k:literal)*) => {
        $(
          r = (r ^ p[$k]) ^ Self::f(ix, s, l);
          l = (l ^ p[$k + 1]) ^ Self::f(ix, s, r);
        )*
      };
    }
    rounds!(1 3 5 7 9 11 13 15);
    (r ^ p[17], l)
  }

  /// Encrypts one 8-byte block (two big-endian words).
  #[inline(always)]
  pub fn encrypt_block<I: BlowfishIndex>(&self, ix: I, block: [u8; 8]) -> [u8; 8] {
    let word = |i: usize| u32::from_be_bytes([block[i], block[i + 1], block[i + 2], block[i + 3]]);
    let (l, r) = Self::encrypt_with(ix, &self.p, &self.s, (word(0), word(4)));
    let mut out = [0u8; 8];
    out[..4].copy_from_slice(&l.to_be_bytes());
    out[4..].copy_from_slice(&r.to_be_bytes());
    out
  }

  /// ExpandKey(state, salt, key) of the bcrypt paper: XORs `key` ([`cyclic_words`]) into P, then
  /// overwrites P and the S-boxes, in order, with successive encryptions of a running block. With
  /// a `salt` (bcrypt's 16 bytes as 4 words), the block is first XORed with its next two words
  /// each time; without, this is Blowfish's own key schedule.
  #[inline(always)]
  pub fn expand<I: BlowfishIndex>(&mut self, ix: I, key: &[u32; 18], salt: Option<&[u32; 4]>) {
    for (p, k) in self.p.iter_mut().zip(key) {
      *p ^= k;
    }
    let mut block = (0u32, 0u32);
    let mut half = 0;
    let mut next = |block: (u32, u32)| match salt {
      Some(salt) => {
        let b = (block.0 ^ salt[half], block.1 ^ salt[half + 1]);
        half ^= 2;
        b
      }
      None => block,
    };
    for k in (0..18).step_by(2) {
      block = Self::encrypt_with(ix, &self.p, &self.s, next(block));
      (self.p[k], self.p[k + 1]) = block;
    }
    // P is fixed from here on. In a local copy its words are loop-invariant, and LLVM then XORs
    // each into its half ahead of F (7 % faster at cost 10 on Zen 3 than reading `self.p`).
    let p = self.p;
    for i in 0..4 {
      for k in (0..256).step_by(2) {
        block = Self::encrypt_with(ix, &p, &self.s, next(block));
        (self.s[i][k], self.s[i][k + 1]) = block;
      }
    }
  }
}

#[cfg(test)]
mod tests {
  use super::*;
  use crate::arch::{Baseline, Bmi1};

  /// Encrypts `block` under the standard Blowfish key schedule of `key` with index `ix`.
  fn ecb<I: BlowfishIndex>(ix: I, key: &[u8], block: u64) -> u64 {
    let mut bf = Blowfish::new();
    bf.expand(ix, &cyclic_words(key), None);
    u64::from_be_bytes(bf.encrypt_block(ix, block.to_be_bytes()))
  }

  /// Runs `check` with every index strategy this CPU has.
  fn each_index(check: impl Fn(&dyn Fn(&[u8], u64) -> u64, &str)) {
    check(&|k, b| ecb(Baseline, k, b), "baseline");
    if let Some(ix) = Bmi1::detect() {
      check(&|k, b| ecb(ix, k, b), "bmi1");
    }
  }

  const VECTORS: &str = include_str!("../../__test__/vectors/kdf/blowfish_ecb_eric_young.txt");

  /// The `key clear cipher` lines of section `name` in the vector file.
  fn section(name: &str) -> Vec<Vec<String>> {
    VECTORS
      .split("\n[")
      .find(|s| s.starts_with(name))
      .unwrap_or_else(|| panic!("no [{name}] section"))
      .lines()
      .skip(1)
      .filter(|l| !l.is_empty() && !l.starts_with('#'))
      .map(|l| l.split_whitespace().map(str::to_owned).collect())
      .collect()
  }

  fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
      .step_by(2)
      .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
      .collect()
  }

  fn block(s: &str) -> u64 {
    u64::from_str_radix(s, 16).unwrap()
  }

  #[test]
  fn eric_young_ecb_vectors() {
    let rows = section("ecb]");
    assert_eq!(rows.len(), 34);
    each_index(|enc, name| {
      for row in &rows {
        let got = enc(&hex(&row[0]), block(&row[1]));
        assert_eq!(got, block(&row[2]), "{name}: key {}", row[0]);
      }
    });
  }

  #[test]
  fn eric_young_set_key_vectors() {
    // One key, one plaintext; the key cut to 1, 2, ..., 24 bytes.
    let rows = section("set_key]");
    let key = hex(&rows[0][0]);
    let clear = block(&rows[1][0]);
    let ciphers = &rows[2..];
    assert_eq!(ciphers.len(), 24);
    each_index(|enc, name| {
      for (n, c) in ciphers.iter().enumerate() {
        assert_eq!(
          enc(&key[..=n], clear),
          block(&c[0]),
          "{name}: {} key bytes",
          n + 1
        );
      }
    });
  }

  #[test]
  fn cyclic_words_repeat_the_key() {
    let w = cyclic_words(&[1, 2, 3]);
    assert_eq!(&w[..3], &[0x01020301, 0x02030102, 0x03010203]);
    assert_eq!(w[3], w[0]);
    assert_eq!(cyclic_words(&[0xab; 72]), [0xabababab; 18]);
    let seventy_three: Vec<u8> = (0..73).collect();
    assert_eq!(cyclic_words(&seventy_three)[17], 0x44454647);
  }

  /// π · 2^(32·words) as big-endian 32-bit limbs, the integer part first: Machin's formula
  /// π = 16·atan(1/5) − 4·atan(1/239) in fixed point with two guard limbs.
  fn pi_words(words: usize) -> Vec<u32> {
    let n = words + 3;
    // x / d in place (big-endian limbs).
    fn div(x: &mut [u32], d: u32) {
      let mut rem = 0u64;
      for limb in x.iter_mut() {
        let cur = (rem << 32) | u64::from(*limb);
        *limb = (cur / u64::from(d)) as u32;
        rem = cur % u64::from(d);
      }
    }
    // acc += sign · x.
    fn add(acc: &mut [u32], x: &[u32], negative: bool) {
      let mut carry = 0i64;
      for (a, b) in acc.iter_mut().zip(x).rev() {
        let v = i64::from(*a)
          + if negative {
            -i64::from(*b)
          } else {
            i64::from(*b)
          }
          + carry;
        *a = v as u32;
        carry = v >> 32;
      }
    }
    // k · atan(1/x) = k · Σ (−1)^j / ((2j+1) · x^(2j+1)).
    let atan = |k: u32, x: u32| {
      let mut power = vec![0u32; n];
      power[0] = k;
      div(&mut power, x);
      let mut sum = vec![0u32; n];
      let mut j = 0u32;
      while power.iter().any(|&w| w != 0) {
        let mut term = power.clone();
        div(&mut term, 2 * j + 1);
        add(&mut sum, &term, j % 2 == 1);
        div(&mut power, x * x);
        j += 1;
      }
      sum
    };
    let mut pi = atan(16, 5);
    add(&mut pi, &atan(4, 239), true);
    pi.truncate(words + 1);
    pi
  }

  #[test]
  fn initial_state_is_pi() {
    let pi = pi_words(18 + 1024);
    assert_eq!(pi[0], 3);
    let init = Blowfish::new();
    assert_eq!(&pi[1..19], &init.p);
    for (i, sbox) in init.s.iter().enumerate() {
      assert_eq!(&pi[19 + 256 * i..19 + 256 * (i + 1)], sbox, "S-box {i}");
    }
  }
}
