// tenbou web calculator: builds a request of docs/json-api.md from clicks, posts it to
// /api/score and draws the result. Plain script, no build step, nothing loaded from elsewhere.
"use strict";

(function () {
  const SUITS = "mpsz";
  const SUIT_NAMES = { m: "man", p: "pin", s: "sou" };
  const HONOR_NAMES = ["East", "South", "West", "North", "White", "Green", "Red"];
  const WINDS = ["E", "S", "W", "N"];
  const WIND_NAMES = { E: "East", S: "South", W: "West", N: "North" };
  const FLAGS = [
    ["riichi", "Riichi"], ["double_riichi", "Double riichi"], ["ippatsu", "Ippatsu"],
    ["rinshan", "Rinshan (after a kan)"], ["chankan", "Chankan (robbing a kan)"],
    ["haitei", "Haitei (last draw)"], ["houtei", "Houtei (last discard)"],
    ["tenhou", "Tenhou"], ["chiihou", "Chiihou"], ["renhou", "Renhou"],
  ];
  const CALLS = [
    { id: "chi", json: "chi", size: 3, label: "Chi" },
    { id: "pon", json: "pon", size: 3, label: "Pon" },
    { id: "kan", json: "daiminkan", size: 4, label: "Kan" },
    { id: "ankan", json: "ankan", size: 4, label: "Ankan" },
    { id: "kakan", json: "kakan", size: 4, label: "Kakan" },
  ];
  const CALL_BY_ID = Object.fromEntries(CALLS.map((c) => [c.id, c]));
  const CALL_BY_JSON = Object.fromEntries(CALLS.map((c) => [c.json, c]));
  CALL_BY_JSON.kan = CALL_BY_ID.kan;
  const CALL_HELP = {
    chi: "Click the three tiles of the run. A chi is called from the player on the winner's left.",
    pon: "Click the tile once: the pon is added (click a red five for a pon that holds it).",
    kan: "Click the tile once: an open kan of another player's discard.",
    ankan: "Click the tile once: a closed kan (the hand stays concealed).",
    kakan: "Click the tile once: a pon made into a kan; 'from' is who gave the pon.",
  };
  const MODES = [
    ["hand", "Concealed"], ["win", "Winning tile"], ["call", "Call"],
    ["dora", "Dora indicator"], ["ura", "Ura indicator"],
  ];
  const LIMITS = {
    mangan: "Mangan 満貫", haneman: "Haneman 跳満", baiman: "Baiman 倍満",
    sanbaiman: "Sanbaiman 三倍満", yakuman: "Yakuman 役満", kazoe_yakuman: "Kazoe yakuman 数え役満",
  };
  const KIND_COLORS = { hand: "#1f4e96", pao: "#c2410c", honba: "#5b5b66", riichi_sticks: "#2b7a3e" };
  const KIND_TEXT = { hand: "hand", pao: "pao 責任払い", honba: "honba", riichi_sticks: "riichi sticks" };

  const TILES = JSON.parse(document.getElementById("tile-svgs").textContent);
  const $ = (id) => document.getElementById(id);

  // -- tiles -------------------------------------------------------------------------------------

  function kind(t) {
    const n = t[0] === "0" ? 5 : Number(t[0]);
    return SUITS.indexOf(t[1]) * 9 + n - 1;
  }
  const isRed = (t) => t[0] === "0";
  const plain = (t) => (isRed(t) ? "5" + t[1] : t);
  const order = (t) => kind(t) * 2 + (isRed(t) ? 1 : 0);
  const byOrder = (a, b) => order(a) - order(b);

  function tileName(t) {
    if (t[1] === "z") return HONOR_NAMES[Number(t[0]) - 1];
    return (isRed(t) ? "red 5" : t[0]) + "-" + SUIT_NAMES[t[1]];
  }

  function parseTiles(text) {
    const out = [];
    let pending = [];
    for (const ch of text) {
      if (ch >= "0" && ch <= "9") pending.push(ch);
      else if ("mpsz".includes(ch)) {
        if (!pending.length) throw new Error(`suit letter '${ch}' has no digits before it in '${text}'`);
        for (const d of pending) {
          if (ch === "z" && "089".includes(d)) throw new Error(`'${d}z' is not a tile (honours are 1z-7z)`);
          out.push(d + ch);
        }
        pending = [];
      } else throw new Error(`unexpected character '${ch}' in '${text}'`);
    }
    if (pending.length) throw new Error(`'${pending.join("")}' has no suit letter in '${text}'`);
    return out;
  }

  function formatTiles(tiles) {
    let out = "";
    tiles.forEach((t, i) => {
      out += t[0];
      if (i === tiles.length - 1 || tiles[i + 1][1] !== t[1]) out += t[1];
    });
    return out;
  }

  // -- state -------------------------------------------------------------------------------------

  const fresh = () => ({
    rules: "tenhou", players: 4, round: "E", dealer: 0, winner: 0, from: null,
    hand: [], win: null, melds: [], dora: [], ura: [], flags: [], honba: 0, sticks: 0, kita: 0,
  });
  let S = fresh();
  let mode = "hand";
  let callType = "pon";
  let callFrom = null;
  let pending = [];
  let undoStack = [];
  let catalog = null;
  let seq = 0;
  let timer = null;

  const capacity = () => 13 - 3 * S.melds.length;
  const left = (seat) => (seat + S.players - 1) % S.players;
  const seatWind = (seat) => WINDS[(seat - S.dealer + S.players) % S.players];

  function preset() {
    if (!catalog) return null;
    return catalog.presets.find((p) => p.id === S.rules) || null;
  }

  function option(name) {
    const p = preset();
    return p ? p.options[name] : null;
  }

  function redLimit(suit) {
    const o = option("red_fives");
    const n = o ? o.value : 3;
    if (!n) return 0;
    return suit === "p" && n === 4 ? 2 : 1;
  }

  function allTiles() {
    const out = [...S.hand, ...S.dora, ...S.ura];
    if (S.win) out.push(S.win);
    for (const m of S.melds) out.push(...m.tiles);
    return out;
  }

  function canAdd(tiles) {
    const used = allTiles();
    for (const t of new Set(tiles)) {
      const n = tiles.filter((x) => x === t).length;
      const sameKind = used.filter((x) => kind(x) === kind(t)).length + tiles.filter((x) => kind(x) === kind(t)).length;
      if (sameKind > 4) return `there are only four ${tileName(plain(t))} tiles`;
      if (isRed(t) && used.filter((x) => x === t).length + n > redLimit(t[1])) {
        return redLimit(t[1]) ? `these rules have only ${redLimit(t[1])} red 5-${SUIT_NAMES[t[1]]}` : "these rules have no red fives";
      }
    }
    return null;
  }

  function change(fn) {
    undoStack.push(JSON.stringify(S));
    if (undoStack.length > 200) undoStack.shift();
    fn();
    update();
  }

  // -- the URL: the whole hand in the hash ------------------------------------------------------------

  function meldText(m) {
    const c = CALL_BY_JSON[m.type];
    return `${c.id}:${formatTiles(m.tiles)}` + (m.from === null || m.from === undefined ? "" : `@${m.from}`);
  }

  function parseMeld(text) {
    const [name, rest0] = [text.slice(0, text.indexOf(":")), text.slice(text.indexOf(":") + 1)];
    const c = CALL_BY_ID[name] || CALL_BY_JSON[name];
    if (!c) throw new Error(`'${name}' is not a call (chi, pon, kan, ankan, kakan) in '${text}'`);
    let rest = rest0.split("=")[0];
    let from = null;
    if (rest.includes("@")) {
      const seat = rest.slice(rest.indexOf("@") + 1);
      if (!/^[0-3]$/.test(seat)) throw new Error(`'${seat}' is not a seat (0-3) in '${text}'`);
      from = Number(seat);
      rest = rest.slice(0, rest.indexOf("@"));
    }
    const tiles = parseTiles(rest);
    if (tiles.length !== c.size) throw new Error(`a ${c.id} has ${c.size} tiles, not '${rest}' in '${text}'`);
    return { type: c.json, tiles, from: c.id === "ankan" ? null : from };
  }

  function notation() {
    const parts = [formatTiles(S.hand)];
    if (S.win) parts.push("+" + S.win);
    for (const m of S.melds) parts.push(meldText(m));
    return parts.filter(Boolean).join(" ");
  }

  function parseNotation(text) {
    let hand = null, win = null;
    const melds = [];
    for (const token of text.trim().split(/\s+/).filter(Boolean)) {
      if (token.includes(":")) melds.push(parseMeld(token));
      else if (token.startsWith("+")) {
        if (win) throw new Error("two winning tiles");
        const t = parseTiles(token.slice(1));
        if (t.length !== 1) throw new Error(`expected one winning tile after '+', not '${token}'`);
        win = t[0];
      } else if (hand === null && !melds.length) {
        const [head, tail] = token.split("+");
        hand = parseTiles(head);
        if (tail !== undefined) {
          const t = parseTiles(tail);
          if (t.length !== 1) throw new Error(`expected one winning tile after '+', not '${tail}'`);
          win = t[0];
        }
      } else throw new Error(`unexpected '${token}' (calls are written type:tiles@seat)`);
    }
    return { hand: (hand || []).sort(byOrder), win, melds };
  }

  function enc(v) {
    return encodeURIComponent(v).replace(/%3A/g, ":").replace(/%40/g, "@").replace(/%2C/g, ",");
  }

  function toHash() {
    const p = [["rules", S.rules]];
    if (S.players !== 4) p.push(["players", S.players]);
    p.push(["round", S.round], ["dealer", S.dealer], ["winner", S.winner]);
    p.push(["win_by", S.from === null ? "tsumo" : S.from]);
    p.push(["hand", formatTiles(S.hand)]);
    if (S.win) p.push(["win", S.win]);
    if (S.melds.length) p.push(["melds", S.melds.map(meldText).join(",")]);
    if (S.dora.length) p.push(["dora", formatTiles(S.dora)]);
    if (S.ura.length) p.push(["ura", formatTiles(S.ura)]);
    if (S.flags.length) p.push(["flags", S.flags.join(",")]);
    for (const k of ["honba", "sticks", "kita"]) if (S[k]) p.push([k, S[k]]);
    return p.map(([k, v]) => `${k}=${enc(String(v))}`).join("&");
  }

  function fromHash(hash) {
    const q = {};
    for (const part of hash.replace(/^#/, "").split("&")) {
      if (!part) continue;
      const i = part.indexOf("=");
      q[decodeURIComponent(i < 0 ? part : part.slice(0, i))] = i < 0 ? "" : decodeURIComponent(part.slice(i + 1));
    }
    if (!Object.keys(q).length) return null;
    const s = fresh();
    const seat = (v) => (/^[0-3]$/.test(v) ? Number(v) : 0);
    const count = (v) => Math.max(0, Math.min(99, Number.parseInt(v, 10) || 0));
    if (q.rules) s.rules = q.rules;
    if (q.players === "3") s.players = 3;
    if (WINDS.includes(q.round)) s.round = q.round;
    if (q.dealer) s.dealer = seat(q.dealer);
    if (q.winner) s.winner = seat(q.winner);
    s.from = q.win_by === undefined || q.win_by === "tsumo" ? null : seat(q.win_by);
    if (q.hand) s.hand = parseTiles(q.hand).sort(byOrder);
    if (q.win) s.win = parseTiles(q.win)[0] || null;
    if (q.melds) s.melds = q.melds.split(",").filter(Boolean).map(parseMeld);
    if (q.dora) s.dora = parseTiles(q.dora);
    if (q.ura) s.ura = parseTiles(q.ura);
    if (q.flags) s.flags = q.flags.split(",").filter((f) => FLAGS.some(([id]) => id === f));
    s.honba = count(q.honba); s.sticks = count(q.sticks); s.kita = count(q.kita);
    return s;
  }

  // -- building blocks ---------------------------------------------------------------------------------

  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "text") e.textContent = v;
      else if (k === "html") e.innerHTML = v;
      else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v === true ? "" : v);
    }
    for (const c of children) if (c !== null && c !== undefined) e.append(c);
    return e;
  }

  function tilePicture(t, opts) {
    const o = opts || {};
    const span = el("span", { class: "tile-pic" + (o.side ? " side" : ""), "data-tile": t });
    span.innerHTML = o.back ? TILES.back : TILES[t];
    return span;
  }

  function radios(container, name, options, current, onPick) {
    container.replaceChildren();
    for (const o of options) {
      const id = `${name}-${o.value}`;
      const input = el("input", {
        type: "radio", name, id, value: String(o.value), class: "sr-only",
        checked: String(o.value) === String(current), disabled: o.disabled,
      });
      input.addEventListener("change", () => { if (input.checked) onPick(o.value); });
      container.append(input, el("label", { for: id, title: o.title, html: o.label }));
    }
  }

  function seatLabel(seat) {
    const w = seatWind(seat);
    return `${seat}<small> ${w}</small>`;
  }

  // -- input ----------------------------------------------------------------------------------------

  function onTile(t) {
    if (mode === "hand") {
      if (S.hand.length >= capacity()) return say(`The concealed part is full: ${capacity()} tiles besides the winning tile.`);
      const why = canAdd([t]);
      if (why) return say(why);
      change(() => { S.hand.push(t); S.hand.sort(byOrder); });
    } else if (mode === "win") {
      const old = S.win;
      S.win = null;
      const why = canAdd([t]);
      S.win = old;
      if (why) return say(why);
      change(() => { S.win = t; });
    } else if (mode === "dora" || mode === "ura") {
      if (S[mode].length >= 5) return say("At most five indicators.");
      const why = canAdd([t]);
      if (why) return say(why);
      change(() => { S[mode].push(t); });
    } else {
      addCall(t);
    }
  }

  function addCall(t) {
    if (S.melds.length >= 4) return say("A hand has at most four calls.");
    const c = CALL_BY_ID[callType];
    let tiles;
    if (c.id === "chi") {
      if (t[1] === "z") return say("A chi is a run of man, pin or sou.");
      pending.push(t);
      if (pending.length < 3) { renderPending(); return say(`Chi: ${3 - pending.length} more tile(s).`); }
      tiles = pending.slice().sort(byOrder);
      pending = [];
      const k = tiles.map(kind);
      if (tiles.some((x) => x[1] !== tiles[0][1]) || k[1] !== k[0] + 1 || k[2] !== k[1] + 1) {
        renderPending();
        return say(`${formatTiles(tiles)} is not a run: a chi is three tiles in a row of one suit.`);
      }
    } else {
      const p = plain(t);
      tiles = [t, ...Array(c.size - 1).fill(p)];
    }
    const why = canAdd(tiles);
    if (why) { renderPending(); return say(why); }
    const from = c.id === "ankan" ? null : callFrom;
    change(() => { S.melds.push({ type: c.json, tiles, from }); });
  }

  function renderPending() {
    $("pending").replaceChildren(...pending.map((t) => tilePicture(t)));
  }

  function say(text) {
    $("status").textContent = text;
  }

  // -- rendering the inputs ------------------------------------------------------------------------------

  function renderControls() {
    const p = preset();
    const playerChoices = p ? p.options.players.value : [4];
    if (!playerChoices.includes(S.players)) S.players = playerChoices[0];
    $("players-box").hidden = playerChoices.length < 2;
    $("players").replaceChildren(...playerChoices.map((n) => el("option", { value: n, selected: n === S.players, text: `${n} players` })));
    $("kita-box").hidden = S.players !== 3;
    if (catalog && $("rules").value !== S.rules) $("rules").value = S.rules;
    const seats = [...Array(S.players).keys()];
    for (const k of ["dealer", "winner"]) if (S[k] >= S.players) S[k] = 0;
    if (S.from !== null && (S.from >= S.players || S.from === S.winner)) S.from = null;

    radios($("round"), "round", WINDS.map((w) => ({ value: w, label: w, title: `${WIND_NAMES[w]} round` })), S.round,
      (v) => change(() => { S.round = v; }));
    radios($("dealer"), "dealer", seats.map((s) => ({ value: s, label: String(s), title: `Seat ${s} is the dealer` })), S.dealer,
      (v) => change(() => { S.dealer = Number(v); }));
    radios($("winner"), "winner", seats.map((s) => ({ value: s, label: seatLabel(s), title: `Seat ${s} wins` })), S.winner,
      (v) => change(() => {
        S.winner = Number(v);
        if (S.from === S.winner) S.from = null;
      }));
    radios($("discarder"), "win-by", [{ value: "tsumo", label: "Tsumo", title: "Self-drawn win" },
      ...seats.map((s) => ({ value: s, label: `Ron ← ${s}`, title: `Ron on seat ${s}'s discard`, disabled: s === S.winner }))],
    S.from === null ? "tsumo" : S.from, (v) => change(() => { S.from = v === "tsumo" ? null : Number(v); }));
    $("seat-wind").textContent = `Seat ${S.winner} is ${WIND_NAMES[seatWind(S.winner)]} (${S.winner === S.dealer ? "dealer" : "non-dealer"}), `
      + `${WIND_NAMES[S.round]} round; ${S.from === null ? "tsumo" : `ron on seat ${S.from}'s discard`}.`;

    radios($("mode"), "mode", MODES.map(([v, label]) => ({ value: v, label })), mode, (v) => {
      mode = v; pending = []; renderPending(); keepFocus(renderControls);
    });
    $("call-builder").hidden = mode !== "call";
    if (callFrom === null || callFrom === S.winner || callFrom >= S.players) callFrom = left(S.winner);
    radios($("call-type"), "call-type", CALLS.map((c) => ({ value: c.id, label: c.label })), callType, (v) => {
      callType = v; pending = []; renderPending();
      if (v === "chi") callFrom = left(S.winner);
      keepFocus(renderControls);
    });
    radios($("call-from"), "call-from", seats.map((s) => ({ value: s, label: `from ${s}`, title: `Called from seat ${s}`, disabled: s === S.winner || callType === "ankan" })),
      callType === "ankan" ? "" : callFrom, (v) => { callFrom = Number(v); });
    $("call-help").textContent = CALL_HELP[callType];

    const flags = $("flags");
    flags.replaceChildren(...FLAGS.map(([id, label]) => el("label", { class: "check" },
      el("input", { type: "checkbox", id: `flag-${id}`, checked: S.flags.includes(id), onchange: (e) => change(() => {
        S.flags = e.target.checked ? [...S.flags, id] : S.flags.filter((f) => f !== id);
      }) }), " " + label)));
    for (const k of ["honba", "sticks", "kita"]) if (document.activeElement !== $(k)) $(k).value = S[k];
    if (document.activeElement !== $("notation")) $("notation").value = notation();
    renderPalette();
  }

  function renderPalette() {
    const pal = $("palette");
    const focused = document.activeElement && document.activeElement.closest("#palette") ? document.activeElement.dataset.tile : null;
    const rows = [];
    for (const suit of "mps") {
      const row = [];
      for (let n = 1; n <= 9; n++) row.push(`${n}${suit}`);
      if (redLimit(suit)) row.splice(5, 0, `0${suit}`);
      rows.push(row);
    }
    rows.push(["1z", "2z", "3z", "4z", "5z", "6z", "7z"]);
    const active = pal.dataset.active || "1m";
    pal.replaceChildren(...rows.map((row) => el("div", { class: "palette-row" }, ...row.map((t) => {
      const why = canAdd(mode === "call" && callType !== "chi" ? [t, ...Array(CALL_BY_ID[callType].size - 1).fill(plain(t))] : [t]);
      const b = el("button", {
        type: "button", class: "tile-btn", "data-tile": t, "aria-label": tileName(t),
        title: why || tileName(t), "aria-disabled": why ? "true" : null, tabindex: t === active ? "0" : "-1",
        onclick: () => { pal.dataset.active = t; onTile(t); },
      });
      b.innerHTML = TILES[t];
      return b;
    }))));
    if (!pal.querySelector('[tabindex="0"]')) pal.querySelector("button").tabIndex = 0;
    if (focused) {
      const b = pal.querySelector(`[data-tile="${focused}"]`);
      if (b) b.focus();
    }
  }

  // arrow keys move within the palette (one tab stop for the whole palette)
  function paletteKeys(e) {
    const b = e.target.closest(".tile-btn");
    if (!b) return;
    const rows = [...$("palette").querySelectorAll(".palette-row")].map((r) => [...r.querySelectorAll(".tile-btn")]);
    const r = rows.findIndex((row) => row.includes(b));
    const c = rows[r].indexOf(b);
    let next = null;
    if (e.key === "ArrowRight") next = rows[r][c + 1] || (rows[r + 1] || rows[0])[0];
    else if (e.key === "ArrowLeft") next = rows[r][c - 1] || (rows[r - 1] || rows[rows.length - 1]).slice(-1)[0];
    else if (e.key === "ArrowDown") next = (rows[r + 1] || rows[0])[Math.min(c, (rows[r + 1] || rows[0]).length - 1)];
    else if (e.key === "ArrowUp") next = (rows[r - 1] || rows[rows.length - 1])[Math.min(c, (rows[r - 1] || rows[rows.length - 1]).length - 1)];
    else if (e.key === "Home") next = rows[r][0];
    else if (e.key === "End") next = rows[r][rows[r].length - 1];
    else if (e.key === "Escape" && pending.length) { pending = []; renderPending(); say("Chi cancelled."); }
    if (!next) return;
    e.preventDefault();
    for (const x of $("palette").querySelectorAll(".tile-btn")) x.tabIndex = -1;
    next.tabIndex = 0;
    $("palette").dataset.active = next.dataset.tile;
    next.focus();
  }

  function removable(t, label, onRemove) {
    const b = el("button", { type: "button", class: "tile-btn", "aria-label": label, title: label, onclick: onRemove });
    b.append(tilePicture(t));
    return b;
  }

  // where the called tile lies: left for the player on the left, middle for the one opposite, right for the right
  function sidewaysIndex(m) {
    const rel = (m.from - S.winner + S.players) % S.players;
    const n = m.type === "kakan" ? 3 : m.tiles.length;
    if (rel === S.players - 1) return 0;
    if (rel === 1) return n - 1;
    return 1;
  }

  function meldPicture(m) {
    const box = el("span", { class: "meld-pic" });
    if (m.type === "ankan") {
      m.tiles.forEach((t, i) => box.append(tilePicture(t, { back: i === 0 || i === 3 })));
      return box;
    }
    const shown = m.type === "kakan" ? m.tiles.slice(0, 3) : m.tiles.slice();
    const at = m.from === null || m.from === undefined ? 0 : sidewaysIndex(m);
    shown.forEach((t, i) => {
      if (i !== at) return box.append(tilePicture(t));
      if (m.type === "kakan") {
        box.append(el("span", { class: "stack" }, tilePicture(m.tiles[3], { side: true }), tilePicture(t, { side: true })));
      } else box.append(tilePicture(t, { side: true }));
    });
    return box;
  }

  function renderHand() {
    $("count").textContent = `${S.hand.length}/${capacity()}`;
    $("hand").replaceChildren(...S.hand.map((t, i) => removable(t, `Remove ${tileName(t)} from the concealed tiles`,
      () => change(() => { S.hand.splice(i, 1); }))));
    $("win").replaceChildren(...(S.win ? [removable(S.win, `Remove the winning tile ${tileName(S.win)}`, () => change(() => { S.win = null; }))] : []));
    for (const k of ["dora", "ura"]) {
      $(k).replaceChildren(...S[k].map((t, i) => removable(t, `Remove ${k} indicator ${tileName(t)}`, () => change(() => { S[k].splice(i, 1); }))));
    }
    $("melds").replaceChildren(...S.melds.map((m, i) => {
      const c = CALL_BY_JSON[m.type];
      const text = `${c.label} ${formatTiles(m.tiles)}` + (m.from === null ? " (closed)" : ` from seat ${m.from}`);
      const move = (d) => change(() => { const [x] = S.melds.splice(i, 1); S.melds.splice(i + d, 0, x); });
      return el("li", { "data-meld": meldText(m) },
        meldPicture(m),
        el("span", { class: "meld-text", text }),
        el("span", { class: "meld-actions" },
          el("button", { type: "button", "aria-label": `Move call ${i + 1} earlier`, title: "Earlier", disabled: i === 0, onclick: () => move(-1), text: "↑" }),
          el("button", { type: "button", "aria-label": `Move call ${i + 1} later`, title: "Later", disabled: i === S.melds.length - 1, onclick: () => move(1), text: "↓" }),
          el("button", { type: "button", "aria-label": `Remove call ${i + 1}: ${text}`, title: "Remove", onclick: () => change(() => { S.melds.splice(i, 1); }), text: "✕" })));
    }));
  }

  function renderRulesNote() {
    const p = preset();
    if (!p) { $("rules-note").textContent = ""; return; }
    const o = p.options;
    const pao = o.pao_yaku.value.length
      ? `pao on ${o.pao_yaku.value.join(", ")} (${o.pao_scope.value.replace(/_/g, " ")}; honba on a pao ron: ${o.pao_honba.value})`
      : "no pao";
    const extra = o.daiminkan_pao.value ? "; daiminkan pao" : "";
    $("rules-note").textContent = `${p.name} (${p.name_en}): ${pao}${extra}; red fives: ${o.red_fives.value}.`;
  }

  // -- scoring ------------------------------------------------------------------------------------------

  function request() {
    const req = {
      rules: S.rules, dealer: S.dealer, round_wind: S.round, winner: S.winner,
      hand: formatTiles(S.hand), win_tile: S.win,
      melds: S.melds.map((m) => {
        const out = { type: m.type, tiles: formatTiles(m.tiles) };
        if (m.from !== null) out.from = m.from;
        return out;
      }),
    };
    if (S.players !== 4 || (preset() && preset().options.players.value[0] !== 4)) req.players = S.players;
    if (S.from !== null) req.from = S.from;
    for (const f of S.flags) req[f] = true;
    if (S.dora.length) req.dora_indicators = S.dora;
    if (S.ura.length) req.ura_indicators = S.ura;
    if (S.honba) req.honba = S.honba;
    if (S.sticks) req.riichi_sticks = S.sticks;
    if (S.kita && S.players === 3) req.kita = S.kita;
    return req;
  }

  // controls are drawn afresh on every change: give the focus back to the control that had it
  function keepFocus(fn) {
    const id = document.activeElement ? document.activeElement.id : "";
    fn();
    const again = id ? document.getElementById(id) : null;
    if (again && document.activeElement !== again) again.focus();
  }

  function update() {
    keepFocus(() => {
      renderControls();
      renderHand();
      renderRulesNote();
    });
    const hash = "#" + toHash();
    if (location.hash !== hash) history.replaceState(null, "", hash);
    $("link").value = location.href;
    clearTimeout(timer);
    const missing = capacity() - S.hand.length;
    if (missing > 0 || !S.win || missing < 0) {
      seq++;
      showResult(null);
      if (missing < 0) say(`Too many concealed tiles: with ${S.melds.length} call(s) the hand holds ${capacity()} besides the winning tile. Remove ${-missing}.`);
      else if (missing > 0) say(`Enter ${missing} more concealed tile(s)${S.win ? "" : " and the winning tile"}.`);
      else say("Choose the winning tile.");
      return;
    }
    say("Scoring…");
    $("result").dataset.state = "scoring";
    timer = setTimeout(submit, 60);
  }

  async function submit() {
    const mine = ++seq;
    let res, body;
    try {
      res = await fetch("/api/score", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(request()) });
      body = await res.json();
    } catch (e) {
      if (mine !== seq) return;
      showResult(null, { code: "network", message: `could not reach the server (${e.message})` });
      return;
    }
    if (mine !== seq) return;
    if (!res.ok) showResult(null, body.error || { code: String(res.status), message: res.statusText });
    else showResult(body);
  }

  const pts = (n) => n.toLocaleString("en-US");
  const signed = (n) => (n > 0 ? "+" : "") + pts(n);

  function showResult(r, err) {
    $("error").hidden = !err;
    if (err) {
      $("error").replaceChildren(el("strong", { text: "Not scored: " }), el("span", { text: err.message }), el("code", { text: ` [${err.code}]` }));
      say("The hand could not be scored.");
    }
    $("score").hidden = !r;
    $("result").dataset.state = r ? "scored" : err ? "error" : "empty";
    if (!r) return;
    const who = `seat ${r.winner} (${r.dealer ? "dealer" : "non-dealer"})`;
    const how = r.from === null ? "tsumo" : `ron on seat ${r.from}`;
    const limit = r.limit ? `${LIMITS[r.limit] || r.limit} · ` : "";
    $("value").replaceChildren(
      el("strong", { text: `${limit}${r.han} han ${r.fu} fu` }),
      el("span", { text: ` · ${pts(r.points)} points to ${who}, ${how}` }));
    say(`Scored: ${limit}${r.han} han ${r.fu} fu, ${pts(r.points)} points.`);

    $("yaku").tBodies[0].replaceChildren(...r.yaku.map((y) => el("tr", { "data-yaku": y.id },
      el("td", { lang: "ja", text: y.name_ja }), el("td", { text: y.name }),
      el("td", { text: y.yakuman ? (y.yakuman > 1 ? `yakuman ×${y.yakuman}` : "yakuman") : String(y.han) }))));
    const fu = $("fu");
    fu.tBodies[0].replaceChildren(...r.fu_breakdown.map((f) => el("tr", {}, el("td", { text: f.reason.replace(/_/g, " ") }), el("td", { text: String(f.fu) }))));
    const raw = r.fu_breakdown.reduce((a, f) => a + f.fu, 0);
    fu.tFoot.replaceChildren(el("tr", {}, el("th", { scope: "row", text: r.fu_breakdown.length ? (raw === r.fu ? "total" : `total ${raw}, rounded up`) : "not counted for this hand" }), el("td", { text: String(r.fu) })));

    renderPao(r);
    $("payments").replaceChildren(...r.payments.map((p) => el("li", {
      "data-from": p.from === null ? "table" : p.from, "data-to": p.to, "data-points": p.points, "data-kind": p.kind,
      text: `${p.from === null ? "Table" : `Seat ${p.from}`} → seat ${p.to}: ${pts(p.points)} (${KIND_TEXT[p.kind] || p.kind})`,
    })));
    $("deltas").tBodies[0].replaceChildren(...r.deltas.map((d, s) => el("tr", { "data-seat": s, "data-delta": d, class: d > 0 ? "up" : d < 0 ? "down" : "" },
      el("th", { scope: "row", text: `Seat ${s} (${WIND_NAMES[seatWind(s)]}${s === S.dealer ? ", dealer" : ""})` }), el("td", { text: signed(d) }))));
    $("table-picture").replaceChildren(tablePicture(r));
  }

  function renderPao(r) {
    const box = $("pao");
    box.hidden = !r.pao.length;
    const p = preset();
    box.replaceChildren(...r.pao.map((x) => {
      const y = r.yaku.find((v) => v.id === x.yaku);
      const name = y ? `${y.name_ja} ${y.name}` : x.yaku;
      const m = Number.isInteger(x.meld) ? S.melds[x.meld] : null;
      const call = m ? `call ${x.meld + 1}, ${CALL_BY_JSON[m.type].label.toLowerCase()} ${formatTiles(m.tiles)} from seat ${m.from}` : null;
      let why;
      if (x.rule === "pao_yaku") why = `${call ? `${call[0].toUpperCase()}${call.slice(1)}` : "A call"} made the ${y ? y.name : x.yaku} certain`;
      else if (x.rule === "daiminkan_pao") why = `The rinshan win after the open kan${call ? ` (${call})` : ""} is paid as a ron by the player whose tile was kanned`;
      else why = "Named in the request";
      const src = p && p.options[x.rule === "daiminkan_pao" ? "daiminkan_pao" : "pao_yaku"];
      const rule = p ? `${p.name_en} rule ${x.rule === "daiminkan_pao" ? "daiminkan_pao" : `pao_yaku = [${src.value.join(", ")}]`}` : x.rule;
      const scope = p && x.rule === "pao_yaku" ? `; pao_scope: ${p.options.pao_scope.value}, pao_honba: ${p.options.pao_honba.value}` : "";
      return el("div", { class: "pao-note", "data-seat": x.seat, "data-rule": x.rule, "data-yaku": x.yaku },
        el("p", {}, el("strong", { text: `責任払い pao: seat ${x.seat} is liable for ${name}. ` }),
          el("span", { text: `${why} (${rule}${scope}).` })),
        src ? el("details", {}, el("summary", { text: "Source of the rule" }), el("p", { text: src.source + (src.note ? ` — ${src.note}` : "") })) : null);
    }));
  }

  // four seats round a table, the winner at the bottom; an arrow for each payer and receiver
  function tablePicture(r) {
    const NS = "http://www.w3.org/2000/svg";
    const svg = (tag, attrs, text) => {
      const e = document.createElementNS(NS, tag);
      for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
      if (text !== undefined) e.textContent = text;
      return e;
    };
    const W = 380, H = 330, bw = 104, bh = 58;
    const spots4 = [[W / 2, H - 36], [W - 60, H / 2], [W / 2, 36], [60, H / 2]];
    const spots = S.players === 3 ? [spots4[0], spots4[1], spots4[3]] : spots4;
    const pos = (seat) => spots[(seat - r.winner + S.players) % S.players];
    const liable = new Map(r.pao.map((x) => [x.seat, x]));
    const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", class: "table-svg",
      "aria-label": "Payments: " + r.payments.map((p) => `${p.from === null ? "table" : `seat ${p.from}`} pays seat ${p.to} ${pts(p.points)}`).join("; ") });
    const defs = svg("defs", {});
    for (const [k, c] of Object.entries(KIND_COLORS)) {
      const m = svg("marker", { id: `arrow-${k}`, viewBox: "0 0 10 10", refX: "9", refY: "5", markerWidth: "7", markerHeight: "7", orient: "auto-start-reverse" });
      m.append(svg("path", { d: "M0 0 L10 5 L0 10 z", fill: c }));
      defs.append(m);
    }
    root.append(defs);
    root.append(svg("rect", { x: 96, y: 84, width: W - 192, height: H - 168, rx: 14, class: "felt" }));
    const pot = [];
    if (S.honba) pot.push(`${S.honba} honba`);
    if (S.sticks) pot.push(`${S.sticks} riichi stick${S.sticks > 1 ? "s" : ""}`);
    root.append(svg("text", { x: 8, y: 18, class: "corner-text" }, `${WIND_NAMES[S.round]} round`));
    if (pot.length) root.append(svg("text", { x: 8, y: 34, class: "corner-text" }, pot.join(", ")));
    // arrows, one per payer and receiver, summing the kinds
    const pairs = new Map();
    for (const p of r.payments) {
      const key = `${p.from}>${p.to}`;
      if (!pairs.has(key)) pairs.set(key, { from: p.from, to: p.to, items: [] });
      pairs.get(key).items.push(p);
    }
    const labels = [];
    for (const pair of pairs.values()) {
      const [x2, y2] = pos(pair.to);
      const [x1, y1] = pair.from === null ? [W / 2, H / 2 - 18] : pos(pair.from);
      const dx = x2 - x1, dy = y2 - y1;
      const cut = (ox, oy, hw, hh) => Math.min(Math.abs(dx) > 0.01 ? hw / Math.abs(ox) : Infinity, Math.abs(dy) > 0.01 ? hh / Math.abs(oy) : Infinity);
      const t1 = pair.from === null ? 0 : cut(dx, dy, bw / 2 + 4, bh / 2 + 4);
      const t2 = cut(dx, dy, bw / 2 + 6, bh / 2 + 6);
      const main = pair.items.find((p) => p.kind === "pao") || pair.items.find((p) => p.kind === "hand") || pair.items[0];
      const color = KIND_COLORS[main.kind] || "#333";
      root.append(svg("line", {
        x1: x1 + dx * t1, y1: y1 + dy * t1, x2: x2 - dx * t2, y2: y2 - dy * t2, stroke: color,
        "stroke-width": main.kind === "pao" ? 4 : 3, "marker-end": `url(#arrow-${main.kind in KIND_COLORS ? main.kind : "hand"})`,
        class: `arrow ${main.kind}`, "data-from": pair.from === null ? "table" : pair.from, "data-to": pair.to,
      }));
      const f = pair.from === null ? 0.3 : 0.42;
      labels.push({ x: x1 + dx * f, y: y1 + dy * f, color, lines: pair.items.map((p) => `${pts(p.points)}${p.kind === "hand" ? "" : ` ${p.kind === "riichi_sticks" ? "sticks" : p.kind}`}`) });
    }
    for (const l of labels) {
      const h = 15 * l.lines.length + 4;
      const w = Math.max(...l.lines.map((s) => s.length)) * 7.4 + 10;
      root.append(svg("rect", { x: l.x - w / 2, y: l.y - h / 2, width: w, height: h, rx: 4, class: "amount-bg", stroke: l.color }));
      l.lines.forEach((s, i) => root.append(svg("text", { x: l.x, y: l.y - h / 2 + 14 + 15 * i, "text-anchor": "middle", class: "amount", fill: l.color }, s)));
    }
    for (let seat = 0; seat < S.players; seat++) {
      const [x, y] = pos(seat);
      const d = r.deltas[seat];
      const cls = ["seat", seat === r.winner ? "winner" : "", liable.has(seat) ? "liable" : "", d < 0 ? "pays" : ""].join(" ");
      const g = svg("g", { class: cls.trim(), "data-seat": seat });
      g.append(svg("rect", { x: x - bw / 2, y: y - bh / 2, width: bw, height: bh, rx: 8 }));
      g.append(svg("text", { x, y: y - 9, "text-anchor": "middle", class: "seat-name" },
        `Seat ${seat} · ${seatWind(seat)}`));
      if (seat === S.dealer) {
        g.append(svg("rect", { x: x - 26, y: y + bh / 2 - 8, width: 52, height: 16, rx: 8, class: "badge dealer" }));
        g.append(svg("text", { x, y: y + bh / 2 + 4, "text-anchor": "middle", class: "badge-text small" }, "dealer"));
      }
      g.append(svg("text", { x, y: y + 15, "text-anchor": "middle", class: "delta" }, signed(d)));
      if (liable.has(seat)) {
        g.append(svg("rect", { x: x - 40, y: y - bh / 2 - 12, width: 80, height: 20, rx: 10, class: "badge" }));
        g.append(svg("text", { x, y: y - bh / 2 + 3, "text-anchor": "middle", class: "badge-text" }, "責任払い pao"));
      } else if (seat === r.winner) {
        g.append(svg("rect", { x: x - 30, y: y - bh / 2 - 12, width: 60, height: 20, rx: 10, class: "badge win" }));
        g.append(svg("text", { x, y: y - bh / 2 + 3, "text-anchor": "middle", class: "badge-text" }, "winner"));
      }
      root.append(g);
    }
    return root;
  }

  // -- wiring ---------------------------------------------------------------------------------------------

  function load(hash) {
    try {
      const s = fromHash(hash);
      if (s) S = s;
      return null;
    } catch (e) {
      return `The link could not be read: ${e.message}`;
    }
  }

  async function start() {
    const problem = load(location.hash);
    $("palette").addEventListener("keydown", paletteKeys);
    $("undo").addEventListener("click", () => {
      if (!undoStack.length) return say("Nothing to undo.");
      S = JSON.parse(undoStack.pop());
      update();
    });
    $("clear").addEventListener("click", () => change(() => {
      const keep = fresh();
      for (const k of ["rules", "players", "round", "dealer", "winner"]) keep[k] = S[k];
      S = keep;
    }));
    $("rules").addEventListener("change", (e) => change(() => { S.rules = e.target.value; }));
    $("players").addEventListener("change", (e) => change(() => { S.players = Number(e.target.value); }));
    for (const k of ["honba", "sticks", "kita"]) {
      $(k).addEventListener("change", (e) => change(() => { S[k] = Math.max(0, Number.parseInt(e.target.value, 10) || 0); }));
    }
    const apply = () => {
      if ($("notation").value.trim() === notation()) return;
      try {
        const parsed = parseNotation($("notation").value);
        change(() => { S.hand = parsed.hand; S.win = parsed.win; S.melds = parsed.melds; });
        $("error").hidden = true;
      } catch (e) {
        showResult(null, { code: "notation", message: e.message });
      }
    };
    $("notation").addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); apply(); } });
    $("notation").addEventListener("change", apply);
    $("copy-link").addEventListener("click", async () => {
      $("link").select();
      try {
        await navigator.clipboard.writeText(location.href);
        say("Link copied.");
      } catch (e) {
        say("Copy the selected link.");
      }
    });
    window.addEventListener("hashchange", () => {
      if (location.hash === "#" + toHash()) return;
      const problem2 = load(location.hash);
      update();
      if (problem2) showResult(null, { code: "link", message: problem2 });
    });
    try {
      const res = await fetch("/api/rules");
      catalog = await res.json();
    } catch (e) {
      showResult(null, { code: "network", message: `could not load the rules presets (${e.message})` });
    }
    if (catalog) {
      if (!catalog.presets.some((p) => p.id === S.rules)) {
        const alias = catalog.presets.find((p) => p.aliases.map((a) => a.toLowerCase()).includes(S.rules.toLowerCase()));
        S.rules = alias ? alias.id : catalog.default;
      }
      $("rules").replaceChildren(...catalog.presets.map((p) => el("option", { value: p.id, selected: p.id === S.rules, text: `${p.name_en} — ${p.name}` })));
    }
    update();
    if (problem) showResult(null, { code: "link", message: problem });
    document.body.dataset.ready = "true";
  }

  start();
})();
