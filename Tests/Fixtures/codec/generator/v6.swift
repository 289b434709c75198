func extraInputs(_ inputs: inout [BoardInput], _ t: Instant) {
  inputs.append(
    .fileRead(
      origin: "jsonl:team", at: t,
      through: FilePosition(device: 2049, inode: 77, offset: 4096, line: 9, head: 0xABCD, tail: 0x1234)))
  inputs.append(
    .relayed(
      via: "nats://hub:4222/TEAM", position: RelayPosition(stream: 1_793_600_000_000_000_000, sequence: 42),
      input: .connection(origin: "jsonl:team", status: .live, at: t, detail: "relayed")))
  // Format 6: an agents.locks (two sessions, one feature of the board, one of another project).
  inputs.append(
    .event(
      Event(
        origin: "orchestra:/ws", time: t,
        body: .agentLocks([
          AgentLock(feature: FeatureKey(project: "shop", id: "F-1"), session: "sess-ü", lockedAt: t),
          AgentLock(
            feature: FeatureKey(project: "ops", id: "F-1"), session: "sess-2",
            lockedAt: Instant(millis: t.millis - 60_000)),
        ]))))
}
