// WallboardCore — the domain and the one transition function.
//
// What lives here: domain values (`Feature`, `Sprint`, `Workflow`, `Event`, `Instant`,
// `CivilDate`), `BoardState`, and the pure reducer `Reducer.reduce(into:_:)`.
// What it may import: nothing but the standard library. No I/O, no clocks, no C, no Foundation:
// time arrives inside events.
