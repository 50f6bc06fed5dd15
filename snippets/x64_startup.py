# 在程序启动时开启 jax_enable_x64：要在创建任何数组之前设置
import jax

jax.config.update("jax_enable_x64", True)  # 必须在创建数组之前设置
import jax.numpy as jnp

a = jnp.array([1.0, 2.0], dtype=jnp.float64)
assert a.dtype == jnp.float64
default_float, default_int = jnp.array([1.0]).dtype, jnp.arange(3).dtype
assert default_float == jnp.float64 and default_int == jnp.int64
print(f"开启 x64 后，显式 float64：{a.dtype}")
print(f"开启 x64 后，默认浮点：{default_float}，默认整数：{default_int}")
