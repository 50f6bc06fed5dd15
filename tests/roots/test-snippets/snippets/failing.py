print("before the error")
raise SystemExit("the script's own error message")
