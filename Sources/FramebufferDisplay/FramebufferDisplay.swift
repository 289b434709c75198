// FramebufferDisplay (placeholder until it lands)
