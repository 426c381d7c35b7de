"""The judge's compiled build (judging/native.py, scripts/build_native.py).

The build must be used only while it matches its sources, only for the checkout it was
compiled from, never under ``EARSHOT_PURE``; and it must judge exactly as the sources
do, every field of every verdict. CI sets ``EARSHOT_REQUIRE_NATIVE=1``, so a build that
stopped compiling fails there instead of passing on the sources.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from judging import native
from judging.equivalence import judge_many
from tests.judging.reference_data import DATA

ROOT = Path(__file__).resolve().parents[2]
TABLE = ROOT / "judging" / "data" / "short_answers.jsonl"


def _fake_build(tmp_path: Path) -> tuple[dict, Path]:
    """A stamp for a build of a fake checkout under tmp_path (files present, digests
    right); nothing is imported from it."""
    package = tmp_path / "checkout" / "judging"
    package.mkdir(parents=True)
    lib = tmp_path / "lib"
    (lib / "judging").mkdir(parents=True)
    modules = {}
    for name in native.MODULES:
        short = name.rpartition(".")[2]
        (package / f"{short}.py").write_text(f"# {short}\n", encoding="utf-8")
        so = lib / "judging" / f"{short}.so"
        so.write_bytes(b"")
        modules[name] = str(so)
    group = lib / "earshot_judge__mypyc.so"
    group.write_bytes(b"")
    stamp = {
        "version": native.STAMP_VERSION,
        "package_dir": os.path.realpath(package),
        "cache_tag": sys.implementation.cache_tag,
        "digests": native.source_digests(package),
        "modules": modules,
        "group": {"name": "earshot_judge__mypyc", "file": str(group)},
    }
    return stamp, package


def test_the_compiled_modules_are_the_pure_core() -> None:
    package = ROOT / "judging"
    for name in native.MODULES:
        source = (package / f"{name.rpartition('.')[2]}.py").read_text(encoding="utf-8")
        assert "django" not in source, name  # the core imports without Django
    # Verdict keeps its __dict__ (judging.verdict); the calibrator sets private fields
    assert "judging.verdict" not in native.MODULES
    assert "judging.calibration" not in native.MODULES
    assert "judging.native" not in native.MODULES


def test_a_matching_build_is_usable(tmp_path: Path) -> None:
    stamp, _ = _fake_build(tmp_path)
    assert native.stamp_problem(stamp) is None


def test_an_edited_source_turns_the_whole_build_off(tmp_path: Path) -> None:
    stamp, package = _fake_build(tmp_path)
    (package / "features.py").write_text("# edited\n", encoding="utf-8")
    assert native.stamp_problem(stamp) == "sources changed since the build: judging.features"


def test_another_interpreter_or_a_missing_file_turns_it_off(tmp_path: Path) -> None:
    stamp, _ = _fake_build(tmp_path)
    assert "compiled for cpython-39" in native.stamp_problem({**stamp, "cache_tag": "cpython-39"})
    Path(stamp["modules"]["judging.numbers"]).unlink()
    assert native.stamp_problem(stamp).startswith("missing ")
    assert native.stamp_problem({**stamp, "version": 0}) is not None
    # built with -march=native on another CPU (a copied environment): not loaded
    other_cpu = {**stamp, "cpu": "0" * 16}
    assert native.stamp_problem(other_cpu) == "compiled for another CPU's instruction set" or (
        native.cpu_signature() is None)


def test_the_finder_serves_only_the_compiled_checkout(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    stamp, package = _fake_build(tmp_path)
    stamp_path = tmp_path / "stamp.json"
    stamp_path.write_text(json.dumps(stamp), encoding="utf-8")
    monkeypatch.delenv(native.PURE_ENV, raising=False)
    finder = native.NativeFinder(str(stamp_path))
    spec = finder.find_spec("judging.features", [str(package)])
    assert spec is not None and spec.origin == stamp["modules"]["judging.features"]
    group = finder.find_spec("earshot_judge__mypyc")
    assert group is not None and group.origin == stamp["group"]["file"]
    # another checkout of the same environment (judging_bench.py --against) gets its sources
    assert finder.find_spec("judging.features", [str(tmp_path / "other" / "judging")]) is None
    # modules not compiled, and everything else, fall through
    assert finder.find_spec("judging.verdict", [str(package)]) is None
    assert finder.find_spec("json", None) is None
    monkeypatch.setenv(native.PURE_ENV, "1")
    assert finder.find_spec("judging.features", [str(package)]) is None


def test_a_stale_stamp_makes_the_finder_step_aside(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(native.PURE_ENV, raising=False)
    stamp, package = _fake_build(tmp_path)
    (package / "normalize.py").write_text("# edited\n", encoding="utf-8")
    stamp_path = tmp_path / "stamp.json"
    stamp_path.write_text(json.dumps(stamp), encoding="utf-8")
    finder = native.NativeFinder(str(stamp_path))
    assert finder.find_spec("judging.features", [str(package)]) is None
    assert finder.problem == "sources changed since the build: judging.normalize"
    broken = native.NativeFinder(str(tmp_path / "absent.json"))
    assert broken.find_spec("judging.features", [str(package)]) is None
    assert broken.problem.startswith("no usable build stamp")


def test_ci_runs_the_compiled_build() -> None:
    if os.environ.get("EARSHOT_REQUIRE_NATIVE") != "1":
        pytest.skip("EARSHOT_REQUIRE_NATIVE is not set (CI sets it)")
    if os.environ.get(native.PURE_ENV):
        pytest.skip("EARSHOT_PURE is set: this pass runs the sources on purpose")
    assert native.compiled(), "scripts/install.sh built no usable compiled judge"


_DUMP = """
import json, sys
from judging.equivalence import judge_many
from judging import native
rows = json.load(sys.stdin)
out = judge_many([r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows])
print(json.dumps({"compiled": native.compiled(), "verdicts": [
    [v.correct, v.prompt, v.score, v.rule, v.matched, v.explanation, v.version] for v in out]}))
