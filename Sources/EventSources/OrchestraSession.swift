internal import Foundation
internal import WallboardCore
internal import Wire

extension OrchestraSource {
  /// One connection's life: subscribe, bootstrap, follow, check health. Ends by throwing.
  struct Session {
    static let healthOnlyDetail = "server healthy; no event stream available"
    let source: OrchestraSource
    let deliver: @Sendable (BoardInput) -> Void
    var wentLive = false
    /// This connection's sequence numbers, by the same rule as the reducer's: to notice gaps and
    /// to skip what a snapshot already reflects.
    var cursor = SequenceCursor()
    var lastHeard = Date()
    /// A gap was seen and the resync it needs has not been made yet.
    var resyncDue = false
    /// No resync before this: gaps in a burst share one `board_snapshot` call.
    var nextResyncAllowed = Date.distantPast

    init(source: OrchestraSource, deliver: @escaping @Sendable (BoardInput) -> Void) {
      self.source = source
      self.deliver = deliver
    }

    var origin: String { source.origin }

    mutating func run() throws(Ended) {
      let s = source.settings
      let conn: TCPConnection
      do { conn = try TCPConnection.connect(host: source.host, port: source.port, timeout: s.connectTimeout) } catch {
        throw Ended(description: error.description)
      }
      defer {
        conn.close()
        _ = source.register(nil)
      }
      guard source.register(conn) else { return }
      // One Subscribe per topic on the long-lived connection.
      for (i, topic) in Event.topics.enumerated() {
        let sub = Subscribe(
          subscriptionId: "wallboard-\(OrchestraSource.now().millis)-\(i)", topic: topic, filters: [:])
        do {
          try conn.write(
            LengthPrefixFramer.frame(PluginRequest(requestId: "sub-\(i)", request: .subscribe(sub)).encode()))
        } catch {
          throw Ended(description: error.description)
        }
      }
      // Bootstrap; live events wait in the socket meanwhile.
      let partial = try bootstrap()
      var framer = LengthPrefixFramer()
      var acknowledged = false
      var nextHealth = Date().addingTimeInterval(s.healthInterval)
      lastHeard = Date()

      while !source.isStopped {
        let r: TCPConnection.ReadResult
        do { r = try conn.read(timeout: 0.25) } catch {
          // A reset before any acknowledgement is a refused stream too.
          try refusedStream(acknowledged: acknowledged)
          throw Ended(description: error.description)
        }
        switch r {
        case .timedOut: break
        case .closed:
          try refusedStream(acknowledged: acknowledged)
          throw Ended(description: framer.isMidFrame ? "connection closed mid-frame" : "server closed the connection")
        case .bytes(let bytes):
          let frames: [[UInt8]]
          do { frames = try framer.push(bytes) } catch { throw Ended(description: "protocol error: \(error)") }
          for f in frames {
            lastHeard = Date()
            let response: PluginResponse
            do { response = try PluginResponse.decode(f) } catch {
              throw Ended(description: "protocol error: \(error)")
            }
            guard case .eventDelivery(let d)? = response.response else { continue }
            if d.isAcknowledgement {
              if !acknowledged {
                acknowledged = true
                if !wentLive { goLive(partial: partial) }
              }
              continue
            }
            if !wentLive { goLive(partial: partial) }
            handle(d)
          }
        }
        // Resyncs: at most one per interval, however many gaps came meanwhile.
        if resyncDue && Date() >= nextResyncAllowed {
          resyncDue = false
          nextResyncAllowed = Date().addingTimeInterval(s.resyncInterval)
          _ = try bootstrap()
        }
        // Health and silence.
        if Date() >= nextHealth {
          nextHealth = Date().addingTimeInterval(s.healthInterval)
          // A server that stops answering health is not to be trusted, even while its stream
          // socket stays open (a half-open connection): end the session and reconnect.
          do {
            _ = try source.health()
          } catch {
            throw Ended(description: "health check failed: \(error)")
          }
          lastHeard = Date()
          if wentLive {
            deliver(
              .connection(
                origin: origin, status: .live, at: OrchestraSource.now(), detail: partial ? Self.partialDetail : nil))
          }
        }
        if Date().timeIntervalSince(lastHeard) > s.silenceLimit {
          throw Ended(description: "nothing heard for \(Int(s.silenceLimit)) s")
        }
      }
    }

    static let partialDetail = "no board_snapshot tool on the server: live events only"

    /// The subscription connection ended (closed or reset) before any acknowledgement: is it a
    /// server that only answers health? Then that is what ends the session.
    func refusedStream(acknowledged: Bool) throws(Ended) {
      guard !acknowledged && !wentLive, (try? source.health()) != nil else { return }
      deliver(.connection(origin: origin, status: .live, at: OrchestraSource.now(), detail: Self.healthOnlyDetail))
      throw Ended(description: Self.healthOnlyDetail, healthOnly: true)
    }

    mutating func goLive(partial: Bool) {
      wentLive = true
      deliver(
        .connection(
          origin: origin, status: .live, at: OrchestraSource.now(), detail: partial ? Self.partialDetail : nil))
    }

    /// Calls `board_snapshot` and applies it; returns true when the server has no such tool.
    mutating func bootstrap() throws(Ended) -> Bool {
      let request = PluginRequest(
        requestId: "snapshot-\(OrchestraSource.now().millis)",
        request: .toolCall(ToolRequest(toolName: "board_snapshot", arguments: nil)))
      let response = try source.call(request)
      guard case .toolCall(let t)? = response.response else {
        throw Ended(description: "board_snapshot: unexpected answer")
      }
      guard t.success else { return true }
      let now = OrchestraSource.now()
      do {
        let event = try OrchestraEvents.snapshotEvent(from: t, origin: origin, receivedAt: now, decoder: EventDecoder())
        if case .boardSnapshot(let snap) = event.body, case .stale = cursor.snapshot(seq: snap.seq) {
          // Older than what this connection already applied: following it would roll back.
          return false
        }
        deliver(.event(event))
      } catch {
        deliver(.rejected(origin: origin, at: now, reason: "board_snapshot: \(error)"))
      }
      return false
    }

    /// Applies one delivered event; a gap in its sequence makes a resync due.
    mutating func handle(_ d: EventDelivery) {
      let now = OrchestraSource.now()
      let input: BoardInput
      let position: StreamPosition?
      do {
        let event = try OrchestraEvents.event(from: d, origin: origin, receivedAt: now, decoder: EventDecoder())
        input = .event(event)
        position = event.seq.map { StreamPosition(publisher: event.publisher, seq: $0) }
      } catch {
        // A rejected payload whose number could be read still moves the cursor: it is no gap.
        input = .rejected(origin: origin, at: now, reason: "\(d.topic): \(error)", position: error.position)
        position = error.position
      }
      guard let position else { return deliver(input) }
      switch cursor.advance(position) {
      case .next:
        deliver(input)
      case .gap:
        deliver(input)
        resyncDue = true
      case .duplicate:
        // At or below the snapshot's number: already in it (held back while it was in flight).
        // Other duplicates go on to the reducer, which counts them.
        if let floor = cursor.floor, position.seq <= floor { return }
        deliver(input)
      }
    }
  }
}
