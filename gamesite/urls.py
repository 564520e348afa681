"""The site's URL map: each app brings its own urls module under a namespace."""

from django.conf import settings
from django.conf.urls.static import static
from django.contrib import admin
from django.urls import include, path

from gamesite import pwa, views

handler400 = "gamesite.bad_requests.bad_request"
handler500 = "gamesite.unavailable.server_error"

urlpatterns = [
    path("", views.home, name="home"),
    path("help/", views.help_rules, name="help_rules"),
    path("help/features/", views.help_features, name="help_features"),
    path("help/dice/", views.help_dice, name="help_dice"),
    path("menu-counts/", views.menu_counts, name="menu_counts"),
    # The installable app (gamesite/pwa.py): at the root, so the worker's scope is the whole site.
    path("manifest.webmanifest", pwa.manifest, name="manifest"),
    path("sw.js", pwa.service_worker, name="service_worker"),
    path("offline/", pwa.offline, name="offline"),
    path("accounts/", include("accounts.urls")),
    path("players/", include("accounts.people_urls")),
    path("admin/", admin.site.urls),
    path("messages/", include("messaging.urls")),
    path("", include("api.urls")),
    path("", include("backgammon.urls")),
    path("", include("analysis.urls")),
    path("", include("tournaments.urls")),
    path("", include("notices.urls")),
    path("", include("bots.urls")),
    path("", include("membership.urls")),
]

# Uploaded avatars: served by Django only in development (static() adds nothing unless DEBUG);
# in production the web server or object storage serves MEDIA_ROOT (see README, Deploying).
urlpatterns += static(settings.MEDIA_URL, document_root=settings.MEDIA_ROOT)
