"""Compile the judge's rules core with mypyc and hook the build into this environment.

Usage (``scripts/install.sh`` runs it)::

    .venv/bin/python scripts/build_native.py            # build unless up to date
    .venv/bin/python scripts/build_native.py --force    # build again
    .venv/bin/python scripts/build_native.py --check    # say whether the build is in use
    .venv/bin/python scripts/build_native.py --remove   # back to the pure-Python judge

The modules of :data:`judging.native.MODULES` are compiled into ``build/native/`` (never
into the package: see :mod:`judging.native` for why and for when the build is loaded),
a stamp records the checkout, the interpreter and each source's SHA-256, and a ``.pth``
file in the environment's site-packages installs the import hook at start-up. On Linux
the C code is compiled for this machine's instruction set (``-march=native``; the stamp
records the CPU, and another CPU gets the sources); ``EARSHOT_NATIVE_PORTABLE=1``
compiles for any CPU of the architecture, for an environment built on one machine and
run on others. The
sources must type-check under mypy (mypyc compiles what mypy infers): a type error
stops the build, which ``install.sh`` reports, leaving the pure-Python judge in place.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from judging import native  # noqa: E402  (standard library only)

OUT = ROOT / "build" / "native"
STAMP = OUT / "stamp.json"
GROUP = "earshot_judge"
HOOK_MODULE = "_earshot_native"
PTH = "earshot_native.pth"

# Run in a child process from the repository root: mypycify names the modules after
# their paths, and setuptools' command line is the child's own.
_SETUP = """
import os, sys
from setuptools import setup
from mypyc.build import mypycify
paths, lib, tmp, c_dir, jobs, group = sys.argv[1].split(os.pathsep), *sys.argv[2:7]
paths += ["--ignore-missing-imports", "--follow-imports=silent",
          "--cache-dir", os.path.join(tmp, "mypy_cache")]
setup(name="earshot-judge-native", py_modules=[], packages=[],
      ext_modules=mypycify(paths, opt_level="3", multi_file=True, target_dir=c_dir,
                           group_name=group),
      script_args=["--quiet", "build_ext", "--build-lib", lib, "--build-temp", tmp,
                   "--parallel", jobs])
