from django.urls import path

from membership import views

app_name = "membership"

urlpatterns = [
    path("membership/", views.membership_page, name="page"),
    path("membership/checkout/", views.checkout, name="checkout"),
    path("membership/thanks/", views.success, name="success"),
    path("membership/cancelled/", views.cancelled, name="cancelled"),
    path("help/membership/", views.help_membership, name="help"),
    path("membership/stripe/webhook/", views.stripe_webhook, name="stripe_webhook"),
]
