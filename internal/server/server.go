package server

import (
	"bytes"
	"crypto/rand"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"log"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/skillgraph/skillgraph/internal/store"
	"github.com/skillgraph/skillgraph/messages"
	"github.com/skillgraph/skillgraph/models/trueskill"
	"github.com/skillgraph/skillgraph/record"
)

// MaxBody caps the bytes read from a request's body. It holds the largest
// match the store takes (store.MaxTeams teams of store.MaxTeamSize names
// of store.MaxNameLength bytes and an ID of store.MaxIDLength bytes) even
// with every character written as a JSON \u escape, six bytes a byte:
// about 1.6 MB, so that no valid match is refused for its size.
const MaxBody = 2 << 20

//go:embed templates/*.html
var templateFS embed.FS

// Config sets up a Server.
type Config struct {
	// Store holds the league.
	Store store.Store
	// Token is what writes need. Empty refuses every write.
	Token string
	// ErrorLog receives errors that are the server's fault (nil: the
	// standard logger).
	ErrorLog *log.Logger
	// Now gives the time a form's match is played at when it gives none
	// (nil: time.Now).
	Now func() time.Time
}

// Server is the league's page, an http.Handler.
type Server struct {
	st      store.Store
	token   string
	log     *log.Logger
	now     func() time.Time
	pages   map[string]*template.Template
	handler http.Handler
}

// New returns the league's page on cfg.Store.
func New(cfg Config) (*Server, error) {
	if cfg.Store == nil {
		return nil, errors.New("server: no store")
	}
	// A header's value loses the white space at its ends and cannot hold
	// a control character, so such a token could never be given.
	if strings.TrimSpace(cfg.Token) != cfg.Token || strings.ContainsFunc(cfg.Token, unicode.IsControl) {
		return nil, errors.New("server: the token starts or ends with white space or holds a control character, which no Authorization header can carry")
	}
	s := &Server{st: cfg.Store, token: cfg.Token, log: cfg.ErrorLog, now: cfg.Now}
	if s.log == nil {
		s.log = log.Default()
	}
	if s.now == nil {
		s.now = time.Now
	}
	funcs := template.FuncMap{
		"path":    url.PathEscape,
		"percent": func(f float64) string { return fmt.Sprintf("%.0f%%", 100*f) },
		"prob":    func(f float64) string { return fmt.Sprintf("%.3f", f) },
		"f0":      func(f float64) string { return fmt.Sprintf("%.0f", f) },
		"f2":      func(f float64) string { return fmt.Sprintf("%.2f", f) },
		"date":    func(t time.Time) string { return t.UTC().Format("2006-01-02") },
		"stamp":   func(t time.Time) string { return t.UTC().Format("2006-01-02 15:04") },
		"join":    strings.Join,
		"names":   joinNames,
		"add":     func(a, b int) int { return a + b },
	}
	s.pages = map[string]*template.Template{}
	for _, name := range []string{"leaderboard", "player", "form", "matchup", "login", "matches", "error"} {
		t, err := template.New("layout.html").Funcs(funcs).ParseFS(templateFS, "templates/layout.html", "templates/"+name+".html")
		if err != nil {
			return nil, fmt.Errorf("server: template %s: %w", name, err)
		}
		s.pages[name] = t
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.leaderboardPage)
	mux.HandleFunc("GET /players/{name}", s.playerPage)
	mux.HandleFunc("GET /matchup", s.matchupPage)
	mux.HandleFunc("GET /matches", s.matchesPage)
	mux.HandleFunc("GET /matches/new", s.formPage)
	mux.HandleFunc("POST /matches", s.formPost)
	mux.HandleFunc("POST /matches/{id}/delete", s.formDelete)
	mux.HandleFunc("GET /login", s.loginPage)
	mux.HandleFunc("POST /login", s.loginPost)
	mux.HandleFunc("POST /logout", s.logoutPost)
	mux.HandleFunc("GET /api/leaderboard", s.apiLeaderboard)
	mux.HandleFunc("GET /api/players/{name}", s.apiPlayer)
	mux.HandleFunc("POST /api/matches", s.apiPost)
	mux.HandleFunc("PUT /api/matches/{id}", s.apiPut)
	mux.HandleFunc("DELETE /api/matches/{id}", s.apiDelete)
	mux.HandleFunc("GET /api/matches.csv", s.apiCSV)
	// Scripts read the API's errors as JSON: the other methods on its
	// paths, and the paths it does not have, answer in JSON too.
	for path, allow := range map[string]string{
		"/api/leaderboard": "GET, HEAD", "/api/players/{name}": "GET, HEAD", "/api/matches": "POST",
		"/api/matches/{id}": "PUT, DELETE", "/api/matches.csv": "GET, HEAD",
	} {
		mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Allow", allow)
			writeJSON(w, http.StatusMethodNotAllowed, map[string]string{"error": fmt.Sprintf("%s takes %s, not %s", path, allow, r.Method)})
		})
	}
	mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusNotFound, map[string]string{"error": fmt.Sprintf("the API has no %s: see GET /api/leaderboard, GET /api/players/{name}, POST /api/matches, PUT and DELETE /api/matches/{id}, GET /api/matches.csv", r.URL.Path)})
	})
	s.handler = http.NewCrossOriginProtection().Handler(mux)
	return s, nil
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; form-action 'self'; frame-ancestors 'none'")
	w.Header().Set("Referrer-Policy", "same-origin")
	s.handler.ServeHTTP(w, r)
}

