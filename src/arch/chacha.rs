//! ChaCha20 over 16 blocks at a time (AVX-512F) and Poly1305 over 8 blocks at a time (AVX-512
//! IFMA), the two loops of the ChaCha20-Poly1305 AEAD in `cipher/chacha.rs`, which holds the
//! construction, the scalar Poly1305 and the choice of when to use them.

/// The AVX-512 ChaCha20 and IFMA Poly1305 loops; a value exists only on a CPU with AVX-512F,
/// AVX-512VL and AVX-512 IFMA.
#[derive(Clone, Copy)]
pub struct ChaChaIfma(Proof);

/// What a CPU-feature token holds: nothing on x86-64; elsewhere a type without values.
#[cfg(target_arch = "x86_64")]
type Proof = ();
#[cfg(not(target_arch = "x86_64"))]
#[derive(Clone, Copy)]
pub enum Proof {}

/// Poly1305 key powers for [`ChaChaIfma::poly1305_blocks`], in radix 2^44 (limbs of 44, 44 and
/// 42 bits): `r8` is r^8 as `[r0, r1, r2, 20·r1, 20·r2]`, and `last[k][j]` is limb k of
/// r^(8-j) in the same order, the multiplier of lane j in a call's last step.
pub struct PolyPowers {
  pub r8: [u64; 5],
  pub last: [[u64; 8]; 5],
}

// Off x86-64 no value exists, and the methods' arguments go unread.
#[cfg_attr(not(target_arch = "x86_64"), allow(unused_variables))]
impl ChaChaIfma {
  pub fn detect() -> Option<Self> {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx512f")
      && std::arch::is_x86_feature_detected!("avx512vl")
      && std::arch::is_x86_feature_detected!("avx512ifma")
    {
      return Some(ChaChaIfma(()));
    }
    None
  }

