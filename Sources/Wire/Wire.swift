// Wire — decoders: pure state machines with caps.
//
// What lives here: the strict JSON parser and serializer (`JSONValue`), the JSON Lines framer,
// the event decoder (JSON → `Event`, with rejections that name the key), and the Orchestra
// protocol: protobuf wire primitives (`ProtoReader`, `ProtoWriter`), its messages
// (`PluginRequest`, `PluginResponse`…, Struct ↔ `JSONObject`), the length-prefix framer and
// `OrchestraEvents` (messages → `Event`).
// What it may import: WallboardCore. No I/O, no clocks.
