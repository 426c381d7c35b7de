"""F-12 / M-12 / M-13: log-in lockout, API throttles, 401 for bad tokens, JSON API errors,
generated handles."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.throttling import AnonRateThrottle, UserRateThrottle

pytestmark = pytest.mark.django_db

PASSWORD = "right-pass-123!"


@pytest.fixture(autouse=True)
def _fresh(settings):
    from django.core.cache import cache

    cache.clear()
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.AXES_FAILURE_LIMIT = 5


@pytest.fixture
def staff(make_user):
    return make_user(username="staffer", password=PASSWORD, is_staff=True, is_superuser=True)


@pytest.fixture
def make_user(db):
    from accounts.services import user_create

    def make(*, username: str, password: str = PASSWORD, **extra):
        return user_create(username=username, password=password, **extra)

    return make


def _login_page(client, url, username, password):
    page = client.get(url)
    assert page.status_code == 200
    return client.post(url, {"username": username, "password": password, "next": "/"})


@pytest.mark.parametrize("url", ["/accounts/login/", "/admin/login/"])
def test_login_forms_lock_out_after_repeated_failures(client, staff, url):
    for _ in range(4):
        response = _login_page(client, url, "staffer", "wrong")
        assert response.status_code == 200  # the form again, with an error
    assert client.post(url, {"username": "staffer", "password": "wrong"}).status_code == 429  # 5th failure
    locked = client.post(url, {"username": "staffer", "password": PASSWORD})
    assert locked.status_code == 429
    assert "Too many failed log-ins" in locked.content.decode()
    assert int(locked["Retry-After"]) > 0
    assert "_auth_user_id" not in client.session  # the right password did not get in


def test_lockout_is_per_username_and_address(client, make_user):
    make_user(username="victim")
    for _ in range(5):
        client.post("/accounts/login/", {"username": "victim", "password": "wrong"})
    assert client.post("/accounts/login/", {"username": "victim", "password": PASSWORD}).status_code == 429
    other_address = client.post("/accounts/login/", {"username": "victim", "password": PASSWORD},
                                REMOTE_ADDR="10.9.9.9")
    assert other_address.status_code == 302  # not locked out from everywhere


def test_a_success_before_the_limit_resets_the_count(client, make_user):
    make_user(username="forgetful")
    for _ in range(4):
        client.post("/accounts/login/", {"username": "forgetful", "password": "wrong"})
    assert client.post("/accounts/login/", {"username": "forgetful", "password": PASSWORD}).status_code == 302
    client.logout()
    for _ in range(4):
        assert client.post("/accounts/login/", {"username": "forgetful", "password": "wrong"}).status_code == 200


def test_api_token_endpoint_locks_out(client, make_user):
    make_user(username="scripter")
    url = reverse("api-token")
    for _ in range(4):
        assert client.post(url, {"username": "scripter", "password": "wrong"}).status_code == 400
    assert client.post(url, {"username": "scripter", "password": "wrong"}).status_code == 429
    locked = client.post(url, {"username": "scripter", "password": PASSWORD})
    assert locked.status_code == 429 and "token" not in locked.json()
    assert "Too many failed log-ins" in locked.json()["detail"]


def test_api_throttles_anonymous_and_users(client, make_user, monkeypatch):
    monkeypatch.setattr(AnonRateThrottle, "THROTTLE_RATES", {"anon": "3/min", "user": "5/min"})
    monkeypatch.setattr(UserRateThrottle, "THROTTLE_RATES", {"anon": "3/min", "user": "5/min"})
    # anonymous: throttled where anonymous callers are let in (token, schema)
    anonymous = [client.post(reverse("api-token"), {}).status_code for _ in range(4)]
    assert anonymous == [400, 400, 400, 429]
    url = reverse("api-projects")
    from rest_framework.authtoken.models import Token

    token = Token.objects.create(user=make_user(username="heavy"))
    auth = {"HTTP_AUTHORIZATION": f"Token {token.key}"}
    answers = [client.get(url, **auth) for _ in range(6)]
    assert [a.status_code for a in answers] == [200] * 5 + [429]
    assert answers[-1]["Content-Type"].startswith("application/json") and "Retry-After" in answers[-1]


def test_production_throttle_defaults_are_configured():
    """The suite raises the rates (many calls a minute); production gets these."""
    from config import env

    assert env.env_rate("EARSHOT_TEST_UNSET_RATE", "120/min") == "120/min"
    text = (__import__("pathlib").Path(__file__).resolve().parents[2] / "config" / "settings.py").read_text()
    assert '"120/min"' in text and '"1200/min"' in text


def test_bad_token_answers_401_with_challenge(client):
    response = client.get(reverse("api-projects"), HTTP_AUTHORIZATION="Token not-a-real-token")
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == 'Token'
    assert response.json()["detail"]


def test_api_404_and_500_are_json(client, make_user, monkeypatch):
    missing = client.get("/api/v1/no-such-endpoint/")
    assert missing.status_code == 404 and missing.json() == {"detail": "Not found."}
    from accounts import api_urls

    def crash(self, request, slug):
        raise RuntimeError("boom")

    monkeypatch.setattr(api_urls.ProjectDetailApi, "get", crash)
    from accounts.services import project_create

    project_create(slug="p500", name="p", is_public=True)
    client.force_login(make_user(username="crasher"))
    client.raise_request_exception = False
    response = client.get(reverse("api-project", args=["p500"]))
    assert response.status_code == 500
    assert response.json()["detail"].startswith("Server error") and "boom" not in response.content.decode()


def test_pages_keep_html_errors(client):
    response = client.get("/no-such-page/")
    assert response.status_code == 404 and "Page not found" in response.content.decode()


def test_registered_users_get_a_generated_handle_not_their_username(make_user):
    user = make_user(username="alice.smith")
    assert user.handle and user.handle != "alice.smith" and "alice" not in user.handle
    chosen = make_user(username="bob", handle="bob-the-player")
    assert chosen.handle == "bob-the-player"


def test_guest_creation_is_limited_per_address(client, settings, imported):
    from accounts.models import User

    settings.EARSHOT_GUEST_RATE = "3/hour"
    url = reverse("quiz:play_start", args=[imported.slug])
    answers = []
    for _ in range(4):
        client.cookies.clear()  # a script throwing its session away each time
        answers.append(client.post(url, {"mode": "free"}))
    assert [a.status_code for a in answers] == [302, 302, 302, 429]
    assert int(answers[-1]["Retry-After"]) > 0 and "Too many requests" in answers[-1].content.decode()
    assert User.objects.filter(is_guest=True).count() == 3
    client.cookies.clear()
    assert client.post(url, {"mode": "free"}, REMOTE_ADDR="10.1.2.3").status_code == 302  # another client


def test_trusted_proxy_address_comes_from_x_forwarded_for(rf, settings):
    from accounts.ratelimit import client_address

    request = rf.get("/", HTTP_X_FORWARDED_FOR="6.6.6.6, 203.0.113.9", REMOTE_ADDR="127.0.0.1")
    settings.EARSHOT_TRUSTED_PROXIES = 0
    assert client_address(request) == "127.0.0.1"
    settings.EARSHOT_TRUSTED_PROXIES = 1
    assert client_address(request) == "203.0.113.9"  # not the spoofable left-most entry


def test_answer_submission_is_limited_per_player(client, settings, imported):
    import json

    settings.EARSHOT_ANSWER_RATE = "2/min"
    client.post(reverse("quiz:play_start", args=[imported.slug]), {"mode": "free"})
    url = reverse("quiz:play_answer", args=[imported.slug])
    codes = [client.post(url, json.dumps({"presentation": 0, "answer": "x", "client_token": f"t{i}"}),
                         content_type="application/json").status_code for i in range(3)]
    assert codes[:2] != [429, 429] and codes[2] == 429
    last = client.post(url, "{}", content_type="application/json")
    assert last.status_code == 429 and last.json()["error"]["field"] == "rate"


def test_old_tokens_are_refused_and_any_user_can_rotate(client, make_user, settings):
    from datetime import timedelta

    from django.utils import timezone
    from rest_framework.authtoken.models import Token

    settings.EARSHOT_API_TOKEN_MAX_AGE_DAYS = 30
    user = make_user(username="tokenholder")
    token = Token.objects.create(user=user)
    auth = {"HTTP_AUTHORIZATION": f"Token {token.key}"}
    assert client.get(reverse("api-projects"), **auth).status_code == 200
    Token.objects.filter(pk=token.pk).update(created=timezone.now() - timedelta(days=31))
    expired = client.get(reverse("api-projects"), **auth)
    assert expired.status_code == 401 and "expired" in expired.json()["detail"]
    # asking again with the password replaces the expired token
    fresh = client.post(reverse("api-token"), {"username": "tokenholder", "password": PASSWORD}).json()["token"]
    assert fresh != token.key and client.get(reverse("api-projects"), HTTP_AUTHORIZATION=f"Token {fresh}").status_code == 200
    # any user may revoke (rotate) their own token
    assert client.delete(reverse("api-token"), HTTP_AUTHORIZATION=f"Token {fresh}").status_code == 204
    assert client.get(reverse("api-projects"), HTTP_AUTHORIZATION=f"Token {fresh}").status_code == 401
    new = client.post(reverse("api-token"), {"username": "tokenholder", "password": PASSWORD}).json()["token"]
    assert new != fresh
    assert client.delete(reverse("api-token")).status_code == 401
