#!/usr/bin/env python3
"""Writes __test__/vectors/age/tools/: age files made by the reference tools, with their
passphrases, so that __test__/age.spec.js checks that crypto.cipher.age opens them from a plain
clone, without the tools.

  python3 scripts/gen-age-fixtures.py

- `age` (the Go reference CLI, Debian package `age`) on a pseudo-terminal, and
- `pyrage` (rage, the Rust implementation) from target/age-venv, which .ci/run installs from
  scripts/age-interop-requirements.txt (this script re-runs itself inside that venv),
both through __test__/helpers/age-interop.py. Each file is opened again by the tool that made it
before it is written, and manifest.json records its passphrase, the plaintext's rule and SHA-256,
and the tool's version. Salts and nonces are random: each run writes new files.
"""
import base64
import hashlib
import json
import os
import subprocess
import sys
from datetime import date

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VENV = os.path.join(ROOT, "target", "age-venv")
VENV_PY = os.path.join(VENV, "bin", "python")
HELPER = os.path.join(ROOT, "__test__", "helpers", "age-interop.py")
OUT = os.path.join(ROOT, "__test__", "vectors", "age", "tools")


def plaintext(rule, size):
    """The plaintexts, rebuilt by the test from `rule` and `size`."""
    if rule == "bytes":  # byte i = (31 * i + 7) mod 256
        return bytes((31 * i + 7) % 256 for i in range(size))
    if rule == "text":  # a sentence repeated, cut at `size` bytes
        return (b"age interop: the quick brown fox jumps over the lazy dog. " * (size // 58 + 1))[:size]
    raise ValueError(rule)


# name, tool, armored, plaintext rule, size, passphrase
FILES = [
    ("age-binary-empty.age", "age", False, "bytes", 0, "correct horse battery staple"),
    ("age-binary-65537.age", "age", False, "bytes", 65537, "correct horse battery staple"),
    ("age-armor-1000.age", "age", True, "text", 1000, "pässwörd 🔑 with spaces"),
    ("pyrage-binary-65536.age", "pyrage", False, "bytes", 65536, "Tr0ub4dor&3"),
    ("pyrage-armor-100.age", "pyrage", True, "text", 100, "pässwörd 🔑 with spaces"),
]


def helper(jobs):
    out = subprocess.run([sys.executable, HELPER], input=json.dumps(jobs), capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"{HELPER} failed: {out.stderr}")
    return json.loads(out.stdout)


def main():
    if os.path.exists(VENV_PY) and os.path.realpath(sys.prefix) != os.path.realpath(VENV):
        os.execv(VENV_PY, [VENV_PY, __file__])
    tools = helper([])
    missing = [t for t in ("age", "pyrage") if not tools[t]]
    if missing:
        sys.exit(f"missing: {', '.join(missing)} ({tools['why']})")
    os.makedirs(OUT, exist_ok=True)
    manifest = {
        "about": "age files made by the reference tools (scripts/gen-age-fixtures.py); "
        "plaintext rule 'bytes': byte i = (31*i + 7) mod 256; 'text': the sentence "
        "'age interop: the quick brown fox jumps over the lazy dog. ' repeated, cut at size",
        "generated": date.today().isoformat(),
        "tools": {"age": f"age {tools['age']} (Debian package)", "pyrage": f"pyrage {tools['pyrage']} (rage)"},
        "files": [],
    }
    for name, tool, armored, rule, size, passphrase in FILES:
        data = plaintext(rule, size)
        job = {"tool": tool, "op": "encrypt", "armor": armored, "passphrase": passphrase}
        [made] = helper([{**job, "data": base64.b64encode(data).decode()}])
        assert made["ok"], made
        file = base64.b64decode(made["data"])
        [back] = helper([{**job, "op": "decrypt", "data": made["data"]}])
        assert back["ok"] and base64.b64decode(back["data"]) == data, (name, back)
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(file)
        manifest["files"].append(
            {
                "file": name,
                "tool": tool,
                "armored": armored,
                "passphrase": passphrase,
                "plaintext": {"rule": rule, "size": size, "sha256": hashlib.sha256(data).hexdigest()},
            }
        )
        print(f"{name}: {len(file)} bytes")
    with open(os.path.join(OUT, "manifest.json"), "w", encoding="utf-8") as f:
        json.dump(manifest, f, indent=2, ensure_ascii=False)
        f.write("\n")


if __name__ == "__main__":
    main()
