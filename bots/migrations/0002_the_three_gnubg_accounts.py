"""The three computer opponents exist on every installation: gnubg-easy, gnubg-medium, gnubg-strong.

Their passwords are unusable: nobody logs in as a bot; the worker acts for them.
"""

from django.contrib.auth.hashers import make_password
from django.db import migrations

from accounts.skeleton import userid_key

BOTS = (("gnubg-easy", "easy"), ("gnubg-medium", "medium"), ("gnubg-strong", "strong"))


def create_bots(apps, schema_editor):
    User = apps.get_model("auth", "User")
    Profile = apps.get_model("accounts", "Profile")
    Bot = apps.get_model("bots", "Bot")
    for username, strength in BOTS:
        user, created = User.objects.get_or_create(
            username=username,
            defaults={"password": make_password(None), "first_name": "GNU Backgammon"},
        )
        # Historical models send no signal that accounts listens to: the profile is made here.
        Profile.objects.get_or_create(user=user, defaults={"userid_skeleton": userid_key(username)})
        Bot.objects.update_or_create(user=user, defaults={"strength": strength})


def remove_bots(apps, schema_editor):
    Bot = apps.get_model("bots", "Bot")
    Bot.objects.all().delete()


class Migration(migrations.Migration):

    dependencies = [
        ("bots", "0001_bot"),
        ("accounts", "0004_profile_userid_skeleton"),
    ]

    operations = [migrations.RunPython(create_bots, remove_bots)]
