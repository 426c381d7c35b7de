"""SQL of the dashboard tallies (PostgreSQL): the trigger function and the rebuild.

See :mod:`frontend.models` for what the tallies hold and why. The migration that
installs the triggers keeps its own frozen copy of this SQL; this module is what
``manage.py frontend_tallies_rebuild`` runs and what the tests compare against.
"""

from __future__ import annotations

from django.db import connection, transaction

#: Tally rows of a set of responses (``{rows}``: a table or subquery with quiz_response's
#: columns), each count multiplied by ``{sign}`` (1 to add, -1 to remove).
RESPONDER_UPSERT = """
INSERT INTO frontend_respondertally AS t (project_id, responder_id, mode, n, correct, changes)
SELECT r.project_id, r.responder_id, r.mode, {sign} * COUNT(*), {sign} * COUNT(*) FILTER (WHERE r.correct), COUNT(*)
FROM {rows} r GROUP BY r.project_id, r.responder_id, r.mode ORDER BY 1, 2, 3
ON CONFLICT (project_id, responder_id, mode) DO UPDATE
SET n = t.n + EXCLUDED.n, correct = t.correct + EXCLUDED.correct, changes = t.changes + EXCLUDED.changes
"""
ITEM_UPSERT = """
INSERT INTO frontend_itemtally AS t
    (project_id, grp, question_id, mode, clue_index, choice_position, choice, correct, n)
SELECT r.project_id, CASE WHEN p.kind = 'human' THEN 0 ELSE r.responder_id END, r.question_id, r.mode,
       COALESCE(r.clue_index, -1), COALESCE(r.choice_position, -1), COALESCE(r.choice, -1), r.correct,
       {sign} * COUNT(*)
FROM {rows} r JOIN quiz_responder p ON p.id = r.responder_id
GROUP BY 1, 2, 3, 4, 5, 6, 7, 8 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8
ON CONFLICT (project_id, grp, question_id, mode, clue_index, choice_position, choice, correct) DO UPDATE
SET n = t.n + EXCLUDED.n
"""


def rebuild(project_id: int | None = None) -> dict[str, int]:
    """Recompute the tallies of one project (or all) from quiz_response; PostgreSQL only.

    Writes to the responses wait while it runs (``SHARE`` lock), so nothing
    slips between the delete and the recount. ``changes`` restarts from the
    response counts, and the new rows get new ids, so cached dashboards are
    recomputed on their next request (the data version reads both).
    """
    where = "" if project_id is None else "WHERE project_id = %s"
    params = [] if project_id is None else [project_id]
    source = "quiz_response" if project_id is None else "(SELECT * FROM quiz_response WHERE project_id = %s)"
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("LOCK TABLE quiz_response IN SHARE MODE")
        cursor.execute(f"DELETE FROM frontend_respondertally {where}", params)
        cursor.execute(f"DELETE FROM frontend_itemtally {where}", params)
        cursor.execute(RESPONDER_UPSERT.format(sign=1, rows=source), params)
        responders = cursor.rowcount
        cursor.execute(ITEM_UPSERT.format(sign=1, rows=source), params)
        items = cursor.rowcount
    return {"responder_rows": responders, "item_rows": items}