"""


def _rows() -> list[list]:
    rows = []
    files = [TABLE] + ([DATA / "openqa_eval_nq301.jsonl"] if DATA.is_dir() else [])
    for path in files:
        with path.open(encoding="utf-8") as fh:
            rows += [[r["candidate"], r["references"], r["question"]]
                     for r in map(json.loads, (line for line in fh
                                               if line.strip() and not line.startswith("#")))]
    return rows


# Pieces of answers in every seed language, numbers, marks and odd characters: the
# compiled build checks declared types at run time, so a path the data sets never take
# must not raise there either.
_PIECES = ("Paris", "not", "no wait", "actually", "7:30", "half past", "$7.50", "€", "Rp30.000",
           "ribu", "juta", "1,000", "0,75", "2/3", "三分之二", "十月一日", "서울", "이",
           "아닙니다", "ครับ", "ไม่ใช่", "Hà Nội", "không phải", "bukan", "hindi", "po", "'s",
           "Jr.", "II", "Part 2", "the", "of", "and", "or", "maybe", "could also be",
           "1954 BC", "公元618年", "昭和20年", "とうきょう", "りんご", "Kennedy", "John F.",
           "Ted", "Strauss", "°C", "373.15 K", "-40", "fifteen hundred hours", "two million",
           "S O S", "é", "ß", "\u200b", "\u0301", "Ⅳ", "①", "²", "١٢", "๑๒", "🙂", ",", ".",
           "?", "!", ":", ";", "(", ")", "-", "—", "…", "  ")
_ANSWERS = (["Paris"], "John F. Kennedy [accept Kennedy; prompt on John]", ["7:30"], ["$7.50"],
            ["서울"], ["Hà Nội"], "Richard Strauss [do not accept Johann Strauss]", ["1954"],
            ["三分之二", "2/3"], ["100 °C"], ["Rp 30.000"], ["The Godfather Part II"],
            ["เชียงใหม่"], ["東京", "Tokyo"])
_QUESTIONS = ("", "Who is the speaker?", "What time is it?", "How much?", "In what year?")


def _generated_rows(n: int, seed: int = 20261205) -> list[list]:
    rnd = random.Random(seed)
    rows = []
    for _ in range(n):
        if rnd.random() < 0.1:
            cand = "".join(chr(rnd.randint(0x20, 0x2FFF)) for _ in range(rnd.randint(1, 12)))
        else:
            cand = rnd.choice((" ", "")).join(rnd.choice(_PIECES)
                                              for _ in range(rnd.randint(1, 8)))
        rows.append([cand, rnd.choice(_ANSWERS), rnd.choice(_QUESTIONS)])
    return rows


def test_the_build_judges_as_the_sources_do() -> None:
    if not native.compiled():
        pytest.skip("the judge runs from its sources here (no compiled build in use)")
    rows = _rows() + _generated_rows(3000)
    env = {**os.environ, native.PURE_ENV: "1"}
    done = subprocess.run([sys.executable, "-c", _DUMP], input=json.dumps(rows), env=env,
                          cwd=ROOT, capture_output=True, text=True, check=True)
    pure = json.loads(done.stdout)
    assert pure["compiled"] is False
    mine = [[v.correct, v.prompt, v.score, v.rule, v.matched, v.explanation, v.version]
            for v in judge_many(*zip(*rows, strict=True))]
    assert len(mine) == len(rows) >= 10000  # (the table, NQ301 where the data is, 3,000 made up)
    differ = [(rows[i][0], a, b) for i, (a, b) in enumerate(zip(pure["verdicts"], mine,
                                                                 strict=True)) if a != b]
    assert not differ, differ[:5]
