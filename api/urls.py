from django.urls import path, re_path

from api import views
from api.api import api
from api.middleware import unknown_api_address

urlpatterns = [
    path("api/v1/", api.urls),
    # Anything else under /api/ is a JSON 404, not the site's HTML page.
    re_path(r"^api/", unknown_api_address),
    path("accounts/api-tokens/new/", views.api_token_create, name="api_token_create"),
    path("accounts/api-tokens/<int:token_id>/revoke/", views.api_token_revoke, name="api_token_revoke"),
]
