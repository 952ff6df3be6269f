#!/usr/bin/env python3
"""Writes __test__/fixtures/password/{libpass,django,php}.json: stored password hashes made by
implementations independent of cryptographer.js, for __test__/password.spec.js.

  python3 scripts/gen-password-fixtures.py

- libpass (the maintained passlib) and Django's hashers come from PyPI, installed into
  target/password-venv from scripts/password-fixtures-requirements.txt (versions and SHA-256
  pinned); the script re-runs itself inside that venv.
- PHP's password_hash() ($2y$ bcrypt, its own crypt_blowfish; Argon2 through libargon2) runs
  when `php` is on PATH (Debian: apt-get install php-cli). Without it, php.json is left as is.

Every hash is checked by the library that made it (the password verifies, the wrong one does
not) before it is written. Costs are small except one case per algorithm at (or above) the
library's policy, so the tests stay fast. Salts are random: each run writes new hashes.
"""
import json
import os
from importlib.metadata import version
import platform
import shutil
import subprocess
import sys
import venv
from datetime import date

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VENV = os.path.join(ROOT, "target", "password-venv")
REQUIREMENTS = os.path.join(ROOT, "scripts", "password-fixtures-requirements.txt")
OUT = os.path.join(ROOT, "__test__", "fixtures", "password")

# The passwords: ASCII, UTF-8 (2-, 3- and 4-byte characters), and one of 95 bytes whose 72nd
# byte falls inside a 2-byte character. WRONG_TAIL shares its first 72 bytes: plain bcrypt,
# which reads 72 bytes, accepts it; every other format must not.
PASSWORDS = {
    "ascii": "correct horse battery staple",
    "utf8": "pässwörd — 密码 🔑",
    "long": "correct horse battery staple " * 2 + "Tr0ub4dor&3 ünïcödé ✓ 🔑!!",
}
WRONG = "correct horse battery stapler"
WRONG_TAIL = PASSWORDS["long"][:-2] + "??"
assert PASSWORDS["long"].encode()[:72] == WRONG_TAIL.encode()[:72]
assert len(PASSWORDS["long"].encode()) > 72


def in_venv():
    return os.path.realpath(sys.prefix) == os.path.realpath(VENV)


def ensure_venv():
    py = os.path.join(VENV, "bin", "python")
    if not os.path.exists(py):
        print(f"creating {VENV}", file=sys.stderr)
        venv.EnvBuilder(with_pip=True).create(VENV)
    subprocess.check_call([py, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                           "--require-hashes", "--only-binary=:all:", "-r", REQUIREMENTS])
    os.execv(py, [py, os.path.abspath(__file__), *sys.argv[1:]])


def case(cases, source_verify, **c):
    """Adds one case after checking it with the generating library."""
    pw = PASSWORDS[c["password"]]
    h = c["hash"]
    assert source_verify(pw, h), f"{c['id']}: the generator does not verify its own hash"
    assert not source_verify(WRONG, h), f"{c['id']}: the wrong password verifies"
    if c["password"] == "long":
        c["sameFirst72Verifies"] = bool(source_verify(WRONG_TAIL, h))
    c["password"] = pw
    order = ["id", "format", "algorithm", "strength", "password", "hash", "sameFirst72Verifies", "via"]
    cases.append({k: c[k] for k in order if k in c})


# ---- libpass ---------------------------------------------------------------------------------

