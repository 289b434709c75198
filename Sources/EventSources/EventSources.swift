// EventSources — where events come from: the I/O half of the sources (SourceKit is the pure
// half: the protocol, the registry value, the specs, every machine).
//
// What lives here: one shell per kind, each run by the one `MachineDriver` — the simulated team
// (`SimSource`, live through `SimDriver`), JSON Lines files and standard input
// (`JSONLinesSource`), a journal played back (`ReplaySource`, read through the Journal module),
// the Orchestra client (`OrchestraSource` over `OrchestraLink` and a Transport); the workspace
// store (`Workspace/`: locating it on this machine, reading the plugin's SQLite database and
// markdown tree, whose bytes and rows WorkspaceFormats decodes); `FileWatcher`, the one file
// watcher (inotify through `InotifySyscalls`, polling where there is none);
// `SourceRegistry.standard`, this build's kinds. Every source is handed the
// board's one `Clock` and reads no other; every source turns its bytes into `BoardInput`s
// through the same decoders in Wire; none mutates board state.
// What it may import: SourceKit, WallboardCore, Clock, Wire, WorkspaceFormats, SQLite, Journal,
// Transport, Foundation (threads, files).
