"""Wrong answers to chapter 1's exercises E1-E4: each self-check rejects each of them with
the message it names, and every message a self-check states is met by one of them.

The self-checks (``docs/ch01/_selfcheck_e*.py``) are run as the pages' notebooks run them,
after the exercises page's imports (``tests/book/conftest.py``'s ``exercise`` fixture); that
each passes its reference answer and says what to do before an answer is every chapter's
test, ``tests/book/test_selfchecks.py``. Here an answer is given by the objects it defines,
by name, so that a wrong answer can be written as a function.
"""

from __future__ import annotations

import functools
import time

import jax
import jax.numpy as jnp
import numpy as np
import pytest


@pytest.mark.parametrize(
    ("exercise_name", "names"),
    [
        ("E1", "standardize_rows(X)"),
        ("E2", "sample_all(seed)"),
        ("E3", "bench(fn, *args) 和 f_np、f_jnp、f_jit"),
        ("E4", "count_labels 和 count_jit"),
    ],
)
def test_before_an_answer_the_self_check_says_what_to_do(exercise, exercise_name, names):
    said = exercise("ch01", exercise_name).run({})
    assert said == f"请先在上方的作答区定义 {names} 并运行，再运行本单元。\n"


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


E1_WRONG = {
    "numpy": (_standardize_numpy, "应只用 jnp 实现"),
    "transposed": (_standardize_transposed, "输出形状应与输入相同"),
    "by-column": (_standardize_by_column, "是不是按列做了标准化"),
    "by-variance": (_standardize_by_variance, "每一行的标准差应约为 1"),
    "rounded": (_standardize_rounded, "结果应保持不变"),
    "without-eps": (_standardize_without_eps, "常数行应得到全 0"),
    "plus-eps": (_standardize_plus_eps, "在分母上加一个很小的 ε 并不可靠"),
}


@pytest.mark.parametrize("wrong", E1_WRONG)
def test_e1_rejects(exercise, wrong):
    answer, message = E1_WRONG[wrong]
    exercise("ch01", "E1").rejects({"standardize_rows": answer}, message)


def test_e1_has_a_wrong_answer_for_each_message(exercise):
    exercise("ch01", "E1").each_message_met([message for _, message in E1_WRONG.values()])


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


E2_WRONG = {
    "normal-shape": (
        _sampler(normal=lambda k, _: jax.random.normal(k, (3, 2))),
        "正态矩阵应为 (2, 3)",
    ),
    "float-ints": (
        _sampler(ints=lambda k: jax.random.uniform(k, (5,), maxval=10)),
        "均匀整数应为 (5,)",
    ),
    "int-range": (
        _sampler(ints=lambda k: jax.random.randint(k, (5,), 10, 20)),
        "整数应落在 [0, 10)",
    ),
    "not-a-permutation": (
        _sampler(perm=lambda k: jax.random.randint(k, (6,), 0, 6)),
        "随机排列应恰好包含",
    ),
    "global-numpy-rng": (
        _sampler(normal=lambda k, _: jnp.asarray(np.random.normal(size=(2, 3)))),
        "结果应完全相同",
    ),
    "ignores-seed": (_sampler(master=lambda seed: jax.random.key(0)), "不同的 seed"),
    "master-key": (
        _sampler(normal=lambda k, master: jax.random.normal(master, (2, 3))),
        "主密钥只用来 split",
    ),
}


@pytest.mark.parametrize("wrong", E2_WRONG)
def test_e2_rejects(exercise, wrong):
    answer, message = E2_WRONG[wrong]
    exercise("ch01", "E2").rejects({"sample_all": answer}, message)


def test_e2_has_a_wrong_answer_for_each_message(exercise):
    exercise("ch01", "E2").each_message_met([message for _, message in E2_WRONG.values()])


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
def _e3_reference(e3) -> dict[str, object]:
    """The reference answer's functions, run once: it times a million-element array a
    dozen ways (2 s), and each wrong answer below replaces one of its functions."""
    names = {"bench", "f_np", "f_jnp", "f_jit"}
    defined = e3.defined_by(e3.reference_answer, answers_page=True)
    return {k: v for k, v in defined.items() if k in names}


E3_WRONG = {
    # The message names the function whose result is wrong: "f_np 的结果 … 有误".
    "wrong-result": ({"f_np": lambda x: np.mean(np.exp(-(x**2)))}, "f_np 的结果"),
    "not-jitted": (
        {"f_jit": lambda x: jnp.sum(jnp.exp(-(x**2)))},
        "f_jit 应是 jax.jit 包装后的函数",
    ),
    "no-block-until-ready": ({"bench": _bench_without_waiting}, "没有等结果真正算完"),
    "seconds": (
        {"bench": lambda fn, *a: _bench_without_waiting(fn, *a) / 1e3},
        "没有等结果真正算完",
    ),
    "arrays-only": ({"bench": _bench_arrays_only}, "pytree 时没有等它算完"),
    "no-warmup-mean": ({"bench": _bench_mean_of_every_call}, "应先预热、再取中位数"),
    "warmup-mean": ({"bench": _bench_warm_but_mean}, "应先预热、再取中位数"),
}


@pytest.mark.parametrize("wrong", E3_WRONG)
def test_e3_rejects(exercise, wrong):
    e3 = exercise("ch01", "E3")
    overrides, message = E3_WRONG[wrong]
    e3.rejects({**_e3_reference(e3), **overrides}, message)


def test_e3_has_a_wrong_answer_for_each_message(exercise):
    # The wrong result's message is an f-string that begins with the function's name: its
    # fixed text is "的结果 … 有误，应约为 …".
    said = [message for _, message in E3_WRONG.values()] + ["的结果"]
    exercise("ch01", "E3").each_message_met(said)


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


E4_WRONG = {
    "ignores-num-classes": (
        {"count_labels": _count_fixed_five, "count_jit": jax.jit(_count_fixed_five)},
        "应返回长度 7 的计数",
    ),
    "numpy-style": (
        {
            "count_labels": _count_numpy_style,
            "count_jit": jax.jit(_count_numpy_style, static_argnames="num_classes"),
        },
        "重复的下标必须累加",
    ),
    "drops-labels": (
        {
            "count_labels": _count_first_500,
            "count_jit": jax.jit(_count_first_500, static_argnames="num_classes"),
        },
        "计数有误",
    ),
    "not-jitted": (
        {"count_labels": _count, "count_jit": _count},
        "count_jit 应是 jax.jit 包装后的函数",
    ),
    "jit-drops-num-classes": (
        {
            "count_labels": _count,
            "count_jit": jax.jit(lambda labels, num_classes=5: _count(labels)),
        },
        "jit 版本的计数与 bincount 不一致",
    ),
}


@pytest.mark.parametrize("wrong", E4_WRONG)
def test_e4_rejects(exercise, wrong):
    answer, message = E4_WRONG[wrong]
    exercise("ch01", "E4").rejects(answer, message)


def test_e4_has_a_wrong_answer_for_each_message(exercise):
    exercise("ch01", "E4").each_message_met([message for _, message in E4_WRONG.values()])
