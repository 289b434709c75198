// Glyphs (placeholder until it lands)
