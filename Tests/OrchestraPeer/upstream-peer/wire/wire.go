// Package wire is a small, dependency-free protobuf codec for the Orchestra plugin protocol
// (package orchestra.plugin.v1) as the upstream-peer and its test client need it: framing,
// the request/response envelopes, ToolRequest/ToolResponse, HealthResult, Subscribe and the
// google.protobuf.Struct family. Field numbers follow /work/shared/reference/orchestra-protocol.md
// and upstream's plugin.proto. Written from those facts; no generated code.
package wire

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"unicode/utf8"
)

// MaxMessageSize is upstream's frame limit (16 MiB).
const MaxMessageSize = 16 * 1024 * 1024

// MaxDepth bounds Struct/Value nesting while decoding.
const MaxDepth = 64

// Wire types.
const (
	typeVarint  = 0
	typeFixed64 = 1
	typeBytes   = 2
	typeFixed32 = 5
)

// ErrTooLarge is returned by ReadFrame when the length prefix exceeds the limit.
var ErrTooLarge = errors.New("frame larger than 16 MiB")

// ReadFrame reads one [4-byte big-endian length][body] frame. The announced size is checked
// before anything is allocated.
func ReadFrame(r io.Reader, max uint32) ([]byte, error) {
	var hdr [4]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return nil, fmt.Errorf("read header: %w", err)
	}
	n := binary.BigEndian.Uint32(hdr[:])
	if n > max {
		return nil, fmt.Errorf("%w: %d bytes announced", ErrTooLarge, n)
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(r, body); err != nil {
		return nil, fmt.Errorf("read payload: %w", err)
	}
	return body, nil
}

// Frame prefixes body with its length.
func Frame(body []byte) []byte {
	out := make([]byte, 4, 4+len(body))
	binary.BigEndian.PutUint32(out, uint32(len(body)))
	return append(out, body...)
}

// ---------------------------------------------------------------------------------------------
// Encoding

// Enc builds one message.
type Enc struct{ B []byte }

func (e *Enc) varint(v uint64) {
	for v >= 0x80 {
		e.B = append(e.B, byte(v)|0x80)
		v >>= 7
	}
	e.B = append(e.B, byte(v))
}

func (e *Enc) tag(num int, wt int) { e.varint(uint64(num)<<3 | uint64(wt)) }

// String writes a string field (skipped when empty, as proto3 does).
func (e *Enc) String(num int, s string) {
	if s == "" {
		return
	}
	e.tag(num, typeBytes)
	e.varint(uint64(len(s)))
	e.B = append(e.B, s...)
}

// Bytes writes a length-delimited field even when empty (used for sub-messages: presence).
func (e *Enc) Bytes(num int, b []byte) {
	e.tag(num, typeBytes)
	e.varint(uint64(len(b)))
	e.B = append(e.B, b...)
}

// Bool writes a bool field (skipped when false).
func (e *Enc) Bool(num int, v bool) {
	if !v {
		return
	}
	e.tag(num, typeVarint)
	e.varint(1)
}

// Uint writes a varint field (skipped when zero).
func (e *Enc) Uint(num int, v uint64) {
	if v == 0 {
		return
	}
	e.tag(num, typeVarint)
	e.varint(v)
}

// Double writes a fixed64 double field unconditionally (a Value's number must be present).
func (e *Enc) Double(num int, v float64) {
	e.tag(num, typeFixed64)
	e.B = binary.LittleEndian.AppendUint64(e.B, math.Float64bits(v))
}

// EncodeStruct encodes a JSON-like map as google.protobuf.Struct (keys sorted, for stable bytes).
func EncodeStruct(m map[string]any) []byte {
	var e Enc
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		var entry Enc
		entry.String(1, k)
		entry.Bytes(2, EncodeValue(m[k]))
		e.Bytes(1, entry.B)
	}
	return e.B
}

// EncodeValue encodes one JSON-like value as google.protobuf.Value.
func EncodeValue(v any) []byte {
	var e Enc
	switch x := v.(type) {
	case nil:
		e.tag(1, typeVarint)
		e.varint(0)
	case float64:
		e.Double(2, x)
	case int:
		e.Double(2, float64(x))
	case int64:
		e.Double(2, float64(x))
	case string:
		e.tag(3, typeBytes)
		e.varint(uint64(len(x)))
		e.B = append(e.B, x...)
	case bool:
		e.tag(4, typeVarint)
		if x {
			e.varint(1)
		} else {
			e.varint(0)
		}
	case map[string]any:
		e.Bytes(5, EncodeStruct(x))
	case []any:
		var l Enc
		for _, item := range x {
			l.Bytes(1, EncodeValue(item))
		}
		e.Bytes(6, l.B)
	case []string:
		items := make([]any, len(x))
		for i, s := range x {
			items[i] = s
		}
		return EncodeValue(items)
	default:
		panic(fmt.Sprintf("wire: cannot encode %T as a Value", v))
	}
	return e.B
}

// ---------------------------------------------------------------------------------------------
// Decoding

// Field is one decoded field of a message.
type Field struct {
	Num   int
	Type  int
	Int   uint64 // varint, fixed64, fixed32
	Bytes []byte // length-delimited
}

