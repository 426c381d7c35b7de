"""SQL of the dashboard tallies (PostgreSQL): the trigger function and the rebuild.

See :mod:`frontend.models` for what the tallies hold and why. Migrations keep their
own frozen copy of the trigger function (``0002_tally_one_lock_order`` is the current
one; a test checks it equals :func:`trigger_function`); this module is also what
``manage.py frontend_tallies_rebuild`` runs.
"""

from __future__ import annotations

from django.db import connection, transaction

#: Tally rows of a set of responses: ``{rows}`` is a subquery with quiz_response's
#: columns plus ``s``, +1 for a row to add and -1 for one to remove. Old and new rows of
#: an UPDATE go through ONE upsert per table, grouped and ordered by key, so every
#: statement takes its row locks in one order (two concurrent re-scores moving answers
#: between the same two cells cannot deadlock). Item cells whose net change is zero are
#: not touched; responder rows always are (``changes`` feeds the data version).
RESPONDER_UPSERT = """
INSERT INTO frontend_respondertally AS t (project_id, responder_id, mode, n, correct, changes)
SELECT r.project_id, r.responder_id, r.mode, SUM(r.s), COALESCE(SUM(r.s) FILTER (WHERE r.correct), 0), COUNT(*)
FROM {rows} r GROUP BY r.project_id, r.responder_id, r.mode ORDER BY 1, 2, 3
ON CONFLICT (project_id, responder_id, mode) DO UPDATE
SET n = t.n + EXCLUDED.n, correct = t.correct + EXCLUDED.correct, changes = t.changes + EXCLUDED.changes
"""
ITEM_UPSERT = """
INSERT INTO frontend_itemtally AS t
    (project_id, grp, question_id, mode, clue_index, choice_position, choice, correct, n)
SELECT r.project_id, CASE WHEN p.kind = 'human' THEN 0 ELSE r.responder_id END, r.question_id, r.mode,
       COALESCE(r.clue_index, -1), COALESCE(r.choice_position, -1), COALESCE(r.choice, -1), r.correct,
       SUM(r.s)
FROM {rows} r JOIN quiz_responder p ON p.id = r.responder_id
GROUP BY 1, 2, 3, 4, 5, 6, 7, 8 HAVING SUM(r.s) <> 0 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8
ON CONFLICT (project_id, grp, question_id, mode, clue_index, choice_position, choice, correct) DO UPDATE
SET n = t.n + EXCLUDED.n
"""
#: ``{rows}`` of the trigger, per event (transition tables: new_rows, old_rows)
TRIGGER_ROWS = {
    "INSERT": "(SELECT *, 1 AS s FROM new_rows)",
    "DELETE": "(SELECT *, -1 AS s FROM old_rows)",
    "UPDATE": "(SELECT *, -1 AS s FROM old_rows UNION ALL SELECT *, 1 AS s FROM new_rows)",
}


def trigger_function() -> str:
    """The plpgsql function behind the three statement-level triggers."""
    branches = []
    for i, (op, rows) in enumerate(TRIGGER_ROWS.items()):
        keyword = "IF" if i == 0 else "ELSIF"
        branches.append(
            f"  {keyword} TG_OP = '{op}' THEN\n"
            + RESPONDER_UPSERT.format(rows=rows).strip() + ";\n"
            + ITEM_UPSERT.format(rows=rows).strip() + ";\n"
        )
    return (
        "CREATE OR REPLACE FUNCTION frontend_tally_responses() RETURNS trigger LANGUAGE plpgsql AS $$\n"
        "BEGIN\n" + "".join(branches) + "  END IF;\n  RETURN NULL;\nEND $$;"
    )


def rebuild(project_id: int | None = None) -> dict[str, int]:
    """Recompute the tallies of one project (or all) from quiz_response; PostgreSQL only.

    Writes to the responses wait while it runs (``SHARE`` lock), so nothing
    slips between the delete and the recount. ``changes`` restarts from the
    response counts, and the new rows get new ids, so cached dashboards are
    recomputed on their next request (the data version reads both).
    """
    where = "" if project_id is None else "WHERE project_id = %s"
    params = [] if project_id is None else [project_id]
    source = f"(SELECT *, 1 AS s FROM quiz_response {where})"
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("LOCK TABLE quiz_response IN SHARE MODE")
        cursor.execute(f"DELETE FROM frontend_respondertally {where}", params)
        cursor.execute(f"DELETE FROM frontend_itemtally {where}", params)
        cursor.execute(RESPONDER_UPSERT.format(rows=source), params)
        responders = cursor.rowcount
        cursor.execute(ITEM_UPSERT.format(rows=source), params)
        items = cursor.rowcount
    return {"responder_rows": responders, "item_rows": items}
