public import WallboardCore

/// Orchestra protocol messages as events of the contract (`events.md`, "Orchestra form").
public enum OrchestraEvents {
  /// The event an `EventDelivery` carries.
  ///
  /// `topic` and `payload` give the body (`EventDecoder.body(topic:payload:)`; an absent payload
  /// reads as an empty object), `event_type` the event type, `source_plugin` the publisher,
  /// `timestamp` the time (else `receivedAt`), and a numeric top-level payload key `seq` the
  /// sequence number (a whole number from 0 to 2^53 − 1, else an error naming `payload.seq`). Empty
  /// strings read as absent; a missing topic is an error.
  ///
  /// An acknowledgement (`isAcknowledgement`) is not an event: check for it before calling this,
  /// which would read it as a payload-less event of its topic.
  public static func event(
    from d: EventDelivery, origin: String, receivedAt: Instant, decoder: EventDecoder
  ) throws(EventDecodingError) -> Event {
    let payload = d.payload ?? JSONObject()
    let fields = Fields(payload, path: "payload", limits: decoder.limits)
    if d.topic.isEmpty { throw EventDecodingError(path: "topic", problem: "missing") }
    try fields.check(d.topic, .other, path: "topic")
    try fields.check(d.eventType, .other, path: "event_type")
    try fields.check(d.sourcePlugin, .other, path: "source_plugin")
    let seq = try fields.sequenceNumber("seq")
    let publisher = d.sourcePlugin.isEmpty ? nil : d.sourcePlugin
    do throws(EventDecodingError) {
      return Event(
        origin: origin, publisher: publisher, seq: seq, time: d.timestamp ?? receivedAt, receivedAt: receivedAt,
        eventType: d.eventType.isEmpty ? nil : d.eventType,
        body: try decoder.body(topic: d.topic, payload: payload))
    } catch {
      // The number arrived even though the event did not: it is no gap.
      var e = error
      e.position = seq.map { StreamPosition(publisher: publisher, seq: $0) }
      throw e
    }
  }

  /// The `board.snapshot` event of a successful `board_snapshot` tool call.
  ///
  /// The result has the `board.snapshot` payload's shape; errors name keys under `result`. The
  /// event's `seq` is the snapshot's `seq`, its time `receivedAt`. A failed call
  /// (`success == false`) or a missing result is an error naming `success` or `result`.
  public static func snapshotEvent(
    from r: ToolResponse, origin: String, receivedAt: Instant, decoder: EventDecoder
  ) throws(EventDecodingError) -> Event {
    guard r.success else {
      let why = [r.errorCode, r.errorMessage].filter { !$0.isEmpty }.joined(separator: ": ")
      throw EventDecodingError(
        path: "success", problem: "the tool call failed" + (why.isEmpty ? "" : " (\(why))"))
    }
    guard let result = r.result else {
      throw EventDecodingError(path: "result", problem: "missing")
    }
    let snapshot = try decoder.snapshot(Fields(result, path: "result", limits: decoder.limits))
    return Event(
      origin: origin, seq: snapshot.seq, time: receivedAt, receivedAt: receivedAt,
      body: .boardSnapshot(snapshot))
  }
}
