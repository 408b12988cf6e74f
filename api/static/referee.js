// Referee page: photo -> tiles outlined and named -> tap to correct -> instant rescoring via /v1/hands/score.
// Plain JS, no build step: the page is served by the API itself and must work offline on a club tablet.
"use strict";

const SUITS = { m: "characters", p: "dots", s: "bamboo", z: "honours", f: "flowers" };
const HONOUR_NAMES = { "1z": "E", "2z": "S", "3z": "W", "4z": "N", "5z": "Wh", "6z": "Gr", "7z": "Rd" };
const FLOWER_NAMES = { "1f": "Plum", "2f": "Orch", "3f": "Chrys", "4f": "Bamb", "5f": "Spr", "6f": "Sum", "7f": "Aut", "8f": "Win" };
const PALETTE = [
  ...[1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => n + "m"),
  ...[1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => n + "p"),
  ...[1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => n + "s"),
  ...[1, 2, 3, 4, 5, 6, 7].map((n) => n + "z"),
  ...[1, 2, 3, 4, 5, 6, 7, 8].map((n) => n + "f"),
  // the red fives (riichi aka dora; a 5 of the suit for every other purpose): a photo never shows which fives are
  // red (the recogniser does not tell them apart), so the referee marks them here
  "0m", "0p", "0s",
];
const DISCARDER_MARK = { left: "<", across: "^", right: ">" };
const MELD_LETTER = { chow: "c", pung: "p", kong: "k", added_kong: "a", concealed_kong: "x" };

const state = {
  hand: null,          // hand JSON (interfaces.md) currently shown and scored
  tiles: [],           // detections from the last photo: {code, box, confidence, face_down, ...}
  tileRoles: null,     // from the hand reader: where each detection went in the hand, when it says
  photoSize: null,     // [width, height] of the oriented photo, for placing the boxes
  score: null,         // last successful score object
  activeFan: null,
  alternatives: [],    // the photo's alternatives as the reading listed them (tile changes against that reading)
  handFromPhoto: false,  // the hand on show is the photo's reading (corrected or not), not a typed one
};

const $ = (selector) => document.querySelector(selector);

// ---- HTTP -------------------------------------------------------------------------------------------------------
function apiHeaders(extra) {
  const headers = Object.assign({}, extra || {});
  const key = localStorage.getItem("mahjong-api-key");
  if (key) headers["X-API-Key"] = key;
  return headers;
}

async function callApi(path, options) {
  let response;
  try { response = await fetch(path, options); } catch (error) {
    // No answer at all (the club's wifi dropped, the service stopped): say so where the answer would have gone.
    return { status: 0, body: { error: { code: "service_unreachable", message: String(error.message || error) } } };
  }
  let body = null;
  try { body = await response.json(); } catch (error) { body = { error: { code: "bad_response", message: String(error) } }; }
  return { status: response.status, body };
}

function errorText(body) {
  const error = (body && body.error) || {};
  return `${error.code || "error"}: ${error.message || "unknown error"}`;
}

// ---- tiles ------------------------------------------------------------------------------------------------------
function tileLabel(code) {
  if (!code) return "back";
  return HONOUR_NAMES[code] || FLOWER_NAMES[code] || plainCode(code);
}

function isRedFive(code) { return !!code && code[0] === "0"; }

function suitOf(code) { return code ? code.slice(-1) : "z"; }

function makeChip(code, attrs) {
  const chip = document.createElement("button");
  chip.type = "button";
  chip.className = "tile-chip suit-" + suitOf(code) + (isRedFive(code) ? " red-five" : "");
  chip.dataset.code = code || "";
  chip.title = isRedFive(code) ? `red five ${plainCode(code)} (${code})` : code || "face down";
  chip.textContent = tileLabel(code);
  // labelled as its five, drawn red: its name says red (the colour alone tells a screen reader nothing)
  if (isRedFive(code)) chip.setAttribute("aria-label", "red " + plainCode(code));
  for (const [k, v] of Object.entries(attrs || {})) chip.dataset[k] = v;
  return chip;
}

// Compact hand string (engine.hand module docstring): concealed MPSZ, meld tokens, +winning tile, flowers.
function mpsz(codes) {
  let out = "";
  let digits = "";
  let suit = null;
  for (const code of codes) {
    const s = code.slice(-1);
    if (suit !== null && s !== suit) { out += digits + suit; digits = ""; }
    suit = s;
    digits += code.slice(0, -1);
  }
  return suit === null ? "" : out + digits + suit;
}

function meldToken(meld) {
  let body = mpsz(meld.tiles);
  if (meld.claimed && meld.type === "chow" && new Set(meld.tiles.map(suitOf)).size === 1) {
    const digits = meld.tiles.map((t) => t.slice(0, -1));
    const at = digits.indexOf(meld.claimed.slice(0, -1));
    if (at >= 0) { digits.splice(at + 1, 0, "*"); body = digits.join("") + suitOf(meld.tiles[0]); }
  }
  return (MELD_LETTER[meld.type] || "?") + body + (DISCARDER_MARK[meld.from] || "");
}

