"""Who takes the first seat at each two-player table of a round robin's fixed schedule.

The circle method (pairing.circle) fixes who meets whom in every round, so only the seat
order of each game is left to choose. Choosing it one round at a time (the fewest first
seats, then the standings) can be unfair: with 3 players at tables of 2 it made one player
the Beast in both their games and another never, though a cycle (A over B, C over A, B
over C) gives everyone one. So each round is seated with the rest of the schedule in view,
aiming for the first of these that the schedule still allows:

1. After every round left, every player's first-seat count is within one of the
   others' (so after the last one too, and all equal when the games divide evenly).
2. After the last round, the counts are as close as they can be: every player within
   [L, L + s] for the smallest s (a withdrawal, say, left them uneven).
The round's tables are then seated one at a time as the fewest-first-seats rule (then the
standings) would have it, unless that makes the aim unreachable; then the other way round.
Each round keeps its aim reachable, so the last round ends on it (the schedule left is
read anew each round, so a withdrawal only changes the aim from then on).

Whether an aim is reachable is a flow problem: one unit for each game left, going to the
player it seats first, in the game's round; a player's units accumulate from round to
round along arcs whose bounds are that round's [low, high] less the first seats already
had. A circulation meeting every arc's lower and upper bound (found by the standard
reduction to a maximum flow) exists exactly when the aim is reachable.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping, Sequence

Game = tuple[str, str]
Bounds = list[tuple[int, int]]  # per round left: every player's count after it in [low, high]


def seat_first(
    schedule: Sequence[Sequence[Game]], first_seats: Mapping[str, int], players: Sequence[str]
) -> list[Game]:
    """The first round of `schedule` (the rounds left, in order) with each game's players
    in seat order; `players` are everyone still in, standings order (the tie-break)."""
    counts = {p: first_seats.get(p, 0) for p in players}
    rounds = [list(paired) for paired in schedule]
    bounds = _within_one(counts, rounds)
    if not _reachable(rounds, counts, bounds):
        bounds = _narrowest(counts, rounds)
    seated: list[Game] = []
    for game in schedule[0]:
        rounds[0].remove(game)
        a, b = sorted(game, key=lambda p: (counts[p], players.index(p)))
        chosen = (a, b) if _reachable(rounds, {**counts, a: counts[a] + 1}, bounds) else (b, a)
        counts[chosen[0]] += 1
        seated.append(chosen)
    return seated


def _within_one(counts: Mapping[str, int], rounds: Sequence[Sequence[Game]]) -> Bounds:
    """Aim 1: after each round, the floor and ceiling of the mean count."""
    total, size, bounds = sum(counts.values()), max(len(counts), 1), []
    for paired in rounds:
        total += len(paired)
        bounds.append((total // size, -(-total // size)))
    return bounds


def _narrowest(counts: Mapping[str, int], rounds: Sequence[Sequence[Game]]) -> Bounds:
    """Aim 2: free until the last round, then the narrowest [L, L + s] reachable."""
    games = sum(len(paired) for paired in rounds)
    free = [(0, max(counts.values(), default=0) + games)] * (len(rounds) - 1)
    total, size = sum(counts.values()) + games, max(len(counts), 1)
    for spread in range(games + max(counts.values(), default=0) + 1):
        for low in range(-(-(total - size * spread) // size), total // size + 1):
            bounds = [*free, (low, low + spread)]
            if _reachable(rounds, counts, bounds):
                return bounds
    return [*free, free[0] if free else (0, total)]  # unreachable only without players


def _reachable(rounds: Sequence[Sequence[Game]], counts: Mapping[str, int], bounds: Bounds) -> bool:
    """True when the games of `rounds` can be seated so every count keeps `bounds`."""
    players = {player: k for k, player in enumerate(counts)}
    games = [game for paired in rounds for game in paired]
    # nodes: 0 source, 1 sink, then one per game, then one per player and round
    first_player = 2 + len(games)

    def node(player: str, number: int) -> int:
        return first_player + number * len(players) + players[player]

    arcs: list[tuple[int, int, int, int]] = [(1, 0, 0, len(games))]
    index = 2
    for number, paired in enumerate(rounds):
        for game in paired:
            arcs.append((0, index, 1, 1))
            arcs.extend((index, node(player, number), 0, 1) for player in game)
            index += 1
    for number, (low, high) in enumerate(bounds):
        for player in players:
            after = node(player, number + 1) if number + 1 < len(rounds) else 1
            had = counts[player]
            arcs.append((node(player, number), after, max(0, low - had), high - had))
    return _circulates(first_player + len(rounds) * len(players), arcs)


def _circulates(nodes: int, arcs: Sequence[tuple[int, int, int, int]]) -> bool:
    """True when some circulation puts within [low, high] on each arc (from, to, low, high)."""
    source, sink = nodes, nodes + 1
    graph: list[list[list[int]]] = [[] for _ in range(nodes + 2)]  # [to, room, reverse]

    def add(tail: int, head: int, room: int) -> None:
        graph[tail].append([head, room, len(graph[head])])
        graph[head].append([tail, 0, len(graph[tail]) - 1])

    balance = [0] * nodes
    for tail, head, low, high in arcs:
        if low > high:
            return False
        add(tail, head, high - low)
        balance[head] += low
        balance[tail] -= low
    needed = 0
    for at, owed in enumerate(balance):
        if owed > 0:
            add(source, at, owed)
            needed += owed
        elif owed < 0:
            add(at, sink, -owed)
    return _max_flow(graph, source, sink) == needed


def _max_flow(graph: list[list[list[int]]], source: int, sink: int) -> int:
    """Dinic's maximum flow on residual lists [to, room, reverse] (changed in place)."""
    flow = 0
    while (level := _levels(graph, source))[sink] >= 0:
        progress = [0] * len(graph)
        while sent := _push(graph, level, progress, source, sink, 1 << 30):
            flow += sent
    return flow


def _levels(graph: list[list[list[int]]], source: int) -> list[int]:
    """Each node's distance from `source` over arcs with room left (-1: unreachable)."""
    level = [-1] * len(graph)
    level[source] = 0
    queue = deque([source])
    while queue:
        at = queue.popleft()
        for head, room, _ in graph[at]:
            if room and level[head] < 0:
                level[head] = level[at] + 1
                queue.append(head)
    return level


def _push(
    graph: list[list[list[int]]],
    level: list[int],
    progress: list[int],
    at: int,
    sink: int,
    limit: int,
) -> int:
    """Send up to `limit` from `at` to `sink` along one level-increasing path."""
    if at == sink:
        return limit
    while progress[at] < len(graph[at]):
        arc = graph[at][progress[at]]
        head, room, reverse = arc
        if room and level[head] == level[at] + 1:
            sent = _push(graph, level, progress, head, sink, min(limit, room))
            if sent:
                arc[1] -= sent
                graph[head][reverse][1] += sent
                return sent
        progress[at] += 1
    return 0
