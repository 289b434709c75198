// upstream-client: a small QUIC client for checking the upstream-peer (and, as far as it goes,
// a real orchestrator). One connection; each request on its own bidirectional stream, like
// upstream's OrchestratorClient.Send: write one frame, close the write side, read the response
// until the stream ends.
//
//	upstream-client --addr 127.0.0.1:PORT --certs DIR [--cert-name client | --no-client-cert]
//	                [--ca FILE] [--alpn orchestra-plugin] [--server-name localhost]
//	                [--frames-in FILE --frames-out FILE]
//
// Without --frames-in it reads JSON lines on stdin and prints one JSON line per request:
//
//	{"tool":"list_features","args":{"project_id":"p"},"session_id":""}   tool_call
//	{"kind":"health"}  {"kind":"list_tools"}  {"kind":"subscribe","topic":"features"}
//	{"raw_hex":"0a01…"}     any PluginRequest bytes (framed by the client)
//	options on any line: "no_fin":true (keep the write side open), "oversize":true (announce
//	2^31-1 bytes and send nothing else), "id":"request id" (default r<N>)
//
// The reply line is {"response":{…decoded…}|null,"error":"…","ms":…}. With --frames-in, every
// frame of the file is sent on its own stream and the raw response bytes are appended to
// --frames-out (for decoding with Tests/OrchestraPeer/codec.py).
package main

import (
	"bufio"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/lucas-clemente/quic-go"

	"wallboard/upstream-peer/wire"
)

func main() {
	addr := flag.String("addr", "", "host:port of the peer")
	certs := flag.String("certs", "", "directory with ca.crt and <cert-name>.crt/.key")
	certName := flag.String("cert-name", "client", "client certificate base name")
	noCert := flag.Bool("no-client-cert", false, "present no client certificate")
	caFile := flag.String("ca", "", "CA file to trust (default DIR/ca.crt)")
	alpn := flag.String("alpn", "orchestra-plugin", "ALPN to offer")
	serverName := flag.String("server-name", "localhost", "TLS server name")
	framesIn := flag.String("frames-in", "", "file of length-prefixed PluginRequest frames")
	framesOut := flag.String("frames-out", "", "file to append raw response bytes to")
	timeout := flag.Duration("timeout", 5*time.Second, "per-request timeout")
	flag.Parse()

	conf := &tls.Config{ServerName: *serverName, NextProtos: []string{*alpn}, MinVersion: tls.VersionTLS13}
	ca := *caFile
	if ca == "" {
		ca = filepath.Join(*certs, "ca.crt")
	}
	pem, err := os.ReadFile(ca)
	if err != nil {
		fail(err)
	}
	conf.RootCAs = x509.NewCertPool()
	conf.RootCAs.AppendCertsFromPEM(pem)
	if !*noCert {
		cert, err := tls.LoadX509KeyPair(filepath.Join(*certs, *certName+".crt"), filepath.Join(*certs, *certName+".key"))
		if err != nil {
			fail(err)
		}
		conf.Certificates = []tls.Certificate{cert}
	}
	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	conn, err := quic.DialAddrContext(ctx, *addr, conf, &quic.Config{MaxIdleTimeout: 5 * time.Minute, KeepAlivePeriod: 15 * time.Second})
	cancel()
	if err != nil {
		fail(fmt.Errorf("dial: %w", err))
	}
	// In TLS 1.3 the server checks a client certificate after the client considers the
	// handshake done: a rejection shows up as the first request's error.
	defer conn.CloseWithError(0, "")

	if *framesIn != "" {
		framesMode(conn, *framesIn, *framesOut, *timeout)
		return
	}
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	n := 0
	for sc.Scan() {
		if len(sc.Bytes()) == 0 {
			continue
		}
		n++
		fmt.Println(jsonRequest(conn, sc.Bytes(), n, *timeout))
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "upstream-client:", err)
	os.Exit(1)
}

