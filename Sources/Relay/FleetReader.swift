public import Clock
internal import Foundation
public import NATS
public import SourceKit
public import WallboardCore

/// `wallboard fleet`: the last report of every wall of a board, read from the board's fleet
/// bucket with an ordered consumer (the last message of each wall's subject), as the broker
/// stored them (its clock says when).
public enum FleetReader {
  /// The walls' last records, or an error that names what failed; at most `timeout` seconds.
  public static func records(
    _ address: RelayAddress, connection: NATSConnection, timeout: Double, clock: Clock
  ) throws(NATSError) -> [(name: String, bytes: [UInt8], stored: Instant)] {
    let stream = RelayAddress.bucketStream(address.fleetBucket)
    guard let info = try connection.streamInfo(stream), info.messages > 0 else { return [] }
    let prefix = "$KV.\(address.fleetBucket)."
    let box = Records()
    let sub = try connection.follow(stream: stream, subject: prefix + ">", from: .lastPerSubject) { box.add($0) }
    defer { sub.cancel() }
    guard let messages = box.wait(until: clock.monotonic().adding(seconds: timeout), clock: clock) else {
      throw NATSError(
        .timeout, operation: "read the walls' reports from \(address.fleetBucket)", status: "NATS_TIMEOUT",
        statusText: "not every report came within \(Int(timeout)) s", jsErrorCode: nil, detail: nil)
    }
    return messages.compactMap { m in
      // A key deleted (an empty message) is no wall.
      guard m.subject.hasPrefix(prefix), !m.bytes.isEmpty else { return nil }
      return (String(m.subject.dropFirst(prefix.count)), m.bytes, Instant(millis: m.timestamp / 1_000_000))
    }
  }
}

/// Reports as the consumer delivers them, until the last one (nothing pending after it).
private final class Records: @unchecked Sendable {
  private let condition = NSCondition()
  private var messages: [NATSConnection.StreamMessage] = []
  private var done = false

  func add(_ m: NATSConnection.StreamMessage) {
    condition.withLock {
      guard !done else { return }
      messages.append(m)
      if m.pending == 0 { done = true }
      condition.broadcast()
    }
  }

  func wait(until deadline: Monotonic, clock: Clock) -> [NATSConnection.StreamMessage]? {
    condition.lock()
    defer { condition.unlock() }
    while !done {
      if clock.monotonic() >= deadline { return nil }
      _ = clock.wait(until: deadline, on: condition)
    }
    return messages
  }
}
