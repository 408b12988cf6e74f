import pytest

from vision.synth.art import available_styles


@pytest.fixture(scope="session", autouse=True)
def need_art(shared_dir):
    """The generator draws faces from shared/art; without it there is nothing to render."""
    if not available_styles():
        from tests.conftest import missing_shared

        missing_shared("tile art (art/)")
