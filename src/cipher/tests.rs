//! Cross-checks against independent RustCrypto implementations (the JS tests compare with
//! node:crypto and published vectors) and a no-panic sweep over every mode and odd length.

use ::aead::{Aead, Payload};
use cipher::KeyInit;

use super::dispatch::run;
use super::keys::{with_aes, AesKey, ModeKey};
use super::modes::*;
use super::{aead, gcm};
use crate::error::CryptoResult;

pub(crate) fn bytes(n: usize, seed: u8) -> Vec<u8> {
  (0..n)
    .map(|i| (i as u8).wrapping_mul(31).wrapping_add(seed))
    .collect()
}

/// Encryption of whole blocks in `mode` without padding, AAD or tag.
pub(crate) fn unpadded(mode: Mode, iv: Option<&[u8]>) -> Op<'_> {
  Op {
    mode,
    decrypt: false,
    padding: false,
    iv,
    aad: &[],
    tag_len: 16,
  }
}

/// One call through `run`, as the N-API entry point makes it (PKCS#7 padding on).
fn crypt(
  decrypt: bool,
  mode: Mode,
  key: &[u8],
  iv: Option<&[u8]>,
  aad: &[u8],
  tag_len: usize,
  data: &[u8],
) -> CryptoResult<Vec<u8>> {
  let op = Op {
    mode,
    decrypt,
    padding: true,
    iv,
    aad,
    tag_len,
  };
  let mut e = ModeKey::new(mode, key)?;
  let mut out = vec![0u8; op.output_len(data.len())];
  let n = run(&mut e, &op, data, &mut out)?;
  out.truncate(n);
  Ok(out)
}

/// `ciphertext ‖ tag` from an independent RustCrypto AEAD.
fn reference_seal<A: KeyInit + Aead>(key: &[u8], nonce: &[u8], aad: &[u8], msg: &[u8]) -> Vec<u8> {
  let nonce = ::aead::Nonce::<A>::try_from(nonce).unwrap();
  A::new_from_slice(key)
    .unwrap()
    .encrypt(&nonce, Payload { msg, aad })
    .unwrap()
}

#[test]
fn generic_gcm_matches_aes_gcm_crate_and_ring() {
  for key_len in [16, 32] {
    let key = bytes(key_len, 1);
    let iv = bytes(12, 2);
    for n in [0, 1, 15, 16, 17, 100, 1000] {
      let data = bytes(n, 3);
      let aad = bytes(n % 19, 4);
      // ring path (12-byte IV, 16-byte tag)
      let ours = crypt(false, Mode::Gcm, &key, Some(&iv), &aad, 16, &data).unwrap();
      let reference = if key_len == 16 {
        reference_seal::<aes_gcm::Aes128Gcm>(&key, &iv, &aad, &data)
      } else {
        reference_seal::<aes_gcm::Aes256Gcm>(&key, &iv, &aad, &data)
      };
      assert_eq!(ours, reference);
      // generic path (truncated-tag decryption goes through gcm.rs)
      let k = AesKey::new(&key).unwrap();
      let mut out = vec![0u8; n + 16];
      let op = Op {
        mode: Mode::Gcm,
        decrypt: false,
        padding: true,
        iv: Some(&iv),
        aad: &aad,
        tag_len: 16,
      };
      let len = with_aes!(&k, |c| aead::seal_or_open(
        gcm::Gcm::new(c, &iv),
        &op,
        &data,
        &mut out
      ))
      .unwrap();
      assert_eq!(&out[..len], &reference[..]);
      let short = &reference[..n + 12];
      assert_eq!(
        crypt(true, Mode::Gcm, &key, Some(&iv), &aad, 12, short).unwrap(),
        data
      );
    }
  }
}

