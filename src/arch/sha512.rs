//! The SHA-512 block function in AVX2 + BMI2 inline assembly.

/// The SHA-512 block function of OpenSSL's `sha512_block_data_order_avx2` design (Intel, "Fast
/// SHA-512 Implementations on Intel Architecture Processors"); a value exists only on a CPU
/// with AVX2, BMI1 and BMI2, in an optimised build (`build.rs` sets `sha512_asm`: unoptimised,
/// the assembly's operands do not fit in the registers left beside the frame pointer).
///
/// Blocks go in pairs: the message schedule of both (the first block in the low 128-bit lane of
/// each `ymm` register, the second in the high lane) is computed with AVX2, interleaved with the
/// first block's rounds, into a stack buffer of W + K; the second block's rounds then only read
/// it. The rounds are scalar: BMI2's `rorx` rotates without a copy, BMI1's `andn` gives Ch's
/// `!e & g` in one instruction. On AMD the vector schedule runs on the floating-point pipes,
/// beside the integer rounds. Rounds and schedule are inline assembly, for the instruction order
/// (OpenSSL's round, the schedule spread among the rounds' instructions), which LLVM does not
/// keep: from the same operations in Rust it made a loop 10 % slower.
#[derive(Clone, Copy)]
pub struct Sha512Avx2(());

impl Sha512Avx2 {
  pub fn detect() -> Option<Self> {
    #[cfg(all(target_arch = "x86_64", sha512_asm))]
    if std::arch::is_x86_feature_detected!("avx2")
      && std::arch::is_x86_feature_detected!("bmi1")
      && std::arch::is_x86_feature_detected!("bmi2")
    {
      return Some(Sha512Avx2(()));
    }
    None
  }

  /// Compresses `blocks` into `state`, in order (FIPS 180-4 §6.4.2).
  #[inline]
  pub fn compress(self, state: &mut [u64; 8], blocks: &[[u8; 128]]) {
    #[cfg(all(target_arch = "x86_64", sha512_asm))]
    // SAFETY: `self` exists, so `detect` found AVX2, BMI1 and BMI2.
    unsafe {
      sha512_avx2(state, blocks)
    }
    #[cfg(not(all(target_arch = "x86_64", sha512_asm)))]
    sha2::block_api::compress512(state, blocks);
  }
}

/// The round constants of SHA-512 (FIPS 180-4 §4.2.3).
#[cfg(all(target_arch = "x86_64", sha512_asm))]
const K512: [u64; 80] = [
  0x428a2f98d728ae22,
  0x7137449123ef65cd,
  0xb5c0fbcfec4d3b2f,
  0xe9b5dba58189dbbc,
  0x3956c25bf348b538,
  0x59f111f1b605d019,
  0x923f82a4af194f9b,
  0xab1c5ed5da6d8118,
  0xd807aa98a3030242,
  0x12835b0145706fbe,
  0x243185be4ee4b28c,
  0x550c7dc3d5ffb4e2,
  0x72be5d74f27b896f,
  0x80deb1fe3b1696b1,
  0x9bdc06a725c71235,
  0xc19bf174cf692694,
  0xe49b69c19ef14ad2,
  0xefbe4786384f25e3,
  0x0fc19dc68b8cd5b5,
  0x240ca1cc77ac9c65,
  0x2de92c6f592b0275,
  0x4a7484aa6ea6e483,
  0x5cb0a9dcbd41fbd4,
  0x76f988da831153b5,
  0x983e5152ee66dfab,
  0xa831c66d2db43210,
  0xb00327c898fb213f,
  0xbf597fc7beef0ee4,
  0xc6e00bf33da88fc2,
  0xd5a79147930aa725,
  0x06ca6351e003826f,
  0x142929670a0e6e70,
  0x27b70a8546d22ffc,
  0x2e1b21385c26c926,
  0x4d2c6dfc5ac42aed,
  0x53380d139d95b3df,
  0x650a73548baf63de,
  0x766a0abb3c77b2a8,
  0x81c2c92e47edaee6,
  0x92722c851482353b,
  0xa2bfe8a14cf10364,
  0xa81a664bbc423001,
  0xc24b8b70d0f89791,
  0xc76c51a30654be30,
  0xd192e819d6ef5218,
  0xd69906245565a910,
  0xf40e35855771202a,
  0x106aa07032bbd1b8,
  0x19a4c116b8d2d0c8,
  0x1e376c085141ab53,
  0x2748774cdf8eeb99,
  0x34b0bcb5e19b48a8,
  0x391c0cb3c5c95a63,
  0x4ed8aa4ae3418acb,
  0x5b9cca4f7763e373,
  0x682e6ff3d6b2b8a3,
  0x748f82ee5defb2fc,
  0x78a5636f43172f60,
  0x84c87814a1f0ab72,
  0x8cc702081a6439ec,
  0x90befffa23631e28,
  0xa4506cebde82bde9,
  0xbef9a3f7b2c67915,
  0xc67178f2e372532b,
  0xca273eceea26619c,
  0xd186b8c721c0c207,
  0xeada7dd6cde0eb1e,
  0xf57d4f7fee6ed178,
  0x06f067aa72176fba,
  0x0a637dc5a2c898a6,
  0x113f9804bef90dae,
  0x1b710b35131c471b,
  0x28db77f523047d84,
  0x32caab7b40c72493,
  0x3c9ebe0a15c9bebc,
  0x431d67c49c100d4c,
  0x4cc5d4becb3e42b6,
  0x597f299cfc657e2a,
  0x5fcb6fab3ad6faec,
  0x6c44198c4a475817,
];

