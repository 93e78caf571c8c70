"""The golden snippet files are complete and current (every case of a cases module recorded,
from its present code), and optim_snippets' runner and comparison behave as the tests of
those files rely on."""

import legacy_names_cases
import pytest
import sparse_step_cases
import swa_cases
from optim_snippets import close, expression_outcome

#: cases module -> the golden file its recorder writes
RECORDED = {
    legacy_names_cases: "legacy_names",
    sparse_step_cases: "sparse_steps",
    swa_cases: "swa_utils",
}


@pytest.mark.parametrize("cases", RECORDED, ids=lambda cases: cases.__name__)
def test_every_case_is_recorded_from_its_present_code(cases, golden):
    recorded = golden(RECORDED[cases])
    assert set(recorded) == set(cases.CASES)
    assert {name: recorded[name]["code"] for name in recorded} == cases.CASES


def test_the_value_of_the_last_part_or_the_builtin_error_and_its_first_line():
    assert expression_outcome("x = 2; x * 3", {}, str) == {"value": "6"}
    assert expression_outcome("import json; json.loads('{')", {}, str) == {
        "error": "ValueError",  # json.JSONDecodeError's builtin base
        "message": "Expecting property name enclosed in double quotes: line 1 column 2 (char 1)",
    }


def test_close_compares_floats_to_the_tolerances_and_everything_else_exactly():
    assert close({"v": [1.0, 2.0], "d": "f"}, {"v": [1.0, 2.00001], "d": "f"}, 1e-5, 1e-6)
    assert not close({"v": [1.0, 2.0]}, {"v": [1.0, 2.001]}, 1e-5, 1e-6)
    assert not close({"v": [1.0]}, {"v": [1.0, 2.0]}, 1e-5, 1e-6)
    assert not close({"v": 1.0}, {"v": 1.0, "w": 2.0}, 1e-5, 1e-6)
    assert not close({"error": "TypeError"}, {"error": "ValueError"}, 1e-5, 1e-6)
