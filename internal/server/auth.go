package server

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

const (
	sessionCookie = "skillgraph_session"
	sessionLife   = 12 * time.Hour
)

// tokenOK compares a given token with the league's in constant time
// (hashing both first, so that not even the length leaks).
func (s *Server) tokenOK(given string) bool {
	if s.token == "" {
		return false
	}
	a := sha256.Sum256([]byte(given))
	b := sha256.Sum256([]byte(s.token))
	return subtle.ConstantTimeCompare(a[:], b[:]) == 1
}

// bearerOK reports whether r carries "Authorization: Bearer TOKEN" with
// the league's token.
func (s *Server) bearerOK(r *http.Request) bool {
	h := r.Header.Get("Authorization")
	const prefix = "Bearer "
	if len(h) < len(prefix) || !strings.EqualFold(h[:len(prefix)], prefix) {
		return false
	}
	return s.tokenOK(strings.TrimSpace(h[len(prefix):]))
}

// mac signs parts with a key derived from the token.
func (s *Server) mac(parts ...string) string {
	key := sha256.Sum256([]byte("skillgraph session key\x00" + s.token))
	h := hmac.New(sha256.New, key[:])
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// newSession returns a session cookie's value: a random nonce, its expiry
// and their signature.
func (s *Server) newSession(now time.Time) string {
	var b [16]byte
	rand.Read(b[:])
	nonce := hex.EncodeToString(b[:])
	exp := strconv.FormatInt(now.Add(sessionLife).Unix(), 10)
	return nonce + "." + exp + "." + s.mac("session", nonce, exp)
}

// session returns the nonce of r's valid, unexpired session cookie.
func (s *Server) session(r *http.Request) (nonce string, ok bool) {
	if s.token == "" {
		return "", false
	}
	c, err := r.Cookie(sessionCookie)
	if err != nil {
		return "", false
	}
	parts := strings.Split(c.Value, ".")
	if len(parts) != 3 {
		return "", false
	}
	exp, err := strconv.ParseInt(parts[1], 10, 64)
	if err != nil || time.Now().Unix() > exp {
		return "", false
	}
	if !hmac.Equal([]byte(parts[2]), []byte(s.mac("session", parts[0], parts[1]))) {
		return "", false
	}
	return parts[0], true
}

// csrf returns the form token of the session with the given nonce.
func (s *Server) csrf(nonce string) string { return s.mac("csrf", nonce) }

// formOK reports whether r comes from a logged-in browser with its
// session's form token.
func (s *Server) formOK(r *http.Request) bool {
	nonce, ok := s.session(r)
	if !ok {
		return false
	}
	return hmac.Equal([]byte(r.PostFormValue("csrf")), []byte(s.csrf(nonce)))
}

func (s *Server) setSession(w http.ResponseWriter, r *http.Request, value string, maxAge int) {
	http.SetCookie(w, &http.Cookie{
		Name: sessionCookie, Value: value, Path: "/", MaxAge: maxAge,
		HttpOnly: true, Secure: r.TLS != nil, SameSite: http.SameSiteStrictMode,
	})
}

// localPath returns next if it is a path on this site, else "/". A
// browser reads a backslash as a slash and drops tabs and newlines from
// an address, so that "/\\evil.example" and "/\t/evil.example" are
// "//evil.example", another site: next must parse as a URL (which refuses
// control characters) with no scheme or host, and hold no backslash.
func localPath(next string) string {
	u, err := url.Parse(next)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil ||
		!strings.HasPrefix(next, "/") || strings.HasPrefix(next, "//") || strings.Contains(next, "\\") {
		return "/"
	}
	return next
}
