// Wire — decoders: pure state machines with caps.
//
// What lives here: the strict JSON parser and serializer (`JSONValue`), the JSON Lines framer,
// and the event decoder (JSON → `Event`, with rejections that name the key). Next: the
// protobuf subset and the length-prefix framer of the Orchestra protocol.
// What it may import: WallboardCore. No I/O, no clocks.
