package wire

import "fmt"

// PluginRequest oneof field numbers (orchestra.plugin.v1).
var requestKinds = map[int]string{
	10: "register", 11: "boot", 12: "shutdown", 13: "health",
	20: "tool_call", 21: "list_tools", 22: "list_prompts", 23: "prompt_get",
	30: "storage_read", 31: "storage_write", 32: "storage_delete", 33: "storage_list",
	40: "stream_start", 41: "stream_cancel",
	50: "subscribe", 51: "unsubscribe", 52: "publish",
}

// RequestFieldNumber returns the PluginRequest field number of a request kind (0 if unknown).
func RequestFieldNumber(kind string) int {
	for n, k := range requestKinds {
		if k == kind {
			return n
		}
	}
	return 0
}

// ToolRequest is orchestra.plugin.v1.ToolRequest.
type ToolRequest struct {
	Name        string
	Args        map[string]any // nil when the arguments field is absent
	Caller      string
	TraceParent string
	Provider    string
	SessionID   string
}

// Request is a decoded PluginRequest: the request id, which oneof case is set ("" for none),
// and the decoded body of the cases the peer looks into.
type Request struct {
	ID      string
	Kind    string
	Body    []byte // raw bytes of the set oneof case
	Tool    *ToolRequest
	SubID   string // subscribe / unsubscribe
	Topic   string // subscribe
	Filters map[string]string
	Prompt  string // prompt_get
}

// DecodeRequest decodes a PluginRequest. Invalid bytes are an error (upstream answers nothing
// and closes the stream).
func DecodeRequest(b []byte) (*Request, error) {
	fields, err := Parse(b)
	if err != nil {
		return nil, err
	}
	r := &Request{}
	for _, f := range fields {
		if f.Num == 1 {
			if r.ID, err = str(f, "request_id"); err != nil {
				return nil, err
			}
			continue
		}
		kind, ok := requestKinds[f.Num]
		if !ok {
			continue // unknown field: skipped
		}
		body, err := msg(f, kind)
		if err != nil {
			return nil, err
		}
		r.Kind, r.Body = kind, body // last oneof case wins
	}
	switch r.Kind {
	case "tool_call":
		r.Tool, err = decodeToolRequest(r.Body)
	case "subscribe", "unsubscribe":
		err = r.decodeSubscription()
	case "prompt_get":
		var fs []Field
		if fs, err = Parse(r.Body); err == nil {
			for _, f := range fs {
				if f.Num == 1 {
					if r.Prompt, err = str(f, "prompt_name"); err != nil {
						break
					}
				}
			}
		}
	default:
		if r.Kind != "" {
			_, err = Parse(r.Body) // still must be a well-formed message
		}
	}
	if err != nil {
		return nil, err
	}
	return r, nil
}

func decodeToolRequest(b []byte) (*ToolRequest, error) {
	fields, err := Parse(b)
	if err != nil {
		return nil, err
	}
	t := &ToolRequest{}
	for _, f := range fields {
		var err error
		switch f.Num {
		case 1:
			t.Name, err = str(f, "tool_name")
		case 2:
			var sb []byte
			if sb, err = msg(f, "arguments"); err == nil {
				t.Args, err = DecodeStruct(sb, 0)
			}
		case 3:
			t.Caller, err = str(f, "caller_plugin")
		case 4:
			t.TraceParent, err = str(f, "trace_parent")
		case 5:
			t.Provider, err = str(f, "provider")
		case 6:
			t.SessionID, err = str(f, "session_id")
		}
		if err != nil {
			return nil, err
		}
	}
	return t, nil
}

func (r *Request) decodeSubscription() error {
	fields, err := Parse(r.Body)
	if err != nil {
		return err
	}
	for _, f := range fields {
		switch f.Num {
		case 1:
			if r.SubID, err = str(f, "subscription_id"); err != nil {
				return err
			}
		case 2:
			if r.Kind == "subscribe" {
				if r.Topic, err = str(f, "topic"); err != nil {
					return err
				}
			}
		case 3:
			if r.Kind != "subscribe" {
				continue
			}
			eb, err := msg(f, "filters")
			if err != nil {
				return err
			}
			efs, err := Parse(eb)
			if err != nil {
				return err
			}
			var k, v string
			for _, ef := range efs {
				switch ef.Num {
				case 1:
					k, err = str(ef, "filters key")
				case 2:
					v, err = str(ef, "filters value")
				}
				if err != nil {
					return err
				}
			}
			if r.Filters == nil {
				r.Filters = map[string]string{}
			}
			r.Filters[k] = v
		}
	}
	return nil
}

// ---------------------------------------------------------------------------------------------
// Responses (encoding, for the peer)

func response(id string, field int, body []byte) []byte {
	var e Enc
	e.String(1, id)
	if field != 0 {
		e.Bytes(field, body)
	}
	return e.B
}

// EmptyResponse is a PluginResponse with only the request id (no oneof case set).
func EmptyResponse(id string) []byte { return response(id, 0, nil) }

// HealthResponse encodes PluginResponse{health: HealthResult{status, message}}.
func HealthResponse(id string, status uint64, message string) []byte {
	var h Enc
	h.Uint(1, status)
	h.String(2, message)
	return response(id, 13, h.B)
}

// ToolResponse encodes PluginResponse{tool_call: ToolResponse{...}}. result nil = field absent.
func ToolResponse(id string, success bool, result map[string]any, code, message string) []byte {
	var t Enc
	t.Bool(1, success)
	if result != nil {
		t.Bytes(2, EncodeStruct(result))
	}
	t.String(3, code)
	t.String(4, message)
	return response(id, 20, t.B)
}

// RegisterResponse encodes PluginResponse{register: RegistrationResult{accepted: true}}.
func RegisterResponse(id string) []byte {
	var r Enc
	r.Bool(1, true)
	return response(id, 10, r.B)
}

