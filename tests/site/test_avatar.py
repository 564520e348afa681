"""Avatar upload: only real pictures, within size and pixel limits, re-encoded without metadata;
anything else is refused with a clear message and changes nothing."""

from __future__ import annotations

import struct
import zlib
from io import BytesIO
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from gamebuilder import fast_passwords  # noqa: F401
from PIL import Image

from accounts.avatars import AVATAR_SIZE, MAX_UPLOAD_BYTES
from accounts.models import Profile

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def media(settings: Any, tmp_path: Path) -> Path:
    settings.MEDIA_ROOT = tmp_path
    return tmp_path


def picture(format: str = "PNG", size: tuple[int, int] = (400, 300), **save: Any) -> bytes:
    image = Image.new("RGB", size, (200, 40, 40))
    image.paste((20, 90, 200), (0, 0, size[0] // 2, size[1]))
    out = BytesIO()
    image.save(out, format=format, **save)
    return out.getvalue()


def upload(client: Client, data: bytes, name: str = "me.png") -> Any:
    file = SimpleUploadedFile(name, data, content_type="image/png")
    return client.post(reverse("accounts:avatar_upload"), {"avatar-avatar": file})


def stored(user: Any) -> Image.Image | None:
    profile = Profile.objects.get(user=user)
    if not profile.avatar:
        return None
    with profile.avatar.open("rb") as file:
        image = Image.open(BytesIO(file.read()))
        image.load()
    return image


def with_png_size(data: bytes, width: int, height: int) -> bytes:
    """The PNG with its header claiming other dimensions (and a correct checksum)."""
    start = data.index(b"IHDR")
    fields = struct.pack(">II", width, height) + data[start + 12:start + 17]
    chunk = b"IHDR" + fields
    return data[:start] + chunk + struct.pack(">I", zlib.crc32(chunk)) + data[start + 21:]


def test_a_real_picture_becomes_a_square_webp_shown_on_the_profile(alice: Any, alice_client: Client) -> None:
    response = upload(alice_client, picture())
    assert response.status_code == 302
    image = stored(alice)
    assert image is not None and image.format == "WEBP" and image.size == (AVATAR_SIZE, AVATAR_SIZE)
    name = Profile.objects.get(user=alice).avatar.name
    assert name.startswith("avatars/") and name.endswith(".webp")
    html = alice_client.get("/players/alice/").content.decode()
    assert f'<img class="avatar" src="/media/{name}"' in html


def test_jpeg_exif_and_gps_are_gone(alice: Any, alice_client: Client) -> None:
    exif = Image.Exif()
    exif[0x010F] = "SpyCam"  # camera maker
    gps = exif.get_ifd(0x8825)
    gps[2] = (51.0, 30.0, 0.0)  # latitude
    gps[4] = (0.0, 7.0, 0.0)  # longitude
    data = picture("JPEG", exif=exif.tobytes())
    assert Image.open(BytesIO(data)).getexif().get_ifd(0x8825)  # the upload does carry GPS
    assert upload(alice_client, data, "holiday.jpg").status_code == 302
    image = stored(alice)
    assert image is not None
    assert not image.getexif() and "exif" not in image.info and "xmp" not in image.info
    with Profile.objects.get(user=alice).avatar.open("rb") as file:
        raw = file.read()
    assert b"SpyCam" not in raw and b"Exif" not in raw


def test_a_phone_s_multi_picture_jpeg_gives_its_first_picture(alice: Any, alice_client: Client) -> None:
    # Many phones write MPO: a JPEG followed by more pictures (a depth map, a second lens).
    first = Image.open(BytesIO(picture("JPEG")))
    depth_map = Image.new("RGB", (400, 300), (0, 255, 0))
    out = BytesIO()
    first.save(out, format="MPO", save_all=True, append_images=[depth_map])
    data = out.getvalue()
    assert Image.open(BytesIO(data)).format == "MPO" and Image.open(BytesIO(data)).n_frames == 2
    assert upload(alice_client, data, "IMG_0001.jpg").status_code == 302
    image = stored(alice)
    assert image is not None and image.format == "WEBP" and image.size == (AVATAR_SIZE, AVATAR_SIZE)
    red, green, _blue = image.convert("RGB").getpixel((AVATAR_SIZE - 10, AVATAR_SIZE // 2))
    assert red > 150 and green < 100  # the first picture's red half, not the green depth map


@pytest.mark.parametrize(("data", "message"), [
    (b"just some text, honestly", "not a picture we can read"),
    (picture()[:300], "not a picture we can read"),  # a truncated PNG
    (b"", "empty"),
    (picture("BMP"), "not a picture we can read"),  # a real image, but not a format we take
    (with_png_size(picture(size=(8, 8)), 7000, 7000), "far too many pixels"),  # over our limit
    (with_png_size(picture(size=(8, 8)), 60000, 60000), "far too many pixels"),  # Pillow's bomb
], ids=["text", "truncated-png", "empty", "bmp", "over-our-pixel-limit", "decompression-bomb"])
def test_non_pictures_truncated_files_and_bombs_are_refused(alice: Any, alice_client: Client, data: bytes,
                                                            message: str) -> None:
    upload(alice_client, picture())
    before = Profile.objects.get(user=alice).avatar.name
    response = upload(alice_client, data, "evil.png")
    assert response.status_code == 400 and message in response.content.decode()
    assert Profile.objects.get(user=alice).avatar.name == before


def test_a_file_over_2_mb_is_refused(alice: Any, alice_client: Client) -> None:
    response = upload(alice_client, picture() + b"\0" * MAX_UPLOAD_BYTES)
    assert response.status_code == 400 and "larger than 2 MB" in response.content.decode()
    assert not Profile.objects.get(user=alice).avatar


def test_replacing_and_removing_delete_the_old_file(alice: Any, alice_client: Client, media: Path,
                                                    django_capture_on_commit_callbacks: Any) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        upload(alice_client, picture())
    first = media / Profile.objects.get(user=alice).avatar.name
    with django_capture_on_commit_callbacks(execute=True):
        upload(alice_client, picture("GIF"))
    second = media / Profile.objects.get(user=alice).avatar.name
    assert not first.exists() and second.exists()
    with django_capture_on_commit_callbacks(execute=True):
        response = alice_client.post(reverse("accounts:avatar_remove"))
    assert response.status_code == 302 and not second.exists()
    assert not Profile.objects.get(user=alice).avatar
    html = alice_client.get("/players/alice/").content.decode()
    assert '<svg class="avatar"' in html and ">A</text>" in html


def test_avatar_changes_need_a_log_in_a_post_and_the_csrf_token(alice: Any, client: Client) -> None:
    response = upload(client, picture())
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert client.post(reverse("accounts:avatar_remove")).status_code == 302
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(alice)
    assert upload(strict, picture()).status_code == 403
    logged_in = Client()
    logged_in.force_login(alice)
    assert logged_in.get(reverse("accounts:avatar_upload")).status_code == 405
    assert not Profile.objects.get(user=alice).avatar


def test_uploads_are_rate_limited_per_player(alice: Any, bob: Any, alice_client: Client, client_for: Any,
                                             settings: Any) -> None:
    settings.AVATAR_UPLOAD_RATE = "2/h"
    assert [upload(alice_client, picture()).status_code for _ in range(2)] == [302, 302]
    before = Profile.objects.get(user=alice).avatar.name
    refused = upload(alice_client, picture("GIF"))
    assert refused.status_code == 429 and "many times in the last hour" in refused.content.decode()
    assert Profile.objects.get(user=alice).avatar.name == before
    assert upload(client_for(bob), picture()).status_code == 302  # each player has their own count
