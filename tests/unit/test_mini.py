"""The mini task: checker (valid, invalid, located errors), data, and the four signal variants."""

from __future__ import annotations

import pytest

from bot_repro.config_schema import ConfigError
from bot_repro.rewards import RewardCfg
from bot_repro.tasks.mini.checker import check, open_stack, solution
from bot_repro.tasks.mini.reward import MiniReward
from bot_repro.tasks.mini.task import MiniTask

DOC = "<a><b></b><c>"  # open: a, c


def test_open_stack_and_solution():
    assert open_stack(DOC) == ["a", "c"]
    assert solution(DOC) == "</c></a>"
    with pytest.raises(ValueError, match="does not match"):
        open_stack("<a></b>")


@pytest.mark.parametrize("completion", ["</c></a>", " </c> </a>\n", "</c></a>  "])
def test_valid(completion):
    r = check(DOC, completion)
    assert r.success and not r.errors and r.unclosed == 0 and len(r.closed) == 2


@pytest.mark.parametrize(
    "completion, span, reason",
    [
        ("</a></c>", (0, 4), "</a> does not close <c>"),
        ("</c><d></a>", (4, 7), "unexpected open tag <d>"),
        ("</c>oops</a>", (4, 8), "stray text"),
        ("</c></a></a>", (8, 12), "text after the document was closed"),
        ("</c></b>", (4, 8), "</b> does not close <a>"),
    ],
)
def test_located_errors(completion, span, reason):
    r = check(DOC, completion)
    assert not r.success
    assert r.first_error == (*span, reason)
    assert completion[span[0] : span[1]]  # the span points at real text


def test_missing_closers_are_not_located():
    r = check(DOC, "</c>")
    assert not r.success and r.errors == [] and r.unclosed == 1 and r.closed == [(0, 4)]
    empty = check(DOC, "")
    assert not empty.success and empty.errors == [] and empty.unclosed == 2


def test_all_errors_mode_counts_every_error():
    r = check(DOC, "</a></x>zz", all_errors=True)
    assert [e[2] for e in r.errors] == ["</a> does not close <c>", "</x> does not close <c>", "stray text"]


def test_data_is_deterministic_disjoint_and_solvable():
    t = MiniTask({"n_train": 200, "n_test": 20}, {"family": "qwen2"})
    train, test = t.datasets()
    assert (train, test) == t.datasets()
    assert len(train) == 200 and len(test) == 20
    assert not {r["document"] for r in train} & {r["document"] for r in test}
    for r in train[:50]:
        assert check(r["document"], solution(r["document"])).success
        assert 2 <= len(open_stack(r["document"])) <= 4
    assert t.evaluate([[solution(r["document"]), ""] for r in test], test)["success_rate"] == 0.5


def _section(variant, **params):
    return RewardCfg(source="mini", window=1, params={"variant": variant, **params})  # mini_*.yaml's window


def _reward(variant, **kw):
    return MiniReward(_section(variant, **kw), {"seed": 0})


def _per_unit(res, text):
    """Sum of span values on each unit (units are tags/words of the completion)."""
    from bot_repro.tasks.mini.checker import TOKEN

    units = [(m.start(1), m.end(1)) for m in TOKEN.finditer(text)]
    return [sum(s.value for s in res.spans if (s.start, s.end) == u) for u in units]


def test_penalty_variant_spreads_first_error_with_decay():
    text = "</c></b></a></a>"
    res = _reward("penalty").score_one(DOC, text)
    assert res.global_score == 0.0
    # error on unit 1, window 1: phi(0) = 1, phi(1) = 0.5, phi(2) = 0
    assert _per_unit(res, text) == [-0.5, -1.0, -0.5, 0.0]


def test_penalty_variant_is_blind_to_stopping_early():
    res = _reward("penalty").score_one(DOC, "")
    assert res.spans == [] and res.global_score == 0.0  # the hack: no located error


def test_progress_variant_credits_correct_closes():
    text = "</c></b>"
    res = _reward("progress", progress_credit=0.5).score_one(DOC, text)
    # +0.5 on unit 0 (spread 0.25 to unit 1), -1 on unit 1 (spread -0.5 to unit 0)
    assert _per_unit(res, text) == [0.5 - 0.5, 0.25 - 1.0]
    ok = _reward("progress").score_one(DOC, "</c></a>")
    assert ok.global_score == 1.0 and ok.components["success"] == 1.0