func readVarint(b []byte, i int) (uint64, int, error) {
	var v uint64
	for shift := uint(0); shift < 70; shift += 7 {
		if i >= len(b) {
			return 0, 0, errors.New("truncated varint")
		}
		c := b[i]
		i++
		if shift == 63 && c > 1 {
			return 0, 0, errors.New("varint overflows 64 bits")
		}
		v |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return v, i, nil
		}
	}
	return 0, 0, errors.New("varint longer than 10 bytes")
}

// Parse splits a message into fields. Unknown field numbers are returned like known ones (the
// caller ignores what it does not know); wire types 3, 4, 6 and 7 and truncation are errors.
func Parse(b []byte) ([]Field, error) {
	var out []Field
	i := 0
	for i < len(b) {
		key, j, err := readVarint(b, i)
		if err != nil {
			return nil, fmt.Errorf("field key: %w", err)
		}
		i = j
		num := int(key >> 3)
		wt := int(key & 7)
		if num <= 0 || key>>3 > 536870911 {
			return nil, fmt.Errorf("invalid field number %d", key>>3)
		}
		f := Field{Num: num, Type: wt}
		switch wt {
		case typeVarint:
			f.Int, i, err = readVarint(b, i)
			if err != nil {
				return nil, fmt.Errorf("field %d: %w", num, err)
			}
		case typeFixed64:
			if len(b)-i < 8 {
				return nil, fmt.Errorf("field %d: truncated fixed64", num)
			}
			f.Int = binary.LittleEndian.Uint64(b[i:])
			i += 8
		case typeFixed32:
			if len(b)-i < 4 {
				return nil, fmt.Errorf("field %d: truncated fixed32", num)
			}
			f.Int = uint64(binary.LittleEndian.Uint32(b[i:]))
			i += 4
		case typeBytes:
			n, j, err := readVarint(b, i)
			if err != nil {
				return nil, fmt.Errorf("field %d length: %w", num, err)
			}
			i = j
			if n > uint64(len(b)-i) {
				return nil, fmt.Errorf("field %d: length %d runs past the message", num, n)
			}
			f.Bytes = b[i : i+int(n)]
			i += int(n)
		default:
			return nil, fmt.Errorf("field %d: unsupported wire type %d", num, wt)
		}
		out = append(out, f)
	}
	return out, nil
}

func str(f Field, what string) (string, error) {
	if f.Type != typeBytes {
		return "", fmt.Errorf("%s: wire type %d, want 2", what, f.Type)
	}
	if !utf8.Valid(f.Bytes) {
		return "", fmt.Errorf("%s: invalid UTF-8", what)
	}
	return string(f.Bytes), nil
}

func msg(f Field, what string) ([]byte, error) {
	if f.Type != typeBytes {
		return nil, fmt.Errorf("%s: wire type %d, want 2", what, f.Type)
	}
	return f.Bytes, nil
}

// DecodeStruct decodes google.protobuf.Struct into a map (numbers as float64).
func DecodeStruct(b []byte, depth int) (map[string]any, error) {
	if depth > MaxDepth {
		return nil, errors.New("struct nesting too deep")
	}
	fields, err := Parse(b)
	if err != nil {
		return nil, err
	}
	out := map[string]any{}
	for _, f := range fields {
		if f.Num != 1 {
			continue
		}
		eb, err := msg(f, "Struct.fields")
		if err != nil {
			return nil, err
		}
		efs, err := Parse(eb)
		if err != nil {
			return nil, err
		}
		var key string
		var val any
		for _, ef := range efs {
			switch ef.Num {
			case 1:
				if key, err = str(ef, "Struct entry key"); err != nil {
					return nil, err
				}
			case 2:
				vb, err := msg(ef, "Struct entry value")
				if err != nil {
					return nil, err
				}
				if val, err = DecodeValue(vb, depth+1); err != nil {
					return nil, err
				}
			}
		}
		out[key] = val
	}
	return out, nil
}

// DecodeValue decodes google.protobuf.Value. An empty Value (no kind set) decodes as nil.
func DecodeValue(b []byte, depth int) (any, error) {
	if depth > MaxDepth {
		return nil, errors.New("value nesting too deep")
	}
	fields, err := Parse(b)
	if err != nil {
		return nil, err
	}
	var out any
	for _, f := range fields {
		switch f.Num {
		case 1:
			out = nil
		case 2:
			if f.Type != typeFixed64 {
				return nil, fmt.Errorf("number_value: wire type %d", f.Type)
			}
			out = math.Float64frombits(f.Int)
		case 3:
			if out, err = str(f, "string_value"); err != nil {
				return nil, err
			}
		case 4:
			if f.Type != typeVarint {
				return nil, fmt.Errorf("bool_value: wire type %d", f.Type)
			}
			out = f.Int != 0
		case 5:
			sb, err := msg(f, "struct_value")
			if err != nil {
				return nil, err
			}
			if out, err = DecodeStruct(sb, depth+1); err != nil {
				return nil, err
			}
		case 6:
			lb, err := msg(f, "list_value")
			if err != nil {
				return nil, err
			}
			lfs, err := Parse(lb)
			if err != nil {
				return nil, err
			}
			list := []any{}
			for _, lf := range lfs {
				if lf.Num != 1 {
					continue
				}
				ib, err := msg(lf, "ListValue.values")
				if err != nil {
					return nil, err
				}
				item, err := DecodeValue(ib, depth+1)
				if err != nil {
					return nil, err
				}
				list = append(list, item)
			}
			out = list
		}
	}
	return out, nil
}