function formatHand(hand) {
  const parts = [];
  if (hand.concealed && hand.concealed.length) parts.push(mpsz(hand.concealed));
  for (const meld of hand.melds || []) parts.push(meldToken(meld));
  if (hand.winning_tile) parts.push("+" + hand.winning_tile);
  if (hand.flowers && hand.flowers.length) parts.push(mpsz(hand.flowers));
  return parts.join(" ");
}

// Drawing the chips or boxes again keeps the keyboard's place: the one at the focused one's place takes the focus.
function focusedPlace(container) {
  const focused = document.activeElement;
  if (!focused || focused === container || !container.contains(focused)) return "";
  return ["part", "meld", "index", "tile"].filter((k) => focused.dataset[k] !== undefined)
    .map((k) => `[data-${k}="${CSS.escape(focused.dataset[k])}"]`).join("");
}

function refocus(container, place) {
  const again = place && container.querySelector(place);
  if (again) again.focus();
}

// ---- the hand ---------------------------------------------------------------------------------------------------
function renderHand() {
  const container = $("#hand-tiles");
  const place = focusedPlace(container);
  container.innerHTML = "";
  const hand = state.hand;
  if (!hand) return;
  const group = (cls, label) => {
    const g = document.createElement("div");
    g.className = "group " + cls;
    if (label) { const l = document.createElement("span"); l.className = "group-label"; l.textContent = label; g.append(l); }
    container.append(g);
    return g;
  };
  const concealed = group("concealed", "");
  hand.concealed.forEach((code, i) => concealed.append(makeChip(code, { part: "concealed", index: i })));
  (hand.melds || []).forEach((meld, m) => {
    const g = group("meld", meld.type.replace("_", " ") + (meld.from ? " (" + meld.from + ")" : ""));
    meld.tiles.forEach((code, i) => g.append(makeChip(code, { part: "meld", meld: m, index: i })));
  });
  if (hand.winning_tile) group("winning", "win").append(makeChip(hand.winning_tile, { part: "winning", index: 0 }));
  if (hand.flowers && hand.flowers.length) {
    const g = group("flowers", "flowers");
    hand.flowers.forEach((code, i) => g.append(makeChip(code, { part: "flower", index: i })));
  }
  $("#hand-input").value = formatHand(hand);
  handInputEdited = false;
  refocus(container, place);
}

let handInputEdited = false;  // typed text not yet scored: an answer to an older request must not overwrite it

function replaceInHand(position, newCode) {
  const hand = state.hand;
  const index = Number(position.index);
  if (position.part === "concealed") hand.concealed[index] = newCode;
  else if (position.part === "winning") hand.winning_tile = newCode;
  else if (position.part === "flower") hand.flowers[index] = newCode;
  else if (position.part === "meld") {
    const meld = hand.melds[Number(position.meld)];
    const oldCode = meld.tiles[index];
    // A pung or kong is identical tiles: a misread face is misread for the whole set. A five made red (or plain)
    // is that one tile: a set of fives holds one red five at most.
    if (meld.type === "chow" || plainCode(newCode) === plainCode(oldCode)) meld.tiles[index] = newCode;
    else meld.tiles = meld.tiles.map((_, k) => (k !== index && isRedFive(newCode) ? plainCode(newCode) : newCode));
    // (a pung's or kong's claimed five stays named: the engine takes it as a five of the set, red or not)
    if (meld.claimed === oldCode && (meld.type === "chow" || plainCode(newCode) !== plainCode(oldCode))) {
      meld.claimed = meld.type === "chow" ? newCode : undefined;
    }
    if (meld.claimed === undefined) delete meld.claimed;
  }
}

// Where a photo tile sits in the hand: the hand reader's tile_roles (role, meld_index) say which part; within the
// part, the first tile with the tile's code in the hand. Without roles: the first tile of the hand with that code.
function handPositionForTile(tileIndex, handCode) {
  const hand = state.hand;
  if (!hand || !handCode) return null;
  const role = Array.isArray(state.tileRoles) ? state.tileRoles[tileIndex] : null;
  const part = role && role.role;
  if (part === "winning" && hand.winning_tile === handCode) return { part: "winning", index: 0 };
  if (part === "meld" && Number.isInteger(role.meld_index) && hand.melds[role.meld_index]) {
    const i = hand.melds[role.meld_index].tiles.indexOf(handCode);
    if (i >= 0) return { part: "meld", meld: role.meld_index, index: i };
  }
  if (part === "flower") {
    const i = (hand.flowers || []).indexOf(handCode);
    if (i >= 0) return { part: "flower", index: i };
  }
  if (part === "clutter") return null;
  let i = hand.concealed.indexOf(handCode);
  if (i >= 0) return { part: "concealed", index: i };
  if (hand.winning_tile === handCode) return { part: "winning", index: 0 };
  for (let m = 0; m < (hand.melds || []).length; m++) {
    i = hand.melds[m].tiles.indexOf(handCode);
    if (i >= 0) return { part: "meld", meld: m, index: i };
  }
  i = (hand.flowers || []).indexOf(handCode);
  if (i >= 0) return { part: "flower", index: i };
  return null;
}

