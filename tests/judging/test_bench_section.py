"""judging_bench.py rewrites only its own output in docs/benchmarks.md: the sessions'
hand-written notes after its end marker survive a run (a run used to replace the whole
``## Judging`` section, dropping every note, which then had to be put back by hand)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _bench():
    spec = importlib.util.spec_from_file_location("judging_bench", ROOT / "tests" / "benchmarks" / "judging_bench.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_run_keeps_the_notes_after_its_output(tmp_path: Path) -> None:
    bench = _bench()
    doc = tmp_path / "benchmarks.md"
    doc.write_text(f"# Benchmarks\n\n## Judging\n\n{bench.BEGIN}\n\nold table\n\n{bench.END}\n\n"
                   "Note (hand-written): keep me.\n\n## IRT\n\nirt text\n", encoding="utf-8")
    bench.write_section(f"## Judging\n\n{bench.BEGIN}\n\nnew table\n\n{bench.END}\n", doc)
    text = doc.read_text(encoding="utf-8")
    assert "new table" in text and "old table" not in text
    assert "Note (hand-written): keep me." in text and "## IRT\n\nirt text" in text
    assert text.index("new table") < text.index(bench.END) < text.index("keep me")


def test_a_section_without_markers_is_replaced_and_a_missing_one_appended(tmp_path: Path) -> None:
    bench = _bench()
    doc = tmp_path / "benchmarks.md"
    doc.write_text("# Benchmarks\n\n## Judging\n\nold\n\n## IRT\n\nirt\n", encoding="utf-8")
    bench.write_section(f"## Judging\n\n{bench.BEGIN}\n\nnew\n\n{bench.END}\n", doc)
    text = doc.read_text(encoding="utf-8")
    assert "old" not in text and "new" in text and text.endswith("## IRT\n\nirt\n")
    other = tmp_path / "other.md"
    bench.write_section(f"## Judging\n\n{bench.BEGIN}\n\nx\n\n{bench.END}\n", other)
    assert other.read_text(encoding="utf-8").startswith("# Benchmarks\n\n## Judging")
