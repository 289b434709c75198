// SDLDisplay (placeholder until it lands)