// The photo tiles a tile of the photo's hand was read from (tile_roles: its part, its meld), by face: one, or every
// tile of a pung or kong, which replaceInHand changes as a whole (but one only where ``newCode`` is the same five made
// red or plain). Backs are left alone: their face is the overrides'.
function tilesForHandPosition(position, code, newCode) {
  if (!state.handFromPhoto || !Array.isArray(state.tileRoles)) return [];
  const meld = position.part === "meld" ? state.hand.melds[Number(position.meld)] : null;
  const found = [];
  state.tileRoles.forEach((role, i) => {
    const tile = state.tiles[i];
    if (!tile || !role || tile.face_down || role.role !== position.part || (tile.hand_code || tile.code) !== code) return;
    if (meld && role.meld_index !== Number(position.meld)) return;
    found.push(i);
  });
  return meld && meld.type !== "chow" && plainCode(newCode) !== plainCode(code) ? found : found.slice(0, 1);
}

// ---- the photo --------------------------------------------------------------------------------------------------
function confidenceClass(confidence) {
  if (confidence == null) return "conf-low";
  return confidence >= 0.9 ? "conf-high" : confidence >= 0.6 ? "conf-mid" : "conf-low";
}

function renderBoxes() {
  const boxes = $("#boxes");
  const place = focusedPlace(boxes);
  boxes.innerHTML = "";
  if (!state.photoSize) return;
  const [width, height] = state.photoSize;
  state.tiles.forEach((tile, i) => {
    const [x1, y1, x2, y2] = tile.box;
    const box = document.createElement("button");
    box.type = "button";
    box.className = "box " + (tile.corrected ? "corrected" : confidenceClass(tile.confidence));
    box.dataset.tile = i;
    const shown = tile.hand_code || tile.code;
    box.dataset.code = shown || "";
    Object.assign(box.style, { left: (100 * x1 / width) + "%", top: (100 * y1 / height) + "%",
                               width: (100 * (x2 - x1) / width) + "%", height: (100 * (y2 - y1) / height) + "%" });
    const label = document.createElement("span");
    label.className = "label";
    const readAs = tile.hand_code && tile.hand_code !== tile.code ? (tile.code || "back") + "→" + tile.hand_code : (shown || "back");
    label.textContent = readAs + (tile.corrected ? " ✎" : " " + Number(tile.confidence || 0).toFixed(2));
    box.append(label);
    // the box's colour in words (the legend's), for a screen reader
    const band = { "conf-high": "sure", "conf-mid": "check", "conf-low": "doubtful" }[confidenceClass(tile.confidence)];
    box.setAttribute("aria-label", `${label.textContent}, ${tile.corrected ? "corrected" : band}`);
    box.title = `${tile.code || "face down"} (confidence ${tile.confidence})`;
    boxes.append(box);
  });
  refocus(boxes, place);
}

// Boxes overlap (touching tiles, duplicate detections): a tap picks, among the boxes under the finger, a tile the
// hand reader used over clutter, then the box whose centre is nearest, then the smallest.
// Boxes are drawn at the tile's face, 0.92 of its whole body (the service's reported boxes, B50): a tap reaches as far
// as the body, so that a tap on a tile's edge or side between two touching faces still picks a tile.
const TAP_REACH = (1 / 0.92 - 1) / 2;

function tileAt(clientX, clientY) {
  let best = null;
  document.querySelectorAll("#boxes .box").forEach((el) => {
    const r = el.getBoundingClientRect();
    const dx = r.width * TAP_REACH, dy = r.height * TAP_REACH;
    if (clientX < r.left - dx || clientX > r.right + dx || clientY < r.top - dy || clientY > r.bottom + dy) return;
    const i = Number(el.dataset.tile);
    const role = Array.isArray(state.tileRoles) && state.tileRoles[i] ? state.tileRoles[i].role : null;
    const key = [role === "clutter" ? 1 : 0, Math.hypot(clientX - (r.left + r.right) / 2, clientY - (r.top + r.bottom) / 2),
                 r.width * r.height];
    const better = !best || key[0] < best.key[0] || (key[0] === best.key[0] && (key[1] < best.key[1] - 0.5
      || (Math.abs(key[1] - best.key[1]) <= 0.5 && key[2] < best.key[2])));
    if (better) best = { i, key };
  });
  return best ? best.i : null;
}

