"""The score sheet's operations (:class:`GameService`) on the games of a
:class:`~tenbou.web.store.GameStore`: every write replays the game with the change
(:func:`tenbou.web.sheet.replay`) and keeps it only if the replay succeeds and the game is still
at the version the change was made on. Each operation is given the request's
:class:`~tenbou.web.access.Grants` and refuses what they do not allow (:class:`ForbiddenError`):
reading a game needs its view link, changing it its edit link, and listing, starting, importing
and deleting games the operator. Plain Python (no FastAPI)."""

import json
from collections.abc import Callable, Mapping
from typing import Any, Final

from ..errors import RequestError, shown
from . import sheet as sheets
from .access import ForbiddenError, Grants, Role
from .store import ConflictError, GameStore, NoSuchGameError, StoredGame

__all__ = ["EXPORTS", "MAX_PAGE", "Edit", "GameService", "join_path"]

#: the most games in one page of the list (``?limit=``; 50 when not given)
MAX_PAGE: Final = 500
#: the formats of a game's export: media type of each
EXPORTS: Final = {
    "json": "application/json",
    "jsonl": "application/jsonl; charset=utf-8",
    "csv": "text/csv; charset=utf-8",
}


def join_path(key: str) -> str:
    """The path of a game's link (``/join/KEY``): the server answers it with the game's cookie
    and the page (docs/web.md, "Who may do what")."""
    return f"/join/{key}"


def _game_doc(game: StoredGame, sheet: Mapping[str, Any], access: Role) -> dict[str, Any]:
    doc = {
        "id": game.id,
        "version": game.version,
        "created": game.created,
        "updated": game.updated,
        **sheet,
        "access": access,
    }
    if game.keys is not None:
        doc["links"] = {role: join_path(key) for role, key in game.keys.items()}
    return doc


def _operator(grants: Grants, what: str) -> None:
    if not grants.operator:
        raise ForbiddenError(f"{what} needs the operator's password")


def _summary(sheet: Mapping[str, Any]) -> dict[str, Any]:
    """What the list of games shows of one, kept beside it (recomputed at every write)."""
    nxt = sheet["next"]
    return {
        "hands": len(sheet["hands"]),
        "scores": sheet["scores"],
        "ended": sheet["ended"],
        "next": None if nxt is None else {k: nxt[k] for k in ("round_wind", "number", "honba")},
    }


def _version(body: Mapping[str, Any] | None, query: str | None = None) -> int:
    """The ``version`` a write was made on: in the body, or the query (``?version=N``)."""
    if body is not None:
        if "version" not in body:
            raise RequestError("version: missing (the version of the game this change was made on)")
        value = body["version"]
        if type(value) is not int or value < 1:
            raise RequestError(
                f"version: expected the game's version (an integer from 1), not {shown(value)}"
            )
        return value
    if query is None or not query.isdigit() or len(query) > 18 or int(query) < 1:
        raise RequestError(
            "version: expected ?version=N, the version of the game this change was made on, "
            f"not {shown(query)}"
        )
    return int(query)


def _body_fields(body: object, allowed: tuple[str, ...]) -> Mapping[str, Any]:
    if not isinstance(body, Mapping):
        raise RequestError(
            f"the request body must be a JSON object with {', '.join(allowed)}, not {shown(body)}"
        )
    for key in body:
        if key not in allowed:
            raise RequestError(f"unknown field {shown(key)} (expected {', '.join(allowed)})")
    return body


#: a change to a game's hands: it edits the list in place and returns the game's end after it
#: (the index of the hand after which the players ended the game, or ``None``) and, where the
#: change removed the end, why
Edit = Callable[[list[dict[str, Any]], int | None], tuple[int | None, str | None]]


