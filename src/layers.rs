//! The module layering, checked: no module imports one that stands above it.
//!
//! [`LAYERS`] lists the crate's modules from the ground floor up. A file may name (through a
//! `crate::`, `$crate::` or `super::` path, tests included) only modules on its own floor or
//! below; the hash family, the cipher family and the formats are listed one file per floor, so
//! within them a file names only files listed before it. This is the crate's one floor list: the
//! folders' own comments describe their files and point here. Paths relative to a module's own
//! children (`keys::ModeKey` in a `mod.rs`) are not followed, nor a file's paths to its own
//! folder's `mod.rs` (`super::Sink` in `formats/stream.rs`): a `mod.rs` declares its files and
//! holds only what they share.

use std::path::{Path, PathBuf};

/// Floors, lowest first. A file belongs to the longest prefix that names it (`kdf` covers every
/// file of `kdf/`, `formats/age` every file of `age/`); paths are relative to `src/`, without
/// `.rs`.
const LAYERS: &[&[&str]] = &[
  // The shared pieces, one floor: they import neither one another's families nor any family.
  &[
    "error", "js", "task", "budget", "staging", "pool", "random", "ct", "arch", "awslc", "file_io",
    "batch",
  ],
  // The cipher family, file by file: below every other family, so it imports none of them.
  &["cipher/modes"],
  &["cipher/keys"],
  &["cipher/block_modes"],
  &["cipher/chacha"],
  &["cipher/aead"],
  &["cipher/gcm"],
  &["cipher/dispatch"],
  &["cipher/tests"],
  &["cipher/api"],
  &["cipher/batch"],
  // The hash family, file by file.
  &["hash/core"],
  &["hash/keccak"],
  &["hash/md"],
  &["hash/rmd160"],
  &["hash/blake2"],
  &["hash/backends"],
  &["hash/list"],
  &["hash/api"],
  &["hash/batch"],
  &["hash/blake3_tree"],
  &["hash/file"],
  // The families over the hash list.
  &["kdf"],
  &["pk"],
  // The container formats over the primitives, file by file.
  &["formats/stream"],
  &["formats/crypto_js"],
  &["formats/aead_stream"],
  &["formats/file"],
  &["formats/age"],
  &["formats/aead_stream_api"],
  &["formats/seal"],
  // What every family's backend picked on this CPU (`cpuPaths()`).
  &["cpu"],
  // The roots: the module declarations and the raw-export table, the property tests, and what
  // the fuzz targets call.
  &[
    "lib",
    "contract",
    "proptests",
    "benches",
    "layers",
    "fuzzing",
    "hash/mod",
    "cipher/mod",
    "formats/mod",
  ],
];

