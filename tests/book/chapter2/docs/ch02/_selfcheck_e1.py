# 🧪 自检：练习 E1。通过时什么也不打印；不通过时，AssertionError 说明哪里不对
try:
    abs_jit
except NameError:
    print("请先在上方的作答区定义 abs_jit(x) 并运行，再运行本单元。")
else:
    _x = jnp.array([-2.0, 0.0, 3.0])
    assert hasattr(abs_jit, "lower"), "abs_jit 应是 jax.jit 编译过的函数"
    assert jnp.array_equal(abs_jit(_x), jnp.abs(_x)), (
        f"abs_jit 应返回每个元素的绝对值，实际 {abs_jit(_x)}")