// status maps an error to its HTTP status and the message the client
// sees: the store's own words for what the client can fix, a generic
// message (and a log line) for the rest.
func (s *Server) status(err error) (int, string) {
	var mbe *http.MaxBytesError
	switch {
	case errors.Is(err, messages.ErrInput), errors.Is(err, messages.ErrImpossible):
		return http.StatusBadRequest, err.Error()
	case errors.As(err, &mbe):
		return http.StatusRequestEntityTooLarge, fmt.Sprintf("the body is larger than %d bytes", MaxBody)
	case errors.Is(err, store.ErrNotFound):
		return http.StatusNotFound, err.Error()
	case errors.Is(err, store.ErrConflict):
		return http.StatusConflict, err.Error()
	case errors.Is(err, messages.ErrNumerical):
		// A valid match whose rating float64 cannot carry under the
		// league's setting: the client can do nothing, but the message
		// says what stopped it.
		return http.StatusUnprocessableEntity, err.Error()
	}
	s.log.Printf("skillgraph serve: %v", err)
	return http.StatusInternalServerError, "internal error: the league was not changed"
}

// badRequest reports a request the server cannot read.
func badRequest(format string, a ...any) error {
	return fmt.Errorf(format+": %w", append(a, messages.ErrInput)...)
}

func (s *Server) render(w http.ResponseWriter, r *http.Request, code int, page string, data map[string]any) {
	if data == nil {
		data = map[string]any{}
	}
	nonce, ok := s.session(r)
	data["LoggedIn"] = ok
	if ok {
		data["CSRF"] = s.csrf(nonce)
	}
	var b strings.Builder
	if err := s.pages[page].Execute(&b, data); err != nil {
		s.log.Printf("skillgraph serve: render %s: %v", page, err)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(code)
	io.WriteString(w, b.String())
}

func (s *Server) errorPage(w http.ResponseWriter, r *http.Request, err error) {
	code, msg := s.status(err)
	s.render(w, r, code, "error", map[string]any{"Title": http.StatusText(code), "Message": msg})
}

// rows returns the league's parameters and its leaderboard.
func (s *Server) rows(r *http.Request) (trueskill.Params, []Row, error) {
	p, err := s.st.Params(r.Context())
	if err != nil {
		return p, nil, err
	}
	players, err := s.st.Players(r.Context())
	if err != nil {
		return p, nil, err
	}
	return p, leaderboard(p, players), nil
}

func (s *Server) leaderboardPage(w http.ResponseWriter, r *http.Request) {
	p, rows, err := s.rows(r)
	if err != nil {
		s.errorPage(w, r, err)
		return
	}
	s.render(w, r, http.StatusOK, "leaderboard", map[string]any{"Title": "Leaderboard", "Rows": rows, "Params": p})
}

func (s *Server) player(r *http.Request, name string) (trueskill.Params, PlayerView, error) {
	p, rows, err := s.rows(r)
	if err != nil {
		return p, PlayerView{}, err
	}
	for _, row := range rows {
		if row.Name == name {
			hist, err := s.st.History(r.Context(), name)
			if err != nil {
				return p, PlayerView{}, err
			}
			return p, playerView(row, hist), nil
		}
	}
	return p, PlayerView{}, fmt.Errorf("%w: no player %q", store.ErrNotFound, name)
}

func (s *Server) playerPage(w http.ResponseWriter, r *http.Request) {
	p, v, err := s.player(r, r.PathValue("name"))
	if err != nil {
		s.errorPage(w, r, err)
		return
	}
	svg, err := historySVG(p, v.History)
	if err != nil {
		s.errorPage(w, r, err)
		return
	}
	recent := v.History
	if len(recent) > 20 {
		recent = recent[len(recent)-20:]
	}
	rev := make([]Step, len(recent))
	for i := range recent {
		rev[i] = recent[len(recent)-1-i]
	}
	s.render(w, r, http.StatusOK, "player", map[string]any{"Title": v.Name, "P": v, "Plot": svg, "Recent": rev})
}

// splitNames reads a team from a form field: names separated by commas,
// each trimmed of spaces. A name that holds a comma or a double quote is
// written in double quotes, a quote in it doubled, as in CSV:
// "Smith, J", Bo. A quote that does not close before a comma or the end
// is read as part of a name.
func splitNames(s string) []string {
	var out []string
	for {
		s = strings.TrimSpace(s)
		if name, rest, ok := quoted(s); ok {
			if rest = strings.TrimSpace(rest); rest == "" || rest[0] == ',' {
				if name != "" {
					out = append(out, name)
				}
				if rest == "" {
					return out
				}
				s = rest[1:]
				continue
			}
		}
		name, rest, more := strings.Cut(s, ",")
		if name = strings.TrimSpace(name); name != "" {
			out = append(out, name)
		}
		if !more {
			return out
		}
		s = rest
	}
}

// quoted reads a name in double quotes at the start of s, "" in it
// standing for one quote, and returns it and what follows; ok is false if
// s does not start with a closed quote.
func quoted(s string) (name, rest string, ok bool) {
	if !strings.HasPrefix(s, `"`) {
		return "", s, false
	}
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		switch {
		case s[i] != '"':
			b.WriteByte(s[i])
		case i+1 < len(s) && s[i+1] == '"':
			b.WriteByte('"')
			i++
		default:
			return b.String(), s[i+1:], true
		}
	}
	return "", s, false
}

