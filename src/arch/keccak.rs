//! The Keccak absorbing loop in x86-64 assembly (BMI1 + BMI2), written out by `build.rs`. The
//! portable permutation is AWS-LC's (`awslc/keccak.rs`).

/// The Keccak absorbing loop in x86-64 assembly using BMI1's `andn` (χ in one instruction) and
/// BMI2's `rorx` (θ's rotation without a copy); a value exists only on a CPU with both. The code
/// is written out by `build.rs` (`keccak_x86_64`, which describes it) from FIPS 202's indices.
/// Against AWS-LC's permutation (OpenSSL's `keccak1600-x86_64` design, through s2n-bignum), per
/// block it saves the lane complementing on entry and exit and a call, and per round a store
/// and reload on the path from one round to the next (measured in `src/benches.rs`,
/// `permutation_speed`).
#[derive(Clone, Copy)]
pub struct KeccakBmi(Proof);

/// What a CPU-feature token holds: nothing on x86-64; elsewhere a type without values, so no
/// token can exist there.
#[cfg(target_arch = "x86_64")]
type Proof = ();
#[cfg(not(target_arch = "x86_64"))]
#[derive(Clone, Copy)]
pub enum Proof {}

// `KECCAK_RC` and `keccak_absorb_asm!`.
#[cfg(target_arch = "x86_64")]
include!(concat!(env!("OUT_DIR"), "/keccak_x86_64.rs"));

impl KeccakBmi {
  pub fn detect() -> Option<Self> {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("bmi1") && std::arch::is_x86_feature_detected!("bmi2") {
      return Some(KeccakBmi(()));
    }
    None
  }

  /// For each whole `rate`-byte block of `data` (a remainder is ignored): XORs it into the
  /// first `rate / 8` lanes of `state` (little-endian), then applies Keccak-f[1600]. `rate` is a
  /// multiple of 8 from 8 to 192 bytes.
  pub fn absorb(self, state: &mut [u64; 25], data: &[u8], rate: usize) {
    let lanes = (rate / 8).clamp(1, 24);
    self.run(state, data.as_ptr(), data.len() / (8 * lanes), lanes);
  }

  /// Keccak-f[1600] on `state` (an absorb of one block of no lanes).
  pub fn permute(self, state: &mut [u64; 25]) {
    self.run(state, std::ptr::null(), 1, 0);
  }

  /// `blocks` blocks of `lanes` lanes from `data`; `lanes <= 24`, and `data` is readable for
  /// `blocks * lanes * 8` bytes.
  fn run(self, state: &mut [u64; 25], data: *const u8, blocks: usize, lanes: usize) {
    if blocks == 0 {
      return;
    }
    #[cfg(target_arch = "x86_64")]
    {
      let mut scratch = [0u64; 31];
      scratch[25] = KECCAK_RC.as_ptr() as u64;
      scratch[26] = KECCAK_RC.as_ptr().wrapping_add(24) as u64;
      scratch[27] = data as u64;
      scratch[28] = blocks as u64;
      scratch[29] = lanes as u64;
      scratch[30] = KECCAK_RC.as_ptr() as u64;
      // SAFETY: `self` exists, so the CPU has BMI1 and BMI2 (`andn`, `rorx`). The assembly
      // reads `blocks * lanes` little-endian u64s from `data` (in bounds: callers pass whole
      // blocks of their slice, or no lanes), reads and writes the 25 lanes of `state` and the 31
      // words of `scratch` (both exclusively borrowed here), reads the 24 round constants, and
      // keeps no pointer; it uses no stack and the registers it names.
      unsafe {
        keccak_absorb_asm!(state.as_mut_ptr(), scratch.as_mut_ptr());
      }
      // The scratch lanes hold the state after every other round.
      zeroize::Zeroize::zeroize(&mut scratch[..25]);
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
      let _ = (state, data, lanes);
      match self.0 {}
    }
  }
}
