"""The referee page in a real browser (Playwright driving Debian's Chromium): enter or photograph a hand, correct a
tile from the palette, and see the new score, which must be the engine's score of the corrected hand."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil

import pytest

from engine import Hand, score_request

from .conftest import FIXTURES, models_present

sync_api = pytest.importorskip("playwright.sync_api")

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
# Headless and offline: no GPU, no background updates or first-run pages (the test machine has no network).
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-dev-shm-usage"]


def engine_total(hand: str, **context) -> int:
    result = score_request({"hand": Hand.parse(hand).to_json(), "context": {"rules": "mcr", **context}})
    assert result["ok"], result
    return result["total"]


@pytest.fixture(scope="module")
def page(live_server):
    if not (shutil.which(CHROMIUM) or os.path.exists(CHROMIUM)):
        pytest.skip(f"Chromium not found at {CHROMIUM} (make test installs Debian's chromium)")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        # A tablet-sized viewport with touch: the page is meant to be used on one.
        context = browser.new_context(viewport={"width": 1024, "height": 1366}, has_touch=True)
        page = context.new_page()
        page.set_default_timeout(15_000)
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        # Listening for file choosers before the page loads has Playwright turn Chromium's interception of them on
        # before any test presses a key: `expect_file_chooser` alone asks for it without waiting (a subscription sent
        # fire-and-forget), so a key press could beat it, the chooser open unseen and the wait time out (2 runs of
        # 30 and 1 of the CI's suite in session 77). Every chooser is still caught by `expect_file_chooser`.
        page.on("filechooser", lambda chooser: None)
        page.goto(live_server.url + "/referee")
        yield page
        assert not errors, f"JavaScript errors on the page: {errors}"
        browser.close()


def wait_for_total(page, expected: int) -> None:
    sync_api.expect(page.locator("#total")).to_have_text(f"{expected} points")


def test_enter_correct_and_rescore(page):
    start = "123456789m11p23p +4p"
    page.fill("#hand-input", start)
    page.click("#score-button")
    wait_for_total(page, engine_total(start))
    fans = page.locator("#fans li")
    assert fans.count() >= 4
    sync_api.expect(page.locator("#fans")).to_contain_text("Pure Straight")

    # Tapping a fan lights the tiles that make it: the nine characters of the pure straight.
    page.locator("#fans li", has_text="Pure Straight").click()
    lit = page.locator("#hand-tiles .tile-chip.hl")
    sync_api.expect(lit).to_have_count(9)
    assert sorted(lit.evaluate_all("els => els.map(e => e.dataset.code)")) == sorted(f"{n}m" for n in range(1, 10))

    # The winning tile was misread: 4p is really 1p. Tap it, pick 1p from the palette, and the score follows.
    page.locator('#hand-tiles .tile-chip[data-part="winning"]').click()
    sync_api.expect(page.locator("#palette")).to_be_visible()
    page.locator('#palette-tiles .tile-chip[data-code="1p"]').click()
    sync_api.expect(page.locator("#palette")).to_be_hidden()
    corrected = "123456789m11p23p +1p"
    wait_for_total(page, engine_total(corrected))
    assert engine_total(corrected) != engine_total(start)
    assert page.input_value("#hand-input") == "123456789m1123p +1p"

    # Changing the context rescores at once too: self-drawn.
    page.check('#context-form input[name="self_drawn"]')
    wait_for_total(page, engine_total(corrected, self_drawn=True))

    # A correction that breaks the hand says so instead of showing a stale score.
    page.locator('#hand-tiles .tile-chip[data-part="concealed"][data-code="9m"]').click()
    page.locator('#palette-tiles .tile-chip[data-code="7z"]').click()
    sync_api.expect(page.locator("#score-error")).to_contain_text("not_winning")
    sync_api.expect(page.locator("#total")).to_have_text("–")


PAGE_DEFAULT_CONTEXT = {"rules": "mcr", "seat_wind": "E", "round_wind": "E", "self_drawn": False,
                        "last_tile": False, "last_wall_tile": False, "kong_replacement": False, "robbing_kong": False}


def winning_tile_correction(hand: dict) -> tuple[str, int] | None:
    """A different winning tile that still makes a win with another total (engine as the oracle), if any."""
    current = score_request({"hand": hand, "context": PAGE_DEFAULT_CONTEXT})
    for kind in [f"{n}{s}" for s in "mps" for n in range(1, 10)] + [f"{n}z" for n in range(1, 8)]:
        if kind == hand["winning_tile"]:
            continue
        result = score_request({"hand": {**hand, "winning_tile": kind}, "context": PAGE_DEFAULT_CONTEXT})
        if result["ok"] and (not current["ok"] or result["total"] != current["total"]):
            return kind, result["total"]
    return None


@pytest.mark.skipif(not models_present(), reason="no model files in models/ yet")
def test_upload_photo_outlines_tiles_and_corrections_rescore(page, live_server):
    import httpx

    photo = FIXTURES / "synth_2021.jpg"  # a rendered winning hand (fixtures/SOURCE.md)
    expected = httpx.post(live_server.url + "/v1/score", files={"image": (photo.name, photo.read_bytes())},
                          data={"overlay": "false", "context": json.dumps(PAGE_DEFAULT_CONTEXT)}, timeout=60).json()
    page.reload()
    page.set_input_files("#photo-input", str(photo))
    boxes = page.locator("#boxes .box")
    sync_api.expect(boxes).to_have_count(len(expected["tiles"]))
    assert len(expected["tiles"]) > 0
    # Every tile is outlined and named on the photo, with its confidence.
    labels = boxes.locator(".label").all_inner_texts()
    for tile, label in zip(expected["tiles"], labels):
        assert (tile["code"] or "back") in label and f"{tile['confidence']:.2f}"[:3] in label

    # Correct a tile on the photo (one the hand reader placed in the hand, if any): the box shows the correction and
    # the page rescores at once, through /v1/hands/score (tile in the hand) or /v1/tiles/score (re-read), and shows
    # exactly what that call answered.
    roles = expected.get("tile_roles") or []
    in_hand = [i for i, role in enumerate(roles) if role.get("role") in ("concealed", "winning", "meld", "flower")]
    winning = [i for i, role in enumerate(roles) if role.get("role") == "winning"]
    correction = winning_tile_correction(expected["hand"]) if expected.get("hand") and winning else None
    if correction:
        index, code = winning[0], correction[0]
    else:
        index = in_hand[0] if in_hand else 0
        code = "7z" if (expected["tiles"][index]["code"] != "7z") else "1m"
    box = boxes.nth(index)
    # Tap the tile's centre like a finger would (another box may lie on top where tiles touch).
    where = box.bounding_box()
    page.mouse.click(where["x"] + where["width"] / 2, where["y"] + where["height"] / 2)
    sync_api.expect(page.locator("#palette")).to_be_visible()
    with page.expect_response(lambda r: r.request.method == "POST" and "/score" in r.url) as rescored:
        page.locator(f'#palette-tiles .tile-chip[data-code="{code}"]').click()
    sync_api.expect(box).to_have_class("box corrected")
    sync_api.expect(box.locator(".label")).to_contain_text(code)
    answer = rescored.value.json()
    score = answer.get("score", answer) if "/tiles/" in rescored.value.url else answer
    if rescored.value.status == 200 and score.get("ok"):
        wait_for_total(page, score["total"])
    else:
        error = (score.get("error") or answer.get("error"))["code"]
        sync_api.expect(page.locator("#score-error")).to_contain_text(error)
    if correction:
        # The winning tile, corrected to another tile that completes the hand: the engine's score of that hand.
        assert "/hands/score" in rescored.value.url
        wait_for_total(page, correction[1])
        assert f"+{code}" in page.input_value("#hand-input")


def test_a_tap_on_a_tiles_side_just_outside_its_face_box_picks_it(page, live_server):
    # Boxes are drawn at the face (B50), 0.92 of the tile's body: a tap on the body just beyond the drawn box (1.5 % of
    # its width to the right of the set-apart winning tile, which has no neighbour there) still picks that tile.
    import httpx

    photo = FIXTURES / "synth_2021.jpg"  # a rendered winning hand (fixtures/SOURCE.md)
    expected = httpx.post(live_server.url + "/v1/score", files={"image": (photo.name, photo.read_bytes())},
                          data={"overlay": "false", "context": json.dumps(PAGE_DEFAULT_CONTEXT)}, timeout=60).json()
    [index] = [i for i, role in enumerate(expected["tile_roles"]) if role.get("role") == "winning"]
    page.reload()
    page.set_input_files("#photo-input", str(photo))
    boxes = page.locator("#boxes .box")
    sync_api.expect(boxes).to_have_count(len(expected["tiles"]))
    box = boxes.nth(index)
    where = box.bounding_box()
    page.mouse.click(where["x"] + where["width"] * 1.015, where["y"] + where["height"] / 2)
    sync_api.expect(page.locator("#palette")).to_be_visible()
    code = "7z" if expected["tiles"][index]["code"] != "7z" else "1m"
    page.locator(f'#palette-tiles .tile-chip[data-code="{code}"]').click()
    sync_api.expect(box).to_have_class("box corrected")


def test_riichi_yaku_and_fu_lines_light_their_tiles(page):
    """Riichi yaku carry `sets` / `tiles` like MCR fans: tapping one lights exactly the tiles that make it."""
    page.select_option('#context-form select[name="rules"]', "riichi")
    try:
        hand = "234m234p234s5z777z +5z"
        context = {"rules": "riichi", "ruleset": "zendanshin", "seat_wind": "E", "round_wind": "E",
                   "self_drawn": False, "last_tile": False, "last_wall_tile": False, "kong_replacement": False,
                   "robbing_kong": False, "riichi": False, "double_riichi": False, "ippatsu": False,
                   "honba": 0, "riichi_sticks": 0}
        expected = score_request({"hand": Hand.parse(hand).to_json(), "context": context})
        assert expected["ok"], expected
        page.fill("#hand-input", hand)
        page.click("#score-button")
        wait_for_total(page, expected["points"]["total"])
        lit = page.locator("#hand-tiles .tile-chip.hl")

        page.locator("#fans li", has_text="Red dragon").click()
        sync_api.expect(lit).to_have_count(3)
        assert lit.evaluate_all("els => els.map(e => e.dataset.code)") == ["7z", "7z", "7z"]

        page.locator("#fans li", has_text="Mixed triple chow").click()
        sync_api.expect(lit).to_have_count(9)
        assert sorted(lit.evaluate_all("els => els.map(e => e.dataset.code)")) == sorted(
            f"{n}{s}" for n in (2, 3, 4) for s in "mps")

        # Fu lines that come from a group are tappable too: the single wait lights the pair it completed.
        page.locator("#fans li", has_text="single wait").click()
        sync_api.expect(lit).to_have_count(2)
        assert lit.evaluate_all("els => els.map(e => e.dataset.code)") == ["5z", "5z"]

        # Tapping the active line again clears the highlight.
        page.locator("#fans li", has_text="single wait").click()
        sync_api.expect(lit).to_have_count(0)
    finally:
        page.select_option('#context-form select[name="rules"]', "mcr")


def test_the_scorers_notes_are_shown_beside_the_total(page):
    """What the scorer left out (riichi: a flower shown; MCR: riichi-only context, policy H7) is said under the total,
    not dropped (session 56: the page showed no `notes`)."""
    page.select_option('#context-form select[name="rules"]', "riichi")
    try:
        page.fill("#hand-input", "123456789m11p23p +4p 1f")
        page.click("#score-button")
        sync_api.expect(page.locator("#total-detail")).to_contain_text("1 flower tile(s) not used")
    finally:
        page.select_option('#context-form select[name="rules"]', "mcr")


def upload_and_wait(page, photo) -> None:
    page.set_input_files("#photo-input", photo)
    sync_api.expect(page.locator("#photo-status")).not_to_have_text("reading…")


@pytest.mark.skipif(not models_present(), reason="no model files in models/ yet")
def test_a_new_photo_that_fails_shows_nothing_of_the_last(page):
    """A photo that is not an image, or from which no hand can be read, must not leave the last photo's hand, score
    and boxes on show as if they were its own."""
    page.reload()
    upload_and_wait(page, FIXTURES / "synth_2021.jpg")
    sync_api.expect(page.locator("#total")).to_have_text(re.compile(r"\d+ points"))
    page.set_input_files("#photo-input", {"name": "notes.jpg", "mimeType": "image/jpeg", "buffer": b"not an image"})
    sync_api.expect(page.locator("#photo-status")).to_contain_text("unsupported_format")
    sync_api.expect(page.locator("#total")).to_have_text("–")
    sync_api.expect(page.locator("#fans li")).to_have_count(0)
    sync_api.expect(page.locator("#hand-tiles .tile-chip")).to_have_count(0)
    sync_api.expect(page.locator("#boxes .box")).to_have_count(0)
    assert page.input_value("#hand-input") == ""

    upload_and_wait(page, FIXTURES / "synth_2021.jpg")
    sync_api.expect(page.locator("#total")).to_have_text(re.compile(r"\d+ points"))
    upload_and_wait(page, FIXTURES / "hk_valid_2.jpg")  # tiles, but no legal hand in them
    sync_api.expect(page.locator("#score-error")).to_contain_text("no_hand")
    sync_api.expect(page.locator("#hand-tiles .tile-chip")).to_have_count(0)
    assert page.input_value("#hand-input") == ""
    sync_api.expect(page.locator("#alternatives button")).to_have_count(0)


@pytest.mark.skipif(not models_present(), reason="no model files in models/ yet")
def test_a_flower_corrected_to_a_suit_tile_reads_the_hand_again(page):
    """A photo tile read as a flower that is really a suit tile does not belong among the flowers: the page reads
    the hand again from the corrected tiles (/v1/tiles/score) instead of putting 5p among the flowers."""
    page.reload()
    upload_and_wait(page, FIXTURES / "hk_valid_1.jpg")  # tile 8 is read as the flower 2f
    box = page.locator("#boxes .box").nth(8)
    sync_api.expect(box).to_have_attribute("data-code", "2f")
    box.scroll_into_view_if_needed()
    where = box.bounding_box()
    page.mouse.click(where["x"] + where["width"] / 2, where["y"] + where["height"] / 2)
    with page.expect_response(lambda r: r.request.method == "POST" and "/score" in r.url) as rescored:
        page.locator('#palette-tiles .tile-chip[data-code="5p"]').click()
    assert "/v1/tiles/score" in rescored.value.url
    sync_api.expect(page.locator("#score-error")).not_to_contain_text("flower_in_hand")
    assert "5p" not in "".join(page.locator("#hand-tiles .group.flowers .tile-chip").all_inner_texts())


def test_a_malformed_url_fragment_says_what_is_wrong(page, live_server):
    """#hand=100% is not valid percent-encoding: no JavaScript error and a blank page, but the service's answer."""
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto("about:blank")
    page.goto(live_server.url + "/referee#hand=123m%E0%A4%A")
    sync_api.expect(page.locator("#score-error")).to_be_visible()
    sync_api.expect(page.locator("#total")).to_have_text("–")
    assert page.input_value("#hand-input") == "123m%E0%A4%A"
    assert not errors


