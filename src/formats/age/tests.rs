//! age: the C2SP test kit (`__test__/vectors/age/testkit`), round trips, and the parser's edges.

use super::header::{self, Stanza};
use super::scrypt::{ScryptIdentity, ScryptRecipient};
use super::x25519::{self, X25519Identity, X25519Recipient};
use super::*;
use crate::hash::core::oneshot;

fn hex(b: &[u8]) -> String {
  b.iter().map(|x| format!("{x:02x}")).collect()
}

fn unhex(s: &str) -> Vec<u8> {
  (0..s.len())
    .step_by(2)
    .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
    .collect()
}

fn sha256(data: &[u8]) -> String {
  let mut out = [0u8; 32];
  oneshot(State::new(Alg::Sha256), data, &mut out);
  hex(&out)
}

/// One test-kit vector: its `key: value` lines and the file after the blank line.
struct Vector {
  name: String,
  fields: Vec<(String, String)>,
  file: Vec<u8>,
}

impl Vector {
  fn get(&self, key: &str) -> Option<&str> {
    self
      .fields
      .iter()
      .find(|(k, _)| k == key)
      .map(|(_, v)| v.as_str())
  }
}

fn testkit() -> Vec<Vector> {
  let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("__test__/vectors/age/testkit");
  let mut names: Vec<_> = std::fs::read_dir(&dir)
    .unwrap()
    .map(|e| e.unwrap().file_name().into_string().unwrap())
    .collect();
  names.sort();
  names
    .into_iter()
    .map(|name| {
      let raw = std::fs::read(dir.join(&name)).unwrap();
      let split = raw.windows(2).position(|w| w == b"\n\n").unwrap();
      let fields: Vec<(String, String)> = std::str::from_utf8(&raw[..split])
        .unwrap()
        .lines()
        .map(|l| {
          let (k, v) = l.split_once(": ").unwrap();
          (k.to_string(), v.to_string())
        })
        .collect();
      let body = &raw[split + 2..];
      // Large vectors are stored zlib-compressed ("compressed: zlib").
      let file = match fields.iter().find(|(k, _)| k == "compressed") {
        Some((_, z)) if z == "zlib" => miniz_oxide::inflate::decompress_to_vec_zlib(body).unwrap(),
        Some((_, other)) => panic!("{name}: unknown compression {other}"),
        None => body.to_vec(),
      };
      Vector { name, fields, file }
    })
    .collect()
}

/// An identity that knows the file key already (the test kit gives it).
struct Known(FileKey);

impl Identity for Known {
  fn stanza_type(&self) -> &'static str {
    "any"
  }
  fn describe(&self) -> &'static str {
    "the vector's file key"
  }
  fn unwrap(&self, _: &[Stanza], _: &Cancel) -> CryptoResult<Option<FileKey>> {
    Ok(Some(self.0.clone()))
  }
}

/// What a vector's `expect` means here, for its class of error.
fn is_format_error(e: &CryptoError) -> bool {
  matches!(e.code, Code::InvalidArgValue | Code::OutOfRange)
}

