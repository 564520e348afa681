"""One account per e-mail address, whatever its case, enforced by the database as well as the
forms (a unique index on lower(email)), so two sign-ups racing with one address cannot both
succeed; and the address each player has confirmed.

Accounts that already share an address keep it: the oldest of each group is covered by the
index and the later ones are left out of it by id (a partial index), so no one loses the
address their password resets go to. Empty addresses (computer players, accounts made in code)
are not indexed.
"""

from django.db import migrations, models

INDEX = "accounts_email_lower_uniq"  # accounts.services.EMAIL_INDEX


def create_index(apps, schema_editor):
    User = apps.get_model("auth", "User")
    first_of = {}
    later = []
    for pk, email in User.objects.exclude(email="").order_by("pk").values_list("pk", "email"):
        key = email.lower()
        if key in first_of:
            later.append(pk)
        else:
            first_of[key] = pk
    condition = "email <> ''"
    if later:
        condition += " AND id NOT IN (%s)" % ", ".join(str(int(pk)) for pk in later)
    schema_editor.execute(
        f"CREATE UNIQUE INDEX {INDEX} ON auth_user (lower(email)) WHERE {condition}"
    )


def drop_index(apps, schema_editor):
    schema_editor.execute(f"DROP INDEX {INDEX}")


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0009_public_profile"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [
        migrations.AddField(
            model_name="profile",
            name="confirmed_email",
            field=models.EmailField(blank=True, editable=False, max_length=254, verbose_name="confirmed e-mail"),
        ),
        migrations.RunPython(create_index, drop_index),
    ]