PHONE = {"width": 375, "height": 667}


@contextlib.contextmanager
def phone_screen(page):
    """The page at a phone's size for the block, then back at the tablet size the other tests use."""
    page.set_viewport_size(PHONE)
    try:
        yield
    finally:
        page.set_viewport_size({"width": 1024, "height": 1366})


def score_typed_hand(page, text: str = "123456789m11p23p +4p") -> None:
    """Type ``text``, score it and wait until this answer is drawn. The total alone cannot tell: the last test may have
    left the same total on show, and the answer's hand, drawn after it, would then replace the chips mid-test."""
    shown = page.locator("#hand-tiles .tile-chip").first
    before = shown.element_handle() if shown.count() else None
    page.fill("#hand-input", text)
    page.click("#score-button")
    if before is not None:
        page.wait_for_function("chip => !chip.isConnected", arg=before)  # the hand drawn again from this answer
    wait_for_total(page, engine_total(text))


def right_edges(locator) -> list[float]:
    return locator.evaluate_all("els => els.map(e => e.getBoundingClientRect().right)")


@pytest.mark.skipif(not models_present(), reason="no model files in models/ yet")
def test_a_photo_fits_a_phone_screen(page):
    """At a phone's width the photo shrinks to the screen: the page does not scroll sideways."""
    with phone_screen(page):
        page.reload()
        upload_and_wait(page, FIXTURES / "synth_2021.jpg")
        sync_api.expect(page.locator("#boxes .box").first).to_be_visible()
        widths = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        assert widths[0] <= widths[1], widths
        assert page.locator("#photo").bounding_box()["width"] <= PHONE["width"]


