"""Production's static storage (gamesite/static_storage.py): the manifest's hashed URLs, each
worked out once per process, and a name the manifest lacks refused every time as before."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.test import override_settings
from whitenoise.storage import CompressedManifestStaticFilesStorage

from gamesite.static_storage import KeptManifestStaticFilesStorage


@pytest.fixture
def collected(tmp_path: Path) -> Path:
    """A STATIC_ROOT as collectstatic leaves it: a file and the manifest naming its hashed copy."""
    (tmp_path / "css").mkdir()
    (tmp_path / "css" / "site.css").write_text("body{}", encoding="utf-8")
    (tmp_path / "css" / "site.0123abcd.css").write_text("body{}", encoding="utf-8")
    manifest = {"paths": {"css/site.css": "css/site.0123abcd.css"}, "version": "1.1", "hash": "0"}
    (tmp_path / "staticfiles.json").write_text(json.dumps(manifest), encoding="utf-8")
    return tmp_path


@override_settings(DEBUG=False)
def test_a_files_url_is_whitenoises_and_is_worked_out_once(collected: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    storage = KeptManifestStaticFilesStorage(location=str(collected), base_url="/static/")
    theirs = CompressedManifestStaticFilesStorage(location=str(collected), base_url="/static/")
    looked_up: list[str] = []
    stored_name = storage.stored_name
    monkeypatch.setattr(storage, "stored_name", lambda name: looked_up.append(name) or stored_name(name))
    answers = [storage.url("css/site.css") for _ in range(3)]
    assert answers == [theirs.url("css/site.css")] * 3 == ["/static/css/site.0123abcd.css"] * 3
    assert looked_up == ["css/site.css"]
    assert storage.url("css/site.css", force=True) == "/static/css/site.0123abcd.css"
    assert looked_up == ["css/site.css", "css/site.css"]  # force asks the manifest, as Django's does


@override_settings(DEBUG=False)
def test_a_name_the_manifest_lacks_is_refused_each_time(collected: Path) -> None:
    storage = KeptManifestStaticFilesStorage(location=str(collected), base_url="/static/")
    for _ in range(2):
        with pytest.raises(ValueError, match="Missing staticfiles manifest entry for 'css/gone.css'"):
            storage.url("css/gone.css")


@override_settings(DEBUG=True)
def test_with_debug_on_the_unhashed_url_as_djangos_storage_gives_it(collected: Path) -> None:
    storage = KeptManifestStaticFilesStorage(location=str(collected), base_url="/static/")
    assert storage.url("css/site.css") == "/static/css/site.css"
    with override_settings(DEBUG=False):
        assert storage.url("css/site.css") == "/static/css/site.0123abcd.css"
