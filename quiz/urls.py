from django.urls import path

from . import game_views, research_views, views

app_name = "quiz"

urlpatterns = [
    path("p/<slug:slug>/play/", views.play_start, name="play_start"),
    path("p/<slug:slug>/play/next/", views.play_next, name="play_next"),
    path("p/<slug:slug>/play/before/", views.play_protocol, name="play_protocol"),
    path("p/<slug:slug>/play/answer/", views.play_answer, name="play_answer"),
    path("p/<slug:slug>/play/reveal/", views.play_reveal, name="play_reveal"),
    path("p/<slug:slug>/play/me/", views.play_history, name="play_history"),
    path("p/<slug:slug>/play/buzz/", views.play_buzz, name="play_buzz"),
    path("p/<slug:slug>/play/skip/", views.play_skip, name="play_skip"),
    path("p/<slug:slug>/play/round/<int:round_id>/", game_views.round_summary, name="round_summary"),
    path("p/<slug:slug>/play/vs/", game_views.versus, name="versus"),
    path("p/<slug:slug>/daily/", game_views.daily, name="daily"),
    path("p/<slug:slug>/daily/play/", game_views.daily_play, name="daily_play"),
    path("p/<slug:slug>/leaderboard/", game_views.leaderboard, name="leaderboard"),
    path("p/<slug:slug>/study/", research_views.study_settings, name="study_settings"),
    path("p/<slug:slug>/study/link/", research_views.study_link_rotate, name="study_link_rotate"),
    path("clips/<str:public_id>/", views.clip_audio, name="clip_audio"),
]
