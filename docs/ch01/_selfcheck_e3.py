# 🧪 自检：练习 E3。通过时什么也不打印；不通过时，AssertionError 说明哪里不对
try:
    bench, f_np, f_jnp, f_jit
except NameError:
    print("请先在上方的作答区定义 bench(fn, *args) 和 f_np、f_jnp、f_jit 并运行，再运行本单元。")
else:
    _x = jax.random.normal(jax.random.key(5), (100_000,))
    # sin²+cos²=1，所以结果应接近 Σ exp(-x²)
    _ref = float(np.exp(-np.asarray(_x, dtype=np.float64) ** 2).sum())
    for _name, _fn, _arg in [("f_np", f_np, np.asarray(_x)),
                             ("f_jnp", f_jnp, _x), ("f_jit", f_jit, _x)]:
        _r = float(_fn(_arg))
        assert np.isclose(_r, _ref, rtol=1e-4), (
            f"{_name} 的结果 {_r:.3f} 有误，应约为 {_ref:.3f}")
    assert hasattr(f_jit, "lower"), "f_jit 应是 jax.jit 包装后的函数"

    class _Async:  # 模拟异步派发的结果：要等 30 ms 才真正算完
        def block_until_ready(self):
            time.sleep(0.03)
            return self

    _t = float(bench(lambda: _Async()))
    assert _t >= 25, (
        f"bench 测得 {_t:.2f} ms：没有等结果真正算完（或单位不是毫秒）")
    # 结果是 pytree：元组里套字典
    _t = float(bench(lambda: (_Async(), {"y": _Async()})))
    assert _t >= 50, (
        f"bench 测得 {_t:.2f} ms：结果是元组、字典等 pytree 时没有等它算完，"
        "可用 jax.block_until_ready(out)")

    _state = {"n": 0}

    def _noisy():
        # 第 1 次调用很慢（模拟编译），
        # 之后每 3 次调用有 1 次变慢（模拟偶发的干扰）
        _state["n"] += 1
        if _state["n"] == 1:
            time.sleep(0.3)
        elif _state["n"] % 3 == 0:
            time.sleep(0.2)

    _t = float(bench(_noisy))
    assert _t < 50, (
        f"bench 测得 {_t:.1f} ms：结果被首次调用或偶发的慢调用拉高了，"
        "应先预热、再取中位数")