#[test]
fn xchacha_matches_chacha20poly1305_crate() {
  use chacha20poly1305::XChaCha20Poly1305;
  let key = bytes(32, 5);
  let nonce = bytes(24, 6);
  for n in [0, 1, 64, 1000] {
    let data = bytes(n, 7);
    let aad = bytes(n % 13, 8);
    let ours = crypt(
      false,
      Mode::XChaCha20Poly1305,
      &key,
      Some(&nonce),
      &aad,
      16,
      &data,
    )
    .unwrap();
    let reference = reference_seal::<XChaCha20Poly1305>(&key, &nonce, &aad, &data);
    assert_eq!(ours, reference);
    assert_eq!(
      crypt(
        true,
        Mode::ChaCha20Poly1305,
        &key,
        Some(&nonce),
        &aad,
        16,
        &ours
      )
      .unwrap(),
      data
    );
  }
}

#[test]
fn pkcs7_rejects_every_bad_padding_and_zeroes_the_output() {
  let key = bytes(16, 9);
  let iv = bytes(16, 10);
  let mut e = ModeKey::new(Mode::Cbc, &key).unwrap();
  // Encrypt raw blocks whose last byte pattern we choose, then decrypt with PKCS#7.
  for last in 0u8..=255 {
    let mut block = vec![last; 32];
    block[20] = 0xee;
    let op = unpadded(Mode::Cbc, Some(&iv));
    let mut ct = vec![0u8; 32];
    run(&mut e, &op, &block, &mut ct).unwrap();
    let op = Op {
      decrypt: true,
      padding: true,
      ..op
    };
    let mut out = vec![0xaau8; 32];
    let r = run(&mut e, &op, &ct, &mut out);
    let valid = (1..=16).contains(&last) && (last < 12 || last == 0xee);
    match r {
      Ok(n) => {
        assert!(valid, "pad byte {last} accepted");
        assert_eq!(n, 32 - last as usize);
      }
      Err(err) => {
        assert!(!valid, "pad byte {last} rejected");
        assert_eq!(err, decrypt_failed());
        assert!(out.iter().all(|&b| b == 0), "plaintext left in the output");
      }
    }
  }
}

/// Every AEAD path (ring, generic GCM, GCM-SIV, CCM, SIV, ChaCha20, XChaCha20) goes through the
/// one framing: a forged tag or ciphertext is refused with the one error and the output is
/// zeroed, whatever the backend wrote into it first.
#[test]
fn aead_open_failure_wipes_the_output() {
  let cases: &[(Mode, usize, usize, usize)] = &[
    // mode, key, IV, tag lengths
    (Mode::Gcm, 32, 12, 16),
    (Mode::Gcm, 32, 12, 12),
    (Mode::Gcm, 24, 12, 16),
    (Mode::Gcm, 16, 16, 16),
    (Mode::GcmSiv, 16, 12, 16),
    (Mode::Ccm, 16, 7, 14),
    (Mode::Siv, 32, 16, 16),
    (Mode::Siv, 64, 0, 16),
    (Mode::ChaCha20Poly1305, 32, 12, 16),
    (Mode::XChaCha20Poly1305, 32, 24, 16),
  ];
  for &(mode, key_len, iv_len, tag_len) in cases {
    let key = bytes(key_len, 11);
    let iv = bytes(iv_len, 12);
    let data = bytes(40, 13);
    let sealed = crypt(false, mode, &key, Some(&iv), b"aad", tag_len, &data).unwrap();
    assert_eq!(
      crypt(true, mode, &key, Some(&iv), b"aad", tag_len, &sealed).unwrap(),
      data,
      "{mode:?}"
    );
    // The tag stands first for SIV, last for the others; flip a byte of each part.
    for at in [0, sealed.len() - 1, sealed.len() / 2] {
      let mut forged = sealed.clone();
      forged[at] ^= 1;
      let op = Op {
        mode,
        decrypt: true,
        padding: true,
        iv: Some(&iv),
        aad: b"aad",
        tag_len,
      };
      let mut out = vec![0xaau8; op.output_len(forged.len())];
      let mut k = ModeKey::new(mode, &key).unwrap();
      let err = run(&mut k, &op, &forged, &mut out).unwrap_err();
      assert_eq!(err, decrypt_failed(), "{mode:?} byte {at}");
      let n = forged.len() - tag_len;
      assert!(
        out[..n].iter().all(|&b| b == 0),
        "{mode:?} byte {at}: output not wiped"
      );
    }
  }
}

