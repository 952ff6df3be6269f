//! The Argon2 backend call: the crate's steps over a reused arena.

use argon2_rust::{Algorithm, Version};

/// The inputs of one Argon2 hash besides its cost (`argon2_rust::Params`).
#[derive(Clone, Copy)]
pub struct Argon2Input<'a> {
  pub algorithm: Algorithm,
  pub version: Version,
  pub password: &'a [u8],
  pub salt: &'a [u8],
  pub secret: &'a [u8],
  pub ad: &'a [u8],
}

/// Argon2 into `out` over `workspace`'s arena (reused: no allocation and no first touch of the
/// memory once it is large enough), on the backend the crate detects for this CPU, with
/// `at_pass_end` called after each pass when given. The steps are the crate's own (pre-hash,
/// first blocks, fill, finalise); the arena guard wipes the blocks it handed out and parks them
/// in `workspace` again on every exit, an unwind out of `at_pass_end` included.
pub fn argon2_in(
  workspace: &mut argon2_rust::__internal::Workspace,
  p: &argon2_rust::Params,
  input: &Argon2Input<'_>,
  out: &mut [u8],
  at_pass_end: Option<argon2_rust::__internal::PassTrace<'_>>,
) -> Result<(), argon2_rust::Error> {
  use argon2_rust::__internal::{
    clear_internal_memory, fill_first_blocks, fill_memory_blocks_traced, finalize, initial_hash,
    Instance,
  };
  let Argon2Input {
    algorithm,
    version,
    password,
    salt,
    secret,
    ad,
  } = *input;
  p.validate_for(password.len(), salt.len(), secret.len(), ad.len())?;
  if out.len() != p.tag_len_bytes() {
    return Err(argon2_rust::Error::OutPtrMismatch);
  }
  let (blocks, _, lane_length) = p.memory_layout();
  let mut arena = workspace.acquire(blocks as usize)?;
  arena.set_workers(p.threads());
  let mut seed = initial_hash(algorithm, version, p, password, salt, secret, ad)?;
  let first = fill_first_blocks(&mut seed, arena.as_mut_slice(), p.lanes(), lane_length);
  clear_internal_memory(&mut seed);
  first?;
  // SAFETY: `arena` holds `blocks` initialised, aligned blocks (the crate's arena invariant,
  // sized from these `p` by `acquire`) and is borrowed until this function returns, which the
  // instance does not outlive; no other thread fills it.
  let instance = unsafe { Instance::new(arena.as_mut_ptr(), arena.len(), algorithm, version, p) };
  // SAFETY: the backend comes from the crate's own run-time detection, which only names an
  // instruction set this CPU has; `instance` is valid as above.
  unsafe { fill_memory_blocks_traced(&instance, argon2_rust::detected_backend(), at_pass_end) }?;
  finalize(&instance, out)
}
