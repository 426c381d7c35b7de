from django.urls import path

from . import views

app_name = "rooms"

urlpatterns = [
    path("p/<slug:slug>/rooms/", views.rooms_home, name="home"),
    path("p/<slug:slug>/rooms/<str:code>/", views.room_page, name="room"),
]
