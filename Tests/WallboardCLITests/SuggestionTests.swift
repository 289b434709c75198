import Testing

@testable import Runtime
@testable import WallboardCLI

/// Issue 20, item 11: "did you mean …?" — the suggester as a pure function.
@Suite struct SuggestionTests {
  @Test(arguments: [
    ("", "", 0), ("abc", "", 3), ("", "abc", 3), ("abc", "abc", 0), ("kitten", "sitting", 3),
    ("project", "projetc", 1), ("source", "sourc", 1), ("sdl", "sld", 1), ("ca", "abc", 3), ("abcd", "badc", 2),
  ])
  func theDistanceCountsEditsAndSwapsOfNeighbours(a: String, b: String, expected: Int) {
    #expect(Suggestion.distance(Array(a.unicodeScalars), Array(b.unicodeScalars)) == expected)
    #expect(Suggestion.distance(Array(b.unicodeScalars), Array(a.unicodeScalars)) == expected)
  }

  static let options = OptionTable.names

  @Test(arguments: [
    ("--projetc", "--project"), ("--sourc", "--source"), ("--sorce", "--source"), ("--thme", "--theme"),
    ("--diagnostic", "--diagnostics"), ("--no-jornal", "--no-journal"), ("--PROJECT", "--project"),
    ("--verison", "--version"),
  ])
  func aSlipSuggestsTheOptionMeant(typed: String, meant: String) {
    #expect(Suggestion.nearest(to: typed, among: Self.options) == meant)
  }

  @Test(arguments: ["--bogus", "--x", "--colour", "--", "-", "--frobnicate", String(repeating: "a", count: 500)])
  func aWordFarFromEveryOptionSuggestsNone(typed: String) {
    #expect(Suggestion.nearest(to: typed, among: Self.options) == nil)
  }

  @Test func shortWordsAllowOneEditAndNeverHalfTheWord() {
    #expect(Suggestion.nearest(to: "sld", among: ["sdl", "term"]) == "sdl")
    #expect(Suggestion.nearest(to: "fx", among: ["fb"]) == nil, "one edit is half of two letters")
    #expect(Suggestion.nearest(to: "tv", among: ["tv"]) == nil, "the word itself is no slip")
    #expect(Suggestion.nearest(to: "glanse", among: ["glance", "wall"]) == "glance")
    #expect(Suggestion.nearest(to: "wal", among: ["wall", "tv"]) == "wall")
    #expect(Suggestion.nearest(to: "xyzw", among: ["wall"]) == nil)
  }

  @Test func ofEquallyCloseNamesTheFirstIsSuggestedAndOnlyOne() {
    #expect(Suggestion.nearest(to: "ab", among: ["abc", "abd"]) == nil, "too short for any")
    #expect(Suggestion.nearest(to: "count", among: ["counts", "county"]) == "counts")
    #expect(Suggestion.nearest(to: "count", among: ["county", "counts"]) == "county")
    #expect(Suggestion.nearest(to: "pionts", among: ["auto", "points", "count"]) == "points")
  }

  @Test func theClauseReadsAsTheMessageEnds() {
    #expect(Suggestion.clause(for: "--projetc", among: Self.options) == "; did you mean --project?")
    #expect(Suggestion.clause(for: "--bogus", among: Self.options) == "")
  }
}
