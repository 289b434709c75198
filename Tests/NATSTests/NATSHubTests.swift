import Foundation
import NATS
import TestSupport
import Testing

/// The NATS door against a real nats-server 2.9 (NATSHub): connecting plain, with TLS and with
/// NKeys; streams, acknowledged publishes, key-value, ordered consumers, a read-only wall, cancel
/// and reconnection. Serialized: each test runs a server of its own.
@Suite(.serialized) struct NATSHubTests {
  static func options(_ hub: NATSHub, seed: String? = nil, ca: String? = nil) throws -> NATSOptions {
    var o = NATSOptions(host: hub.host, port: hub.port, name: "wallboard-test")
    o.caFile = ca ?? hub.caFile
    o.seed = try seed.map { try NKeySeed.read(path: hub.seedPath($0)) }
    o.requestTimeout = 1
    o.reconnectWait = 0.2
    return o
  }

  @Test func connectsPlainAndRoundTripsCoreMessages() throws {
    let hub = try NATSHub()
    defer { hub.stop() }
    let events = Recorder<NATSConnection.Event>()
    let c = try NATSConnection.connect(try Self.options(hub)) { events.append($0) }
    #expect(c.isConnected)
    #expect(c.maxPayload == 8 * 1024 * 1024, "the hub's max_payload: 8MB")
    let got = Recorder<[UInt8]>()
    let sub = try c.subscribe(subject: "t.core") { got.append($0) }
    try c.flush(timeout: 2)
    try c.publish(subject: "t.core", bytes: [1, 2, 3])
    try c.publish(subject: "t.core", bytes: [])
    #expect(got.wait(count: 2))
    #expect(got.all == [[1, 2, 3], []])
    sub.cancel()
    c.close()
    #expect(events.wait { $0.contains { $0.isClosed } })
    #expect(!c.isConnected)
    let after = #expect(throws: NATSError.self) { try c.publish(subject: "t.core", bytes: [1]) }
    #expect(after?.kind == .closed)
  }

  @Test func noServerIsSaid() throws {
    let hub = try NATSHub()
    let options = try Self.options(hub)
    hub.stop()
    let error = #expect(throws: NATSError.self) { _ = try NATSConnection.connect(options) { _ in } }
    #expect(error?.kind == .noServer)
    #expect(error?.description.contains("connect to 127.0.0.1:\(hub.port)") == true, "\(String(describing: error))")
  }

