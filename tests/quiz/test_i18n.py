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