def test_a_concealed_hand_fits_a_phone_screen(page):
    """Thirteen concealed tiles at a phone's width wrap onto two lines: none is off the screen."""
    with phone_screen(page):
        score_typed_hand(page)
        widths = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        assert widths[0] <= widths[1], widths
        assert max(right_edges(page.locator("#hand-tiles .tile-chip"))) <= PHONE["width"]


def test_the_palette_fits_a_phone_screen(page):
    """The palette's nine columns of faces fit a phone's width: 7-9 and the red five need no sideways scroll."""
    with phone_screen(page):
        score_typed_hand(page)
        page.locator('#hand-tiles .tile-chip[data-part="winning"]').click()
        sync_api.expect(page.locator("#palette")).to_be_visible()
        widths = page.locator(".palette-inner").evaluate("e => [e.scrollWidth, e.clientWidth]")
        assert widths[0] <= widths[1], widths
        assert max(right_edges(page.locator("#palette-tiles .tile-chip"))) <= PHONE["width"]


def test_a_hand_link_opened_on_the_open_page_is_scored(page, live_server):
    """A shared link opened in the tab already on /referee changes only the fragment: the page scores its hand."""
    page.goto(live_server.url + "/referee#hand=123456789m11p23p%20%2B4p")
    wait_for_total(page, engine_total("123456789m11p23p +4p"))
    page.goto(live_server.url + "/referee#hand=123456789m11p23p%20%2B1p")
    wait_for_total(page, engine_total("123456789m11p23p +1p"))
    assert page.input_value("#hand-input") == "123456789m1123p +1p"


@pytest.mark.skipif(not models_present(), reason="no model files in models/ yet")
def test_a_photo_sent_while_the_service_is_unreachable_says_so(page):
    """The upload gets no answer at all (the wifi dropped): the page says so instead of 'reading…' for ever."""
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.reload()
    page.route("**/v1/score", lambda route: route.abort("internetdisconnected"))
    try:
        page.set_input_files("#photo-input", str(FIXTURES / "synth_2021.jpg"))
        sync_api.expect(page.locator("#photo-status")).to_contain_text("service_unreachable")
        sync_api.expect(page.locator("#total")).to_have_text("–")
        assert not errors
    finally:
        page.unroute("**/v1/score")


