"""Into a room through the pages: a guest picks a name (and gives consent) first, then
lands in the room they asked for — hosting a new one, or joining by its code."""

from __future__ import annotations

import pytest
from django.urls import reverse

from quiz.study import study_update
from rooms import services
from rooms.models import Room

pytestmark = pytest.mark.django_db


def _follow_to_room(client, response):
    """Follow redirects to the final page."""
    while response.status_code in (301, 302):
        response = client.get(response["Location"])
    return response


def test_a_guest_who_hosts_a_new_room_lands_in_it_after_picking_a_name(client, imported):
    home = reverse("rooms:home", args=[imported.slug])
    to_name = client.post(home)
    assert to_name.status_code == 302 and "room=new" in to_name["Location"]
    named = client.post(to_name["Location"], {"handle": ""})
    assert named.status_code == 302
    room = Room.objects.get()
    assert named["Location"] == reverse("rooms:room", args=[imported.slug, room.code])
    page = client.get(named["Location"])
    assert page.status_code == 200 and room.code in page.content.decode()
    assert room.host.user.handle  # the guest who clicked "Host" is the host


def test_consent_first_then_the_new_room(client, imported):
    study_update(project=imported, consent_text="You agree to take part.")
    to_name = client.post(reverse("rooms:home", args=[imported.slug]))
    named = client.post(to_name["Location"], {"handle": ""})
    assert "/play/before/" in named["Location"] and "room=new" in named["Location"]
    assert not Room.objects.exists()
    consented = client.post(named["Location"], {"consent": "yes"})
    room = Room.objects.get()
    assert consented["Location"] == reverse("rooms:room", args=[imported.slug, room.code])


def test_a_guest_joining_by_code_lands_in_that_room(client, imported, make_user):
    from quiz.services import responder_for_user

    host = responder_for_user(project=imported, user=make_user())
    room = services.room_create(project=imported, host=host)
    to_name = client.get(reverse("rooms:room", args=[imported.slug, room.code]))
    assert to_name.status_code == 302 and f"room={room.code}" in to_name["Location"]
    named = client.post(to_name["Location"], {"handle": ""})
    assert named["Location"] == reverse("rooms:room", args=[imported.slug, room.code])
    page = _follow_to_room(client, named)
    assert page.status_code == 200
    assert room.players.count() == 2 and Room.objects.count() == 1


def test_a_get_never_creates_a_room(client, imported):
    client.post(reverse("quiz:play_start", args=[imported.slug]), {"handle": ""})
    reply = client.get(reverse("quiz:play_protocol", args=[imported.slug]) + "?room=new")
    assert reply.status_code == 302 and reply["Location"] == reverse("rooms:home", args=[imported.slug])
    assert not Room.objects.exists()