/// K of FIPS 180-4 §4.2.3 in the layout of the schedule: entry `t / 2` holds K[t], K[t + 1] twice
/// (one pair per 128-bit lane), so the vector schedule adds it with one full-width load.
#[cfg(all(target_arch = "x86_64", sha512_asm))]
#[repr(C, align(32))]
struct K512Lanes([[u64; 4]; 40]);

#[cfg(all(target_arch = "x86_64", sha512_asm))]
static K512_LANES: K512Lanes = {
  let mut k = [[0; 4]; 40];
  let mut i = 0;
  while i < 40 {
    k[i] = [K512[2 * i], K512[2 * i + 1], K512[2 * i], K512[2 * i + 1]];
    i += 1;
  }
  K512Lanes(k)
};

/// W + K of two blocks: entry `t / 2` holds words `t` and `t + 1` of the first block, then of
/// the second (the layout of a `ymm` register whose low lane is the first block).
///
/// Aligned to 16 bytes, not 32: a 32-byte-aligned stack buffer makes LLVM keep a frame pointer,
/// and the rounds with the schedule need every other general-purpose register.
#[cfg(all(target_arch = "x86_64", sha512_asm))]
#[repr(C, align(16))]
struct Sha512Schedule([[u64; 4]; 40]);

#[cfg(all(target_arch = "x86_64", sha512_asm))]
#[target_feature(enable = "avx2,bmi1,bmi2")]
// The last round of a block leaves a ^ b, which no round reads.
#[allow(unused_assignments)]
fn sha512_avx2(state: &mut [u64; 8], blocks: &[[u8; 128]]) {
  use std::arch::x86_64::*;
  // Big-endian 64-bit words: each 8-byte half of a lane reversed.
  let swap = _mm256_set_epi64x(
    0x0809_0a0b_0c0d_0e0f,
    0x0001_0203_0405_0607,
    0x0809_0a0b_0c0d_0e0f,
    0x0001_0203_0405_0607,
  );
  // Each 64-bit word rotated right by 8 bits (a byte shuffle: one instruction, not three).
  let rot8 = _mm256_set_epi64x(
    0x080f_0e0d_0c0b_0a09,
    0x0007_0605_0403_0201,
    0x080f_0e0d_0c0b_0a09,
    0x0007_0605_0403_0201,
  );
  // The rounds are assembly, for their instruction order. OpenSSL's round (`sha512-x86_64.pl`,
  // its AVX2 + BMI2 body) against LLVM's code for the Rust round this replaces, rounds alone:
  // 866 -> 909 MB/s; with the schedule spread among the rounds' instructions (`step` below)
  // rather than placed by LLVM, the whole function 804 -> 889 MB/s at 64 KiB (Zen 4).
  //
  // One round (FIPS 180-4 §6.4.2 step 3), kw = K[t] + W[t] read at `[p + off]`. Ch is
  // `(e & f) + (!e & g)` (disjoint bits: + works as |), Maj `b ^ ((a ^ b) & (b ^ c))`. Registers
  // besides the working variables: `a1` holds Σ0 of the previous round's `a`, added to this
  // round's `a` (the previous round's T1 + Maj) at its start, which takes Σ0 off the path to
  // the next `e` (OpenSSL's "h += Sigma0(a) from the past"); the caller adds the last one after
  // round 79. `a3` holds b ^ c on entry; `a2` gets a ^ b, the next round's b ^ c. The new `e`
  // is written to `d`, the new `a` (less its Σ0) to `h`; the caller renames.
  macro_rules! round {
    ($a:ident $b:ident $c:ident $d:ident $e:ident $f:ident $g:ident $h:ident,
     $s0:ident, $bc:ident, $ab:ident, $p:expr, $off:expr) => {
      // SAFETY: reads the 8 bytes at `p + off`, inside the schedule (the caller's offsets are
      // below 40 * 32); writes only the named registers; BMI1 and BMI2 are enabled.
      unsafe {
        std::arch::asm!(
          "add {h}, qword ptr [{p} + {off}]",
          "mov {a4}, {f}",
          "and {a4}, {e}",
          "rorx {a0}, {e}, 41",
          "rorx {a2}, {e}, 18",
          "add {a}, {a1}",
          "add {h}, {a4}",
          "andn {a4}, {e}, {g}",
          "xor {a0}, {a2}",
          "rorx {a1}, {e}, 14",
          "add {h}, {a4}",
          "xor {a0}, {a1}",
          "mov {a2}, {a}",
          "rorx {a4}, {a}, 39",
          "add {h}, {a0}",
          "xor {a2}, {b}",
          "rorx {a1}, {a}, 34",
          "rorx {a0}, {a}, 28",
          "add {d}, {h}",
          "and {a3}, {a2}",
          "xor {a1}, {a4}",
          "xor {a3}, {b}",
          "xor {a1}, {a0}",
          "add {h}, {a3}",
          a = inout(reg) $a, b = in(reg) $b, e = in(reg) $e, f = in(reg) $f, g = in(reg) $g,
          d = inout(reg) $d, h = inout(reg) $h, a1 = inout(reg) $s0,
          a3 = inout(reg) $bc => _, a2 = out(reg) $ab,
          a0 = out(reg) _, a4 = out(reg) _,
          p = in(reg) $p, off = const $off,
          options(pure, readonly, nostack)
        );
      }
    };
  }
  let mut w = Sha512Schedule([[0; 4]; 40]);
  for pair in blocks.chunks(2) {
    let (first, second) = (&pair[0], pair.get(1));
    // A lone block is loaded into both lanes; its second lane's rounds are not run.
    let high = second.unwrap_or(first);
    let mut x = [_mm256_setzero_si256(); 8];
    for (j, x) in x.iter_mut().enumerate() {
      // SAFETY: unaligned 16-byte loads within the 128-byte blocks (j < 8); an aligned 32-byte
      // load of entry j < 40 of `K512_LANES`; an unaligned 32-byte store to entry j of the
      // schedule.
      unsafe {
        let lo = _mm_loadu_si128(first.as_ptr().add(16 * j).cast());
        let hi = _mm_loadu_si128(high.as_ptr().add(16 * j).cast());
        *x = _mm256_shuffle_epi8(_mm256_set_m128i(hi, lo), swap);
        let k = _mm256_load_si256(K512_LANES.0[j].as_ptr().cast());
        _mm256_storeu_si256(w.0[j].as_mut_ptr().cast(), _mm256_add_epi64(*x, k));
      }
    }
    let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = *state;
    let (mut s0, mut bc, mut ab): (u64, u64, u64) = (0, b ^ c, 0);
    let wp = w.0.as_mut_ptr().cast::<u64>();
    // Rounds 16r + 2j and + 1 of the first block (`$wp` = entry 8r of the schedule) and, spread
    // among their instructions (indented), words 16 (r + 1) + 2j and + 1 of both blocks, to
    // entry 8 (r + 1) + j: W[t] = σ1(W[t-2]) + W[t-7] + σ0(W[t-15]) + W[t-16] (FIPS 180-4
    // §6.4.2 step 1), register x[j] holding W[t-16], W[t-15]; `$kp` = entry 8 (r + 1) of
    // `K512_LANES`. σ0 (FIPS 180-4 §4.1.3) of W[t-15], W[t-14] (`v0`, from x[j] and x[j + 1]):
    // ror 1 as a shift pair, ror 8 as a byte shuffle, shr 7; σ1 of x[j + 7]: ror 19, ror 61 as
    // shift pairs, shr 6; W[t-7], W[t-6] come from x[j + 4] and x[j + 5]. On AMD the vector work
    // runs on the floating-point pipes, beside the rounds'. The second round's `a3`/`a2` are the
    // first's `a2`/`a3`: b ^ c ends in `bc`. The schedule starts three instructions into the
    // first round, then one vector instruction every two or so scalar ones (measured: 1 % better
    // than from the first instruction; all of it in the first two thirds, 3 % worse).
    macro_rules! step {
      ($wp:expr, $kp:expr, $j:literal; $a:ident $b:ident $c:ident $d:ident $e:ident $f:ident $g:ident $h:ident) => {
        // SAFETY: reads the 16 bytes at `$wp + 32j` and writes the 32 at `$wp + 256 + 32j`,
        // inside the schedule (`$wp` is entry 8r, r < 4, j < 8); reads the 32 bytes at
        // `$kp + 32j`, inside `K512_LANES` (entry 8 (r + 1) + j < 40); writes only the named
        // registers; AVX2, BMI1 and BMI2 are enabled.
        unsafe {
          std::arch::asm!(
          "add {h}, qword ptr [{wp} + {o0}]",
          "mov {a4}, {f}",
          "and {a4}, {e}",
          "    vpalignr {v0}, {x1}, {x0}, 8",
          "rorx {a0}, {e}, 41",
          "rorx {a2}, {e}, 18",
          "add {a}, {a1}",
          "    vpalignr {v3}, {x5}, {x4}, 8",
          "add {h}, {a4}",
          "andn {a4}, {e}, {g}",
          "    vpaddq {x0}, {x0}, {v3}",
          "xor {a0}, {a2}",
          "rorx {a1}, {e}, 14",
          "    vpsrlq {v1}, {v0}, 1",
          "add {h}, {a4}",
          "xor {a0}, {a1}",
          "    vpsllq {v2}, {v0}, 63",
          "mov {a2}, {a}",
          "rorx {a4}, {a}, 39",
          "    vpor {v1}, {v1}, {v2}",
          "add {h}, {a0}",
          "xor {a2}, {b}",
          "    vpshufb {v2}, {v0}, {rot8}",
          "rorx {a1}, {a}, 34",
          "rorx {a0}, {a}, 28",
          "    vpxor {v1}, {v1}, {v2}",
          "add {d}, {h}",
          "and {a3}, {a2}",
          "    vpsrlq {v0}, {v0}, 7",
          "xor {a1}, {a4}",
          "xor {a3}, {b}",
          "    vpxor {v1}, {v1}, {v0}",
          "xor {a1}, {a0}",
          "add {h}, {a3}",
          "    vpaddq {x0}, {x0}, {v1}",
          "add {g}, qword ptr [{wp} + {o1}]",
          "mov {a4}, {e}",
          "    vpsrlq {v1}, {x7}, 19",
          "and {a4}, {d}",
          "rorx {a0}, {d}, 41",
          "rorx {a3}, {d}, 18",
          "    vpsllq {v2}, {x7}, 45",
          "add {h}, {a1}",
          "add {g}, {a4}",
          "    vpor {v1}, {v1}, {v2}",
          "andn {a4}, {d}, {f}",
          "xor {a0}, {a3}",
          "    vpsrlq {v2}, {x7}, 61",
          "rorx {a1}, {d}, 14",
          "add {g}, {a4}",
          "    vpsllq {v3}, {x7}, 3",
          "xor {a0}, {a1}",
          "mov {a3}, {h}",
          "    vpor {v2}, {v2}, {v3}",
          "rorx {a4}, {h}, 39",
          "add {g}, {a0}",
          "    vpxor {v1}, {v1}, {v2}",
          "xor {a3}, {a}",
          "rorx {a1}, {h}, 34",
          "    vpsrlq {v2}, {x7}, 6",
          "rorx {a0}, {h}, 28",
          "add {c}, {g}",
          "    vpxor {v1}, {v1}, {v2}",
          "and {a2}, {a3}",
          "xor {a1}, {a4}",
          "    vpaddq {x0}, {x0}, {v1}",
          "xor {a2}, {a}",
          "xor {a1}, {a0}",
          "    vpaddq {v0}, {x0}, ymmword ptr [{kp} + {o0}]",
          "add {g}, {a2}",
          "    vmovdqu ymmword ptr [{wp} + {os}], {v0}",
            a = inout(reg) $a, b = in(reg) $b, c = inout(reg) $c, d = inout(reg) $d,
            e = in(reg) $e, f = in(reg) $f, g = inout(reg) $g, h = inout(reg) $h,
            a1 = inout(reg) s0, a3 = inout(reg) bc,
            a0 = out(reg) _, a2 = out(reg) _, a4 = out(reg) _,
            wp = in(reg) $wp, kp = in(reg) $kp,
            o0 = const 32 * $j, o1 = const 32 * $j + 8, os = const 256 + 32 * $j,
            x0 = inout(ymm_reg) x[$j], x1 = in(ymm_reg) x[($j + 1) % 8],
            x4 = in(ymm_reg) x[($j + 4) % 8], x5 = in(ymm_reg) x[($j + 5) % 8],
            x7 = in(ymm_reg) x[($j + 7) % 8], rot8 = in(ymm_reg) rot8,
            v0 = out(ymm_reg) _, v1 = out(ymm_reg) _, v2 = out(ymm_reg) _, v3 = out(ymm_reg) _,
            options(nostack)
          );
        }
      };
    }
    // Rounds 0..64 of the first block with words 16..80 of both. A loop: unrolled, the code is
    // four times larger for no gain.
    for r in 0..4 {
      // SAFETY: entry 8r < 40 of the schedule.
      let wr = unsafe { wp.add(32 * r) };
      let kr = K512_LANES.0[8 * (r + 1)..].as_ptr();
      step!(wr, kr, 0; a b c d e f g h);
      step!(wr, kr, 1; g h a b c d e f);
      step!(wr, kr, 2; e f g h a b c d);
      step!(wr, kr, 3; c d e f g h a b);
      step!(wr, kr, 4; a b c d e f g h);
      step!(wr, kr, 5; g h a b c d e f);
      step!(wr, kr, 6; e f g h a b c d);
      step!(wr, kr, 7; c d e f g h a b);
    }
    // Sixteen rounds from entry `$at` of the schedule, lane words `$l` and `$l + 1`.
    macro_rules! rounds16 {
      ($at:expr, $l:literal) => {
        round!(a b c d e f g h, s0, bc, ab, wp, 8 * (4 * $at + $l));
        round!(h a b c d e f g, s0, ab, bc, wp, 8 * (4 * $at + $l + 1));
        round!(g h a b c d e f, s0, bc, ab, wp, 8 * (4 * ($at + 1) + $l));
        round!(f g h a b c d e, s0, ab, bc, wp, 8 * (4 * ($at + 1) + $l + 1));
        round!(e f g h a b c d, s0, bc, ab, wp, 8 * (4 * ($at + 2) + $l));
        round!(d e f g h a b c, s0, ab, bc, wp, 8 * (4 * ($at + 2) + $l + 1));
        round!(c d e f g h a b, s0, bc, ab, wp, 8 * (4 * ($at + 3) + $l));
        round!(b c d e f g h a, s0, ab, bc, wp, 8 * (4 * ($at + 3) + $l + 1));
        round!(a b c d e f g h, s0, bc, ab, wp, 8 * (4 * ($at + 4) + $l));
        round!(h a b c d e f g, s0, ab, bc, wp, 8 * (4 * ($at + 4) + $l + 1));
        round!(g h a b c d e f, s0, bc, ab, wp, 8 * (4 * ($at + 5) + $l));
        round!(f g h a b c d e, s0, ab, bc, wp, 8 * (4 * ($at + 5) + $l + 1));
        round!(e f g h a b c d, s0, bc, ab, wp, 8 * (4 * ($at + 6) + $l));
        round!(d e f g h a b c, s0, ab, bc, wp, 8 * (4 * ($at + 6) + $l + 1));
        round!(c d e f g h a b, s0, bc, ab, wp, 8 * (4 * ($at + 7) + $l));
        round!(b c d e f g h a, s0, ab, bc, wp, 8 * (4 * ($at + 7) + $l + 1));
      };
    }
    // Rounds 64..80 of the first block, then the second block's 80.
    rounds16!(32, 0);
    a = a.wrapping_add(s0);
    for (s, v) in state.iter_mut().zip([a, b, c, d, e, f, g, h]) {
      *s = s.wrapping_add(v);
    }
    if second.is_some() {
      [a, b, c, d, e, f, g, h] = *state;
      (s0, bc) = (0, b ^ c);
      rounds16!(0, 2);
      rounds16!(8, 2);
      rounds16!(16, 2);
      rounds16!(24, 2);
      rounds16!(32, 2);
      a = a.wrapping_add(s0);
      for (s, v) in state.iter_mut().zip([a, b, c, d, e, f, g, h]) {
        *s = s.wrapping_add(v);
      }
    }
  }
}
