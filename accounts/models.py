"""People, projects and roles.

A user is known everywhere by a pseudonymous ``handle``. Contact data needed for
payment lives in :class:`ContactInfo`, a separate table readable only by staff and
never joined into responses, ratings or exports.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils.translation import gettext_lazy as _


class User(AbstractUser):
    """A person who plays, annotates or researches. ``handle`` is their public name."""

    handle = models.CharField(max_length=40, unique=True)
    is_guest = models.BooleanField(
        default=False, help_text="Created on the fly for a guest player or crowd annotator."
    )

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return self.handle


class ContactInfo(models.Model):
    """Contact data a study needs (e.g. payment e-mail). Staff-only; never exported."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="contact"
    )
    email = models.EmailField(blank=True)
    payment_note = models.TextField(blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = "contact info"
        verbose_name_plural = "contact info"

    def __str__(self) -> str:
        return f"contact of user #{self.user_id}"


class Project(models.Model):
    """Everything (question banks, campaigns, model systems, fits) belongs to a project."""

    slug = models.SlugField(max_length=60, unique=True)
    name = models.CharField(max_length=200)
    description = models.TextField(blank=True)
    is_public = models.BooleanField(
        default=False, help_text="Anyone (guests included) may play this project's quiz."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Role(models.TextChoices):
    OWNER = "owner", _("Owner")
    RESEARCHER = "researcher", _("Researcher")
    PARTICIPANT = "participant", _("Participant")


class Membership(models.Model):
    """A user's role in one project."""

    project = models.ForeignKey(Project, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(max_length=20, choices=Role.choices)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["project", "user"], name="uniq_membership"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id}@{self.project_id}:{self.role}"