// joinNames writes names as splitNames reads them.
func joinNames(names ...string) string {
	out := make([]string, len(names))
	for i, n := range names {
		if strings.ContainsAny(n, `,"`) {
			n = `"` + strings.ReplaceAll(n, `"`, `""`) + `"`
		}
		out[i] = n
	}
	return strings.Join(out, ", ")
}

func (s *Server) matchupPage(w http.ResponseWriter, r *http.Request) {
	p, rows, err := s.rows(r)
	if err != nil {
		s.errorPage(w, r, err)
		return
	}
	data := map[string]any{"Title": "Match-up", "A": r.FormValue("a"), "B": r.FormValue("b")}
	code := http.StatusOK
	a, b := splitNames(r.FormValue("a")), splitNames(r.FormValue("b"))
	if len(a) > 0 || len(b) > 0 {
		m := store.Match{ID: "matchup", Time: s.now(), Teams: [][]string{a, b}, Ranks: []int{1, 2}}
		if err := m.Check(); err != nil {
			code, data["Error"] = http.StatusBadRequest, err.Error()
		} else if mu, err := matchup(p, rows, a, b); err != nil {
			code, data["Error"] = http.StatusBadRequest, err.Error()
		} else {
			data["M"] = mu
		}
	}
	pairs, err := fairest(p, rows, 10)
	if err != nil {
		s.errorPage(w, r, err)
		return
	}
	data["Pairs"] = pairs
	s.render(w, r, code, "matchup", data)
}

func (s *Server) matchesPage(w http.ResponseWriter, r *http.Request) {
	ms, err := s.st.Matches(r.Context())
	if err != nil {
		s.errorPage(w, r, err)
		return
	}
	type item struct {
		ID, Time, Text string
	}
	var items []item
	for i := len(ms) - 1; i >= 0 && len(items) < 100; i-- {
		items = append(items, item{ms[i].ID, ms[i].Time.UTC().Format("2006-01-02 15:04"), describe(&ms[i])})
	}
	s.render(w, r, http.StatusOK, "matches", map[string]any{"Title": "Matches", "Items": items, "Total": len(ms)})
}