@pytest.mark.skipif(not models_present(), reason="no model files in models/ yet")
def test_choosing_an_alternative_updates_the_photo_boxes(page, live_server):
    """An alternative reading says which photo tile it reads as another face: choosing it relabels that box too."""
    import httpx

    photo = FIXTURES / "synth_2021.jpg"
    answer = httpx.post(live_server.url + "/v1/score", files={"image": (photo.name, photo.read_bytes())},
                        data={"overlay": "false", "context": json.dumps(PAGE_DEFAULT_CONTEXT)}, timeout=60).json()
    index = next(i for i, role in enumerate(answer["tile_roles"]) if role.get("role") == "concealed")
    old = answer["tiles"][index]["code"]
    to = "7z" if old != "7z" else "1m"
    concealed = list(answer["hand"]["concealed"])
    concealed[concealed.index(old)] = to
    change = {"tile_index": index, "box": answer["tiles"][index]["box"], "from": old, "to": to}
    answer["alternatives"] = [{**change, "changes": [change], "hand": {**answer["hand"], "concealed": concealed},
                               "description": f"if tile {index} is {to} instead of {old}", "total": 8}]
    page.reload()
    page.route("**/v1/score", lambda route: route.fulfill(status=200, json=answer))
    try:
        upload_and_wait(page, photo)
        with page.expect_response(lambda r: "/v1/hands/score" in r.url):
            page.locator("#alternatives button").first.click()
        box = page.locator("#boxes .box").nth(index)
        sync_api.expect(box).to_have_attribute("data-code", to)
        sync_api.expect(box.locator(".label")).to_contain_text(to)
    finally:
        page.unroute("**/v1/score")


class TableRecognizer:
    """Stands in for the models: the live server reads a hand-made detection set (tests/hand_reader/builder.py) from
    any upload, so that the page gets a real reading with close alternatives and no model runs."""

    def __init__(self, layout: str, misread: dict, loose: tuple = ()):
        from tests.hand_reader.builder import Table

        table = Table().row(layout)
        for code, x, y in loose:
            table.tile(code, x, y)
        self.detections, self.size, _ = table.photo(misread=misread)

    def recognize_with_image(self, data: bytes):
        from vision.recognize import Recognition

        return Recognition(self.detections, *self.size), None


# Table tiles 8 (9m) and 13 (the winning 4p) are doubtful: the answer lists "tile 1 is 1p", "tile 10 is 6m" and both.
TWO_DOUBTS = ("1m 2m 3m 4m 5m 6m 7m 8m 9m 1z 1z 2p 3p | 4p",
              {13: [("4p", 0.6), ("1p", 0.35), ("7p", 0.03)], 8: [("9m", 0.6), ("6m", 0.35), ("7p", 0.03)]})


@contextlib.contextmanager
def photo_read_as(live_server, layout: str, misread: dict, loose: tuple = ()):
    """Photos sent to the live server are read as the given table for the block (the real reader and pipeline)."""
    reader = live_server.server.config.app.state.reader
    kept = reader.recognizer
    reader.recognizer = TableRecognizer(layout, misread, loose)
    try:
        yield
    finally:
        reader.recognizer = kept


def read_photo(live_server, photo) -> dict:
    import httpx

    return httpx.post(live_server.url + "/v1/score", files={"image": (photo.name, photo.read_bytes())},
                      data={"overlay": "false", "context": json.dumps(PAGE_DEFAULT_CONTEXT)}, timeout=60).json()


def tiles_score(live_server, answer: dict, codes: dict[int, str], context: dict) -> dict:
    """What /v1/tiles/score answers for the photo's tiles with ``codes`` (tile index -> face) put in."""
    import httpx

    tiles = [dict(t, code=codes.get(i, t["code"])) for i, t in enumerate(answer["tiles"])]
    return httpx.post(live_server.url + "/v1/tiles/score", json={"tiles": tiles, "width": answer["width"],
                      "height": answer["height"], "context": context}, timeout=60).json()


def correct_box(page, index: int, code: str) -> None:
    box = page.locator("#boxes .box").nth(index)
    box.scroll_into_view_if_needed()
    where = box.bounding_box()
    page.mouse.click(where["x"] + where["width"] / 2, where["y"] + where["height"] / 2)
    page.locator(f'#palette-tiles .tile-chip[data-code="{code}"]').click()


def test_alternatives_follow_the_corrected_hand(page, live_server):
    """After a correction the alternatives describe the hand on show: the change made (or overruled) is no longer
    offered, and the others carry what /v1/tiles/score answers for the corrected tiles with their change, against
    the score now on show; a context change scores them again too."""
    photo = FIXTURES / "synth_2021.jpg"
    page.reload()
    with photo_read_as(live_server, *TWO_DOUBTS):
        answer = read_photo(live_server, photo)
        assert sorted(tuple((c["tile_index"], c["to"]) for c in a["changes"]) for a in answer["alternatives"]) == \
            [((1, "1p"),), ((1, "1p"), (10, "6m")), ((10, "6m"),)]
        upload_and_wait(page, photo)
    alternatives = page.locator("#alternatives button")
    sync_api.expect(alternatives).to_have_count(3)

    correct_box(page, 1, "1p")  # the winning tile is 1p: one of the alternatives, made by hand
    corrected = tiles_score(live_server, answer, {1: "1p"}, PAGE_DEFAULT_CONTEXT)["score"]
    wait_for_total(page, corrected["total"])
    both = tiles_score(live_server, answer, {1: "1p", 10: "6m"}, PAGE_DEFAULT_CONTEXT)["score"]
    sync_api.expect(alternatives).to_have_count(1)  # "tile 1 is 1p" is made; with it, "both" is "tile 10 is 6m"
    sync_api.expect(alternatives.first).to_contain_text("tile 10 is 6m instead of 9m")
    sync_api.expect(alternatives.first).to_contain_text(f"{both['total']} points instead of {corrected['total']}")
    assert "tile 1 " not in alternatives.first.inner_text()

    context = {**PAGE_DEFAULT_CONTEXT, "self_drawn": True}
    page.check('#context-form input[name="self_drawn"]')
    corrected = tiles_score(live_server, answer, {1: "1p"}, context)["score"]
    both = tiles_score(live_server, answer, {1: "1p", 10: "6m"}, context)["score"]
    wait_for_total(page, corrected["total"])
    sync_api.expect(alternatives.first).to_contain_text(f"{both['total']} points instead of {corrected['total']}")

    # Choosing the one left makes it: the hand is the one it described, and nothing is offered any more.
    with page.expect_response(lambda r: "/v1/hands/score" in r.url):
        alternatives.first.click()
    wait_for_total(page, both["total"])
    sync_api.expect(alternatives).to_have_count(0)
    page.uncheck('#context-form input[name="self_drawn"]')


