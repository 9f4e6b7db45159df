"""Usernames (issue 14, item 6) and passwords (item 1): unit checks."""

from __future__ import annotations

import pytest

from dineri.accounts import passwords
from dineri.accounts.names import NameError_, check_username, name_key


@pytest.mark.parametrize("name", ["Amira", "أميرة", "Sofiane.B", "Ali_2", "Amélie", "Ωμέγα", "li-na"])
def test_ordinary_names_are_accepted(name: str) -> None:
    assert check_username(f"  {name} ") == name


@pytest.mark.parametrize(("name", "code"), [
    ("ab", "malformed"), ("x" * 25, "malformed"), ("two words", "malformed"), ("tab\there", "malformed"),
    ("zero\u200bwidth", "malformed"), ("rtl\u202eoverride", "malformed"), ("_lead", "malformed"),
    ("trail.", "malformed"), ("emoji🙂", "malformed"), (42, "malformed"),
    ("pаypal", "confusable"),  # Cyrillic а among Latin letters
    ("Ωmega", "confusable"),  # Greek Ω among Latin letters
    ("admin", "reserved"), ("Admin", "reserved"), ("ADMlN", "reserved"), ("Dineri", "reserved"),
    ("root", "reserved"), ("moderator", "reserved"),
])
def test_bad_names_are_refused(name: object, code: str) -> None:
    with pytest.raises(NameError_) as e:
        check_username(name)
    assert e.value.code == code


def test_look_alikes_share_a_key() -> None:
    assert name_key("Amira") == name_key("AMIRA") == name_key("Amіra")  # Ukrainian і
    assert name_key("Amira") != name_key("Amina")
    assert name_key("ｆｕｌｌ") == name_key("full")  # fullwidth forms (NFKC)


def test_passwords_are_argon2id_and_verified() -> None:
    h = passwords.hash_password("correct horse")
    assert h.startswith("$argon2id$") and "correct horse" not in h
    assert passwords.verify(h, "correct horse")
    assert not passwords.verify(h, "Correct horse")
    assert not passwords.verify(None, "correct horse")
    assert not passwords.verify("not a hash", "correct horse")
    assert not passwords.needs_rehash(h)
    assert passwords.hash_password("correct horse") != h  # salted
    with pytest.raises(ValueError):
        passwords.check_password("short")


def test_guest_display_names_refuse_reserved_and_look_alikes() -> None:
    from dineri.accounts.names import check_display_name

    assert check_display_name("Amira B") == "Amira B"  # spaces are fine in a display name
    assert check_display_name("Guest") == "Guest"  # only official-looking names are reserved
    for bad, code in (("Admin", "reserved"), ("ADMlN", "reserved"), ("pаypal", "confusable")):
        with pytest.raises(NameError_) as e:
            check_display_name(bad)
        assert e.value.code == code


def test_usernames_refuse_invisible_letters_and_are_nfc() -> None:
    """Hangul fillers are letters (Lo) that draw nothing: a username of them was taken."""
    for name in ("\u3164\u3164\u3164", "ab\u3164c", "\u115f\u115fx"):
        with pytest.raises(NameError_) as e:
            check_username(name)
        assert e.value.code == "malformed"
    assert check_username("e\u0301lodie") == "\u00e9lodie"
