"""The three computer opponents exist on every installation: gnubg-easy, gnubg-medium, gnubg-strong."""

from django.db import migrations

from bots.accounts import create_bot_accounts


def create_bots(apps, schema_editor):
    create_bot_accounts(
        apps.get_model("auth", "User"), apps.get_model("accounts", "Profile"), apps.get_model("bots", "Bot")
    )


def remove_bots(apps, schema_editor):
    apps.get_model("bots", "Bot").objects.all().delete()


class Migration(migrations.Migration):

    dependencies = [
        ("bots", "0001_bot"),
        ("accounts", "0004_profile_userid_skeleton"),
    ]

    operations = [migrations.RunPython(create_bots, remove_bots)]
