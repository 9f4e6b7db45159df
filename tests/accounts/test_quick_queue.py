"""The quick-match queue's pairing (issue 14, item 4): close ratings first, a window that widens
with the wait, balanced 2v2 sides, one queue per game, mode and target."""

from __future__ import annotations

from dineri.accounts.quick import Entry, Key, MemoryQueue, Widening, groups

ONE = Key("chkobba", 2, 11)
W = Widening(base=100, per_second=20, widest=800)


def _e(pid: str, rating: float, joined: float = 0.0, key: Key = ONE) -> Entry:
    return Entry(pid, key, rating, True, joined)


def test_close_ratings_are_paired_at_once() -> None:
    found = groups([_e("a", 1500), _e("b", 1580), _e("c", 2100)], now=0.0, widening=W)
    assert [[e.player_id for e in g] for g in found] == [["a", "b"]]


def test_the_window_widens_with_the_wait() -> None:
    waiting = [_e("a", 1500, joined=0.0), _e("far", 1800, joined=0.0)]
    assert groups(waiting, now=5.0, widening=W) == []  # window 200 < 300
    assert [e.player_id for e in groups(waiting, now=10.0, widening=W)[0]] == ["a", "far"]  # 300
    assert W.window(1000) == 800


def test_the_closest_candidate_is_chosen() -> None:
    found = groups([_e("a", 1500), _e("b", 1590), _e("c", 1510)], now=0.0, widening=W)
    assert [e.player_id for e in found[0]] == ["a", "c"]


def test_queues_do_not_mix() -> None:
    found = groups([_e("a", 1500), _e("b", 1500, key=Key("chkobba", 2, 21)),
                    _e("c", 1500, key=Key("chkobba", 4, 11))], now=0.0, widening=W)
    assert found == []


def test_2v2_sides_are_balanced() -> None:
    four = Key("chkobba", 4, 11)
    found = groups([_e(n, r, key=four) for n, r in (("a", 1500), ("b", 1560), ("c", 1440), ("d", 1530))],
                   now=0.0, widening=W)
    assert [e.player_id for e in found[0]] == ["b", "d", "c", "a"]  # 1560+1440 v 1530+1500


def test_memory_queue_tickets() -> None:
    q = MemoryQueue(widening=W)
    q.join(_e("a", 1500))
    assert q.ticket("a").status == "waiting" and q.take_groups(0.0) == []
    q.join(_e("b", 1500))
    [group] = q.take_groups(0.0)
    q.seat([e.player_id for e in group], "t1")
    assert q.ticket("a").table == "t1" and q.ticket("b").status == "seated"
    assert q.waiting() == [] and q.ticket("z").status == "none"
    q.join(_e("a", 1500))
    assert q.leave("a") is not None and q.ticket("a").status == "none"
