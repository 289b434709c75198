/// The one name a mistyped word was most likely meant to be, for "did you mean …?" in usage
/// errors: an unknown option, command, display, layout, theme or value of a fixed list.
///
/// Closeness is the optimal-string-alignment distance (insertions, deletions, substitutions and
/// the swap of two neighbours each cost one, so `--projetc` is one step from `--project`),
/// compared without case and without leading dashes. A name is suggested only when it is close
/// enough to be a slip rather than another word: at most one step for a word of up to four
/// characters, two up to eight, three beyond — and fewer steps than half the word. Of several
/// names equally close, the first in `candidates` is the one suggested.
enum Suggestion {
  /// Words longer than this are not compared (no option or name is nearly that long): the
  /// distance's table stays small whatever is typed.
  static let maxLength = 64

  /// The candidate closest to `word`, when one is close enough (a name that differs only in
  /// case is closest); nil otherwise, and for `word` itself, which is no slip.
  static func nearest(to word: String, among candidates: [String]) -> String? {
    let typed = key(word)
    guard !typed.isEmpty, typed.count <= maxLength else { return nil }
    let allowed = min(typed.count <= 4 ? 1 : typed.count <= 8 ? 2 : 3, (typed.count - 1) / 2)
    guard allowed > 0 else { return nil }
    var best: (name: String, distance: Int)?
    for name in candidates {
      let other = key(name)
      guard name != word, other.count <= maxLength, abs(other.count - typed.count) <= allowed else { continue }
      let d = distance(typed, other)
      if d <= allowed, d < (best?.distance ?? .max) { best = (name, d) }
    }
    return best?.name
  }

  /// "; did you mean --project?" when a candidate is close to `word`, else "".
  static func clause(for word: String, among candidates: [String]) -> String {
    nearest(to: word, among: candidates).map { "; did you mean \($0)?" } ?? ""
  }

  /// The optimal-string-alignment distance between `a` and `b` (Damerau–Levenshtein where no
  /// substring is edited twice), over Unicode scalars.
  static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    // Three rows of the table: two back (for a swap), the last and the one being filled.
    var twoBack = [Int](repeating: 0, count: b.count + 1)
    var last = Array(0...b.count)
    var row = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      row[0] = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        var d = min(last[j] + 1, row[j - 1] + 1, last[j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d = min(d, twoBack[j - 2] + 1) }
        row[j] = d
      }
      (twoBack, last, row) = (last, row, twoBack)
    }
    return last[b.count]
  }

  /// What is compared: the word without leading dashes, lowercased, as scalars.
  private static func key(_ word: String) -> [Unicode.Scalar] {
    Array(String(word.drop { $0 == "-" }).lowercased().unicodeScalars)
  }
}
