// EventSources — where events come from.
//
// What lives here: the `EventSource` protocol and `SourceRegistry` (a `--source` spec → its
// source); one conformance per kind — the simulated team (`SimSource`, live through
// `SimDriver`), JSON Lines files and standard input (`JSONLinesSource`), a journal played back
// (`ReplaySource`, read through the Journal module), the Orchestra TCP client
// (`OrchestraSource`, the shell around the pure `OrchestraSessionMachine`); the workspace store
// (`Workspace/`: locating it, reading the plugin's SQLite database and markdown tree, whose
// bytes and rows WorkspaceFormats decodes); `FileWatcher`, the one file watcher
// (inotify through `InotifySyscalls`, polling where there is none); `Backoff`. Every source is handed the
// board's one `Clock` (the Clock module) and reads no other. Every source
// turns its bytes into `BoardInput`s through the same decoders in Wire; none mutates board state.
// What it may import: WallboardCore, Clock, Wire, WorkspaceFormats, SQLite, Journal, Foundation (threads,
// files).
