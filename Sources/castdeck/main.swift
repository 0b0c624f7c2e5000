print("castdeck")