async function readPhoto(file) {
  $("#photo-status").textContent = "reading…";
  $("#photo").src = URL.createObjectURL(file);
  $("#overlay").hidden = false;
  $("#boxes").innerHTML = "";
  // A new photo is a new hand: nothing of the last photo's reading (boxes, hand, score, warnings) stays on show.
  state.tiles = [];
  state.tileRoles = null;
  state.photoSize = null;
  state.hand = null;
  state.handFromPhoto = false;
  renderHand();
  $("#hand-input").value = "";
  handInputEdited = false;
  renderWarnings([]);
  setAlternatives([]);
  clearScore();
  const form = new FormData();
  form.append("image", file, file.name || "photo.jpg");
  form.append("context", JSON.stringify(contextFromForm()));
  const winning = $("#override-winning").value.trim();
  const kongs = $("#override-kongs").value.trim();
  if (winning) form.append("winning_tile", winning);
  if (kongs) form.append("concealed_kong_tiles", kongs);
  form.append("overlay", "false");  // the page draws its own, interactive overlay
  const { status, body } = await callApi("/v1/score", { method: "POST", body: form, headers: apiHeaders() });
  if (status !== 200) {
    $("#photo-status").textContent = errorText(body);
    return;
  }
  state.tiles = body.tiles || [];
  state.tileRoles = body.tile_roles || null;
  // The hand reader may take a tile as another face (from its top-k) to make a legal hand: show both.
  (state.tileRoles || []).forEach((role, i) => { if (state.tiles[i] && role && role.code) state.tiles[i].hand_code = role.code; });
  state.photoSize = [body.width, body.height];
  $("#photo-status").textContent = `${state.tiles.length} tiles found`;
  renderBoxes();
  renderWarnings(body.warnings);
  setAlternatives(body.alternatives);
  if (body.hand) {
    state.hand = body.hand;
    state.handFromPhoto = true;
    renderHand();
  }
  if (body.score && body.score.ok) showScore(body.score);
  else if (body.score) showScoreError(body.score);
}

function tilesRequest(tiles, context) {
  const body = {
    // the recogniser's probabilities go back with each tile: the lift model's and the orientation head's. A tile the
    // person corrected goes as they named it, which the service holds (F56); any other goes back as the recogniser
    // read it, with its alternatives (`top`), so that the reading may take it as another face as the photo's did (a
    // misread face, a back taken for a white dragon)
    tiles: tiles.map((t) => Object.assign(
      { code: t.code, box: t.box, rotation: t.rotation || 0, face_down: !!t.face_down,
        confidence: t.corrected ? 1 : (t.confidence ?? 1), lifted: t.lifted ?? null,
        sideways_probability: t.sideways_probability ?? null },
      !t.corrected && Array.isArray(t.top) ? { top: t.top } : {})),
    width: state.photoSize[0], height: state.photoSize[1], context,
  };
  const winning = $("#override-winning").value.trim();
  const kongs = $("#override-kongs").value.trim();
  if (winning) body.winning_tile = winning;
  if (kongs) body.concealed_kong_tiles = kongs;
  return body;
}

async function rereadTiles() {
  const { status, body: answer } = await callApi("/v1/tiles/score", {
    method: "POST", headers: apiHeaders({ "Content-Type": "application/json" }),
    body: JSON.stringify(tilesRequest(state.tiles, contextFromForm())),
  });
  if (status !== 200) { showScoreError(answer); refreshAlternatives(); return; }
  state.tileRoles = answer.tile_roles || null;
  // a tile the hand no longer takes (now clutter) keeps no face of the last reading
  (state.tileRoles || []).forEach((role, i) => { if (state.tiles[i]) state.tiles[i].hand_code = (role && role.code) || undefined; });
  renderBoxes();
  renderWarnings(answer.warnings);
  if (answer.hand) { state.hand = answer.hand; state.handFromPhoto = true; renderHand(); }
  if (answer.score && answer.score.ok) showScore(answer.score); else if (answer.score) showScoreError(answer.score);
  refreshAlternatives(answer.alternatives || []);
}

// ---- palette ----------------------------------------------------------------------------------------------------
let paletteChoice = null;
let paletteOpener = null;  // the chip or box the palette was opened from: the focus goes back to it

// A dialog: the focus goes into it (the current face), the page behind is out of reach (inert) until it closes.
function openPalette(currentCode, title, onChoose, opener) {
  const tiles = $("#palette-tiles");
  tiles.innerHTML = "";
  for (const code of PALETTE) {
    const chip = makeChip(code);
    if (code === currentCode) { chip.classList.add("current"); chip.setAttribute("aria-current", "true"); }
    tiles.append(chip);
  }
  $("#palette-title").textContent = title;
  paletteChoice = onChoose;
  paletteOpener = opener || null;
  $("#palette").hidden = false;
  for (const part of ["header", "main"]) $(part).inert = true;
  (tiles.querySelector(".current") || tiles.firstElementChild).focus();
}

