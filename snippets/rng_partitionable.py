# 随机数的具体数值依赖 RNG 配置：用法 python rng_partitionable.py True|False
import sys

import jax
import jax.numpy as jnp

flag = {"True": True, "False": False}[sys.argv[1]]
jax.config.update("jax_threefry_partitionable", flag)  # 在生成任何随机数之前切换
x = jax.random.normal(jax.random.key(0), (10,))
print(float(jnp.dot(x, x)))