class GameService:
    """The score sheet's operations on a :class:`~tenbou.web.store.GameStore`: every write
    replays the game with the change (:func:`tenbou.web.sheet.replay`) and keeps it only if the
    replay succeeds and the game is still at the version the change was made on.

    The end of a game entered by the players (:meth:`end_game`) follows the hand it was entered
    after: a hand inserted or removed before it moves it; removing that hand removes the end;
    after any change to the hands it must still be allowed where it is (the rules let the game
    end or go on there), or it is removed and the game goes on -- the answer says so in
    ``end_removed`` (``after``, ``reason``)."""

    def __init__(self, store: GameStore, *, max_games: int | None = None) -> None:
        self.store = store
        self.max_games = max_games

    def sheet(self, game: StoredGame) -> dict[str, Any]:
        return sheets.replay(game.setup, game.hands, game.end)

    def session(self, grants: Grants) -> dict[str, Any]:
        """What the request may do: ``operator`` (everything), and the games its links open, each
        with its role (``view`` or ``edit``), as ``[{"id", "role", "title", "names"}]``."""
        games = []
        for game_id, role in sorted(grants.games.items()):
            try:
                setup = self.store.get(game_id).setup
            except NoSuchGameError:
                continue
            games.append({"id": game_id, "role": role, "title": setup["title"], "names": setup["names"]})
        return {"operator": grants.operator, "games": games}

    def page(self, grants: Grants, limit: str | None = None, after: str | None = None) -> dict[str, Any]:
        """One page of the games, the latest changed first (the operator's): ``games`` and
        ``next``, the ``after`` of the next page (``null`` after the last)."""
        _operator(grants, "the list of games")
        if limit is None:
            count = 50
        elif limit.isdigit() and len(limit) < 6 and 1 <= int(limit) <= MAX_PAGE:
            count = int(limit)
        else:
            raise RequestError(f"limit: expected a number of games from 1 to {MAX_PAGE}, not {limit[:20]!r}")
        games, nxt = self.store.list(count, after)
        return {"games": games, "next": nxt}

    def doc(self, game_id: str, grants: Grants) -> dict[str, Any]:
        access = grants.require(game_id, "view", "reading this game")
        game = self.store.get(game_id)
        return _game_doc(game, self.sheet(game), access)

    def export(self, game_id: str, fmt: str, grants: Grants) -> bytes:
        """The game exported as ``fmt`` (:data:`EXPORTS`), encoded: nothing of its links' keys."""
        grants.require(game_id, "view", "exporting this game")
        game = self.store.get(game_id)
        sheet = self.sheet(game)
        if fmt == "csv":
            text = sheets.export_csv(sheet)
        elif fmt == "jsonl":
            text = sheets.export_jsonl(sheet)
        else:
            doc = sheets.export_json(game.setup, game.hands, sheet)
            text = json.dumps(doc, ensure_ascii=False, indent=1)
        return text.encode("utf-8", "backslashreplace")

    def create(self, body: object, grants: Grants) -> dict[str, Any]:
        _operator(grants, "starting a game")
        setup = sheets.read_setup(body)
        sheet = sheets.replay(setup, [])
        game = self.store.create(setup, _summary(sheet), limit=self.max_games)
        return _game_doc(game, sheet, "operator")

    def import_game(self, body: object, grants: Grants) -> dict[str, Any]:
        _operator(grants, "importing a game")
        setup, hands, end = sheets.read_export(body)
        sheet = sheets.replay(setup, hands, end)
        if isinstance(body, Mapping):
            sheets.check_export(body, sheet)
        game = self.store.create(
            setup, _summary(sheet), sheets.stored_hands(sheet), end, limit=self.max_games
        )
        return _game_doc(game, sheet, "operator")

    def new_links(self, game_id: str, grants: Grants) -> dict[str, Any]:
        """New links for the game (the operator's): the old ones stop working."""
        _operator(grants, "new links for a game")
        keys = self.store.new_keys(game_id)
        return {"id": game_id, "links": {role: join_path(key) for role, key in keys.items()}}

    def join(self, key: str) -> tuple[str, str]:
        """The game and role of a link's key (:class:`~tenbou.web.access.UnauthorizedError` is
        the guard's, which has let only a good key through)."""
        found = self.store.key_access([key])
        if key not in found:
            raise NoSuchGameError("this link opens no game (it was deleted, or its links were renewed)")
        return found[key]

    def change(
        self, game_id: str, version: int, edit: Edit, grants: Grants, *, drop_end: bool = True
    ) -> dict[str, Any]:
        """Apply ``edit`` to the game's hands and end, replay, and keep the result. With
        ``drop_end`` (a change to the hands) an end that the rules no longer allow where it is
        is removed; without (a change to the end itself) it is refused. The answer is the game
        as this write committed it."""
        access = grants.require(game_id, "edit", "changing this game")
        game = self.store.get(game_id)
        if game.version != version:
            raise ConflictError(
                f"the game was changed elsewhere (it is at version {game.version}, this change was made "
                f"on version {version}): reload it"
            )
        hands = [dict(h) for h in game.hands]
        end, removed = edit(hands, game.end)
        sheet = sheets.replay(game.setup, hands, end, drop_end=drop_end)
        stored = self.store.write(
            game_id,
            version,
            sheets.stored_hands(sheet),
            _summary(sheet),
            end=None if sheet["end"] is None else sheet["end"]["after"],
        )
        if removed is not None:
            sheet["end_removed"] = {"after": game.end, "reason": removed}
        elif "end_removed" in sheet:  # (where the end was before the change, as the page showed it)
            sheet["end_removed"]["after"] = game.end
        return _game_doc(stored, sheet, access)

    def add_hand(self, game_id: str, body: object, grants: Grants) -> dict[str, Any]:
        fields = _body_fields(body, ("version", "hand", "at"))
        hand = sheets.read_hand(fields.get("hand"))

        def edit(hands: list[dict[str, Any]], end: int | None) -> tuple[int | None, str | None]:
            at = fields.get("at", len(hands))
            if type(at) is not int or not 0 <= at <= len(hands):
                raise RequestError(f"at: expected a place 0..{len(hands)} among the hands, not {shown(at)}")
            hands.insert(at, hand)
            # (a hand after the end is refused by the replay: the game ended there)
            return (end + 1 if end is not None and at <= end else end), None

        return self.change(game_id, _version(fields), edit, grants)

    def put_hand(self, game_id: str, index: int, body: object, grants: Grants) -> dict[str, Any]:
        fields = _body_fields(body, ("version", "hand"))
        hand = sheets.read_hand(fields.get("hand"))

        def edit(hands: list[dict[str, Any]], end: int | None) -> tuple[int | None, str | None]:
            hands[self._index(index, hands)] = hand
            return end, None

        return self.change(game_id, _version(fields), edit, grants)

    def delete_hand(self, game_id: str, index: int, version: str | None, grants: Grants) -> dict[str, Any]:
        def edit(hands: list[dict[str, Any]], end: int | None) -> tuple[int | None, str | None]:
            del hands[self._index(index, hands)]
            if end is None or index > end:
                return end, None
            if index == end:
                return None, f"hands[{index}], the hand it was entered after, was removed"
            return end - 1, None

        return self.change(game_id, _version(None, version), edit, grants)

    def end_game(self, game_id: str, body: object, grants: Grants) -> dict[str, Any]:
        """End the game after its last hand, where the rules let it end or go on (``may_end``)."""
        fields = _body_fields(body, ("version",))

        def edit(hands: list[dict[str, Any]], end: int | None) -> tuple[int | None, str | None]:
            if end is not None:
                raise RequestError(f"end: the game was already ended after hands[{end}]")
            if not hands:
                raise RequestError("end: the game has no hands yet (it can end only after a hand)")
            return len(hands) - 1, None

        return self.change(game_id, _version(fields), edit, grants, drop_end=False)

    def resume_game(self, game_id: str, version: str | None, grants: Grants) -> dict[str, Any]:
        """Remove the end the players entered: the game goes on after its last hand."""

        def edit(hands: list[dict[str, Any]], end: int | None) -> tuple[int | None, str | None]:
            if end is None:
                raise NoSuchGameError(
                    "the game has no end entered (it goes on, or it ended by the rules and cannot go on)"
                )
            return None, None

        return self.change(game_id, _version(None, version), edit, grants)

    def delete(self, game_id: str, version: str | None, grants: Grants) -> dict[str, Any]:
        _operator(grants, "deleting a game")
        self.store.delete(game_id, _version(None, version))
        return {"deleted": game_id}

    @staticmethod
    def _index(index: int, hands: list[dict[str, Any]]) -> int:
        if not 0 <= index < len(hands):
            raise NoSuchGameError(f"no hand {index} (the game has {len(hands)} hands, 0..{len(hands) - 1})")
        return index
