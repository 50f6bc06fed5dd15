"""Each self-check of exercises E1-E4 accepts the reference answer, says what to do before
there is an answer, and rejects wrong answers, with at least one wrong answer for every
message it states.

The self-checks and the reference answers are read from the book itself (the files
``docs/ch01/_selfcheck_e*.py``, which the pages' notebooks hold, and ``docs/ch01/answers.rst``),
so these tests check the very code readers run.
"""

from __future__ import annotations

import functools
import re
import textwrap
import time
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from jaxbook.project import find_root

CH01 = find_root(Path(__file__).parent) / "docs" / "ch01"


def _testcode_blocks(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    blocks = re.findall(r"^\.\. testcode::\n\n((?:(?:   .*)?\n)+)", text, re.MULTILINE)
    return [textwrap.dedent(block) for block in blocks]


def self_check(exercise: str) -> str:
    return (CH01 / f"_selfcheck_{exercise.lower()}.py").read_text(encoding="utf-8")


def reference_answer(exercise: str) -> str:
    marker = f"# 参考答案 {exercise}\n"
    return next(b for b in _testcode_blocks(CH01 / "answers.rst") if b.startswith(marker))


def run_check(exercise: str, answer: dict[str, object]) -> str:
    namespace = {"jax": jax, "jnp": jnp, "np": np, "time": time, **answer}
    exec(self_check(exercise), namespace)
    return exercise


def run_reference(exercise: str) -> dict[str, object]:
    namespace: dict[str, object] = {"jax": jax, "jnp": jnp, "np": np, "time": time}
    exec(reference_answer(exercise), namespace)
    return namespace


@pytest.mark.parametrize("exercise", ["E1", "E2", "E3", "E4"])
def test_reference_answer_passes_its_self_check_silently(exercise, capsys):
    namespace = run_reference(exercise)
    capsys.readouterr()
    exec(self_check(exercise), namespace)
    assert capsys.readouterr().out == ""


@pytest.mark.parametrize(
    ("exercise", "names"),
    [
        ("E1", "standardize_rows(X)"),
        ("E2", "sample_all(seed)"),
        ("E3", "bench(fn, *args) 和 f_np、f_jnp、f_jit"),
        ("E4", "count_labels 和 count_jit"),
    ],
)
def test_before_an_answer_the_self_check_says_what_to_do(exercise, names, capsys):
    run_check(exercise, {})
    assert capsys.readouterr().out == f"请先在上方的作答区定义 {names} 并运行，再运行本单元。\n"


# -- E1: standardize_rows ------------------------------------------------------


def _standardize_numpy(X, eps=1e-8):
    X = np.asarray(X)
    return (X - X.mean(axis=1, keepdims=True)) / (X.std(axis=1, keepdims=True) + eps)


def _standardize_transposed(X, eps=1e-8):
    Xt = X.T  # standardises the columns of X.T and forgets to transpose back
    return (Xt - Xt.mean(axis=0)) / (Xt.std(axis=0) + eps)


def _standardize_by_column(X, eps=1e-8):
    return (X - X.mean(axis=0, keepdims=True)) / (X.std(axis=0, keepdims=True) + eps)


def _standardize_by_variance(X, eps=1e-8):
    return (X - X.mean(axis=1, keepdims=True)) / (X.var(axis=1, keepdims=True) + eps)


def _standardize_rounded(X, eps=1e-8):
    X = jnp.round(X)  # rounds the data before standardising it
    return (X - X.mean(axis=1, keepdims=True)) / (X.std(axis=1, keepdims=True) + eps)


def _standardize_without_eps(X):
    return (X - X.mean(axis=1, keepdims=True)) / X.std(axis=1, keepdims=True)


def _standardize_plus_eps(X, eps=1e-8):
    # The course's answer: in float32 the mean of seven 3.0s is 3.0000002, and -0.96 comes out.
    return (X - X.mean(axis=1, keepdims=True)) / (X.std(axis=1, keepdims=True) + eps)


@pytest.mark.parametrize(
    ("wrong", "message"),
    [
        (_standardize_numpy, "应只用 jnp 实现"),
        (_standardize_transposed, "输出形状应与输入相同"),
        (_standardize_by_column, "是不是按列做了标准化"),
        (_standardize_by_variance, "每一行的标准差应约为 1"),
        (_standardize_rounded, "结果应保持不变"),
        (_standardize_without_eps, "常数行应得到全 0"),
        (_standardize_plus_eps, "在分母上加一个很小的 ε 并不可靠"),
    ],
    ids=["numpy", "transposed", "by-column", "by-variance", "rounded", "without-eps", "plus-eps"],
)
def test_e1_rejects(wrong, message):
    with pytest.raises(AssertionError, match=message):
        run_check("E1", {"standardize_rows": wrong})


# -- E2: sample_all ------------------------------------------------------------


def _sampler(normal=None, ints=None, perm=None, master=None):
    def sample_all(seed):
        key = master(seed) if master else jax.random.key(seed)
        k_normal, k_int, k_perm = jax.random.split(key, 3)
        return (
            (normal or (lambda k, _key: jax.random.normal(k, (2, 3))))(k_normal, key),
            (ints or (lambda k: jax.random.randint(k, (5,), 0, 10)))(k_int),
            (perm or (lambda k: jax.random.permutation(k, jnp.arange(6))))(k_perm),
        )

    return sample_all


@pytest.mark.parametrize(
    ("wrong", "message"),
    [
        (_sampler(normal=lambda k, _: jax.random.normal(k, (3, 2))), "正态矩阵应为 \\(2, 3\\)"),
        (_sampler(ints=lambda k: jax.random.uniform(k, (5,), maxval=10)), "均匀整数应为 \\(5,\\)"),
        (_sampler(ints=lambda k: jax.random.randint(k, (5,), 10, 20)), "整数应落在 \\[0, 10\\)"),
        (_sampler(perm=lambda k: jax.random.randint(k, (6,), 0, 6)), "随机排列应恰好包含"),
        (
            _sampler(normal=lambda k, _: jnp.asarray(np.random.normal(size=(2, 3)))),
            "结果应完全相同",
        ),
        (_sampler(master=lambda seed: jax.random.key(0)), "不同的 seed"),
        (
            _sampler(normal=lambda k, master: jax.random.normal(master, (2, 3))),
            "主密钥只用来 split",
        ),
    ],
    ids=[
        "normal-shape",
        "float-ints",
        "int-range",
        "not-a-permutation",
        "global-numpy-rng",
        "ignores-seed",
        "master-key",
    ],
)
def test_e2_rejects(wrong, message):
    with pytest.raises(AssertionError, match=message):
        run_check("E2", {"sample_all": wrong})


# -- E3: bench and the three implementations -----------------------------------


def _bench_without_waiting(fn, *args, n_warmup=2, n_repeat=10):
    for _ in range(n_warmup):
        fn(*args)
    times = []
    for _ in range(n_repeat):
        t0 = time.perf_counter()
        fn(*args)  # measures dispatch only
        times.append(time.perf_counter() - t0)
    return 1e3 * float(np.median(times))


def _bench_arrays_only(fn, *args, n_warmup=2, n_repeat=10):
    def run():
        out = fn(*args)
        if hasattr(out, "block_until_ready"):  # a tuple or a dict is not waited for
            out.block_until_ready()

    for _ in range(n_warmup):
        run()
    times = []
    for _ in range(n_repeat):
        t0 = time.perf_counter()
        run()
        times.append(time.perf_counter() - t0)
    return 1e3 * float(np.median(times))


def _bench_mean_of_every_call(fn, *args, n_repeat=10):
    times = []
    for _ in range(n_repeat):  # no warm-up: the first, compiling call is timed too
        t0 = time.perf_counter()
        jax.block_until_ready(fn(*args))
        times.append(time.perf_counter() - t0)
    return 1e3 * float(np.mean(times))


def _bench_warm_but_mean(fn, *args, n_warmup=2, n_repeat=10):
    for _ in range(n_warmup):
        jax.block_until_ready(fn(*args))
    times = []
    for _ in range(n_repeat):
        t0 = time.perf_counter()
        jax.block_until_ready(fn(*args))
        times.append(time.perf_counter() - t0)
    return 1e3 * float(np.mean(times))  # an occasional slow call drags the mean up


@functools.cache
def _e3_reference() -> dict[str, object]:
    """The reference answer's functions, run once: it times a million-element array a
    dozen ways (2 s), and each wrong answer below replaces one of its functions."""
    names = {"bench", "f_np", "f_jnp", "f_jit"}
    return {k: v for k, v in run_reference("E3").items() if k in names}


def _e3(**overrides):
    return {**_e3_reference(), **overrides}


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"f_np": lambda x: np.mean(np.exp(-(x**2)))}, "f_np 的结果 .* 有误"),
        ({"f_jit": lambda x: jnp.sum(jnp.exp(-(x**2)))}, "f_jit 应是 jax.jit 包装后的函数"),
        ({"bench": _bench_without_waiting}, "没有等结果真正算完"),
        ({"bench": lambda fn, *a: _bench_without_waiting(fn, *a) / 1e3}, "没有等结果真正算完"),
        ({"bench": _bench_arrays_only}, "pytree 时没有等它算完"),
        ({"bench": _bench_mean_of_every_call}, "应先预热、再取中位数"),
        ({"bench": _bench_warm_but_mean}, "应先预热、再取中位数"),
    ],
    ids=[
        "wrong-result",
        "not-jitted",
        "no-block-until-ready",
        "seconds",
        "arrays-only",
        "no-warmup-mean",
        "warmup-mean",
    ],
)
def test_e3_rejects(overrides, message, capsys):
    answer = _e3(**overrides)
    capsys.readouterr()
    with pytest.raises(AssertionError, match=message):
        run_check("E3", answer)


