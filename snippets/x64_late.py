# 对照：中途才开启 x64——不报错，但开启前创建的数组仍是 float32
import jax
import jax.numpy as jnp

early = jnp.ones(2)  # 开启 x64 之前创建
jax.config.update("jax_enable_x64", True)  # 故意晚一步开启
late = jnp.ones(2, dtype=jnp.float64)
assert early.dtype == jnp.float32 and late.dtype == jnp.float64
before, after = early.dtype, late.dtype
print(f"中途开启 x64：之前创建的数组 {before}，之后创建的数组 {after}")
