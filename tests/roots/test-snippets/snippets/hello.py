import os

print(f"hello from a fresh interpreter on {os.environ['JAX_PLATFORMS']}")