/// Every vector the formats here can judge, through the steps a passphrase decryption takes:
/// armor, header, the scrypt identity (vectors with a passphrase), and for the others the header
/// MAC and the payload opened with the vector's own file key. The X25519 identity judges every
/// vector with an X25519 identity; what belongs to the ML-KEM identities is left and counted.
#[test]
fn c2sp_testkit() {
  let vectors = testkit();
  assert!(
    vectors.len() >= 140,
    "the test kit is in __test__/vectors/age/testkit"
  );
  let (mut checked, mut x25519, mut other_identity) = (0, 0, Vec::new());
  for v in &vectors {
    let name = &v.name;
    let expect = v.get("expect").unwrap();
    // Armor.
    let file = if v.get("armored") == Some("yes") {
      if !armor::is_armored(&v.file) {
        // Garbage before the PEM line: not taken for armor, so refused as a header.
        assert_eq!(expect, "armor failure", "{name}");
        let e = header::parse(&v.file).err().unwrap();
        assert!(is_format_error(&e), "{name}");
        checked += 1;
        continue;
      }
      match (armor::decode(&v.file), expect) {
        (Err(e), "armor failure") => {
          assert!(e.message.contains("armor"), "{name}: {}", e.message);
          checked += 1;
          continue;
        }
        (Err(e), _) => panic!("{name}: armor refused: {}", e.message),
        (Ok(_), "armor failure") => panic!("{name}: armor accepted"),
        (Ok(f), _) => f,
      }
    } else {
      assert_ne!(expect, "armor failure", "{name}");
      v.file.clone()
    };
    // Header.
    let parsed = match header::parse(&file) {
      Err(e) => {
        assert_eq!(expect, "header failure", "{name}: {}", e.message);
        assert!(is_format_error(&e), "{name}");
        checked += 1;
        continue;
      }
      Ok(p) => p,
    };
    // The header writes back to the bytes it was read from.
    let mut again = Vec::new();
    header::write(&parsed.stanzas, &mut again);
    assert_eq!(again, parsed.mac_input, "{name}: header round trip");
    // The full decryption with the vector's identity: scrypt for the vectors with a passphrase,
    // X25519 for those with an X25519 identity.
    let id: Option<Box<dyn Identity>> = match (v.get("passphrase"), v.get("identity")) {
      (Some(pass), _) => Some(Box::new(ScryptIdentity::new(pass.as_bytes(), 22).unwrap())),
      (None, Some(id)) if id.starts_with("AGE-SECRET-KEY-1") => {
        x25519 += 1;
        Some(Box::new(X25519Identity::parse(&[id], "identity").unwrap()))
      }
      _ => None,
    };
    if let Some(id) = id {
      let result = decrypt(&*id, &v.file, &Cancel::NEVER);
      match expect {
        "success" => assert_eq!(
          sha256(&result.unwrap()),
          v.get("payload").unwrap(),
          "{name}"
        ),
        // A file cut inside the payload nonce is a decryption failure here.
        "header failure" if parsed.payload.len() < NONCE_LEN => {
          assert_eq!(result.unwrap_err().code, Code::DecryptFailed, "{name}")
        }
        "header failure" => assert!(is_format_error(&result.unwrap_err()), "{name}"),
        _ => assert_eq!(result.unwrap_err().code, Code::DecryptFailed, "{name}"),
      }
      checked += 1;
      continue;
    }
    // Vectors whose failure is an ML-KEM stanza rule: the generic parse accepts them.
    let file_key = unhex(v.get("file key").unwrap());
    if expect == "no match" || (expect == "header failure" && parsed.payload.len() >= NONCE_LEN) {
      other_identity.push(name.clone());
      continue;
    }
    // The rest with the vector's file key (an identity that returns it): the MAC, then the
    // payload.
    let mut fk = Zeroizing::new([0u8; 16]);
    fk.copy_from_slice(&file_key);
    let result = begin_decrypt(&Known(fk), &file, &Cancel::NEVER)
      .and_then(|(opener, at)| open_payload(opener, &file[at..], &Cancel::NEVER));
    match expect {
      "success" => assert_eq!(
        sha256(&result.unwrap()),
        v.get("payload").unwrap(),
        "{name}"
      ),
      // "header failure" here is a file cut inside the payload nonce.
      "HMAC failure" | "payload failure" | "header failure" => {
        assert_eq!(result.unwrap_err().code, Code::DecryptFailed, "{name}")
      }
      other => panic!("{name}: unexpected expectation {other}"),
    }
    checked += 1;
  }
  eprintln!(
    "age test kit: {checked} vectors checked ({x25519} with X25519 identities); {} left to the ML-KEM identities ({})",
    other_identity.len(),
    other_identity.join(", "),
  );
  assert_eq!(checked + other_identity.len(), vectors.len());
  assert!(checked >= 125, "{checked}");
  assert!(x25519 >= 50, "{x25519}");
  // Every left-out vector is about another recipient type.
  for n in &other_identity {
    assert!(
      n.starts_with("hybrid") || n.starts_with("armor_hybrid"),
      "{n}"
    );
  }
}

fn encrypt_pass(pass: &[u8], log_n: u32, data: &[u8]) -> Vec<u8> {
  let r = ScryptRecipient::new(pass, log_n).unwrap();
  encrypt(&[&r], data, &Cancel::NEVER).unwrap()
}

