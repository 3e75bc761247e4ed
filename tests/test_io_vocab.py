"""Each vocabulary has one home, and every other table is derived from it: tenbou's names of the
draws (``tenbou.rules``: the values of ``abortive_draws``, the triple ron, nagashi mangan), mjai's
words for them (``tenbou.engine.events``), and each file format's own words in its ``vocab`` module
(mjlog draw types, tenhou.net/6 result texts). Each format's table names every draw tenbou names,
once, and a reader gives back the name a writer was given."""

from __future__ import annotations

import pytest

from tenbou.api import settle
from tenbou.core.yaku import YAKU_BY_ID
from tenbou.engine.draws import ABORT_REASONS
from tenbou.engine.events import _REASONS, DRAW_OF_MJAI, MJAI_DRAW_REASONS, MJAI_EXHAUSTIVE, event_from_json
from tenbou.io.mjlog import vocab as mjlog_vocab
from tenbou.io.record import HandEnd
from tenbou.io.tenhou6 import ABORT_TEXTS, YAKU_NAMES
from tenbou.io.tenhou6 import vocab as tenhou6_vocab
from tenbou.io.tenhou6.write import _result
from tenbou.rules import ABORTIVE_DRAWS, DRAW_REASONS, NAGASHI_MANGAN

#: every draw tenbou has a name for
NAMED = (*DRAW_REASONS, NAGASHI_MANGAN)

#: each format's table of tenbou's names to its words
FORMAT_TABLES = {
    "mjai": MJAI_DRAW_REASONS,
    "mjlog": mjlog_vocab.RYUUKYOKU_BY_NAME,
    "tenhou6": tenhou6_vocab.DRAW_TEXTS,
}


def test_tenbous_names_are_the_options_and_the_triple_ron() -> None:
    assert DRAW_REASONS[:-1] == ABORTIVE_DRAWS and DRAW_REASONS[-1] == "sanchahou"
    assert NAGASHI_MANGAN not in DRAW_REASONS


@pytest.mark.parametrize("fmt", sorted(FORMAT_TABLES))
def test_each_format_names_every_draw_once(fmt: str) -> None:
    table = FORMAT_TABLES[fmt]
    assert sorted(table) == sorted(NAMED)
    assert len(set(table.values())) == len(table), f"{fmt} gives two draws one word"


def test_the_derived_tables_keep_their_shapes() -> None:
    # frozen as they were written out by hand before they were derived
    assert ABORT_REASONS == {
        "kyuushu_kyuuhai": "kyushukyuhai", "suufon_renda": "suufonrenda", "suucha_riichi": "suuchariichi",
        "suukaikan": "suukaikan", "sanchahou": "sanchaho",
    }  # fmt: skip
    assert mjlog_vocab.RYUUKYOKU_TYPES == {
        "yao9": ("kyushukyuhai", "kyuushu_kyuuhai"), "kaze4": ("suufonrenda", "suufon_renda"),
        "reach4": ("suuchariichi", "suucha_riichi"), "ron3": ("sanchaho", "sanchahou"),
        "kan4": ("suukaikan", "suukaikan"), "nm": ("nagashimangan", "nagashi_mangan"),
    }  # fmt: skip
    assert list(mjlog_vocab.RYUUKYOKU_TYPES) == ["yao9", "kaze4", "reach4", "ron3", "kan4", "nm"]
    assert ABORT_TEXTS == {
        "流局": (None, None, "exhaustive_draw"), "全員聴牌": (None, None, "exhaustive_draw"),
        "全員不聴": (None, None, "exhaustive_draw"),
        "流し満貫": ("nagashimangan", "nagashi_mangan", "exhaustive_draw"),
        "九種九牌": ("kyushukyuhai", "kyuushu_kyuuhai", "abortive_draw"),
        "四家立直": ("suuchariichi", "suucha_riichi", "abortive_draw"),
        "四風連打": ("suufonrenda", "suufon_renda", "abortive_draw"),
        "四槓散了": ("suukaikan", "suukaikan", "abortive_draw"),
        "三家和了": ("sanchaho", "sanchahou", "abortive_draw"),
    }  # fmt: skip


