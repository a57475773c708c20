"""What a refusal says about a name it does not know: a close known one, if any."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from table.quoting import did_you_mean, quote

KNOWN = ["Spellbound Scissors", "Iron Thug", "Saint of Roses", "Diodor"]


def test_a_typo_a_case_or_spaces_get_the_known_name() -> None:
    assert did_you_mean("Iron Thugg", KNOWN) == " (did you mean 'Iron Thug'?)"
    assert did_you_mean("iron thug", KNOWN) == " (did you mean 'Iron Thug'?)"
    assert did_you_mean(" Diodor ", KNOWN) == " (did you mean 'Diodor'?)"
    assert did_you_mean("Spellbound Sciss0rs", KNOWN) == \
        " (did you mean 'Spellbound Scissors'?)"


def test_nothing_close_or_nothing_sent_suggests_nothing() -> None:
    for far in ("Noble Dragon", "zzzz", "", "   ", None, 7, ["Iron Thug"]):
        assert did_you_mean(far, KNOWN) == ""
    assert did_you_mean("Iron Thug", KNOWN) == ""  # known: nothing to suggest
    assert did_you_mean("Iron Thugg", []) == ""


@given(st.text(max_size=300))
def test_any_text_gives_a_short_suggestion_of_a_known_name_or_none(text: str) -> None:
    said = did_you_mean(text, KNOWN)
    assert said == "" or any(said == f" (did you mean {name!r}?)" for name in KNOWN)


def test_a_number_too_long_for_python_to_print_is_quoted():
    assert quote(10**5000) == "a number too long to print"