#[test]
fn round_trips_around_chunk_boundaries() {
  let id = ScryptIdentity::new(b"pass", 22).unwrap();
  for len in [
    0usize,
    1,
    CHUNK - 1,
    CHUNK,
    CHUNK + 1,
    2 * CHUNK,
    3 * CHUNK + 5,
  ] {
    let data: Vec<u8> = (0..len).map(|i| (i * 7 + 3) as u8).collect();
    let file = encrypt_pass(b"pass", 2, &data);
    // Header, nonce, then one 16-byte tag per chunk (at least one chunk).
    let parsed = header::parse(&file).unwrap();
    let chunks = len.div_ceil(CHUNK).max(1);
    assert_eq!(
      parsed.payload.len(),
      NONCE_LEN + len + 16 * chunks,
      "len {len}"
    );
    assert_eq!(decrypt(&id, &file, &Cancel::NEVER).unwrap(), data);
    let armored = armor(&file);
    assert_eq!(
      decrypt(&id, armored.as_bytes(), &Cancel::NEVER).unwrap(),
      data
    );
    // Cut anywhere in the payload or extended: refused.
    for cut in [
      file.len() - 1,
      file.len() - 16,
      file.len() - parsed.payload.len() + NONCE_LEN,
    ] {
      let e = decrypt(&id, &file[..cut], &Cancel::NEVER).unwrap_err();
      assert_eq!(e.code, Code::DecryptFailed, "len {len} cut {cut}");
    }
    let mut longer = file.clone();
    longer.push(0);
    assert_eq!(
      decrypt(&id, &longer, &Cancel::NEVER).unwrap_err().code,
      Code::DecryptFailed
    );
  }
}

#[test]
fn the_scrypt_stanza_is_what_the_spec_says() {
  // Recompute the stanza body and the header MAC from the spec's formulas with the crate's
  // primitives called directly, for a file this module wrote.
  let file = encrypt_pass(b"correct horse", 4, b"hello");
  let parsed = header::parse(&file).unwrap();
  let [s] = parsed.stanzas.as_slice() else {
    panic!()
  };
  assert_eq!(s.kind, "scrypt");
  assert_eq!(s.args[1], "4");
  let salt = header::decode_b64(s.args[0].as_bytes()).unwrap();
  assert_eq!(salt.len(), 16);
  let mut key = [0u8; 32];
  let mut full_salt = b"age-encryption.org/v1/scrypt".to_vec();
  full_salt.extend_from_slice(&salt);
  let params = crate::kdf::scrypt::ScryptParams::new(16.0, 8, 1, 32, 1e9).unwrap();
  crate::kdf::scrypt::derive(
    b"correct horse",
    &full_salt,
    params,
    &mut key,
    &Cancel::NEVER,
  )
  .unwrap();
  let fk = open_file_key(&key, &s.body).expect("the body opens under the spec's wrap key");
  let mac = header_mac(&fk, parsed.mac_input).unwrap();
  assert_eq!(mac, parsed.mac);
  assert!(file.starts_with(b"age-encryption.org/v1\n-> scrypt "));
}

#[test]
fn wrong_passphrase_and_ceiling() {
  let file = encrypt_pass(b"right", 10, b"data");
  let wrong = ScryptIdentity::new(b"wrong", 22).unwrap();
  assert_eq!(
    decrypt(&wrong, &file, &Cancel::NEVER).unwrap_err(),
    decrypt_failed()
  );
  // A ceiling below the file's work factor refuses before any work.
  let low = ScryptIdentity::new(b"right", 9).unwrap();
  let e = decrypt(&low, &file, &Cancel::NEVER).unwrap_err();
  assert_eq!(e.code, Code::OutOfRange);
  assert!(e.message.contains("maxWorkFactor"), "{}", e.message);
  assert!(ScryptIdentity::new(b"right", 10).is_ok());
  // Bounds of the options themselves.
  assert_eq!(
    ScryptIdentity::new(b"x", 31).err().unwrap().code,
    Code::OutOfRange
  );
  assert_eq!(
    ScryptRecipient::new(b"x", 0).err().unwrap().code,
    Code::OutOfRange
  );
  assert_eq!(
    ScryptRecipient::new(b"", 10).err().unwrap().code,
    Code::InvalidArgValue
  );
}