"""


def site_packages() -> Path:
    return Path(sysconfig.get_paths()["purelib"])


def _hook_source() -> str:
    return (
        "# Written by Earshot's scripts/build_native.py: loads the compiled judge\n"
        "# (judging/native.py says when). Delete this file and earshot_native.pth, or\n"
        "# run scripts/build_native.py --remove, to go back to the sources.\n"
        "def _install():\n"
        "    import importlib.util\n"
        f"    spec = importlib.util.spec_from_file_location('_earshot_native_hook', "
        f"{str(ROOT / 'judging' / 'native.py')!r})\n"
        "    module = importlib.util.module_from_spec(spec)\n"
        "    spec.loader.exec_module(module)\n"
        f"    module.install({str(STAMP)!r})\n"
        "\n"
        "\n"
        "try:\n"
        "    _install()\n"
        "except Exception:  # the checkout moved or is gone: the sources are used\n"
        "    pass\n"
    )


def install_hook() -> None:
    sp = site_packages()
    (sp / f"{HOOK_MODULE}.py").write_text(_hook_source(), encoding="utf-8")
    (sp / PTH).write_text(f"import {HOOK_MODULE}\n", encoding="utf-8")


def remove() -> None:
    sp = site_packages()
    for path in (sp / PTH, sp / f"{HOOK_MODULE}.py"):
        path.unlink(missing_ok=True)
    shutil.rmtree(OUT, ignore_errors=True)
    print("build_native: removed; the judge runs from its sources")


def up_to_date() -> bool:
    if not STAMP.exists() or not (site_packages() / PTH).exists():
        return False
    try:
        stamp = json.loads(STAMP.read_text(encoding="utf-8"))
        return (stamp["package_dir"] == os.path.realpath(ROOT / "judging")
                and native.stamp_problem(stamp) is None)
    except (ValueError, KeyError, TypeError):
        return False


def build() -> None:
    started = time.monotonic()
    shutil.rmtree(OUT, ignore_errors=True)
    lib, tmp, c_dir = OUT / "lib", OUT / "tmp", OUT / "c"
    sources = [str(Path("judging") / f"{m.rpartition('.')[2]}.py") for m in native.MODULES]
    digests = native.source_digests(ROOT / "judging")  # before: what was compiled
    jobs = str(max(1, os.cpu_count() or 1))
    # for this machine's instruction set (6-8 % faster on the bench): the stamp records
    # the CPU, and the hook ignores the build on another one (a copied environment)
    cpu = native.cpu_signature() if os.environ.get("EARSHOT_NATIVE_PORTABLE") != "1" else None
    env = {**os.environ}
    if cpu is not None:
        env["CFLAGS"] = f"{env.get('CFLAGS', '')} -march=native".strip()
    OUT.mkdir(parents=True)
    log = OUT / "build.log"
    print(f"build_native: compiling {len(sources)} modules with mypyc (log: {log})...",
          flush=True)
    with log.open("w", encoding="utf-8") as fh:
        done = subprocess.run([sys.executable, "-c", _SETUP, os.pathsep.join(sources),
                               str(lib), str(tmp), str(c_dir), jobs, GROUP], cwd=ROOT,
                              env=env, stdout=fh, stderr=subprocess.STDOUT, check=False)
    if done.returncode:
        errors = [line for line in log.read_text(encoding="utf-8").splitlines()
                  if ": error:" in line or "Error" in line]
        print("\n".join(errors[-20:]), file=sys.stderr)
        raise SystemExit(f"build_native: mypyc failed (the errors above; {log}); the judge "
                         f"runs from its sources")
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    modules = {m: str(lib / "judging" / f"{m.rpartition('.')[2]}{suffix}") for m in native.MODULES}
    group = {"name": f"{GROUP}__mypyc", "file": str(lib / f"{GROUP}__mypyc{suffix}")}
    stamp = {
        "version": native.STAMP_VERSION,
        "package_dir": os.path.realpath(ROOT / "judging"),
        "cache_tag": sys.implementation.cache_tag,
        "cpu": cpu,
        "digests": digests,
        "modules": modules,
        "group": group,
        "built": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    problem = native.stamp_problem(stamp)
    if problem is not None:
        raise SystemExit(f"build_native: the build is not usable: {problem}")
    STAMP.write_text(json.dumps(stamp, indent=1), encoding="utf-8")
    install_hook()
    print(f"build_native: compiled {len(modules)} modules in "
          f"{time.monotonic() - started:.0f} s")


def check() -> int:
    """Import the judge in a fresh interpreter of this environment and report (whatever
    EARSHOT_PURE says in this shell: the question is whether the build is usable)."""
    env = {k: v for k, v in os.environ.items() if k != native.PURE_ENV}
    out = subprocess.run(
        [sys.executable, "-c",
         "from judging import native, equivalence as e; "
         "print('compiled' if native.compiled() else 'pure', e.judge('Paris', 'Paris').rule)"],
        cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    note = (" (but EARSHOT_PURE is set here: this shell's processes use the sources)"
            if os.environ.get(native.PURE_ENV) else "")
    print(f"build_native: the judge runs {out.stdout.strip() or out.stderr.strip()}{note}")
    return 0 if out.stdout.startswith("compiled exact") else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--force", action="store_true", help="build even if up to date")
    parser.add_argument("--check", action="store_true", help="report whether it is in use")
    parser.add_argument("--remove", action="store_true", help="remove the build and hook")
    args = parser.parse_args(argv)
    if args.remove:
        remove()
        return 0
    if args.check:
        return check()
    if not args.force and up_to_date():
        print("build_native: up to date")
        return check()
    build()
    return check()


if __name__ == "__main__":
    sys.exit(main())
