"""Become a member!: the offer and the player's status, Stripe Checkout, our return pages, and
Stripe's webhook. Thin: membership.stripe_api and membership.webhook do the work."""

from __future__ import annotations

import logging

import stripe
from csp.decorators import csp_update
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST
from django_ratelimit.core import is_ratelimited

from accounts.membership import member_until
from membership.stripe_api import PLANS, checkout_session_create, offered_plans, stripe_enabled
from membership.webhook import WebhookRefused, webhook_receive

log = logging.getLogger(__name__)

CHECKOUT_RATE = "10/h"
"""Checkout sessions one player may start in an hour: each is a call to Stripe."""


def _page(request: HttpRequest, template: str = "membership/membership.html", status: int = 200,
          error: str = "") -> HttpResponse:
    user = request.user
    context = {
        "plans": offered_plans(),
        "until": member_until(user) if user.is_authenticated else None,
        "offline_text": settings.MEMBERSHIP_OFFLINE_TEXT,
        "game_limit": settings.NON_MEMBER_GAME_LIMIT,
        "single_days": settings.MEMBERSHIP_SINGLE_PERIOD_DAYS,
        "error": error,
    }
    return render(request, template, context, status=status)


STRIPE_CHECKOUT_ORIGIN = "https://checkout.stripe.com"


# The Pay form's answer is a redirect to Stripe's payment page, which form-action must allow.
@csp_update({"form-action": STRIPE_CHECKOUT_ORIGIN})
@require_GET
def membership_page(request: HttpRequest) -> HttpResponse:
    return _page(request)


@csp_update({"form-action": STRIPE_CHECKOUT_ORIGIN})  # a refusal shows the form again
@login_required
@require_POST
def checkout(request: HttpRequest) -> HttpResponse:
    plan = PLANS.get(request.POST.get("plan", ""))
    if plan is None or plan not in offered_plans():
        return _page(request, status=400, error="Choose one of the memberships offered below.")
    if is_ratelimited(request, group="membership-checkout", key="user", rate=CHECKOUT_RATE, increment=True):
        return _page(request, status=429, error="You started many payments in the last hour. Please try again later.")
    try:
        url = checkout_session_create(user=request.user, plan=plan)
    except stripe.StripeError:
        log.exception("stripe: could not create a Checkout session for player %s", request.user.pk)
        return _page(request, status=502, error="The payment service did not answer. Nothing was charged; please try again.")
    # 303: the browser follows with a GET to Stripe's page (an address Stripe gave, not the user).
    return HttpResponse(status=303, headers={"Location": url})


@login_required
@require_GET
def success(request: HttpRequest) -> HttpResponse:
    return _page(request, "membership/success.html")


@login_required
@require_GET
def cancelled(request: HttpRequest) -> HttpResponse:
    messages.info(request, "You left the payment page: nothing was charged.")
    return redirect("membership:page")


@csrf_exempt  # Stripe cannot hold our CSRF token: the Stripe-Signature header is the proof.
@require_POST
def stripe_webhook(request: HttpRequest) -> HttpResponse:
    try:
        outcome = webhook_receive(payload=request.body, signature=request.headers.get("Stripe-Signature"))
    except WebhookRefused as refusal:
        return HttpResponse(str(refusal), status=400, content_type="text/plain")
    except stripe.StripeError:
        # Reading the subscription or the line items failed: nothing was kept (the event's row
        # went with the rolled-back transaction), and Stripe sends the event again later.
        log.exception("stripe: an event could not be applied now")
        return HttpResponse("Stripe's API did not answer; send the event again.", status=503,
                            content_type="text/plain")
    return HttpResponse(outcome, content_type="text/plain")


@require_GET
def help_membership(request: HttpRequest) -> HttpResponse:
    return render(request, "help/membership.html", {
        "stripe": stripe_enabled(), "offline_text": settings.MEMBERSHIP_OFFLINE_TEXT,
        "game_limit": settings.NON_MEMBER_GAME_LIMIT, "single_days": settings.MEMBERSHIP_SINGLE_PERIOD_DAYS,
    })