def test_a_correction_read_again_keeps_the_faces_the_hand_took(page, live_server):
    """The winning tile's top face (7z) makes no hand: the reading takes it as 4p. Correcting a loose tile reads the
    hand again from the tiles (/v1/tiles/score): that tile must go back as the 4p the hand shows, not as the 7z
    misread, which the reader would now have to guess again (it took 1p: another hand and score)."""
    photo = FIXTURES / "synth_2021.jpg"
    page.reload()
    with photo_read_as(live_server, "1m 2m 3m 4m 5m 6m 7m 8m 9m 1z 1z 2p 3p | 4p",
                       {13: [("7z", 0.6), ("4p", 0.3), ("1p", 0.05)]}, loose=(("5s", 4, -4),)):
        answer = read_photo(live_server, photo)
        upload_and_wait(page, photo)
    roles = answer["tile_roles"]
    winning = next(i for i, role in enumerate(roles) if role["role"] == "winning")
    loose = next(i for i, role in enumerate(roles) if role["role"] == "clutter")
    assert (answer["tiles"][winning]["code"], roles[winning]["code"]) == ("7z", "4p")
    wait_for_total(page, answer["score"]["total"])

    with page.expect_response(lambda r: "/v1/tiles/score" in r.url):
        correct_box(page, loose, "6s")
    expected = tiles_score(live_server, answer, {winning: "4p", loose: "6s"}, PAGE_DEFAULT_CONTEXT)
    assert expected["hand"]["winning_tile"] == "4p"
    wait_for_total(page, expected["score"]["total"])
    assert "+4p" in page.input_value("#hand-input")


def test_a_correction_in_the_hand_is_made_on_the_photo_too(page, live_server):
    """Tapping the hand's winning tile and picking 1p corrects the photo's tile it was read from as well: its box
    shows 1p, and the alternatives are those of the corrected tiles, as when the box itself is corrected."""
    photo = FIXTURES / "synth_2021.jpg"
    page.reload()
    with photo_read_as(live_server, *TWO_DOUBTS):
        answer = read_photo(live_server, photo)
        upload_and_wait(page, photo)
    winning = next(i for i, role in enumerate(answer["tile_roles"]) if role["role"] == "winning")
    alternatives = page.locator("#alternatives button")
    sync_api.expect(alternatives).to_have_count(3)

    page.locator('#hand-tiles .tile-chip[data-part="winning"]').click()
    page.locator('#palette-tiles .tile-chip[data-code="1p"]').click()
    corrected = tiles_score(live_server, answer, {winning: "1p"}, PAGE_DEFAULT_CONTEXT)["score"]
    both = tiles_score(live_server, answer, {winning: "1p", 10: "6m"}, PAGE_DEFAULT_CONTEXT)["score"]
    wait_for_total(page, corrected["total"])
    box = page.locator("#boxes .box").nth(winning)
    sync_api.expect(box).to_have_attribute("data-code", "1p")
    sync_api.expect(box).to_have_class("box corrected")
    sync_api.expect(alternatives).to_have_count(1)
    sync_api.expect(alternatives.first).to_contain_text(f"{both['total']} points instead of {corrected['total']}")


def test_a_rescored_hand_lights_no_tiles_of_the_last_score(page, live_server):
    """A fan tapped lights its tiles on the photo too; once the hand is scored again (here, self-drawn ticked) no
    fan is active, and no box stays lit for the last score's fan."""
    photo = FIXTURES / "synth_2021.jpg"
    page.reload()
    with photo_read_as(live_server, *TWO_DOUBTS):
        answer = read_photo(live_server, photo)
        upload_and_wait(page, photo)
    wait_for_total(page, answer["score"]["total"])
    page.locator("#fans li", has_text="Pure Straight").click()
    lit = page.locator("#boxes .box.hl")
    sync_api.expect(lit).to_have_count(9)
    page.check('#context-form input[name="self_drawn"]')
    try:
        wait_for_total(page, engine_total(Hand.from_json(answer["hand"]).format(), self_drawn=True))
        sync_api.expect(page.locator("#fans li.active")).to_have_count(0)
        sync_api.expect(lit).to_have_count(0)
    finally:
        page.uncheck('#context-form input[name="self_drawn"]')


def test_the_photos_warnings_say_they_are_on_the_first_reading_after_a_correction(page, live_server):
    """The reading's warning "tile 11 read as 7z was taken as 4p" is about the photo as first read: once the referee
    has made that tile 1p, the page says the notes are on the first reading (the hand has changed since)."""
    photo = FIXTURES / "synth_2021.jpg"
    page.reload()
    with photo_read_as(live_server, "1m 2m 3m 4m 5m 6m 7m 8m 9m 1z 1z 2p 3p | 4p",
                       {13: [("7z", 0.6), ("4p", 0.3), ("1p", 0.05)]}):
        answer = read_photo(live_server, photo)
        upload_and_wait(page, photo)
    winning = next(i for i, role in enumerate(answer["tile_roles"]) if role["role"] == "winning")
    sync_api.expect(page.locator("#warnings")).to_contain_text("read as 7z was taken as 4p")
    sync_api.expect(page.locator("#warnings-note")).to_be_hidden()
    correct_box(page, winning, "1p")
    wait_for_total(page, tiles_score(live_server, answer, {winning: "1p"}, PAGE_DEFAULT_CONTEXT)["score"]["total"])
    sync_api.expect(page.locator("#warnings-note")).to_be_visible()
    sync_api.expect(page.locator("#warnings-note")).to_contain_text("first read")


def test_a_winning_tile_named_after_the_photo_is_read_reads_it_again(page, live_server):
    """The reading asks for the winning tile where none is set apart ('name the winning tile'): naming it in the
    photo overrides once the photo is read applies it to that photo at once (/v1/tiles/score with winning_tile),
    not only to the next photo or the next correction."""
    import httpx

    photo = FIXTURES / "synth_2021.jpg"
    page.reload()
    with photo_read_as(live_server, "1m 2m 3m 4m 5m 6m 7m 8m 9m 1z 1z 2p 3p 4p", {}):
        answer = read_photo(live_server, photo)
        upload_and_wait(page, photo)
    assert "winning_tile_not_set_apart" in answer["warning_codes"]
    wait_for_total(page, answer["score"]["total"])
    named = "9m" if answer["hand"]["winning_tile"] != "9m" else "3m"
    expected = httpx.post(live_server.url + "/v1/tiles/score", json={
        "tiles": answer["tiles"], "width": answer["width"], "height": answer["height"],
        "context": PAGE_DEFAULT_CONTEXT, "winning_tile": named}, timeout=60).json()
    assert expected["hand"]["winning_tile"] == named and expected["score"]["total"] != answer["score"]["total"]
    page.locator("#photo-section details summary").click()
    try:
        with page.expect_response(lambda r: "/v1/tiles/score" in r.url):
            page.fill("#override-winning", named)
            page.locator("#override-winning").press("Enter")
        wait_for_total(page, expected["score"]["total"])
        assert f"+{named}" in page.input_value("#hand-input")
    finally:
        page.fill("#override-winning", "")


def riichi_points(hand: str, context: dict) -> dict:
    """The engine's score of a typed hand (the truth the page is held to): the total the page shows, and aka dora."""
    result = score_request({"hand": Hand.parse(hand).to_json(), "context": context})
    assert result["ok"], result
    return {"total": result["points"]["total"],
            "aka": sum(y["han"] for y in result["yaku"] if y["id"] == "aka_dora")}


