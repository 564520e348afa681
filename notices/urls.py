from django.urls import path

from notices import views
from notices.push import views as push_views

app_name = "notices"

urlpatterns = [
    path("news/", views.news, name="news"),
    path("notices/settings/", views.notice_settings, name="settings"),
    path("notices/push/devices/", push_views.push_device_add, name="push_device_add"),
    path("notices/push/devices/renew/", push_views.push_device_renew, name="push_device_renew"),
    path("notices/push/devices/<int:device_id>/remove/", push_views.push_device_remove, name="push_device_remove"),
    path("notices/push/devices/<int:device_id>/test/", push_views.push_device_test, name="push_device_test"),
    path("notices/unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
]
