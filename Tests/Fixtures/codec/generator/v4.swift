func extraInputs(_ inputs: inout [BoardInput], _ t: Instant) {
  inputs.append(
    .fileRead(
      origin: "jsonl:team", at: t,
      through: FilePosition(device: 2049, inode: 77, offset: 4096, line: 9, head: 0xABCD, tail: 0x1234)))
}
