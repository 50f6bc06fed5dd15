# A ❌ example: the page says it fails, and with what.
numbers = np.array([1, 2, 3])
