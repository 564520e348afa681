"""Logs written before issue 6 answer a beaver by nothing: the beaver was taken at once.

The engine now waits for the doubler to take the beaver or drop, so such a log no longer
replays. Each old beaver gets the take it implied, right after it (later actions move up one
number), and the game's snapshot and facts are rewritten from the replay. A game that was
waiting on the doubler cannot be in an old log: the old engine never waited after a beaver.
"""

from django.db import migrations


def add_takes(apps, schema_editor):
    from backgammon.engine.actions import Action
    from backgammon.engine.game import MatchRules
    from backgammon.engine.variants import find_variant
    from backgammon.services.games import STATE_COLUMNS, write_state_columns
    from backgammon.services.log_facts import FACT_FIELDS, replay_with_facts

    game_model = apps.get_model("backgammon", "Game")
    action_model = apps.get_model("backgammon", "GameAction")
    beavered = action_model.objects.filter(kind="beaver").values_list("game_id", flat=True)
    for game in game_model.objects.filter(pk__in=beavered.distinct()).order_by("pk"):
        rows = list(action_model.objects.filter(game=game).order_by("number"))
        log = []
        for index, row in enumerate(rows):
            log.append(row)
            answered = index + 1 < len(rows) and rows[index + 1].kind in ("take", "drop")
            if row.kind == "beaver" and not answered:
                doubler = None if row.side is None else 1 - row.side
                take = action_model(game=game, side=doubler, kind="take", data={"kind": "take"},
                                    created_at=row.created_at)
                log.append(take)
        if len(log) == len(rows):
            continue
        # From the last row down, so that no two rows ever share a number on the way.
        for number, row in reversed(list(enumerate(log, start=1))):
            if row.pk is not None and row.number != number:
                row.number = number
                row.save(update_fields=["number"])
        for number, row in enumerate(log, start=1):
            if row.pk is None:
                row.number = number
                row.save()
        rules = MatchRules(
            variant=find_variant(game.variant), match_length=game.match_length, jacoby=game.jacoby,
            beavers=game.beavers, automatic_doubles=game.automatic_doubles,
        )
        facts, state = replay_with_facts(rules, [Action.from_dict(row.data) for row in log])
        for row, row_facts in zip(log, facts, strict=True):
            for name, value in row_facts.items():
                setattr(row, name, value)
        action_model.objects.bulk_update(log, FACT_FIELDS, batch_size=500)
        game.action_count = len(log)
        write_state_columns(game, state)
        game.save(update_fields=[*STATE_COLUMNS, "action_count"])


class Migration(migrations.Migration):

    dependencies = [
        ("backgammon", "0003_one_pending_challenge_per_pair_and_variant"),
    ]

    operations = [
        migrations.RunPython(add_takes, migrations.RunPython.noop, elidable=True),
    ]
