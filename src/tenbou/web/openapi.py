"""What the OpenAPI document (``/openapi.json``) says of the JSON routes beyond their paths: the
request examples (the seeds' daisangen with pao, a riichi pinfu, a double ron, a draw) and the
schemas of results and errors. Plain data, no FastAPI."""

from typing import Any

__all__ = ["ERROR_422", "REQUEST_SCHEMA", "RESULT_SCHEMA", "SCORE_EXAMPLES", "SETTLE_EXAMPLES"]

_DAISANGEN: dict[str, Any] = {
    "rules": "tenhou",
    "dealer": 0,
    "round_wind": "E",
    "winner": 1,
    "from": 2,
    "hand": "23m55p",
    "win_tile": "4m",
    "melds": [
        {"type": "pon", "tiles": "555z", "from": 2},
        {"type": "pon", "tiles": "666z", "from": 0},
        {"type": "pon", "tiles": "777z", "from": 3},
    ],
}
SCORE_EXAMPLES: dict[str, Any] = {
    "daisangen_pao_ron": {
        "summary": "Daisangen with pao, ron by another player",
        "description": "Seat 3 gave the third dragon pon: seat 3 and the discarder (seat 2) pay half each.",
        "value": _DAISANGEN,
    },
    "riichi_pinfu": {
        "summary": "Riichi pinfu, ron",
        "value": {
            "rules": "tenhou",
            "dealer": 0,
            "winner": 1,
            "from": 0,
            "hand": "234m456678p5578s",
            "win_tile": "9s",
            "riichi": True,
            "dora_indicators": ["1p"],
        },
    },
}
SETTLE_EXAMPLES: dict[str, Any] = {
    "daisangen_and_pinfu": {
        "summary": "A double ron, one of them with pao",
        "value": {
            "rules": "tenhou",
            "dealer": 0,
            "honba": 1,
            "riichi_sticks": 1,
            "wins": [
                {k: v for k, v in _DAISANGEN.items() if k not in ("rules", "dealer", "round_wind")},
                {
                    "winner": 3,
                    "from": 2,
                    "hand": "123m456p789s23s55s",
                    "win_tile": "4s",
                    "riichi": True,
                },
            ],
        },
    },
    "exhaustive_draw": {
        "summary": "An exhaustive draw, two players tenpai",
        "value": {"rules": "tenhou", "dealer": 0, "draw": {"kind": "exhaustive", "tenpai": [0, 2]}},
    },
}
_ERROR_SCHEMA = {
    "type": "object",
    "required": ["error"],
    "properties": {
        "error": {
            "type": "object",
            "required": ["code", "message"],
            "properties": {
                "code": {"type": "string", "description": "stable, machine-readable (e.g. notation)"},
                "message": {"type": "string", "description": "for people; names the field or tile"},
            },
        }
    },
}
ERROR_422: dict[int | str, dict[str, Any]] = {
    422: {
        "description": "Bad input: the error names the offending field or tile",
        "content": {
            "application/json": {
                "schema": _ERROR_SCHEMA,
                "example": {
                    "error": {
                        "code": "notation",
                        "message": "hand: '8z' is not a tile (honours are 1z-7z) in '1238z'",
                    }
                },
            }
        },
    }
}
RESULT_SCHEMA = {"type": "object", "description": "the result object of docs/json-api.md"}
REQUEST_SCHEMA = {"type": "object", "description": "the request object of docs/json-api.md"}
