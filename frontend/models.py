"""Dashboard read model: response counts kept by the database as responses change.

The model-vs-human dashboard sums counts over all of a project's responses. With
a million responses, grouping them on every request takes seconds, so PostgreSQL
keeps two small tallies up to date itself, with statement-level triggers on
``quiz_response`` (see migration ``0001_create_response_tallies``): every INSERT,
UPDATE, DELETE or COPY -- the submit and import services, re-scoring, admin
edits, cascades, raw SQL -- adjusts them in the same transaction, so they can
never disagree with the responses. No write path calls anything.

The tallies hold the *stored* rule verdict (``quiz_response.correct``). Human
judgements and LLM verdicts live in judging; the dashboard corrects the counts
for them when it reads (``frontend.selectors.verdict_changes``), so a human
judgement wins without touching the tallies.

Ids are plain integers, not foreign keys: a tally row outlives the responses it
counted (its counts drop to zero) and the triggers never trip over the order in
which Django's cascade deletes rows. On SQLite (the demo default) there are no
triggers; the tallies stay empty and the dashboard groups the responses instead.
``manage.py frontend_tallies_rebuild`` recomputes both from the responses.
"""

from __future__ import annotations

from django.db import models


class ResponderTally(models.Model):
    """Responses of one responder in one mode: how many, how many judged correct.

    ``changes`` counts every response inserted, updated or deleted for the
    responder; its sum over a project only grows, which makes it the dashboard's
    cheap "has anything changed?" check.
    """

    project_id = models.BigIntegerField()
    responder_id = models.BigIntegerField()
    mode = models.CharField(max_length=10)
    n = models.BigIntegerField(default=0)
    correct = models.BigIntegerField(default=0)
    changes = models.BigIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["project_id", "responder_id", "mode"], name="uniq_respondertally_key"),
        ]

    def __str__(self) -> str:
        return f"responder {self.responder_id} {self.mode}: {self.correct}/{self.n}"


class ItemTally(models.Model):
    """Responses counted per item cell.

    Key: ``grp`` (0 for every human, pooled; the responder id for a model),
    question, mode, clue index, chosen screen position, chosen option (``-1`` for
    none, ``frontend.dashboard.NONE``: a unique key treats NULLs as all different)
    and the stored verdict. Humans collapse into a few cells per question
    however many play; models keep one cell per answer.
    """

    project_id = models.BigIntegerField()
    grp = models.BigIntegerField()
    question_id = models.BigIntegerField()
    mode = models.CharField(max_length=10)
    clue_index = models.IntegerField()
    choice_position = models.IntegerField()
    choice = models.IntegerField()
    correct = models.BooleanField()
    n = models.BigIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["project_id", "grp", "question_id", "mode", "clue_index", "choice_position", "choice",
                        "correct"],
                name="uniq_itemtally_key",
            ),
        ]

    def __str__(self) -> str:
        return f"item q{self.question_id} {self.mode} grp {self.grp}: {self.n}"