type line struct {
	Tool      string         `json:"tool"`
	Args      map[string]any `json:"args"`
	SessionID string         `json:"session_id"`
	Kind      string         `json:"kind"`
	Topic     string         `json:"topic"`
	RawHex    string         `json:"raw_hex"`
	NoFin     bool           `json:"no_fin"`
	Oversize  bool           `json:"oversize"`
	ID        string         `json:"id"`
}

// exchange sends one request on a new stream and returns every byte the server sent back.
func exchange(conn quic.Connection, frame []byte, fin bool, timeout time.Duration) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	st, err := conn.OpenStreamSync(ctx)
	if err != nil {
		return nil, fmt.Errorf("open stream: %w", err)
	}
	st.SetDeadline(time.Now().Add(timeout))
	if _, err := st.Write(frame); err != nil {
		return nil, fmt.Errorf("write: %w", err)
	}
	if fin {
		st.Close()
	}
	data, err := io.ReadAll(st)
	if !fin {
		st.Close()
	}
	return data, err
}

func jsonRequest(conn quic.Connection, raw []byte, n int, timeout time.Duration) string {
	var l line
	out := map[string]any{"response": nil}
	emit := func() string {
		b, _ := json.Marshal(out)
		return string(b)
	}
	if err := json.Unmarshal(raw, &l); err != nil {
		out["error"] = "bad line: " + err.Error()
		return emit()
	}
	id := l.ID
	if id == "" {
		id = fmt.Sprintf("r%d", n)
	}
	var body []byte
	var err error
	switch {
	case l.RawHex != "":
		body, err = hex.DecodeString(l.RawHex)
	case l.Tool != "":
		body = wire.EncodeToolRequest(id, l.Tool, l.Args, l.SessionID)
	case l.Kind == "subscribe":
		body = wire.EncodeSubscribe(id, "sub-"+id, l.Topic)
	case l.Kind != "":
		body, err = wire.EncodeSimpleRequest(id, l.Kind)
	default:
		err = fmt.Errorf("line needs tool, kind or raw_hex")
	}
	if err != nil {
		out["error"] = err.Error()
		return emit()
	}
	frame := wire.Frame(body)
	if l.Oversize {
		frame = make([]byte, 4)
		binary.BigEndian.PutUint32(frame, 0x7fffffff)
	}
	start := time.Now()
	data, err := exchange(conn, frame, !l.NoFin, timeout)
	out["ms"] = float64(time.Since(start).Microseconds()) / 1000
	if err != nil {
		out["error"] = err.Error()
	}
	if len(data) > 0 {
		if len(data) < 4 || int(binary.BigEndian.Uint32(data)) != len(data)-4 {
			out["error"] = fmt.Sprintf("response is not exactly one frame (%d bytes)", len(data))
			return emit()
		}
		resp, derr := wire.DecodeResponse(data[4:])
		if derr != nil {
			out["error"] = "decode: " + derr.Error()
		} else {
			out["response"] = resp
		}
	}
	return emit()
}

func framesMode(conn quic.Connection, in, outPath string, timeout time.Duration) {
	f, err := os.Open(in)
	if err != nil {
		fail(err)
	}
	defer f.Close()
	out, err := os.OpenFile(outPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		fail(err)
	}
	defer out.Close()
	r := bufio.NewReader(f)
	for i := 0; ; i++ {
		body, err := wire.ReadFrame(r, 1<<31-1)
		if err != nil {
			if err == io.EOF || errorsIsEOF(err) {
				return
			}
			fail(err)
		}
		data, err := exchange(conn, wire.Frame(body), true, timeout)
		if err != nil {
			fmt.Fprintf(os.Stderr, "upstream-client: frame %d: %v\n", i, err)
		}
		if len(data) == 0 {
			fmt.Fprintf(os.Stderr, "upstream-client: frame %d: no response\n", i)
		}
		out.Write(data)
	}
}

func errorsIsEOF(err error) bool {
	for e := err; e != nil; {
		if e == io.EOF {
			return true
		}
		u, ok := e.(interface{ Unwrap() error })
		if !ok {
			return false
		}
		e = u.Unwrap()
	}
	return false
}
