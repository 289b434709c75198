// Widgets (placeholder until it lands)