def libpass_cases():
    from passlib import hash as ph

    cases = []

    def add(handler, **c):
        case(cases, lambda pw, h: handler.verify(pw, h), **c)

    for name in PASSWORDS:
        pw = PASSWORDS[name]
        add(ph.argon2, id=f"argon2id-weak-{name}", format="phc", algorithm="argon2id", strength="weak",
            hash=ph.argon2.using(type="ID", memory_cost=1024, rounds=1, parallelism=1).hash(pw), password=name)
        if name != "long":  # libpass (pyca bcrypt 5) refuses passwords over 72 bytes: PHP makes that one
            add(ph.bcrypt, id=f"bcrypt-2b-weak-{name}", format="bcrypt", algorithm="bcrypt", strength="weak",
                hash=ph.bcrypt.using(rounds=4).hash(pw), password=name)
        add(ph.scrypt, id=f"scrypt-weak-{name}", format="phc", algorithm="scrypt", strength="weak",
            hash=ph.scrypt.using(rounds=6, block_size=8, parallelism=1).hash(pw), password=name)
        for handler, alg in ((ph.pbkdf2_sha256, "pbkdf2-sha256"), (ph.pbkdf2_sha512, "pbkdf2-sha512"),
                             (ph.pbkdf2_sha1, "pbkdf2-sha1")):
            add(handler, id=f"{alg}-weak-{name}", format="passlib", algorithm=alg, strength="weak",
                hash=handler.using(rounds=1000).hash(pw), password=name)

    ascii_pw = PASSWORDS["ascii"]
    # Other variants, idents and parameter shapes.
    add(ph.argon2, id="argon2i-weak-ascii", format="phc", algorithm="argon2i", strength="weak",
        hash=ph.argon2.using(type="I", memory_cost=1024, rounds=2, parallelism=2).hash(ascii_pw), password="ascii")
    add(ph.argon2, id="argon2d-weak-ascii", format="phc", algorithm="argon2d", strength="weak",
        hash=ph.argon2.using(type="D", memory_cost=1024, rounds=2, parallelism=1).hash(ascii_pw), password="ascii")
    add(ph.argon2, id="argon2id-lanes-ascii", format="phc", algorithm="argon2id", strength="weak",
        hash=ph.argon2.using(type="ID", memory_cost=2048, rounds=2, parallelism=4).hash(ascii_pw), password="ascii")
    add(ph.bcrypt, id="bcrypt-2y-weak-ascii", format="bcrypt", algorithm="bcrypt", strength="weak",
        hash=ph.bcrypt.using(ident="2y", rounds=5).hash(ascii_pw), password="ascii")
    add(ph.bcrypt, id="bcrypt-2a-weak-utf8", format="bcrypt", algorithm="bcrypt", strength="weak",
        hash=ph.bcrypt.using(ident="2a", rounds=4).hash(PASSWORDS["utf8"]), password="utf8")
    add(ph.scrypt, id="scrypt-p2-weak-ascii", format="phc", algorithm="scrypt", strength="weak",
        hash=ph.scrypt.using(rounds=5, block_size=4, parallelism=2).hash(ascii_pw), password="ascii")

    # Argon2 version 16 (0x10) at the policy's costs: weak by its version alone. libpass writes
    # only v=19, so this one comes from its backend, argon2-cffi (libargon2), and is read back by
    # libpass.
    import argon2.low_level as a2
    v16 = a2.hash_secret(ascii_pw.encode(), os.urandom(16), time_cost=3, memory_cost=65536, parallelism=1,
                         hash_len=32, type=a2.Type.ID, version=16).decode()
    add(ph.argon2, id="argon2id-v16-ascii", format="phc", algorithm="argon2id", strength="weak", hash=v16,
        password="ascii", via="argon2-cffi low_level.hash_secret (libpass writes only v=19)")

    # At the library's policy (password.policy): needsRehash false under a policy of that algorithm.
    add(ph.argon2, id="argon2id-current-ascii", format="phc", algorithm="argon2id", strength="current",
        hash=ph.argon2.using(type="ID", memory_cost=65536, rounds=3, parallelism=1).hash(ascii_pw), password="ascii")
    add(ph.bcrypt, id="bcrypt-current-ascii", format="bcrypt", algorithm="bcrypt", strength="current",
        hash=ph.bcrypt.using(rounds=10).hash(ascii_pw), password="ascii")
    add(ph.scrypt, id="scrypt-current-ascii", format="phc", algorithm="scrypt", strength="current",
        hash=ph.scrypt.using(rounds=17, block_size=8, parallelism=1).hash(ascii_pw), password="ascii")
    add(ph.pbkdf2_sha256, id="pbkdf2-sha256-current-ascii", format="passlib", algorithm="pbkdf2-sha256",
        strength="current", hash=ph.pbkdf2_sha256.using(rounds=600000).hash(ascii_pw), password="ascii")
    add(ph.pbkdf2_sha512, id="pbkdf2-sha512-current-ascii", format="passlib", algorithm="pbkdf2-sha512",
        strength="current", hash=ph.pbkdf2_sha512.using(rounds=210000).hash(ascii_pw), password="ascii")
    add(ph.pbkdf2_sha1, id="pbkdf2-sha1-current-ascii", format="passlib", algorithm="pbkdf2-sha1",
        strength="current", hash=ph.pbkdf2_sha1.using(rounds=1300000).hash(ascii_pw), password="ascii")

    return {
        "generator": f"libpass {version('libpass')} (backends: argon2-cffi {version('argon2-cffi')}, "
                     f"bcrypt {version('bcrypt')}); Python {platform.python_version()}",
        "licence": "libpass: BSD-3-Clause; argon2-cffi: MIT; bcrypt: Apache-2.0",
        "cases": cases,
    }