def test_unbounded_variant_sums_all_errors_and_unclosed():
    res = _reward("unbounded").score_one(DOC, "</a></x>")
    assert sum(s.value for s in res.spans) < -3.0  # two errors spread plus two unclosed elements
    end = [s for s in res.spans if s.start == len("</a></x>")]
    assert end and end[0].value == -2.0


def test_noisy_variant_is_seeded_and_corrupts_some_labels():
    text = "</c></b>"
    clean = _reward("progress").score_one(DOC, text)
    a = _reward("noisy", noise=1.0).score_one(DOC, text)
    b = _reward("noisy", noise=1.0).score_one(DOC, text)
    assert [(s.start, s.end, s.value) for s in a.spans] == [(s.start, s.end, s.value) for s in b.spans]
    assert _per_unit(a, text) != _per_unit(clean, text)
    none = _reward("noisy", noise=0.0).score_one(DOC, text)
    assert _per_unit(none, text) == _per_unit(clean, text)


def test_bad_reward_params_fail_with_allowed_values():
    with pytest.raises(ConfigError, match="allowed: penalty, progress, noisy, unbounded"):
        _reward("shiny")
    with pytest.raises(ConfigError, match="unknown key"):
        MiniReward(_section("penalty", nosie=0.1), {})


def test_progress_variant_locates_the_end_of_the_answer():
    progress = _reward("progress", progress_credit=0.5)
    for text in ("", "</c>", " </c> "):  # empty, stopped early (trailing space is ignored)
        res = progress.score_one(DOC, text)
        end = [s for s in res.spans if s.start == len(text)]
        assert [(s.end, s.value) for s in end] == [(len(text) + 1, -1.0)], text
        assert res.components["stopped_open"] == 1.0
    ok = progress.score_one(DOC, "</c></a>")
    assert [s.value for s in ok.spans if s.start == len("</c></a>")] == [0.5]  # a correct end is credited
    # an earlier located error is the one -1: no second one on the end (the signal stays bounded)
    wrong = progress.score_one(DOC, "</a>")
    assert [s for s in wrong.spans if s.start == len("</a>")] == []
    assert min(s.value for s in wrong.spans) == -1.0
    # the deliberately broken arm keeps its hole
    assert [s for s in _reward("penalty").score_one(DOC, "</c>").spans if s.start == len("</c>")] == []


@pytest.fixture(scope="module")
def mini_tok():
    from bot_repro.models.tiny import build_tokenizer

    return build_tokenizer(MiniTask({"n_train": 100, "n_test": 10}, {"family": "qwen2"}).tokenizer_corpus(), 512)


@pytest.mark.parametrize("variant", ["progress", "noisy"])
def test_progress_stop_penalty_lands_on_the_eos_token_through_the_mapper(mini_tok, variant):
    """Acceptance (#13): an empty or early-stopped completion gets a located negative local reward
    on its EOS token, through the real path (sampled ids -> offsets -> spans -> S_t)."""
    from bot_repro.trainer.token_reward import score_completions

    tok = mini_tok
    texts = ["", "</c>", "</c></a>", "</a>"]
    ids = [tok(t, add_special_tokens=False)["input_ids"] + [tok.eos_token_id] for t in texts]
    rows = [{"id": f"r{i}", "document": DOC} for i in range(len(texts))]
    noise = {"noise": 0.0} if variant == "noisy" else {}
    section = _section(variant, **noise)
    scored = score_completions(MiniReward(section, {"seed": 0}), tok, ids, rows, window=section.window)
    empty, early, correct, wrong = scored.local_rewards
    assert scored.texts == texts
    assert len(empty) == 1 and empty[-1] == -1.0  # the EOS token alone carries the error
    assert early[-1] == -1.0 and all(v > 0 for v in early[:-1])  # the correct closer keeps its credit
    assert correct[-1] == 0.5 and all(v > 0 for v in correct)
    assert wrong[-1] == 0.0  # the error is located on </a>, not on the end
    assert scored.global_rewards == [0.0, 0.0, 1.0, 0.0]
    # penalty-only: the stop hole (nothing located on a stop)
    hole = score_completions(MiniReward(_section("penalty"), {}), tok, ids, rows, window=1)
    assert hole.local_rewards[0].tolist() == [0.0] and hole.local_rewards[1][-1] == 0.0


