"""Let the pure judging tests run without pytest-django (``pytest -p no:django``).

tests/conftest.py has an autouse fixture that adjusts pytest-django's ``settings``.
When pytest-django is not loaded, a stand-in ``settings`` object is registered so
that the pure tests (which touch no settings) still run; under pytest-django nothing
changes.
"""

from __future__ import annotations

import types

import pytest


class _SettingsStandIn:
    """Provides ``settings`` only when pytest-django is absent."""

    @pytest.fixture
    def settings(self) -> types.SimpleNamespace:
        """A bare namespace: pure tests never read Django settings."""
        return types.SimpleNamespace(STORAGES={})


def pytest_configure(config: pytest.Config) -> None:
    if not config.pluginmanager.hasplugin("django") and not config.pluginmanager.has_plugin(
        "judging-settings-stand-in"
    ):
        config.pluginmanager.register(_SettingsStandIn(), "judging-settings-stand-in")