# ---- Django ----------------------------------------------------------------------------------

def django_cases():
    import django
    from django.conf import settings

    settings.configure()
    from django.contrib.auth import hashers as dh

    cases = []

    def add(hasher, **c):
        case(cases, lambda pw, h: hasher.verify(pw, h), **c)

    class Argon2Weak(dh.Argon2PasswordHasher):
        time_cost = 1
        memory_cost = 1024
        parallelism = 1

    class BcryptSha256Weak(dh.BCryptSHA256PasswordHasher):
        rounds = 4

    class BcryptSha256Current(dh.BCryptSHA256PasswordHasher):
        rounds = 10

    class BcryptWeak(dh.BCryptPasswordHasher):
        rounds = 4

    class ScryptWeak(dh.ScryptPasswordHasher):
        work_factor = 2**4
        parallelism = 1

    class ScryptCurrent(dh.ScryptPasswordHasher):
        # OWASP's N = 2^17 r = 8 p = 1 needs 128 MiB: more than OpenSSL's default maxmem.
        work_factor = 2**17
        parallelism = 1
        maxmem = 256 * 1024 * 1024

    pbkdf2_256 = dh.PBKDF2PasswordHasher()
    pbkdf2_1 = dh.PBKDF2SHA1PasswordHasher()

    for name, pw in PASSWORDS.items():
        h = Argon2Weak()
        add(h, id=f"django-argon2-weak-{name}", format="django", algorithm="argon2id", strength="weak",
            hash=h.encode(pw, h.salt()), password=name)
        h = BcryptSha256Weak()
        add(h, id=f"django-bcrypt_sha256-weak-{name}", format="django", algorithm="bcrypt-sha256", strength="weak",
            hash=h.encode(pw, h.salt()), password=name)
        if name != "long":  # pyca bcrypt 5 refuses passwords over 72 bytes
            h = BcryptWeak()
            add(h, id=f"django-bcrypt-weak-{name}", format="django", algorithm="bcrypt", strength="weak",
                hash=h.encode(pw, h.salt()), password=name)
        h = ScryptWeak()
        add(h, id=f"django-scrypt-weak-{name}", format="django", algorithm="scrypt", strength="weak",
            hash=h.encode(pw, h.salt()), password=name)
        add(pbkdf2_256, id=f"django-pbkdf2_sha256-weak-{name}", format="django", algorithm="pbkdf2-sha256",
            strength="weak", hash=pbkdf2_256.encode(pw, pbkdf2_256.salt(), iterations=1000), password=name)
        add(pbkdf2_1, id=f"django-pbkdf2_sha1-weak-{name}", format="django", algorithm="pbkdf2-sha1",
            strength="weak", hash=pbkdf2_1.encode(pw, pbkdf2_1.salt(), iterations=1000), password=name)

    ascii_pw = PASSWORDS["ascii"]
    # Django's own defaults: Argon2id t=2 m=100 MiB p=8 and PBKDF2-SHA256 1,000,000 are stronger
    # than the policy; scrypt N=2^14 r=8 p=5 uses less memory than OWASP's N=2^17 (weak).
    h = dh.Argon2PasswordHasher()
    add(h, id="django-argon2-default-ascii", format="django", algorithm="argon2id", strength="stronger",
        hash=h.encode(ascii_pw, h.salt()), password="ascii")
    add(pbkdf2_256, id="django-pbkdf2_sha256-default-ascii", format="django", algorithm="pbkdf2-sha256",
        strength="stronger", hash=pbkdf2_256.encode(ascii_pw, pbkdf2_256.salt()), password="ascii")
    h = dh.ScryptPasswordHasher()
    add(h, id="django-scrypt-default-ascii", format="django", algorithm="scrypt", strength="weak",
        hash=h.encode(ascii_pw, h.salt()), password="ascii")
    h = ScryptCurrent()
    add(h, id="django-scrypt-current-ascii", format="django", algorithm="scrypt", strength="current",
        hash=h.encode(ascii_pw, h.salt()), password="ascii")
    h = BcryptSha256Current()
    add(h, id="django-bcrypt_sha256-current-ascii", format="django", algorithm="bcrypt-sha256", strength="current",
        hash=h.encode(ascii_pw, h.salt()), password="ascii")
    add(pbkdf2_1, id="django-pbkdf2_sha1-current-ascii", format="django", algorithm="pbkdf2-sha1",
        strength="current", hash=pbkdf2_1.encode(ascii_pw, pbkdf2_1.salt(), iterations=1300000), password="ascii")

    return {
        "generator": f"Django {django.get_version()} django.contrib.auth.hashers (backends: argon2-cffi "
                     f"{version('argon2-cffi')}, bcrypt {version('bcrypt')}, hashlib of Python "
                     f"{platform.python_version()})",
        "licence": "Django: BSD-3-Clause; argon2-cffi: MIT; bcrypt: Apache-2.0",
        "cases": cases,
    }


