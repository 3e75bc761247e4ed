// tenbou web calculator: builds a settle request of docs/json-api.md from clicks (a tsumo, one to
// three rons on one discard, an exhaustive or abortive draw), posts it to /api/settle and draws the
// settlement; keeps a score sheet of a whole game on the server (/api/games). Plain script, no build
// step, nothing loaded from elsewhere. Strings are in i18n.js (ja, en, zh-Hans).
"use strict";

(function () {
  const I18N = window.TENBOU_I18N;
  const SUITS = "mpsz";
  const WINDS = ["E", "S", "W", "N"];
  const FLAGS = ["riichi", "double_riichi", "ippatsu", "rinshan", "chankan", "haitei", "houtei", "tenhou", "chiihou", "renhou", "fourth_kan"];
  const CALLS = [
    { id: "chi", json: "chi", size: 3 },
    { id: "pon", json: "pon", size: 3 },
    { id: "kan", json: "daiminkan", size: 4 },
    { id: "ankan", json: "ankan", size: 4 },
    { id: "kakan", json: "kakan", size: 4 },
  ];
  const CALL_BY_ID = Object.fromEntries(CALLS.map((c) => [c.id, c]));
  const CALL_BY_JSON = Object.fromEntries(CALLS.map((c) => [c.json, c]));
  CALL_BY_JSON.kan = CALL_BY_ID.kan;
  const MODES = ["hand", "win", "call", "dora", "ura"];
  const ENDS = ["tsumo", "ron", "draw", "abort"];
  const KIND_COLORS = { hand: "#1f4e96", pao: "#c2410c", honba: "#5b5b66", riichi_sticks: "#2b7a3e", noten: "#7a4b9c", nagashi: "#0f766e" };
  const SANMA_GONE = ["2m", "3m", "4m", "5m", "6m", "7m", "8m", "0m"];

  const TILES = JSON.parse(document.getElementById("tile-svgs").textContent);
  const $ = (id) => document.getElementById(id);

  // -- language ------------------------------------------------------------------------------------

  let lang = "en";
  function pickLang() {
    try {
      const saved = localStorage.getItem("tenbou-lang");
      if (saved && I18N.strings[saved]) return saved;
    } catch (e) { /* storage may be off */ }
    for (const l of navigator.languages || [navigator.language || "en"]) {
      const low = String(l).toLowerCase();
      if (low.startsWith("ja")) return "ja";
      if (low.startsWith("zh")) return "zh-Hans";
      if (low.startsWith("en")) return "en";
    }
    return "en";
  }
  function t(key, vars) {
    let s = (I18N.strings[lang] && I18N.strings[lang][key]) ?? I18N.strings.en[key] ?? key;
    if (vars) for (const [k, v] of Object.entries(vars)) s = s.split(`{${k}}`).join(String(v));
    return s;
  }
  const windName = (w) => t("wind_" + w);
  const windShort = (w) => t("wsh_" + w);
  // a hand of the game by its round and number: "East 1", 東1局, 东1局
  const roundHand = (w, n) => t("round_hand", { wind: windName(w), n });
  const joinList = (items) => items.join(lang === "en" ? ", " : "、");
  function yakuName(y) {
    if (lang === "ja") return y.name_ja;
    if (lang === "zh-Hans") return I18N.yakuZh[y.id] || y.name_ja;
    return y.name;
  }
  // a word of i18n.js's tables ({en, ja, zh}) in the page's language
  const pick = (o) => (lang === "ja" ? o.ja : lang === "zh-Hans" ? o.zh : o.en) || o.en;
  function optionLabel(name) {
    const o = I18N.options[name];
    return o ? pick(o) : name;
  }
  // a yaku id by its name (the names of every yaku come with /api/rules)
  function yakuText(id) {
    const y = catalog && catalog.yaku && catalog.yaku[id];
    return y ? yakuName({ id, ...y }) : (lang === "zh-Hans" && I18N.yakuZh[id]) || id;
  }
  const labelled = (label, text) => (lang === "en" ? `${label}: ${text}` : `${label}：${text}`);
  const listText = (items) => (items.length ? joinList(items) : t("none"));
  function choiceText(name, v) {
    const o = I18N.values[name] && I18N.values[name][v];
    return o ? pick(o) : String(v);
  }
  // a rule option's value in the page's words: a choice by i18n.js's values, a set of yaku by their
  // names, the abortive draws by their reason_ words, yes or no, numbers as they are
  function valueText(name, value) {
    const spec = catalog && catalog.options[name];
    if (typeof value === "boolean") return t(value ? "value_yes" : "value_no");
    if (!spec) return JSON.stringify(value);
    if (spec.kind === "yaku_set") return listText(value.map(yakuText));
    if (spec.kind === "name_set") return listText(value.map((v) => t("reason_" + v)));
    if (spec.kind === "chip_table") return listText(Object.entries(value).map(([k, n]) => `${choiceText(name, k)} ${n}`));
    if (spec.kind === "choice") return choiceText(name, value);
    return Array.isArray(value) ? value.join(", ") : String(value);
  }
  // a line of a fu breakdown; a triplet's reason is made of three words ("closed_honor_pon")
  function fuText(reason) {
    const F = I18N.fu;
    const m = /^(open|closed)_(simple|terminal|honor)_(pon|kan)$/.exec(reason);
    if (!m) return F[reason] ? pick(F[reason]) : reason.replace(/_/g, " ");
    const [open, cls, set] = [pick(F[m[1]]), pick(F[m[2]]), pick(F[m[3]])];
    return lang === "en" ? `${open} ${cls} ${set}` : lang === "ja" ? `${cls}の${open}${set}` : `${cls}${open}${set}`;
  }
  // a preset by its name in the page's language (its own name, or the English one)
  const presetName = (p) => (lang === "en" ? p.name_en : p.name);
  // a game's rules in the page's words: the preset and each option changed, with its value
  function rulesText(rules) {
    const id = typeof rules === "string" ? rules : rules.preset;
    const p = catalog && catalog.presets.find((x) => x.id === id);
    const changed = Object.entries(typeof rules === "string" ? {} : rules.overrides || {});
    const text = changed.map(([k, v]) => labelled(optionLabel(k), valueText(k, v))).join(lang === "en" ? "; " : "；");
    return (p ? presetName(p) : id) + (text ? (lang === "en" ? ` (${text})` : `（${text}）`) : "");
  }
  function translatePage() {
    document.documentElement.lang = lang;
    for (const e of document.querySelectorAll("[data-i18n]")) e.textContent = t(e.dataset.i18n);
    for (const e of document.querySelectorAll("[data-i18n-label]")) e.setAttribute("aria-label", t(e.dataset.i18nLabel));
    $("lang").value = lang;
    $("palette").setAttribute("aria-label", t("palette"));
    $("link").setAttribute("aria-label", t("link"));
    document.title = t("page_title");
  }

  // -- tiles -------------------------------------------------------------------------------------

  function kind(tile) {
    const n = tile[0] === "0" ? 5 : Number(tile[0]);
    return SUITS.indexOf(tile[1]) * 9 + n - 1;
  }
  const isRed = (tile) => tile[0] === "0";
  const plain = (tile) => (isRed(tile) ? "5" + tile[1] : tile);
  const order = (tile) => kind(tile) * 2 + (isRed(tile) ? 1 : 0);
  const byOrder = (a, b) => order(a) - order(b);

  function tileName(tile) {
    if (tile[1] === "z") return t("honor_" + tile[0]);
    return t(isRed(tile) ? "tile_red" : "tile_num", { n: tile[0], suit: t("suit_" + tile[1]) });
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
    tiles.forEach((x, i) => {
      out += x[0];
      if (i === tiles.length - 1 || tiles[i + 1][1] !== x[1]) out += x[1];
    });
    return out;
  }

  // -- state -------------------------------------------------------------------------------------

  const freshWin = (winner) => ({ winner, hand: [], melds: [], flags: [], kita: 0, pao: null, kanFrom: undefined });
  const fresh = () => ({
    rules: "tenhou", overrides: {}, players: 4, round: "E", dealer: 0, honba: 0, sticks: 0, wareme: null,
    end: "tsumo", from: null, win: null, dora: [], ura: [], wins: [freshWin(0)], active: 0,
    tenpai: [], nagashi: [], reason: "", riichi: [],
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
  let lastResult = null;
  let view = "calc";
  // the score sheet: the open game, and the hand being edited (null: the next hand)
  let game = null;
  let editing = null;
  // who this page is to the server (GET /api/session): the operator (every game), or the holder
  // of some games' links; and the cursor of the next page of the games list
  let session = { operator: true, games: [] };
  let gamesAfter = null;

  const W = () => S.wins[S.active];
  const capacity = (w) => 13 - 3 * (w || W()).melds.length;
  const left = (seat) => (seat + S.players - 1) % S.players;
  const seatWind = (seat) => WINDS[(seat - S.dealer + S.players * 4) % S.players];
  const tsumo = () => S.end === "tsumo";
  const isWin = () => S.end === "tsumo" || S.end === "ron";

  function preset() {
    if (!catalog) return null;
    return catalog.presets.find((p) => p.id === S.rules) || null;
  }
  function opt(name) {
    if (Object.prototype.hasOwnProperty.call(S.overrides, name)) return S.overrides[name];
    const p = preset();
    return p && p.options[name] ? p.options[name].value : null;
  }
  function rulesValue() {
    return Object.keys(S.overrides).length ? { preset: S.rules, overrides: S.overrides } : S.rules;
  }

  function redLimit(suit) {
    const n = opt("red_fives") ?? 3;
    if (!n) return 0;
    if (S.players === 3 && suit === "m") return 0;
    return suit === "p" && n === 4 ? 2 : 1;
  }

  function allTiles(except) {
    const out = [...S.dora, ...S.ura];
    if (S.win) out.push(S.win);
    S.wins.forEach((w, i) => {
      if (isWin() && (S.end === "ron" || i === 0)) {
        out.push(...w.hand);
        for (const m of w.melds) if (m !== except) out.push(...m.tiles);
      }
    });
    return out;
  }

  function inSet(tile) {
    return !(S.players === 3 && SANMA_GONE.includes(tile));
  }

  function canAdd(tiles, except) {
    const used = allTiles(except);
    for (const x of new Set(tiles)) {
      if (!inSet(x)) return t("not_in_sanma", { tile: tileName(x) });
      const n = tiles.filter((y) => y === x).length;
      const sameKind = used.filter((y) => kind(y) === kind(x)).length + tiles.filter((y) => kind(y) === kind(x)).length;
      if (sameKind > 4) return t("only_four", { tile: tileName(plain(x)) });
      if (isRed(x) && used.filter((y) => y === x).length + n > redLimit(x[1])) {
        return redLimit(x[1]) ? t("red_limit", { n: redLimit(x[1]), suit: t("suit_" + x[1]) }) : t("no_red");
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

  // -- requests: the calculator's state to a settle request, and back -------------------------------

  // a meld as the hand notation writes it, its tiles in the one order of tenbou's hand text (a red
  // five after the plain fives: pon:550p@1, kakan:5550m@2)
  function meldText(m) {
    const c = CALL_BY_JSON[m.type];
    return `${c.id}:${formatTiles([...m.tiles].sort(byOrder))}` + (m.from === null || m.from === undefined ? "" : `@${m.from}`);
  }

  function parseMeld(text) {
    const name = text.slice(0, text.indexOf(":"));
    const c = CALL_BY_ID[name] || CALL_BY_JSON[name];
    if (!c) throw new Error(`'${name}' is not a call (chi, pon, kan, ankan, kakan) in '${text}'`);
    let rest = text.slice(text.indexOf(":") + 1).split("=")[0];
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

  function notation(w) {
    const parts = [formatTiles(w.hand)];
    if (S.win) parts.push("+" + S.win);
    for (const m of w.melds) parts.push(meldText(m));
    return parts.filter(Boolean).join(" ");
  }

  // the notation field's example, which settles as given: a daisangen of the winner whose dragons
  // were called from the other seats (in tiles of the three-player set too)
  function notationExample(winner) {
    const others = [1, 2, 3].map((d) => (winner + d) % S.players).filter((s) => s !== winner);
    const [a, b, c] = others.length === 3 ? others : [others[0], others[1], others[0]];
    return `23p55s +4p pon:555z@${a} pon:666z@${b} pon:777z@${c}`;
  }

  function parseNotation(text) {
    let hand = null, win = null;
    const melds = [];
    for (const token of text.trim().split(/\s+/).filter(Boolean)) {
      if (token.includes(":")) melds.push(parseMeld(token));
      else if (token.startsWith("+")) {
        if (win) throw new Error("two winning tiles");
        const x = parseTiles(token.slice(1));
        if (x.length !== 1) throw new Error(`expected one winning tile after '+', not '${token}'`);
        win = x[0];
      } else if (hand === null && !melds.length) {
        const [head, tail] = token.split("+");
        hand = parseTiles(head);
        if (tail !== undefined) {
          const x = parseTiles(tail);
          if (x.length !== 1) throw new Error(`expected one winning tile after '+', not '${tail}'`);
          win = x[0];
        }
      } else throw new Error(`unexpected '${token}' (calls are written type:tiles@seat)`);
    }
    return { hand: (hand || []).sort(byOrder), win, melds };
  }

  // seats that declared riichi in this hand: the winners with riichi and the seats marked
  function declared() {
    const out = new Set(S.riichi);
    if (isWin()) for (const w of activeWins()) if (w.flags.includes("riichi") || w.flags.includes("double_riichi")) out.add(w.winner);
    return [...out].filter((s) => s < S.players).sort();
  }

  const activeWins = () => (S.end === "tsumo" ? S.wins.slice(0, 1) : S.end === "ron" ? S.wins : []);

  function winRequest(w) {
    const req = {
      winner: w.winner, hand: formatTiles(w.hand), win_tile: S.win,
      melds: w.melds.map((m) => {
        const out = { type: m.type, tiles: formatTiles(m.tiles) };
        if (m.from !== null) out.from = m.from;
        return out;
      }),
    };
    if (!w.melds.length) delete req.melds;
    if (S.end === "ron") req.from = S.from;
    for (const f of w.flags) req[f] = true;
    if (S.dora.length) req.dora_indicators = S.dora;
    if (S.ura.length) req.ura_indicators = S.ura;
    if (w.kita && S.players === 3) req.kita = w.kita;
    if (w.pao !== null) req.pao = w.pao;
    if (w.kanFrom !== undefined && w.flags.includes("rinshan")) req.rinshan_kan_from = w.kanFrom;
    return req;
  }

  // the hand's end without the table (what the score sheet keeps)
  function endRequest() {
    const req = {};
    if (S.wareme !== null && opt("wareme")) req.wareme = S.wareme;
    if (isWin()) req.wins = activeWins().map(winRequest);
    else if (S.end === "draw") {
      req.draw = { kind: "exhaustive", tenpai: S.tenpai.filter((s) => s < S.players) };
      if (S.nagashi.length && opt("nagashi_mangan") !== "none") req.draw.nagashi = S.nagashi.filter((s) => s < S.players);
    } else {
      req.draw = { kind: "abortive" };
      if (S.reason) req.draw.reason = S.reason;
    }
    return req;
  }

  function request() {
    const req = { rules: rulesValue(), dealer: S.dealer, round_wind: S.round, ...endRequest() };
    if (S.players !== 4 || (preset() && preset().options.players.value[0] !== 4)) req.players = S.players;
    if (S.honba) req.honba = S.honba;
    const sticks = tableSticks();
    if (sticks) req.riichi_sticks = sticks;
    return req;
  }

  // the sticks on the table: entered, or (in a game) carried plus those declared in this hand
  function tableSticks() {
    const t0 = gameTable();
    return t0 ? t0.carried + declared().length : S.sticks;
  }

  // a request (as the score sheet keeps it) back into the calculator's state
  function stateFromRequest(req, riichi, table) {
    const s = fresh();
    s.rules = S.rules; s.overrides = { ...S.overrides }; s.players = S.players;
    s.dealer = table.dealer; s.round = table.round_wind; s.honba = table.honba;
    s.riichi = [...(riichi || [])];
    if (req.wareme !== undefined && req.wareme !== null) s.wareme = req.wareme;
    if (req.wins) {
      s.end = req.wins[0].from === undefined || req.wins[0].from === null ? "tsumo" : "ron";
      s.from = s.end === "ron" ? req.wins[0].from : null;
      s.win = req.wins[0].win_tile;
      s.dora = [...(req.wins[0].dora_indicators || [])];
      s.ura = [...(req.wins[0].ura_indicators || [])];
      s.wins = req.wins.map((r) => {
        const w = freshWin(r.winner);
        w.hand = parseTiles(r.hand).sort(byOrder);
        w.melds = (r.melds || []).map((m) => ({ type: m.type, tiles: parseTiles(m.tiles), from: m.from === undefined ? null : m.from }));
        w.flags = FLAGS.filter((f) => r[f]);
        w.kita = r.kita || 0;
        if (r.pao !== undefined) w.pao = r.pao;
        if (r.rinshan_kan_from !== undefined) w.kanFrom = r.rinshan_kan_from;
        return w;
      });
    } else if (req.draw.kind === "exhaustive") {
      s.end = "draw"; s.tenpai = [...(req.draw.tenpai || [])]; s.nagashi = [...(req.draw.nagashi || [])];
    } else {
      s.end = "abort"; s.reason = req.draw.reason || "";
    }
    return s;
  }

  // -- the URL: the whole hand in the hash ------------------------------------------------------------

  function enc(v) {
    return encodeURIComponent(v).replace(/%3A/g, ":").replace(/%40/g, "@").replace(/%2C/g, ",");
  }

  function toHash() {
    const p = [["rules", S.rules]];
    if (Object.keys(S.overrides).length) p.push(["ov", JSON.stringify(S.overrides)]);
    if (S.players !== 4) p.push(["players", S.players]);
    p.push(["round", S.round], ["dealer", S.dealer]);
    p.push(["win_by", S.end === "tsumo" ? "tsumo" : S.end === "ron" ? (S.from === null ? "ron" : S.from) : S.end]);
    if (isWin()) {
      if (S.win) p.push(["win", S.win]);
      activeWins().forEach((w, i) => {
        const k = (name) => (i ? `${name}.${i}` : name);
        p.push([k("winner"), w.winner], [k("hand"), formatTiles(w.hand)]);
        if (w.melds.length) p.push([k("melds"), w.melds.map(meldText).join(",")]);
        if (w.flags.length) p.push([k("flags"), w.flags.join(",")]);
        if (w.kita) p.push([k("kita"), w.kita]);
        if (w.pao !== null) p.push([k("pao"), w.pao.length ? w.pao.map((x) => `${x.yaku}@${x.seat}`).join(",") : "none"]);
        if (w.kanFrom !== undefined) p.push([k("kanfrom"), w.kanFrom === null ? "none" : w.kanFrom]);
      });
      if (S.dora.length) p.push(["dora", formatTiles(S.dora)]);
      if (S.ura.length) p.push(["ura", formatTiles(S.ura)]);
    } else if (S.end === "draw") {
      if (S.tenpai.length) p.push(["tenpai", S.tenpai.join(",")]);
      if (S.nagashi.length) p.push(["nagashi", S.nagashi.join(",")]);
    } else if (S.reason) p.push(["reason", S.reason]);
    for (const k of ["honba", "sticks"]) if (S[k]) p.push([k, S[k]]);
    if (S.wareme !== null) p.push(["wareme", S.wareme]);
    if (S.riichi.length) p.push(["riichi", S.riichi.join(",")]);
    if (game) p.push(["game", game.id]);
    if (editing !== null) p.push(["edit", editing]);
    if (view === "sheet") p.push(["view", "sheet"]);
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
    const seats = (v) => (v ? [...new Set(v.split(",").filter((x) => /^[0-3]$/.test(x)).map(Number))] : []);
    const count = (v) => Math.max(0, Math.min(99, Number.parseInt(v, 10) || 0));
    if (q.rules) s.rules = q.rules;
    if (q.ov) {
      const ov = JSON.parse(q.ov);
      if (!ov || typeof ov !== "object" || Array.isArray(ov)) throw new Error("ov: expected an object of rule options");
      s.overrides = ov;
    }
    if (q.players === "3") s.players = 3;
    if (WINDS.includes(q.round)) s.round = q.round;
    if (q.dealer) s.dealer = seat(q.dealer);
    const by = q.win_by;
    if (by === undefined || by === "tsumo") s.end = "tsumo";
    else if (by === "draw") s.end = "draw";
    else if (by === "abort") s.end = "abort";
    else { s.end = "ron"; s.from = by === "ron" ? null : seat(by); }
    if (q.win) s.win = parseTiles(q.win)[0] || null;
    s.wins = [];
    for (let i = 0; i < 3; i++) {
      const k = (name) => (i ? `${name}.${i}` : name);
      if (i && q[k("winner")] === undefined) break;
      const w = freshWin(q[k("winner")] ? seat(q[k("winner")]) : 0);
      if (q[k("hand")]) w.hand = parseTiles(q[k("hand")]).sort(byOrder);
      if (q[k("melds")]) w.melds = q[k("melds")].split(",").filter(Boolean).map(parseMeld);
      if (q[k("flags")]) w.flags = q[k("flags")].split(",").filter((f) => FLAGS.includes(f));
      w.kita = count(q[k("kita")]);
      const pao = q[k("pao")];
      if (pao === "none") w.pao = [];
      else if (pao) w.pao = pao.split(",").map((x) => ({ yaku: x.split("@")[0], seat: seat(x.split("@")[1]) }));
      const kf = q[k("kanfrom")];
      if (kf === "none") w.kanFrom = null;
      else if (kf !== undefined) w.kanFrom = seat(kf);
      s.wins.push(w);
    }
    if (q.dora) s.dora = parseTiles(q.dora);
    if (q.ura) s.ura = parseTiles(q.ura);
    s.tenpai = seats(q.tenpai); s.nagashi = seats(q.nagashi); s.riichi = seats(q.riichi);
    if (q.reason) s.reason = q.reason;
    s.honba = count(q.honba); s.sticks = count(q.sticks);
    if (q.wareme !== undefined && q.wareme !== "") s.wareme = seat(q.wareme);
    return { s, game: /^[0-9a-f]{12}$/.test(q.game || "") ? q.game : null, edit: /^\d+$/.test(q.edit || "") ? Number(q.edit) : null, view: q.view === "sheet" ? "sheet" : "calc" };
  }

  // -- building blocks ---------------------------------------------------------------------------------

  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "text") e.textContent = v;
      else if (k === "html") e.innerHTML = v;
      else if (k.startsWith("on")) e[k] = v; // a property, which patch() hands on to the node it keeps
      else e.setAttribute(k, v === true ? "" : v);
    }
    for (const c of children) if (c !== null && c !== undefined) e.append(c);
    return e;
  }

  // Every render draws the controls afresh from the state; patch() brings the page to the new
  // drawing in place. A node still there (same tag, same id) is kept: only its attributes, its
  // checked, selected and value, its handlers and its children change. A field's change event comes
  // with the press that takes the focus away (mousedown: blur, change, redraw; then mouseup, click):
  // had the redraw replaced the pressed button, its click would be lost. Kept nodes also keep the
  // focus and an open select.
  const HANDLERS = ["onclick", "onchange", "oninput"];
  function patch(parent, children) {
    const want = children.filter((c) => c !== null && c !== undefined).map((c) => (typeof c === "string" ? document.createTextNode(c) : c));
    const have = [...parent.childNodes];
    want.forEach((b, i) => {
      const a = have[i];
      if (!a) parent.append(b);
      else if (a.nodeName === b.nodeName && (a.nodeType !== 1 || a.id === b.id)) morph(a, b);
      else a.replaceWith(b);
    });
    for (const a of have.slice(want.length)) a.remove();
  }
  const redraw = (parent, ...children) => patch(parent, children);
  function morph(a, b) {
    if (a.nodeType !== 1) {
      if (a.nodeValue !== b.nodeValue) a.nodeValue = b.nodeValue;
      return;
    }
    for (const { name, value } of [...b.attributes]) if (a.getAttribute(name) !== value) a.setAttribute(name, value);
    for (const { name } of [...a.attributes]) if (!b.hasAttribute(name)) a.removeAttribute(name);
    for (const k of HANDLERS) if (a[k] !== b[k]) a[k] = b[k];
    if (a.nodeName === "INPUT") {
      if (a.checked !== b.checked) a.checked = b.checked;
      if (a !== document.activeElement && a.value !== b.value) a.value = b.value;
    }
    patch(a, [...b.childNodes]);
    if (a.nodeName === "OPTION" && a.selected !== b.selected) a.selected = b.selected;
  }

  function tilePicture(x, opts) {
    const o = opts || {};
    const span = el("span", { class: "tile-pic" + (o.side ? " side" : ""), "data-tile": x });
    span.innerHTML = o.back ? TILES.back : TILES[x];
    return span;
  }

  function radios(container, name, options, current, onPick) {
    patch(container, options.flatMap((o) => {
      const id = `${name}-${o.value}`;
      return [el("input", {
        type: "radio", name, id, value: String(o.value), class: "sr-only",
        checked: String(o.value) === String(current), disabled: o.disabled,
        onchange: (e) => { if (e.target.checked) onPick(o.value); },
      }), el("label", { for: id, title: o.title, html: o.label })];
    }));
  }

  function checks(container, name, seats, current, onToggle, disabled) {
    patch(container, seats.flatMap((s) => {
      const id = `${name}-${s}`;
      return [el("input", { type: "checkbox", id, class: "sr-only", checked: current.includes(s), disabled: disabled && disabled(s), onchange: (e) => onToggle(s, e.target.checked) }),
        el("label", { for: id, html: seatLabel(s) })];
    }));
  }

  const escapeHtml = (s) => String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]));

  function nameOf(seat) {
    const names = game && game.setup.names;
    return names && names[seat] ? names[seat] : t("seat_n", { n: seat });
  }
  function seatLabel(seat) {
    const names = game && game.setup.names;
    const extra = names && names[seat] ? ` ${escapeHtml(names[seat])}` : "";
    return `${seat}<small> ${windName(seatWind(seat))}${extra}</small>`;
  }

  // -- input ----------------------------------------------------------------------------------------

  function onTile(x) {
    const w = W();
    if (mode === "hand") {
      if (w.hand.length >= capacity()) return say(t("hand_full", { n: capacity() }));
      const why = canAdd([x]);
      if (why) return say(why);
      change(() => { w.hand.push(x); w.hand.sort(byOrder); });
    } else if (mode === "win") {
      const old = S.win;
      S.win = null;
      const why = canAdd([x]);
      S.win = old;
      if (why) return say(why);
      change(() => { S.win = x; });
    } else if (mode === "dora" || mode === "ura") {
      if (S[mode].length >= 5) return say(t("five_indicators"));
      const why = canAdd([x]);
      if (why) return say(why);
      change(() => { S[mode].push(x); });
    } else {
      addCall(x);
    }
  }

  function addCall(x) {
    const w = W();
    const c = CALL_BY_ID[callType];
    if (c.id === "kakan") {
      // a kakan is a pon made into a kan: the pon of this tile already entered becomes the kakan
      const pon = w.melds.find((m) => m.type === "pon" && kind(m.tiles[0]) === kind(x));
      if (pon) {
        const added = isRed(x) || pon.tiles.some(isRed) ? x : plain(x);
        const why = canAdd([...pon.tiles, added], pon);
        if (why) return say(why);
        return change(() => { pon.type = "kakan"; pon.tiles = [...pon.tiles, added]; });
      }
    }
    if (w.melds.length >= 4) return say(t("four_calls"));
    let tiles;
    if (c.id === "chi") {
      if (x[1] === "z") return say(t("chi_suit"));
      pending.push(x);
      if (pending.length < 3) { renderPending(); return say(t("chi_more", { n: 3 - pending.length })); }
      tiles = pending.slice().sort(byOrder);
      pending = [];
      const k = tiles.map(kind);
      if (tiles.some((y) => y[1] !== tiles[0][1]) || k[1] !== k[0] + 1 || k[2] !== k[1] + 1) {
        renderPending();
        return say(t("not_run", { tiles: formatTiles(tiles) }));
      }
    } else {
      tiles = [x, ...Array(c.size - 1).fill(plain(x))];
    }
    const why = canAdd(tiles);
    if (why) { renderPending(); return say(why); }
    const from = c.id === "ankan" ? null : callFrom;
    change(() => { w.melds.push({ type: c.json, tiles, from }); });
  }

  function renderPending() {
    $("pending").replaceChildren(...pending.map((x) => tilePicture(x)));
  }

  function say(text) {
    $("status").textContent = text;
  }

  // -- rendering the inputs ------------------------------------------------------------------------------

  function gameTable() {
    if (!game) return null;
    if (editing !== null && game.hands[editing]) {
      const h = game.hands[editing];
      return { dealer: h.dealer, round_wind: h.round, honba: h.honba, carried: h.riichi_sticks - h.riichi.length, number: h.number };
    }
    if (!game.next) return null;
    const n = game.next;
    return { dealer: n.dealer, round_wind: n.round_wind, honba: n.honba, carried: n.riichi_sticks, number: n.number };
  }

  function renderControls() {
    const p = preset();
    const table = gameTable();
    const playerChoices = p ? p.options.players.value : [4];
    if (game) S.players = game.setup.players;
    if (!playerChoices.includes(S.players)) S.players = playerChoices[0];
    if (table) { S.dealer = table.dealer; S.round = table.round_wind; S.honba = table.honba; }
    const locked = !!table;
    $("players-box").hidden = playerChoices.length < 2;
    $("players").disabled = !!game;
    $("rules").disabled = !!game;
    redraw($("players"), ...playerChoices.map((n) => el("option", { value: n, selected: n === S.players, text: t("n_players", { n }) })));
    $("kita-box").hidden = S.players !== 3 || !isWin();
    if (catalog && $("rules").value !== S.rules) $("rules").value = S.rules;
    const seats = [...Array(S.players).keys()];
    if (S.dealer >= S.players) S.dealer = 0;
    if (S.players === 3 && S.round === "N") S.round = "E";
    for (const w of S.wins) if (w.winner >= S.players) w.winner = 0;
    if (S.from !== null && S.from >= S.players) S.from = null;
    if (S.end === "tsumo") S.active = 0;
    if (S.active >= S.wins.length) S.active = 0;

    $("round").setAttribute("aria-label", t("round_wind"));
    radios($("round"), "round", WINDS.map((w) => ({ value: w, label: windName(w), title: t("round_of", { wind: windName(w) }), disabled: (locked && w !== S.round) || (S.players === 3 && w === "N") })), S.round,
      (v) => change(() => { S.round = v; }));
    $("dealer").setAttribute("aria-label", t("dealer_seat"));
    radios($("dealer"), "dealer", seats.map((s) => ({ value: s, label: String(s), title: t("dealer_is", { seat: nameOf(s) }), disabled: locked && s !== S.dealer })), S.dealer,
      (v) => change(() => { S.dealer = Number(v); }));
    $("honba").disabled = locked;
    $("sticks").disabled = locked;
    for (const k of ["honba"]) if (document.activeElement !== $(k)) $(k).value = S[k];
    if (document.activeElement !== $("sticks")) $("sticks").value = tableSticks();
    $("wareme-box").hidden = !opt("wareme");
    redraw($("wareme"), el("option", { value: "", text: t("none"), selected: S.wareme === null }),
      ...seats.map((s) => el("option", { value: s, text: nameOf(s), selected: S.wareme === s })));
    $("riichi-seats").hidden = !game;
    $("riichi-seats").setAttribute("aria-label", t("riichi_declared"));
    checks($("riichi-seats"), "riichi", seats, declared(), (s, on) => change(() => {
      S.riichi = on ? [...new Set([...S.riichi, s])] : S.riichi.filter((x) => x !== s);
      if (!on) for (const w of S.wins) if (w.winner === s) w.flags = w.flags.filter((f) => f !== "riichi" && f !== "double_riichi");
    }));

    $("end").setAttribute("aria-label", t("how_ended"));
    radios($("end"), "end", ENDS.map((e) => ({ value: e, label: t("end_" + e) })), S.end, (v) => change(() => {
      S.end = v;
      if (v === "ron" && S.from === null) S.from = [...seats].find((s) => !S.wins.some((w) => w.winner === s));
    }));
    $("discarder").hidden = S.end !== "ron";
    $("discarder").setAttribute("aria-label", t("ron_on"));
    radios($("discarder"), "win-by", seats.map((s) => ({ value: s, label: `${t("ron_from")} ${s}`, title: t("ron_on_seat", { seat: nameOf(s) }), disabled: S.wins.some((w) => w.winner === s) })),
      S.from === null ? "" : S.from, (v) => change(() => { S.from = Number(v); }));

    // the wins of a multiple ron: one tab each
    const tabs = [];
    $("wins-tabs").hidden = S.end !== "ron";
    if (S.end === "ron") {
      S.wins.forEach((w, i) => {
        tabs.push(el("button", { type: "button", class: "win-tab", "aria-pressed": String(i === S.active), "data-win": i,
          onclick: () => { S.active = i; pending = []; update(); }, text: t("win_n", { n: i + 1, seat: nameOf(w.winner) }) }));
      });
      if (S.wins.length < S.players - 1) {
        tabs.push(el("button", { type: "button", id: "add-winner", onclick: addWinner, text: t("add_winner") }));
      }
      if (S.wins.length > 1) {
        tabs.push(el("button", { type: "button", id: "remove-winner", onclick: () => change(() => { S.wins.splice(S.active, 1); S.active = 0; }), text: t("remove_winner") }));
      }
    }
    redraw($("wins-tabs"), ...tabs);
    $("winner").hidden = !isWin();
    $("winner").setAttribute("aria-label", t("winning_seat"));
    const taken = (s) => S.wins.some((w, i) => i !== S.active && w.winner === s && S.end === "ron");
    radios($("winner"), "winner", seats.map((s) => ({ value: s, label: seatLabel(s), title: t("seat_wins", { seat: nameOf(s) }), disabled: taken(s) || (S.end === "ron" && s === S.from) })), W().winner,
      (v) => change(() => { W().winner = Number(v); }));
    const w = W();
    $("seat-wind").hidden = !isWin();
    $("seat-wind").textContent = isWin() ? t("seat_is", {
      seat: nameOf(w.winner), wind: windName(seatWind(w.winner)), dealer: t(w.winner === S.dealer ? "dealer" : "non_dealer"),
      round: windName(S.round), how: tsumo() ? t("tsumo") : S.from === null ? t("choose_discarder") : t("ron_on_seat", { seat: nameOf(S.from) }),
    }) : "";

    // draws
    $("draw-box").hidden = isWin();
    $("win-entry").hidden = !isWin();
    $("tenpai").hidden = S.end !== "draw";
    $("tenpai").setAttribute("aria-label", t("tenpai"));
    checks($("tenpai"), "tenpai", seats, S.tenpai, (s, on) => change(() => {
      S.tenpai = on ? [...new Set([...S.tenpai, s])].sort() : S.tenpai.filter((x) => x !== s);
    }));
    $("nagashi").hidden = S.end !== "draw" || opt("nagashi_mangan") === "none";
    $("nagashi").setAttribute("aria-label", t("nagashi"));
    checks($("nagashi"), "nagashi", seats, S.nagashi, (s, on) => change(() => {
      S.nagashi = on ? [...new Set([...S.nagashi, s])].sort() : S.nagashi.filter((x) => x !== s);
    }));
    $("reason-box").hidden = S.end !== "abort";
    const reasons = ["", ...(opt("abortive_draws") || []), "sanchahou"];
    redraw($("reason"), ...reasons.map((r) => el("option", { value: r, selected: r === S.reason, text: r ? t("reason_" + r) : t("unspecified") })));

    if (!isWin()) return;
    $("mode").setAttribute("aria-label", t("tiles_go_to"));
    radios($("mode"), "mode", MODES.map((v) => ({ value: v, label: t("mode_" + v) })), mode, (v) => {
      mode = v; pending = []; renderPending(); keepFocus(renderControls);
    });
    $("call-builder").hidden = mode !== "call";
    if (callFrom === null || callFrom === w.winner || callFrom >= S.players) callFrom = left(w.winner);
    $("call-type").setAttribute("aria-label", t("call_type"));
    radios($("call-type"), "call-type", CALLS.map((c) => ({ value: c.id, label: t("call_" + c.id) })), callType, (v) => {
      callType = v; pending = []; renderPending();
      if (v === "chi") callFrom = left(W().winner);
      keepFocus(renderControls);
    });
    $("call-from").setAttribute("aria-label", t("called_from"));
    radios($("call-from"), "call-from", seats.map((s) => ({ value: s, label: t("from_n", { n: s }), title: t("called_from_seat", { seat: nameOf(s) }), disabled: s === w.winner || callType === "ankan" })),
      callType === "ankan" ? "" : callFrom, (v) => { callFrom = Number(v); });
    $("call-help").textContent = t("help_" + callType);

    const flags = $("flags");
    // the fourth kan's deal-in: offered under rules that play it (or when already set, to take it back)
    const shown = FLAGS.filter((id) => id !== "fourth_kan" || fourthKanRules() || w.flags.includes(id));
    redraw(flags, ...shown.map((id) => el("label", { class: "check", title: id === "fourth_kan" ? t("flag_fourth_kan_help") : null },
      el("input", { type: "checkbox", id: `flag-${id}`, checked: w.flags.includes(id), disabled: id === "ippatsu" && !(w.flags.includes("riichi") || w.flags.includes("double_riichi")) && !w.flags.includes("ippatsu"), onchange: (e) => change(() => {
        w.flags = e.target.checked ? [...w.flags, id] : w.flags.filter((f) => f !== id);
        if ((id === "riichi" || id === "double_riichi") && e.target.checked) S.riichi = [...new Set([...S.riichi, w.winner])];
      }) }), " " + t("flag_" + id))));
    if (document.activeElement !== $("kita")) $("kita").value = w.kita;
    if (document.activeElement !== $("notation")) $("notation").value = notation(w);
    $("notation").placeholder = notationExample(w.winner);
    renderPaoControls(w);
    renderPalette();
  }

  function addWinner() {
    change(() => {
      const used = new Set([...S.wins.map((w) => w.winner), S.from]);
      const seat = [...Array(S.players).keys()].find((s) => !used.has(s));
      if (seat === undefined) return;
      S.wins.push(freshWin(seat));
      S.active = S.wins.length - 1;
      mode = "hand";
    });
  }

  // 「大明槓された瞬間に四槓子の振り込みと見なされるルールもある」: the rules make the fourth kan a deal-in
  const fourthKanRules = () => opt("suukantsu_pao_timing") === "fourth_kan" && (opt("pao_yaku") || []).includes("suukantsu");

  function renderPaoControls(w) {
    const yakuman = lastYakuman(w.winner);
    const pyaku = opt("pao_yaku") || [];
    redraw($("pao-mode"),
      el("option", { value: "auto", text: t("pao_auto"), selected: w.pao === null }),
      el("option", { value: "none", text: t("pao_none"), selected: w.pao !== null && !w.pao.length }),
      el("option", { value: "named", text: t("pao_named"), selected: w.pao !== null && w.pao.length > 0 }));
    $("pao-named").hidden = !(w.pao && w.pao.length);
    if (w.pao && w.pao.length) {
      const choices = [...new Set([...yakuman, ...pyaku, w.pao[0].yaku])];
      redraw($("pao-yaku"), ...choices.map((y) => el("option", { value: y, text: yakuText(y), selected: y === w.pao[0].yaku })));
      redraw($("pao-seat"), ...[...Array(S.players).keys()].filter((s) => s !== w.winner).map((s) => el("option", { value: s, text: nameOf(s), selected: s === w.pao[0].seat })));
    }
    const kans = w.melds.filter((m) => m.type === "daiminkan").map((m) => m.from);
    $("kanfrom-box").hidden = !(w.flags.includes("rinshan") && kans.length);
    redraw($("kanfrom"),
      el("option", { value: "auto", text: t("kanfrom_auto"), selected: w.kanFrom === undefined }),
      el("option", { value: "none", text: t("kanfrom_none"), selected: w.kanFrom === null }),
      ...[...new Set(kans)].map((s) => el("option", { value: s, text: t("kanfrom_seat", { seat: nameOf(s) }), selected: w.kanFrom === s })));
  }

  function lastYakuman(winner) {
    if (!lastResult) return [];
    const r = (lastResult.results || []).find((x) => x.winner === winner);
    return r ? r.yaku.filter((y) => y.yakuman).map((y) => y.id) : [];
  }

  function renderPalette() {
    const pal = $("palette");
    const focused = document.activeElement && document.activeElement.closest("#palette") ? document.activeElement.dataset.tile : null;
    const rows = [];
    for (const suit of "mps") {
      const row = [];
      for (let n = 1; n <= 9; n++) row.push(`${n}${suit}`);
      if (redLimit(suit) || (suit === "m" && S.players === 3 && (opt("red_fives") ?? 3))) row.splice(5, 0, `0${suit}`);
      rows.push(row);
    }
    rows.push(["1z", "2z", "3z", "4z", "5z", "6z", "7z"]);
    const active = pal.dataset.active || "1m";
    const w = W();
    redraw(pal, ...rows.map((row) => el("div", { class: "palette-row" }, ...row.map((x) => {
      let why;
      if (mode === "call" && callType === "kakan" && w.melds.some((m) => m.type === "pon" && kind(m.tiles[0]) === kind(x))) {
        const pon = w.melds.find((m) => m.type === "pon" && kind(m.tiles[0]) === kind(x));
        why = canAdd([...pon.tiles, plain(x)], pon);
      } else why = canAdd(mode === "call" && callType !== "chi" ? [x, ...Array(CALL_BY_ID[callType].size - 1).fill(plain(x))] : [x]);
      const gone = !inSet(x);
      const b = el("button", {
        type: "button", class: "tile-btn" + (gone ? " gone" : ""), "data-tile": x, "aria-label": tileName(x),
        title: why || tileName(x), "aria-disabled": why ? "true" : null, tabindex: x === active ? "0" : "-1",
        onclick: () => { pal.dataset.active = x; onTile(x); },
      });
      b.innerHTML = TILES[x];
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
    else if (e.key === "Escape" && pending.length) { pending = []; renderPending(); say(t("chi_cancelled")); }
    if (!next) return;
    e.preventDefault();
    for (const x of $("palette").querySelectorAll(".tile-btn")) x.tabIndex = -1;
    next.tabIndex = 0;
    $("palette").dataset.active = next.dataset.tile;
    next.focus();
  }

  function removable(x, label, onRemove) {
    const b = el("button", { type: "button", class: "tile-btn", "aria-label": label, title: label, onclick: onRemove });
    b.append(tilePicture(x));
    return b;
  }

  // where the called tile lies: left for the player on the left, middle for the one opposite, right for the right
  function sidewaysIndex(m, winner) {
    const rel = (m.from - winner + S.players) % S.players;
    const n = m.type === "kakan" ? 3 : m.tiles.length;
    if (rel === S.players - 1) return 0;
    if (rel === 1) return n - 1;
    return 1;
  }

  function meldPicture(m, winner) {
    const box = el("span", { class: "meld-pic" });
    if (m.type === "ankan") {
      m.tiles.forEach((x, i) => box.append(tilePicture(x, { back: i === 0 || i === 3 })));
      return box;
    }
    const shown = m.type === "kakan" ? m.tiles.slice(0, 3) : m.tiles.slice();
    const at = m.from === null || m.from === undefined ? 0 : sidewaysIndex(m, winner);
    shown.forEach((x, i) => {
      if (i !== at) return box.append(tilePicture(x));
      if (m.type === "kakan") {
        box.append(el("span", { class: "stack" }, tilePicture(m.tiles[3], { side: true }), tilePicture(x, { side: true })));
      } else box.append(tilePicture(x, { side: true }));
    });
    return box;
  }

  function renderHand() {
    delete $("picture").dataset.stale;
    $("picture-note").hidden = true;
    if (!isWin()) return;
    const w = W();
    $("count").textContent = `${w.hand.length}/${capacity()}`;
    redraw($("hand"), ...w.hand.map((x, i) => removable(x, t("remove_tile", { tile: tileName(x) }),
      () => change(() => { w.hand.splice(i, 1); }))));
    redraw($("win"), ...(S.win ? [removable(S.win, t("remove_win", { tile: tileName(S.win) }), () => change(() => { S.win = null; }))] : []));
    for (const k of ["dora", "ura"]) {
      redraw($(k), ...S[k].map((x, i) => removable(x, t("remove_indicator", { tile: tileName(x) }), () => change(() => { S[k].splice(i, 1); }))));
    }
    $("melds").dataset.empty = t("none");
    redraw($("melds"), ...w.melds.map((m, i) => {
      const text = `${t("call_" + CALL_BY_JSON[m.type].id)} ${formatTiles(m.tiles)}` + (m.from === null ? ` (${t("closed")})` : ` ${t("from_seat", { seat: nameOf(m.from) })}`);
      const move = (d) => change(() => { const [x] = w.melds.splice(i, 1); w.melds.splice(i + d, 0, x); });
      return el("li", { "data-meld": meldText(m) },
        meldPicture(m, w.winner),
        el("span", { class: "meld-text", text }),
        el("span", { class: "meld-actions" },
          el("button", { type: "button", "aria-label": t("move_earlier", { n: i + 1 }), title: t("earlier"), disabled: i === 0, onclick: () => move(-1), text: "↑" }),
          el("button", { type: "button", "aria-label": t("move_later", { n: i + 1 }), title: t("later"), disabled: i === w.melds.length - 1, onclick: () => move(1), text: "↓" }),
          el("button", { type: "button", "aria-label": t("remove_call", { n: i + 1, text }), title: t("remove"), onclick: () => change(() => { w.melds.splice(i, 1); }), text: "✕" })));
    }));
  }

  function renderRulesNote() {
    const p = preset();
    if (!p) { $("rules-note").textContent = ""; return; }
    const pao = (opt("pao_yaku") || []).length
      ? t("note_pao", { yaku: valueText("pao_yaku", opt("pao_yaku")), scope: valueText("pao_scope", opt("pao_scope")), honba: valueText("pao_honba", opt("pao_honba")) })
      : t("note_no_pao");
    const extra = opt("daiminkan_pao") ? t("note_daiminkan") : "";
    $("rules-note").textContent = `${presetLabel(p)}: ${pao}${extra}${lang === "en" ? "; " : "；"}${t("note_red", { n: opt("red_fives") })}`;
  }

  // -- the rule options: each with its value and source, changeable -------------------------------------

  // two option values alike (an object's keys in any order: chips)
  function sameValue(a, b) {
    const canon = (v) => JSON.stringify(v, (k, x) => (x && typeof x === "object" && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort()) : x));
    return canon(a) === canon(b);
  }

  function setOverride(name, value) {
    change(() => {
      const p = preset();
      if (p && sameValue(p.options[name].value, value)) delete S.overrides[name];
      else S.overrides[name] = value;
    });
  }

  function optionControl(name, spec, value) {
    const id = `opt-${name}`;
    if (spec.kind === "bool") {
      return el("input", { type: "checkbox", id, checked: !!value, onchange: (e) => setOverride(name, e.target.checked), "aria-label": optionLabel(name) });
    }
    if (spec.kind === "choice") {
      return el("select", { id, "aria-label": optionLabel(name), onchange: (e) => setOverride(name, e.target.value) },
        ...spec.choices.map((c) => el("option", { value: c, text: choiceText(name, c), selected: c === value })));
    }
    if (spec.kind === "int") {
      return el("input", { type: "number", id, value: String(value), "aria-label": optionLabel(name), min: spec.range ? spec.range[0] : null, max: spec.range ? spec.range[1] : null,
        onchange: (e) => { const n = Number.parseInt(e.target.value, 10); if (Number.isFinite(n)) setOverride(name, n); } });
    }
    if (spec.kind === "yaku_set" || spec.kind === "name_set") {
      const box = el("span", { class: "set", id, role: "group", "aria-label": optionLabel(name) });
      for (const c of spec.choices) {
        const cid = `${id}-${c}`;
        box.append(el("label", { class: "check small" }, el("input", { type: "checkbox", id: cid, checked: value.includes(c),
          onchange: (e) => setOverride(name, e.target.checked ? [...value, c] : value.filter((x) => x !== c)) }), " " + valueText(name, [c])));
      }
      return box;
    }
    if (spec.kind === "chip_table") {
      // chips per kind of event: a number each (none: 0, left out of the table)
      const box = el("span", { class: "set", id, role: "group", "aria-label": optionLabel(name) });
      for (const c of spec.choices) {
        box.append(el("label", { class: "chip" }, choiceText(name, c) + " ", el("input", { type: "number", id: `${id}-${c}`, value: String(value[c] || 0),
          min: spec.range ? Math.max(0, spec.range[0]) : 0, max: spec.range ? spec.range[1] : null, inputmode: "numeric",
          onchange: (e) => {
            const n = Number.parseInt(e.target.value, 10);
            if (!Number.isFinite(n)) return;
            const next = { ...value };
            if (n) next[c] = n;
            else delete next[c];
            setOverride(name, next);
          } })));
      }
      return box;
    }
    // int_list, int_tuple: as JSON (numbers)
    return el("input", { type: "text", id, value: JSON.stringify(value), "aria-label": optionLabel(name), spellcheck: "false",
      onchange: (e) => { try { setOverride(name, JSON.parse(e.target.value)); } catch (err) { say(t("bad_json", { name: optionLabel(name) })); } } });
  }

  function renderOptions() {
    const p = preset();
    if (!p || !catalog) return;
    const n = Object.keys(S.overrides).length;
    $("overrides-count").textContent = n ? t("n_changed", { n }) : t("as_preset");
    $("rules-reset").disabled = !!game;
    if (!$("rules-panel").open) return;
    const filter = $("rules-filter").value.trim().toLowerCase();
    const rows = [];
    for (const [name, spec] of Object.entries(catalog.options)) {
      const label = optionLabel(name);
      if (filter && !name.includes(filter) && !label.toLowerCase().includes(filter)) continue;
      const entry = p.options[name];
      const changed = Object.prototype.hasOwnProperty.call(S.overrides, name);
      const value = changed ? S.overrides[name] : entry.value;
      const source = entry.source === "unknown" ? t("source_unknown") : entry.source;
      rows.push(el("tr", { "data-option": name, class: changed ? "changed" : null },
        el("th", { scope: "row", title: `${name}: ${spec.doc}` }, el("label", { for: `opt-${name}`, text: label })),
        el("td", {}, optionControl(name, spec, value), changed ? el("button", { type: "button", class: "small", onclick: () => setOverride(name, entry.value), text: t("reset") }) : null,
          changed ? el("small", { class: "was", text: ` ${t("preset_value")}: ${valueText(name, entry.value)}` }) : null,
          el("small", { class: "source", text: changed ? `${t("overridden")} · ${source}` : source }))));
    }
    if (game) {
      // a game's rules are fixed when it starts: its hands are settled under them
      for (const row of rows) for (const c of row.querySelectorAll("input, select, button")) c.disabled = true;
      rows.unshift(el("tr", {}, el("td", { colspan: "2", class: "note", text: t("game_rules_fixed") })));
    }
    const body = $("options").tBodies[0];
    redraw(body, ...rows);
  }

  // -- scoring ------------------------------------------------------------------------------------------

  // controls are drawn afresh on every change: give the focus back to the control that had it
  function keepFocus(fn) {
    const id = document.activeElement ? document.activeElement.id : "";
    fn();
    const again = id ? document.getElementById(id) : null;
    if (again && document.activeElement !== again) again.focus();
  }

  function incomplete() {
    if (!isWin()) return null;
    for (const [i, w] of activeWins().entries()) {
      const missing = capacity(w) - w.hand.length;
      const who = S.end === "ron" && S.wins.length > 1 ? `${t("win_n", { n: i + 1, seat: nameOf(w.winner) })}: ` : "";
      if (missing < 0) return who + t("too_many", { calls: w.melds.length, n: capacity(w), remove: -missing });
      if (missing > 0) return who + t("enter_more", { n: missing }) + (S.win ? "" : t("and_win_tile"));
    }
    if (!S.win) return t("choose_win_tile");
    if (S.end === "ron" && S.from === null) return t("choose_discarder");
    return null;
  }

  function update() {
    keepFocus(() => {
      renderControls();
      renderHand();
      renderRulesNote();
      renderGameBar();
    });
    renderOptions();
    const hash = "#" + toHash();
    if (location.hash !== hash) history.replaceState(null, "", hash);
    $("link").value = location.href;
    clearTimeout(timer);
    seq++; // the hand changed: the answer to a request already sent is stale, and submit drops it
    const why = incomplete();
    if (why) {
      showResult(null);
      say(why);
      summary(null, null, why);
      return;
    }
    say(t("scoring"));
    $("result").dataset.state = "scoring";
    timer = setTimeout(submit, 60);
  }

  async function post(path, body, method) {
    const res = await fetch(path, { method: method || "POST", headers: { "Content-Type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
    let data = null;
    try { data = await res.json(); } catch (e) { data = null; }
    if (!res.ok) {
      const err = (data && data.error) || { code: String(res.status), message: res.statusText };
      err.status = res.status;
      throw err;
    }
    return data;
  }

  async function submit() {
    const mine = ++seq;
    let body;
    try {
      body = await post("/api/settle", request());
    } catch (e) {
      if (mine !== seq) return;
      showResult(null, e.code ? e : { code: "network", message: t("no_server", { e: e.message }) });
      return;
    }
    if (mine !== seq) return;
    showResult(body);
  }

  const pts = (n) => n.toLocaleString("en-US");
  const signed = (n) => (n > 0 ? "+" : n < 0 ? "−" : "±") + pts(Math.abs(n));

  // each seat's change of score in the hand: in a game, the settlement's deltas less the stick of
  // each seat that declared riichi in it (what the score sheet adds up: +2,000 for a riichi ron of
  // 2,000, not the +3,000 that takes back one's own stick); else the settlement's deltas
  function scoreChange(r) {
    if (!gameTable()) return r.deltas;
    const stick = opt("riichi_stick_points") ?? 1000;
    const down = declared();
    return r.deltas.map((d, s) => d - (down.includes(s) ? stick : 0));
  }

  function kindText(r) {
    if (r.kind === "win") {
      const winners = joinList(r.results.map((x) => nameOf(x.winner)));
      const first = r.results[0];
      if (first.from === null) return t("sum_tsumo", { winner: winners });
      return t("sum_ron", { winner: winners, from: nameOf(first.from) });
    }
    if (r.kind === "exhaustive_draw") {
      const tp = S.tenpai.filter((s) => s < S.players);
      return t("sum_draw", { tenpai: tp.length ? joinList(tp.map(nameOf)) : t("nobody") });
    }
    return t("sum_abort", { reason: r.reason ? t("reason_" + r.reason) : "" });
  }

  // the essential answer, kept in view (sticky): who gains and who pays, or the error
  function summary(r, err, text) {
    const box = $("summary");
    box.dataset.state = r ? "scored" : err ? "error" : "empty";
    if (err) {
      $("summary-text").textContent = `${t("not_scored")}: ${err.message} [${err.code}]`;
      $("summary-deltas").replaceChildren();
      return;
    }
    if (!r) {
      $("summary-text").textContent = text || "";
      $("summary-deltas").replaceChildren();
      return;
    }
    const value = r.results.map((x) => (x.limit ? t("limit_" + x.limit) : `${x.han}${t("han")} ${x.fu}${t("fu")}`)).join(" / ");
    $("summary-text").textContent = kindText(r) + (value ? ` · ${value}` : "");
    $("summary-deltas").replaceChildren(...scoreChange(r).map((d, s) => el("li", { "data-seat": s, "data-delta": d, class: d > 0 ? "up" : d < 0 ? "down" : "" },
      el("span", { class: "who", text: `${windShort(seatWind(s))} ${nameOf(s)}` }), el("strong", { text: signed(d) }))));
  }

  function showResult(r, err) {
    lastResult = r || lastResult;
    $("error").hidden = !err;
    if (err) {
      $("error").replaceChildren(el("strong", { text: `${t("not_scored")}: ` }), el("span", { text: err.message }), el("code", { text: ` [${err.code}]` }));
      say(t("could_not"));
      summary(null, err);
    }
    $("score").hidden = !r;
    $("result").dataset.state = r ? "scored" : err ? "error" : "empty";
    if (!r) return;
    summary(r);
    const values = r.results.map((x) => `${x.limit ? `${t("limit_" + x.limit)} · ` : ""}${x.han}${t("han")} ${x.fu}${t("fu")} · ${pts(x.points)}`);
    $("value").replaceChildren(el("strong", { text: kindText(r) }), el("span", { text: values.length ? ` · ${values.join(" / ")}` : "" }));
    if (r.skipped && r.skipped.length) $("value").append(el("span", { class: "note", text: ` ${t("skipped", { seats: joinList(r.skipped.map((x) => nameOf(x.winner))) })}` }));
    say(t("scored", { text: $("value").textContent }));

    renderPao(r);
    $("payments").replaceChildren(...r.payments.map((p) => el("li", {
      "data-from": p.from === null ? "table" : p.from, "data-to": p.to, "data-points": p.points, "data-kind": p.kind,
      text: `${p.from === null ? t("table_pot") : nameOf(p.from)} → ${nameOf(p.to)}: ${pts(p.points)} (${t("kind_" + p.kind)})`,
    })));
    $("deltas").caption.textContent = t(gameTable() ? "changes_game" : "changes");
    $("deltas").tBodies[0].replaceChildren(...scoreChange(r).map((d, s) => el("tr", { "data-seat": s, "data-delta": d, class: d > 0 ? "up" : d < 0 ? "down" : "" },
      el("th", { scope: "row", text: `${nameOf(s)} (${windName(seatWind(s))}${s === S.dealer ? `, ${t("dealer")}` : ""})` }),
      el("td", { text: signed(d) + (r.chips ? ` · ${t("chips")} ${r.chips[s] > 0 ? "+" : ""}${r.chips[s]}` : "") }))));
    const n = r.next;
    $("next").textContent = t("next_hand", { dealer: nameOf(n.dealer), honba: n.honba, sticks: n.riichi_sticks });
    $("table-picture").replaceChildren(tablePicture(r));
    fitPicture($("table-picture").firstChild);
    $("wins-detail").replaceChildren(...r.results.map(winDetail));
  }

  function winDetail(x) {
    const box = el("div", { class: "win-result", "data-winner": x.winner });
    box.append(el("h3", { text: `${nameOf(x.winner)} · ${x.limit ? `${t("limit_" + x.limit)} · ` : ""}${x.han}${t("han")} ${x.fu}${t("fu")} · ${pts(x.points)}` }));
    const yaku = el("table", { class: "yaku" }, el("thead", {}, el("tr", {}, el("th", { scope: "col", text: t("yaku") }), el("th", { scope: "col", text: "" }), el("th", { scope: "col", text: t("han") }))));
    yaku.append(el("tbody", {}, ...x.yaku.map((y) => el("tr", { "data-yaku": y.id },
      el("td", { text: yakuName(y) }), el("td", { lang: lang === "ja" ? "en" : "ja", class: "alt", text: lang === "ja" ? y.name : y.name_ja }),
      el("td", { text: y.yakuman ? (y.yakuman > 1 ? `${t("yakuman")} ×${y.yakuman}` : t("yakuman")) : String(y.han) })))));
    box.append(yaku);
    if (x.fourth_kan) box.append(el("p", { class: "note", "data-fourth-kan": "true", text: t("fourth_kan_note", { seat: nameOf(x.from) }) }));
    const raw = x.fu_breakdown.reduce((a, f) => a + f.fu, 0);
    box.append(el("table", { class: "fu" },
      el("thead", {}, el("tr", {}, el("th", { scope: "col", text: t("fu_for") }), el("th", { scope: "col", text: t("fu") }))),
      el("tbody", {}, ...x.fu_breakdown.map((f) => el("tr", {}, el("td", { text: fuText(f.reason) }), el("td", { text: String(f.fu) })))),
      el("tfoot", {}, el("tr", {}, el("th", { scope: "row", text: x.fu_breakdown.length ? (raw === x.fu ? t("total") : t("total_rounded", { n: raw })) : t("fu_not_counted") }), el("td", { text: String(x.fu) })))));
    return box;
  }

  function renderPao(r) {
    const box = $("pao");
    const items = [];
    for (const x of r.results) for (const p of x.pao) items.push([x, p]);
    box.hidden = !items.length;
    box.replaceChildren(...items.map(([res, x]) => {
      const y = res.yaku.find((v) => v.id === x.yaku);
      const name = y ? yakuName(y) : x.rule === "daiminkan_pao" ? t("rinshan_win") : yakuText(x.yaku);
      const w = S.wins.find((v) => v.winner === res.winner);
      const m = w && Number.isInteger(x.meld) ? w.melds[x.meld] : null;
      const call = m ? t("pao_call", { n: x.meld + 1, call: t("call_" + CALL_BY_JSON[m.type].id), tiles: formatTiles(m.tiles), seat: nameOf(m.from) }) : null;
      let why;
      if (res.fourth_kan) why = t("pao_why_fourth_kan", { seat: nameOf(x.seat) });
      else if (x.rule === "pao_yaku") why = t("pao_why_yaku", { call: call || t("a_call"), yaku: name });
      else if (x.rule === "daiminkan_pao") why = t("pao_why_kan", { call: call || "" });
      else why = t("pao_why_named");
      const src = preset() && preset().options[x.rule === "daiminkan_pao" ? "daiminkan_pao" : res.fourth_kan ? "suukantsu_pao_timing" : "pao_yaku"];
      const keys = x.rule === "daiminkan_pao" ? ["daiminkan_pao"] : res.fourth_kan ? ["suukantsu_pao_timing"] : ["pao_yaku", "pao_scope", "pao_honba"];
      const rule = keys.map((k) => labelled(optionLabel(k), valueText(k, opt(k)))).join(lang === "en" ? "; " : "；");
      const honba = r.payments.filter((p) => p.kind === "honba" && p.to === res.winner);
      const honbaText = honba.length ? ` ${t("pao_honba_paid", { who: joinList(honba.map((p) => `${nameOf(p.from)} ${pts(p.points)}`)) })}` : "";
      return el("div", { class: "pao-note", "data-seat": x.seat, "data-rule": x.rule, "data-yaku": x.yaku, "data-winner": res.winner },
        el("p", {}, el("strong", { text: t("pao_liable", { seat: nameOf(x.seat), yaku: name, winner: nameOf(res.winner) }) + " " }),
          el("span", { text: `${why}${lang === "en" ? ` (${rule}).` : `（${rule}）。`}${honbaText}` })),
        src ? el("details", {}, el("summary", { text: t("rule_source") }), el("p", { text: src.source + (src.note ? ` — ${src.note}` : "") })) : null);
    }));
  }

  // the width of a text in the picture, estimated before it is on the page (a wide character as
  // wide as the font is high, a narrow one about 0.6 of it); fitPicture measures it there
  function textWidth(text, size) {
    let w = 0;
    for (const ch of text) w += /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/.test(ch) ? 1 : /[,.·' ]/.test(ch) ? 0.32 : /[A-Z0-9+−±]/.test(ch) ? 0.66 : 0.58;
    return w * size;
  }
  const PICTURE_W = 400;
  // the badges of a row side by side, centred on the row's x and kept inside the picture
  function layoutBadges(row, measure) {
    const boxes = [...row.children];
    const widths = boxes.map((b) => measure(b.querySelector("text")) + 16);
    const total = widths.reduce((a, b) => a + b, 0) + 4 * (boxes.length - 1);
    let left = Math.min(Math.max(Number(row.getAttribute("data-x")) - total / 2, 2), PICTURE_W - 2 - total);
    boxes.forEach((b, i) => {
      b.querySelector("rect").setAttribute("x", left);
      b.querySelector("rect").setAttribute("width", widths[i]);
      b.querySelector("text").setAttribute("x", left + widths[i] / 2);
      left += widths[i] + 4;
    });
  }
  // a seat's name cut (with …) to the width of its box
  function shorten(text, width, measure) {
    const full = [...text.getAttribute("data-full")];
    text.textContent = full.join("");
    for (let n = full.length; n > 1 && measure(text) > width; n--) text.textContent = full.slice(0, n - 1).join("") + "…";
  }
  // once the picture is on the page: every box the width of its text as the browser draws it
  function fitPicture(root) {
    if (!root.getBoundingClientRect().width) return; // not shown: the estimates stay
    const measure = (e) => e.getComputedTextLength();
    for (const l of root.querySelectorAll(".amount-label")) {
      const w = Math.max(...[...l.querySelectorAll("text")].map(measure)) + 12;
      const rect = l.querySelector("rect");
      rect.setAttribute("x", Number(l.getAttribute("data-x")) - w / 2);
      rect.setAttribute("width", w);
    }
    for (const row of root.querySelectorAll(".badges")) layoutBadges(row, measure);
    for (const name of root.querySelectorAll(".seat-name")) shorten(name, 112 - 12, measure);
  }

  // the seats round a table, the first winner (or the dealer) at the bottom; an arrow for each payer
  // and receiver, the amounts by kind on it
  function tablePicture(r) {
    const NS = "http://www.w3.org/2000/svg";
    const svg = (tag, attrs, text) => {
      const e = document.createElementNS(NS, tag);
      for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
      if (text !== undefined) e.textContent = text;
      return e;
    };
    const W0 = PICTURE_W, H = 360, bw = 112, bh = 60;
    const spots4 = [[W0 / 2, H - 40], [W0 - 64, H / 2], [W0 / 2, 58], [64, H / 2]];
    const winners = r.results.map((x) => x.winner);
    const bottom = winners.length ? winners[0] : S.dealer;
    const spots = S.players === 3 ? [spots4[0], spots4[1], spots4[3]] : spots4;
    const pos = (seat) => spots[(seat - bottom + S.players) % S.players];
    const liable = new Map();
    for (const x of r.results) for (const p of x.pao) liable.set(p.seat, p);
    const root = svg("svg", { viewBox: `0 0 ${W0} ${H}`, role: "img", class: "table-svg",
      "aria-label": t("payments_label") + ": " + r.payments.map((p) => `${p.from === null ? t("table_pot") : nameOf(p.from)} → ${nameOf(p.to)} ${pts(p.points)}`).join("; ") });
    const defs = svg("defs", {});
    for (const [k, c] of Object.entries(KIND_COLORS)) {
      const m = svg("marker", { id: `arrow-${k}`, viewBox: "0 0 10 10", refX: "9", refY: "5", markerWidth: "7", markerHeight: "7", orient: "auto-start-reverse" });
      m.append(svg("path", { d: "M0 0 L10 5 L0 10 z", fill: c }));
      defs.append(m);
    }
    root.append(defs);
    root.append(svg("rect", { x: 104, y: 102, width: W0 - 208, height: H - 190, rx: 14, class: "felt" }));
    // the riichi sticks on the table lie off the lines between the seats
    const POT = [W0 / 2 + 46, H / 2 - 30];
    if (r.payments.some((p) => p.from === null)) {
      root.append(svg("rect", { x: POT[0] - 22, y: POT[1] - 3, width: 44, height: 6, rx: 3, class: "stick" }));
      root.append(svg("circle", { cx: POT[0], cy: POT[1], r: 2, class: "stick-dot" }));
    }
    const pot = [];
    if (S.honba) pot.push(t("n_honba", { n: S.honba }));
    const sticks = tableSticks();
    if (sticks) pot.push(t("n_sticks", { n: sticks }));
    root.append(svg("text", { x: 8, y: 16, class: "corner-text" }, t("round_of", { wind: windName(S.round) })));
    if (pot.length) root.append(svg("text", { x: W0 - 8, y: 16, class: "corner-text", "text-anchor": "end" }, joinList(pot)));
    const pairs = new Map();
    for (const p of r.payments) {
      const key = `${p.from}>${p.to}`;
      if (!pairs.has(key)) pairs.set(key, { from: p.from, to: p.to, items: [] });
      pairs.get(key).items.push(p);
    }
    const labels = [];
    for (const pair of pairs.values()) {
      const [x2, y2] = pos(pair.to);
      const [x1, y1] = pair.from === null ? POT : pos(pair.from);
      // two arrows between the same two seats (noten payments both ways do not happen; several
      // winners may share a payer): each is drawn a little to the side of the line
      let dx = x2 - x1, dy = y2 - y1;
      const len = Math.hypot(dx, dy) || 1;
      const shift = pair.from !== null && pairs.has(`${pair.to}>${pair.from}`) ? 8 : 0;
      const ox = (-dy / len) * shift, oy = (dx / len) * shift;
      const cut = (hw, hh) => Math.min(Math.abs(dx) > 0.01 ? hw / Math.abs(dx) : Infinity, Math.abs(dy) > 0.01 ? hh / Math.abs(dy) : Infinity);
      const t1 = pair.from === null ? 0 : cut(bw / 2 + 4, bh / 2 + 4);
      const t2 = cut(bw / 2 + 6, bh / 2 + 6);
      const main = pair.items.find((p) => p.kind === "pao") || pair.items.find((p) => p.kind === "hand") || pair.items[0];
      const color = KIND_COLORS[main.kind] || "#333";
      root.append(svg("line", {
        x1: x1 + dx * t1 + ox, y1: y1 + dy * t1 + oy, x2: x2 - dx * t2 + ox, y2: y2 - dy * t2 + oy, stroke: color,
        "stroke-width": main.kind === "pao" ? 4 : 3, "marker-end": `url(#arrow-${main.kind in KIND_COLORS ? main.kind : "hand"})`,
        class: `arrow ${main.kind}`, "data-from": pair.from === null ? "table" : pair.from, "data-to": pair.to,
      }));
      const f = pair.from === null ? 0.35 : 0.45;
      labels.push({ x: x1 + dx * f + ox * 2, y: y1 + dy * f + oy * 2, color, lines: pair.items.map((p) => `${pts(p.points)}${p.kind === "hand" ? "" : ` ${t("short_" + p.kind)}`}`) });
      dx = 0; dy = 0;
    }
    // labels that would overlap are moved apart (by their estimated widths: fitPicture sizes each
    // box to its text once the picture is on the page)
    for (const l of labels) l.w = Math.max(...l.lines.map((s) => textWidth(s, 13))) + 12;
    labels.sort((a, b) => a.y - b.y);
    for (let i = 1; i < labels.length; i++) {
      for (let j = 0; j < i; j++) {
        const a = labels[j], b = labels[i];
        const ha = 15 * a.lines.length + 4, hb = 15 * b.lines.length + 4;
        if (Math.abs(a.x - b.x) < (a.w + b.w) / 2 + 4 && Math.abs(a.y - b.y) < (ha + hb) / 2) b.y = a.y + (ha + hb) / 2 + 2;
      }
    }
    for (const l of labels) {
      const h = 15 * l.lines.length + 4;
      const g = svg("g", { class: "amount-label", "data-x": l.x });
      g.append(svg("rect", { x: l.x - l.w / 2, y: l.y - h / 2, width: l.w, height: h, rx: 4, class: "amount-bg", stroke: l.color }));
      l.lines.forEach((s, i) => g.append(svg("text", { x: l.x, y: l.y - h / 2 + 14 + 15 * i, "text-anchor": "middle", class: "amount", fill: l.color }, s)));
      root.append(g);
    }
    // a row of badges on a seat's edge, centred on it, each the width of its text
    const badges = (x, top, height, marks) => {
      const row = svg("g", { class: "badges", "data-x": x });
      for (const [kind, text, small] of marks) {
        const box = svg("g", { class: `badge-box ${kind}` });
        box.append(svg("rect", { y: top, height, rx: height / 2, class: kind === "pao" ? "badge" : `badge ${kind}` }));
        box.append(svg("text", { y: top + height / 2 + (small ? 4 : 4.5), "text-anchor": "middle", class: small ? "badge-text small" : "badge-text" }, text));
        row.append(box);
      }
      layoutBadges(row, (e) => textWidth(e.textContent, e.classList.contains("small") ? 10.5 : 12));
      return row;
    };
    const tenpai = r.kind === "exhaustive_draw" ? S.tenpai : [];
    for (let seat = 0; seat < S.players; seat++) {
      const [x, y] = pos(seat);
      const d = scoreChange(r)[seat];
      const cls = ["seat", winners.includes(seat) ? "winner" : "", liable.has(seat) ? "liable" : "", d < 0 ? "pays" : "", d > 0 ? "gains" : ""].join(" ");
      const g = svg("g", { class: cls.replace(/\s+/g, " ").trim(), "data-seat": seat });
      g.append(svg("rect", { x: x - bw / 2, y: y - bh / 2, width: bw, height: bh, rx: 8 }));
      const label = `${windName(seatWind(seat))} · ${nameOf(seat)}`;
      const name = svg("text", { x, y: y - 9, "text-anchor": "middle", class: "seat-name", "data-full": label }, label);
      shorten(name, bw - 12, (e) => textWidth(e.textContent, 14));
      g.append(name);
      if (seat === S.dealer) g.append(badges(x, y + bh / 2 - 8, 16, [["dealer", t("dealer"), true]]));
      g.append(svg("text", { x, y: y + 15, "text-anchor": "middle", class: "delta" }, signed(d)));
      // a winner who is also liable (for another winner's yakuman) has both marks
      const marks = [];
      if (winners.includes(seat)) marks.push(["win", t("badge_winner")]);
      else if (tenpai.includes(seat)) marks.push(["win", t("badge_tenpai")]);
      if (liable.has(seat)) marks.push(["pao", t(marks.length ? "badge_pao_short" : "badge_pao")]);
      if (marks.length) g.append(badges(x, y - bh / 2 - 12, 20, marks));
      root.append(g);
    }
    return root;
  }

  // -- the score sheet ------------------------------------------------------------------------------------

  function sheetError(err) {
    const box = $("sheet-error");
    box.hidden = !err;
    if (!err) return;
    const parts = [el("strong", { text: `${t("sheet_error")}: ` }), el("span", { text: err.message }), el("code", { text: ` [${err.code}]` })];
    if (err.status === 409) parts.push(" ", el("button", { type: "button", id: "reload-game", onclick: () => openGame(game.id), text: t("reload") }));
    box.replaceChildren(...parts);
  }

  function gameItem(g) {
    const names = g.setup ? g.setup.names.filter(Boolean).join(" · ") : g.names.filter(Boolean).join(" · ");
    const title = (g.setup ? g.setup.title : g.title) || names || g.id;
    const li = el("li", { "data-game": g.id }, el("button", { type: "button", onclick: () => openGame(g.id), text: title }));
    if (g.summary) {
      const s = g.summary;
      const where = s.ended ? t("ended") : s.next ? `${roundHand(s.next.round_wind, s.next.number)} ${t("n_honba", { n: s.next.honba })}` : "";
      li.append(el("small", { text: ` ${rulesText(g.setup.rules)} · ${t("n_hands", { n: s.hands || 0 })} · ${where} · ${g.updated.replace("T", " ").slice(0, 16)}` }));
    } else {
      li.append(el("small", { text: ` · ${t(g.role === "edit" ? "edit_link" : "view_link")}` }));
    }
    return li;
  }

  // the operator pages through every game; anyone else sees the games their links open
  async function listGames(more) {
    $("new-game").hidden = !session.operator;
    $("import-box").hidden = !session.operator;
    if (!session.operator) {
      $("games-more").hidden = true;
      $("games-note").hidden = false;
      $("games-note").textContent = t(session.games.length ? "games_note_guest" : "games_note_none");
      $("games").replaceChildren(...session.games.map(gameItem));
      return;
    }
    $("games-note").hidden = true;
    let data;
    const path = more && gamesAfter ? `/api/games?after=${encodeURIComponent(gamesAfter)}` : "/api/games";
    try { data = await post(path, undefined, "GET"); } catch (e) { return sheetError(e.code ? e : { code: "network", message: e.message }); }
    gamesAfter = data.next;
    $("games-more").hidden = !data.next;
    const items = data.games.map(gameItem);
    if (more) $("games").append(...items);
    else $("games").replaceChildren(...items);
    if (!more && !data.games.length) $("games").append(el("li", { class: "note", text: t("no_games") }));
  }

  async function loadSession() {
    try { session = await post("/api/session", undefined, "GET"); } catch (e) { session = { operator: false, games: [] }; }
  }

  // the links of a game are given once, when it is started, imported or given new links: this
  // browser keeps them (as whole addresses) to show them again
  function linksOf(id) {
    try { return JSON.parse(localStorage.getItem(`tenbou-links-${id}`) || "null"); } catch (e) { return null; }
  }

  function keepLinks(id, links) {
    const whole = Object.fromEntries(Object.entries(links).map(([role, path]) => [role, new URL(path, location.href).href]));
    try { localStorage.setItem(`tenbou-links-${id}`, JSON.stringify(whole)); } catch (e) { /* storage may be off */ }
  }

  function renderLinks(g) {
    $("game-links").hidden = !session.operator;
    if (!session.operator) return;
    const links = linksOf(g.id);
    if (!links) return $("game-links-list").replaceChildren(el("p", { class: "note", text: t("links_unknown") }));
    $("game-links-list").replaceChildren(...["edit", "view"].map((role) => {
      const field = el("input", { type: "text", readonly: "", id: `link-${role}`, value: links[role] });
      return el("p", { class: "row" }, el("label", { for: `link-${role}`, text: t(`${role}_link`) }), field,
        el("button", { type: "button", class: "small", onclick: async () => {
          field.select();
          try { await navigator.clipboard.writeText(links[role]); say(t("copied")); } catch (e) { say(t("copy_selected")); }
        }, text: t("copy") }));
    }));
  }

  async function newLinks() {
    if (!window.confirm(t("confirm_new_links"))) return;
    try {
      const got = await post(`/api/games/${game.id}/links`, {});
      keepLinks(game.id, got.links);
      sheetError(null);
      renderSheet();
    } catch (e) { sheetError(e.code ? e : { code: "network", message: e.message }); }
  }

  function renderNewGame() {
    const p = preset();
    const n = S.players;
    $("new-game-rules").textContent = p ? t("new_game_rules", { rules: presetLabel(p), n, changed: Object.keys(S.overrides).length }) : "";
    const start = opt(n === 4 ? "start_points" : "sanma_start_points");
    if (document.activeElement !== $("game-start") && !$("game-start").dataset.touched) $("game-start").value = start ?? "";
    const box = $("game-names");
    if (box.children.length !== n) {
      box.replaceChildren(...[...Array(n).keys()].map((s) => el("label", {}, el("span", { text: t("name_of", { seat: s, wind: windName(WINDS[s]) }) }), el("input", { type: "text", id: `name-${s}`, maxlength: "40" }))));
    } else {
      [...box.children].forEach((lab, s) => { lab.firstChild.textContent = t("name_of", { seat: s, wind: windName(WINDS[s]) }); });
    }
  }

  async function newGame(e) {
    e.preventDefault();
    const overrides = { ...S.overrides };
    const start = Number.parseInt($("game-start").value, 10);
    const key = S.players === 4 ? "start_points" : "sanma_start_points";
    if (Number.isFinite(start) && start !== opt(key)) overrides[key] = start;
    const body = {
      rules: Object.keys(overrides).length ? { preset: S.rules, overrides } : S.rules,
      players: S.players,
      names: [...Array(S.players).keys()].map((s) => $(`name-${s}`).value.trim()),
      title: $("game-title").value.trim(),
    };
    if (body.names.every((x) => !x)) body.names = [];
    try {
      const g = await post("/api/games", body);
      sheetError(null);
      setGame(g);
      editing = null;
      startHand();
    } catch (err) { sheetError(err.code ? err : { code: "network", message: err.message }); }
  }

  async function openGame(id) {
    try {
      const g = await post(`/api/games/${id}`, undefined, "GET");
      sheetError(null);
      setGame(g);
      if (editing !== null && !g.hands[editing]) editing = null;
      update();
    } catch (e) {
      sheetError(e.code ? e : { code: "network", message: e.message });
      if (e.status === 404) { game = null; editing = null; update(); }
    }
  }

  // the game a link names, opened with the hand the link describes kept in the calculator (the
  // game's own table: rules and players)
  async function openLinked(id) {
    const keep = JSON.stringify(S);
    await openGame(id);
    if (game) S = Object.assign(JSON.parse(keep), { rules: S.rules, overrides: S.overrides, players: S.players });
  }

  function setGame(g) {
    if (g.links) keepLinks(g.id, g.links);
    game = g;
    const rules = g.setup.rules;
    S.rules = typeof rules === "string" ? rules : rules.preset;
    S.overrides = typeof rules === "string" ? {} : { ...(rules.overrides || {}) };
    S.players = g.setup.players;
    renderSheet();
  }

  // a new hand in the calculator: the game's table, nothing entered
  function startHand() {
    const keep = fresh();
    keep.rules = S.rules; keep.overrides = S.overrides; keep.players = S.players;
    S = keep;
    lastResult = null;
    setView("calc");
    update();
  }

  function handText(h) {
    if (h.kind === "win") {
      if (h.from === null) return t("sum_tsumo", { winner: nameOf(h.winners[0]) });
      return t("sum_ron", { winner: joinList(h.winners.map(nameOf)), from: nameOf(h.from) });
    }
    if (h.kind === "exhaustive_draw") {
      const tp = (h.draw && h.draw.tenpai) || [];
      return t("sum_draw", { tenpai: tp.length ? joinList(tp.map(nameOf)) : t("nobody") });
    }
    return t("sum_abort", { reason: h.reason ? t("reason_" + h.reason) : "" });
  }

  function renderSheet() {
    const g = game;
    $("game-box").hidden = !g;
    $("games-box").hidden = !!g;
    if (!g) { listGames(); renderNewGame(); return; }
    const n = g.setup.players;
    const seats = [...Array(n).keys()];
    // what this page may do with the game: view (follow it), edit (its hands), operator (all)
    const writable = g.access !== "view";
    $("game-access").hidden = g.access === "operator";
    $("game-access").textContent = g.access === "operator" ? "" : t(`access_${g.access}`);
    $("game-title-text").textContent = g.setup.title || t("game_of", { date: g.created.slice(0, 10) });
    $("game-rules").textContent = t("game_rules", { rules: rulesText(g.setup.rules) });
    const table = $("game-table");
    table.tHead.replaceChildren(el("tr", {}, el("th", { scope: "col", text: "#" }), el("th", { scope: "col", text: t("hand_col"), title: t("hand_col_help") }), el("th", { scope: "col", text: t("result_col") }),
      ...seats.map((s) => el("th", { scope: "col", class: "num", text: `${windShort(WINDS[s])} ${nameOf(s)}` })), el("th", { scope: "col", text: "" })));
    const rows = [el("tr", { class: "start" }, el("td", { text: "" }), el("td", { text: "" }), el("td", { text: t("start") }),
      ...seats.map(() => el("td", { class: "num", text: pts(g.start_points) })), el("td", { text: "" }))];
    g.hands.forEach((h, i) => {
      rows.push(el("tr", { "data-hand": i, class: editing === i ? "editing" : null },
        el("td", { text: String(i + 1) }),
        el("td", { class: "place" }, roundHand(h.round, h.number), el("br"),
          el("small", {}, ...[t("n_honba", { n: h.honba }), ...(h.riichi_sticks ? [t("n_sticks", { n: h.riichi_sticks })] : [])]
            .flatMap((x, i) => [i ? " · " : null, el("span", { class: "nowrap", text: x })]))),
        el("td", { text: handText(h) + (h.riichi.length ? ` · ${t("riichi_by", { seats: joinList(h.riichi.map(nameOf)) })}` : "") }),
        ...seats.map((s) => el("td", { class: "num", "data-seat": s },
          el("span", { class: h.score_change[s] > 0 ? "up" : h.score_change[s] < 0 ? "down" : "", text: h.deltas[s] || h.score_change[s] ? signed(h.score_change[s]) : "" }),
          el("br"), el("span", { class: "score", text: pts(h.scores[s]) }))),
        el("td", { class: "actions" }, ...(writable ? [
          el("button", { type: "button", class: "small", "aria-label": t("edit_hand", { n: i + 1 }), onclick: () => editHand(i), text: t("edit") }),
          el("button", { type: "button", class: "small", "aria-label": t("delete_hand", { n: i + 1 }), onclick: () => deleteHand(i), text: "✕" })] : []))));
    });
    table.tBodies[0].replaceChildren(...rows);
    table.tFoot.replaceChildren(el("tr", {}, el("td", { text: "" }), el("th", { scope: "row", colspan: "2", text: t("now") }),
      ...seats.map((s) => el("td", { class: "num", "data-seat": s, text: pts(g.scores[s]) })), el("td", { text: g.riichi_sticks ? t("n_sticks", { n: g.riichi_sticks }) : "" })));
    const nx = g.next;
    $("game-next").textContent = nx ? t("game_next", { round: windName(nx.round_wind), number: nx.number, honba: nx.honba, sticks: nx.riichi_sticks, dealer: nameOf(nx.dealer) }) + (g.may_end ? ` ${t("may_end")}` : "")
      : t("game_over", { why: t("ending_" + g.ending) }) + (g.end ? ` ${t("ended_by_players", { n: g.end.after + 1 })}` : "");
    // what the last write did to an end entered before it (an edit after which the rules go on)
    const removed = g.end_removed;
    $("game-note").hidden = !removed;
    $("game-note").textContent = removed ? t("end_removed", { n: removed.after + 1, why: removed.reason }) : "";
    $("game-record").hidden = !nx || !writable;
    $("game-end").hidden = !g.may_end || !writable;
    $("game-resume").hidden = !g.end || !writable;
    $("game-undo").hidden = !writable;
    $("game-undo").disabled = !g.hands.length;
    $("game-delete").hidden = g.access !== "operator";
    renderLinks(g);
    const fin = g.final;
    $("game-final").hidden = !fin;
    if (fin) {
      $("game-final").replaceChildren(el("h4", { text: g.ended ? t("final") : t("final_if") }),
        el("table", { id: "ranking" },
          el("thead", {}, el("tr", {}, el("th", { scope: "col", text: t("rank") }), el("th", { scope: "col", text: t("player") }), el("th", { scope: "col", class: "num", text: t("points") }), el("th", { scope: "col", class: "num", text: t("final_score") }))),
          el("tbody", {}, ...fin.ranking.map((s, i) => el("tr", { "data-seat": s, "data-rank": i + 1 },
            el("td", { text: String(i + 1) }), el("td", { text: nameOf(s) }), el("td", { class: "num", text: pts(fin.points[s]) }),
            el("td", { class: "num", text: (fin.final_scores[s] > 0 ? "+" : "") + fin.final_scores[s].toFixed(1) }))))));
    }
    for (const f of ["csv", "jsonl", "json"]) $(`export-${f}`).href = `/api/games/${g.id}/export.${f}`;
  }

  function editHand(i) {
    const h = game.hands[i];
    editing = i;
    S = stateFromRequest(h.request, h.riichi, { dealer: h.dealer, round_wind: h.round, honba: h.honba });
    lastResult = null;
    setView("calc");
    update();
  }

  async function deleteHand(i) {
    if (!window.confirm(t("confirm_delete_hand", { n: i + 1 }))) return;
    try {
      setGame(await post(`/api/games/${game.id}/hands/${i}?version=${game.version}`, undefined, "DELETE"));
      sheetError(null);
      if (editing !== null) editing = null;
      update();
    } catch (e) { sheetError(e.code ? e : { code: "network", message: e.message }); }
  }

  // the players end the game after its last hand, where the rules let it end or go on (may_end);
  // taken back, it goes on
  async function endGame(end) {
    try {
      const g = end
        ? await post(`/api/games/${game.id}/end`, { version: game.version })
        : await post(`/api/games/${game.id}/end?version=${game.version}`, undefined, "DELETE");
      sheetError(null);
      setGame(g);
      update();
    } catch (e) { sheetError(e.code ? e : { code: "network", message: e.message }); }
  }

  async function record() {
    if (!game) return;
    const hand = { request: endRequest(), riichi: declared() };
    try {
      const g = editing === null
        ? await post(`/api/games/${game.id}/hands`, { version: game.version, hand })
        : await post(`/api/games/${game.id}/hands/${editing}`, { version: game.version, hand }, "PUT");
      sheetError(null);
      editing = null;
      setGame(g);
      startHand();
      setView("sheet");
      update();
    } catch (e) { sheetError(e.code ? e : { code: "network", message: e.message }); }
  }

  function renderGameBar() {
    const bar = $("game-bar");
    bar.hidden = !game || view !== "calc";
    if (!game) return;
    const table = gameTable();
    $("cancel-edit").hidden = editing === null;
    $("record").hidden = !table;
    $("record").textContent = editing === null ? t("record") : t("save_edit", { n: editing + 1 });
    $("record").disabled = !!incomplete();
    if (!table) { $("game-bar-text").textContent = t("game_over", { why: t("ending_" + game.ending) }); return; }
    const what = editing === null ? t("bar_next") : t("bar_editing", { n: editing + 1 });
    const place = joinList([roundHand(table.round_wind, table.number), t("n_honba", { n: table.honba }), t("n_sticks", { n: table.carried })]);
    $("game-bar-text").textContent = `${game.setup.title || t("game_of", { date: game.created.slice(0, 10) })} · ${labelled(what, place)} · ${labelled(t("dealer"), nameOf(table.dealer))}`;
  }

  function setView(v) {
    view = v;
    $("view-calc").setAttribute("aria-pressed", String(v === "calc"));
    $("view-sheet").setAttribute("aria-pressed", String(v === "sheet"));
    document.body.dataset.view = v;
    $("input").hidden = v !== "calc";
    $("result").hidden = v !== "calc";
    $("sheet").hidden = v !== "sheet";
    if (v === "sheet") renderSheet();
    renderGameBar();
  }

  // -- wiring ---------------------------------------------------------------------------------------------

  function load(hash) {
    try {
      const got = fromHash(hash);
      if (got) {
        S = got.s;
        editing = got.edit;
        view = got.view;
        return { problem: null, game: got.game };
      }
      return { problem: null, game: null };
    } catch (e) {
      return { problem: t("bad_link", { e: e.message }), game: null };
    }
  }

  // a preset in the list: its name in the page's language, and its other name where it differs
  function presetLabel(p) {
    const other = lang === "en" ? p.name : p.name_en;
    return other === presetName(p) ? other : `${presetName(p)} — ${other}`;
  }

  function renderPresets() {
    if (!catalog) return;
    const items = catalog.presets.map((p) => [presetLabel(p), p]).sort((a, b) => a[0].localeCompare(b[0], lang));
    $("rules").replaceChildren(...items.map(([label, p]) => el("option", { value: p.id, selected: p.id === S.rules, text: label })));
  }

  function relabel() {
    translatePage();
    renderPresets();
    update();
    if (view === "sheet") renderSheet();
    if (lastResult && !incomplete()) showResult(lastResult);
  }

  async function start() {
    lang = pickLang();
    translatePage();
    const loaded = load(location.hash);
    $("palette").addEventListener("keydown", paletteKeys);
    $("lang").addEventListener("change", (e) => {
      lang = e.target.value;
      try { localStorage.setItem("tenbou-lang", lang); } catch (err) { /* storage may be off */ }
      relabel();
    });
    $("undo").addEventListener("click", () => {
      if (!undoStack.length) return say(t("nothing_undo"));
      S = JSON.parse(undoStack.pop());
      update();
    });
    $("clear").addEventListener("click", () => change(() => {
      const w = W();
      w.hand = []; w.melds = []; w.flags = []; w.kita = 0; w.pao = null; w.kanFrom = undefined;
      S.win = null; S.dora = []; S.ura = [];
    }));
    $("rules").addEventListener("change", (e) => change(() => { S.rules = e.target.value; S.overrides = {}; }));
    $("players").addEventListener("change", (e) => change(() => { S.players = Number(e.target.value); }));
    $("honba").addEventListener("change", (e) => change(() => { S.honba = Math.max(0, Number.parseInt(e.target.value, 10) || 0); }));
    $("sticks").addEventListener("change", (e) => change(() => { S.sticks = Math.max(0, Number.parseInt(e.target.value, 10) || 0); }));
    $("kita").addEventListener("change", (e) => change(() => { W().kita = Math.max(0, Number.parseInt(e.target.value, 10) || 0); }));
    $("wareme").addEventListener("change", (e) => change(() => { S.wareme = e.target.value === "" ? null : Number(e.target.value); }));
    $("reason").addEventListener("change", (e) => change(() => { S.reason = e.target.value; }));
    $("pao-mode").addEventListener("change", (e) => change(() => {
      const w = W();
      if (e.target.value === "auto") w.pao = null;
      else if (e.target.value === "none") w.pao = [];
      else {
        const yaku = lastYakuman(w.winner)[0] || (opt("pao_yaku") || ["daisangen"])[0];
        const seat = [...Array(S.players).keys()].find((s) => s !== w.winner);
        w.pao = [{ yaku, seat }];
      }
    }));
    $("pao-yaku").addEventListener("change", (e) => change(() => { W().pao[0].yaku = e.target.value; }));
    $("pao-seat").addEventListener("change", (e) => change(() => { W().pao[0].seat = Number(e.target.value); }));
    $("kanfrom").addEventListener("change", (e) => change(() => {
      const v = e.target.value;
      W().kanFrom = v === "auto" ? undefined : v === "none" ? null : Number(v);
    }));
    $("rules-panel").addEventListener("toggle", renderOptions);
    $("rules-filter").addEventListener("input", renderOptions);
    $("rules-reset").addEventListener("click", () => { change(() => { S.overrides = {}; }); });
    // the text is the hand already entered (after unreadable text: back to it): draw it again
    const again = () => { if ($("picture").dataset.stale) update(); };
    const apply = () => {
      if ($("notation").value.trim() === notation(W())) return again();
      try {
        const parsed = parseNotation($("notation").value);
        // the same hand written otherwise (e.g. "789s23s" for "23789s"): nothing to change, and no
        // redraw under a click that is moving the focus away
        const same = formatTiles(parsed.hand) === formatTiles(W().hand) && parsed.win === S.win
          && parsed.melds.map(meldText).join(" ") === W().melds.map(meldText).join(" ");
        if (same) return again();
        change(() => { W().hand = parsed.hand; S.win = parsed.win; W().melds = parsed.melds; });
        $("error").hidden = true;
      } catch (e) {
        showResult(null, { code: "notation", message: e.message });
        // the picture would show the hand before as if it were this text: hidden until a change
        $("picture").dataset.stale = "true";
        $("picture-note").hidden = false;
        $("picture-note").textContent = t("picture_stale");
      }
    };
    $("notation").addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); apply(); } });
    $("notation").addEventListener("change", apply);
    $("copy-link").addEventListener("click", async () => {
      $("link").select();
      try {
        await navigator.clipboard.writeText(location.href);
        say(t("copied"));
      } catch (e) {
        say(t("copy_selected"));
      }
    });
    $("summary").addEventListener("click", () => { $("result").scrollIntoView({ block: "start" }); });
    $("view-calc").addEventListener("click", () => { setView("calc"); update(); });
    $("view-sheet").addEventListener("click", () => { setView("sheet"); update(); });
    $("new-game").addEventListener("submit", newGame);
    $("import").addEventListener("change", async (e) => {
      const file = e.target.files[0];
      if (!file) return;
      try {
        const g = await post("/api/games/import", JSON.parse(await file.text()));
        sheetError(null);
        setGame(g);
        update();
      } catch (err) { sheetError(err.code ? err : { code: "request", message: err.message }); }
      e.target.value = "";
    });
    $("game-start").addEventListener("input", () => { $("game-start").dataset.touched = "1"; });
    $("games-more").addEventListener("click", () => listGames(true));
    $("game-new-links").addEventListener("click", newLinks);
    $("record").addEventListener("click", record);
    $("cancel-edit").addEventListener("click", () => { editing = null; startHand(); setView("sheet"); update(); });
    $("to-sheet").addEventListener("click", () => { setView("sheet"); update(); });
    $("game-record").addEventListener("click", () => { editing = null; startHand(); });
    $("game-undo").addEventListener("click", () => deleteHand(game.hands.length - 1));
    $("game-end").addEventListener("click", () => endGame(true));
    $("game-resume").addEventListener("click", () => endGame(false));
    $("game-close").addEventListener("click", () => { game = null; editing = null; renderSheet(); update(); });
    $("game-delete").addEventListener("click", async () => {
      if (!window.confirm(t("confirm_delete_game"))) return;
      try {
        await post(`/api/games/${game.id}?version=${game.version}`, undefined, "DELETE");
        game = null; editing = null; sheetError(null); renderSheet(); update();
      } catch (e) { sheetError(e.code ? e : { code: "network", message: e.message }); }
    });
    window.addEventListener("hashchange", async () => {
      if (location.hash === "#" + toHash()) return;
      const again = load(location.hash);
      if (again.game) {
        if (!game || game.id !== again.game) await openLinked(again.game);
      } else if (game && !again.problem) {
        game = null; editing = null; renderSheet();  // a link without a game: the calculator alone
      }
      setView(view);
      update();
      if (again.problem) showResult(null, { code: "link", message: again.problem });
    });
    await loadSession();
    try {
      const res = await fetch("/api/rules");
      catalog = await res.json();
    } catch (e) {
      showResult(null, { code: "network", message: t("no_rules", { e: e.message }) });
    }
    if (catalog) {
      if (!catalog.presets.some((p) => p.id === S.rules)) {
        const alias = catalog.presets.find((p) => p.aliases.map((a) => a.toLowerCase()).includes(S.rules.toLowerCase()));
        S.rules = alias ? alias.id : catalog.default;
      }
      renderPresets();
    }
    if (loaded.game) await openLinked(loaded.game);
    setView(view);
    update();
    if (loaded.problem) showResult(null, { code: "link", message: loaded.problem });
    document.body.dataset.ready = "true";
  }

  start();
})();
