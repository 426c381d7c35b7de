"""API token authentication with a maximum age (M-13: tokens used to live for ever).

A token older than ``EARSHOT_API_TOKEN_MAX_AGE_DAYS`` (0: no limit) is refused with
401 and a message saying how to get a new one: the workspace page's "new token"
button, or ``DELETE`` then ``POST /api/v1/auth/token/``.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.utils import timezone
from rest_framework.authentication import TokenAuthentication
from rest_framework.exceptions import AuthenticationFailed


def token_expired(token) -> bool:
    """Whether ``token`` is older than ``EARSHOT_API_TOKEN_MAX_AGE_DAYS`` (never when 0)."""
    days = getattr(settings, "EARSHOT_API_TOKEN_MAX_AGE_DAYS", 0)
    return bool(days) and token.created < timezone.now() - timedelta(days=days)


class ExpiringTokenAuthentication(TokenAuthentication):
    """DRF's ``Authorization: Token <key>``, refusing keys past their maximum age."""

    def authenticate_credentials(self, key: str):
        user, token = super().authenticate_credentials(key)
        if token_expired(token):
            days = settings.EARSHOT_API_TOKEN_MAX_AGE_DAYS
            raise AuthenticationFailed(
                f"token expired (older than {days:g} days): create a new one on your workspace page "
                "or with POST /api/v1/auth/token/ (username and password)")
        return user, token
