public import Clock
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
    let box = StreamCollector(maxBytes: 64 << 20)
    let sub = try connection.follow(stream: stream, subject: prefix + ">", from: .lastPerSubject) { box.add($0) }
    defer { sub.cancel() }
    // The last report is the one with nothing pending after it.
    let deadline = clock.monotonic().adding(seconds: timeout)
    guard let messages = box.wait(until: deadline, clock: clock, for: { $0.last?.pending == 0 }) else {
      throw NATSError(
        .timeout, operation: "read the walls' reports from \(address.fleetBucket)", status: "NATS_TIMEOUT",
        statusText: "not every report came within \(Int(timeout)) s", jsErrorCode: nil, detail: nil)
    }
    // Through the first with nothing pending: a report stored meanwhile would list a wall twice.
    let end = messages.firstIndex { $0.pending == 0 }.map { $0 + 1 } ?? messages.count
    return messages.prefix(end).compactMap { m in
      // A key deleted (an empty message) is no wall.
      guard m.subject.hasPrefix(prefix), !m.bytes.isEmpty else { return nil }
      return (String(m.subject.dropFirst(prefix.count)), m.bytes, Instant(millis: m.timestamp / 1_000_000))
    }
  }
}
