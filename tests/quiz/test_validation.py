"""quiz.validation: the shared field checks, and their limits kept equal to the models'."""

from __future__ import annotations

import math

import pytest

from quiz import validation as v


@pytest.mark.parametrize(
    "group,model,fields",
    [
        pytest.param("question", "quiz.Question", {"id": "external_id", "source": "source"}, id="question"),
        pytest.param("question", "quiz.Category", {"category": "name"}, id="category"),
        pytest.param("model_output", "quiz.ModelSystem", {"system": "name"}, id="model-system"),
        pytest.param("model_output", "quiz.Responder", {"condition": "condition"}, id="responder"),
        pytest.param("model_output", "quiz.Response", {"client_token": "client_token"}, id="response"),
        pytest.param("model_output", "quiz.Question", {"question_id": "external_id"}, id="question-id"),
        pytest.param("item", "annotation.Item", {k: k for k in ("system", "task", "condition", "source", "batch")}
                     | {"id": "external_id"}, id="item"),
    ],
)
def test_limits_equal_the_model_columns(group, model, fields):
    from django.apps import apps

    cls = apps.get_model(model)
    for key, column in fields.items():
        assert v.LIMITS[group][key] == cls._meta.get_field(column).max_length, (group, key)


@pytest.mark.parametrize(
    "value,kwargs,expected,message",
    [
        pytest.param("  x ", {}, "x", None, id="strip"),
        pytest.param(12, {}, "12", None, id="number-as-text"),
        pytest.param(None, {"required": True}, "", "is required", id="required"),
        pytest.param(True, {}, "", "not true/false", id="bool"),
        pytest.param({"a": 1}, {}, "", "not an object", id="object"),
        pytest.param(math.nan, {}, "", "not nan", id="nan"),
        pytest.param("a\x00", {}, "a\x00", "NUL", id="nul"),
        pytest.param("\udc80", {}, "\udc80", "surrogate", id="surrogate"),
        pytest.param("abcd", {"max_length": 3}, "abcd", "the limit is 3", id="too-long"),
    ],
)
def test_clean_text(value, kwargs, expected, message):
    errors: list = []
    assert v.clean_text(value, "f", errors, **kwargs) == expected
    if message is None:
        assert errors == []
    else:
        assert message in errors[0][1]


@pytest.mark.parametrize(
    "value,expected,message",
    [
        pytest.param(1200, 1200, None, id="int"),
        pytest.param(1200.0, 1200, None, id="integral-float"),
        pytest.param("1200", 1200, None, id="csv-cell"),
        pytest.param("", None, None, id="empty-cell"),
        pytest.param(math.nan, None, "finite", id="nan"),
        pytest.param(math.inf, None, "finite", id="inf"),
        pytest.param("Infinity", None, "finite", id="inf-text"),
        pytest.param(1.5, None, "whole", id="fraction"),
        pytest.param(10**12, None, "between 0 and 2147483647", id="too-big"),
        pytest.param(-1, None, "between", id="negative"),
        pytest.param(False, None, "whole number", id="bool"),
        pytest.param("12ms", None, "whole number", id="text"),
    ],
)
def test_clean_int(value, expected, message):
    errors: list = []
    assert v.clean_int(value, "latency_ms", errors) == expected
    if message is None:
        assert errors == []
    else:
        assert message in errors[0][1]


def test_json_problems_name_the_path():
    found = v.json_problems({"a": [1, {"b": math.nan}], "c\x00": 1, "d": "x\x00"}, "metadata")
    assert [f for f, _ in found] == ["metadata.a[1].b", "metadata", "metadata.d"]
    assert v.json_problems({"ok": [1, 2.5, "text", None, True]}, "metadata") == []
    deep: dict = {}
    node = deep
    for _ in range(30):
        node["n"] = {}
        node = node["n"]
    assert "nested" in v.json_problems(deep, "metadata")[0][1]


@pytest.mark.parametrize(
    "texts,correct,fields",
    [
        pytest.param([], None, [], id="no-options"),
        pytest.param([], 2, ["correct"], id="correct-without-options"),
        pytest.param(["a", "b", "c", "d"], 1, [], id="ok"),
        pytest.param(["a", "A", "c", "d"], 1, ["choices"], id="not-distinct"),
        pytest.param(["a", "b", "c"], 1, [], id="three"),
        pytest.param(["yes", "no"], 0, [], id="yes-no"),
        pytest.param(["a"], 0, ["choices"], id="one"),
        pytest.param([str(i) for i in range(11)], 0, ["choices"], id="eleven"),
        pytest.param(["a", "", "c", "d"], 1, ["choices[1]"], id="empty-option"),
        pytest.param(["a", "b", "c", "d"], None, ["choices"], id="no-correct"),
        pytest.param(["a", "b", "c", "d"], 4, ["correct"], id="correct-out-of-range"),
    ],
)
def test_check_choices(texts, correct, fields):
    assert [f for f, _ in v.check_choices(texts, correct)] == fields
