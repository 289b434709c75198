// Projections — what the widgets draw, as pure functions of a `BoardState`.
//
// What lives here: the burndown and burnup (`Burndown.compute`, per `docs/burndown.md`),
// the cumulative flow and throughput of the last days (`Flow.compute`), tallies and progress, the
// status of each source, the active sprint, time zones (`Zone`).
// What it may import: WallboardCore alone: no I/O (the zone files are read by `ZoneFiles`).
