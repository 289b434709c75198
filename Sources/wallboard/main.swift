print("wallboard")
