"""Every profile keeps its userid's look-alike key (accounts.skeleton), unique, so the database
refuses look-alike userids even when two sign-ups race. Existing users get their key here; of
existing look-alikes the oldest keeps the key and the others keep none (they stay as they are)."""

from django.conf import settings
from django.db import migrations, models

from accounts.skeleton import userid_key


def fill_userid_skeletons(apps, schema_editor):
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    Profile = apps.get_model("accounts", "Profile")
    taken = set()
    for user in User.objects.order_by("date_joined", "pk").iterator():
        key = userid_key(getattr(user, User.USERNAME_FIELD))
        profile, _created = Profile.objects.get_or_create(user=user)
        profile.userid_skeleton = None if key in taken else key
        profile.save(update_fields=["userid_skeleton"])
        taken.add(key)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0003_profile_confirm_double"),
    ]

    operations = [
        migrations.AddField(
            model_name="profile",
            name="userid_skeleton",
            field=models.TextField(
                blank=True, editable=False, null=True, unique=True, verbose_name="userid skeleton"
            ),
        ),
        migrations.RunPython(fill_userid_skeletons, migrations.RunPython.noop),
    ]