  /// `out = input XOR` the ChaCha20 keystream (RFC 8439) of `key` and `nonce` (as little-endian
  /// words) from block `counter` on; with `input` `None`, `out` is encrypted in place. Panics
  /// unless the lengths are equal and the block counter stays below 2^32 (the caller bounds the
  /// message length).
  pub fn xor(
    self,
    key: &[u32; 8],
    nonce: &[u32; 3],
    counter: u32,
    input: Option<&[u8]>,
    out: &mut [u8],
  ) {
    let src = input.map_or(out.as_ptr(), |i| {
      assert_eq!(i.len(), out.len());
      i.as_ptr()
    });
    let blocks = out.len().div_ceil(64) as u64;
    assert!(
      u64::from(counter) + blocks <= 1 << 32,
      "ChaCha20 block counter"
    );
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `self` exists, so the CPU has AVX-512F; `src` is `input` (a `&` of the same length,
    // which never overlaps the `&mut` `out`) or `out` itself, which `chacha20_xor` allows.
    unsafe {
      chacha20_xor(key, nonce, counter, src, out.as_mut_ptr(), out.len())
    }
    #[cfg(not(target_arch = "x86_64"))]
    match self.0 {}
  }

  /// Absorbs `data`, whole 16-byte blocks each with the 2^128 bit set (RFC 8439's padded AEAD
  /// input), into the Poly1305 accumulator `h` (radix 2^44, each limb below 2^50). Panics
  /// unless `data` is a non-empty multiple of 128 bytes. On return every limb of `h` is below
  /// 2^45.
  pub fn poly1305_blocks(self, h: &mut [u64; 3], powers: &PolyPowers, data: &[u8]) {
    assert!(!data.is_empty() && data.len().is_multiple_of(128));
    assert!(h.iter().all(|&l| l < 1 << 50));
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `self` exists, so the CPU has AVX-512F, AVX-512VL and AVX-512 IFMA; `data` is a
    // multiple of 128 bytes (checked above).
    unsafe {
      poly1305_ifma(h, powers, data)
    }
    #[cfg(not(target_arch = "x86_64"))]
    match self.0 {}
  }
}

#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

/// The 16 ChaCha20 states of blocks `counter..counter + 16` after the 20 rounds and the final
/// addition, one word per vector (lane j is block `counter + j`). The caller has AVX-512F.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn chacha20_16(key: &[u32; 8], nonce: &[u32; 3], counter: u32) -> [__m512i; 16] {
  let init: [__m512i; 16] = [
    _mm512_set1_epi32(0x6170_7865),
    _mm512_set1_epi32(0x3320_646e),
    _mm512_set1_epi32(0x7962_2d32),
    _mm512_set1_epi32(0x6b20_6574),
    _mm512_set1_epi32(key[0] as i32),
    _mm512_set1_epi32(key[1] as i32),
    _mm512_set1_epi32(key[2] as i32),
    _mm512_set1_epi32(key[3] as i32),
    _mm512_set1_epi32(key[4] as i32),
    _mm512_set1_epi32(key[5] as i32),
    _mm512_set1_epi32(key[6] as i32),
    _mm512_set1_epi32(key[7] as i32),
    _mm512_add_epi32(
      _mm512_set1_epi32(counter as i32),
      _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
    ),
    _mm512_set1_epi32(nonce[0] as i32),
    _mm512_set1_epi32(nonce[1] as i32),
    _mm512_set1_epi32(nonce[2] as i32),
  ];
  let mut x = init;
  macro_rules! qr {
    ($a:expr, $b:expr, $c:expr, $d:expr) => {
      x[$a] = _mm512_add_epi32(x[$a], x[$b]);
      x[$d] = _mm512_rol_epi32::<16>(_mm512_xor_si512(x[$d], x[$a]));
      x[$c] = _mm512_add_epi32(x[$c], x[$d]);
      x[$b] = _mm512_rol_epi32::<12>(_mm512_xor_si512(x[$b], x[$c]));
      x[$a] = _mm512_add_epi32(x[$a], x[$b]);
      x[$d] = _mm512_rol_epi32::<8>(_mm512_xor_si512(x[$d], x[$a]));
      x[$c] = _mm512_add_epi32(x[$c], x[$d]);
      x[$b] = _mm512_rol_epi32::<7>(_mm512_xor_si512(x[$b], x[$c]));
    };
  }
  for _ in 0..10 {
    qr!(0, 4, 8, 12);
    qr!(1, 5, 9, 13);
    qr!(2, 6, 10, 14);
    qr!(3, 7, 11, 15);
    qr!(0, 5, 10, 15);
    qr!(1, 6, 11, 12);
    qr!(2, 7, 8, 13);
    qr!(3, 4, 9, 14);
  }
  for (v, i) in x.iter_mut().zip(init) {
    *v = _mm512_add_epi32(*v, i);
  }
  x
}

/// The 16 states of [`chacha20_16`] (word-major) as 16 consecutive 64-byte blocks: vector k of
/// the result is block k. Two 32/64-bit unpack steps gather 4 words of a block per 128-bit lane,
/// then two 128-bit shuffle steps gather a block's 4 lanes.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn transpose(x: [__m512i; 16]) -> [__m512i; 16] {
  // y[4g + r]: lane k holds words 4g..4g+3 of block 4k + r.
  let mut y = [_mm512_setzero_si512(); 16];
  for g in 0..4 {
    let [a, b, c, d] = [x[4 * g], x[4 * g + 1], x[4 * g + 2], x[4 * g + 3]];
    let (t0, t1) = (_mm512_unpacklo_epi32(a, b), _mm512_unpackhi_epi32(a, b));
    let (t2, t3) = (_mm512_unpacklo_epi32(c, d), _mm512_unpackhi_epi32(c, d));
    y[4 * g] = _mm512_unpacklo_epi64(t0, t2);
    y[4 * g + 1] = _mm512_unpackhi_epi64(t0, t2);
    y[4 * g + 2] = _mm512_unpacklo_epi64(t1, t3);
    y[4 * g + 3] = _mm512_unpackhi_epi64(t1, t3);
  }
  let mut out = [_mm512_setzero_si512(); 16];
  for r in 0..4 {
    let [a, b, c, d] = [y[r], y[4 + r], y[8 + r], y[12 + r]];
    let p = _mm512_shuffle_i32x4::<0b01_00_01_00>(a, b); // a0 a1 b0 b1
    let q = _mm512_shuffle_i32x4::<0b01_00_01_00>(c, d); // c0 c1 d0 d1
    let s = _mm512_shuffle_i32x4::<0b11_10_11_10>(a, b); // a2 a3 b2 b3
    let t = _mm512_shuffle_i32x4::<0b11_10_11_10>(c, d); // c2 c3 d2 d3
    out[r] = _mm512_shuffle_i32x4::<0b10_00_10_00>(p, q); // a0 b0 c0 d0
    out[4 + r] = _mm512_shuffle_i32x4::<0b11_01_11_01>(p, q);
    out[8 + r] = _mm512_shuffle_i32x4::<0b10_00_10_00>(s, t);
    out[12 + r] = _mm512_shuffle_i32x4::<0b11_01_11_01>(s, t);
  }
  out
}

