# 在模拟的 4 个 CPU 设备上，用三种并行方式计算同一个结果：各元素平方和
import jax

jax.config.update("jax_num_cpu_devices", 4)  # 模拟 4 个 CPU 设备，必须在使用 JAX 之前设置
import jax.numpy as jnp
from jax.sharding import AxisType, NamedSharding

x = jnp.arange(8.0)
expected = float(jnp.sum(x**2))  # 单个设备上的结果


def sum_of_squares(v):
    return jnp.sum(v**2)


# 1. 自动并行：按网格轴 x 切分输入，jit 编译的函数照常调用，切分由编译器决定
auto_mesh = jax.make_mesh((4,), ("x",), axis_types=(AxisType.Auto,))
x_auto = jax.device_put(x, NamedSharding(auto_mesh, jax.P("x")))
doubled = jax.jit(lambda v: 2 * v)(x_auto)
print(f"自动并行：输入分片 {x_auto.sharding.spec}，输出分片 {doubled.sharding.spec}")
assert doubled.sharding.spec == jax.P("x")
r_auto = float(jax.jit(sum_of_squares)(x_auto))

# 2. 显式分片：分片写进数组的类型，用 jax.typeof 查看
mesh = jax.make_mesh((4,), ("x",), axis_types=(AxisType.Explicit,))
with jax.set_mesh(mesh):
    x_explicit = jax.device_put(x, jax.P("x"))
    print(f"显式分片：jax.typeof(x) = {jax.typeof(x_explicit)}")
    assert str(jax.typeof(x_explicit)) == "float32[8@x]"
    r_explicit = float(jax.jit(sum_of_squares)(x_explicit))

    # 3. 手动并行：shard_map 在每个设备上处理自己那一块，用 psum 跨设备求和
    def per_device(block):
        assert block.shape == (2,)  # 每个设备分到 8 / 4 = 2 个元素
        return jax.lax.psum(jnp.sum(block**2), "x")

    manual = jax.jit(jax.shard_map(per_device, in_specs=jax.P("x"), out_specs=jax.P()))
    r_manual = float(manual(x_explicit))

print(f"三种方式的结果：自动 {r_auto}，显式 {r_explicit}，手动 {r_manual}")
assert r_auto == r_explicit == r_manual == expected

# 旧教程里与 pmap 配套的两个函数已经移除
assert not hasattr(jax, "device_put_sharded") and not hasattr(jax, "device_put_replicated")
print("全部检查通过")
