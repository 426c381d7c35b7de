"""Map external responder/item ids to the contiguous integer indices IRT fits use.

Fits work on integer indices ``0..n-1`` (what tensors index with); the database and
reports speak in external ids (primary keys, slugs).  An :class:`IndexMap` keeps the
two in step and is JSON-serialisable so a stored fit can be read back.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

__all__ = ["IndexMap"]


@dataclass(frozen=True)
class IndexMap:
    """Bidirectional id <-> index map; ``ids[k]`` is the id of index ``k``."""

    ids: tuple[Hashable, ...]
    _pos: dict[Hashable, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        pos = {v: k for k, v in enumerate(self.ids)}
        if len(pos) != len(self.ids):
            raise ValueError("IndexMap ids must be unique")
        object.__setattr__(self, "_pos", pos)

    @classmethod
    def from_ids(cls, ids: Iterable[Hashable], *, sort: bool = False) -> IndexMap:
        """Build from ids in first-seen order (duplicates collapse); ``sort`` orders them."""
        seen = list(dict.fromkeys(ids))
        if sort:
            seen = sorted(seen)  # type: ignore[type-var]
        return cls(tuple(seen))

    def __len__(self) -> int:
        return len(self.ids)

    def __contains__(self, key: object) -> bool:
        return key in self._pos

    def index(self, ids: Iterable[Hashable]) -> np.ndarray:
        """Indices (int64 array) of ``ids``; an unknown id raises ``KeyError`` naming it."""
        out = []
        for k, v in enumerate(ids):
            try:
                out.append(self._pos[v])
            except KeyError:
                raise KeyError(f"unknown id {v!r} at position {k}") from None
        return np.asarray(out, dtype=np.int64)

    def lookup(self, indices: Sequence[int] | np.ndarray) -> list[Hashable]:
        """External ids of integer ``indices``."""
        return [self.ids[int(i)] for i in np.asarray(indices).ravel()]

    def to_list(self) -> list[Hashable]:
        """Plain list for JSON storage; :meth:`from_ids` reads it back."""
        return list(self.ids)
