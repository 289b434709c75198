// Themes module
