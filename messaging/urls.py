from django.urls import path

from messaging import views

app_name = "messaging"

urlpatterns = [
    path("", views.inbox, name="inbox"),
    path("sent/", views.sent, name="sent"),
    path("new/", views.send, name="send"),
    path("mark-all-read/", views.mark_all_read, name="mark_all_read"),
    path("tell-a-friend/", views.tell_a_friend, name="tell_a_friend"),
    path("<int:message_id>/", views.message, name="message"),
    path("<int:message_id>/mark/", views.mark, name="mark"),
    path("<int:message_id>/delete/", views.delete, name="delete"),
    path("<int:message_id>/report/", views.report, name="report"),
]
