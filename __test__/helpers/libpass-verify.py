"""Reads [{"hash", "password", "wrong"?}] as JSON on stdin; writes, for each, what libpass (the
maintained passlib) and the backends it uses say of it: {"scheme", "valid", "wrongValid" (with
"wrong"), "libpassWarning", "argon2cffi" (Argon2 PHC), "pycaBcrypt" (bcrypt)}, each verdict true,
false, or "error: ..." when the library refuses the string. Used by
__test__/password-interop.spec.js. Exits 3 when libpass or its Argon2/bcrypt backends are missing."""
import json
import sys
import warnings

try:
    from passlib.context import CryptContext
    import argon2  # libpass's Argon2 backend (the reference C code)
    import bcrypt  # libpass's bcrypt backend (pyca/bcrypt: OpenBSD's code)
except ImportError as e:
    print(f"missing: {e}", file=sys.stderr)
    sys.exit(3)

ctx = CryptContext(schemes=["argon2", "bcrypt", "scrypt", "pbkdf2_sha256", "pbkdf2_sha512", "pbkdf2_sha1"])


def verdict(f):
    try:
        return bool(f())
    except Exception as e:  # the library refuses the string
        return f"error: {type(e).__name__}: {e}"[:200]


out = []
for job in json.load(sys.stdin):
    h, pw = job["hash"], job["password"]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        r = {"scheme": ctx.identify(h), "valid": verdict(lambda: ctx.verify(pw, h))}
    r["libpassWarning"] = str(caught[0].message)[:200] if caught else None
    if "wrong" in job:
        r["wrongValid"] = verdict(lambda: ctx.verify(job["wrong"], h))
    if h.startswith("$argon2"):
        r["argon2cffi"] = verdict(lambda: argon2.PasswordHasher().verify(h, pw))
    if h.startswith("$2"):
        r["pycaBcrypt"] = verdict(lambda: bcrypt.checkpw(pw.encode(), h.encode()))
    out.append(r)
json.dump(out, sys.stdout)
