// WorkspaceFormats — what an Orchestra workspace's files and rows say, read by pure functions.
//
// What lives here: `FrontMatter` (the YAML subset `yaml.v3` writes, and the export's verbatim
// `key: value` lines), `YAMLNode` (the YAML people write by hand), `WorkflowFile` (a workspace's
// own workflow), `AuditTrail` (a body's trail read back as moves, and the backfill rule),
// `FeatureFile` (a feature file's bytes → a record), `FeatureRow` (a `features` row's values → a
// feature or a typed row problem), `StoreTime` (the store's two timestamp forms) and `SHA256`
// (which names a workspace's database). Every input is capped; every error names its file and
// line, or its row.
//
// What it may import: WallboardCore, Wire (JSON, for a row's label lists). No Foundation, no
// SQLite, no files, no threads, no clock: the readers in EventSources (`MarkdownWorkspace`,
// `OrchestraDatabase`, `WorkflowFile.load`) do the I/O and hand bytes and row values here.
