"""Avatars: an upload becomes a clean 256x256 WebP square, or is refused and nothing changes.

The uploaded bytes are never stored or served: Pillow must recognise them as one of a few
raster formats (by their content, not the file name), decode them whole within a pixel budget
(a small file can declare billions of pixels: a "decompression bomb"), and then only the pixels
are kept. Re-encoding from raw pixels leaves every EXIF, GPS, ICC and text chunk behind.
"""

from __future__ import annotations

import secrets
import warnings
from io import BytesIO
from typing import IO, Any

from django.core.files.base import ContentFile
from django.db import transaction
from PIL import Image, ImageOps, UnidentifiedImageError

from accounts.models import Profile

__all__ = [
    "ALLOWED_FORMATS",
    "AVATAR_SIZE",
    "MAX_PIXELS",
    "MAX_UPLOAD_BYTES",
    "AvatarRejected",
    "avatar_remove",
    "avatar_set",
    "clean_avatar_bytes",
]

MAX_UPLOAD_BYTES = 2 * 1024 * 1024
# Decoded as RGBA, 16 megapixels take 64 MB of a web worker's memory for a moment; a bigger
# picture cannot be a sensible 2 MB upload (except as a bomb).
MAX_PIXELS = 16_000_000
AVATAR_SIZE = 256
ALLOWED_FORMATS = frozenset({"PNG", "JPEG", "GIF", "WEBP"})
# What many phones write for a photo: a JPEG followed by more pictures of the same scene (a
# depth map, a second lens), which Pillow reads as "MPO". Its first picture is a plain JPEG,
# and that is all an avatar takes.
_JPEG_WITH_MORE_PICTURES = "MPO"


class AvatarRejected(ValueError):
    """An upload that cannot become an avatar; the message is for the player."""


def _decoded(data: bytes) -> Image.Image:
    """The whole image decoded, after checking its format and declared size from the header."""
    not_an_image = AvatarRejected(
        "That file is not a picture we can read. Please upload a PNG, JPEG, GIF or WebP image."
    )
    bomb = AvatarRejected(
        "That picture has far too many pixels. Please upload a smaller one (a few megapixels)."
    )
    # Pillow's own guard warns above MAX_IMAGE_PIXELS and raises above twice that; we check the
    # declared size before decoding anything, and turn Pillow's warning into a refusal too.
    with warnings.catch_warnings():
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        try:
            with Image.open(BytesIO(data)) as probe:
                if probe.format not in ALLOWED_FORMATS | {_JPEG_WITH_MORE_PICTURES}:
                    raise not_an_image
                width, height = probe.size
                if width * height > MAX_PIXELS:
                    raise bomb
                probe.verify()  # checksums and structure, without decoding the pixels
            image = Image.open(BytesIO(data))
            image.seek(0)  # the first picture (or frame) alone, whatever follows it
            image.load()  # a truncated file fails here, not later when it is resized
        except AvatarRejected:
            raise  # ours (a ValueError): not to be reworded below
        except (Image.DecompressionBombError, Image.DecompressionBombWarning):
            raise bomb from None
        except (UnidentifiedImageError, OSError, SyntaxError, ValueError, EOFError):
            raise not_an_image from None
    return image


def clean_avatar_bytes(upload: IO[bytes], *, size: int | None = None) -> bytes:
    """The avatar made from ``upload``: a centred square crop, AVATAR_SIZE wide, WebP, no metadata.

    ``size`` is the upload's size when known (Django's UploadedFile.size), to refuse a huge file
    before reading it.
    """
    if size is not None and size > MAX_UPLOAD_BYTES:
        raise AvatarRejected("That picture is larger than 2 MB. Please upload a smaller file.")
    data = upload.read(MAX_UPLOAD_BYTES + 1)
    if len(data) > MAX_UPLOAD_BYTES:
        raise AvatarRejected("That picture is larger than 2 MB. Please upload a smaller file.")
    if not data:
        raise AvatarRejected("That file is empty. Please upload a picture.")
    image = _decoded(data)
    # A phone photo may be stored sideways with an EXIF note to turn it: turn it before the
    # note is dropped. Only the first frame of an animation is kept.
    image = ImageOps.exif_transpose(image.convert("RGBA"))
    square = ImageOps.fit(image, (AVATAR_SIZE, AVATAR_SIZE), Image.Resampling.LANCZOS)
    pixels_only = Image.frombytes("RGBA", square.size, square.tobytes())
    out = BytesIO()
    pixels_only.save(out, format="WEBP", quality=85, method=4)
    return out.getvalue()


def _delete_file_after_commit(name: str) -> None:
    if not name:
        return
    storage = Profile._meta.get_field("avatar").storage  # type: ignore[attr-defined]
    transaction.on_commit(lambda: storage.delete(name))


def avatar_set(*, user: Any, upload: IO[bytes], size: int | None = None) -> Profile:
    """Give ``user`` a new avatar made from ``upload`` (AvatarRejected changes nothing)."""
    content = clean_avatar_bytes(upload, size=size)
    # A fresh random name per upload: browsers and caches never show the old picture.
    name = f"{user.pk}-{secrets.token_hex(8)}.webp"
    with transaction.atomic():
        profile = Profile.objects.select_for_update().get(user=user)
        old = profile.avatar.name
        profile.avatar.save(name, ContentFile(content), save=False)
        profile.save(update_fields=["avatar"])
        _delete_file_after_commit(old)
    return profile


def avatar_remove(*, user: Any) -> Profile:
    """Back to the default avatar (the initial letter); having none already is no error."""
    with transaction.atomic():
        profile = Profile.objects.select_for_update().get(user=user)
        old = profile.avatar.name
        profile.avatar = ""
        profile.save(update_fields=["avatar"])
        _delete_file_after_commit(old)
    return profile
