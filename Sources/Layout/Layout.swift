// Layout (placeholder until it lands)
