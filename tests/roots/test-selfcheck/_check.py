# zyzzyva: the self-check of the exercise
try:
    answer
except NameError:
    print("Define answer() above, then run this cell again.")
else:
    assert answer() == 42, "answer() should return 42"
