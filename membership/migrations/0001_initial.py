"""Membership's tables: periods, payments, Stripe's events and subscriptions, staff's changes.

Every membership that accounts' 0011 turned from the old staff tick into a year's
``member_until`` gets its staff period here (from this migration to that end), so the periods
explain every ``member_until`` and deriving it again keeps it.
"""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


def ticks_to_staff_periods(apps, schema_editor):
    Profile = apps.get_model("accounts", "Profile")
    Period = apps.get_model("membership", "MembershipPeriod")
    Change = apps.get_model("membership", "MembershipChange")
    now = django.utils.timezone.now()
    for user_id, until in Profile.objects.filter(member_until__gt=now).values_list("user_id", "member_until"):
        Period.objects.create(user_id=user_id, source="staff", starts_at=now, ends_at=until)
        Change.objects.create(user_id=user_id, action="grant", until_before=None, until_after=until,
                              reason="The staff's Member tick, made a year's membership when memberships got an end.")


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ("accounts", "0011_membership_until_and_rating_choices"),
    ]

    operations = [
        migrations.CreateModel(
            name='StripeEvent',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('event_id', models.CharField(max_length=255, unique=True)),
                ('type', models.CharField(max_length=100)),
                ('received_at', models.DateTimeField(default=django.utils.timezone.now)),
                ('outcome', models.CharField(blank=True, max_length=300)),
                ('payload', models.JSONField()),
            ],
            options={
                'verbose_name': 'Stripe event',
                'ordering': ('-received_at', '-pk'),
            },
        ),
        migrations.CreateModel(
            name='MembershipChange',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('action', models.CharField(choices=[('grant', 'Granted'), ('extend', 'Extended'), ('end', 'Ended')], max_length=6)),
                ('reason', models.CharField(max_length=300)),
                ('until_before', models.DateTimeField(blank=True, null=True)),
                ('until_after', models.DateTimeField(blank=True, null=True)),
                ('at', models.DateTimeField(default=django.utils.timezone.now)),
                ('staff', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'ordering': ('-at', '-pk'),
            },
        ),
        migrations.CreateModel(
            name='Payment',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('stripe_id', models.CharField(max_length=255, unique=True)),
                ('kind', models.CharField(choices=[('single', 'Single period'), ('subscription', 'Subscription invoice')], max_length=12)),
                ('subscription_id', models.CharField(blank=True, db_index=True, max_length=255)),
                ('payment_intent', models.CharField(blank=True, db_index=True, max_length=255)),
                ('amount', models.PositiveIntegerField(default=0, help_text="in the currency's smallest unit")),
                ('currency', models.CharField(blank=True, max_length=3)),
                ('paid_at', models.DateTimeField(default=django.utils.timezone.now)),
                ('refunded_at', models.DateTimeField(blank=True, null=True)),
                ('user', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='membership_payments', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'ordering': ('-paid_at', '-pk'),
            },
        ),
        migrations.CreateModel(
            name='StripeSubscription',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('subscription_id', models.CharField(max_length=255, unique=True)),
                ('ended_at', models.DateTimeField(blank=True, null=True)),
                ('user', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'verbose_name': 'Stripe subscription',
            },
        ),
        migrations.CreateModel(
            name='MembershipPeriod',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('source', models.CharField(choices=[('stripe', 'Paid through Stripe'), ('staff', 'Granted by staff')], max_length=6)),
                ('starts_at', models.DateTimeField()),
                ('ends_at', models.DateTimeField()),
                ('created_at', models.DateTimeField(default=django.utils.timezone.now)),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='membership_periods', to=settings.AUTH_USER_MODEL)),
                ('payment', models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='period', to='membership.payment')),
            ],
            options={
                'ordering': ('user', 'starts_at', 'pk'),
                'indexes': [models.Index(fields=['ends_at'], name='membership_period_end')],
                'constraints': [models.CheckConstraint(condition=models.Q(('ends_at__gte', models.F('starts_at'))), name='membership_period_ends_after_start')],
            },
        ),
        migrations.RunPython(ticks_to_staff_periods, migrations.RunPython.noop),
    ]
