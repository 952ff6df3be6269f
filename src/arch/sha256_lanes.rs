//! SHA-256 over several messages at once (SHA-NI), for batch hashing.

/// The SHA-NI SHA-256 block function, over `L` independent states at once; a value exists only
/// on a CPU with SHA-NI and SSE4.1.
///
/// One SHA-256 stream is bound by the latency of `sha256rnds2`: each round pair waits for the
/// previous one. `L` streams interleaved in one instruction sequence fill those waits, so a batch
/// of short messages hashes in about half the time (`docs/backends.md`, "Batch calls").
#[derive(Clone, Copy)]
pub struct Sha256Ni(());

impl Sha256Ni {
  pub fn detect() -> Option<Self> {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("sha") && std::arch::is_x86_feature_detected!("sse4.1") {
      return Some(Sha256Ni(()));
    }
    None
  }

  /// Compresses `blocks[i]` into `states[i]`, for every `i` (FIPS 180-4 §6.2.2).
  #[inline]
  pub fn compress<const L: usize>(self, states: [&mut [u32; 8]; L], blocks: [&[u8; 64]; L]) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `self` exists, so `detect` found SHA-NI and SSE4.1.
    unsafe {
      sha256_lanes(states, blocks)
    }
    #[cfg(not(target_arch = "x86_64"))]
    for (s, b) in states.into_iter().zip(blocks) {
      sha2::block_api::compress256(s, std::slice::from_ref(b));
    }
  }
}

/// The round constants of SHA-256 (FIPS 180-4 §4.2.2), four per `sha256rnds2` pair.
#[cfg(target_arch = "x86_64")]
const K256: [u32; 64] = [
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
];

/// The SHA-NI block function (the `sha2` crate's sequence, after Intel's reference code) with
/// every step done for each of the `L` lanes before the next step.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sha,sse4.1")]
fn sha256_lanes<const L: usize>(states: [&mut [u32; 8]; L], blocks: [&[u8; 64]; L]) {
  use std::arch::x86_64::*;
  let mut abef = [_mm_setzero_si128(); L];
  let mut cdgh = [_mm_setzero_si128(); L];
  let mut w = [[_mm_setzero_si128(); 4]; L];
  let mask = _mm_set_epi64x(0x0C0D_0E0F_0809_0A0B, 0x0405_0607_0001_0203);
  for l in 0..L {
    // SAFETY: unaligned 16-byte loads within the 32-byte state and the 64-byte block.
    let (dcba, hgfe, words) = unsafe {
      let s = states[l].as_ptr().cast::<__m128i>();
      let b = blocks[l].as_ptr().cast::<__m128i>();
      (
        _mm_loadu_si128(s),
        _mm_loadu_si128(s.add(1)),
        [0, 1, 2, 3].map(|i| _mm_shuffle_epi8(_mm_loadu_si128(b.add(i)), mask)),
      )
    };
    let cdab = _mm_shuffle_epi32(dcba, 0xB1);
    let efgh = _mm_shuffle_epi32(hgfe, 0x1B);
    abef[l] = _mm_alignr_epi8(cdab, efgh, 8);
    cdgh[l] = _mm_blend_epi16(efgh, cdab, 0xF0);
    w[l] = words;
  }
  let (abef0, cdgh0) = (abef, cdgh);
  for r in 0..16 {
    let k = _mm_set_epi32(
      K256[4 * r + 3] as i32,
      K256[4 * r + 2] as i32,
      K256[4 * r + 1] as i32,
      K256[4 * r] as i32,
    );
    let i = r % 4;
    for l in 0..L {
      if r >= 4 {
        // The message schedule: w[i] becomes the next four words.
        let w = &mut w[l];
        let t = _mm_add_epi32(
          _mm_sha256msg1_epu32(w[i], w[(i + 1) % 4]),
          _mm_alignr_epi8(w[(i + 3) % 4], w[(i + 2) % 4], 4),
        );
        w[i] = _mm_sha256msg2_epu32(t, w[(i + 3) % 4]);
      }
      let t = _mm_add_epi32(w[l][i], k);
      cdgh[l] = _mm_sha256rnds2_epu32(cdgh[l], abef[l], t);
      abef[l] = _mm_sha256rnds2_epu32(abef[l], cdgh[l], _mm_shuffle_epi32(t, 0x0E));
    }
  }
  for l in 0..L {
    let abef = _mm_add_epi32(abef[l], abef0[l]);
    let cdgh = _mm_add_epi32(cdgh[l], cdgh0[l]);
    let feba = _mm_shuffle_epi32(abef, 0x1B);
    let dchg = _mm_shuffle_epi32(cdgh, 0xB1);
    // SAFETY: unaligned 16-byte stores within the 32-byte state.
    unsafe {
      let s = states[l].as_mut_ptr().cast::<__m128i>();
      _mm_storeu_si128(s, _mm_blend_epi16(feba, dchg, 0xF0));
      _mm_storeu_si128(s.add(1), _mm_alignr_epi8(dchg, feba, 8));
    }
  }
}

#[cfg(test)]
mod tests {
  use super::*;

  #[test]
  fn lanes_equal_the_sha2_block_function() {
    let Some(ni) = Sha256Ni::detect() else {
      eprintln!("no SHA-NI here: the lanes are not checked");
      return;
    };
    let blocks: Vec<[u8; 64]> = (0..4u8)
      .map(|i| [i.wrapping_mul(37).wrapping_add(1); 64])
      .collect();
    let mut want = [[0x1234_5678u32; 8]; 4];
    for (s, b) in want.iter_mut().zip(&blocks) {
      sha2::block_api::compress256(s, std::slice::from_ref(b));
    }
    let [mut a, mut b, mut c, mut d] = [[0x1234_5678u32; 8]; 4];
    ni.compress([&mut a], [&blocks[0]]);
    assert_eq!(a, want[0]);
    let mut a = [0x1234_5678u32; 8];
    ni.compress([&mut a, &mut b], [&blocks[0], &blocks[1]]);
    assert_eq!([a, b], [want[0], want[1]]);
    let [mut a, mut b] = [[0x1234_5678u32; 8]; 2];
    ni.compress(
      [&mut a, &mut b, &mut c, &mut d],
      [&blocks[0], &blocks[1], &blocks[2], &blocks[3]],
    );
    assert_eq!([a, b, c, d], want);
  }
}
