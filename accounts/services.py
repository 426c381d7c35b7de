"""Writes for people and projects."""

from __future__ import annotations

import secrets

from django.db import IntegrityError, transaction

from .models import ContactInfo, Membership, Project, Role, User

_ADJECTIVES = ["amber", "azure", "bold", "brisk", "calm", "cobalt", "coral", "crisp", "dapper", "eager", "fuzzy", "gentle", "golden", "hazel", "jolly", "keen", "lively", "lucid", "mellow", "misty", "nimble", "noble", "olive", "quiet", "rapid", "rosy", "rustic", "sage", "silver", "sly", "snowy", "solar", "sunny", "swift", "tawny", "teal", "vivid", "witty"]
_ANIMALS = ["otter", "heron", "lynx", "finch", "koala", "puffin", "marten", "gecko", "ibis", "lemur", "wren", "badger", "bison", "crane", "dingo", "egret", "ferret", "gibbon", "hare", "jackal", "kestrel", "llama", "magpie", "newt", "ocelot", "panda", "quail", "raven", "seal", "tapir", "urchin", "vole", "walrus", "yak", "zebra"]


def handle_generate() -> str:
    """A readable pseudonymous handle such as ``misty-otter-407`` (not guaranteed unique)."""
    return (
        f"{secrets.choice(_ADJECTIVES)}-{secrets.choice(_ANIMALS)}-{secrets.randbelow(900) + 100}"
    )


def _unique_handle(preferred: str | None) -> str:
    base = (preferred or "").strip()[:32]
    candidates = [base] if base else []
    candidates += [f"{base}-{secrets.randbelow(9000) + 1000}" for _ in range(3)] if base else []
    candidates += [handle_generate() for _ in range(10)]
    for candidate in candidates:
        if not User.objects.filter(handle__iexact=candidate).exists():
            return candidate
    return f"player-{secrets.token_hex(6)}"


@transaction.atomic
def guest_create(*, handle: str | None = None) -> User:
    """Create a pseudonymous guest account (no password, no contact data)."""
    for _ in range(5):
        chosen = _unique_handle(handle)
        try:
            with transaction.atomic():
                user = User(username=f"guest-{secrets.token_hex(8)}", handle=chosen, is_guest=True)
                user.set_unusable_password()
                user.save()
                return user
        except IntegrityError:
            continue
    raise RuntimeError("could not allocate a unique handle")


def user_create(
    *, username: str, password: str | None = None, handle: str | None = None, **extra
) -> User:
    """Create a registered user with a unique public handle.

    Without ``handle`` the handle is a generated pseudonym, never the login name:
    handles are public (leaderboards, exports), usernames are half a credential (M-12).
    """
    user = User(username=username, handle=_unique_handle(handle), **extra)
    if password:
        user.set_password(password)
    else:
        user.set_unusable_password()
    user.save()
    return user


def contact_set(*, user: User, email: str = "", payment_note: str = "") -> ContactInfo:
    """Store (or replace) a user's contact data in the staff-only table."""
    contact, _ = ContactInfo.objects.update_or_create(
        user=user, defaults={"email": email, "payment_note": payment_note}
    )
    return contact


@transaction.atomic
def project_create(
    *, slug: str, name: str, owner: User | None = None, is_public: bool = False,
    description: str = "",
) -> Project:
    """Create a project, make ``owner`` its owner and seed the default quiz categories."""
    from quiz.services import categories_ensure_defaults

    project = Project.objects.create(
        slug=slug, name=name, is_public=is_public, description=description
    )
    if owner is not None:
        Membership.objects.create(project=project, user=owner, role=Role.OWNER)
    categories_ensure_defaults(project)
    return project


def membership_set(*, project: Project, user: User, role: str) -> Membership:
    """Give ``user`` the ``role`` in ``project`` (replacing any earlier role)."""
    membership, _ = Membership.objects.update_or_create(
        project=project, user=user, defaults={"role": role}
    )
    return membership