#[test]
fn a_file_for_other_recipients_says_so() {
  let stanzas = [Stanza {
    kind: "X25519".into(),
    args: vec!["abc".into()],
    body: vec![1; 32],
  }];
  let mut file = Vec::new();
  header::write(&stanzas, &mut file);
  header::write_mac(&[0; 32], &mut file);
  file.extend_from_slice(&[0; 40]);
  let id = ScryptIdentity::new(b"pw", 22).unwrap();
  let e = decrypt(&id, &file, &Cancel::NEVER).unwrap_err();
  assert_eq!(e.code, Code::DecryptFailed);
  assert!(
    e.message.contains("no scrypt stanza") && e.message.contains("X25519"),
    "{}",
    e.message
  );
}

#[test]
fn header_bounds() {
  let line = |n: usize| format!("-> a{n}\n\n");
  let mut many = String::from("age-encryption.org/v1\n");
  for n in 0..=header::MAX_STANZAS {
    many.push_str(&line(n));
  }
  many.push_str("--- AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\n");
  let e = header::parse(many.as_bytes()).err().unwrap();
  assert!(
    e.message.contains("more than 1024 stanzas"),
    "{}",
    e.message
  );
  let args = format!(
    "age-encryption.org/v1\n->{}\n\n",
    " x".repeat(header::MAX_ARGS + 1)
  );
  assert!(header::parse(args.as_bytes())
    .err()
    .unwrap()
    .message
    .contains("arguments"));
  // No MAC line within the first MiB.
  let mut long = b"age-encryption.org/v1\n-> x\n\n".to_vec();
  long.extend(std::iter::repeat_n(b'a', header::MAX_HEADER));
  let e = header::parse(&long).err().unwrap();
  assert!(
    e.message.contains("no MAC line in the first"),
    "{}",
    e.message
  );
  // Bodies: the writer's 48-byte lines and empty final line parse back.
  for n in [0, 1, 47, 48, 49, 96, 100] {
    let s = Stanza {
      kind: "t".into(),
      args: vec![],
      body: (0..n as u8).collect(),
    };
    let mut h = Vec::new();
    header::write(std::slice::from_ref(&s), &mut h);
    header::write_mac(&[7; 32], &mut h);
    let p = header::parse(&h).unwrap();
    assert_eq!(p.stanzas, vec![s]);
    assert_eq!(p.mac, [7; 32]);
    assert!(p.payload.is_empty());
  }
}

#[test]
fn armor_edges() {
  // Every size around a line (48 bytes) and a padding boundary round-trips, and the lines are
  // 64 columns but the last.
  for n in 0usize..150 {
    let data: Vec<u8> = (0..n as u8).collect();
    let text = armor::encode(&data);
    let lines: Vec<&str> = text.lines().collect();
    let body = &lines[1..lines.len() - 1];
    for (i, l) in body.iter().enumerate() {
      assert!(
        l.len() == 64 || (i + 1 == body.len() && !l.is_empty() && l.len() < 64),
        "{n}"
      );
    }
    assert_eq!(body.len(), (n.div_ceil(3) * 4).div_ceil(64));
    assert_eq!(armor::decode(text.as_bytes()).unwrap(), data, "{n}");
    let crlf = text.replace('\n', "\r\n");
    assert_eq!(armor::decode(crlf.as_bytes()).unwrap(), data, "{n} CRLF");
    // Mixed endings are refused (when there is more than one line break to mix).
    if n > 0 {
      let mixed = text.replacen('\n', "\r\n", 1);
      assert!(armor::decode(mixed.as_bytes()).is_err(), "{n} mixed");
    }
  }
  assert!(armor::decode(b"").is_err());
  assert!(!armor::is_armored(b"age-encryption.org/v1\n"));
}

#[test]
fn streaming_halves_match_the_one_shot_forms() {
  // begin_encrypt + the sealer fed in odd pieces, opened by decrypt; and a file opened from a
  // prefix holding just the header and nonce, then the opener fed in odd pieces.
  let data: Vec<u8> = (0..3 * CHUNK + 77).map(|i| (i % 251) as u8).collect();
  let r = ScryptRecipient::new(b"pw", 2).unwrap();
  let (mut file, mut sealer) = begin_encrypt(&[&r], &Cancel::NEVER).unwrap();
  for piece in data.chunks(10_007) {
    sealer.push(piece, &mut file).unwrap();
  }
  sealer.finish(&mut file).unwrap();
  let id = ScryptIdentity::new(b"pw", 22).unwrap();
  assert_eq!(decrypt(&id, &file, &Cancel::NEVER).unwrap(), data);
  let head = header::parse(&file).unwrap();
  let at = file.len() - head.payload.len() + NONCE_LEN;
  let (mut opener, got) = begin_decrypt(&id, &file[..at], &Cancel::NEVER).unwrap();
  assert_eq!(got, at);
  let mut out = Vec::new();
  for piece in file[at..].chunks(4_099) {
    opener.push(piece, &mut out).unwrap();
  }
  opener.finish(&mut out).unwrap();
  assert_eq!(out, data);
  // A prefix cut inside the nonce: refused before any scrypt work is needed.
  assert_eq!(
    begin_decrypt(&id, &file[..at - 1], &Cancel::NEVER)
      .err()
      .unwrap(),
    decrypt_failed()
  );
}

