import copy
import pickle

from engine import HandError


def test_a_hand_error_survives_pickle_and_copy():
    # a worker process's error reaches its parent pickled (multiprocessing); the default reduce called
    # HandError("[code] message") and raised TypeError instead
    error = HandError("too_many_copies", "more than four copies of 1z: '1111z +1z'", tiles=["1z"])
    for again in (pickle.loads(pickle.dumps(error)), copy.copy(error), copy.deepcopy(error)):
        assert type(again) is HandError and isinstance(again, ValueError)
        assert (again.code, again.message, again.details, str(again)) == (
            "too_many_copies", "more than four copies of 1z: '1111z +1z'", {"tiles": ["1z"]},
            "[too_many_copies] more than four copies of 1z: '1111z +1z'")
        assert again.to_json() == error.to_json()
