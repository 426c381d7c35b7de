"""Report bundle: one ZIP with an HTML report, figures (PNG+SVG), tables (CSV) and a manifest.

The manifest records what the numbers came from — a SHA-256 of the response data,
the judging rule versions of the verdicts and the IRT fit ids used — so anyone can
check a paper's tables against the data and reproduce them. Each θ column of the
model ranking (and each mean difficulty) comes from the fit matching its mode and
the bundle's filters (:mod:`frontend.provenance`), named in the report, in the
table's ``*_theta_fit_*`` columns and under ``theta_fits`` in the manifest.

Sections whose source is not available (no IRT fit, no annotation campaigns, no
judge–human agreement yet) are omitted with a note in the report and listed under
``omitted`` in the manifest; the hooks are in :mod:`frontend.selectors`.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import tempfile
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

import pandas as pd
from django.template.loader import render_to_string
from django.utils import timezone

from accounts.models import Project

from . import charts, diagnostics, exports, selectors
from . import dashboard as core
from .columns import column_label
from .dashboard import Filters

BUNDLE_VERSION = "1"


@dataclass
class Section:
    """One part of the HTML report."""

    key: str
    title: str
    tables: list[tuple[str, pd.DataFrame]] = field(default_factory=list)
    figures: list[str] = field(default_factory=list)
    note: str = ""
    #: column key -> header in the HTML report (CSV keeps the keys)
    labeler: Callable[[str], str] = column_label


def _fig_files(name: str, table: pd.DataFrame, title: str) -> dict[str, bytes]:
    fig = charts.chart_for(name, table, title)
    return {f"figures/{name}.svg": charts.render(fig, "svg"), f"figures/{name}.png": charts.render(fig, "png")}


def _listening_files(name: str, summary, files: dict[str, bytes], add_table) -> tuple[list, list[str]]:
    """A listening test's tables and plots (SVG + PNG) for the bundle."""
    from annotation.listening_selectors import listening_figures, listening_tables

    tables = [add_table(f"annotation_{name}_{table}", frame)
              for table, frame in listening_tables(summary).items()]
    figures = []
    for criterion in summary.reports:
        svgs = listening_figures(summary, criterion, fmt="svg")
        pngs = listening_figures(summary, criterion, fmt="png")
        for k, (svg, png) in enumerate(zip(svgs, pngs, strict=True)):
            fig = f"annotation_{name}_{criterion}_{k}"
            files[f"figures/{fig}.svg"], files[f"figures/{fig}.png"] = svg, png
            figures.append(fig)
    return tables, figures


def build(project: Project, *, raw: bool = False) -> tuple[dict[str, bytes], dict]:
    """Compute every file of the bundle in memory (tables and figures are small).

    Table CSVs quote formula-like text cells (:mod:`frontend.csv_safety`) unless ``raw``.

    Returns ``(files, manifest)`` where ``files`` maps archive paths to bytes.
    """
    data = selectors.dashboard_data(project, Filters())
    t = data.tables
    files: dict[str, bytes] = {}
    sections: list[Section] = []
    omitted: list[dict[str, str]] = []

    def add_table(name: str, table: pd.DataFrame) -> tuple[str, pd.DataFrame]:
        files[f"tables/{name}.csv"] = exports.table_bytes(table, "csv", raw=raw)
        return name, table

    def add_figure(name: str, table: pd.DataFrame, title: str) -> str:
        files.update(_fig_files(name, table, title))
        return name

    sections.append(Section("humans_vs_models", "Humans vs models",
                            [add_table("headline", t["headline"])],
                            [add_figure("headline", t["headline"], "Humans vs models")]))
    ranking = t["models"]
    theta = data.theta  # per mode, the fit matching the bundle's view (no filters), or none
    found = [f for f in theta.values() if f.found]
    sections.append(Section(
        "ranking", "Per-model ranking" + (" with θ" if found else ""),
        [add_table("models", ranking)], [add_figure("models", ranking, "Model ranking")],
        " ".join(f.label for f in theta.values()),
    ))
    items = {mode: selectors.fit_items(f.fit_id) for mode, f in theta.items()}
    cat_diff = core.category_vs_difficulty(t["category"], items, theta)
    sections.append(Section(
        "category", "Category accuracy" + (" vs difficulty" if found else ""),
        [add_table("category", t["category"]), add_table("category_difficulty", cat_diff)],
        [add_figure("category", t["category"], "Accuracy by category")],
        "" if found else "No IRT fit over these responses: difficulty (mean b) omitted.",
    ))
    for key, title in (("source", "By source dataset"), ("qtype", "By question type"),
                       ("condition", "By model condition (modality ablation)")):
        sections.append(Section(key, title, [add_table(key, t[key])], [add_figure(key, t[key], title)]))
    sections.append(Section("mcq", "MCQ diagnostics",
                            [add_table("mcq_positions", t["mcq_positions"]),
                             add_table("mcq_distractors", t["mcq_distractors"])],
                            [add_figure("mcq_positions", t["mcq_positions"], "Chosen option by position"),
                             add_figure("mcq_distractors", t["mcq_distractors"], "Errors across distractors")]))
    agreement = t["agreement"].assign(landis_koch=[diagnostics.landis_koch(k) for k in t["agreement"]["kappa"]])
    sections.append(Section("agreement", "Inter-human agreement",
                            [add_table("agreement", agreement), add_table("unsolved", t["unsolved"])],
                            [add_figure("agreement", t["agreement"], "Inter-human agreement")]))

    campaigns = selectors.annotation_reports(project)
    if campaigns:
        tables, figures = [], []
        for report in campaigns:
            name = str(report.get("campaign", "campaign"))
            for part in ("mos", "agreement"):
                frame = report.get(part)
                if isinstance(frame, pd.DataFrame):
                    tables.append(add_table(f"annotation_{name}_{part}", frame))
            if report.get("listening") is not None:
                tables_, figures_ = _listening_files(name, report["listening"], files, add_table)
                tables += tables_
                figures += figures_
        sections.append(Section("annotation", "Listening tests: MOS ± CI, agreement (Landis–Koch) and "
                                "comparative tests (preference, ABX, CCR/DCR/SMOS, MUSHRA, ranking)",
                                tables, figures))
    else:
        omitted.append({"section": "annotation", "reason": "no annotation campaign reports available"})
    judge = selectors.judge_human_agreement(project)
    if isinstance(judge, pd.DataFrame):
        sections.append(Section("judge_human", "Judge–human agreement", [add_table("judge_human", judge)]))
    else:
        omitted.append({"section": "judge_human", "reason": "judging has no judge–human agreement yet"})
    for f in theta.values():
        if not f.found:
            omitted.append({"section": "irt", "reason": f"no succeeded {f.mode} IRT fit with {f.filters}"})

    seed_keys = _seed_sections(project, sections, add_table, omitted)

    generated = timezone.now()
    manifest = {
        "bundle_version": BUNDLE_VERSION,
        "project": project.slug,
        "generated_at": generated.isoformat(),
        "data_hash": selectors.data_hash(project),
        "data_hash_algorithm": "sha256 over (response id, responder id, question id, mode, effective verdict, rule version) ordered by response id",
        "rule_versions": selectors.rule_versions(project),
        "fit_ids": sorted({f.fit_id for f in found}),
        "theta_fits": {mode: f.as_dict() for mode, f in theta.items()},
        "counts": data.head.counts,
        "topline": {"share": data.head.topline.share, "min_answers": data.head.topline.min_answers,
                    "eligible": data.head.topline.eligible, "selected": len(data.head.topline.responder_ids)},
        "omitted": omitted,
        "quiz_study": _study_summary(project),
        "seed_tables": seed_keys,
    }
    html = render_to_string("frontend/report.html", {
        "project": project, "sections": [
            {"title": s.title, "note": s.note, "figures": s.figures,
             "tables": [{"name": n, "html": tb.rename(columns=s.labeler).to_html(index=False, na_rep="", float_format=lambda v: f"{v:.3f}",
                                                      classes="table", border=0)} for n, tb in s.tables]}
            for s in sections
        ],
        "manifest": manifest, "omitted": omitted, "generated": generated,
    })
    files["report.html"] = html.encode("utf-8")
    manifest["files"] = {path: hashlib.sha256(content).hexdigest() for path, content in sorted(files.items())}
    files["manifest.json"] = json.dumps(manifest, indent=2, ensure_ascii=False).encode("utf-8")
    return files, manifest


