import TestSupport
import Testing
import WallboardCore

/// Issue 21, item 7: `BoardStore.version` moves with what the projections read and only with
/// that, so that a board whose sources only say they are alive projects nothing again.
@Suite struct BoardStoreVersionTests {
  static let at = Make.t("2026-03-02T09:00:00Z")

  @Test func whatChangesTheBoardMovesTheVersion() {
    var store = BoardStore(settings: BoardSettings())
    var last = store.version
    func moved(_ input: BoardInput) -> Bool {
      store.apply(input)
      defer { last = store.version }
      return store.version != last
    }
    #expect(moved(.event(Make.event("2026-03-02T09:00:00Z", .featureCreated(Make.feature("F-1")), seq: 1))))
    #expect(moved(.event(Make.status("2026-03-02T10:00:00Z", "F-1", "done", seq: 2))))
    #expect(
      moved(
        .event(
          Make.event(
            "2026-03-02T10:00:00Z", .sprintCreated(Make.sprint("s", start: "2026-03-02", end: "2026-03-13")), seq: 3))))
    #expect(moved(.restored(store.state)))
  }

  @Test func whatOnlyTheSourcesRowsReadLeavesIt() {
    var store = BoardStore(settings: BoardSettings())
    store.apply(.event(Make.event("2026-03-02T09:00:00Z", .featureCreated(Make.feature("F-1")), seq: 1)))
    let v = store.version
    // A duplicate: its number is not past the publisher's last (before a connection change, after
    // which a new stream starts).
    store.apply(.event(Make.status("2026-03-02T10:00:00Z", "F-1", "done", seq: 1)))
    store.apply(.connection(origin: "test", status: .live, at: Self.at, detail: nil))
    store.apply(.connection(origin: "test", status: .offline, at: Self.at, detail: "gone"))
    store.apply(.event(Event(origin: "test", time: Self.at, body: .heartbeat)))
    store.apply(.rejected(origin: "test", at: Self.at, reason: "line 4: not JSON"))
    // A followed file's position: the sources' bookkeeping, never drawn.
    store.apply(
      .fileRead(
        origin: "test", at: Self.at,
        through: FilePosition(device: 1, inode: 2, offset: 120, line: 4, head: 3, tail: 4)))
    #expect(store.version == v)
    #expect(store.state.features.values.first?.status == "todo")
  }
}
