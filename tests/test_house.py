"""The house keeps its shape (docs/explain/architecture.md): read from the code's own imports.

An AST walk over the five packages finds every import of a `skald.` module, those inside
functions and `if TYPE_CHECKING:` blocks included (a deferred import is still an edge), and
checks: no import circle; no arrow up the floors (events, core, projections, api and cli);
every module of a game in that game's folders; nothing shared importing a game's module
(games are reached by name, through the registries); the bots reading views, never a
game's state; and the checklist of a game's files, on both sides, met by every game, its
pieces by the toy game too.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

import tests.toy_game as toy
from skald.core.rules import get_rules
from skald.projections.registry import READING_SIDES, views_for

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("events", "core", "projections", "api", "cli")
"""The floors, lowest first: a module imports only from its own floor or those below."""
GAMES = ("beowulf", "beast", "hagar")
ARCHITECTURE = ROOT / "docs" / "explain" / "architecture.md"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(["skald", *parts])


@cache
def modules() -> dict[str, Path]:
    return {
        module_name(path): path for package in PACKAGES for path in (ROOT / package).rglob("*.py")
    }


def _resolve(name: str) -> str | None:
    known = modules()
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name or None


def imported(module: str) -> Iterator[str]:
    """Every skald module `module` imports, anywhere in its file."""
    path = modules()[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            names = [f"{base}.{alias.name}" for alias in node.names]
        else:
            continue
        for name in names:
            target = _resolve(name) if name.startswith("skald.") else None
            if target is not None and target != module:
                yield target


@cache
def graph() -> dict[str, frozenset[str]]:
    return {module: frozenset(imported(module)) for module in modules()}


def circles(edges: dict[str, frozenset[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in edges:
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def game_of(module: str) -> str | None:
    """The game whose folders hold `module` (skald.core.beast.x, skald.events.hagar, ...)."""
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[2] in GAMES else None


def test_the_walk_sees_deferred_and_type_checking_imports(tmp_path: Path) -> None:
    """The checker itself: a circle made only of a deferred import and a TYPE_CHECKING
    import is found, as is a three-module one; a chain is not a circle."""
    edges = {"a": frozenset({"b"}), "b": frozenset({"c"}), "c": frozenset({"a"}), "d": frozenset()}
    assert circles(edges) == [["a", "b", "c"]]
    assert circles({"a": frozenset({"b"}), "b": frozenset()}) == []
    source = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import skald.core.rules\n"
    source += "def f():\n    from skald.core import engine\n"
    probe = ROOT / "core" / "_house_probe.py"
    try:
        probe.write_text(source, encoding="utf-8")
        modules.cache_clear()
        assert set(imported("skald.core._house_probe")) == {"skald.core.rules", "skald.core.engine"}
    finally:
        probe.unlink()
        modules.cache_clear()


def test_no_import_circles() -> None:
    assert circles(graph()) == []


def test_no_import_points_up_a_floor() -> None:
    floor = {package: level for level, package in enumerate(PACKAGES)}
    upward = [
        f"{module} -> {target}"
        for module, targets in graph().items()
        for target in targets
        if floor[target.split(".")[1]] > floor[module.split(".")[1]]
    ]
    assert upward == []


def test_every_module_of_a_game_is_in_that_games_folders() -> None:
    """A module named for a game (`beast_paths`, `greedy_hagar`, `boards/beowulf`) lives in
    core/<game>/, projections/<game>/ or is events/<game>.py."""
    stray = [
        module
        for module in modules()
        if game_of(module) is None
        and any(
            re.search(rf"(^|_){game}(_|$)", part)
            for part in module.split(".")[1:]
            for game in GAMES
        )
    ]
    assert stray == []


def test_nothing_shared_imports_a_game() -> None:
    """Shared code on the engine and reading sides reaches a game by name (core.rules,
    projections.registry), never by importing it; a game imports only its own modules
    and shared ones."""
    crossing = [
        f"{module} -> {target}"
        for module, targets in graph().items()
        if module.split(".")[1] in ("events", "core", "projections")
        for target in targets
        if game_of(target) is not None and game_of(target) != game_of(module)
    ]
    assert crossing == []


def test_bots_read_views_not_states() -> None:
    """A bot is a player: the driver and each game's heuristic import the table facade, a
    seat's view and the game's printed data, never the engine, the store, or a rules state."""
    bots = [m for m in modules() if m.startswith("skald.projections.bots")]
    bots += [f"skald.projections.{game}.bot" for game in GAMES]
    forbidden = re.compile(
        r"skald\.core\.(engine|store|state|kernel|\w+\.state|\w+\.evolve|\w+\.decide)(\.|$)"
    )
    reading = {bot: sorted(t for t in graph()[bot] if forbidden.match(t)) for bot in bots}
    assert all(not found for found in reading.values()), reading
    assert "skald.projections.table" in graph()["skald.projections.bots.autoplay"]


def checklist() -> list[tuple[str, str, str]]:
    """The checklist of a game's files (architecture.md, 'Adding a game'): (side, file,
    the pieces it holds, as `name` in backticks)."""
    text = ARCHITECTURE.read_text(encoding="utf-8")
    table = text.split("<!-- checklist -->")[1]
    rows = []
    for line in table.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 3 and cells[0].startswith("`") and cells[0].endswith("`"):
            rows.append((cells[0].strip("`"), cells[1], cells[2]))
    return rows


def test_the_checklist_is_there() -> None:
    files = [path for path, _, _ in checklist()]
    assert "core/<game>/rules.py" in files
    assert "projections/<game>/view.py" in files
    assert len(files) >= 15


@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_every_file_of_the_checklist(game: str) -> None:
    missing = []
    for path, _, _ in checklist():
        place = ROOT / path.replace("<game>", game)
        if not (place.exists() or place.with_suffix("").is_dir()):
            missing.append(str(place.relative_to(ROOT)))
    assert missing == []
    assert READING_SIDES[game] == f"skald.projections.{game}"


def test_the_toy_game_has_every_piece_the_checklist_names() -> None:
    """The toy game (tests/toy_game.py) is one file, the smallest complete game: it holds
    every required piece the checklist names (a piece marked optional the registry can do
    without: the toy has no board, narrative or bot)."""
    rules = get_rules("toy")
    views = views_for("toy")
    owners = {"rules": rules, "views": views, "module": toy}
    missing = []
    for path, pieces, _ in checklist():
        if "optional" in pieces:
            continue
        for owner, name in re.findall(r"(\w+)\.(\w+)", pieces):
            if owner in owners and not hasattr(owners[owner], name):
                missing.append(f"{path}: {owner}.{name}")
    assert missing == []
    assert any("rules." in pieces for _, pieces, _ in checklist())
    assert any("views." in pieces for _, pieces, _ in checklist())
