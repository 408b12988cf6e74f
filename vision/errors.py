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


class ModelFileError(ValueError):
    """A model file the recogniser cannot use, with a stable ``code`` (see :data:`MODEL_ERROR_CODES`). ``str()`` names
    the file's path (for the command line and the service's log); ``file`` (its name alone) and ``reason`` are what
    the service may show a client (``/healthz``, its 503s), which must not see the server's folders."""

    def __init__(self, code: str, path, reason: str) -> None:
        super().__init__(f"model file {path}: {reason}")
        self.code = code
        self.file = getattr(path, "name", str(path))
        self.reason = reason


class MissingModelFile(ModelFileError, FileNotFoundError):
    """A required model file that is not there (still a ``FileNotFoundError``, as it was before the codes)."""

    def __init__(self, path) -> None:
        super().__init__("model_missing", path, "not found")


MODEL_ERROR_CODES = {
    "model_missing": "a required model file (localizer.onnx, classifier.onnx) is not in the models folder",
    "model_unreadable": "not an ONNX model onnxruntime can load (empty, cut short, another file, a folder)",
    "model_mismatch": "an ONNX model whose inputs or outputs are not the ones its role needs (another model's file)",
}