#[test]
fn no_input_panics() {
  for info in MODES {
    for &key_len in &[0usize, 1, 8, 16, 24, 31, 32, 48, 64, 65] {
      for iv_len in [
        None,
        Some(0usize),
        Some(1),
        Some(7),
        Some(8),
        Some(12),
        Some(13),
        Some(16),
        Some(24),
        Some(100),
      ] {
        for tag_len in [0usize, 4, 12, 13, 16, 17] {
          for n in [0usize, 1, 7, 8, 15, 16, 17, 40] {
            let key = bytes(key_len, 1);
            let iv = iv_len.map(|l| bytes(l, 2));
            let data = bytes(n, 3);
            for decrypt in [false, true] {
              for padding in [false, true] {
                let op = Op {
                  mode: info.mode,
                  decrypt,
                  padding,
                  iv: iv.as_deref(),
                  aad: &[],
                  tag_len,
                };
                let mut out = vec![0u8; op.output_len(n)];
                if let Ok(mut e) = ModeKey::new(info.mode, &key) {
                  let _ = run(&mut e, &op, &data, &mut out);
                }
              }
            }
          }
        }
      }
    }
  }
}

/// The own CBC encryptor (`block_modes::CbcEncrypt`) equals the `cbc` crate for every key size
/// of AES and for DES / 3DES (8-byte blocks), on every length 0..100 with PKCS#7 padding.
#[test]
fn cbc_encrypt_matches_cbc_crate() {
  use cipher::{BlockModeEncrypt, KeyIvInit};
  fn reference<C>(key: &[u8], iv: &[u8], msg: &[u8]) -> Vec<u8>
  where
    C: cipher::BlockCipherEncrypt + KeyInit,
  {
    let mut m = cbc::Encryptor::<C>::new_from_slices(key, iv).unwrap();
    let bs = C::block_size();
    let pad = bs - msg.len() % bs;
    let mut buf = msg.to_vec();
    buf.resize(msg.len() + pad, pad as u8);
    for chunk in buf.chunks_mut(bs) {
      m.encrypt_block(chunk.try_into().unwrap());
    }
    buf
  }
  for n in 0..100 {
    let msg = bytes(n, 7);
    for (mode, key) in [
      (Mode::Cbc, bytes(16, 1)),
      (Mode::Cbc, bytes(24, 2)),
      (Mode::Cbc, bytes(32, 3)),
    ] {
      let iv = bytes(16, 9);
      let want = match key.len() {
        16 => reference::<aes::Aes128>(&key, &iv, &msg),
        24 => reference::<aes::Aes192>(&key, &iv, &msg),
        _ => reference::<aes::Aes256>(&key, &iv, &msg),
      };
      let got = crypt(false, mode, &key, Some(&iv), &[], 16, &msg).unwrap();
      assert_eq!(got, want, "AES-{} n={n}", key.len() * 8);
      let back = crypt(true, mode, &key, Some(&iv), &[], 16, &got).unwrap();
      assert_eq!(back, msg);
    }
    let iv = bytes(8, 5);
    let want = reference::<des::Des>(&bytes(8, 4), &iv, &msg);
    assert_eq!(
      crypt(false, Mode::DesCbc, &bytes(8, 4), Some(&iv), &[], 16, &msg).unwrap(),
      want,
      "DES n={n}"
    );
    let want = reference::<des::TdesEde3>(&bytes(24, 6), &iv, &msg);
    assert_eq!(
      crypt(false, Mode::DesCbc, &bytes(24, 6), Some(&iv), &[], 16, &msg).unwrap(),
      want,
      "3DES n={n}"
    );
  }
}

/// A stream mode of the `ctr`/`ofb` crates: `(key, iv, input, output)`, the reference.
pub(crate) type Reference = fn(&[u8], &[u8], &[u8], &mut [u8]);

fn crate_stream<S: cipher::KeyIvInit + cipher::StreamCipher>(
  key: &[u8],
  iv: &[u8],
  input: &[u8],
  out: &mut [u8],
) {
  let mut s = S::new_from_slices(key, iv).unwrap();
  s.apply_keystream_b2b(input, out);
}

