"""Match options (G1, G15; ``match-record-golf4.md``: ``options.seats``, ``options.rounds``)."""

from __future__ import annotations

from dataclasses import dataclass

from dineri.golf4.errors import RuleError, shown

SEATS = range(2, 9)  # one 52-card deck (G1); the two-deck game for 9+ is not offered
ROUNDS = (9, 18)


@dataclass(frozen=True, slots=True)
class Options:
    """``seats`` 2–8 (G1), ``rounds`` 9 or 18 (G15). Use :meth:`from_json` for untrusted input."""

    seats: int
    rounds: int

    def __post_init__(self) -> None:
        if type(self.seats) is not int or self.seats not in SEATS:
            raise RuleError("malformed",
                            f"options.seats must be an integer from 2 to 8, got {shown(self.seats)}")
        if type(self.rounds) is not int or self.rounds not in ROUNDS:
            raise RuleError("malformed", f"options.rounds must be 9 or 18, got {shown(self.rounds)}")

    @classmethod
    def from_json(cls, raw: object, *, strict: bool = False) -> Options:
        """Validate ``{"seats": 2..8, "rounds": 9|18}`` (booleans and floats are not integers).

        With ``strict`` an unknown key is refused too. Raises :class:`RuleError` ``malformed``.
        """
        if not isinstance(raw, dict):
            raise RuleError("malformed", "options must be an object")
        if strict:
            unknown = sorted(str(k) for k in raw if k not in ("seats", "rounds"))
            if unknown:
                raise RuleError("malformed", f"unknown option(s): {shown(', '.join(unknown))}")
        return cls(raw.get("seats"), raw.get("rounds"))  # type: ignore[arg-type]

    def to_json(self) -> dict[str, int]:
        """The record form."""
        return {"seats": self.seats, "rounds": self.rounds}
