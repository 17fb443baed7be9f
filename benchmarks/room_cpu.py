"""Where a class room's server CPU goes, for ``room_load_test.py``: the server's processes (the
replicas, Redis, HAProxy) are read at the edges of the lesson's phases, so each phase's CPU is known
and the cost of one answer and of one reveal can be printed beside the cost of the phones' polling.

The phases, as the teacher's page lives them:

* **polling**: everyone seated, nobody answering yet (a few of the phones' timer periods): what
  keeping 60 phones up to date costs when nothing happens, per phone and second;
* **answering**: from the question on the projector until its count shows every student
  (each phone's redraw of the new question, its tap, the double taps, the projector's counts);
* **revealing**: from the Reveal click until the teacher moves on (the projector's chart and
  every phone's redraw with its verdict).

Per answer and per reveal are each phase's CPU less what polling alone costs in as long a time
(the polling goes on underneath), divided by the answers sent and the reveals made. A reveal's own
work is small beside 60 phones' polls in its seconds, and those polls redraw the chart, not the
question's buttons that the polling window's polls redraw, so they need not cost the same: its net
can fall below zero (it did, -31 and -49 ms in runs of 60), and its gross (polling included) is
printed beside it.

    >>> meter = Meter({})
    >>> meter.windows.append(Window("polling", 4.0, 0.8))
    >>> meter.windows.append(Window("answering", 10.0, 5.0))
    >>> meter.windows.append(Window("revealing", 3.0, 1.6))
    >>> round(meter.net("answering") / 60 * 1000, 1), round(meter.net("revealing") * 1000)   # ms per answer, per reveal
    (50.0, 1000)
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from load_common import cpu_seconds


@dataclass(frozen=True)
class Window:
    kind: str
    """``polling``, ``answering`` or ``revealing``."""
    seconds: float
    cpu: float
    """Server CPU seconds (every process of the set) used in it."""


@dataclass
class Meter:
    pids: dict[str, int]
    """The server's processes by name (``r1``, ``redis``, ...); empty: a server run elsewhere, nothing read."""
    windows: list[Window] = field(default_factory=list)

    def reading(self) -> tuple[float, float]:
        """``(monotonic time, server CPU seconds so far)``: where a window starts."""
        return time.monotonic(), sum(cpu_seconds(pid) for pid in self.pids.values())

    def close(self, kind: str, started: tuple[float, float]) -> None:
        """End the window of ``kind`` begun at ``started`` (a :meth:`reading`)."""
        now, cpu = self.reading()
        self.windows.append(Window(kind, now - started[0], cpu - started[1]))

    def total(self, kind: str) -> tuple[float, float]:
        """``(seconds, CPU seconds)`` of every window of ``kind``."""
        chosen = [window for window in self.windows if window.kind == kind]
        return sum(window.seconds for window in chosen), sum(window.cpu for window in chosen)

    def polling_rate(self) -> float:
        """Server CPU seconds per second while the class only polls."""
        seconds, cpu = self.total("polling")
        return cpu / seconds if seconds else 0.0

    def net(self, kind: str) -> float:
        """The CPU of ``kind``'s windows less what polling alone costs in as long."""
        seconds, cpu = self.total(kind)
        return cpu - self.polling_rate() * seconds

    def lines(self, *, phones: int, answers: int, reveals: int) -> list[str]:
        if not self.pids or not self.windows:
            return []
        rate = self.polling_rate()
        return [
            f"server CPU while {phones} phones only poll: {rate * 1000:.0f} ms a second "
            f"({rate * 1000 / max(phones, 1):.2f} ms per phone per second, {rate * 100:.0f} % of one core)",
            f"server CPU per answer: {self.net('answering') / max(answers, 1) * 1000:.1f} ms "
            f"(its phone's redraw of the question, its tap, the double taps and the projector's counts; polling left out)",
            f"server CPU per reveal: {self.net('revealing') / max(reveals, 1) * 1000:.0f} ms "
            f"(the projector's chart and {phones} phones' verdicts; polling left out), "
            f"{self.total('revealing')[1] / max(reveals, 1) * 1000:.0f} ms with the polling of its seconds",
        ]
