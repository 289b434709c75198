// WallboardCLI module
