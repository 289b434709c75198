// TerminalDisplay (placeholder until it lands)
