# 用 jax_num_cpu_devices 模拟 4 个 CPU 设备，演示已提交数组的跨设备运算
import jax

# 模拟 4 个 CPU 设备，必须在使用 JAX 之前设置
jax.config.update("jax_num_cpu_devices", 4)
import jax.numpy as jnp

devs = jax.devices("cpu")  # 显式获取 CPU 设备：有 GPU 时默认设备是 GPU
assert len(devs) == 4
print(f"模拟的设备：{devs}")

x = jnp.arange(4.0)
a = jax.device_put(x, devs[1])  # 已提交到 cpu:1
b = jax.device_put(x, devs[2])  # 已提交到 cpu:2
print(f"a 在 {a.device}，b 在 {b.device}")
assert (a + 1).device == devs[1]
assert (a + jnp.ones(4)).device == devs[1]  # 未提交数组被自动传输到 cpu:1
moved = a + jnp.ones(4)
print(f"a + jnp.ones(4)（未提交数组被自动传输过来）在 {moved.device}")

raised = False
try:
    a + b
except ValueError as e:
    raised = True
    # 只打印错误信息的第一句
    print(f"a + b 报错 ValueError: {str(e).split('. ')[0]}.")
assert raised

# 正确做法：先把数据显式传输到同一设备
c = a + jax.device_put(b, devs[1])
assert c.device == devs[1] and jnp.array_equal(c, 2 * x)
print(f"传输到同一设备后 a + b = {c}，位于 {c.device}")
print("全部检查通过")
