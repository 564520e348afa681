# A notice's mail held on its claim until the mail server accepts it (notices/outbox.py).

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("notices", "0002_push_notifications"),
    ]

    operations = [
        migrations.AddField(
            model_name="sentnotice",
            name="outbox",
            field=models.JSONField(blank=True, help_text="the mail, until the server took it", null=True),
        ),
        migrations.AddField(
            model_name="sentnotice",
            name="attempted_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="sentnotice",
            name="attempts",
            field=models.PositiveSmallIntegerField(default=0),
        ),
        migrations.AddIndex(
            model_name="sentnotice",
            index=models.Index(
                condition=models.Q(("outbox__isnull", False)), fields=["attempted_at"], name="sent_notice_held"
            ),
        ),
    ]
