# 🧪 自检：练习 E2。通过时什么也不打印；不通过时，AssertionError 说明哪里不对
try:
    sample_all
except NameError:
    print("请先在上方的作答区定义 sample_all(seed) 并运行，再运行本单元。")
else:
    _n, _i, _p = sample_all(2024)
    assert _n.shape == (2, 3) and jnp.issubdtype(_n.dtype, jnp.floating), (
        f"正态矩阵应为 (2, 3) 浮点数组，实际 {_n.shape} {_n.dtype}")
    assert _i.shape == (5,) and jnp.issubdtype(_i.dtype, jnp.integer), (
        f"均匀整数应为 (5,) 整数数组，实际 {_i.shape} {_i.dtype}")
    assert bool(((_i >= 0) & (_i < 10)).all()), (
        f"整数应落在 [0, 10)，实际 {_i}")
    assert jnp.array_equal(jnp.sort(_p), jnp.arange(6)), (
        f"随机排列应恰好包含 0～5 各一次，实际 {_p}")
    _again = sample_all(2024)
    assert all(jnp.array_equal(u, v) for u, v in zip((_n, _i, _p), _again)), (
        "同一个 seed 两次调用，结果应完全相同")
    assert not jnp.array_equal(_n, sample_all(7)[0]), (
        "不同的 seed 应得到不同的随机数")
    _direct = jax.random.normal(jax.random.key(2024), (2, 3))
    assert not jnp.array_equal(_n, _direct), (
        "正态矩阵不应直接用主密钥生成：主密钥只用来 split")
