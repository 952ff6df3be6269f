"""Reads [{"hash", "password"}] as JSON on stdin; writes, for each, what the reference
implementations say of it: {"libpass": true | false | "error: ...", "libpassWarning": str | null,
"argon2cffi": ... (Argon2 PHC only), "pycaBcrypt": ... (bcrypt only)}. Used by
__test__/password-interop.spec.js for the stored hashes spelled with non-canonical base64.
Exits 3 when libpass or its Argon2/bcrypt backends are missing."""
import json
import sys
import warnings

try:
    from passlib.context import CryptContext
    import argon2
    import bcrypt
except ImportError as e:
    print(f"missing: {e}", file=sys.stderr)
    sys.exit(3)

ctx = CryptContext(schemes=["argon2", "bcrypt", "scrypt", "pbkdf2_sha256", "pbkdf2_sha512", "pbkdf2_sha1"])


def verdict(f):
    try:
        return bool(f())
    except Exception as e:  # a refusal: the library's own error
        return f"error: {type(e).__name__}: {e}"[:200]


out = []
for job in json.load(sys.stdin):
    h, pw = job["hash"], job["password"]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        r = {"libpass": verdict(lambda: ctx.verify(pw, h))}
    r["libpassWarning"] = str(caught[0].message)[:200] if caught else None
    if h.startswith("$argon2"):
        r["argon2cffi"] = verdict(lambda: argon2.PasswordHasher().verify(h, pw))
    if h.startswith("$2"):
        r["pycaBcrypt"] = verdict(lambda: bcrypt.checkpw(pw.encode(), h.encode()))
    out.append(r)
json.dump(out, sys.stdout)
