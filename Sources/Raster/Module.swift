// Raster