# ---- PHP -------------------------------------------------------------------------------------

PHP = r"""
$in = json_decode(stream_get_contents(STDIN), true);
$out = [];
foreach ($in as $job) {
  $h = password_hash($job['password'], constant($job['algo']), $job['options']);
  $out[] = ['hash' => $h, 'ok' => password_verify($job['password'], $h),
            'wrong' => password_verify($job['wrong'], $h),
            'tail' => password_verify($job['tail'], $h)];
}
echo json_encode($out);
"""


def php_cases():
    php = shutil.which("php")
    if not php:
        return None
    jobs, meta = [], []

    def job(algo, options, name, **c):
        jobs.append({"algo": algo, "options": options, "password": PASSWORDS[name], "wrong": WRONG, "tail": WRONG_TAIL})
        meta.append(dict(c, password=name))

    for name in PASSWORDS:
        job("PASSWORD_BCRYPT", {"cost": 4}, name, id=f"php-2y-weak-{name}", format="bcrypt", algorithm="bcrypt",
            strength="weak")
        job("PASSWORD_ARGON2ID", {"memory_cost": 1024, "time_cost": 1, "threads": 1}, name,
            id=f"php-argon2id-weak-{name}", format="phc", algorithm="argon2id", strength="weak")
    job("PASSWORD_ARGON2I", {"memory_cost": 2048, "time_cost": 2, "threads": 1}, "utf8",
        id="php-argon2i-weak-utf8", format="phc", algorithm="argon2i", strength="weak")
    job("PASSWORD_BCRYPT", {"cost": 10}, "ascii", id="php-2y-current-ascii", format="bcrypt", algorithm="bcrypt",
        strength="current")
    job("PASSWORD_ARGON2ID", {"memory_cost": 65536, "time_cost": 3, "threads": 1}, "ascii",
        id="php-argon2id-current-ascii", format="phc", algorithm="argon2id", strength="current")

    res = subprocess.run([php, "-r", PHP], input=json.dumps(jobs), capture_output=True, text=True, check=True)
    cases = []
    by_hash = {}
    for j, r, m in zip(jobs, json.loads(res.stdout), meta):
        by_hash[r["hash"]] = r
        case(cases, lambda pw, h: by_hash[h]["ok"] if pw != WRONG and pw != WRONG_TAIL else
             by_hash[h]["wrong"] if pw == WRONG else by_hash[h]["tail"], hash=r["hash"], **m)
    version = subprocess.run([php, "-r", "echo PHP_VERSION;"], capture_output=True, text=True, check=True).stdout
    return {
        "generator": f"PHP {version} password_hash() (bcrypt: PHP's crypt_blowfish; Argon2: libargon2)",
        "licence": "PHP: PHP License 3.01 (outputs only; no PHP code is included)",
        "cases": cases,
    }


def write(name, data):
    data = {
        "source": data.pop("generator"),
        "licence": data.pop("licence"),
        "generated": date.today().isoformat(),
        "script": "scripts/gen-password-fixtures.py",
        "wrongPassword": WRONG,
        "wrongTail": WRONG_TAIL,
        **data,
    }
    path = os.path.join(OUT, f"{name}.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(data, f, ensure_ascii=False, indent=1)
        f.write("\n")
    print(f"wrote {path} ({len(data['cases'])} cases)", file=sys.stderr)


def main():
    if not in_venv():
        ensure_venv()
    os.makedirs(OUT, exist_ok=True)
    write("libpass", libpass_cases())
    write("django", django_cases())
    php = php_cases()
    if php is None:
        print("php not found on PATH: php.json left unchanged", file=sys.stderr)
    else:
        write("php", php)


if __name__ == "__main__":
    main()