/// The references by AES key size (128, 192, 256).
pub(crate) const CTR_CRATE: [Reference; 3] = [
  crate_stream::<ctr::Ctr128BE<aes::Aes128>>,
  crate_stream::<ctr::Ctr128BE<aes::Aes192>>,
  crate_stream::<ctr::Ctr128BE<aes::Aes256>>,
];
pub(crate) const OFB_CRATE: [Reference; 3] = [
  crate_stream::<ofb::Ofb<aes::Aes128>>,
  crate_stream::<ofb::Ofb<aes::Aes192>>,
  crate_stream::<ofb::Ofb<aes::Aes256>>,
];

/// `mode` through `run` equals `refs` on every length and IV given, for every AES key size.
fn equals_reference(
  mode: Mode,
  refs: [Reference; 3],
  ivs: &[Vec<u8>],
  lens: impl Iterator<Item = usize>,
) {
  for n in lens {
    let msg = bytes(n, 7);
    let mut want = vec![0u8; n];
    for iv in ivs {
      for (reference, key) in refs.iter().zip([bytes(16, 1), bytes(24, 2), bytes(32, 3)]) {
        reference(&key, iv, &msg, &mut want);
        let got = crypt(false, mode, &key, Some(iv), &[], 16, &msg).unwrap();
        assert_eq!(got, want, "{mode:?} AES-{} n={n}", key.len() * 8);
      }
    }
  }
}

/// The own CTR (`block_modes::Ctr`) equals the `ctr` crate's `Ctr128BE` for every key size, on
/// every length 0..300 and lengths around the parallel width, from IVs whose 128-bit counter wraps.
#[test]
fn ctr_matches_ctr_crate() {
  let mut wrap = [0xffu8; 16];
  wrap[15] = 0xfd;
  // The low 64 bits carry into the high half within the first chunk.
  let mut carry = [0u8; 16];
  carry[7] = 1;
  carry[8..].fill(0xff);
  carry[15] = 0xf0;
  let lens = (0..300).chain([1023, 1024, 1025, 2047, 2048, 4096 + 15, 65536 + 1]);
  equals_reference(
    Mode::Ctr,
    CTR_CRATE,
    &[bytes(16, 9), wrap.to_vec(), carry.to_vec()],
    lens,
  );
}

/// The own OFB (`block_modes::Ofb`) equals the `ofb` crate for every key size on lengths 0..300.
#[test]
fn ofb_matches_ofb_crate() {
  equals_reference(Mode::Ofb, OFB_CRATE, &[bytes(16, 9)], 0..300);
}

/// With the 32-bit wrap GCM uses, the counter mode equals the `ctr` crate's `Ctr32BE` (the upper
/// 96 bits of the counter block fixed), across a wrap of the low 32 bits.
#[test]
fn ctr32_matches_ctr_crate() {
  use cipher::{BlockCipherEncrypt, KeyIvInit, StreamCipher};
  let key = bytes(32, 5);
  let c = <aes::Aes256 as KeyInit>::new_from_slice(&key).unwrap();
  let mut iv = bytes(16, 3);
  iv[12..].copy_from_slice(&[0xff, 0xff, 0xff, 0xf0]);
  for n in [0, 1, 16, 255, 256, 257, 1024, 1040, 5000] {
    let msg = bytes(n, 1);
    let mut want = msg.clone();
    ctr::Ctr32BE::<aes::Aes256>::new_from_slices(&key, &iv)
      .unwrap()
      .apply_keystream(&mut want);
    let mut got = vec![0u8; n];
    c.encrypt_with_backend(super::block_modes::Ctr {
      counter: u128::from_be_bytes(iv[..].try_into().unwrap()),
      wrap: u128::from(u32::MAX),
      buf: cipher::InOutBuf::new(&msg, &mut got).unwrap(),
    });
    // In place too (GCM's open decrypts its own copy).
    let mut inplace = msg.clone();
    c.encrypt_with_backend(super::block_modes::Ctr {
      counter: u128::from_be_bytes(iv[..].try_into().unwrap()),
      wrap: u128::from(u32::MAX),
      buf: cipher::InOutBuf::from(&mut inplace[..]),
    });
    assert_eq!(inplace, want, "in place, n={n}");
    assert_eq!(got, want, "n={n}");
  }
}
