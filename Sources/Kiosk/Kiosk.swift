// Kiosk — what a display on a wall needs day and night, as pure functions of the time.
//
// What lives here: the night schedule (dim or blank between given times, per weekday), burn-in
// protection (the whole frame moved by a few pixels every few minutes, never more than 0.5 % of
// it), and the page timer that turns a layout's pages by their durations.
// What it may import: WallboardCore (Instant, Weekday), Projections (Zone), Raster (Canvas).