func (s *Server) loginPage(w http.ResponseWriter, r *http.Request) {
	s.render(w, r, http.StatusOK, "login", map[string]any{"Title": "Log in", "Next": localPath(r.FormValue("next")), "Writable": s.token != ""})
}

func (s *Server) loginPost(w http.ResponseWriter, r *http.Request) {
	if !s.readForm(w, r, false, "") {
		return
	}
	next := localPath(r.PostFormValue("next"))
	if !s.tokenOK(r.PostFormValue("token")) {
		s.render(w, r, http.StatusForbidden, "login", map[string]any{"Title": "Log in", "Next": next, "Error": "wrong token", "Writable": s.token != ""})
		return
	}
	s.setSession(w, r, s.newSession(time.Now()), int(sessionLife/time.Second))
	http.Redirect(w, r, next, http.StatusSeeOther)
}

func (s *Server) logoutPost(w http.ResponseWriter, r *http.Request) {
	s.setSession(w, r, "", -1)
	http.Redirect(w, r, "/", http.StatusSeeOther)
}

// formRows is how many team rows the match form shows.
const formRows = 4

type formTeam struct {
	Names string
	Rank  string
}

func (s *Server) formPage(w http.ResponseWriter, r *http.Request) {
	if _, ok := s.session(r); !ok {
		http.Redirect(w, r, "/login?next=/matches/new", http.StatusSeeOther)
		return
	}
	teams := make([]formTeam, formRows)
	for j := range teams {
		teams[j].Rank = strconv.Itoa(j + 1)
	}
	s.render(w, r, http.StatusOK, "form", map[string]any{"Title": "Enter a match", "Teams": teams,
		"Time": s.now().UTC().Format("2006-01-02T15:04"), "ID": formID()})
}

