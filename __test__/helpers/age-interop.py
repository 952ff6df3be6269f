"""The reference age tools for __test__/age.spec.js and scripts/gen-age-fixtures.py.

Reads a JSON list of jobs on stdin and writes a JSON list of results on stdout:
  job:    {"tool": "age" | "pyrage", "op": "encrypt" | "decrypt", "armor": bool,
           "passphrase": str, "data": base64}
  result: {"ok": true, "data": base64} or {"ok": false, "error": str}
With an empty list it writes {"age": version or null, "pyrage": version or null, "why": {...}}:
which tools this Python can drive.

`age` is the Go reference CLI (Debian package `age`). Version 1.1.1 reads a passphrase only from
the terminal, so it runs here on a pseudo-terminal (Python's `pty`) that answers its prompts.
`pyrage` is the Python binding of rage (the Rust implementation); it takes the passphrase as an
argument.
"""

import base64
import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time


def age_version():
    exe = shutil.which("age")
    if not exe:
        return None, "no `age` on PATH (Debian: apt-get install age)"
    try:
        out = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=30)
    except OSError as e:
        return None, str(e)
    if out.returncode != 0:
        return None, f"`age --version` exited {out.returncode}"
    return out.stdout.strip(), None


def pyrage_version():
    try:
        import importlib.metadata

        import pyrage  # noqa: F401

        return importlib.metadata.version("pyrage"), None
    except Exception as e:  # ImportError, or metadata missing
        return None, f"{type(e).__name__}: {e}"


def on_tty(args, passphrase, prompts, timeout=60):
    """Runs `args` on a pseudo-terminal, typing `passphrase` at each of `prompts` prompts."""
    import pty

    pid, fd = pty.fork()
    if pid == 0:
        try:
            os.execvp(args[0], args)
        finally:
            os._exit(127)
    seen = b""
    typed = 0
    deadline = time.time() + timeout
    try:
        while time.time() < deadline:
            ready, _, _ = select.select([fd], [], [], 0.1)
            if not ready:
                continue
            try:
                chunk = os.read(fd, 4096)
            except OSError:  # EIO: the child closed the terminal
                break
            if not chunk:
                break
            seen += chunk
            # "Enter passphrase (leave empty ...):" / "Enter passphrase:", then "Confirm passphrase:".
            asked = seen.count(b"Enter passphrase") + seen.count(b"Confirm passphrase")
            if typed < prompts and asked > typed:
                os.write(fd, passphrase.encode("utf-8") + b"\n")
                typed += 1
        else:
            os.kill(pid, 9)
    finally:
        os.close(fd)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status), seen.decode("utf-8", "replace")


def run_age(job, data):
    with tempfile.TemporaryDirectory() as d:
        src, dst = os.path.join(d, "in"), os.path.join(d, "out")
        with open(src, "wb") as f:
            f.write(data)
        if job["op"] == "encrypt":
            # Two prompts: the passphrase and its confirmation.
            args = ["age", "-p"] + (["-a"] if job["armor"] else []) + ["-o", dst, src]
            code, text = on_tty(args, job["passphrase"], 2)
        else:
            code, text = on_tty(["age", "-d", "-o", dst, src], job["passphrase"], 1)
        if code != 0:
            return {"ok": False, "error": f"age exited {code}: {text.strip()[-300:]}"}
        # age creates the output file on its first write: none for an empty plaintext.
        out = b""
        if os.path.exists(dst):
            with open(dst, "rb") as f:
                out = f.read()
        return {"ok": True, "data": base64.b64encode(out).decode()}


def run_pyrage(job, data):
    import pyrage

    try:
        if job["op"] == "encrypt":
            out = pyrage.passphrase.encrypt(data, job["passphrase"], armored=job["armor"])
        else:
            out = pyrage.passphrase.decrypt(data, job["passphrase"])
    except Exception as e:
        return {"ok": False, "error": f"{type(e).__name__}: {e}"}
    return {"ok": True, "data": base64.b64encode(out).decode()}


def main():
    jobs = json.load(sys.stdin)
    if not jobs:
        age, age_why = age_version()
        rage, rage_why = pyrage_version()
        json.dump({"age": age, "pyrage": rage, "why": {"age": age_why, "pyrage": rage_why}}, sys.stdout)
        return
    results = []
    for job in jobs:
        data = base64.b64decode(job["data"])
        results.append(run_age(job, data) if job["tool"] == "age" else run_pyrage(job, data))
    json.dump(results, sys.stdout)


if __name__ == "__main__":
    main()
