func extraInputs(_ inputs: inout [BoardInput], _ t: Instant) {}