// formID returns a new match id for the entry form to carry, so that a
// second submission of one form (a double click, a retry) is the same
// match, stored once.
func formID() string {
	var b [12]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// ParseMatchForm reads a match from the entry form's fields: time
// (YYYY-MM-DDTHH:MM, in UTC, or RFC 3339; empty means now), teamN (names
// separated by commas, one holding a comma or a quote in double quotes)
// and rankN (the team's place, 1 first; equal places a draw) for N = 1,
// 2, …, and an optional id. Rows with no names are left
// out; a place without names, or names without a place, is an error.
func ParseMatchForm(f url.Values, now time.Time) (store.Match, error) {
	m := store.Match{ID: strings.TrimSpace(f.Get("id"))}
	switch t := strings.TrimSpace(f.Get("time")); t {
	case "":
		m.Time = now
	default:
		var err error
		if m.Time, err = time.Parse("2006-01-02T15:04", t); err != nil {
			if m.Time, err = parseRFC3339(t); err != nil {
				if _, perr := time.Parse(time.RFC3339, t); perr != nil {
					err = badRequest("time %q is not YYYY-MM-DDTHH:MM", t)
				}
				return m, err
			}
		}
	}
	for j := 1; j <= store.MaxTeams+1; j++ {
		names, rank := f.Get(fmt.Sprint("team", j)), strings.TrimSpace(f.Get(fmt.Sprint("rank", j)))
		team := splitNames(names)
		if len(team) == 0 {
			if strings.TrimSpace(names) != "" {
				return m, badRequest("team %d has no names", j)
			}
			continue
		}
		if j > store.MaxTeams {
			return m, badRequest("at most %d teams", store.MaxTeams)
		}
		if rank == "" {
			return m, badRequest("team %d has no place", j)
		}
		r, err := strconv.Atoi(rank)
		if errors.Is(err, strconv.ErrRange) {
			return m, badRequest("place %s of team %d is outside 1 to %d", rank, j, store.MaxTeams)
		}
		if err != nil {
			return m, badRequest("place %q of team %d is not a whole number", rank, j)
		}
		m.Teams = append(m.Teams, team)
		m.Ranks = append(m.Ranks, r)
	}
	if len(m.Teams) < 2 {
		return m, badRequest("enter at least two teams")
	}
	return m, nil
}

// readForm reads a posted form of at most MaxBody bytes; with write set,
// it also requires a logged-in session and its form token, for doing
// what. It answers the request itself and returns false when the handler
// should stop.
func (s *Server) readForm(w http.ResponseWriter, r *http.Request, write bool, what string) bool {
	r.Body = http.MaxBytesReader(w, r.Body, MaxBody)
	if err := r.ParseForm(); err != nil {
		var mbe *http.MaxBytesError
		if !errors.As(err, &mbe) {
			err = badRequest("cannot read the form: %v", err)
		}
		s.errorPage(w, r, err)
		return false
	}
	if write && !s.formOK(r) {
		s.render(w, r, http.StatusForbidden, "error", map[string]any{"Title": "Forbidden",
			"Message": "log in to " + what + " (or reload the page: its form has expired)"})
		return false
	}
	return true
}

func (s *Server) formPost(w http.ResponseWriter, r *http.Request) {
	if !s.readForm(w, r, true, "enter matches") {
		return
	}
	m, err := ParseMatchForm(r.PostForm, s.now())
	if err == nil {
		_, _, err = s.st.Add(r.Context(), m)
	}
	if err != nil {
		code, msg := s.status(err)
		id := r.PostFormValue("id")
		if errors.Is(err, store.ErrConflict) {
			msg = "this form was saved already, as it was first sent; to enter another match, change it and save again"
			id = formID()
		}
		teams := make([]formTeam, 0, formRows)
		for j := 1; j <= store.MaxTeams && (j <= formRows || r.PostFormValue(fmt.Sprint("team", j)) != ""); j++ {
			teams = append(teams, formTeam{r.PostFormValue(fmt.Sprint("team", j)), r.PostFormValue(fmt.Sprint("rank", j))})
		}
		s.render(w, r, code, "form", map[string]any{"Title": "Enter a match", "Teams": teams,
			"Time": r.PostFormValue("time"), "ID": id, "Error": msg})
		return
	}
	http.Redirect(w, r, "/", http.StatusSeeOther)
}

func (s *Server) formDelete(w http.ResponseWriter, r *http.Request) {
	if !s.readForm(w, r, true, "delete matches") {
		return
	}
	if err := s.st.Delete(r.Context(), r.PathValue("id")); err != nil {
		s.errorPage(w, r, err)
		return
	}
	http.Redirect(w, r, "/matches", http.StatusSeeOther)
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.Encode(v)
}

func (s *Server) apiError(w http.ResponseWriter, err error) {
	code, msg := s.status(err)
	writeJSON(w, code, map[string]string{"error": msg})
}

func (s *Server) apiLeaderboard(w http.ResponseWriter, r *http.Request) {
	p, rows, err := s.rows(r)
	if err != nil {
		s.apiError(w, err)
		return
	}
	if rows == nil {
		rows = []Row{}
	}
	writeJSON(w, http.StatusOK, map[string]any{"params": p, "players": rows})
}

func (s *Server) apiPlayer(w http.ResponseWriter, r *http.Request) {
	_, v, err := s.player(r, r.PathValue("name"))
	if err != nil {
		s.apiError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}

// MatchBody is the JSON of a match sent to the API.
type MatchBody struct {
	ID    string     `json:"id"`
	Time  string     `json:"time"`
	Teams [][]string `json:"teams"`
	Ranks []int      `json:"ranks"`
}

// DecodeMatch reads a match from an API request's JSON body: one object
// with no unknown fields, no field given twice and nothing after it, in
// UTF-8, its time in RFC 3339 with an offset inside -23:59 to +23:59. A
// lone surrogate escape (\ud800) decodes to U+FFFD, which the store's
// name rule (record.CheckName) refuses, so two different names cannot
// become one.
func DecodeMatch(body io.Reader) (store.Match, error) {
	data, err := io.ReadAll(body)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return store.Match{}, err
		}
		return store.Match{}, badRequest("cannot read the body: %v", err)
	}
	if !utf8.Valid(data) {
		return store.Match{}, badRequest("the body is not UTF-8 text")
	}
	if k, ok := repeatedKey(data); ok {
		return store.Match{}, badRequest("the key %q appears twice in one object (keys are matched without case)", k)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var b MatchBody
	if err := dec.Decode(&b); err != nil {
		return store.Match{}, badRequest("the body is not a match's JSON: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return store.Match{}, badRequest("the body goes on after the match's JSON object")
	}
	if b.Time == "" {
		return store.Match{}, badRequest(`"time" is missing (RFC 3339, like "2025-03-01T18:30:00Z")`)
	}
	t, err := parseRFC3339(b.Time)
	if err != nil {
		return store.Match{}, fmt.Errorf(`"time" %w`, err)
	}
	return store.Match{ID: b.ID, Time: t, Teams: b.Teams, Ranks: b.Ranks}, nil
}

// parseRFC3339 reads an RFC 3339 time, or returns an error wrapping
// messages.ErrInput. time.Parse takes offsets up to +24:00 and minutes up
// to 60, which RFC 3339 does not: record.ParseTime refuses them.
func parseRFC3339(s string) (time.Time, error) {
	if _, err := time.Parse(time.RFC3339, s); err != nil {
		return time.Time{}, badRequest(`%q is not RFC 3339 (like "2025-03-01T18:30:00Z")`, s)
	}
	return record.ParseTime(s)
}

// repeatedKey returns a key that appears twice in one object of the JSON
// data, compared as encoding/json matches keys to fields (without case),
// and whether there is one. Data that is not JSON is left to the decoder.
func repeatedKey(data []byte) (string, bool) {
	type level struct {
		keys    map[string]bool // nil in an array
		wantKey bool
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	var stack []level
	for {
		tok, err := dec.Token()
		if err != nil {
			return "", false
		}
		top := len(stack) - 1
		switch v := tok.(type) {
		case json.Delim:
			switch v {
			case '{':
				stack = append(stack, level{keys: map[string]bool{}, wantKey: true})
				continue
			case '[':
				stack = append(stack, level{})
				continue
			}
			stack = stack[:top]
			top--
		case string:
			if top >= 0 && stack[top].wantKey {
				k := strings.ToLower(strings.ToUpper(v))
				if stack[top].keys[k] {
					return v, true
				}
				stack[top].keys[k] = true
				stack[top].wantKey = false
				continue
			}
		}
		// A value ended: an object wants a key next.
		if top < 0 {
			return "", false
		}
		if stack[top].keys != nil {
			stack[top].wantKey = true
		}
	}
}

func (s *Server) apiWrite(w http.ResponseWriter, r *http.Request) bool {
	if s.token == "" {
		writeJSON(w, http.StatusForbidden, map[string]string{"error": "this server has no token: writes are disabled"})
		return false
	}
	if !s.bearerOK(r) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="skillgraph"`)
		writeJSON(w, http.StatusUnauthorized, map[string]string{"error": "writes need the header Authorization: Bearer TOKEN with the league's token"})
		return false
	}
	r.Body = http.MaxBytesReader(w, r.Body, MaxBody)
	return true
}

// apiMatch checks a write's token and reads its match, answering the
// request itself when it returns false.
func (s *Server) apiMatch(w http.ResponseWriter, r *http.Request) (store.Match, bool) {
	if !s.apiWrite(w, r) {
		return store.Match{}, false
	}
	m, err := DecodeMatch(r.Body)
	if err != nil {
		s.apiError(w, err)
		return m, false
	}
	return m, true
}

func (s *Server) apiPost(w http.ResponseWriter, r *http.Request) {
	m, ok := s.apiMatch(w, r)
	if !ok {
		return
	}
	m, created, err := s.st.Add(r.Context(), m)
	if err != nil {
		s.apiError(w, err)
		return
	}
	code := http.StatusOK
	if created {
		code = http.StatusCreated
	}
	writeJSON(w, code, map[string]any{"match": m, "created": created})
}

func (s *Server) apiPut(w http.ResponseWriter, r *http.Request) {
	m, ok := s.apiMatch(w, r)
	if !ok {
		return
	}
	if m.ID != "" && m.ID != r.PathValue("id") {
		s.apiError(w, badRequest("the body's id %q is not the path's %q", m.ID, r.PathValue("id")))
		return
	}
	m.ID = r.PathValue("id")
	m, err := s.st.Correct(r.Context(), m)
	if err != nil {
		s.apiError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"match": m})
}

func (s *Server) apiDelete(w http.ResponseWriter, r *http.Request) {
	if !s.apiWrite(w, r) {
		return
	}
	if err := s.st.Delete(r.Context(), r.PathValue("id")); err != nil {
		s.apiError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"deleted": r.PathValue("id")})
}

func (s *Server) apiCSV(w http.ResponseWriter, r *http.Request) {
	ms, err := s.st.Matches(r.Context())
	if err != nil {
		s.apiError(w, err)
		return
	}
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="matches.csv"`)
	if err := WriteCSV(w, ms); err != nil {
		s.log.Printf("skillgraph serve: write the matches' CSV: %v", err)
	}
}
