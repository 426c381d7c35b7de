"""The UI's own strings are translatable; Korean ships with the player and annotator strings."""

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "language,expected",
    [
        pytest.param("ko", "시작하기", id="korean"),
        pytest.param("en", "Start playing", id="english"),
    ],
)
def test_play_page_follows_accept_language(client, project, language, expected):
    page = client.get(reverse("quiz:play_start", args=[project.slug]), HTTP_ACCEPT_LANGUAGE=language)
    assert page.status_code == 200
    assert expected in page.content.decode()
    assert f'lang="{language}"' in page.content.decode()


PLAYER_LANGUAGES = ("ko", "th", "vi", "id")


def _catalog(language):
    import gettext
    from pathlib import Path

    from django.conf import settings

    with open(Path(settings.LOCALE_PATHS[0]) / language / "LC_MESSAGES" / "django.mo", "rb") as handle:
        return gettext.GNUTranslations(handle)


def _player_strings() -> list[str]:
    """English msgids of the question page's script and of every ruling a player can read."""
    from django.utils import translation

    from quiz.rulings import player_ruling
    from quiz.views import _play_text

    with translation.override("en"):
        strings = list(_play_text().values())
        for outcome in ("answer", "skip", "timeout"):
            for correct in (True, False):
                for mode in ("free", "mcq"):
                    for status in ("", "upheld", "rejected"):
                        strings.append(player_ruling(outcome=outcome, correct=correct, mode=mode,
                                                     challenge_status=status))
        strings.append(player_ruling(outcome="answer", correct=True, mode="free", prompted=True))
        strings.append(player_ruling(outcome="answer", correct=False, mode="free", overruled=True))
    return sorted(set(strings))


@pytest.mark.parametrize("language", PLAYER_LANGUAGES)
def test_every_player_string_of_the_game_is_translated(language):
    catalog = _catalog(language)
    missing = [s for s in _player_strings() if catalog.gettext(s) == s and s not in ("%(n)s s",)]
    assert not missing, f"{language}: untranslated {missing}"


@pytest.mark.parametrize("language", PLAYER_LANGUAGES)
def test_game_pages_follow_accept_language(client, imported, language):
    from django.utils import translation

    start = client.get(reverse("quiz:play_start", args=[imported.slug]), HTTP_ACCEPT_LANGUAGE=language)
    html = start.content.decode()
    assert f'lang="{language}"' in html
    for english in ("Start playing", "Daily challenge", "Leaderboard", "Everything"):
        assert english not in html, (language, english)
    client.post(reverse("quiz:play_start", args=[imported.slug]), {"handle": ""}, HTTP_ACCEPT_LANGUAGE=language)
    page = client.get(reverse("quiz:play_next", args=[imported.slug]), HTTP_ACCEPT_LANGUAGE=language)
    html = page.content.decode()
    for english in ("I don't know", "Next question", "Your answer:", "A pass costs no points."):
        assert english not in html, (language, english)
    with translation.override(language):
        assert translation.gettext("I don't know") in html


def test_play_link_and_audio_play_button_are_told_apart(client, imported):
    """"Play" the game (a menu link) and "Play" a clip (a button) are two messages: in
    Vietnamese one is "Chơi", the other "Phát"."""
    from quiz.study import study_update

    study_update(project=imported, design="one_mode", one_mode="free")  # a free-answer page, with its button
    board = client.get(reverse("quiz:leaderboard", args=[imported.slug]), HTTP_ACCEPT_LANGUAGE="vi")
    assert ">Chơi</a>" in board.content.decode()
    client.post(reverse("quiz:play_start", args=[imported.slug]), {"handle": ""}, HTTP_ACCEPT_LANGUAGE="vi")
    page = client.get(reverse("quiz:play_next", args=[imported.slug]), HTTP_ACCEPT_LANGUAGE="vi")
    html = page.content.decode()
    assert 'data-label-play="Phát"' in html
    assert ">Trả lời</button>" in html  # the verb on the submit button, not the noun "Câu trả lời"