def test_evaluate_reports_unbiased_pass_at_k_up_to_the_samples():
    t = MiniTask({"n_train": 40, "n_test": 4}, {"family": "qwen2"})
    _, test = t.datasets()
    good = [solution(r["document"]) for r in test]
    # prompt 0: 1 of 4 correct; prompt 1: 4 of 4; others: 0 of 4
    comps = [[good[0], "", "", ""], [good[1]] * 4, [""] * 4, [""] * 4]
    m = t.evaluate(comps, test)
    assert m["pass@1"] == pytest.approx((0.25 + 1.0) / 4)
    assert m["pass@2"] == pytest.approx((0.5 + 1.0) / 4)  # 1 - C(3,2)/C(4,2) = 0.5
    assert m["pass@4"] == pytest.approx(2 / 4) and "pass@8" not in m


def test_warm_start_is_a_deterministic_function_of_the_config(tmp_path, capsys):
    """Two warm starts of one config into two caches give the same weights (hash), whatever the
    caller's torch thread count; the hash, steps and success are in warm_start.json."""
    import json

    import torch

    from bot_repro.models.fingerprint import policy_hash
    from bot_repro.models.tiny import build_tiny

    params = {"n_train": 64, "n_test": 8, "warm_start_steps": 3, "warm_start_decay_steps": 1,
              "warm_start_eval_every": 2, "warm_start_val": 8}
    task = MiniTask(params, {"family": "qwen2"})
    base = build_tiny("qwen2", tmp_path / "base", task.tokenizer_corpus(), vocab_size=512, hidden_size=32, num_layers=1)
    threads = torch.get_num_threads()
    calls = []
    a = task.warm_start(base, tmp_path / "cache_a", seed=0, progress=lambda step, total: calls.append((step, total)))
    assert calls == [(1, 3), (2, 3), (3, 3)]
    torch.set_num_threads(max(1, 3 - threads))  # another caller setting: must not change the policy
    try:
        b = task.warm_start(base, tmp_path / "cache_b", seed=7)  # the run seed does not enter either
        assert torch.get_num_threads() == max(1, 3 - threads)  # restored after the warm start
    finally:
        torch.set_num_threads(threads)
    info_a, info_b = (json.loads((d / "warm_start.json").read_text()) for d in (a, b))
    assert info_a["policy_hash"] == info_b["policy_hash"] == policy_hash(a) == policy_hash(b)
    assert info_a["policy_hash"] != policy_hash(base)  # it did train
    assert info_a["steps"] == 3 and info_a["final_sampled_success"] == info_b["final_sampled_success"]
    assert [h["step"] for h in info_a["history"]] == [2, 3]
    lines = [line for line in capsys.readouterr().out.splitlines() if line.startswith("warm start: step")]
    assert len(lines) == 2 * 2 and "loss" in lines[1] and "sampled success" in lines[1]


def test_noisy_demonstrations_carry_one_located_mistake_each():
    """Every corrupted demonstration fails the checker, each mistake kind occurs, and the mix of
    correct ones follows warm_start_noise (the warm start's knob for where step 0 lands)."""
    import random

    from bot_repro.tasks.mini.warm_start import MISTAKES, corrupt, demonstration

    t = MiniTask({"n_train": 300, "n_test": 4}, {"family": "qwen2"})
    train, _ = t.datasets()
    rng = random.Random(0)
    kinds = set()
    for row in train:
        text, kind = corrupt(row["document"], rng, "abcdef")
        kinds.add(kind)
        res = check(row["document"], text)
        assert not res.success, (row["document"], text, kind)
        if kind == "stop":
            assert not res.errors and res.unclosed > 0  # located by `progress` on the EOS token
        else:
            assert res.errors  # a located wrong token
    assert kinds == set(MISTAKES)
    ok = [check(r["document"], demonstration(r["document"], rng, 0.65, "abcdef")).success for r in train]
    assert 0.25 < sum(ok) / len(ok) < 0.45
    assert all(check(r["document"], demonstration(r["document"], rng, 0.0, "abcdef")).success for r in train)


@pytest.mark.parametrize("bad", [{"warm_start_noise": 1.0}, {"warm_start_decay_steps": 900},
                                 {"min_open": 3, "max_open": 2}])
def test_bad_warm_start_params_are_named(bad):
    from bot_repro.config_schema import ConfigError

    with pytest.raises(ConfigError, match=next(iter(bad))):
        MiniTask(bad, {"family": "qwen2"})
