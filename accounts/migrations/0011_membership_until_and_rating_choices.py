"""Membership becomes a period with an end: ``Profile.member_until`` replaces the staff's
``is_member`` tick; and each player's rating choices per variant ("Edit ratings").

A player ticked as a member keeps the membership for a year from this migration (staff gave it
with no end; a year is the longest period the site sells, and staff may extend or end it in the
admin). The membership app's first migration records that year as a staff period, so the
periods explain every ``member_until``.
"""

from datetime import timedelta

from django.conf import settings
from django.db import migrations, models
from django.utils import timezone

TICK_BECOMES = timedelta(days=365)


def ticks_to_periods(apps, schema_editor):
    Profile = apps.get_model("accounts", "Profile")
    Profile.objects.filter(is_member=True).update(member_until=timezone.now() + TICK_BECOMES)


def periods_to_ticks(apps, schema_editor):
    Profile = apps.get_model("accounts", "Profile")
    Profile.objects.filter(member_until__gt=timezone.now()).update(is_member=True)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0010_email_once_and_confirmed"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="profile",
            name="member_until",
            field=models.DateTimeField(
                blank=True, editable=False, null=True, verbose_name="member until",
                help_text="Changed through the membership actions, never by hand.",
            ),
        ),
        migrations.RunPython(ticks_to_periods, periods_to_ticks),
        migrations.RemoveField(model_name="profile", name="is_member"),
        migrations.CreateModel(
            name="RatingChoice",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("variant", models.CharField(max_length=2)),
                ("shown", models.BooleanField(default=True, verbose_name="shown to others")),
                ("rated_by_default", models.BooleanField(default=True, verbose_name="new games rated")),
                ("user", models.ForeignKey(on_delete=models.deletion.CASCADE, related_name="rating_choices",
                                           to=settings.AUTH_USER_MODEL)),
            ],
            options={"constraints": [models.UniqueConstraint(fields=("user", "variant"), name="rating_choice_once")]},
        ),
    ]