/// # Safety
/// The CPU has AVX-512F; `src` and `dst` are valid for `len` bytes, and either the same pointer
/// or not overlapping (each 64-byte block is loaded before its result is stored).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn chacha20_xor(
  key: &[u32; 8],
  nonce: &[u32; 3],
  mut counter: u32,
  src: *const u8,
  dst: *mut u8,
  len: usize,
) {
  let mut at = 0;
  while len - at >= 1024 {
    let ks = transpose(chacha20_16(key, nonce, counter));
    for (k, block) in ks.iter().enumerate() {
      // SAFETY: bytes at..at + 1024 are in bounds (the loop condition); unaligned accesses.
      unsafe {
        let m = _mm512_loadu_si512(src.add(at + 64 * k).cast());
        _mm512_storeu_si512(dst.add(at + 64 * k).cast(), _mm512_xor_si512(m, *block));
      }
    }
    counter = counter.wrapping_add(16);
    at += 1024;
  }
  if at < len {
    let mut ks = [0u8; 1024];
    for (k, block) in transpose(chacha20_16(key, nonce, counter))
      .iter()
      .enumerate()
    {
      // SAFETY: bytes 64k..64k+64 of the 1024-byte buffer, for k < 16.
      unsafe { _mm512_storeu_si512(ks.as_mut_ptr().add(64 * k).cast(), *block) };
    }
    for (i, k) in ks.iter().enumerate().take(len - at) {
      // SAFETY: at + i < len; a byte is read before the same byte is written.
      unsafe { *dst.add(at + i) = *src.add(at + i) ^ k };
    }
    zeroize::Zeroize::zeroize(&mut ks);
  }
}