fn src() -> PathBuf {
  Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file under `dir`, as its path relative to `src/` without `.rs`.
fn files(dir: &Path, out: &mut Vec<String>) {
  for entry in std::fs::read_dir(dir).unwrap() {
    let path = entry.unwrap().path();
    if path.is_dir() {
      files(&path, out);
    } else if path.extension().is_some_and(|e| e == "rs") {
      let rel = path.strip_prefix(src()).unwrap().with_extension("");
      out.push(rel.to_str().unwrap().replace('\\', "/"));
    }
  }
}

/// The floor of a module path (relative to `src/`, e.g. `hash/list`): that of the longest prefix.
fn floor(module: &str) -> Option<usize> {
  let mut best: Option<(usize, usize)> = None;
  for (i, names) in LAYERS.iter().enumerate() {
    for name in *names {
      let hit = module == *name || module.starts_with(&format!("{name}/"));
      if hit && best.is_none_or(|(_, len)| name.len() > len) {
        best = Some((i, name.len()));
      }
    }
  }
  best.map(|(i, _)| i)
}

/// The file a module path names: the longest prefix of `segments` that is a file or a folder
/// with a `mod.rs` (`["hash", "list", "Alg"]` is `hash/list`).
fn resolve(segments: &[&str]) -> Option<String> {
  (1..=segments.len()).rev().find_map(|n| {
    let rel = segments[..n].join("/");
    let base = src().join(&rel);
    (base.with_extension("rs").is_file() || base.join("mod.rs").is_file()).then_some(rel)
  })
}

/// The code of a file without its comments (doc comments name paths that are not imports).
fn code(text: &str) -> String {
  text
    .lines()
    .map(|l| l.split("//").next().unwrap_or(""))
    .collect::<Vec<_>>()
    .join("\n")
}

/// The identifiers of a path that starts at `at` (`hash::list::Alg`); for a group
/// (`super::{a, b}`), the first segment of each member.
fn paths_at(text: &str, at: usize) -> Vec<Vec<&str>> {
  let rest = &text[at..];
  if let Some(group) = rest.strip_prefix('{') {
    let end = group.find('}').unwrap_or(group.len());
    return group[..end]
      .split(',')
      .map(|m| m.trim().split("::").take(1).collect())
      .filter(|p: &Vec<&str>| p.iter().all(|s| !s.is_empty()))
      .collect();
  }
  let mut segs = Vec::new();
  let mut s = rest;
  loop {
    let end = s
      .find(|c: char| !(c.is_alphanumeric() || c == '_'))
      .unwrap_or(s.len());
    if end == 0 {
      break;
    }
    segs.push(&s[..end]);
    match s[end..].strip_prefix("::") {
      Some(next) if !next.starts_with('{') => s = next,
      _ => break,
    }
  }
  vec![segs]
}

/// The modules a file names through `crate::`, `$crate::` and `super::` paths.
fn imports(file: &str) -> Vec<String> {
  let text = code(&std::fs::read_to_string(src().join(format!("{file}.rs"))).unwrap());
  // The folder `super::` names: the parent of the file's module.
  let dir: Vec<&str> = {
    let mut d: Vec<&str> = file.split('/').collect();
    d.pop();
    if file.ends_with("/mod") {
      d.pop();
    }
    d
  };
  let mut found = Vec::new();
  for (marker, base) in [("crate::", Vec::new()), ("super::", dir)] {
    for (at, _) in text.match_indices(marker) {
      // `$crate::` is `crate::`; `foo_crate::` or `self::super::` is not a path from here.
      let before = text[..at].chars().next_back();
      if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
        continue;
      }
      for path in paths_at(&text, at + marker.len()) {
        let mut segs = base.clone();
        segs.extend(path);
        // `super::name` inside a file's inline test module names the file's own items: only
        // a module file counts.
        if let Some(target) = resolve(&segs) {
          if target != file && !file.starts_with(&format!("{target}/")) {
            found.push(target);
          }
        }
      }
    }
  }
  found.sort();
  found.dedup();
  found
}

#[test]
fn no_module_imports_one_above_it() {
  let mut all = Vec::new();
  files(&src(), &mut all);
  all.sort();
  let mut bad = Vec::new();
  for file in &all {
    let Some(own) = floor(file) else {
      bad.push(format!(
        "{file}.rs is on no floor of LAYERS (src/layers.rs)"
      ));
      continue;
    };
    for target in imports(file) {
      // A folder named as a whole (`crate::formats::Format`) is its `mod.rs`.
      let Some(theirs) = floor(&target).or_else(|| floor(&format!("{target}/mod"))) else {
        bad.push(format!(
          "{target}.rs is on no floor of LAYERS (src/layers.rs)"
        ));
        continue;
      };
      if theirs > own {
        bad.push(format!(
          "{file}.rs imports {target}.rs, which stands above it"
        ));
      }
    }
  }
  assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// The check sees the imports it is meant to see (so that an empty list above means something).
#[test]
fn the_check_reads_imports() {
  let list = imports("hash/list");
  for want in [
    "hash/core",
    "hash/md",
    "hash/rmd160",
    "hash/blake2",
    "hash/backends",
    "error",
  ] {
    assert!(list.contains(&want.to_string()), "{want} not in {list:?}");
  }
  assert!(imports("cipher/keys").contains(&"cipher/modes".to_string()));
  assert!(imports("kdf/scrypt").contains(&"arch".to_string()));
  assert!(imports("pk/rsa").contains(&"awslc".to_string()));
  assert_eq!(floor("formats/age/x25519"), floor("formats/age"));
  assert!(floor("hash/core") < floor("hash/list"));
}