@contextlib.contextmanager
def riichi_form(page, ruleset: str = "modern"):
    """The page's context set to riichi under ``ruleset`` (modern: red fives count) for the block."""
    page.select_option('#context-form select[name="rules"]', "riichi")
    page.select_option('#context-form select[name="ruleset"]', ruleset)
    try:
        yield page.evaluate("contextFromForm()")
    finally:
        page.select_option('#context-form select[name="ruleset"]', "zendanshin")
        page.select_option('#context-form select[name="rules"]', "mcr")


def test_a_tile_corrected_to_a_red_five_is_scored_red_and_stays_red_when_read_again(page, live_server):
    """The recogniser reads every five plain (and says so under aka dora); the referee picks the red 5p from the
    palette for the photo's tile: the hand is scored with its red five, and a later correction elsewhere, which reads
    the hand again from the tiles (/v1/tiles/score), sends that tile back red and keeps it red."""
    import httpx

    photo = FIXTURES / "synth_2021.jpg"
    page.reload()
    with riichi_form(page) as context:
        with photo_read_as(live_server, "2m 3m 4m 6m 7m 8m 2p 3p 4p 6s 7s 8s 5p | 5p", {}, loose=(("5s", 4, -4),)):
            answer = httpx.post(live_server.url + "/v1/score", files={"image": (photo.name, photo.read_bytes())},
                                data={"overlay": "false", "context": json.dumps(context)}, timeout=60).json()
            upload_and_wait(page, photo)
        assert "red_fives_not_told_apart" in answer["warning_codes"]
        sync_api.expect(page.locator("#warnings")).to_contain_text("red fives are not told apart")
        wait_for_total(page, answer["score"]["points"]["total"])
        roles = answer["tile_roles"]
        five = next(i for i, role in enumerate(roles) if role["role"] == "concealed" and role["code"] == "5p")
        loose = next(i for i, role in enumerate(roles) if role["role"] == "clutter")
        truth = riichi_points("234678m234p678s0p +5p", context)
        assert truth["aka"] == 1 and truth["total"] != answer["score"]["points"]["total"]

        with page.expect_response(lambda r: "/v1/hands/score" in r.url):
            correct_box(page, five, "0p")
        wait_for_total(page, truth["total"])
        assert "0p" in page.input_value("#hand-input")
        sync_api.expect(page.locator("#fans")).to_contain_text("Red fives")
        sync_api.expect(page.locator("#boxes .box").nth(five)).to_have_attribute("data-code", "0p")

        with page.expect_response(lambda r: "/v1/tiles/score" in r.url) as reread:
            correct_box(page, loose, "6s")
        assert json.loads(reread.value.request.post_data)["tiles"][five]["code"] == "0p"
        again = reread.value.json()
        assert again["tile_roles"][five]["code"] == "0p" and again["score"]["points"]["total"] == truth["total"]
        wait_for_total(page, truth["total"])
        assert "0p" in page.input_value("#hand-input")
        sync_api.expect(page.locator("#boxes .box").nth(five)).to_have_attribute("data-code", "0p")


def test_a_five_of_a_pung_made_red_is_that_tile_only(page):
    """A pung is identical tiles, so a face picked for one of them is picked for all; a red five is not: one tile of
    the pung of 5s becomes the 0s, the others stay plain fives (three red fives would be no hand)."""
    page.reload()
    with riichi_form(page) as context:
        start = "234678m234p8p p555s< +8p"
        page.fill("#hand-input", start)
        page.click("#score-button")
        wait_for_total(page, riichi_points(start, context)["total"])
        page.locator("#hand-tiles .group.meld .tile-chip").nth(1).click()
        red = page.locator('#palette-tiles .tile-chip[data-code="0s"]')
        sync_api.expect(red).to_have_class(re.compile(r"\bred-five\b"))
        red.click()
        truth = riichi_points("234678m234p8p p055s< +8p", context)
        assert truth["aka"] == 1
        wait_for_total(page, truth["total"])
        codes = page.locator("#hand-tiles .group.meld .tile-chip").evaluate_all("els => els.map(e => e.dataset.code)")
        assert sorted(codes) == ["0s", "5s", "5s"]


# ---- hostile text: server answers, links and file names never run as markup --------------------------------------
PAYLOAD = '"><img src=x onerror="window.__xss=1"><svg onload="window.__xss=2">'


def test_the_page_and_its_files_forbid_framing_sniffing_and_inline_script(live_server):
    import httpx

    for path in ("/referee", "/static/referee.js", "/static/referee.css"):
        headers = httpx.get(live_server.url + path, timeout=10).headers
        assert headers["x-content-type-options"] == "nosniff", path
        assert headers["x-frame-options"] == "DENY", path
        policy = headers["content-security-policy"]
        assert "frame-ancestors 'none'" in policy and "default-src 'self'" in policy, path
        assert "unsafe-inline" not in policy and "unsafe-eval" not in policy, path
    answer = httpx.post(live_server.url + "/v1/hands/score", json={"hand": PAYLOAD}, timeout=10)
    assert answer.headers["x-content-type-options"] == "nosniff"
    assert answer.headers["content-type"].startswith("application/json")


def injected(page) -> list:
    """What a payload that escaped the page's text handling would have left: its elements, or its flag set."""
    return page.evaluate("""() => [window.__xss || 0,
        document.querySelectorAll('img[src="x"], svg, [onerror], [onload]').length]""")