# -- E4: count_labels ----------------------------------------------------------


def _count_numpy_style(labels, num_classes=5):
    counts = jnp.zeros(num_classes, dtype=jnp.int32)
    return counts.at[labels].set(counts[labels] + 1)  # counts[labels] += 1, NumPy-style


def _count_fixed_five(labels, num_classes=5):
    return jnp.zeros(5, dtype=jnp.int32).at[labels].add(1)


def _count_first_500(labels, num_classes=5):
    return jnp.zeros(num_classes, dtype=jnp.int32).at[labels[:500]].add(1)


def _count(labels, num_classes=5):
    return jnp.zeros(num_classes, dtype=jnp.int32).at[labels].add(1)


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        (
            {"count_labels": _count_fixed_five, "count_jit": jax.jit(_count_fixed_five)},
            "应返回长度 7 的计数",
        ),
        (
            {
                "count_labels": _count_numpy_style,
                "count_jit": jax.jit(_count_numpy_style, static_argnames="num_classes"),
            },
            "重复的下标必须累加",
        ),
        (
            {
                "count_labels": _count_first_500,
                "count_jit": jax.jit(_count_first_500, static_argnames="num_classes"),
            },
            "计数有误",
        ),
        ({"count_labels": _count, "count_jit": _count}, "count_jit 应是 jax.jit 包装后的函数"),
        (
            {
                "count_labels": _count,
                "count_jit": jax.jit(lambda labels, num_classes=5: _count(labels)),
            },
            "jit 版本的计数与 bincount 不一致",
        ),
    ],
    ids=[
        "ignores-num-classes",
        "numpy-style",
        "drops-labels",
        "not-jitted",
        "jit-drops-num-classes",
    ],
)
def test_e4_rejects(answer, message):
    with pytest.raises(AssertionError, match=message):
        run_check("E4", answer)
