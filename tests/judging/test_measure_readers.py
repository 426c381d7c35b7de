"""The readers behind rules 8t, 8p, 8u and 12u (2026.12.13): what a text says as a
whole, as a value, or ``None`` when it says something else."""

from __future__ import annotations

from fractions import Fraction

import pytest

from judging.measure_rules import asked_scale, temperature
from judging.money_rules import amount_value
from judging.name_rules import name_runs
from judging.time_rules import time_value


@pytest.mark.parametrize(("text", "kind", "minutes"), [
    ("7:30", "clock", {450, 1170}),
    ("07.30", "clock", {450}),
    ("19.00 น.", "clock", {1140}),
    ("setengah delapan pagi", "clock", {450}),
    ("jam setengah tujuh", "clock", {390, 1110}),
    ("หนึ่งทุ่ม", "clock", {1140}),
    ("twelve o'clock at night", "clock", {0}),
    ("midnight", "clock", {0}),
    ("noon", "clock", {720}),
    ("1500 hours", "clock", {900}),
    ("ten past eight", "clock", {490, 1210}),
    ("an hour and a half", "duration", {90}),
    ("1.5 hours", "duration", {90}),
    ("satu setengah jam", "duration", {90}),
    ("7 jam", "duration", {420}),
    ("四个半小时", "duration", {270}),
])
def test_time_value(text: str, kind: str, minutes: set[int]) -> None:
    value = time_value(text)
    assert value is not None and value.kind == kind and value.minutes == minutes, value


@pytest.mark.parametrize("text", ["1945", "3", "3 to 2", "Paris", "2-1", "John 3:16",
                                  "the seventh hour of the day and more words than a time"])
def test_no_time(text: str) -> None:
    assert time_value(text) is None


@pytest.mark.parametrize(("text", "value", "currency"), [
    ("$7.50", Fraction(15, 2), "USD"),
    ("seven dollars and fifty cents", Fraction(15, 2), "USD"),
    ("Rp 30.000", Fraction(30000), "IDR"),
    ("Rp30.000", Fraction(30000), "IDR"),
    ("30 ribu rupiah", Fraction(30000), "IDR"),
    ("RM1 juta", Fraction(10**6), "MYR"),
    ("28.5元", Fraction(57, 2), "CNY"),
    ("二十八块五毛", Fraction(57, 2), "CNY"),
    ("10 บาท 50 สตางค์", Fraction(21, 2), "THB"),
    ("200.000 đồng", Fraction(200000), "VND"),
    ("₩5,000", Fraction(5000), "KRW"),
    ("$2.187 billion", Fraction(2187 * 10**6), "USD"),
])
def test_amount_value(text: str, value: Fraction, currency: str) -> None:
    amount = amount_value(text)
    assert amount is not None and (amount.value, amount.currency) == (value, currency), amount


@pytest.mark.parametrize("text", ["円", "1945", "five", "2,5 km", "Paris", "7 50 dollars"])
def test_no_amount(text: str) -> None:
    assert amount_value(text) is None


def test_temperature_and_asked_scale() -> None:
    kelvin, scale, _half = temperature("100 °C")
    assert (round(kelvin, 2), scale) == (373.15, "C")
    assert temperature("212 degrees Fahrenheit")[1] == "F"
    assert round(temperature("-40 °F")[0], 2) == round(temperature("-40°C")[0], 2)
    assert temperature("100") is None and temperature("Kelvin") is None
    assert asked_scale(frozenset(["express", "this", "in", "si", "units"])) == "K"
    assert asked_scale(frozenset(["at", "how", "many", "degrees", "fahrenheit"])) == "F"
    assert asked_scale(frozenset(["when", "does", "water", "boil"])) == ""


def test_name_runs() -> None:
    assert name_runs("The speaker sounds like Robert F. Kennedy speaking.") == [
        ("The", False, False), ("Robert F. Kennedy", False, False)]
    assert name_runs("Mozart's father Leopold Mozart") == [
        ("Mozart", True, False), ("Leopold Mozart", False, False)]
    assert name_runs("Aaron and Andrew Harrison") == [
        ("Aaron", False, False), ("Andrew Harrison", False, True)]
    assert name_runs("inmatesClarence Anglin,John Anglin") == [
        ("Anglin", False, False), ("John Anglin", False, False)]