#[test]
fn x25519_round_trips_to_several_recipients() {
  let ids: Vec<_> = (0..3).map(|_| x25519::generate().unwrap()).collect();
  let idents: Vec<X25519Identity> = ids
    .iter()
    .map(|i| X25519Identity::parse(&[i.as_str()], "identity").unwrap())
    .collect();
  let recips: Vec<String> = idents.iter().map(|i| i.recipients().remove(0)).collect();
  assert!(recips
    .iter()
    .all(|r| r.starts_with("age1") && r.len() == 62));
  assert!(ids
    .iter()
    .all(|i| i.starts_with("AGE-SECRET-KEY-1") && i.len() == 74));
  let data = b"to three recipients".repeat(5000);
  let r = X25519Recipient::parse(&recips, "options.recipients").unwrap();
  let file = encrypt(&[&r], &data, &Cancel::NEVER).unwrap();
  let parsed = header::parse(&file).unwrap();
  assert_eq!(parsed.stanzas.len(), 3);
  for s in &parsed.stanzas {
    assert_eq!(s.kind, "X25519");
    assert_eq!(s.args.len(), 1);
    assert_eq!(header::decode_b64(s.args[0].as_bytes()).unwrap().len(), 32);
    assert_eq!(s.body.len(), 32);
  }
  for id in &idents {
    assert_eq!(decrypt(id, &file, &Cancel::NEVER).unwrap(), data);
  }
  let other = X25519Identity::parse(&[x25519::generate().unwrap().as_str()], "i").unwrap();
  let e = decrypt(&other, &file, &Cancel::NEVER).unwrap_err();
  assert_eq!(e.code, Code::DecryptFailed);
  // Several identities, the right one last.
  let both = X25519Identity::parse(
    &[x25519::generate().unwrap().as_str(), ids[2].as_str()],
    "i",
  )
  .unwrap();
  assert_eq!(decrypt(&both, &file, &Cancel::NEVER).unwrap(), data);
  // A passphrase file says it has no X25519 stanza.
  let pass = encrypt_pass(b"pw", 2, b"x");
  let e = decrypt(&idents[0], &pass, &Cancel::NEVER).unwrap_err();
  assert!(e.message.contains("no X25519 stanza"), "{}", e.message);
}

/// The string with its last Bech32 character replaced by a different one (a
/// fixed replacement would equal the original one time in 32).
fn flip_last(s: &str) -> String {
  let (head, last) = s.split_at(s.len() - 1);
  format!("{head}{}", if last == "q" { "p" } else { "q" })
}

#[test]
fn x25519_key_strings_are_strict() {
  let id = x25519::generate().unwrap();
  let rec = X25519Identity::parse(&[id.as_str()], "i")
    .unwrap()
    .recipients()
    .remove(0);
  let bad = [
    id.to_ascii_lowercase(),          // identities are upper case
    rec.to_ascii_uppercase(),         // recipients lower case
    rec.replacen("age1", "agf1", 1),  // checksum
    flip_last(&rec),                  // checksum
    rec[..rec.len() - 1].to_string(), // length
    String::new(),
  ];
  for b in &bad {
    let e = X25519Recipient::parse(&[b.as_str()], "options.recipients")
      .err()
      .unwrap();
    assert_eq!(e.code, Code::InvalidArgValue, "{b}");
    assert!(X25519Identity::parse(&[b.as_str()], "i").is_err(), "{b}");
  }
  // An identity is not a recipient and a recipient not an identity.
  assert!(X25519Recipient::parse(&[id.as_str()], "r").is_err());
  assert!(X25519Identity::parse(&[rec.as_str()], "i").is_err());
}
