// upstream-peer: a test peer that plays upstream Orchestra's orchestrator over QUIC + mutual TLS
// (sdk-go plugin/{certs,framing,server}.go, orchestrator internal/{server,router}.go) with the
// tools.features plugin behind it, answering from an in-memory set of projects and features.
// Test code for Wallboard; see Tests/OrchestraPeer/UPSTREAM-TOOLS.md.
//
//	upstream-peer --certs DIR [--port 0] [--host 127.0.0.1] [--data FILE.json]
//	              [--cert-name server] [--flavor ui|text|legacy]
//	              [--unknown-tool-code tool_not_found] [--quiet]
//
// Prints `PORT <n>` once listening, then reads JSON control commands on stdin (one per line,
// each answered by data lines and then `OK <cmd>` or `ERR <cmd> <reason>`); exits when stdin ends.
package main

import (
	"bufio"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/lucas-clemente/quic-go"

	"wallboard/upstream-peer/wire"
)

type server struct {
	host            string
	port            int
	tlsConf         *tls.Config
	tools           *tools
	unknownToolCode string
	logf            func(string, ...any)

	mu       sync.Mutex
	udp      *net.UDPConn
	listener quic.Listener
	conns    map[quic.Connection]bool // open connection -> presented a client certificate
	stall    time.Time

	stats stats
}

type stats struct {
	mu             sync.Mutex
	requests       map[string]int // by request kind
	byTool         map[string]int
	byCall         map[string]int // tool + "\x00" + canonical args JSON
	connections    int
	withClientCert int
	streams        int
	badFrames      int
}

func (s *stats) reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests, s.byTool, s.byCall = map[string]int{}, map[string]int{}, map[string]int{}
	s.connections, s.withClientCert, s.streams, s.badFrames = 0, 0, 0, 0
}

func main() {
	certs := flag.String("certs", "", "directory with ca.crt and <cert-name>.crt/.key (required)")
	certName := flag.String("cert-name", "server", "server certificate base name inside --certs")
	host := flag.String("host", "127.0.0.1", "address to listen on")
	port := flag.Int("port", 0, "UDP port (0 picks one)")
	data := flag.String("data", "", "JSON file with {projects:[…], features:[…]}")
	flavor := flag.String("flavor", flavorUI, "plugin version to imitate: ui (v1.0.6, text+_ui), text (v1.0.5), legacy (no pagination)")
	unknownCode := flag.String("unknown-tool-code", "tool_not_found", "error_code for a tool no plugin provides (upstream: tool_not_found)")
	quiet := flag.Bool("quiet", false, "no logs on stderr")
	flag.Parse()

	logger := log.New(os.Stderr, "upstream-peer: ", log.Lmicroseconds)
	logf := logger.Printf
	if *quiet {
		logf = func(string, ...any) {}
	}
	if *certs == "" {
		logger.Fatal("--certs DIR is required")
	}
	if *flavor != flavorUI && *flavor != flavorText && *flavor != flavorLegacy {
		logger.Fatalf("--flavor must be ui, text or legacy")
	}
	tlsConf, err := serverTLS(*certs, *certName)
	if err != nil {
		logger.Fatal(err)
	}
	store, err := loadStore(*data)
	if err != nil {
		logger.Fatal(err)
	}
	s := &server{host: *host, tlsConf: tlsConf, tools: &tools{store: store, flavor: *flavor},
		unknownToolCode: *unknownCode, logf: logf, conns: map[quic.Connection]bool{}}
	s.stats.reset()
	if err := s.listen(*port); err != nil {
		logger.Fatal(err)
	}
	fmt.Printf("PORT %d\n", s.port)
	s.control(os.Stdin, os.Stdout)
	s.shutdown(false)
}

