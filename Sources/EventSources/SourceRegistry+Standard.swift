public import SourceKit

extension SourceRegistry {
  /// Every kind of source this build has: the one list. A new kind is a file with its source and
  /// its `SourceKind`, plus one line here.
  public static let standard = SourceRegistry([
    SimSource.Kind(),
    JSONLinesSource.Kind(),
    OrchestraSource.Kind(),
    OrchestraQUICSource.Kind(),
    OrchestraWorkspaceSource.Kind(),
    OrchestraDBSource.Kind(),
    OrchestraMarkdownSource.Kind(),
    ReplaySource.Kind(),
    RelayBoardSource.Kind(),
  ])
}
