"""Property tests: whatever a client sends, the API answers with JSON and a status below 500;
every refusal is {"error": sentence, "rule": id or null}. A 500 would be a bug."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-10, 10) | st.floats(allow_nan=False)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner,
                                                                 max_size=3),
    max_leaves=8,
)
FIELDS = st.fixed_dictionaries({}, optional={
    "seat": st.sampled_from(["Ann", "Bob", "Zed", ""]) | JSON_VALUES,
    "action": st.sampled_from(["roll", "throw", "stand", "bet", "raise", "call", "pass", "drop",
                               "betpot", "callpot", "fold"]) | JSON_VALUES,
    "chips": st.integers(-2, 5) | JSON_VALUES,
    "button": st.sampled_from(["THROW", "BET", "CALL", "PASS", "x"]),
    "long": st.booleans() | JSON_VALUES,
    "values": st.lists(st.integers(0, 7), max_size=4) | JSON_VALUES,
    "kind": st.sampled_from(["undo", "void-hand", "fix-dice", "new-game", "x"]),
    "why": st.text(max_size=5),
    "position": st.integers(-1, 4) | JSON_VALUES,
})
PATHS = st.sampled_from(["/api/act", "/api/press", "/api/referee/dice",
                         "/api/referee/correct"])
WHO = st.sampled_from(["Ann", "Bob", "referee", "nobody", "none"])
FUZZ = settings(max_examples=150, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture])


def headers(table, who: str) -> dict[str, str]:
    if who == "none":
        return {}
    if who == "nobody":
        return {"Authorization": "Bearer not-a-token"}
    return table.auth(who)


@FUZZ
@given(path=PATHS, who=WHO, body=FIELDS | JSON_VALUES)
def test_any_json_body_gets_a_json_answer_below_500(table, path, who, body) -> None:
    t = table  # one table for every example: accepted actions move the game on, that is fine
    t.context.limiter.max_failures = 10**9  # wrong tokens here must not hide other answers
    response = t.client.post(path, data=json.dumps(body), headers={
        **headers(t, who), "Content-Type": "application/json"})
    assert response.status_code < 500, response.get_data(as_text=True)
    answer = response.get_json()
    if response.status_code >= 400:
        assert set(answer) == {"error", "rule"}
        assert answer["error"][0].isupper() and answer["error"].endswith((".", ")"))
    else:
        assert answer["ok"] is True


@FUZZ
@given(raw=st.binary(max_size=40), who=WHO)
def test_any_bytes_get_a_json_answer_below_500(table, raw, who) -> None:
    table.context.limiter.max_failures = 10**9
    response = table.client.post("/api/act", data=raw, headers={
        **headers(table, who), "Content-Type": "application/json"})
    assert response.status_code in (400, 401)
    assert set(response.get_json()) == {"error", "rule"}


@FUZZ
@given(token=st.text(st.characters(min_codepoint=32, max_codepoint=255,
                                   blacklist_categories=("Cc",)), max_size=40))
def test_no_guessed_token_is_accepted(table, token) -> None:
    table.context.limiter.max_failures = 10**9
    response = table.client.get("/api/seat/Ann", headers={"Authorization": f"Bearer {token}"})
    assert response.status_code in (400, 401)
