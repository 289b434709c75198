import Clock
import Codec
import EventSources
import Foundation
import NATS
import SourceKit
import TestSupport
import Testing
import WallboardCore
import Wire

@testable import WallboardCLI

/// What the relay's tests share: a hub, the published board read from it, a wall in process.
enum Relay {
  static let board = "TEAM"

  static func address(_ hub: NATSHub, board: String = board) -> RelayAddress {
    try! RelayAddress(host: hub.host, port: hub.port, board: board)
  }

  static func url(_ hub: NATSHub, board: String = board) -> String { address(hub, board: board).description }

  /// A connection to the hub as `user` (nil: no credentials).
  static func connect(_ hub: NATSHub, as user: String? = nil) throws -> NATSConnection {
    var o = NATSOptions(host: hub.host, port: hub.port, name: "relay test")
    if let user { o.seed = try NKeySeed.read(path: hub.seedPath(user)) }
    o.caFile = hub.caFile
    return try NATSConnection.connect(o) { _ in }
  }

  /// The board in the bucket, and the stream's last position.
  static func published(_ hub: NATSHub, board: String = board) throws -> (PublishedBoard, UInt64) {
    let c = try connect(hub)
    defer { c.close() }
    let a = address(hub, board: board)
    let entry = try #require(try c.get(bucket: a.bucket, key: RelayAddress.boardKey))
    let last = try #require(try c.streamInfo(a.stream)).lastSequence
    return (try BoardCodec.decodePublished(entry.bytes), last)
  }

  /// A wall in this process: the `nats://` source into a `LiveBoard`.
  final class Wall {
    let source: RelayBoardSource
    let live = LiveBoard()

    init(_ hub: NATSHub, board: String = Relay.board, position: RelayPosition? = nil, user: String? = nil) throws {
      let a = Relay.address(hub, board: board)
      var o = try RelayLink.options(
        a, role: "wall", credentials: user.map(hub.seedPath), ca: hub.caFile, clock: .system)
      o.inboxPrefix = user.map { RelayAddress.inboxPrefix(wall: $0) }
      var settings = RelayFollowMachine.Settings()
      settings.backoffMax = 1
      settings.unpublishedRetry = 0.5
      source = RelayBoardSource(
        address: a, options: o, wall: nil, position: position, settings: settings, clock: .system)
      source.start { [live] in live.put($0) }
    }

    deinit { source.stop() }

    /// Waits until the wall applied `position`; its board then.
    func board(at position: UInt64, timeout: Double = 20) -> BoardState? {
      let origin = source.origin
      return live.wait(timeout) { $0.origins[origin]?.relayed?.sequence == position } ? live.board() : nil
    }

    /// The board without the wall's own row: what the publisher's board must equal.
    func published(at position: UInt64, timeout: Double = 20) -> BoardState? {
      guard var b = board(at: position, timeout: timeout) else { return nil }
      b.origins[source.origin] = nil
      return b
    }
  }

  /// `inspect`'s JSON of a board, as of `now` (both boards judged at the same moment).
  static func inspect(_ state: BoardState, now: Instant) -> String {
    InspectReport.json(state: state, at: now, now: now, zone: .utc, unit: .auto).serialized(pretty: true)
  }
}