def test_hostile_text_from_answers_links_and_file_names_is_shown_as_text(page, live_server):
    violations: list[str] = []
    page.on("console", lambda message: violations.append(message.text)
            if "Content Security Policy" in message.text else None)
    page.goto(live_server.url + "/referee")
    page.evaluate("window.__xss = 0")
    # A hand link: the fragment goes into the hand field and to the service, whose error quotes it.
    page.goto(live_server.url + "/referee#hand=" + PAYLOAD.replace("%", "%25").replace("#", "%23"))
    sync_api.expect(page.locator("#score-error")).to_be_visible()
    assert page.input_value("#hand-input") == PAYLOAD
    assert injected(page) == [0, 0]

    box = [10, 10, 60, 90]
    hand = {"concealed": ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1p", "1p", "2p", PAYLOAD],
            "melds": [{"type": PAYLOAD, "tiles": ["7z", "7z", "7z"], "from": PAYLOAD}],
            "winning_tile": PAYLOAD, "flowers": [PAYLOAD]}
    answer = {"tiles": [{"code": PAYLOAD, "box": box, "confidence": PAYLOAD, "rotation": 0, "face_down": False}],
              "width": PAYLOAD, "height": 100, "hand": hand, "warnings": [PAYLOAD, {"note": PAYLOAD}],
              "tile_roles": [{"role": "concealed", "code": PAYLOAD}],
              "alternatives": [{"hand": hand, "description": PAYLOAD, "reason": PAYLOAD,
                                "changes": [{"tile_index": "__proto__", "to": PAYLOAD}]}],
              "score": {"ok": True, "rules": "mcr", "total": PAYLOAD, "flowers": PAYLOAD, "meets_minimum": True,
                        "fans": [{"name": PAYLOAD, "name_zh": PAYLOAD, "points": PAYLOAD, "count": 2,
                                  "total": PAYLOAD, "sets": [PAYLOAD]}]}}
    page.route("**/v1/score", lambda route: route.fulfill(status=200, json=answer))
    try:
        page.set_input_files("#photo-input", {"name": PAYLOAD + ".png", "mimeType": "image/png",
                                              "buffer": (FIXTURES / "synth_2021.jpg").read_bytes()[:1000]})
        sync_api.expect(page.locator("#warnings")).to_contain_text(PAYLOAD)
        sync_api.expect(page.locator("#fans")).to_contain_text(PAYLOAD)
        sync_api.expect(page.locator("#alternatives")).to_contain_text(PAYLOAD)
        page.locator("#fans li").first.click()
        page.locator("#alternatives button").first.click()
        assert injected(page) == [0, 0]
        assert page.evaluate("[].code === undefined && [].corrected === undefined")  # no tile_index "__proto__"
    finally:
        page.unroute("**/v1/score")
    # An error answer (its message quoting the request) is text too.
    page.route("**/v1/score", lambda route: route.fulfill(status=422, json={"error": {"code": PAYLOAD,
                                                                                      "message": PAYLOAD}}))
    try:
        page.set_input_files("#photo-input", {"name": "a.png", "mimeType": "image/png", "buffer": b"\x89PNG"})
        sync_api.expect(page.locator("#photo-status")).to_contain_text(PAYLOAD)
        assert injected(page) == [0, 0]
    finally:
        page.unroute("**/v1/score")
    assert not violations, violations  # the page itself runs within its policy (no inline handler left)


# ---- keyboard, screen reader and touch (a tablet: 768x1024 and 1024x768) -----------------------------------------
def fake_photo_answer() -> dict:
    """A /v1/score answer for a photo of 123456789m11p23p +4p: fourteen boxes in a row, no models needed."""
    hand = Hand.parse("123456789m11p23p +4p").to_json()
    codes = hand["concealed"] + [hand["winning_tile"]]
    tiles = [{"code": code, "box": [20 + 40 * i, 200, 58 + 40 * i, 250], "confidence": 0.95 if i else 0.5,
              "rotation": 0, "face_down": False} for i, code in enumerate(codes)]
    roles = [{"role": "concealed", "code": code} for code in codes[:-1]] + [{"role": "winning", "code": codes[-1]}]
    return {"tiles": tiles, "width": 640, "height": 480, "hand": hand, "tile_roles": roles, "warnings": [],
            "alternatives": [], "score": score_request({"hand": hand, "context": PAGE_DEFAULT_CONTEXT})}


@contextlib.contextmanager
def faked_photo_reading(page):
    page.route("**/v1/score", lambda route: route.fulfill(status=200, json=fake_photo_answer()))
    try:
        yield
    finally:
        page.unroute("**/v1/score")


def focused(page, what: str = "e => e.id"):
    return page.evaluate(f"({what})(document.activeElement)")


def test_the_photo_button_is_reached_and_pressed_with_the_keyboard(page, live_server):
    """The file input was `hidden`: Tab went past 'Take or choose a photo', so no photo could be taken by keyboard."""
    page.goto(live_server.url + "/referee")
    page.keyboard.press("Tab")
    assert focused(page) == "photo-input"
    label = page.locator('label[for="photo-input"]')
    assert label.evaluate("e => getComputedStyle(e).outlineStyle") != "none"  # the focus shows on the button
    with faked_photo_reading(page):
        with page.expect_file_chooser() as chooser:
            page.keyboard.press("Space")
        chooser.value.set_files(str(FIXTURES / "synth_2021.jpg"))
        wait_for_total(page, engine_total("123456789m11p23p +4p"))
    sync_api.expect(page.locator("#boxes .box")).to_have_count(14)


def outline_and_ring(locator) -> str:
    return locator.evaluate("e => { const s = getComputedStyle(e); return s.outline + ' | ' + s.boxShadow; }")


def test_the_palette_is_a_dialog_for_the_keyboard(page):
    """The palette opened with the focus left on the page behind it (Tab walked the page under the overlay), Escape
    did not close it, and after a choice the focus was lost (the hand drawn again): the focus goes into the palette
    (its current face, visibly focused), stays there, Escape closes it, and the focus comes back to the chip."""
    score_typed_hand(page)
    chip = page.locator('#hand-tiles .tile-chip[data-part="winning"]')
    chip.focus()
    page.keyboard.press("Enter")
    sync_api.expect(page.locator("#palette")).to_be_visible()
    assert page.evaluate("document.activeElement.closest('#palette-tiles') !== null")
    current = page.locator("#palette-tiles .tile-chip.current")
    assert focused(page, "e => e.dataset.code") == "4p"
    sync_api.expect(page.locator("#palette")).to_have_attribute("aria-modal", "true")
    ring_focused = outline_and_ring(current)
    for _ in range(50):  # (past the last face, Tab may leave the page for the browser's own controls: body)
        page.keyboard.press("Tab")
        assert page.evaluate("!document.activeElement.closest('main, header')"), focused(page, "e => e.outerHTML")
    page.locator('#palette-tiles .tile-chip[data-code="1p"]').focus()
    assert outline_and_ring(current) != ring_focused  # the focus on the current face shows
    page.keyboard.press("Escape")
    sync_api.expect(page.locator("#palette")).to_be_hidden()
    assert focused(page, "e => e.dataset.part") == "winning"

    page.keyboard.press("Space")
    sync_api.expect(page.locator("#palette")).to_be_visible()
    page.locator('#palette-tiles .tile-chip[data-code="1p"]').focus()
    page.keyboard.press("Enter")
    sync_api.expect(page.locator("#palette")).to_be_hidden()
    wait_for_total(page, engine_total("123456789m11p23p +1p"))
    assert focused(page, "e => e.dataset.part + ' ' + e.dataset.code") == "winning 1p"