function closePalette() {
  $("#palette").hidden = true;
  paletteChoice = null;
  for (const part of ["header", "main"]) $(part).inert = false;
  if (paletteOpener && paletteOpener.isConnected) paletteOpener.focus();
  paletteOpener = null;
}

// ---- context ----------------------------------------------------------------------------------------------------
function contextFromForm() {
  const form = $("#context-form");
  const get = (name) => form.elements[name];
  const context = { rules: get("rules").value, seat_wind: get("seat_wind").value, round_wind: get("round_wind").value };
  for (const name of ["self_drawn", "last_tile", "last_wall_tile", "kong_replacement", "robbing_kong"]) {
    context[name] = get(name).checked;
  }
  if (context.rules === "riichi") {
    context.ruleset = get("ruleset").value;
    for (const name of ["riichi", "double_riichi", "ippatsu"]) context[name] = get(name).checked;
    if (get("opt_aka_dora").checked) context.options = { aka_dora: true };
    for (const name of ["dora_indicators", "ura_dora_indicators"]) {
      const value = get(name).value.trim();
      if (value) context[name] = value;
    }
    for (const name of ["honba", "riichi_sticks"]) context[name] = parseInt(get(name).value || "0", 10) || 0;
  }
  return context;
}

function syncRiichiFields() {
  const riichi = $("#context-form").elements["rules"].value === "riichi";
  $("#context-form .riichi-only").disabled = !riichi;
}

// ---- scoring ----------------------------------------------------------------------------------------------------
let scoreRequests = 0;  // only the latest request's answer is shown: answers can arrive out of order
async function rescore(handOrString) {
  const hand = handOrString !== undefined ? handOrString : state.hand;
  if (!hand) return;
  const request = ++scoreRequests;
  const { status, body } = await callApi("/v1/hands/score", {
    method: "POST", headers: apiHeaders({ "Content-Type": "application/json" }),
    body: JSON.stringify({ hand, context: contextFromForm() }),
  });
  if (request !== scoreRequests) return;
  if (status === 200) {
    state.hand = body.hand;
    renderHand();
    showScore(body);
  } else {
    showScoreError(body);
  }
  // The reading's warnings stay (they say what to check on the photo), marked as being on the reading as it was.
  $("#warnings-note").hidden = !$("#warnings li");
  // A typed hand is not the photo's reading: the photo's alternatives do not describe it.
  if (typeof hand === "string") { state.handFromPhoto = false; setAlternatives([]); } else refreshAlternatives();
}

let rescoreTimer = null;
function rescoreSoon() {
  // A context change rescores what the user sees: the typed hand if they edited the text since it was last shown.
  clearTimeout(rescoreTimer);
  rescoreTimer = setTimeout(() => rescore(handInputEdited ? $("#hand-input").value.trim() || undefined : undefined), 120);
}

function expandTiles(text) {
  // "123m 11p" or "1m 2m 3m" -> ["1m", "2m", "3m", "1p", "1p"] (MPSZ: digits then their suit letter).
  const out = [];
  for (const match of String(text).matchAll(/([0-9]+)([mpszf])/g)) {
    for (const digit of match[1]) out.push(digit + match[2]);
  }
  return out;
}

function fanTiles(fan) {
  // MCR fans carry `sets` (MPSZ strings, one per set); other scorers may carry `tiles` (codes or strings).
  const out = [];
  for (const item of [].concat(fan.sets || [], fan.tiles || [])) {
    if (Array.isArray(item)) item.forEach((t) => out.push(...expandTiles(t)));
    else out.push(...expandTiles(item));
  }
  return out;
}

function plainCode(code) { return code && code[0] === "0" ? "5" + code.slice(1) : code; }

// The tappable lines of a score: MCR fans; riichi yaku (dora included), then the fu lines that name tiles.
function scoreItems(score) {
  if (score.rules !== "riichi") return score.fans || [];
  const fuLines = (score.fu_details || []).filter((line) => (line.sets || []).length || (line.tiles || []).length);
  return (score.yaku || []).concat(fuLines);
}

