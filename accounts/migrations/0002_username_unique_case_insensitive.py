"""Userids are unique whatever their case, enforced by the database as well as the sign-up form,
so two sign-ups racing for "Alice" and "alice" cannot both succeed."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [
        migrations.RunSQL(
            "CREATE UNIQUE INDEX accounts_username_lower_uniq ON auth_user (lower(username));",
            "DROP INDEX accounts_username_lower_uniq;",
        ),
    ]