@pytest.mark.parametrize("name", NAMED)
def test_every_format_reads_back_the_name_it_writes(name: str) -> None:
    mjai = MJAI_DRAW_REASONS[name]
    assert DRAW_OF_MJAI[mjai] == name
    kind = "abortive_draw" if name in DRAW_REASONS else "exhaustive_draw"
    # mjlog: the type a writer puts on RYUUKYOKU is the one its reader knows, as the same draw
    assert mjlog_vocab.RYUUKYOKU_TYPES[mjlog_vocab.RYUUKYOKU_BY_NAME[name]] == (mjai, name)
    # tenhou.net/6: the writer's result text, read as the same draw of the same kind
    text = _result(HandEnd(kind, (), name, (0, 0, 0, 0)), 0, 0, 4)[0]
    assert text == tenhou6_vocab.DRAW_TEXTS[name] and ABORT_TEXTS[text] == (mjai, name, kind)
    # an mjai line may give tenbou's own name, or jansou's kind (an mjlog type): each is mjai's reason
    for word in (name, mjai, mjlog_vocab.RYUUKYOKU_BY_NAME[name]):
        assert _REASONS[word] == mjai
        event = event_from_json({"type": "ryukyoku", "reason": word})
        assert getattr(event, "reason", None) == mjai


def test_a_plain_exhaustive_draw_has_mjais_word_only() -> None:
    assert MJAI_EXHAUSTIVE not in DRAW_OF_MJAI
    for text, (reason, name, kind) in ABORT_TEXTS.items():
        if name is None:
            assert reason is None and kind == "exhaustive_draw" and _REASONS[text] == MJAI_EXHAUSTIVE


@pytest.mark.parametrize("reason", DRAW_REASONS)
def test_a_settle_request_takes_every_abortive_draw(reason: str) -> None:
    out = settle({"draw": {"kind": "abortive", "reason": reason}, "dealer": 0})
    assert out["reason"] == reason


#: tenhou.net/6's yaku names as they were written out before they came from the yaku table
OLD_YAKU_NAMES = {
    "menzen_tsumo": "門前清自摸和", "riichi": "立直", "ippatsu": "一発", "chankan": "槍槓",
    "rinshan": "嶺上開花", "haitei": "海底摸月", "houtei": "河底撈魚", "pinfu": "平和",
    "tanyao": "断幺九", "iipeikou": "一盃口", "haku": "役牌 白", "hatsu": "役牌 發", "chun": "役牌 中",
    "double_riichi": "両立直", "chiitoitsu": "七対子", "chanta": "混全帯幺九", "ittsu": "一気通貫",
    "sanshoku": "三色同順", "sanshoku_doukou": "三色同刻", "sankantsu": "三槓子", "toitoi": "対々和",
    "sanankou": "三暗刻", "shousangen": "小三元", "honroutou": "混老頭", "ryanpeikou": "二盃口",
    "junchan": "純全帯幺九", "honitsu": "混一色", "chinitsu": "清一色", "renhou": "人和",
    "tenhou": "天和", "chiihou": "地和", "daisangen": "大三元", "suuankou": "四暗刻",
    "suuankou_tanki": "四暗刻単騎", "tsuuiisou": "字一色", "ryuuiisou": "緑一色", "chinroutou": "清老頭",
    "chuuren": "九蓮宝燈", "junsei_chuuren": "純正九蓮宝燈", "kokushi": "国士無双",
    "kokushi_13": "国士無双１３面", "daisuushii": "大四喜", "shousuushii": "小四喜", "suukantsu": "四槓子",
    "dora": "ドラ", "ura_dora": "裏ドラ", "aka_dora": "赤ドラ", "kita": "抜きドラ",
    "renhou_yakuman": "人和",
}  # fmt: skip


def test_tenhou6_yaku_names_come_from_the_yaku_table() -> None:
    assert YAKU_NAMES == OLD_YAKU_NAMES
    # only Tenhou's own spellings are data of the format: the rest is the yaku's name_ja
    own = {k: v for k, v in YAKU_NAMES.items() if YAKU_BY_ID[k].name_ja != v}
    assert own == tenhou6_vocab.TENHOU_SPELLINGS
    assert sorted(own) == ["double_riichi", "kokushi_13"]
