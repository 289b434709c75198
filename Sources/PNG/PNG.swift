// PNG (placeholder until it lands)
