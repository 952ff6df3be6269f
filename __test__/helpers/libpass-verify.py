"""Reads [{"hash", "password", "wrong"}] as JSON on stdin; writes [{"scheme", "valid", "wrongValid"}]:
what libpass (the maintained passlib) says of each hash. Used by __test__/password-interop.spec.js.
Exits 3 when libpass or its Argon2/bcrypt backends are missing."""
import json
import sys

try:
    from passlib.context import CryptContext
    import argon2  # noqa: F401  libpass's Argon2 backend
    import bcrypt  # noqa: F401  libpass's bcrypt backend
except ImportError as e:
    print(f"missing: {e}", file=sys.stderr)
    sys.exit(3)

ctx = CryptContext(schemes=["argon2", "bcrypt", "scrypt", "pbkdf2_sha256", "pbkdf2_sha512", "pbkdf2_sha1"])
out = []
for job in json.load(sys.stdin):
    h = job["hash"]
    out.append({
        "scheme": ctx.identify(h),
        "valid": ctx.verify(job["password"], h),
        "wrongValid": ctx.verify(job["wrong"], h),
    })
json.dump(out, sys.stdout)
