print("hello from a fresh interpreter")
