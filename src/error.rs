//! The one place where errors are defined and turned into JavaScript exceptions.
//!
//! Every error the addon raises is a JS `TypeError`, `RangeError` or `Error` carrying a stable
//! `code` property (Node's own codes where one exists). Rust code builds a [`CryptoError`];
//! `src/js/error.rs` turns it into the JS error object, thrown by raw entry points or wrapped in
//! a `napi::Error` (napi-rs functions and async tasks), so the class and the code survive either
//! path.

use std::fmt::Display;

use napi::Env;

/// Which JS error class an error becomes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
  Type,
  Range,
  Plain,
}

/// The stable `code` values. Their class is fixed by the code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Code {
  /// A value of the wrong JS type (`TypeError`).
  InvalidArgType,
  /// A value of the right type that is not one of the accepted values (`TypeError`).
  InvalidArgValue,
  /// A number or length outside its range (`RangeError`).
  OutOfRange,
  /// `update`/`digest` after `digest` (`Error`).
  HashFinalized,
  /// Authentication or padding failure on decryption (`Error`).
  DecryptFailed,
  /// The operating system could not provide what was asked (`Error`).
  Operation,
  /// An async operation was cancelled through its `AbortSignal` (`Error`; the JS layer
  /// rethrows it as an `AbortError`).
  Aborted,
  /// A kept key reached its usage limit (random-nonce encryptions) (`Error`).
  KeyExhausted,
  /// The operating system refused a file operation (`Error`); the JS `code` is then the error's
  /// name (`ENOENT`, `EISDIR`, ...) from [`CryptoError::sys`], as in node's fs errors.
  System,
  /// A key of the wrong algorithm, curve or kind (private/public) for the operation
  /// (`TypeError`).
  InvalidKeyType,
  /// A public key that is not a usable point: off the curve, the identity, or of low order
  /// (`Error`, as Node's ECDH).
  InvalidPublicKey,
  /// A function this build does not have (the file functions in the WebAssembly build)
  /// (`Error`).
  Unavailable,
  /// Memory-hard work (Argon2, scrypt) asking for more working memory than the whole process
  /// budget (`crate::budget`) (`Error`).
  MemoryBudget,
  /// A synchronous call whose working memory does not fit in the budget now (`Error`).
  MemoryBudgetBusy,
}

impl Code {
  pub const fn as_str(self) -> &'static str {
    match self {
      Code::InvalidArgType => "ERR_INVALID_ARG_TYPE",
      Code::InvalidArgValue => "ERR_INVALID_ARG_VALUE",
      Code::OutOfRange => "ERR_OUT_OF_RANGE",
      Code::HashFinalized => "ERR_HASH_FINALIZED",
      Code::DecryptFailed => "ERR_CRYPTO_DECRYPT_FAILED",
      Code::Operation => "ERR_CRYPTO_OPERATION_FAILED",
      Code::Aborted => "ABORT_ERR",
      Code::KeyExhausted => "ERR_CRYPTO_KEY_EXHAUSTED",
      Code::System => "ERR_SYSTEM_ERROR",
      Code::InvalidKeyType => "ERR_CRYPTO_INVALID_KEY_TYPE",
      Code::InvalidPublicKey => "ERR_CRYPTO_ECDH_INVALID_PUBLIC_KEY",
      Code::Unavailable => "ERR_FEATURE_UNAVAILABLE_ON_PLATFORM",
      Code::MemoryBudget => "ERR_CRYPTO_MEMORY_BUDGET",
      Code::MemoryBudgetBusy => "ERR_CRYPTO_MEMORY_BUDGET_BUSY",
    }
  }

  pub const fn kind(self) -> Kind {
    match self {
      Code::InvalidArgType | Code::InvalidArgValue | Code::InvalidKeyType => Kind::Type,
      Code::OutOfRange => Kind::Range,
      Code::HashFinalized
      | Code::DecryptFailed
      | Code::Operation
      | Code::Aborted
      | Code::KeyExhausted
      | Code::System
      | Code::InvalidPublicKey
      | Code::Unavailable
      | Code::MemoryBudget
      | Code::MemoryBudgetBusy => Kind::Plain,
    }
  }
}

/// An error on its way to JavaScript.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CryptoError {
  pub code: Code,
  pub message: String,
  /// For [`Code::System`]: what node's fs errors carry besides the message.
  pub sys: Option<Box<SysError>>,
}

/// The operating-system side of a failed file operation, as node's fs errors report it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SysError {
  /// The error's name, node's `code`: `"ENOENT"`, `"EISDIR"`, ...
  pub name: &'static str,
  /// Node's `errno`: the negated OS error number on POSIX systems (libuv's value there); 0 where
  /// the OS number is not libuv's (Windows), and the JS layer then looks the name up.
  pub errno: i32,
  /// The call that failed: `"open"`, `"read"`.
  pub syscall: &'static str,
}

pub type CryptoResult<T> = Result<T, CryptoError>;

impl CryptoError {
  pub fn new(code: Code, message: impl Into<String>) -> Self {
    Self {
      code,
      message: message.into(),
      sys: None,
    }
  }

  /// `The "name" argument must be <expected>. Received <received>`
  pub fn arg_type(name: &str, expected: &str, received: impl Display) -> Self {
    Self::new(
      Code::InvalidArgType,
      format!("The \"{name}\" argument must be {expected}. Received {received}"),
    )
  }

  /// `The value of "name" is out of range. It must be <range>. Received <received>`
  pub fn out_of_range(name: &str, range: impl Display, received: impl Display) -> Self {
    Self::new(
      Code::OutOfRange,
      format!("The value of \"{name}\" is out of range. It must be {range}. Received {received}"),
    )
  }

  /// A bug in native code (a caught panic), never a property of the input.
  pub fn internal() -> Self {
    Self::new(Code::Operation, "internal error in native code")
  }

  /// `The argument "name" is invalid: expected <expected>. Received <received>`
  pub fn invalid_value(name: &str, expected: impl Display, received: impl Display) -> Self {
    Self::new(
      Code::InvalidArgValue,
      format!("The argument \"{name}\" is invalid: expected {expected}. Received {received}"),
    )
  }
}

/// `result.or_throw(&env)?` in napi-rs functions (implemented in `js/error.rs`, with
/// `CryptoError::into_napi` and the throwing of raw entry points).
pub trait OrThrow<T> {
  fn or_throw(self, env: &Env) -> napi::Result<T>;
}
