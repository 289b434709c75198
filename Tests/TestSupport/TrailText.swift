/// Audit-trail entries as Orchestra's feature tools append them to a body
/// (`body += "\n\n---\n" + …`, `orchestra-storage.md` §4), for the tests of the trail and of the
/// stores that read it.
public enum TrailText {
  /// The body `create_feature` writes.
  public static let created = "# Login page\n\nUsers sign in with their email.\n"

  // The entries, as the tools' format strings write them.
  public static func gated(_ from: String, _ to: String, _ ts: String, _ evidence: String) -> String {
    "\n\n---\n**\(from) -> \(to)** (\(ts)):\n\(evidence)\n"
  }
  public static func skipped(_ from: String, _ to: String, _ ts: String, kind: String) -> String {
    "\n\n---\n**\(from) -> \(to)** (\(ts)): Gate skipped for kind=\(kind)\n"
  }
  public static func rejected(_ from: String, _ ts: String, _ reason: String) -> String {
    "\n\n---\n**Rejected (\(from) -> needs-edits)** (\(ts)): \(reason)\n"
  }
  public static func review(_ status: String, _ ts: String, _ comment: String) -> String {
    "\n\n---\n**Review (\(status))** (\(ts)): \(comment)\n"
  }
  public static func selfReview(_ from: String, _ ts: String, _ evidence: String) -> String {
    "\n\n---\n**Self-Review (\(from) -> in-review)** (\(ts)):\n\(evidence)"
  }
  public static func note(_ ts: String, _ text: String) -> String { "\n\n## Note (\(ts))\n\n\(text)\n" }
}
