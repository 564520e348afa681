"""The TALK menu's pages: inbox, sent box, one message, send (and reply), Tell a friend.

Thin views: parse, call messaging.services (or invitations), render. A message the player may
not see is a 404, whatever the reason; any other refusal re-renders the form with the reason.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.contrib import messages as flash
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from backgammon.services import Refusal
from gamesite.bad_requests import bad_request
from gamesite.next_page import safe_next
from gamesite.site_address import absolute_url
from messaging import services
from messaging.forms import InvitationForm, MessageForm
from messaging.invitations import InvitationRefused, invitation_send
from messaging.models import Message
from messaging.services import MessageRefused

PAGE_SIZE = 25


def _page_of(request: HttpRequest, messages: QuerySet[Message]) -> Any:
    return Paginator(messages, PAGE_SIZE).get_page(request.GET.get("page"))


@login_required
@require_GET
def inbox(request: HttpRequest) -> HttpResponse:
    return render(request, "messaging/box.html", {
        "box": "inbox", "page_obj": _page_of(request, services.inbox(request.user)),
    })


@login_required
@require_GET
def sent(request: HttpRequest) -> HttpResponse:
    return render(request, "messaging/box.html", {
        "box": "sent", "page_obj": _page_of(request, services.sent_box(request.user)),
    })


def _message_id(raw: Any) -> int:
    try:
        return int(raw)
    except (TypeError, ValueError):
        raise Http404("There is no such message.") from None


def _or_404(call: Any, **kwargs: Any) -> Any:
    try:
        return call(**kwargs)
    except MessageRefused as refusal:
        if refusal.kind is Refusal.NOT_FOUND:
            raise Http404(refusal.message) from None
        raise


@login_required
@require_GET
def message(request: HttpRequest, message_id: int) -> HttpResponse:
    """One message; opening it marks it read."""
    shown = _or_404(services.message_open, user=request.user, message_id=message_id)
    parent = shown.reply_to
    # Only a message still in the viewer's own box is linked; a deleted one is named only.
    parent_linked = parent is not None and (
        (parent.recipient_id == request.user.pk and not parent.deleted_by_recipient)
        or (parent.sender_id == request.user.pk and not parent.deleted_by_sender)
    )
    return render(request, "messaging/message.html", {
        "message": shown, "received": shown.recipient_id == request.user.pk,
        "parent": parent, "parent_linked": parent_linked,
    })


@login_required
@require_http_methods(["GET", "POST"])
def send(request: HttpRequest) -> HttpResponse:
    """Send a message: ``?to=userid`` fills in the recipient, ``?reply=id`` a reply's fields."""
    if request.method == "POST":
        form = MessageForm(request.POST)
        if form.is_valid():
            data = form.cleaned_data
            try:
                services.message_send(sender=request.user, to=data["to"], subject=data["subject"],
                                      body=data["body"], reply_to_id=data["reply_to"])
            except MessageRefused as refusal:
                form.add_error(None, refusal.message)
            else:
                flash.success(request, f"Your message to {data['to'].strip()} is sent.")
                return redirect("messaging:sent")
        if "reply_to" in form.errors:  # a hidden field: its complaint would not be seen
            form.add_error(None, "There is no such message to reply to.")
        return render(request, "messaging/send.html", {"form": form}, status=400)
    initial: dict[str, Any] = {"to": request.GET.get("to", "")[:150]}
    if "reply" in request.GET:
        initial = _or_404(services.reply_draft, user=request.user,
                          message_id=_message_id(request.GET["reply"]))
    return render(request, "messaging/send.html", {"form": MessageForm(initial=initial)})


def _back(request: HttpRequest, fallback: str) -> HttpResponse:
    """Back to the box the form was on (only our own paths: never an open redirect)."""
    target = safe_next(request)
    return redirect(target if target.startswith("/messages/") else reverse(fallback))


@login_required
@require_POST
def mark(request: HttpRequest, message_id: int) -> HttpResponse:
    """Mark a received message read (``read=1``) or unread (``read=0``)."""
    read = request.POST.get("read")
    if read not in ("0", "1"):
        return bad_request(request, message="Say whether to mark it read (1) or unread (0).")
    try:
        _or_404(services.message_mark, user=request.user, message_id=message_id, read=read == "1")
    except MessageRefused as refusal:
        return bad_request(request, message=refusal.message)
    return _back(request, "messaging:inbox")


@login_required
@require_POST
def mark_all_read(request: HttpRequest) -> HttpResponse:
    count = services.messages_mark_all_read(user=request.user)
    flash.success(request, f"{count} message{'' if count == 1 else 's'} marked read.")
    return redirect("messaging:inbox")


@login_required
@require_POST
def delete(request: HttpRequest, message_id: int) -> HttpResponse:
    """Take a message out of my box; the other side keeps their copy."""
    found = _or_404(services.message_visible, user=request.user, message_id=message_id)
    services.message_delete(user=request.user, message_id=message_id)
    flash.success(request, "The message is deleted.")
    return redirect("messaging:inbox" if found.recipient_id == request.user.pk else "messaging:sent")


@login_required
@require_POST
def report(request: HttpRequest, message_id: int) -> HttpResponse:
    """The recipient reports a message to the operators."""
    try:
        _or_404(services.message_report, user=request.user, message_id=message_id)
    except MessageRefused as refusal:
        return bad_request(request, message=refusal.message)
    else:
        flash.success(request, "Thank you: the operators will read this message.")
    return redirect("messaging:message", message_id=message_id)


@login_required
@require_http_methods(["GET", "POST"])
def tell_a_friend(request: HttpRequest) -> HttpResponse:
    """Invite a friend by e-mail to sign up; the answer never says whether they already play."""
    form = InvitationForm(request.POST or None)
    if request.method == "POST":
        if form.is_valid():
            query = urlencode({"invited_by": request.user.get_username()})
            signup_url = absolute_url(f"{reverse('accounts:signup')}?{query}")
            try:
                invitation_send(inviter=request.user, email=form.cleaned_data["email"],
                                note=form.cleaned_data["note"], signup_url=signup_url)
            except InvitationRefused as refusal:
                form.add_error(None, refusal.message)
            else:
                flash.success(request, f"Your invitation is on its way to {form.cleaned_data['email']}.")
                return redirect("messaging:tell_a_friend")
        return render(request, "messaging/tell_a_friend.html", {"form": form}, status=400)
    return render(request, "messaging/tell_a_friend.html", {"form": form})
