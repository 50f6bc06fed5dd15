# 在模拟的 4 个 CPU 设备上，用三种并行方式计算同一个结果：各元素平方和
import jax

# 模拟 4 个 CPU 设备，必须在使用 JAX 之前设置
jax.config.update("jax_num_cpu_devices", 4)
import jax.numpy as jnp
from jax.sharding import AxisType, NamedSharding

x = jnp.arange(8.0)
expected = float(jnp.sum(x**2))  # 单个设备上的结果


def sum_of_squares(v):
    return jnp.sum(v**2)


# 1. 自动并行：网格轴声明为 Auto，照常调用 jit 编译的函数，由编译器切分计算
auto_mesh = jax.make_mesh((4,), ("x",), axis_types=(AxisType.Auto,))
x_auto = jax.device_put(x, NamedSharding(auto_mesh, jax.P("x")))
doubled = jax.jit(lambda v: 2 * v)(x_auto)
spec_in, spec_out = x_auto.sharding.spec, doubled.sharding.spec
print(f"自动并行：输入分片 {spec_in}，输出分片 {spec_out}")
r_auto = float(jax.jit(sum_of_squares)(x_auto))

# 矩阵按列切分，a @ a.T 求和的那一维就是切分的维：输出怎样切分由编译器决定
by_column = NamedSharding(auto_mesh, jax.P(None, "x"))
a = jax.device_put(jnp.ones((8, 8)), by_column)
aat = jax.jit(lambda m: m @ m.T)(a)
values = jnp.unique(aat)
print(f"自动并行：按列切分的 a，a @ a.T 正常运行，其中的值只有 {values}")

# 2. 显式分片：jax.make_mesh 默认的轴类型，分片写进数组的类型
mesh = jax.make_mesh((4,), ("x",))
print(f"显式分片：网格轴的类型是 {mesh.axis_types[0]}")
with jax.set_mesh(mesh):
    x_explicit = jax.device_put(x, jax.P("x"))
    print(f"显式分片：jax.typeof(x) = {jax.typeof(x_explicit)}")
    r_explicit = float(jax.jit(sum_of_squares)(x_explicit))

    # 同样的 a @ a.T：类型规则无法确定输出的分片，抛出 ShardingTypeError
    a = jax.device_put(jnp.ones((8, 8)), jax.P(None, "x"))
    try:
        a @ a.T
    except Exception as e:
        print(f"显式分片：a @ a.T 抛出 {type(e).__name__}")
    # 修正：用 out_sharding= 指定输出的分片（这里是不切分）
    c = jnp.matmul(a, a.T, out_sharding=jax.P())
    print(f"显式分片：指定 out_sharding 后，结果的类型是 {jax.typeof(c)}")

    # 3. 手动并行：shard_map 在每个设备上处理自己那一块，用 psum 跨设备求和
    def per_device(block):
        assert block.shape == (2,)  # 每个设备分到 8 / 4 = 2 个元素
        return jax.lax.psum(jnp.sum(block**2), "x")

    sharded = jax.shard_map(per_device, in_specs=jax.P("x"), out_specs=jax.P())
    manual = jax.jit(sharded)
    # 显式轴上，in_specs 只核对输入已有的分片，不替你切分：未切分的 x 抛出 ValueError
    try:
        manual(x)
    except ValueError as e:
        print(f"手动并行：未切分的输入抛出 {type(e).__name__}")
    # 修正：先按 in_specs 切分输入（也可以用 jax.reshard）
    r_manual = float(manual(x_explicit))

print(f"三种方式的结果：自动 {r_auto}，显式 {r_explicit}，手动 {r_manual}")
print(f"单个设备上的结果：{expected}")

# 旧教程里与 pmap 配套的两个函数已经移除：访问它们会抛出 AttributeError
for name in ["device_put_sharded", "device_put_replicated"]:
    try:
        getattr(jax, name)
    except AttributeError as e:
        print(f"jax.{name}：{type(e).__name__}")