function showScore(score) {
  state.score = score;
  state.activeFan = null;
  clearHighlights();  // the photo's boxes too: they were lit for a fan of the last score
  $("#score-error").hidden = true;
  const list = $("#fans");
  list.innerHTML = "";
  if (score.rules === "riichi") {
    const points = score.points || {};
    $("#total").textContent = `${points.total ?? score.total} points`;
    $("#total-detail").textContent = `${score.han} han ${score.fu} fu` + (score.limit ? ` · ${score.limit}` : "")
      + (score.yakuman ? ` · ${score.yakuman}× yakuman` : "");
  } else {
    $("#total").textContent = `${score.total} points`;
    $("#total-detail").textContent = (score.flowers ? `incl. ${score.flowers} for flowers · ` : "")
      + (score.meets_minimum === false ? `below the ${score.minimum}-point minimum` : "meets the minimum");
  }
  // what the scorer left out of the context it was given (MCR: riichi-only fields, policy H7; riichi: flowers)
  if (Array.isArray(score.notes) && score.notes.length) $("#total-detail").textContent += " · " + score.notes.join("; ");
  scoreItems(score).forEach((fan, i) => {
    const li = document.createElement("li");
    li.dataset.fan = i;
    const isFu = fan.fu !== undefined && fan.han === undefined;
    if (isFu) li.className = "fu-line";
    const name = document.createElement("span");
    name.textContent = isFu ? fan.reason : fan.name + (fan.name_zh || fan.name_ja ? ` ${fan.name_zh || fan.name_ja}` : "");
    const points = document.createElement("span");
    points.className = "points";
    points.textContent = isFu ? `${fan.fu} fu` : score.rules === "riichi" ? `${fan.han} han`
      : (fan.count > 1 ? `${fan.points} × ${fan.count} = ${fan.total}` : `${fan.total ?? fan.points}`);
    // a button: a fan is lit by a key too, and a screen reader says whether it is lit
    const button = document.createElement("button");
    button.type = "button";
    button.setAttribute("aria-pressed", "false");
    button.append(name, points);
    li.append(button);
    list.append(li);
  });
}

function clearScore() {
  scoreRequests++;  // an answer still on its way is for what was shown before
  state.score = null;
  state.activeFan = null;
  $("#total").textContent = "–";
  $("#total-detail").textContent = "";
  $("#fans").innerHTML = "";
  $("#score-error").hidden = true;
}

function showScoreError(body) {
  state.score = null;
  $("#total").textContent = "–";
  $("#total-detail").textContent = "";
  $("#fans").innerHTML = "";
  const box = $("#score-error");
  box.hidden = false;  // shown first: a screen reader hears the alert's new text
  box.textContent = errorText(body);
  clearHighlights();
}

function clearHighlights() {
  document.querySelectorAll(".hl").forEach((el) => el.classList.remove("hl"));
  document.querySelectorAll("#fans li.active").forEach((el) => el.classList.remove("active"));
  document.querySelectorAll('#fans [aria-pressed="true"]').forEach((el) => el.setAttribute("aria-pressed", "false"));
}

function highlightFan(index) {
  clearHighlights();
  if (state.activeFan === index) { state.activeFan = null; return; }
  state.activeFan = index;
  const codes = fanTiles(scoreItems(state.score)[index]);
  const line = document.querySelector(`#fans li[data-fan="${index}"]`);
  line.classList.add("active");
  line.querySelector("button").setAttribute("aria-pressed", "true");
  // Multiset match: a fan naming 1m twice lights two 1m tiles, not every 1m.
  for (const selector of ["#hand-tiles .tile-chip", "#boxes .box"]) {
    const free = Array.from(document.querySelectorAll(selector));
    for (const code of codes) {
      // The exact code first; a red five (0) and a plain five (5) of the suit stand in for each other after that.
      let at = free.findIndex((el) => el.dataset.code === code);
      if (at < 0) at = free.findIndex((el) => plainCode(el.dataset.code) === plainCode(code));
      if (at >= 0) { free[at].classList.add("hl"); free.splice(at, 1); }
    }
  }
}

function renderWarnings(warnings) {
  const list = $("#warnings");
  list.innerHTML = "";
  $("#warnings-note").hidden = true;
  for (const warning of warnings || []) {
    const li = document.createElement("li");
    li.textContent = typeof warning === "string" ? warning : JSON.stringify(warning);
    list.append(li);
  }
}

function setAlternatives(alternatives) {
  alternativeRequests++;  // an older scoring of the alternatives still on its way is for another reading
  state.alternatives = alternatives || [];
  renderAlternatives(state.alternatives);
}

function renderAlternatives(alternatives) {
  const box = $("#alternatives");
  box.innerHTML = "";
  (alternatives || []).forEach((alternative) => {
    const hand = alternative && (alternative.hand || (alternative.concealed ? alternative : null));
    if (!hand) return;
    const button = document.createElement("button");
    button.className = "small-button";
    const why = alternative.description || alternative.reason;
    button.textContent = "Alternative: " + formatHand(hand) + (why ? ` (${why})` : "");
    button.addEventListener("click", () => {
      // The photo's boxes take the alternative's faces too, or they would still show (and re-send) the old reading.
      for (const change of alternative.changes || []) {
        const tile = Number.isInteger(change.tile_index) ? state.tiles[change.tile_index] : null;  // not "__proto__"
        if (!tile || !change.to) continue;
        Object.assign(tile, { code: change.to, hand_code: change.to, corrected: true, face_down: false, confidence: 1 });
      }
      renderBoxes();
      state.hand = JSON.parse(JSON.stringify(hand));
      renderHand();
      rescore();
    });
    box.append(button);
  });
}