  @Test func tlsWithTheRightCAConnectsAndAWrongCAIsATLSError() throws {
    let hub = try NATSHub(tls: true)
    defer { hub.stop() }
    let c = try NATSConnection.connect(try Self.options(hub)) { _ in }
    #expect(c.isConnected)
    _ = try c.ensureStream(.init(name: "TLS", subjects: ["tls.>"]))
    c.close()
    let wrong = try TestCertificates.folder() + "/other-ca.crt"
    let error = #expect(throws: NATSError.self) {
      _ = try NATSConnection.connect(try Self.options(hub, ca: wrong)) { _ in }
    }
    #expect(error?.kind == .tls, "\(String(describing: error))")
  }

  @Test func nkeyUsersAuthenticateAndAWrongKeyIsRefused() throws {
    let hub = try NATSHub(users: ["publisher": .publisher(board: "T"), "other": .viewer(board: "T")])
    defer { hub.stop() }
    let c = try NATSConnection.connect(try Self.options(hub, seed: "publisher")) { _ in }
    #expect(c.isConnected)
    c.close()

    // A key the hub does not know.
    let dir = try TempDir()
    let script = Paths.repoRoot.appendingPathComponent("scripts/nats-nkey.sh").path
    _ = try Command.run(URL(fileURLWithPath: "/bin/sh"), [script, "stranger", dir.url.path], timeout: 30)
    var stranger = try Self.options(hub)
    stranger.seed = try NKeySeed.read(path: dir.url.appendingPathComponent("stranger.nk").path)
    let refused = #expect(throws: NATSError.self) { _ = try NATSConnection.connect(stranger) { _ in } }
    #expect(refused?.kind == .authorizationFailed, "\(String(describing: refused))")

    let anonymous = #expect(throws: NATSError.self) { _ = try NATSConnection.connect(try Self.options(hub)) { _ in } }
    #expect(anonymous?.kind == .authorizationFailed, "\(String(describing: anonymous))")
  }

  @Test func streamsAreEnsuredIdempotentlyAndUpdated() throws {
    let hub = try NATSHub()
    defer { hub.stop() }
    let c = try NATSConnection.connect(try Self.options(hub)) { _ in }
    #expect(try c.streamInfo("WB_T") == nil)
    var config = NATSConnection.StreamConfig(
      name: "WB_T", subjects: ["wb.T.in"], maxAge: 3600, maxBytes: 1 << 20, maxMessageSize: 1 << 16, duplicates: 60,
      denyDelete: true, denyPurge: true)
    let first = try c.ensureStream(config)
    let again = try c.ensureStream(config)
    #expect(first == again)
    #expect(first.lastSequence == 0 && first.messages == 0)
    config.maxAge = 7200
    let updated = try c.ensureStream(config)
    #expect(updated.created == first.created, "updated, not made again")
    #expect(try c.streamInfo("WB_T") == updated)

    config.duplicates = 9000  // > maxAge: the server refuses
    let refused = #expect(throws: NATSError.self) { _ = try c.ensureStream(config) }
    #expect(refused?.jsErrorCode != nil, "\(String(describing: refused))")
  }

  @Test func messageIdsDeduplicateAndTheLastIdIsRead() throws {
    let hub = try NATSHub()
    defer { hub.stop() }
    let c = try NATSConnection.connect(try Self.options(hub)) { _ in }
    _ = try c.ensureStream(.init(name: "WB_T", subjects: ["wb.T.>"]))
    #expect(try c.lastMessage(stream: "WB_T", subject: "wb.T.in") == nil)
    let a = try c.publish(subject: "wb.T.in", bytes: Array("one".utf8), messageId: "E1-1")
    let b = try c.publish(subject: "wb.T.in", bytes: Array("two".utf8), messageId: "E1-2")
    let again = try c.publish(subject: "wb.T.in", bytes: Array("one".utf8), messageId: "E1-1")
    #expect(a == .init(sequence: 1, duplicate: false))
    #expect(b == .init(sequence: 2, duplicate: false))
    #expect(again == .init(sequence: 1, duplicate: true), "a repeated id is acked with the original's sequence")
    let last = try #require(try c.lastMessage(stream: "WB_T", subject: "wb.T.in"))
    #expect(last.sequence == 2 && last.messageId == "E1-2")
    #expect(try c.streamInfo("WB_T")?.messages == 2)
    let noStream = #expect(throws: NATSError.self) {
      _ = try c.publish(subject: "nowhere.x", bytes: [1], messageId: "x")
    }
    #expect(noStream != nil)
  }

  @Test func bucketsPutAndGetAndRefuseTooLargeValuesLocally() throws {
    let hub = try NATSHub()
    defer { hub.stop() }
    let c = try NATSConnection.connect(try Self.options(hub)) { _ in }
    let config = NATSConnection.BucketConfig(name: "wb_T", history: 1, maxValueSize: -1, ttl: 0, maxBytes: -1)
    try c.createBucket(config)
    try c.createBucket(config)
    #expect(try c.get(bucket: "wb_T", key: "board") == nil)
    #expect(try c.get(bucket: "wb_none", key: "board") == nil)
    let r1 = try c.put(bucket: "wb_T", key: "board", bytes: [1, 2, 3])
    // Above libnats's and the server's default 1 MB: the hub raised max_payload to 8 MB.
    let big = [UInt8](repeating: 0x5A, count: 2 * 1024 * 1024)
    let r2 = try c.put(bucket: "wb_T", key: "board", bytes: big)
    #expect(r2 > r1)
    let entry = try #require(try c.get(bucket: "wb_T", key: "board"))
    #expect(entry.bytes == big && entry.revision == r2)
    #expect(abs(entry.created / 1_000_000_000 - Int64(Date().timeIntervalSince1970)) < 60)

    let tooBig = [UInt8](repeating: 0, count: c.maxPayload + 1)
    let refused = #expect(throws: NATSError.self) { _ = try c.put(bucket: "wb_T", key: "board", bytes: tooBig) }
    #expect(refused?.kind == .payloadTooLarge)
    #expect(refused?.status == nil, "refused here, before libnats sent anything")
    #expect(try c.get(bucket: "wb_T", key: "board")?.revision == r2)
  }

  @Test func followStartsAtASequenceAndAtTheLastPerSubject() throws {
    let hub = try NATSHub()
    defer { hub.stop() }
    let c = try NATSConnection.connect(try Self.options(hub)) { _ in }
    _ = try c.ensureStream(.init(name: "WB_T", subjects: ["wb.T.>"]))
    for i in 1...5 { _ = try c.publish(subject: "wb.T.in", bytes: [UInt8(i)], messageId: "m\(i)") }
    _ = try c.publish(subject: "wb.T.other", bytes: [60], messageId: "m6")

    let got = Recorder<NATSConnection.StreamMessage>()
    let sub = try c.follow(stream: "WB_T", subject: "wb.T.in", from: .sequence(3)) { got.append($0) }
    #expect(got.wait(count: 3))
    #expect(got.all.map(\.sequence) == [3, 4, 5])
    #expect(got.all.map(\.bytes) == [[3], [4], [5]])
    #expect(got.all.last?.pending == 0)
    #expect(got.all.allSatisfy { $0.subject == "wb.T.in" && $0.timestamp > 0 })
    _ = try c.publish(subject: "wb.T.in", bytes: [7], messageId: "m7")
    #expect(got.wait(count: 4))
    #expect(got.all.last?.sequence == 7, "live messages follow, the other subject's 6 filtered out")
    sub.cancel()

    let last = Recorder<NATSConnection.StreamMessage>()
    let perSubject = try c.follow(stream: "WB_T", subject: "wb.T.>", from: .lastPerSubject) { last.append($0) }
    defer { perSubject.cancel() }
    #expect(last.wait(count: 2))
    #expect(Set(last.all.map(\.sequence)) == [6, 7])
  }

  /// The trap: a start below the first kept message starts there, silently. A caller compares the
  /// first sequence received with the one it asked for.
  @Test func aStartBelowRetentionSilentlyBeginsAtTheFirstKept() throws {
    let hub = try NATSHub()
    defer { hub.stop() }
    let c = try NATSConnection.connect(try Self.options(hub)) { _ in }
    _ = try c.ensureStream(.init(name: "WB_T", subjects: ["wb.T.in"], maxBytes: 4096))
    for i in 1...20 {
      _ = try c.publish(subject: "wb.T.in", bytes: [UInt8](repeating: UInt8(i), count: 1000), messageId: "m\(i)")
    }
    let state = try #require(try c.streamInfo("WB_T"))
    #expect(state.firstSequence > 1 && state.lastSequence == 20)
    let got = Recorder<NATSConnection.StreamMessage>()
    let sub = try c.follow(stream: "WB_T", subject: "wb.T.in", from: .sequence(1)) { got.append($0) }
    defer { sub.cancel() }
    #expect(got.wait { $0.last?.sequence == 20 })
    #expect(got.all.first?.sequence == state.firstSequence, "asked for 1, began at the first kept, no error")
  }

  /// A wall allowed only to read its board: it reads the stream's info, the board and the
  /// events; its publishes to the board's subject and its puts are refused — the refusal arrives as
  /// an error event (Permissions Violation) and the acknowledged publish fails (times out) — and
  /// the stream is unchanged.
  @Test func aReadOnlyWallReadsItsBoardAndCannotWriteIt() throws {
    let hub = try NATSHub(users: ["publisher": .publisher(board: "T"), "wall1": .wall("wall1", board: "T")])
    defer { hub.stop() }
    let publisher = try NATSConnection.connect(try Self.options(hub, seed: "publisher")) { _ in }
    _ = try publisher.ensureStream(.init(name: "WB_T", subjects: ["wb.T.in"]))
    try publisher.createBucket(.init(name: "wb_T"))
    _ = try publisher.put(bucket: "wb_T", key: "board", bytes: Array("board at 2".utf8))
    for i in 1...2 { _ = try publisher.publish(subject: "wb.T.in", bytes: [UInt8(i)], messageId: "p\(i)") }

    let events = Recorder<NATSConnection.Event>()
    var options = try Self.options(hub, seed: "wall1")
    options.inboxPrefix = "_INBOX_wall1"
    let wall = try NATSConnection.connect(options) { events.append($0) }
    #expect(try wall.streamInfo("WB_T")?.lastSequence == 2)
    #expect(try wall.get(bucket: "wb_T", key: "board")?.bytes == Array("board at 2".utf8))
    let got = Recorder<NATSConnection.StreamMessage>()
    let sub = try wall.follow(stream: "WB_T", subject: "wb.T.in", from: .sequence(1)) { got.append($0) }
    #expect(got.wait(count: 2))
    #expect(got.all.map(\.sequence) == [1, 2])

    // Core publish: accepted by the library, refused by the server, said asynchronously.
    try wall.publish(subject: "wb.T.in", bytes: [66])
    #expect(events.wait { $0.contains { $0.error?.kind == .notPermitted } }, "\(events.all)")
    let violation = try #require(events.all.compactMap(\.error).first { $0.kind == .notPermitted })
    #expect(violation.description.contains("Permissions Violation"), "\(violation)")
    #expect(violation.description.contains("wb.T.in"), "\(violation)")

    // Acknowledged publish: no acknowledgement ever comes.
    let started = Date()
    let refused = #expect(throws: NATSError.self) {
      _ = try wall.publish(subject: "wb.T.in", bytes: [67], messageId: "w1")
    }
    #expect(refused?.kind == .timeout, "\(String(describing: refused))")
    #expect(Date().timeIntervalSince(started) < 5)
    let put = #expect(throws: NATSError.self) { _ = try wall.put(bucket: "wb_T", key: "board", bytes: [1]) }
    #expect(put != nil)

    // Nothing reached the stream or the bucket; the wall still follows the publisher.
    #expect(try publisher.streamInfo("WB_T")?.lastSequence == 2)
    #expect(try publisher.get(bucket: "wb_T", key: "board")?.bytes == Array("board at 2".utf8))
    _ = try publisher.publish(subject: "wb.T.in", bytes: [3], messageId: "p3")
    #expect(got.wait(count: 3))
    #expect(got.all.map(\.sequence) == [1, 2, 3])
    #expect(wall.isConnected)
    sub.cancel()
  }

  @Test func cancelStopsHandlerCalls() throws {
    let hub = try NATSHub()
    defer { hub.stop() }
    let c = try NATSConnection.connect(try Self.options(hub)) { _ in }
    let got = Recorder<[UInt8]>()
    let sub = try c.subscribe(subject: "t.x") { got.append($0) }
    try c.flush(timeout: 2)
    try c.publish(subject: "t.x", bytes: [1])
    #expect(got.wait(count: 1))
    sub.cancel()
    sub.cancel()
    for i in 2...50 { try c.publish(subject: "t.x", bytes: [UInt8(i)]) }
    try c.flush(timeout: 2)
    // A second subscriber on the same subject shows the messages were delivered by then.
    let witness = Recorder<[UInt8]>()
    let other = try c.subscribe(subject: "t.x") { witness.append($0) }
    try c.flush(timeout: 2)
    try c.publish(subject: "t.x", bytes: [99])
    #expect(witness.wait(count: 1))
    other.cancel()
    #expect(got.all == [[1]])

    // An ordered consumer too, cancelled from its own handler.
    _ = try c.ensureStream(.init(name: "S", subjects: ["s.x"]))
    for i in 1...10 { _ = try c.publish(subject: "s.x", bytes: [UInt8(i)], messageId: "s\(i)") }
    let followed = Recorder<UInt64>()
    let holder = Recorder<NATSSubscription>()
    let follow = try c.follow(stream: "S", subject: "s.x", from: .all) { m in
      followed.append(m.sequence)
      if m.sequence == 3 { holder.wait(count: 1); holder.all.first?.cancel() }
    }
    holder.append(follow)
    #expect(followed.wait(count: 3))
    Thread.sleep(forTimeInterval: 0.3)
    #expect(followed.all == [1, 2, 3])
  }

  /// Closing the connection under a live ordered consumer ends it: its cancel afterwards returns
  /// at once (libnats's completion callback came with the close), and no handler call follows.
  @Test func closingUnderAConsumerEndsIt() throws {
    let hub = try NATSHub()
    defer { hub.stop() }
    let events = Recorder<NATSConnection.Event>()
    let c = try NATSConnection.connect(try Self.options(hub)) { events.append($0) }
    _ = try c.ensureStream(.init(name: "S", subjects: ["s.x"]))
    _ = try c.publish(subject: "s.x", bytes: [1], messageId: "1")
    let got = Recorder<UInt64>()
    let sub = try c.follow(stream: "S", subject: "s.x", from: .all) { got.append($0.sequence) }
    #expect(got.wait(count: 1))
    c.close()
    #expect(events.all.contains { $0.isClosed }, "close() returns after the closed callback")
    let started = ContinuousClock.now
    sub.cancel()
    #expect(ContinuousClock.now - started < .seconds(2))
    #expect(got.all == [1])
  }

  /// kill -9 of the hub and a restart on the same port and store: the connection says
  /// disconnected then reconnected, and the ordered consumer carries on with the next stream
  /// sequence, nothing lost or doubled.
  @Test func afterTheHubIsKilledAndRestartedTheConsumerContinues() throws {
    let hub = try NATSHub()
    defer { hub.stop() }
    let events = Recorder<NATSConnection.Event>()
    let c = try NATSConnection.connect(try Self.options(hub)) { events.append($0) }
    _ = try c.ensureStream(.init(name: "WB_T", subjects: ["wb.T.in"]))
    for i in 1...3 { _ = try c.publish(subject: "wb.T.in", bytes: [UInt8(i)], messageId: "m\(i)") }
    let got = Recorder<NATSConnection.StreamMessage>()
    let sub = try c.follow(stream: "WB_T", subject: "wb.T.in", from: .sequence(1)) { got.append($0) }
    defer { sub.cancel() }
    #expect(got.wait(count: 3))

    hub.kill9()
    #expect(events.wait { $0.contains { $0.isDisconnected } })
    try hub.restart()
    #expect(events.wait(20) { $0.contains { $0.isReconnected } }, "\(events.all)")
    let kinds = events.all.filter { $0.isDisconnected || $0.isReconnected }.map(\.isReconnected)
    #expect(kinds.first == false && kinds.last == true, "disconnected, then reconnected")
    #expect(c.isConnected)

    // JetStream may take a moment after the listener is back: retry the publish briefly.
    for i in 4...5 {
      let deadline = Date(timeIntervalSinceNow: 15)
      var result = Result { try c.publish(subject: "wb.T.in", bytes: [UInt8(i)], messageId: "m\(i)") }
      while case .failure = result, Date() < deadline {
        Thread.sleep(forTimeInterval: 0.2)
        result = Result { try c.publish(subject: "wb.T.in", bytes: [UInt8(i)], messageId: "m\(i)") }
      }
      _ = try result.get()
    }
    #expect(got.wait(20) { $0.count >= 5 }, "\(got.all.map(\.sequence))")
    #expect(got.all.map(\.sequence) == [1, 2, 3, 4, 5])
    #expect(try c.streamInfo("WB_T")?.lastSequence == 5)
  }
}