def test_a_photo_box_is_corrected_with_the_keyboard(page, live_server):
    """Enter on a focused photo box did nothing: the page looked for the box under the click's point, and a key's
    click has none (0, 0). The box itself opens the palette now, and the focus comes back to it."""
    page.goto(live_server.url + "/referee")
    with faked_photo_reading(page):
        page.set_input_files("#photo-input", str(FIXTURES / "synth_2021.jpg"))
        wait_for_total(page, engine_total("123456789m11p23p +4p"))
    box = page.locator('#boxes .box[data-tile="13"]')
    box.focus()
    page.keyboard.press("Enter")
    sync_api.expect(page.locator("#palette")).to_be_visible()
    page.locator('#palette-tiles .tile-chip[data-code="1p"]').focus()
    page.keyboard.press("Enter")
    wait_for_total(page, engine_total("123456789m11p23p +1p"))
    sync_api.expect(box).to_have_attribute("data-code", "1p")
    assert focused(page, "e => e.dataset.tile") == "13"


def test_a_fan_is_lit_with_the_keyboard(page):
    """The fans were plain list lines: Tab never reached them, so no fan could be lit without a pointer."""
    score_typed_hand(page)
    page.locator("#hand-input").focus()
    for _ in range(60):
        page.keyboard.press("Tab")
        if "Pure Straight" in focused(page, "e => e.closest('#fans li') ? e.textContent : ''"):
            break
    else:
        pytest.fail("Tab never reached the fan Pure Straight")
    page.keyboard.press("Enter")
    sync_api.expect(page.locator("#hand-tiles .tile-chip.hl")).to_have_count(9)
    assert focused(page, "e => e.getAttribute('aria-pressed')") == "true"


def test_the_score_errors_and_photo_status_are_announced(page):
    """A screen reader heard nothing after a correction: the total, the score's error and the photo's status were not
    live regions."""
    score_typed_hand(page)
    region = page.locator("#total").evaluate(
        "e => { const r = e.closest('[aria-live], [role=status], [role=alert]'); return r && r.contains("
        "document.querySelector('#total-detail')) ? (r.getAttribute('role') || r.getAttribute('aria-live')) : null }")
    assert region in ("status", "polite")
    sync_api.expect(page.locator("#score-error")).to_have_attribute("role", "alert")
    sync_api.expect(page.locator("#photo-status")).to_have_attribute("role", "status")


def test_controls_have_names_and_colours_have_words(page, live_server):
    """Axe-style names: the hand field had only its example as placeholder, #hand-tiles an aria-label on a plain div,
    a red five the same name as a plain five (told by colour alone), the palette's current face only an outline, and
    a photo box's colour (sure, check, doubtful) no words."""
    page.goto(live_server.url + "/referee")
    with faked_photo_reading(page):
        page.set_input_files("#photo-input", str(FIXTURES / "synth_2021.jpg"))
        wait_for_total(page, engine_total("123456789m11p23p +4p"))
    unlabelled = page.evaluate("""() => Array.from(document.querySelectorAll('input, select, textarea'))
        .filter(e => !(e.labels && e.labels.length) && !e.getAttribute('aria-label')
                     && !e.getAttribute('aria-labelledby')).map(e => e.id || e.name)""")
    assert unlabelled == []
    nameless = page.evaluate("""() => Array.from(document.querySelectorAll('button'))
        .filter(e => !(e.getAttribute('aria-label') || e.textContent.trim())).map(e => e.outerHTML)""")
    assert nameless == []
    assert page.evaluate("Array.from(document.images).every(i => i.alt)")
    roleless = page.evaluate("""() => Array.from(document.querySelectorAll('div[aria-label], span[aria-label]'))
        .filter(e => !e.getAttribute('role')).map(e => e.id)""")
    assert roleless == []
    assert page.locator('#boxes .box[data-tile="0"]').get_attribute("aria-label").endswith(", doubtful")
    assert page.locator('#boxes .box[data-tile="1"]').get_attribute("aria-label").endswith(", sure")

    page.locator('#hand-tiles .tile-chip[data-part="concealed"][data-code="5m"]').click()
    palette = page.locator("#palette-tiles")
    sync_api.expect(palette.get_by_role("button", name="5m", exact=True)).to_have_count(1)
    sync_api.expect(palette.get_by_role("button", name="red 5m", exact=True)).to_have_count(1)
    assert palette.locator('[data-code="0m"]').evaluate("e => getComputedStyle(e, '::after').content") != "none"
    sync_api.expect(palette.locator('[aria-current="true"]')).to_have_attribute("data-code", "5m")
    page.keyboard.press("Escape")
    sync_api.expect(page.locator("#palette")).to_be_hidden()


TABLETS = [{"width": 768, "height": 1024}, {"width": 1024, "height": 768},
           {"width": 1024, "height": 1366}, {"width": 1366, "height": 1024}]


def test_touch_targets_and_layout_on_tablets(page):
    """Touch targets (the photo's boxes aside: a tile's size in the photo) of at least 44 px on a tablet (the selects and fields were 40 px, Cancel and the alternatives
    40 px, the 'Photo overrides' and 'Settings' summaries 24 px), in portrait and landscape, with nothing off the
    screen; pinch zoom is not turned off."""
    viewport = page.get_attribute('meta[name="viewport"]', "content")
    assert "user-scalable=no" not in viewport and "maximum-scale" not in viewport
    try:
        for size in TABLETS:
            page.set_viewport_size(size)
            page.select_option('#context-form select[name="rules"]', "mcr")
            score_typed_hand(page)
            page.select_option('#context-form select[name="rules"]', "riichi")  # its fields enabled
            small = page.evaluate("""() => Array.from(document.querySelectorAll(
                    'button:not(.box), select, input:not([type=checkbox]):not(.visually-hidden), summary, label.check, '
                    + 'label.big-button'))
                .filter(e => e.getClientRects().length && !e.closest('[hidden]')).map(e => {
                    const r = e.getBoundingClientRect();
                    return [e.id || e.name || e.className || e.textContent.trim(), Math.round(r.width), Math.round(r.height)];
                }).filter(([, w, h]) => w < 44 || h < 44)""")
            assert small == [], (size, small)
            widths = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
            assert widths[0] <= widths[1], (size, widths)
            page.locator('#hand-tiles .tile-chip[data-part="winning"]').click()
            inner = page.locator(".palette-inner")
            assert inner.evaluate("e => e.scrollWidth <= e.clientWidth && e.scrollHeight <= e.clientHeight"), size
            cancel = page.locator("#palette-close").bounding_box()
            assert cancel["height"] >= 44 and cancel["x"] + cancel["width"] <= size["width"], (size, cancel)
            page.keyboard.press("Escape")
    finally:
        page.set_viewport_size({"width": 1024, "height": 1366})
        page.select_option('#context-form select[name="rules"]', "mcr")
