# 🧪 自检：练习 E1。通过时什么也不打印；不通过时，AssertionError 说明哪里不对
try:
    standardize_rows
except NameError:
    print("请先在上方的作答区定义 standardize_rows(X) 并运行，再运行本单元。")
else:
    # 每行的尺度、偏移都不同
    _X = (jax.random.uniform(jax.random.key(11), (6, 9))
          * jnp.arange(1.0, 7.0)[:, None] + 5.0 * jnp.arange(6.0)[:, None])
    _Z = standardize_rows(_X)
    assert isinstance(_Z, jax.Array), (
        "standardize_rows 应只用 jnp 实现，返回 JAX 数组")
    assert _Z.shape == _X.shape, (
        f"输出形状应与输入相同 {_X.shape}，实际 {_Z.shape}")
    _Zn = np.asarray(_Z, dtype=np.float64)
    assert np.allclose(_Zn.mean(axis=1), 0, atol=1e-5), (
        "每一行的均值应约为 0（是不是按列做了标准化？）")
    assert np.allclose(_Zn.std(axis=1), 1, atol=1e-4), (
        "每一行的标准差应约为 1")
    assert np.allclose(standardize_rows(_X * 3.0 + 7.0), _Z, atol=1e-4), (
        "对输入做 a·X+b（a>0）后，结果应保持不变")
    # 常数行：7 个相同的数，包括全 0 的行
    _C = np.asarray(standardize_rows(jnp.array([[3.0] * 7, [0.0] * 7, [-2.5] * 7])))
    assert np.all(np.isfinite(_C)) and np.allclose(_C, 0, atol=1e-6), (
        f"常数行应得到全 0，实际 {_C[:, 0]}：float32 算出的均值带有舍入误差，"
        "常数行的标准差未必恰好为 0，在分母上加一个很小的 ε 并不可靠")
