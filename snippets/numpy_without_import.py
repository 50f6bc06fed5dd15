# 课程里的 NumPy 对照代码，原样复制出来单独运行：没有 import numpy as np
numpy_array = np.array([1, 2, 3])
numpy_array[0] = 100
