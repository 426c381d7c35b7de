"""Live multiplayer rooms (docs/rooms.md).

A room's answers are ordinary :class:`quiz.models.Response` rows (judged by the same
code, counted by the same dashboards and fits); :class:`RoomBuzz` ties each one to
its room, with the buzz time and the clue the server had revealed.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from accounts.models import Project
from quiz.models import Presentation, Question, Responder, Response


class RoomPhase(models.TextChoices):
    LOBBY = "lobby", _("Waiting for the host")
    PLAYING = "playing", _("Playing")
    FINISHED = "finished", _("Finished")


class Room(models.Model):
    """A game several players play together, led by a host, joined by a short code."""

    project = models.ForeignKey(Project, on_delete=models.CASCADE, related_name="rooms")
    code = models.CharField(max_length=8, unique=True)
    host = models.ForeignKey(Responder, on_delete=models.CASCADE, related_name="hosted_rooms")
    phase = models.CharField(max_length=10, choices=RoomPhase.choices, default=RoomPhase.LOBBY)
    size = models.PositiveSmallIntegerField(default=10, help_text="Questions in the room's round.")
    order = models.JSONField(default=list, blank=True, help_text="The round's question ids, drawn at the start.")
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]

    def __str__(self) -> str:
        return f"room {self.code}"


class RoomPlayer(models.Model):
    """A player in a room; reconnecting finds the same row (and score)."""

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="players")
    responder = models.ForeignKey(Responder, on_delete=models.CASCADE, related_name="room_seats")
    name = models.CharField(max_length=40)
    points = models.IntegerField(default=0)
    joined_at = models.DateTimeField(auto_now_add=True)
    connections = models.PositiveSmallIntegerField(default=0, help_text="Open sockets (pages) of this player now.")

    class Meta:
        ordering = ["id"]
        constraints = [models.UniqueConstraint(fields=["room", "responder"], name="uniq_room_player")]

    def __str__(self) -> str:
        return f"{self.name} in {self.room_id}"


class QuestionPhase(models.TextChoices):
    OPEN = "open", _("Open for buzzes")
    BUZZED = "buzzed", _("A player is answering")
    WON = "won", _("Answered correctly")
    DEAD = "dead", _("Nobody got it")


class RoomQuestion(models.Model):
    """One question of a room's round and its clock (``rooms.protocol``)."""

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="questions")
    index = models.PositiveSmallIntegerField()
    question = models.ForeignKey(Question, on_delete=models.PROTECT, related_name="+")
    phase = models.CharField(max_length=10, choices=QuestionPhase.choices, default=QuestionPhase.OPEN)
    started_at = models.DateTimeField()
    paused_s = models.FloatField(default=0.0, help_text="Seconds the clock stood still for answers so far.")
    paused_at = models.DateTimeField(null=True, blank=True, help_text="Set while a buzzer answers.")
    buzzer = models.ForeignKey(RoomPlayer, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    winner = models.ForeignKey(RoomPlayer, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    revealed = models.PositiveSmallIntegerField(default=1, help_text="Clues the server has revealed.")
    ended_at = models.DateTimeField(null=True, blank=True)
    clip_durations = models.JSONField(
        default=list, blank=True,
        help_text="Seconds of each clue's clip, fixed when the question begins: its clock (rooms.protocol).")
    clip_ids = models.JSONField(default=list, blank=True,
                                help_text="Public ids of the clue clips, in order, fixed when the question begins.")

    class Meta:
        ordering = ["room", "index"]
        constraints = [
            models.UniqueConstraint(fields=["room", "index"], name="uniq_room_question_index"),
            models.UniqueConstraint(fields=["room", "question"], name="uniq_room_question"),
        ]

    def __str__(self) -> str:
        return f"question {self.index} of {self.room_id}"


class RoomBuzz(models.Model):
    """One buzz: who, when, on which clue; and the response it led to (if any)."""

    room_question = models.ForeignKey(RoomQuestion, on_delete=models.CASCADE, related_name="buzzes")
    player = models.ForeignKey(RoomPlayer, on_delete=models.CASCADE, related_name="buzzes")
    presentation = models.ForeignKey(Presentation, on_delete=models.CASCADE, related_name="+")
    buzzed_at = models.DateTimeField()
    clue_index = models.PositiveSmallIntegerField()
    clue_time_s = models.FloatField()
    position = models.FloatField(help_text="How far through the pyramid (0-1) the buzz came.")
    response = models.OneToOneField(Response, null=True, blank=True, on_delete=models.SET_NULL,
                                    related_name="room_buzz")
    correct = models.BooleanField(null=True)
    points = models.IntegerField(default=0)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(fields=["room_question", "player"], name="uniq_buzz_per_question"),
        ]

    def __str__(self) -> str:
        return f"buzz by {self.player_id} on {self.room_question_id}"
