import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("MAHJONG_SHARED", ROOT.parent / "shared"))
sys.path.insert(0, str(ROOT))


# .ci/run sets this: there the shared material must be found, so that tests of it cannot pass by skipping.
REQUIRE_SHARED = os.environ.get("MAHJONG_REQUIRE_SHARED") == "1"


def missing_shared(what: str) -> None:
    """Skip the calling test because ``what`` (shared material) is missing; fail instead under .ci/run."""
    message = f"{what} not found (shared material at {SHARED}; set MAHJONG_SHARED)"
    if REQUIRE_SHARED:
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    if not SHARED.is_dir():
        missing_shared("the shared folder")
    return SHARED


# Property tests draw the same examples on every run (the standards: deterministic seeds for anything random), and
# a first example slowed by a cold cache or a loaded machine is no failure (no per-example deadline).
from hypothesis import settings as _hypothesis_settings  # noqa: E402

_hypothesis_settings.register_profile("repository", derandomize=True, deadline=None)
_hypothesis_settings.load_profile("repository")


@pytest.fixture(autouse=True, scope="session")
def _readings_by_states_only():
    """Every reading in the tests is bounded by search states only, never by the CPU time it got: a reading near the
    deployed CPU budget (``decode.TOTAL_SECONDS``) would otherwise come out one way on an idle machine and another on
    a loaded one (a timed test, which the standards keep out of the suite; bench/bench_hand_reader.py measures how
    often the deployed budget is met). Tests of the time limit itself give their budget its seconds."""
    try:
        from vision.reading import decode
    except ImportError:  # an environment without the vision dependencies runs the engine's tests only
        yield
        return
    deployed = decode.TOTAL_SECONDS
    decode.TOTAL_SECONDS = float("inf")
    yield
    decode.TOTAL_SECONDS = deployed