// serverTLS is upstream's ServerTLSConfig with files that already exist: the CA pool verifies
// client certificates if one is given, ALPN orchestra-plugin, TLS 1.3 minimum.
func serverTLS(dir, name string) (*tls.Config, error) {
	cert, err := tls.LoadX509KeyPair(filepath.Join(dir, name+".crt"), filepath.Join(dir, name+".key"))
	if err != nil {
		return nil, fmt.Errorf("server certificate: %w", err)
	}
	caPEM, err := os.ReadFile(filepath.Join(dir, "ca.crt"))
	if err != nil {
		return nil, err
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(caPEM) {
		return nil, fmt.Errorf("%s: no certificate", filepath.Join(dir, "ca.crt"))
	}
	return &tls.Config{
		Certificates: []tls.Certificate{cert},
		ClientCAs:    pool,
		ClientAuth:   tls.VerifyClientCertIfGiven,
		NextProtos:   []string{"orchestra-plugin"},
		MinVersion:   tls.VersionTLS13,
	}, nil
}

// quicConfig is the orchestrator's: 5 min idle timeout, 15 s keep-alive.
func quicConfig() *quic.Config {
	return &quic.Config{MaxIdleTimeout: 5 * time.Minute, KeepAlivePeriod: 15 * time.Second}
}

func (s *server) listen(port int) error {
	addr := &net.UDPAddr{IP: net.ParseIP(s.host), Port: port}
	var udp *net.UDPConn
	var err error
	for tries := 0; ; tries++ { // after a restart the old socket may take a moment to go
		udp, err = net.ListenUDP("udp", addr)
		if err == nil || port == 0 || tries >= 40 {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err != nil {
		return fmt.Errorf("listen udp %s: %w", addr, err)
	}
	ln, err := quic.Listen(udp, s.tlsConf, quicConfig())
	if err != nil {
		udp.Close()
		return err
	}
	s.mu.Lock()
	s.udp, s.listener = udp, ln
	s.port = udp.LocalAddr().(*net.UDPAddr).Port
	s.mu.Unlock()
	s.logf("listening on %s", udp.LocalAddr())
	go s.acceptLoop(ln)
	return nil
}

func (s *server) acceptLoop(ln quic.Listener) {
	for {
		conn, err := ln.Accept(context.Background())
		if err != nil {
			return
		}
		certified := len(conn.ConnectionState().TLS.PeerCertificates) > 0
		s.mu.Lock()
		s.conns[conn] = certified
		s.mu.Unlock()
		s.stats.mu.Lock()
		s.stats.connections++
		if certified {
			s.stats.withClientCert++
		}
		s.stats.mu.Unlock()
		s.logf("connection from %s (client certificate: %v)", conn.RemoteAddr(), certified)
		go s.handleConnection(conn)
	}
}

// handleConnection: like upstream, accept bidirectional streams until the connection ends, one
// goroutine per stream; the connection is closed with code 0 when the loop ends.
func (s *server) handleConnection(conn quic.Connection) {
	defer func() {
		conn.CloseWithError(0, "")
		s.mu.Lock()
		delete(s.conns, conn)
		s.mu.Unlock()
	}()
	for {
		stream, err := conn.AcceptStream(context.Background())
		if err != nil {
			s.logf("connection from %s ended: %v", conn.RemoteAddr(), err)
			return
		}
		go s.handleStream(stream)
	}
}

// handleStream: read exactly one framed PluginRequest (no FIN needed: the frame's length says
// where it ends), dispatch, write one PluginResponse, close the write side. A bad or oversized
// frame, or one that is not a PluginRequest, gets no reply: the stream is just closed.
func (s *server) handleStream(stream quic.Stream) {
	defer stream.Close()
	s.stats.mu.Lock()
	s.stats.streams++
	s.stats.mu.Unlock()
	body, err := wire.ReadFrame(stream, wire.MaxMessageSize)
	if err == nil {
		var req *wire.Request
		if req, err = wire.DecodeRequest(body); err == nil {
			s.waitStall()
			resp := s.dispatch(req)
			if _, err := stream.Write(wire.Frame(resp)); err != nil {
				s.logf("write response: %v", err)
			}
			return
		}
	}
	s.stats.mu.Lock()
	s.stats.badFrames++
	s.stats.mu.Unlock()
	s.logf("read request: %v", err)
}

func (s *server) waitStall() {
	for {
		s.mu.Lock()
		until := s.stall
		s.mu.Unlock()
		d := time.Until(until)
		if d <= 0 {
			return
		}
		if d > 50*time.Millisecond {
			d = 50 * time.Millisecond
		}
		time.Sleep(d)
	}
}

func canonicalArgs(args map[string]any) string {
	if args == nil {
		return "null"
	}
	raw, _ := json.Marshal(args) // encoding/json sorts map keys
	return string(raw)
}

// dispatch answers as upstream's orchestrator server does (internal/server.go, newest version).
func (s *server) dispatch(req *wire.Request) []byte {
	kind := req.Kind
	if kind == "" {
		kind = "none"
	}
	s.stats.mu.Lock()
	s.stats.requests[kind]++
	if req.Tool != nil {
		s.stats.byTool[req.Tool.Name]++
		s.stats.byCall[req.Tool.Name+"\x00"+canonicalArgs(req.Tool.Args)]++
	}
	s.stats.mu.Unlock()

	id := req.ID
	switch req.Kind {
	case "register":
		return wire.RegisterResponse(id)
	case "health":
		return wire.HealthResponse(id, 1, "orchestrator ok")
	case "list_tools":
		var defs []wire.ToolDef
		for _, d := range s.tools.definitions() {
			defs = append(defs, wire.ToolDef{Name: d.name, Description: d.description, Schema: d.schema})
		}
		return wire.ListToolsResponse(id, defs)
	case "list_prompts":
		return wire.CaseResponse(id, 22, nil)
	case "prompt_get":
		var e wire.Enc
		e.String(1, fmt.Sprintf("no plugin provides prompt %q", req.Prompt))
		return wire.CaseResponse(id, 23, e.B)
	case "tool_call":
		return s.toolCall(req)
	case "storage_read", "storage_list":
		// The orchestrator's answer when storage fails: an empty response of the same case.
		return wire.CaseResponse(id, wire.RequestFieldNumber(req.Kind), nil)
	case "storage_write":
		var e wire.Enc
		e.String(3, "upstream-peer: storage is not served")
		return wire.CaseResponse(id, 31, e.B)
	case "storage_delete":
		return wire.CaseResponse(id, 32, nil)
	case "subscribe", "unsubscribe", "publish":
		// The orchestrator records the subscription (for plugins it launched) and answers an
		// empty PluginResponse; nothing is ever delivered on this stream, which it closes.
		return wire.EmptyResponse(id)
	}
	// boot, shutdown, stream_start, stream_cancel, no case set: not handled by the orchestrator.
	return wire.ToolResponse(id, false, nil, "unknown_request", "unrecognized request type")
}

func (s *server) toolCall(req *wire.Request) []byte {
	t := req.Tool
	id := req.ID
	if !s.tools.serves(t.Name) && !s.tools.knows(t.Name) {
		msg := fmt.Sprintf("no plugin provides tool %q", t.Name)
		if t.Provider != "" {
			msg = fmt.Sprintf("no plugin provides tool %q for provider %q", t.Name, t.Provider)
		}
		return wire.ToolResponse(id, false, nil, s.unknownToolCode, msg)
	}
	r := s.tools.call(t.Name, t.Args)
	if !r.ok {
		return wire.ToolResponse(id, false, nil, r.code, r.message)
	}
	return wire.ToolResponse(id, true, r.result, "", "")
}

// shutdown closes the listener and every connection. Gracefully: each connection gets a
// CONNECTION_CLOSE (code 0) first, as when the orchestrator stops. crash: the UDP socket is
// closed first, so the clients hear nothing (as when the process is killed).
func (s *server) shutdown(crash bool) {
	s.mu.Lock()
	udp, ln := s.udp, s.listener
	conns := make([]quic.Connection, 0, len(s.conns))
	for c := range s.conns {
		conns = append(conns, c)
	}
	s.udp, s.listener = nil, nil
	s.mu.Unlock()
	if udp == nil {
		return
	}
	if crash {
		udp.Close()
	}
	for _, c := range conns {
		c.CloseWithError(0, "")
	}
	ln.Close()
	if !crash {
		udp.Close()
	}
}

// ---------------------------------------------------------------------------------------------
// Control channel

type command struct {
	Cmd         string          `json:"cmd"`
	Feature     json.RawMessage `json:"feature"`
	Merge       bool            `json:"merge"`
	Project     json.RawMessage `json:"project"`
	ID          string          `json:"id"`
	DownSeconds float64         `json:"down_seconds"`
	Crash       bool            `json:"crash"`
	Seconds     float64         `json:"seconds"`
	Reset       bool            `json:"reset"`
}

func (s *server) control(in io.Reader, out io.Writer) {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	w := bufio.NewWriter(out)
	reply := func(lines ...string) {
		for _, l := range lines {
			w.WriteString(l + "\n")
		}
		w.Flush()
	}
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		var c command
		if err := json.Unmarshal([]byte(line), &c); err != nil {
			reply("ERR ? " + oneLine(err.Error()))
			continue
		}
		data, err := s.run(&c)
		if err != nil {
			reply("ERR " + c.Cmd + " " + oneLine(err.Error()))
			continue
		}
		reply(append(data, "OK "+c.Cmd)...)
		if c.Cmd == "quit" {
			return
		}
	}
}

func oneLine(s string) string { return strings.ReplaceAll(s, "\n", " ") }

func (s *server) run(c *command) ([]string, error) {
	store := s.tools.store
	switch c.Cmd {
	case "set":
		if len(c.Feature) == 0 {
			return nil, errors.New("needs feature")
		}
		if c.Merge {
			return nil, store.MergeFeature(c.Feature)
		}
		var f Feature
		dec := json.NewDecoder(strings.NewReader(string(c.Feature)))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&f); err != nil {
			return nil, err
		}
		return nil, store.SetFeature(&f)
	case "delete":
		var project string
		if err := json.Unmarshal(c.Project, &project); err != nil || project == "" || c.ID == "" {
			return nil, errors.New(`needs "project" (slug) and "id"`)
		}
		if !store.DeleteFeature(project, c.ID) {
			return nil, fmt.Errorf("no feature %s/%s", project, c.ID)
		}
		return nil, nil
	case "set_project":
		var p Project
		if err := json.Unmarshal(c.Project, &p); err != nil {
			return nil, fmt.Errorf("needs project object: %v", err)
		}
		return nil, store.SetProject(&p)
	case "delete_project":
		var slug string
		if err := json.Unmarshal(c.Project, &slug); err != nil || !store.DeleteProject(slug) {
			return nil, errors.New(`needs "project": an existing slug`)
		}
		return nil, nil
	case "snapshot":
		raw, _ := json.Marshal(store.Snapshot())
		return []string{string(raw)}, nil
	case "calls":
		line := s.callsJSON()
		if c.Reset {
			s.stats.reset()
			open, certified := 0, 0
			s.mu.Lock()
			for _, cert := range s.conns { // still-open connections count again
				open++
				if cert {
					certified++
				}
			}
			s.mu.Unlock()
			s.stats.mu.Lock()
			s.stats.connections, s.stats.withClientCert = open, certified
			s.stats.mu.Unlock()
		}
		return []string{line}, nil
	case "stall":
		s.mu.Lock()
		s.stall = time.Now().Add(time.Duration(c.Seconds * float64(time.Second)))
		s.mu.Unlock()
		return nil, nil
	case "restart":
		port := s.port
		s.shutdown(c.Crash)
		time.Sleep(time.Duration(c.DownSeconds * float64(time.Second)))
		return nil, s.listen(port)
	case "quit":
		return nil, nil
	}
	return nil, fmt.Errorf("unknown command")
}

// callsJSON: one line with request counts, tool calls by name, and by name + arguments.
func (s *server) callsJSON() string {
	s.stats.mu.Lock()
	type call struct {
		Tool      string          `json:"tool"`
		Arguments json.RawMessage `json:"arguments"`
		Count     int             `json:"count"`
	}
	calls := []call{}
	total := 0
	for k, n := range s.stats.byCall {
		parts := strings.SplitN(k, "\x00", 2)
		calls = append(calls, call{parts[0], json.RawMessage(parts[1]), n})
		total += n
	}
	sort.Slice(calls, func(i, j int) bool {
		if calls[i].Tool != calls[j].Tool {
			return calls[i].Tool < calls[j].Tool
		}
		return string(calls[i].Arguments) < string(calls[j].Arguments)
	})
	s.mu.Lock()
	open := len(s.conns)
	s.mu.Unlock()
	doc := map[string]any{
		"tool_calls": total,
		"by_tool":    copyCounts(s.stats.byTool),
		"by_call":    calls,
		"requests":   copyCounts(s.stats.requests),
		"connections": map[string]int{"accepted": s.stats.connections, "open": open,
			"with_client_cert": s.stats.withClientCert},
		"streams":    s.stats.streams,
		"bad_frames": s.stats.badFrames,
	}
	s.stats.mu.Unlock()
	raw, _ := json.Marshal(doc)
	return string(raw)
}

func copyCounts(m map[string]int) map[string]int {
	out := make(map[string]int, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
