import Glyphs
import Testing

@Suite("Fitting text with an ellipsis")
struct FitTests {
  static let texts = [
    "Refactor the event journal",
    "Sprint 14 — 23/40 pts",
    "👍🏽 ok 👨‍👩‍👧 family",
    "e\u{301}te\u{301} à Zürich",
    "🇫🇷🇩🇪🇮🇹🇪🇸",
  ]

  @Test("text that fits comes back unchanged", arguments: texts)
  func fitsUnchanged(text: String) throws {
    let renderer = try Fixtures.renderer()
    let width = renderer.measure(text, size: 18).width
    #expect(renderer.fit(text, width: width, size: 18) == text)
    #expect(renderer.fit(text, width: width + 100, size: 18) == text)
  }

  @Test("cut text is a whole-cluster prefix plus an ellipsis that fits", arguments: texts)
  func cutAtClusters(text: String) throws {
    let renderer = try Fixtures.renderer()
    let full = renderer.measure(text, size: 18).width
    let clusters = Array(text)
    var previousCount = 0
    for width in stride(from: 0.0, to: full, by: 1) {
      let fitted = renderer.fit(text, width: width, size: 18)
      #expect(renderer.measure(fitted, size: 18).width <= width, "\"\(fitted)\" is wider than \(width)")
      guard !fitted.isEmpty else {
        #expect(renderer.measure("…", size: 18).width > width)
        continue
      }
      #expect(fitted.last == "…")
      let prefix = Array(fitted.dropLast())
      #expect(prefix == Array(clusters.prefix(prefix.count)), "\"\(fitted)\" split a cluster of \"\(text)\"")
      #expect(prefix.last?.isWhitespace != true)
      #expect(fitted.count >= previousCount, "narrower text at a wider width \(width)")
      previousCount = fitted.count
    }
  }

  @Test func theLongestPrefixIsChosen() throws {
    let renderer = try Fixtures.renderer()
    let text = "Refactor the event journal"
    let width = renderer.measure("Refactor the ev…", size: 18).width
    #expect(renderer.fit(text, width: width, size: 18) == "Refactor the ev…")
    #expect(renderer.fit(text, width: width - 0.5, size: 18) == "Refactor the e…")
  }

  @Test func spaceBeforeTheEllipsisIsDropped() throws {
    let renderer = try Fixtures.renderer()
    let width = renderer.measure("Refactor …", size: 18).width
    #expect(renderer.fit("Refactor the event journal", width: width, size: 18) == "Refactor…")
  }

  @Test func nothingFitsInLessThanAnEllipsis() throws {
    let renderer = try Fixtures.renderer()
    let ellipsis = renderer.measure("…", size: 18).width
    #expect(renderer.fit("Refactor", width: ellipsis - 0.5, size: 18) == "")
    #expect(renderer.fit("Refactor", width: ellipsis, size: 18) == "…")
    #expect(renderer.fit("", width: 0, size: 18) == "")
  }

  @Test func tabularFitMeasuresTabular() throws {
    let face = try FontFace.load(bytes: try Fixtures.regularBytes(scalingAdvanceOf: "1", by: 0.5), name: "narrow 1")
    let renderer = TextRenderer(regular: face, bold: face)
    let width = renderer.measure("1111", size: 30).width
    #expect(renderer.fit("1111", width: width, size: 30) == "1111")
    #expect(renderer.fit("1111", width: width, size: 30, tabular: true).hasSuffix("…"))
  }
}

@Suite("Fitting text that keeps its end")
struct FitEndTests {
  @Test("cut text is an ellipsis plus a whole-cluster suffix that fits", arguments: FitTests.texts)
  func cutAtClustersKeepingTheEnd(text: String) throws {
    let renderer = try Fixtures.renderer()
    let full = renderer.measure(text, size: 18).width
    let clusters = Array(text)
    for width in stride(from: 0.0, to: full, by: 2) {
      let fitted = renderer.fit(text, width: width, size: 18, keep: .end)
      #expect(renderer.measure(fitted, size: 18).width <= width, "\"\(fitted)\" is wider than \(width)")
      guard !fitted.isEmpty else { continue }
      #expect(fitted.first == "…")
      let suffix = Array(fitted.dropFirst())
      #expect(suffix == Array(clusters.suffix(suffix.count)), "\"\(fitted)\" split a cluster of \"\(text)\"")
      #expect(suffix.first?.isWhitespace != true)
    }
  }

  @Test func aHostAndPortSurvive() throws {
    let renderer = try Fixtures.renderer()
    let name = "orchestra://build-server.example.internal:50101"
    let width = renderer.measure("…ample.internal:50101", size: 18).width + 1
    let fitted = renderer.fit(name, width: width, size: 18, keep: .end)
    #expect(fitted.hasPrefix("…"))
    #expect(fitted.hasSuffix("internal:50101"))
  }
}
