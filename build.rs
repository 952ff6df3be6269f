fn main() {
  napi_build::setup();
  // The SHA-512 kernel's inline assembly (src/arch.rs `Sha512Avx2`) takes every general-purpose
  // register, which an unoptimised build (it keeps a frame pointer) does not leave: it is compiled
  // only when optimising, and an unoptimised build runs the `sha2` crate's block function.
  println!("cargo::rustc-check-cfg=cfg(sha512_asm)");
  println!("cargo::rerun-if-env-changed=OPT_LEVEL");
  if std::env::var("OPT_LEVEL").is_ok_and(|level| level != "0") {
    println!("cargo::rustc-cfg=sha512_asm");
  }
}