def _seed_sections(project: Project, sections: list[Section], add_table, omitted: list[dict[str, str]]) -> list[str]:
    """The seed-paper tables (``frontend.seed_selectors``), one section per paper; the keys written."""
    from .seed_columns import seed_label
    from .seed_selectors import NOTES, SEED_TABLES, seed_tables

    result = seed_tables(project)
    written: list[str] = []
    by_paper: dict[str, list[tuple[str, pd.DataFrame]]] = {}
    for key, (paper, _ref, _title) in SEED_TABLES.items():
        table = result.tables[key]
        if table.empty:
            omitted.append({"section": f"seed_{key}", "reason": NOTES.get(key, "no data")})
            continue
        by_paper.setdefault(paper, []).append(add_table(f"seed_{key}", table))
        written.append(key)
    for paper, tables in by_paper.items():
        refs = "; ".join(f"seed_{k}: {SEED_TABLES[k][1] or '—'} {SEED_TABLES[k][2]}"
                         for k in (name[5:] for name, _ in tables))
        sections.append(Section(f"seed_{paper.lower()}", f"{paper}: tables from the paper", tables,
                                note=refs, labeler=seed_label))
    return written


def write_bundle(project: Project, target: IO[bytes] | Path | str, *, raw: bool = False) -> dict:
    """Write the bundle ZIP to ``target`` (path or binary file); return the manifest."""
    files, manifest = build(project, raw=raw)
    stamp = dt.datetime(2020, 1, 1).timetuple()[:6]
    with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for path, content in files.items():
            info = zipfile.ZipInfo(f"{project.slug}-report/{path}", date_time=stamp)
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, content)
    return manifest


def _study_summary(project: Project) -> dict:
    """The quiz study settings the human responses were collected under (docs/quiz-studies.md)."""
    from quiz.models import Response
    from quiz.study import study_for

    study = study_for(project)
    humans = Response.objects.filter(project=project, responder__kind="human")
    return {
        "design": study.design, "one_mode": study.one_mode if study.design == "one_mode" else None,
        "selection": study.selection,
        "feedback": study.feedback, "results_released": study.results_released, "access": study.access,
        "protocol_version": study.protocol_version if study.has_protocol else None,
        "designs_in_responses": sorted(set(humans.values_list("design", flat=True).distinct())),
        "stage_two_responses": humans.filter(stage=2).count(),
        "counted": "stage 1 (independent) answers only",
    }


def bundle_file(project: Project, *, raw: bool = False) -> IO[bytes]:
    """The bundle in an anonymous temporary file, rewound (for streaming)."""
    handle = tempfile.TemporaryFile()  # noqa: SIM115 -- returned open, closed by the caller
    write_bundle(project, handle, raw=raw)
    handle.seek(0)
    return handle