// The photo's alternatives are changes against its first reading. After a correction or a context change they are
// put to the hand on show: a change the referee made is settled (the same face: done; another: overruled, and the
// alternative goes); what is left of each is scored on the corrected tiles by /v1/tiles/score (as the service scores
// an alternative), against the score now on show. The readings that change no face (a pung that may be an added
// kong) come from /v1/tiles/score reading the corrected tiles: ``fresh``, that call's alternatives where the page
// just made it.
let alternativeRequests = 0;
async function refreshAlternatives(fresh) {
  if (!(state.alternatives.length || (fresh && fresh.length)) || !state.photoSize) return;
  const request = ++alternativeRequests;
  const current = state.score ? state.score.total : null;
  const currentText = state.hand ? formatHand(state.hand) : "no hand";
  const context = contextFromForm();
  const read = async (changes) => {
    const codes = new Map(changes.map((c) => [c.tile_index, c.to]));
    const tiles = state.tiles.map((t, i) => (codes.has(i) ? Object.assign({}, t, { code: codes.get(i), hand_code: codes.get(i), face_down: false, corrected: true }) : t));
    const { status, body } = await callApi("/v1/tiles/score", {
      method: "POST", headers: apiHeaders({ "Content-Type": "application/json" }),
      body: JSON.stringify(tilesRequest(tiles, context)),
    });
    return status === 200 ? body : null;
  };
  const pending = fresh ? [fresh] : [];
  const listed = new Set((fresh || []).map((a) => JSON.stringify((a.changes || []).map((c) => [c.tile_index, c.to]))));
  let layoutReadings = false;
  for (const alternative of state.alternatives) {
    const changes = alternative.changes || [];
    if (!changes.length) { layoutReadings = true; continue; }
    const left = changes.filter((c) => !(state.tiles[c.tile_index] || {}).corrected);
    const overruled = changes.some((c) => { const t = state.tiles[c.tile_index]; return !t || (t.corrected && t.code !== c.to); });
    const key = JSON.stringify(left.map((c) => [c.tile_index, c.to]));
    if (overruled || !left.length || listed.has(key)) continue;
    listed.add(key);
    pending.push(read(left).then((answer) => {
      if (!answer || !answer.hand || !answer.score) return null;
      const score = answer.score;
      const words = left.map((c) => `tile ${c.tile_index} is ${c.to} instead of ${c.from}`).join(", ");
      const points = score.ok ? `${score.total} points` + (current !== null ? ` instead of ${current}` : "")
        : `no win (${(score.error || {}).code})`;
      return { tile_index: left[0].tile_index, box: left[0].box, from: left[0].from, to: left[0].to, changes: left,
               hand: answer.hand, total: score.ok ? score.total : undefined,
               description: `if ${words} the hand is ${formatHand(answer.hand)} (instead of ${currentText}): ${points}` };
    }));
  }
  if (layoutReadings && !fresh) {
    pending.push(read([]).then((answer) => (answer ? (answer.alternatives || []).filter((a) => !(a.changes || []).length) : [])));
  }
  const answers = await Promise.all(pending);
  if (request !== alternativeRequests) return;
  // one the referee chose (an added kong read again from the tiles as a pung and its alternative) is the hand on show
  const shown = state.hand ? handKey(state.hand) : null;
  renderAlternatives([].concat(...answers.map((a) => (Array.isArray(a) ? a : a ? [a] : [])))
    .filter((a) => !a.hand || handKey(a.hand) !== shown));
}

function handKey(hand) {
  return formatHand(Object.assign({}, hand, { concealed: [...(hand.concealed || [])].sort(),
                                              flowers: [...(hand.flowers || [])].sort() }));
}

// ---- wiring -----------------------------------------------------------------------------------------------------
async function checkService() {
  const { status, body } = await callApi("/healthz", { headers: apiHeaders() });
  if (status !== 200) { $("#service-status").textContent = "service unreachable"; return; }
  const recognition = body.recognition || {};
  $("#service-status").textContent = recognition.available ? "photos: ready"
    : "photos unavailable (" + (recognition.detail || "no models") + "); enter the hand below";
}