/// # Safety
/// The CPU has AVX-512F, AVX-512VL and AVX-512 IFMA; `data` is a multiple of 128 bytes.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vl,avx512ifma")]
unsafe fn poly1305_ifma(h: &mut [u64; 3], powers: &PolyPowers, data: &[u8]) {
  let m44 = _mm512_set1_epi64((1 << 44) - 1);
  let m42 = _mm512_set1_epi64((1 << 42) - 1);
  let pad = _mm512_set1_epi64(1 << 40);
  let zero = _mm512_setzero_si512();
  // Block j's two 64-bit halves from the two 64-byte loads (blocks 0-3 and 4-7).
  let even = _mm512_setr_epi64(0, 2, 4, 6, 8, 10, 12, 14);
  let odd = _mm512_setr_epi64(1, 3, 5, 7, 9, 11, 13, 15);
  let bcast = |v: u64| _mm512_set1_epi64(v as i64);
  let r8 = powers.r8.map(bcast);
  // SAFETY: each row of `last` is 8 u64s, one unaligned 64-byte load.
  let last = powers
    .last
    .map(|row| unsafe { _mm512_loadu_si512(row.as_ptr().cast()) });

  // The accumulator of lane j: lane 0 starts from `h`, the others from zero.
  let first = |v: u64| _mm512_mask_set1_epi64(zero, 1, v as i64);
  let (mut h0, mut h1, mut h2) = (first(h[0]), first(h[1]), first(h[2]));

  let groups = data.len() / 128;
  for (n, group) in data.chunks_exact(128).enumerate() {
    // SAFETY: `group` is 128 bytes: two unaligned 64-byte loads.
    let (a, b) = unsafe {
      (
        _mm512_loadu_si512(group.as_ptr().cast()),
        _mm512_loadu_si512(group.as_ptr().add(64).cast()),
      )
    };
    let lo = _mm512_permutex2var_epi64(a, even, b);
    let hi = _mm512_permutex2var_epi64(a, odd, b);
    h0 = _mm512_add_epi64(h0, _mm512_and_si512(lo, m44));
    h1 = _mm512_add_epi64(
      h1,
      _mm512_and_si512(
        _mm512_or_si512(_mm512_srli_epi64::<44>(lo), _mm512_slli_epi64::<20>(hi)),
        m44,
      ),
    );
    h2 = _mm512_add_epi64(h2, _mm512_or_si512(_mm512_srli_epi64::<24>(hi), pad));
    let r = if n + 1 == groups { &last } else { &r8 };
    // h · r mod 2^130 - 5, limbs at 2^0, 2^44, 2^88; 2^132 ≡ 20, so the limbs of h·r that land
    // at or above 2^132 are taken with 20·r1 and 20·r2. Each product splits into its low 52
    // bits (`lo`) and the bits above (`hi`, worth 2^52 more).
    let [r0, r1, r2, s1, s2] = *r;
    let mul = |a: [__m512i; 3], b: [__m512i; 3]| {
      let lo = _mm512_madd52lo_epu64(
        _mm512_madd52lo_epu64(_mm512_madd52lo_epu64(zero, a[0], b[0]), a[1], b[1]),
        a[2],
        b[2],
      );
      let hi = _mm512_madd52hi_epu64(
        _mm512_madd52hi_epu64(_mm512_madd52hi_epu64(zero, a[0], b[0]), a[1], b[1]),
        a[2],
        b[2],
      );
      (lo, hi)
    };
    let (l0, u0) = mul([h0, h1, h2], [r0, s2, s1]);
    let (l1, u1) = mul([h0, h1, h2], [r1, r0, s2]);
    let (l2, u2) = mul([h0, h1, h2], [r2, r1, r0]);
    // A `hi` of limb k is worth 2^(44k + 52): 2^8 in limb k + 1, and for k = 2, 2^140 ≡ 5·2^10.
    let u2 = _mm512_add_epi64(_mm512_slli_epi64::<12>(u2), _mm512_slli_epi64::<10>(u2));
    let mut d0 = _mm512_add_epi64(l0, u2);
    let mut d1 = _mm512_add_epi64(l1, _mm512_slli_epi64::<8>(u0));
    let mut d2 = _mm512_add_epi64(l2, _mm512_slli_epi64::<8>(u1));
    d1 = _mm512_add_epi64(d1, _mm512_srli_epi64::<44>(d0));
    d0 = _mm512_and_si512(d0, m44);
    d2 = _mm512_add_epi64(d2, _mm512_srli_epi64::<44>(d1));
    d1 = _mm512_and_si512(d1, m44);
    let c = _mm512_srli_epi64::<42>(d2);
    d2 = _mm512_and_si512(d2, m42);
    d0 = _mm512_add_epi64(d0, _mm512_add_epi64(c, _mm512_slli_epi64::<2>(c)));
    d1 = _mm512_add_epi64(d1, _mm512_srli_epi64::<44>(d0));
    d0 = _mm512_and_si512(d0, m44);
    (h0, h1, h2) = (d0, d1, d2);
  }
  // The lanes' sum (each limb below 2^45, so the sums stay below 2^48), carried once.
  let (mut s0, mut s1, mut s2) = (
    _mm512_reduce_add_epi64(h0) as u64,
    _mm512_reduce_add_epi64(h1) as u64,
    _mm512_reduce_add_epi64(h2) as u64,
  );
  s1 += s0 >> 44;
  s0 &= (1 << 44) - 1;
  s2 += s1 >> 44;
  s1 &= (1 << 44) - 1;
  s0 += (s2 >> 42) * 5;
  s2 &= (1 << 42) - 1;
  s1 += s0 >> 44;
  s0 &= (1 << 44) - 1;
  *h = [s0, s1, s2];
}
