use std::fmt::Write as _;

fn main() {
  napi_build::setup();
  // The SHA-512 kernel's inline assembly (src/arch/sha512.rs `Sha512Avx2`) takes every general-purpose
  // register, which a build that keeps a frame pointer does not leave: an unoptimised build, a
  // build for Apple's targets (their ABI keeps one in every function), one with
  // `-C force-frame-pointers`, or one instrumented for libFuzzer (its stack-depth tracking keeps
  // one too: `scripts/fuzz.mjs`). It is compiled only where the register is free; elsewhere the
  // `sha2` crate's block function runs.
  println!("cargo::rustc-check-cfg=cfg(sha512_asm)");
  println!("cargo::rerun-if-env-changed=OPT_LEVEL");
  println!("cargo::rerun-if-env-changed=CARGO_ENCODED_RUSTFLAGS");
  let env = |name: &str| std::env::var(name).unwrap_or_default();
  let optimised = !matches!(env("OPT_LEVEL").as_str(), "" | "0");
  let apple = env("CARGO_CFG_TARGET_VENDOR") == "apple";
  let flags = env("CARGO_ENCODED_RUSTFLAGS");
  let instrumented = flags.contains("sanitizer-coverage");
  let forced = flags.split('\x1f').any(|flag| {
    flag.contains("force-frame-pointers")
      && !["=no", "=n", "=off", "=false"]
        .iter()
        .any(|off| flag.ends_with(off))
  });
  if optimised && !apple && !forced && !instrumented {
    println!("cargo::rustc-cfg=sha512_asm");
  }
  // Its own path as cargo gave it (`build.rs`, or the absolute path the fuzz build's copy of the
  // manifest names): a path that does not exist would rerun the script on every build.
  println!("cargo::rerun-if-changed={}", file!());
  let out = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
  std::fs::write(format!("{out}/keccak_x86_64.rs"), keccak_x86_64()).expect("OUT_DIR is writable");
}

