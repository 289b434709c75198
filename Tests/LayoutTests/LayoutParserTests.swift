import Foundation
import Layout
import Raster
import TestSupport
import Testing

@Suite("Layout files")
struct LayoutParserTests {
  static let vocabulary = WidgetVocabulary(kinds: [
    "header": [:], "burndown": ["mode": ["burndown", "burnup"]], "tallies": [:], "progress": [:],
    "connections": [:], "recent": [:], "numbers": [:], "attention": [:], "aging": [:], "agents": [:],
  ])

  static func parse(_ text: String) throws(LayoutError) -> LayoutFile {
    try LayoutParser.parse(text, file: "t.layout", vocabulary: vocabulary)
  }

  static let minimal = """
    name = t
    description = a test
    grid = 4 x 2
    header 0 0 4 1
    tallies 0 1 2 1
    burndown 2 1 2 1 mode=burnup
    """

  @Test func parsesAMinimalLayout() throws {
    let l = try Self.parse(Self.minimal)
    #expect(l.name == "t")
    #expect(l.columns == 4 && l.rows == 2)
    #expect(l.pages.count == 1)
    #expect(l.pages[0].widgets.map(\.kind) == ["header", "tallies", "burndown"])
    #expect(l.pages[0].widgets[2].options == ["mode": "burnup"])
    #expect(l.pages[0].widgets[1].line == 5)
  }

  @Test func pagesWithDurations() throws {
    let l = try Self.parse(
      """
      name = p
      description = pages
      grid = 2 x 2
      page one
        duration = 12
        header 0 0 2 2
      page two
        tallies 0 0 2 2
      """)
    #expect(l.pages.map(\.name) == ["one", "two"])
    #expect(l.pages.map(\.duration) == [12, 30])
  }

  @Test(arguments: [
    ("name = t\ndescription = d\ngrid = 4 x 2\nclock 0 0 1 1", "t.layout:4: unknown widget \"clock\""),
    (
      "name = t\ndescription = d\ngrid = 4 x 2\nheader 3 0 2 1",
      "t.layout:4: header: cells 3…4 × 0…0 fall outside the 4 x 2 grid"
    ),
    (
      "name = t\ndescription = d\ngrid = 4 x 2\nheader 0 0 2 1\ntallies 1 0 2 1",
      "t.layout:5: tallies overlaps header declared on line 4"
    ),
    (
      "name = t\ndescription = d\ngrid = 4 x 2\nburndown 0 0 2 1 mode=pie",
      "t.layout:4: burndown: mode: \"pie\" is not one of burndown, burnup"
    ),
    (
      "name = t\ndescription = d\ngrid = 4 x 2\ntallies 0 0 2 1 size=big",
      "t.layout:4: tallies: unknown option \"size\" (it takes none)"
    ),
    ("name = t\ndescription = d\ngrid = 0 x 2", "t.layout:3: grid: \"0 x 2\" is not COLUMNS x ROWS"),
    ("name = t\ndescription = d\ngrid = 4 x 2\ncolour = red", "t.layout:4: unknown setting \"colour\""),
    ("name = t\nname = u", "t.layout:2: name: set twice"),
    ("description = d\ngrid = 4 x 2\nheader 0 0 1 1", "t.layout: name: missing"),
    ("name = t\ndescription = d\ngrid = 4 x 2", "t.layout: no widgets"),
    ("name = t\ndescription = d\nheader 0 0 1 1", "t.layout:3: the grid must be set before the first widget"),
    (
      "name = t\ndescription = d\ngrid = 4 x 2\nheader 0 0 x 1",
      "t.layout:4: header: COLUMN ROW WIDTH HEIGHT must be whole numbers"
    ),
    (
      "name = t\ndescription = d\ngrid = 4 x 2\npage a\nduration = 0\nheader 0 0 1 1",
      "t.layout:5: duration: \"0\" is not a number of seconds"
    ),
    (
      "name = t\ndescription = d\ngrid = 4 x 2\npage a\nheader 0 0 1 1\npage a",
      "t.layout:6: page \"a\" is declared twice"
    ),
    ("name = t\ndescription = d\ngrid = 4 x 2\npage a\npage b\nheader 0 0 1 1", "t.layout: page \"a\" has no widgets"),
  ])
  func errorsNameTheFileAndLine(text: String, message: String) {
    do {
      _ = try Self.parse(text)
      Issue.record("expected an error")
    } catch {
      #expect(error.description.hasPrefix(message), "\(error.description)")
    }
  }

  @Test func oversizeFileIsRejected() {
    let big = String(repeating: "# padding\n", count: 8000)
    #expect(throws: LayoutError.self) { try Self.parse(big) }
  }

  @Test func framesTileTheGridWithGaps() throws {
    let l = try Self.parse(Self.minimal)
    let f = l.frames(page: 0, width: 1920, height: 1080)
    #expect(f.count == 3)
    let header = f[0].1
    #expect(header.minX == 24 && header.minY == 24)
    #expect(header.maxX == 1920 - 24)
    // Row two starts one gap below the header.
    #expect(f[1].1.minY == header.maxY + 16)
    // Side by side with a gap.
    #expect(f[2].1.minX == f[1].1.maxX + 16)
    #expect(f[2].1.maxX == 1920 - 24)
    #expect(f[2].1.maxY == 1080 - 24)
  }

  @Test(arguments: [(800, 480), (1920, 1080), (3840, 2160), (1080, 1920)])
  func bundledLayoutsParseAndFit(width: Int, height: Int) throws {
    let dir = Paths.repoRoot.appendingPathComponent("Layouts")
    let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".layout") }
    #expect(Set(files) == ["wall.layout", "glance.layout", "tv.layout", "portrait.layout"])
    for file in files {
      let text = try String(contentsOf: dir.appendingPathComponent(file), encoding: .utf8)
      let l = try LayoutParser.parse(text, file: file, vocabulary: Self.vocabulary)
      #expect(l.name + ".layout" == file)
      for page in l.pages.indices {
        for (p, r) in l.frames(page: page, width: width, height: height) {
          #expect(
            r.minX >= 0 && r.minY >= 0 && r.maxX <= Double(width) && r.maxY <= Double(height), "\(file) \(p.kind)")
          #expect(r.width > 20 && r.height > 20, "\(file) \(p.kind) at \(width)x\(height)")
        }
      }
    }
  }
}
