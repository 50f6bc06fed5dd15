# 打开 jax_check_static_indices：越界的静态下标在追踪时就报错
import jax
import jax.numpy as jnp

jax.config.update("jax_check_static_indices", True)
a = jnp.arange(5)
for name, read in [
    ("a[10]", lambda v: v[10]),
    ("jit 下的 a[10]", jax.jit(lambda v: v[10])),
]:
    try:
        read(a)
    except IndexError as e:
        print(f"{name}：IndexError: {e}")
# 下标是追踪器时不在检查范围内，仍被钳制
traced = jax.jit(lambda v, i: v[i])(a, 10)
print(f"jit 下的 a[i]（i=10 为追踪器）-> {traced}")
assert traced == 4