/// The Keccak sponge's absorbing loop for x86-64 with BMI1 and BMI2, as a `keccak_absorb_asm!`
/// macro over one `asm!` block (included by src/arch/keccak.rs, which documents the interface). Written
/// out here from FIPS 202 §3.2 rather than by hand: 2 × 24 rounds of 25 lanes each, every index
/// and rotation computed below.
///
/// A round reads the state from one buffer and writes it to the other (the caller's state and a
/// scratch state alternate, two rounds per loop turn). Registers: the five θ column parities C,
/// then the five D values (in `r8`-`r12`); ρ and π load each output row's five lanes into `rax`,
/// `rcx`, `rdx`, `r13`, `r14`, each XORed with its column's D and rotated; χ writes each lane as
/// `b[x] ^ (!b[x + 1] & b[x + 2])` (one `andn`) through `r15`, and ι XORs the round constant into
/// lane (0, 0). The last row's χ writes into the D registers instead, which θ of the next round
/// then reads directly: the critical path from one round to the next skips a store and reload.
fn keccak_x86_64() -> String {
  // ρ offsets, indexed x + 5y (FIPS 202 §3.2.2: walk (x, y) ← (y, 2x + 3y) from (1, 0)).
  let mut rho = [0u32; 25];
  let (mut x, mut y) = (1, 0);
  for t in 0..24 {
    rho[x + 5 * y] = ((t + 1) * (t + 2) / 2) % 64;
    (x, y) = (y, (2 * x + 3 * y) % 5);
  }
  let b = ["rax", "rcx", "rdx", "r13", "r14"];
  let d = ["r8", "r9", "r10", "r11", "r12"];
  let round = |asm: &mut Vec<String>, src: &str, dst: &str, rc_offset: usize| {
    // θ: C[x] = the XOR of column x, its last row from the D registers.
    for x in 0..5 {
      asm.push(format!("mov {}, [{src} + {}]", b[x], 8 * x));
      for y in 1..4 {
        asm.push(format!("xor {}, [{src} + {}]", b[x], 8 * (x + 5 * y)));
      }
      asm.push(format!("xor {}, {}", b[x], d[x]));
    }
    // D[x] = C[x - 1] ^ rot(C[x + 1], 1).
    for x in 0..5 {
      asm.push(format!("rorx {}, {}, 63", d[x], b[(x + 1) % 5]));
      asm.push(format!("xor {}, {}", d[x], b[(x + 4) % 5]));
    }
    for out_y in 0..5 {
      // π: output lane (X, Y) comes from input lane (x, y) with X = y, Y = 2x + 3y.
      for (out_x, lane) in b.iter().enumerate() {
        let (x, y) = ((3 * (out_y + 5 * 3 - 3 * out_x)) % 5, out_x);
        asm.push(format!("mov {lane}, [{src} + {}]", 8 * (x + 5 * y)));
        asm.push(format!("xor {lane}, {}", d[x]));
        if rho[x + 5 * y] != 0 {
          asm.push(format!("rol {lane}, {}", rho[x + 5 * y]));
        }
      }
      // χ (and ι on lane 0 of row 0, done last there: `r13` is free by then for the constant's
      // address).
      let order: [usize; 5] = if out_y == 0 {
        [1, 2, 3, 4, 0]
      } else {
        [0, 1, 2, 3, 4]
      };
      for out_x in order {
        let o = if out_y == 4 { d[out_x] } else { "r15" };
        asm.push(format!(
          "andn {o}, {}, {}",
          b[(out_x + 1) % 5],
          b[(out_x + 2) % 5]
        ));
        asm.push(format!("xor {o}, {}", b[out_x]));
        if out_y == 0 && out_x == 0 {
          asm.push(format!("mov {}, [rsi + 200]", b[3]));
          asm.push(format!("xor {o}, [{} + {rc_offset}]", b[3]));
        }
        asm.push(format!("mov [{dst} + {}], {o}", 8 * (out_x + 5 * out_y)));
      }
    }
  };
  // The scratch buffer (`rsi`): 25 lanes, then at byte 200 the round constant pointer, 208 its
  // end, 216 the input pointer, 224 the blocks left, 232 the lanes per block, 240 the constants.
  let block_start = [
    "3:",
    // XOR one block into the state: two lanes at a time (SSE2), then an odd last lane.
    "mov rax, [rsi + 216]",
    "mov rcx, [rsi + 232]",
    "xor edx, edx",
    "lea r9, [rcx - 1]",
    "jmp 5f",
    "4:",
    "movdqu xmm0, [rax + rdx*8]",
    "movdqu xmm1, [rdi + rdx*8]",
    "pxor xmm0, xmm1",
    "movdqu [rdi + rdx*8], xmm0",
    "add rdx, 2",
    "5:",
    "cmp rdx, r9",
    "jl 4b",
    "cmp rdx, rcx",
    "jae 6f",
    "mov r8, [rax + rdx*8]",
    "xor [rdi + rdx*8], r8",
    "6:",
    "lea rax, [rax + rcx*8]",
    "mov [rsi + 216], rax",
    "mov rax, [rsi + 240]",
    "mov [rsi + 200], rax",
    // θ of the first round reads the last row from the D registers.
    "mov r8, [rdi + 160]",
    "mov r9, [rdi + 168]",
    "mov r10, [rdi + 176]",
    "mov r11, [rdi + 184]",
    "mov r12, [rdi + 192]",
    "2:",
  ];
  let mut asm: Vec<String> = block_start.iter().map(|s| s.to_string()).collect();
  round(&mut asm, "rdi", "rsi", 0);
  round(&mut asm, "rsi", "rdi", 8);
  let loop_end = [
    "mov rax, [rsi + 200]",
    "add rax, 16",
    "mov [rsi + 200], rax",
    "cmp rax, [rsi + 208]",
    "jne 2b",
    "dec qword ptr [rsi + 224]",
    "jnz 3b",
  ];
  asm.extend(loop_end.iter().map(|s| s.to_string()));

  // ι's round constants (FIPS 202 §3.2.5): bit 2^j - 1 of round i is rc(j + 7i), the output of
  // the LFSR x^8 + x^6 + x^5 + x^4 + 1.
  let rc_bit = |t: usize| {
    let mut r: u8 = 1;
    for _ in 0..t % 255 {
      r = if r & 0x80 != 0 {
        (r << 1) ^ 0x71
      } else {
        r << 1
      };
    }
    u64::from(r & 1)
  };
  let round_constants: Vec<String> = (0..24)
    .map(|i| {
      let rc = (0..7).fold(0u64, |rc, j| rc | rc_bit(j + 7 * i) << ((1 << j) - 1));
      format!("{rc:#018x}")
    })
    .collect();

  let mut out = format!(
    "// Generated by build.rs (`keccak_x86_64`): the Keccak absorbing loop for x86-64 + BMI1/BMI2.\n\
     /// Keccak-f[1600]'s round constants (FIPS 202 §3.2.5).\n\
     static KECCAK_RC: [u64; 24] = [{}];\n\
     macro_rules! keccak_absorb_asm {{\n  ($state:expr, $scratch:expr) => {{\n    std::arch::asm!(\n",
    round_constants.join(", ")
  );
  for line in &asm {
    writeln!(out, "      \"{line}\",").expect("writing to a String");
  }
  out.push_str(
    "      inout(\"rdi\") $state => _,\n      inout(\"rsi\") $scratch => _,\n      \
     out(\"rax\") _, out(\"rcx\") _, out(\"rdx\") _, out(\"r8\") _, out(\"r9\") _, out(\"r10\") _,\n      \
     out(\"r11\") _, out(\"r12\") _, out(\"r13\") _, out(\"r14\") _, out(\"r15\") _,\n      \
     out(\"xmm0\") _, out(\"xmm1\") _,\n      \
     options(nostack),\n    )\n  };\n}\n",
  );
  out
}
