"""One upsert per tally table per trigger call, so row locks are taken in one order.

The first trigger function subtracted the old rows and added the new rows of an
UPDATE in four statements; two concurrent re-scores moving answers between the same
two cells in opposite directions could each hold one cell and wait for the other
(a deadlock PostgreSQL resolves by aborting one). Frozen copy of
``frontend.tallies.trigger_function()`` at this migration (a test checks they match).
"""

import importlib

from django.db import migrations

FUNCTION = """
CREATE OR REPLACE FUNCTION frontend_tally_responses() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
INSERT INTO frontend_respondertally AS t (project_id, responder_id, mode, n, correct, changes)
SELECT r.project_id, r.responder_id, r.mode, SUM(r.s), COALESCE(SUM(r.s) FILTER (WHERE r.correct), 0), COUNT(*)
FROM (SELECT *, 1 AS s FROM new_rows) r GROUP BY r.project_id, r.responder_id, r.mode ORDER BY 1, 2, 3
ON CONFLICT (project_id, responder_id, mode) DO UPDATE
SET n = t.n + EXCLUDED.n, correct = t.correct + EXCLUDED.correct, changes = t.changes + EXCLUDED.changes;
INSERT INTO frontend_itemtally AS t
    (project_id, grp, question_id, mode, clue_index, choice_position, choice, correct, n)
SELECT r.project_id, CASE WHEN p.kind = 'human' THEN 0 ELSE r.responder_id END, r.question_id, r.mode,
       COALESCE(r.clue_index, -1), COALESCE(r.choice_position, -1), COALESCE(r.choice, -1), r.correct,
       SUM(r.s)
FROM (SELECT *, 1 AS s FROM new_rows) r JOIN quiz_responder p ON p.id = r.responder_id
GROUP BY 1, 2, 3, 4, 5, 6, 7, 8 HAVING SUM(r.s) <> 0 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8
ON CONFLICT (project_id, grp, question_id, mode, clue_index, choice_position, choice, correct) DO UPDATE
SET n = t.n + EXCLUDED.n;
  ELSIF TG_OP = 'DELETE' THEN
INSERT INTO frontend_respondertally AS t (project_id, responder_id, mode, n, correct, changes)
SELECT r.project_id, r.responder_id, r.mode, SUM(r.s), COALESCE(SUM(r.s) FILTER (WHERE r.correct), 0), COUNT(*)
FROM (SELECT *, -1 AS s FROM old_rows) r GROUP BY r.project_id, r.responder_id, r.mode ORDER BY 1, 2, 3
ON CONFLICT (project_id, responder_id, mode) DO UPDATE
SET n = t.n + EXCLUDED.n, correct = t.correct + EXCLUDED.correct, changes = t.changes + EXCLUDED.changes;
INSERT INTO frontend_itemtally AS t
    (project_id, grp, question_id, mode, clue_index, choice_position, choice, correct, n)
SELECT r.project_id, CASE WHEN p.kind = 'human' THEN 0 ELSE r.responder_id END, r.question_id, r.mode,
       COALESCE(r.clue_index, -1), COALESCE(r.choice_position, -1), COALESCE(r.choice, -1), r.correct,
       SUM(r.s)
FROM (SELECT *, -1 AS s FROM old_rows) r JOIN quiz_responder p ON p.id = r.responder_id
GROUP BY 1, 2, 3, 4, 5, 6, 7, 8 HAVING SUM(r.s) <> 0 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8
ON CONFLICT (project_id, grp, question_id, mode, clue_index, choice_position, choice, correct) DO UPDATE
SET n = t.n + EXCLUDED.n;
  ELSIF TG_OP = 'UPDATE' THEN
INSERT INTO frontend_respondertally AS t (project_id, responder_id, mode, n, correct, changes)
SELECT r.project_id, r.responder_id, r.mode, SUM(r.s), COALESCE(SUM(r.s) FILTER (WHERE r.correct), 0), COUNT(*)
FROM (SELECT *, -1 AS s FROM old_rows UNION ALL SELECT *, 1 AS s FROM new_rows) r GROUP BY r.project_id, r.responder_id, r.mode ORDER BY 1, 2, 3
ON CONFLICT (project_id, responder_id, mode) DO UPDATE
SET n = t.n + EXCLUDED.n, correct = t.correct + EXCLUDED.correct, changes = t.changes + EXCLUDED.changes;
INSERT INTO frontend_itemtally AS t
    (project_id, grp, question_id, mode, clue_index, choice_position, choice, correct, n)
SELECT r.project_id, CASE WHEN p.kind = 'human' THEN 0 ELSE r.responder_id END, r.question_id, r.mode,
       COALESCE(r.clue_index, -1), COALESCE(r.choice_position, -1), COALESCE(r.choice, -1), r.correct,
       SUM(r.s)
FROM (SELECT *, -1 AS s FROM old_rows UNION ALL SELECT *, 1 AS s FROM new_rows) r JOIN quiz_responder p ON p.id = r.responder_id
GROUP BY 1, 2, 3, 4, 5, 6, 7, 8 HAVING SUM(r.s) <> 0 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8
ON CONFLICT (project_id, grp, question_id, mode, clue_index, choice_position, choice, correct) DO UPDATE
SET n = t.n + EXCLUDED.n;
  END IF;
  RETURN NULL;
END $$;
"""


def forward(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(FUNCTION)


def backward(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        first = importlib.import_module("frontend.migrations.0001_create_response_tallies")
        schema_editor.execute(first.FUNCTION.replace("CREATE FUNCTION", "CREATE OR REPLACE FUNCTION", 1))


class Migration(migrations.Migration):

    dependencies = [
        ("frontend", "0001_create_response_tallies"),
    ]

    operations = [migrations.RunPython(forward, backward)]