// ToolDef is one orchestra.plugin.v1.ToolDefinition.
type ToolDef struct {
	Name        string
	Description string
	Schema      map[string]any
}

// ListToolsResponse encodes PluginResponse{list_tools: ListToolsResponse{tools}}.
func ListToolsResponse(id string, tools []ToolDef) []byte {
	var l Enc
	for _, t := range tools {
		var d Enc
		d.String(1, t.Name)
		d.String(2, t.Description)
		if t.Schema != nil {
			d.Bytes(3, EncodeStruct(t.Schema))
		}
		l.Bytes(1, d.B)
	}
	return response(id, 21, l.B)
}

// CaseResponse encodes a PluginResponse whose oneof case `field` holds the given message bytes.
func CaseResponse(id string, field int, body []byte) []byte { return response(id, field, body) }

// ---------------------------------------------------------------------------------------------
// Requests (encoding) and responses (decoding), for the test client

// EncodeToolRequest encodes PluginRequest{tool_call: ToolRequest{name, arguments}}; args nil
// leaves the arguments field out.
func EncodeToolRequest(id, tool string, args map[string]any, sessionID string) []byte {
	var t Enc
	t.String(1, tool)
	if args != nil {
		t.Bytes(2, EncodeStruct(args))
	}
	t.String(6, sessionID)
	var e Enc
	e.String(1, id)
	e.Bytes(20, t.B)
	return e.B
}

// EncodeSimpleRequest encodes a PluginRequest whose oneof case is an empty message
// (health, list_tools, …).
func EncodeSimpleRequest(id, kind string) ([]byte, error) {
	n := RequestFieldNumber(kind)
	if n == 0 {
		return nil, fmt.Errorf("unknown request kind %q", kind)
	}
	var e Enc
	e.String(1, id)
	e.Bytes(n, nil)
	return e.B, nil
}

// EncodeSubscribe encodes PluginRequest{subscribe: Subscribe{id, topic}}.
func EncodeSubscribe(id, subID, topic string) []byte {
	var s Enc
	s.String(1, subID)
	s.String(2, topic)
	var e Enc
	e.String(1, id)
	e.Bytes(50, s.B)
	return e.B
}

var responseKinds = map[int]string{
	10: "register", 11: "boot", 12: "shutdown", 13: "health",
	20: "tool_call", 21: "list_tools", 22: "list_prompts", 23: "prompt_get",
	30: "storage_read", 31: "storage_write", 32: "storage_delete", 33: "storage_list",
	40: "stream_chunk", 41: "stream_end", 50: "event_delivery",
}

// DecodeResponse decodes a PluginResponse into a JSON-friendly map:
// {"request_id", "<case>": {...}}; tool_call, health, list_tools, register and event_delivery
// are decoded field by field, other cases as {"bytes": n}.
func DecodeResponse(b []byte) (map[string]any, error) {
	fields, err := Parse(b)
	if err != nil {
		return nil, err
	}
	out := map[string]any{"request_id": ""}
	for _, f := range fields {
		if f.Num == 1 {
			if out["request_id"], err = str(f, "request_id"); err != nil {
				return nil, err
			}
			continue
		}
		kind, ok := responseKinds[f.Num]
		if !ok {
			continue
		}
		body, err := msg(f, kind)
		if err != nil {
			return nil, err
		}
		for k := range responseKinds {
			delete(out, responseKinds[k])
		}
		v, err := decodeCase(kind, body)
		if err != nil {
			return nil, err
		}
		out[kind] = v
	}
	return out, nil
}

func decodeCase(kind string, b []byte) (map[string]any, error) {
	fields, err := Parse(b)
	if err != nil {
		return nil, err
	}
	m := map[string]any{}
	for _, f := range fields {
		switch kind + "/" + fmt.Sprint(f.Num) {
		case "tool_call/1", "register/1":
			m[map[string]string{"tool_call": "success", "register": "accepted"}[kind]] = f.Int != 0
		case "tool_call/2":
			if m["result"], err = DecodeStruct(f.Bytes, 0); err != nil {
				return nil, err
			}
		case "tool_call/3":
			m["error_code"], err = str(f, "error_code")
		case "tool_call/4":
			m["error_message"], err = str(f, "error_message")
		case "health/1":
			m["status"] = map[uint64]string{0: "STATUS_UNSPECIFIED", 1: "STATUS_HEALTHY", 2: "STATUS_DEGRADED", 3: "STATUS_UNHEALTHY"}[f.Int]
		case "health/2":
			m["message"], err = str(f, "message")
		case "list_tools/1":
			def, err := decodeToolDef(f.Bytes)
			if err != nil {
				return nil, err
			}
			list, _ := m["tools"].([]any)
			m["tools"] = append(list, def)
		case "event_delivery/1":
			m["subscription_id"], err = str(f, "subscription_id")
		case "event_delivery/2":
			m["topic"], err = str(f, "topic")
		case "event_delivery/3":
			m["event_type"], err = str(f, "event_type")
		default:
			m[fmt.Sprintf("field_%d", f.Num)] = len(f.Bytes)
		}
		if err != nil {
			return nil, err
		}
	}
	return m, nil
}

func decodeToolDef(b []byte) (map[string]any, error) {
	fields, err := Parse(b)
	if err != nil {
		return nil, err
	}
	d := map[string]any{}
	for _, f := range fields {
		switch f.Num {
		case 1:
			d["name"], err = str(f, "name")
		case 2:
			d["description"], err = str(f, "description")
		case 3:
			d["input_schema"], err = DecodeStruct(f.Bytes, 0)
		}
		if err != nil {
			return nil, err
		}
	}
	return d, nil
}
