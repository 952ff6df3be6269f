//! AWS-LC's Keccak-f[1600] permutation (SHA-3, SHAKE, Keccak-256 where the own assembly of
//! `arch/keccak.rs` is not used).

extern "C" {
  /// AWS-LC's Keccak-f[1600] (`crypto/fipsmodule/sha/keccak1600.c`): s2n-bignum's scalar assembly
  /// on x86-64 Linux and macOS, AWS-LC's C or Neon code elsewhere. Not declared by aws-lc-sys:
  /// linked by AWS-LC's versioned symbol name (`symbol!`), as `mlkem.rs` links mlkem-native.
  #[link_name = symbol!("KeccakF1600")]
  fn aws_lc_keccak_f1600(state: *mut u64);
}

/// Keccak-f[1600] on the 25 lanes of `state` (FIPS 202 order: lane (x, y) at index x + 5y).
pub fn keccak_f1600(state: &mut [u64; 25]) {
  // SAFETY: AWS-LC's function reads and writes exactly the 25 lanes (`uint64_t A[5][5]`, the same
  // 200 bytes in the same order) behind the pointer, which `state` owns for the call, and keeps
  // no pointer to them.
  unsafe { aws_lc_keccak_f1600(state.as_mut_ptr()) }
}
