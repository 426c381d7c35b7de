"""The judge's compiled build: which modules of the rules core mypyc compiles, and the
import hook that loads them only while they match their sources.

The rules core is pure Python and stays so: each module below runs as written, and the
test suite runs it both ways. ``scripts/install.sh`` also compiles them with mypyc
(``scripts/build_native.py``), which makes a cold ``judge_many`` about a third faster:
the rules are dozens of cheap tests per pair, and their interpreter overhead, not the
work, is what a cold batch pays for. The compiled modules are written to
``build/native/``, outside the package, so that they can never shadow an edited source.
:class:`NativeFinder`, installed at interpreter start-up by a ``.pth`` file in the
virtual environment, loads them instead of the sources only when

- ``EARSHOT_PURE`` is unset or empty (set it to profile or debug the Python code),
- the module is imported from the checkout that was compiled (another checkout using
  the same environment, such as ``judging_bench.py --against``, gets its own sources),
- the interpreter is the one they were compiled for, and so is the CPU (the build is
  compiled for the machine's own instruction set: ``-march=native``), and
- every listed source still has the SHA-256 it was compiled from: one edited module
  turns the whole build off, since compiled modules call each other directly.

This module imports only the standard library: the ``.pth`` hook runs it before
anything else is importable.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path

# The rules core, compiled together (one mypyc group). Not calibration.py (a dataclass
# that sets private fields after init; numpy does its work), nor the Django modules.
MODULES = (
    "judging.answerline",
    "judging.corrections",
    "judging.date_rules",
    "judging.entities",
    "judging.equivalence",
    "judging.features",
    "judging.measure_rules",
    "judging.money_rules",
    "judging.name_rules",
    "judging.names",
    "judging.normalize",
    "judging.number_rules",
    "judging.numbers",
    "judging.preparation",
    "judging.scripts",
    "judging.short_rules",
    "judging.sounds",
    "judging.time_rules",
)
PURE_ENV = "EARSHOT_PURE"
STAMP_VERSION = 1


def source_digests(package_dir: Path) -> dict[str, str]:
    """SHA-256 of each compiled module's source in ``package_dir`` (the ``judging``
    directory), by module name."""
    return {name: hashlib.sha256(
        (package_dir / f"{name.rpartition('.')[2]}.py").read_bytes()).hexdigest()
        for name in MODULES}


def cpu_signature() -> str | None:
    """A digest of this CPU's instruction-set flags (Linux's ``/proc/cpuinfo``), or
    ``None`` where they cannot be read (then the build is compiled for any CPU)."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            flags = next((line for line in f if line.startswith(("flags", "Features"))), None)
    except OSError:
        return None
    if flags is None:
        return None
    return hashlib.sha256(" ".join(sorted(flags.split(":", 1)[-1].split())).encode()).hexdigest()[:16]


def compiled() -> bool:
    """Is the judge running in this process the compiled build?"""
    from judging import equivalence

    return not (equivalence.__file__ or "").endswith(".py")


def stamp_problem(stamp: dict) -> str | None:
    """Why the build ``stamp`` describes cannot be loaded now (its files gone, another
    interpreter, a source edited since), or ``None`` when it can."""
    if stamp.get("version") != STAMP_VERSION:
        return "built by another version of scripts/build_native.py"
    if stamp.get("cache_tag") != sys.implementation.cache_tag:
        return f"compiled for {stamp.get('cache_tag')}, running {sys.implementation.cache_tag}"
    if stamp.get("cpu") and stamp["cpu"] != cpu_signature():
        return "compiled for another CPU's instruction set"
    files = [stamp["group"]["file"], *stamp["modules"].values()]
    if missing := [f for f in files if not os.path.exists(f)]:
        return f"missing {missing[0]}"
    try:
        now = source_digests(Path(stamp["package_dir"]))
    except OSError as e:
        return f"cannot read the sources: {e}"
    if changed := sorted(name for name, digest in now.items()
                         if stamp["digests"].get(name) != digest):
        return f"sources changed since the build: {', '.join(changed)}"
    return None


class NativeFinder:
    """Meta path finder that hands out the compiled modules of one build (see the
    module docstring for when). Everything else falls through to the usual finders."""

    def __init__(self, stamp_path: str) -> None:
        self.stamp_path = stamp_path
        self._stamp: dict | None = None
        self._checked = False
        self.problem: str | None = None  # why the build is not used, once checked

    def _usable(self) -> dict | None:
        if not self._checked:
            self._checked = True
            try:
                with open(self.stamp_path, encoding="utf-8") as f:
                    stamp = json.load(f)
                self.problem = stamp_problem(stamp)
            except (OSError, ValueError, KeyError, TypeError) as e:
                stamp, self.problem = None, f"no usable build stamp: {e}"
            self._stamp = None if self.problem else stamp
        return self._stamp

    def find_spec(self, name: str, path: Sequence[str] | None = None, target: object = None
                  ) -> ModuleSpec | None:
        if not name.startswith("judging.") and not name.endswith("__mypyc"):
            return None
        if os.environ.get(PURE_ENV):
            return None
        stamp = self._usable()
        if stamp is None:
            return None
        if name == stamp["group"]["name"]:
            return importlib.util.spec_from_file_location(name, stamp["group"]["file"])
        file = stamp["modules"].get(name)
        if file is None or not path:
            return None
        # only for the checkout that was compiled
        if os.path.realpath(next(iter(path))) != stamp["package_dir"]:
            return None
        return importlib.util.spec_from_file_location(name, file)


def install(stamp_path: str) -> None:
    """Put a :class:`NativeFinder` for the build ``stamp_path`` first on
    ``sys.meta_path``, once per process (the hook runs this file as a module of its own,
    so an earlier finder is recognised by its class's name)."""
    if not any(type(finder).__name__ == "NativeFinder" for finder in sys.meta_path):
        sys.meta_path.insert(0, NativeFinder(stamp_path))
