# 用 jax_num_cpu_devices 模拟 4 个 CPU 设备，演示已提交数组的跨设备运算
import jax

# 模拟 4 个 CPU 设备，必须在使用 JAX 之前设置
jax.config.update("jax_num_cpu_devices", 4)
import jax.numpy as jnp

devs = jax.devices("cpu")  # 显式获取 CPU 设备：有 GPU 时默认设备是 GPU
print(f"模拟的设备：{devs}")

x = jnp.arange(4.0)
a = jax.device_put(x, devs[1])  # 已提交到 cpu:1
b = jax.device_put(x, devs[2])  # 已提交到 cpu:2
print(f"a 在 {a.device}，b 在 {b.device}")
moved = a + jnp.ones(4)  # jnp.ones(4) 未提交，被自动传输到 cpu:1
print(f"a + jnp.ones(4)（未提交数组被自动传输过来）在 {moved.device}")

try:
    a + b
except ValueError as e:
    # 只打印错误信息的第一句
    print(f"a + b 报错 ValueError: {str(e).split('. ')[0]}.")

# 正确做法：先把数据显式传输到同一设备
c = a + jax.device_put(b, devs[1])
print(f"传输到同一设备后 a + b = {c}，位于 {c.device}")
