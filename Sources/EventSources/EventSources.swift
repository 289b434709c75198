// EventSources — where events come from.
//
// What lives here: source specs (`--source`), the simulated team and its live driver, JSON
// Lines files and standard input. Every source turns its bytes into `BoardInput`s through the
// same decoders in Wire; none of them mutates board state.
// What it may import: WallboardCore, Wire, Foundation (threads, files).