function init() {
  $("#api-key").value = localStorage.getItem("mahjong-api-key") || "";
  $("#api-key").addEventListener("change", (e) => localStorage.setItem("mahjong-api-key", e.target.value.trim()));
  $("#photo-input").addEventListener("change", (e) => { if (e.target.files[0]) readPhoto(e.target.files[0]); });
  $("#photo").addEventListener("load", renderBoxes);
  $("#score-button").addEventListener("click", () => {
    const text = $("#hand-input").value.trim();
    clearTimeout(rescoreTimer);
    // The hand on show, not typed over: still the photo's (its alternatives stay); typed text is a hand of its own.
    if (text) rescore(handInputEdited || !state.hand ? text : undefined);
  });
  $("#hand-input").addEventListener("input", () => { handInputEdited = true; });
  $("#hand-input").addEventListener("keydown", (e) => { if (e.key === "Enter") $("#score-button").click(); });
  $("#hand-tiles").addEventListener("click", (e) => {
    const chip = e.target.closest(".tile-chip");
    if (!chip) return;
    const position = { part: chip.dataset.part, index: chip.dataset.index, meld: chip.dataset.meld };
    openPalette(chip.dataset.code, `Replace ${chip.dataset.code} with…`, (code) => {
      // the photo's tile takes the new face too: its box shows it, and a reading again sends it back
      // (a set of fives made red: one tile red, the others plain fives)
      tilesForHandPosition(position, chip.dataset.code, code).forEach((i, k) => {
        const face = k && isRedFive(code) ? plainCode(code) : code;
        Object.assign(state.tiles[i], { code: face, hand_code: face, corrected: true, confidence: 1 });
      });
      renderBoxes();
      replaceInHand(position, code);
      renderHand();
      rescore();
    }, chip);
  });
  // On the whole photo, not on the boxes alone: a tap on a tile's side, beyond its face's box, picks it (tileAt).
  $("#overlay").addEventListener("click", (e) => {
    // A key (Enter, Space) or a screen reader clicks the focused box itself, at no point of the photo (detail 0).
    const clicked = e.target.closest(".box");
    const index = e.detail === 0 && clicked ? Number(clicked.dataset.tile) : tileAt(e.clientX, e.clientY);
    if (index === null) return;
    const tile = state.tiles[index];
    const current = tile.hand_code || tile.code;
    openPalette(current, `This tile is… (read as ${current || "face down"})`, (code) => {
      const position = handPositionForTile(index, current);
      tile.code = code;
      tile.hand_code = code;
      tile.corrected = true;
      tile.face_down = false;
      tile.confidence = 1;
      renderBoxes();
      // A tile already in the hand: swap it there and rescore at once. Otherwise (no hand could be read, or the
      // tile was taken for clutter) read the hand again from the corrected tiles.
      // A flower that is really a suit tile (or the reverse) changes the hand's shape: read it again too.
      if (position && (position.part === "flower") === (suitOf(code) === "f")) {
        replaceInHand(position, code); renderHand(); rescore();
      } else rereadTiles();
    }, document.querySelector(`#boxes .box[data-tile="${index}"]`));
  });
  $("#palette-tiles").addEventListener("click", (e) => {
    const chip = e.target.closest(".tile-chip");
    if (!chip || !paletteChoice) return;
    const choose = paletteChoice;
    closePalette();
    choose(chip.dataset.code);
  });
  $("#palette-close").addEventListener("click", closePalette);
  $("#palette").addEventListener("click", (e) => { if (e.target.id === "palette") closePalette(); });
  document.addEventListener("keydown", (e) => { if (e.key === "Escape" && !$("#palette").hidden) closePalette(); });
  $("#fans").addEventListener("click", (e) => {
    const li = e.target.closest("li");
    if (li && state.score) highlightFan(Number(li.dataset.fan));
  });
  // (not an inline onsubmit: the page's Content-Security-Policy runs no inline script)
  $("#context-form").addEventListener("submit", (e) => e.preventDefault());
  $("#context-form").addEventListener("change", () => { syncRiichiFields(); rescoreSoon(); });
  // The reading asks for the winning tile (or a concealed kong's faces) once it has read the photo: named then, they
  // apply to that photo at once, read again from its tiles.
  for (const id of ["#override-winning", "#override-kongs"]) {
    $(id).addEventListener("change", () => { if (state.photoSize && state.tiles.length) rereadTiles(); });
  }
  syncRiichiFields();
  checkService();
  handFromUrl();
  // A link opened in the tab already on the page changes only the fragment: the page does not load again.
  window.addEventListener("hashchange", handFromUrl);
}

function handFromUrl() {
  // A hand in the URL (#hand=...) starts the page from it: handy for sharing a disputed hand.
  // Read by hand, not URLSearchParams: that turns the winning tile's "+" into a space.
  const match = location.hash.match(/^#hand=(.*)$/);
  // A fragment that is not valid percent-encoding ("100%") is taken as typed: the service says what is wrong with it.
  let fromUrl = null;
  if (match) { try { fromUrl = decodeURIComponent(match[1]); } catch (error) { fromUrl = match[1]; } }
  if (fromUrl) { $("#hand-input").value = fromUrl; rescore(fromUrl); }
}

document.addEventListener("DOMContentLoaded", init);
