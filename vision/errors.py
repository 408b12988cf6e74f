"""Image errors with stable codes.

Every file the recogniser cannot use is reported as an :class:`ImageError`, a ``ValueError`` with a ``code`` (lower
snake case, stable: clients switch on it) and a human-readable message.
"""

from __future__ import annotations


class ImageError(ValueError):
    """An image that cannot be read, with a stable ``code`` (see :data:`IMAGE_ERROR_CODES`)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"[{code}] {message}")
        self.code = code
        self.message = message

    def to_json(self) -> dict:
        return {"code": self.code, "message": self.message}


IMAGE_ERROR_CODES = {
    "file_not_found": "the path does not exist or is not a readable file",
    "empty_file": "zero bytes",
    "unsupported_format": "not a PNG, JPEG, WebP or HEIC/HEIF image (text, GIF, PDF, ...)",
    "truncated_image": "the file ends before the image data does",
    "unreadable_image": "a known format whose data cannot be decoded",
    "image_too_large": "more pixels than the limit (checked from the header, before decoding)",
    "image_too_small": "fewer than 16 pixels on a side",
}
