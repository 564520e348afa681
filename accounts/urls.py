from django.urls import path

from accounts import (
    board_settings,
    email_views,
    people_views,
    profile_views,
    vacation_views,
    views,
)
from accounts.models import Relation

app_name = "accounts"

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("login/", views.LoginView.as_view(), name="login"),
    path("logout/", views.LogoutView.as_view(), name="logout"),
    path("profile/", views.profile, name="profile"),
    path("email/confirm/", email_views.email_confirm_send_view, name="email_confirm_send"),
    path("email/confirm/<str:token>/", email_views.email_confirm_view, name="email_confirm"),
    path("boards/", board_settings.board_settings, name="board_settings"),
    path("boards/preview/", board_settings.board_preview, name="board_preview"),
    path("profile/about/", profile_views.about_save, name="about_save"),
    path("profile/avatar/", profile_views.avatar_upload, name="avatar_upload"),
    path("profile/avatar/remove/", profile_views.avatar_delete, name="avatar_remove"),
    path("buddies/", people_views.relation_list, {"kind": Relation.Kind.BUDDY}, name="buddies"),
    path("buddies/remove/", people_views.relation_drop, {"kind": Relation.Kind.BUDDY},
         name="buddy_remove"),
    path("ignored/", people_views.relation_list, {"kind": Relation.Kind.IGNORE}, name="ignored"),
    path("ignored/remove/", people_views.relation_drop, {"kind": Relation.Kind.IGNORE},
         name="ignore_remove"),
    path("profile/vacation/", vacation_views.vacation_book_view, name="vacation_book"),
    path(
        "profile/vacation/<int:vacation_id>/cancel/",
        vacation_views.vacation_cancel_view,
        name="vacation_cancel",
    ),
    path("password/change/", views.PasswordChangeView.as_view(), name="password_change"),
    path("password/reset/", views.PasswordResetView.as_view(), name="password_reset"),
    path("password/reset/sent/", views.PasswordResetDoneView.as_view(), name="password_reset_done"),
    path(
        "password/reset/<uidb64>/<token>/",
        views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "password/reset/complete/",
        views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
]
