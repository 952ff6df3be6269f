//! The Blowfish round index of bcrypt, and the entry point that compiles bcrypt for the fastest
//! one.

#[cfg(target_arch = "x86_64")]
use super::cpu_vendor;
use super::Baseline;

/// How a Blowfish round extracts the byte `(x >> 16) & 0xff` of a word to index S-box 1. The
/// other three indices take one instruction each on x86-64 (`shr 24`, `movzx` of the low and of
/// the second-lowest byte); this one takes a shift and a mask, and it is on the critical path of
/// the round, which bounds bcrypt (`crate::kdf::blowfish`). Implemented by [`Baseline`] (shift
/// and mask) and [`Bmi1`] (one `bextr`).
pub trait BlowfishIndex: Copy {
  fn byte2(self, x: u32) -> u8;
}

impl BlowfishIndex for Baseline {
  #[inline(always)]
  fn byte2(self, x: u32) -> u8 {
    (x >> 16) as u8
  }
}

/// `bextr` for the Blowfish index; a value exists only on an AMD (or Hygon) CPU with BMI1. There
/// `bextr` is one µop of latency 1, and bcrypt ran 7 % faster with it (Zen 3, cost 10). On Intel
/// cores it is two µops (uops.info), no shorter than the shift and mask, and it was not measured
/// there: they keep [`Baseline`].
#[derive(Clone, Copy)]
pub struct Bmi1(());

impl Bmi1 {
  pub fn detect() -> Option<Self> {
    #[cfg(target_arch = "x86_64")]
    {
      static FAST_BEXTR: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
      let fast = *FAST_BEXTR.get_or_init(|| {
        let vendor = cpu_vendor();
        (&vendor == b"AuthenticAMD" || &vendor == b"HygonGenuine")
          && std::arch::is_x86_feature_detected!("bmi1")
      });
      if fast {
        return Some(Bmi1(()));
      }
    }
    None
  }
}

impl BlowfishIndex for Bmi1 {
  #[inline(always)]
  fn byte2(self, x: u32) -> u8 {
    #[cfg(target_arch = "x86_64")]
    // `_bextr_u32` is a safe function in newer Rust releases, unsafe in older ones.
    #[allow(unused_unsafe)]
    // SAFETY: `self` exists, so `detect` found BMI1.
    let b = unsafe { std::arch::x86_64::_bextr_u32(x, 16, 8) } as u8;
    #[cfg(not(target_arch = "x86_64"))]
    let b = (x >> 16) as u8;
    b
  }
}

/// Work over a Blowfish round index (bcrypt's EksBlowfish), run by [`with_blowfish_index`].
pub trait BlowfishWork {
  type Output;
  /// The work with `ix`. Mark it `#[inline(always)]`: it is compiled into the caller's frame,
  /// which has the index's feature enabled.
  fn run<I: BlowfishIndex>(self, ix: I) -> Self::Output;
}

/// Runs `work` with the fastest [`BlowfishIndex`] this CPU has, compiled with its feature
/// enabled so `bextr` inlines.
pub fn with_blowfish_index<W: BlowfishWork>(work: W) -> W::Output {
  #[cfg(target_arch = "x86_64")]
  if let Some(ix) = Bmi1::detect() {
    // SAFETY: `ix` proves the CPU has the feature `run_bmi1` is compiled for.
    return unsafe { run_bmi1(work, ix) };
  }
  work.run(Baseline)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi1")]
fn run_bmi1<W: BlowfishWork>(work: W, ix: Bmi1) -> W::Output {
  work.run(ix)
}
