from django.urls import path

from bots import views

app_name = "bots"

urlpatterns = [
    path("games/computer/", views.play_now, name="play_now"),
]
