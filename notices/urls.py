from django.urls import path

from notices import views

app_name = "notices"

urlpatterns = [
    path("news/", views.news, name="news"),
    path("notices/settings/", views.notice_settings, name="settings"),
    path("notices/unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
]
