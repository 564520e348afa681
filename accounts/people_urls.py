"""The people pages under /players/: search, who is here, and each player's profile.

"here" is reserved as a userid (accounts.forms.RESERVED_USERIDS) so it never shadows a profile.
"""

from django.urls import path

from accounts import people_views

app_name = "people"

urlpatterns = [
    path("", people_views.player_search, name="search"),
    path("here/", people_views.who_is_here, name="here"),
    path("<str:username>/", people_views.player_profile, name="profile"),
]
