# 🧪 自检：练习 E4。通过时什么也不打印；不通过时，AssertionError 说明哪里不对
try:
    count_labels, count_jit
except NameError:
    print("请先在上方的作答区定义 count_labels 和 count_jit 并运行，再运行本单元。")
else:
    _lab = jax.random.randint(jax.random.key(123), (777,), 0, 7)
    _ref = np.bincount(np.asarray(_lab), minlength=7)
    _c = count_labels(_lab, num_classes=7)
    assert _c.shape == (7,), (
        f"num_classes=7 时应返回长度 7 的计数，实际形状 {_c.shape}")
    _same = count_labels(jnp.full((50,), 2), num_classes=3)
    assert int(_same[2]) == 50, (
        "50 个相同标签的计数应为 50：重复的下标必须累加")
    assert np.array_equal(np.asarray(_c), _ref), (
        f"计数有误：期望 {_ref}，实际 {_c}")
    assert hasattr(count_jit, "lower"), "count_jit 应是 jax.jit 包装后的函数"
    assert np.array_equal(np.asarray(count_jit(_lab, num_classes=7)), _ref), (
        "jit 版本的计数与 bincount 不一致")
