"""The error judging services raise for a request they cannot carry out."""

from __future__ import annotations


class JudgingError(ValueError):
    """A request that cannot be carried out (names the offending field)."""

    def __init__(self, field: str, message: str):
        self.field = field
        super().__init__(f"{field}: {message}")
