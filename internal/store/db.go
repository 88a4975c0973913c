package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/skillgraph/skillgraph/messages"
	"github.com/skillgraph/skillgraph/models/trueskill"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver
	_ "modernc.org/sqlite"             // registers the "sqlite" driver
)

// DefaultDrawProbability is the draw probability of a new league: the
// TrueSkill paper's (section 4.2).
const DefaultDrawProbability = 0.10

// Player is a player's standing: the rating after their last match.
type Player struct {
	Name       string           `json:"name"`
	Rating     trueskill.Rating `json:"rating"`
	Games      int              `json:"games"`
	LastPlayed time.Time        `json:"last_played"`
}

// Point is a player's rating after one of their matches.
type Point struct {
	Match  Match            `json:"match"`
	Rating trueskill.Rating `json:"rating"`
}

// Store is what a league's page needs from its record. *DB implements it
// on SQLite and PostgreSQL.
type Store interface {
	// Add stores m and rates it. A match with m's id that is already
	// stored makes Add return created = false: with nil error if it is
	// the same game (a retry), ErrConflict if it is not. An empty id is
	// given a random one, set in the returned match.
	Add(ctx context.Context, m Match) (stored Match, created bool, err error)
	// AddAll adds ms as Add adds each, in one transaction: every match
	// is stored, or none. It returns how many were new (the others were
	// retries). An error about one of the matches is a *MatchError naming
	// it.
	AddAll(ctx context.Context, ms []Match) (added int, err error)
	// Correct replaces the stored match with m's id by m, and returns it
	// as stored (its time in UTC, to the microsecond).
	Correct(ctx context.Context, m Match) (Match, error)
	// Delete removes the match with the given id.
	Delete(ctx context.Context, id string) error
	// Players returns every player's standing, by name.
	Players(ctx context.Context) ([]Player, error)
	// Matches returns the stored matches in their stored order.
	Matches(ctx context.Context) ([]Match, error)
	// History returns a player's rating after each of their matches, in
	// stored order, and ErrNotFound for a name that has played none.
	History(ctx context.Context, name string) ([]Point, error)
	// Params returns the parameters the league is rated with.
	Params(ctx context.Context) (trueskill.Params, error)
	// SetDrawProbability changes the league's draw probability and
	// re-rates every match.
	SetDrawProbability(ctx context.Context, p float64) error
	// Close releases the database.
	Close() error
}

// maxConns bounds the connections a DB holds open.
const maxConns = 8

// DB is a league stored in SQLite or PostgreSQL. It is safe for
// concurrent use, and several DBs (in several processes) may share one
// PostgreSQL database.
type DB struct {
	db       *sql.DB
	postgres bool
	// wmu queues this process's SQLite writers, which would otherwise
	// poll for the file's write lock with SQLite's busy handler, sleeping
	// up to 100 ms a turn.
	wmu sync.Mutex
}

var _ Store = (*DB)(nil)

// Open opens the league in dsn, creating its tables if they do not exist:
// a postgres:// or postgresql:// URL for PostgreSQL, anything else the
// path of an SQLite file.
func Open(ctx context.Context, dsn string) (*DB, error) {
	d := &DB{}
	var err error
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		d.postgres = true
		d.db, err = sql.Open("pgx", dsn)
	} else {
		if dsn == "" {
			return nil, fmt.Errorf("store: empty database path: %w", messages.ErrInput)
		}
		// WAL with full synchronisation: a committed transaction is on
		// disk before the commit returns, and a reader never waits for the
		// writer. Immediate transactions take the write lock at BEGIN, so
		// two writers queue on busy_timeout instead of failing to upgrade.
		d.db, err = sql.Open("sqlite", "file:"+uriPath(dsn)+
			"?_pragma=busy_timeout(30000)&_pragma=journal_mode(WAL)&_pragma=synchronous(FULL)&_txlock=immediate")
	}
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", Redact(dsn), err)
	}
	// Keep the connections: a new PostgreSQL connection starts a server
	// process, and a new SQLite one runs the pragmas again.
	d.db.SetMaxOpenConns(maxConns)
	d.db.SetMaxIdleConns(maxConns)
	if err := d.create(ctx); err != nil {
		d.db.Close()
		return nil, fmt.Errorf("store: create the tables in %s: %w", Redact(dsn), err)
	}
	return d, nil
}

// uriPath writes a file's path as the path of an SQLite URI
// (https://www.sqlite.org/uri.html): SQLite decodes %HH in it and ends it
// at "?" or "#", and the driver splits its parameters off at the first
// "?", so these three are escaped; a path starting "//" would be read as
// an authority, so the path is cleaned first.
func uriPath(path string) string {
	return strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(filepath.Clean(path))
}

// Redact hides the password of a PostgreSQL URL, for messages.
func Redact(dsn string) string {
	if i := strings.Index(dsn, "://"); i >= 0 {
		if at := strings.LastIndex(dsn, "@"); at > i {
			return dsn[:i+3] + "…" + dsn[at:]
		}
	}
	return dsn
}

// Close closes the database.
func (d *DB) Close() error { return d.db.Close() }

func (d *DB) create(ctx context.Context) error {
	serial := "INTEGER PRIMARY KEY AUTOINCREMENT"
	if d.postgres {
		serial = "BIGSERIAL PRIMARY KEY"
	}
	stmts := []string{
		`CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)`,
		`CREATE TABLE IF NOT EXISTS matches (seq ` + serial + `, id TEXT NOT NULL UNIQUE,
			time_us BIGINT NOT NULL, body TEXT NOT NULL)`,
		`CREATE INDEX IF NOT EXISTS matches_order ON matches (time_us, seq)`,
		`CREATE TABLE IF NOT EXISTS results (seq BIGINT NOT NULL, player TEXT NOT NULL,
			mu DOUBLE PRECISION NOT NULL, sigma DOUBLE PRECISION NOT NULL, PRIMARY KEY (seq, player))`,
		`CREATE INDEX IF NOT EXISTS results_player ON results (player)`,
		`CREATE TABLE IF NOT EXISTS ratings (player TEXT PRIMARY KEY, mu DOUBLE PRECISION NOT NULL,
			sigma DOUBLE PRECISION NOT NULL, games BIGINT NOT NULL, last_us BIGINT NOT NULL)`,
	}
	return d.write(ctx, func(tx *sql.Tx) error {
		for _, s := range stmts {
			if _, err := tx.ExecContext(ctx, s); err != nil {
				return err
			}
		}
		return d.exec(ctx, tx, `INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING`,
			"draw_probability", strconv.FormatFloat(DefaultDrawProbability, 'g', -1, 64))
	})
}

// q rewrites ?-placeholders as PostgreSQL's $n.
func (d *DB) q(query string) string {
	if !d.postgres {
		return query
	}
	var b strings.Builder
	n := 0
	for _, r := range query {
		if r == '?' {
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func (d *DB) exec(ctx context.Context, tx *sql.Tx, query string, args ...any) error {
	_, err := tx.ExecContext(ctx, d.q(query), args...)
	return err
}

// write runs f in a transaction that no other write (of this process or
// another) runs alongside: SQLite's immediate transaction takes the
// database's write lock at its start, and on PostgreSQL an advisory lock
// held to the end of the transaction serialises the league's writers.
func (d *DB) write(ctx context.Context, f func(tx *sql.Tx) error) error {
	if !d.postgres {
		d.wmu.Lock()
		defer d.wmu.Unlock()
	}
	tx, err := d.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if d.postgres {
		if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(7262911)`); err != nil {
			return err
		}
	}
	if err := f(tx); err != nil {
		return err
	}
	return tx.Commit()
}

// body is how a match's teams and ranks are stored.
type body struct {
	Teams [][]string `json:"teams"`
	Ranks []int      `json:"ranks"`
}

// normalize gives m the time the database keeps (UTC, to the microsecond).
func normalize(m Match) Match {
	m.Time = m.Time.UTC().Truncate(time.Microsecond)
	return m
}

func newID() string {
	var b [12]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// key is a match's place in the stored order.
type key struct{ us, seq int64 }

func (k key) before(o key) bool { return k.us < o.us || k.us == o.us && k.seq < o.seq }

// Add implements Store.
func (d *DB) Add(ctx context.Context, m Match) (Match, bool, error) {
	m, err := prepared(m)
	if err != nil {
		return m, false, err
	}
	created := false
	err = d.write(ctx, func(tx *sql.Tx) error {
		var last key
		hasLast := true
		err := tx.QueryRowContext(ctx, `SELECT time_us, seq FROM matches ORDER BY time_us DESC, seq DESC LIMIT 1`).Scan(&last.us, &last.seq)
		if errors.Is(err, sql.ErrNoRows) {
			hasLast = false
		} else if err != nil {
			return err
		}
		k, inserted, err := d.insertNew(ctx, tx, &m)
		if !inserted {
			return err
		}
		created = true
		if hasLast && k.before(last) {
			return d.rerate(ctx, tx, k, nil)
		}
		return d.rateLast(ctx, tx, k.seq, &m)
	})
	if err != nil {
		return m, false, fmt.Errorf("store: add match %q: %w", m.ID, err)
	}
	return m, created, nil
}

// AddAll implements Store. Every match is checked before the
// transaction starts; the league is rated once, from the earliest new
// match on.
func (d *DB) AddAll(ctx context.Context, ms []Match) (int, error) {
	ms = slices.Clone(ms)
	for i := range ms {
		var err error
		if ms[i], err = prepared(ms[i]); err != nil {
			return 0, &MatchError{ID: ms[i].ID, Err: fmt.Errorf("match %q: %w", ms[i].ID, err)}
		}
	}
	added := 0
	err := d.write(ctx, func(tx *sql.Tx) error {
		added = 0
		var from key
		for i := range ms {
			k, inserted, err := d.insertNew(ctx, tx, &ms[i])
			if errors.Is(err, ErrConflict) {
				return &MatchError{ID: ms[i].ID, Err: err}
			}
			if !inserted {
				if err != nil {
					return err
				}
				continue
			}
			if added == 0 || k.before(from) {
				from = k
			}
			added++
		}
		if added == 0 {
			return nil
		}
		return d.rerate(ctx, tx, from, nil)
	})
	if err != nil {
		return 0, fmt.Errorf("store: add %d matches: %w", len(ms), err)
	}
	return added, nil
}

// prepared returns m as it is stored: given an ID if it has none,
// normalised and checked.
func prepared(m Match) (Match, error) {
	if m.ID == "" {
		m.ID = newID()
	}
	m = normalize(m)
	return m, m.Check()
}

// insertNew stores m in tx unless a match with its ID is stored: then
// nothing if that is the same match, ErrConflict if not. It reports m's
// key and whether it stored m.
func (d *DB) insertNew(ctx context.Context, tx *sql.Tx, m *Match) (key, bool, error) {
	old, _, err := d.find(ctx, tx, m.ID)
	if err == nil {
		if !same(&old, m) {
			return key{}, false, fmt.Errorf("%w: match %q is stored with other teams, ranks or time (delete or correct it instead)", ErrConflict, m.ID)
		}
		return key{}, false, nil
	}
	if !errors.Is(err, ErrNotFound) {
		return key{}, false, err
	}
	k, err := d.insertMatch(ctx, tx, m)
	return k, err == nil, err
}

func (d *DB) insertMatch(ctx context.Context, tx *sql.Tx, m *Match) (key, error) {
	b, err := json.Marshal(body{m.Teams, m.Ranks})
	if err != nil {
		return key{}, err
	}
	k := key{us: m.Time.UnixMicro()}
	err = tx.QueryRowContext(ctx, d.q(`INSERT INTO matches (id, time_us, body) VALUES (?, ?, ?) RETURNING seq`),
		m.ID, k.us, string(b)).Scan(&k.seq)
	return k, err
}

// find returns the stored match with the given id and its place.
func (d *DB) find(ctx context.Context, tx *sql.Tx, id string) (Match, key, error) {
	var k key
	var b string
	err := tx.QueryRowContext(ctx, d.q(`SELECT time_us, seq, body FROM matches WHERE id = ?`), id).Scan(&k.us, &k.seq, &b)
	if errors.Is(err, sql.ErrNoRows) {
		return Match{}, k, fmt.Errorf("%w: no match %q", ErrNotFound, id)
	}
	if err != nil {
		return Match{}, k, err
	}
	m, err := decode(id, k.us, b)
	return m, k, err
}

func decode(id string, us int64, b string) (Match, error) {
	var bd body
	if err := json.Unmarshal([]byte(b), &bd); err != nil {
		return Match{}, fmt.Errorf("stored match %q: %w", id, err)
	}
	return Match{ID: id, Time: time.UnixMicro(us).UTC(), Teams: bd.Teams, Ranks: bd.Ranks}, nil
}

// params reads the league's parameters inside tx.
func (d *DB) params(ctx context.Context, q interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}) (trueskill.Params, error) {
	var v string
	if err := q.QueryRowContext(ctx, d.q(`SELECT value FROM settings WHERE key = ?`), "draw_probability").Scan(&v); err != nil {
		return trueskill.Params{}, fmt.Errorf("read the draw probability: %w", err)
	}
	p := trueskill.DefaultParams()
	f, err := strconv.ParseFloat(v, 64)
	if err != nil {
		return p, fmt.Errorf("stored draw probability %q: %w", v, err)
	}
	p.DrawProbability = f
	return p, p.Validate()
}

// rate rates m on top of the given standings, which it updates, and
// returns the posterior ratings in m's team and player order.
func rate(ctx context.Context, p trueskill.Params, m *Match, st map[string]*Player) ([][]trueskill.Rating, error) {
	tm := trueskill.Match{Teams: make([][]trueskill.Rating, len(m.Teams)), Ranks: m.Ranks}
	for j, team := range m.Teams {
		tm.Teams[j] = make([]trueskill.Rating, len(team))
		for i, name := range team {
			if s, ok := st[name]; ok {
				tm.Teams[j][i] = s.Rating
			} else {
				tm.Teams[j][i] = p.NewRating()
			}
		}
	}
	res, err := p.Rate(ctx, tm)
	var ie *trueskill.InputError
	switch {
	case errors.Is(err, messages.ErrImpossible):
		// Probability zero under the league's setting (a draw at draw
		// probability 0): it stays ErrImpossible, naming the setting.
		return nil, &MatchError{ID: m.ID, Err: fmt.Errorf("rating match %q, the league's draw probability is %v: %w", m.ID, p.DrawProbability, err)}
	case errors.As(err, &ie):
		return nil, &MatchError{ID: m.ID, Err: invalid("rating match %q: %v", m.ID, err)}
	case err != nil:
		return nil, &MatchError{ID: m.ID, Err: fmt.Errorf("rating match %q: %w", m.ID, err)}
	}
	for j, team := range m.Teams {
		for i, name := range team {
			s, ok := st[name]
			if !ok {
				s = &Player{Name: name}
				st[name] = s
			}
			s.Rating = res.Ratings[j][i]
			s.Games++
			s.LastPlayed = m.Time
		}
	}
	return res.Ratings, nil
}

// rateLast rates m, the last match in the stored order, on top of the
// stored ratings.
func (d *DB) rateLast(ctx context.Context, tx *sql.Tx, seq int64, m *Match) error {
	p, err := d.params(ctx, tx)
	if err != nil {
		return err
	}
	var names []any
	for _, team := range m.Teams {
		for _, name := range team {
			names = append(names, name)
		}
	}
	rows, err := tx.QueryContext(ctx, d.q(`SELECT player, mu, sigma, games, last_us FROM ratings WHERE player IN (?`+
		strings.Repeat(", ?", len(names)-1)+`)`), names...)
	if err != nil {
		return err
	}
	defer rows.Close()
	st := map[string]*Player{}
	for rows.Next() {
		var s Player
		var last int64
		if err := rows.Scan(&s.Name, &s.Rating.Mu, &s.Rating.Sigma, &s.Games, &last); err != nil {
			return err
		}
		st[s.Name] = &s
	}
	if err := rows.Err(); err != nil {
		return err
	}
	post, err := rate(ctx, p, m, st)
	if err != nil {
		return err
	}
	if err := d.insertResults(ctx, tx, []int64{seq}, []*Match{m}, [][][]trueskill.Rating{post}); err != nil {
		return err
	}
	return d.upsertRatings(ctx, tx, st)
}

// batch is the most rows one INSERT writes, within both databases' limits
// on a statement's parameters.
const batch = 400

// insert writes rows (each of the same number of values) with one INSERT
// per batch: "INSERT INTO " + into + " VALUES (…), (…)" + suffix.
func (d *DB) insert(ctx context.Context, tx *sql.Tx, into, suffix string, rows [][]any) error {
	for len(rows) > 0 {
		n := min(len(rows), batch)
		var b strings.Builder
		var args []any
		b.WriteString("INSERT INTO " + into + " VALUES ")
		for i, r := range rows[:n] {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString("(?" + strings.Repeat(", ?", len(r)-1) + ")")
			args = append(args, r...)
		}
		b.WriteString(suffix)
		if err := d.exec(ctx, tx, b.String(), args...); err != nil {
			return err
		}
		rows = rows[n:]
	}
	return nil
}

// insertResults writes the posterior ratings post[i] of the players of
// matches ms[i], stored as seqs[i].
func (d *DB) insertResults(ctx context.Context, tx *sql.Tx, seqs []int64, ms []*Match, post [][][]trueskill.Rating) error {
	var rows [][]any
	for k, m := range ms {
		for j, team := range m.Teams {
			for i, name := range team {
				rows = append(rows, []any{seqs[k], name, post[k][j][i].Mu, post[k][j][i].Sigma})
			}
		}
	}
	return d.insert(ctx, tx, "results (seq, player, mu, sigma)", "", rows)
}

// upsertRatings writes the standings of the players in st.
func (d *DB) upsertRatings(ctx context.Context, tx *sql.Tx, st map[string]*Player) error {
	rows := make([][]any, 0, len(st))
	for _, s := range st {
		rows = append(rows, []any{s.Name, s.Rating.Mu, s.Rating.Sigma, s.Games, s.LastPlayed.UnixMicro()})
	}
	return d.insert(ctx, tx, "ratings (player, mu, sigma, games, last_us)",
		` ON CONFLICT (player) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, games = excluded.games, last_us = excluded.last_us`, rows)
}

type stored struct {
	Match
	key
}

// all reads every stored match in stored order.
func (d *DB) all(ctx context.Context, q interface {
	QueryContext(context.Context, string, ...any) (*sql.Rows, error)
}) ([]stored, error) {
	rows, err := q.QueryContext(ctx, `SELECT id, time_us, seq, body FROM matches ORDER BY time_us, seq`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []stored
	for rows.Next() {
		var s stored
		var id, b string
		if err := rows.Scan(&id, &s.us, &s.seq, &b); err != nil {
			return nil, err
		}
		if s.Match, err = decode(id, s.us, b); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// rerate rates every stored match again, rewriting the results of the
// matches from `from` on and the standings of their players and of the
// players of old, the match that was there before (a deletion or
// correction); the others' standings are those of the matches before
// from, which stay.
func (d *DB) rerate(ctx context.Context, tx *sql.Tx, from key, old *Match) error {
	p, err := d.params(ctx, tx)
	if err != nil {
		return err
	}
	ms, err := d.all(ctx, tx)
	if err != nil {
		return err
	}
	if err := d.exec(ctx, tx, `DELETE FROM results WHERE seq IN (SELECT seq FROM matches WHERE time_us > ? OR (time_us = ? AND seq >= ?))`,
		from.us, from.us, from.seq); err != nil {
		return err
	}
	st := map[string]*Player{}
	var seqs []int64
	var tail []*Match
	var posts [][][]trueskill.Rating
	moved := map[string]*Player{}
	if old != nil {
		for _, team := range old.Teams {
			for _, name := range team {
				moved[name] = nil
			}
		}
	}
	for i := range ms {
		post, err := rate(ctx, p, &ms[i].Match, st)
		if err != nil {
			return err
		}
		if !ms[i].key.before(from) {
			seqs = append(seqs, ms[i].seq)
			tail = append(tail, &ms[i].Match)
			posts = append(posts, post)
			for _, team := range ms[i].Teams {
				for _, name := range team {
					moved[name] = st[name]
				}
			}
		}
	}
	if err := d.insertResults(ctx, tx, seqs, tail, posts); err != nil {
		return err
	}
	// Players of a deleted or corrected match may have no match left.
	if err := d.exec(ctx, tx, `DELETE FROM ratings WHERE player NOT IN (SELECT player FROM results)`); err != nil {
		return err
	}
	for name := range moved {
		if moved[name] = st[name]; moved[name] == nil {
			delete(moved, name)
		}
	}
	return d.upsertRatings(ctx, tx, moved)
}

// Correct implements Store.
func (d *DB) Correct(ctx context.Context, m Match) (Match, error) {
	m = normalize(m)
	if err := m.Check(); err != nil {
		return m, err
	}
	err := d.write(ctx, func(tx *sql.Tx) error {
		prev, old, err := d.find(ctx, tx, m.ID)
		if err != nil {
			return err
		}
		b, err := json.Marshal(body{m.Teams, m.Ranks})
		if err != nil {
			return err
		}
		nk := key{us: m.Time.UnixMicro(), seq: old.seq}
		if err := d.exec(ctx, tx, `UPDATE matches SET time_us = ?, body = ? WHERE seq = ?`, nk.us, string(b), old.seq); err != nil {
			return err
		}
		// Results of matches before the earlier of the two places stay.
		from := old
		if nk.before(old) {
			from = nk
		}
		if err := d.exec(ctx, tx, `DELETE FROM results WHERE seq = ?`, old.seq); err != nil {
			return err
		}
		return d.rerate(ctx, tx, from, &prev)
	})
	if err != nil {
		return m, fmt.Errorf("store: correct match %q: %w", m.ID, err)
	}
	return m, nil
}

// Delete implements Store.
func (d *DB) Delete(ctx context.Context, id string) error {
	err := d.write(ctx, func(tx *sql.Tx) error {
		prev, k, err := d.find(ctx, tx, id)
		if err != nil {
			return err
		}
		if err := d.exec(ctx, tx, `DELETE FROM results WHERE seq = ?`, k.seq); err != nil {
			return err
		}
		if err := d.exec(ctx, tx, `DELETE FROM matches WHERE seq = ?`, k.seq); err != nil {
			return err
		}
		return d.rerate(ctx, tx, k, &prev)
	})
	if err != nil {
		return fmt.Errorf("store: delete match %q: %w", id, err)
	}
	return nil
}

// SetDrawProbability implements Store.
func (d *DB) SetDrawProbability(ctx context.Context, p float64) error {
	if !(p >= 0 && p < 1) {
		return invalid("store: draw probability %v outside [0, 1)", p)
	}
	err := d.write(ctx, func(tx *sql.Tx) error {
		if err := d.exec(ctx, tx, `UPDATE settings SET value = ? WHERE key = ?`,
			strconv.FormatFloat(p, 'g', -1, 64), "draw_probability"); err != nil {
			return err
		}
		return d.rerate(ctx, tx, key{us: math.MinInt64}, nil)
	})
	if err != nil {
		return fmt.Errorf("store: set the draw probability: %w", err)
	}
	return nil
}

// Params implements Store.
func (d *DB) Params(ctx context.Context) (trueskill.Params, error) {
	p, err := d.params(ctx, d.db)
	if err != nil {
		return p, fmt.Errorf("store: %w", err)
	}
	return p, nil
}

// Players implements Store.
func (d *DB) Players(ctx context.Context) ([]Player, error) {
	rows, err := d.db.QueryContext(ctx, `SELECT player, mu, sigma, games, last_us FROM ratings ORDER BY player`)
	if err != nil {
		return nil, fmt.Errorf("store: read the ratings: %w", err)
	}
	defer rows.Close()
	var out []Player
	for rows.Next() {
		var s Player
		var last int64
		if err := rows.Scan(&s.Name, &s.Rating.Mu, &s.Rating.Sigma, &s.Games, &last); err != nil {
			return nil, fmt.Errorf("store: read the ratings: %w", err)
		}
		s.LastPlayed = time.UnixMicro(last).UTC()
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: read the ratings: %w", err)
	}
	return out, nil
}

// Matches implements Store.
func (d *DB) Matches(ctx context.Context) ([]Match, error) {
	ms, err := d.all(ctx, d.db)
	if err != nil {
		return nil, fmt.Errorf("store: read the matches: %w", err)
	}
	out := make([]Match, len(ms))
	for i := range ms {
		out[i] = ms[i].Match
	}
	return out, nil
}

// History implements Store.
func (d *DB) History(ctx context.Context, name string) ([]Point, error) {
	rows, err := d.db.QueryContext(ctx, d.q(`SELECT m.id, m.time_us, m.seq, m.body, r.mu, r.sigma
		FROM results r JOIN matches m ON m.seq = r.seq WHERE r.player = ? ORDER BY m.time_us, m.seq`), name)
	if err != nil {
		return nil, fmt.Errorf("store: read %q's history: %w", name, err)
	}
	defer rows.Close()
	var out []Point
	for rows.Next() {
		var id, b string
		var us, seq int64
		var pt Point
		if err := rows.Scan(&id, &us, &seq, &b, &pt.Rating.Mu, &pt.Rating.Sigma); err != nil {
			return nil, fmt.Errorf("store: read %q's history: %w", name, err)
		}
		if pt.Match, err = decode(id, us, b); err != nil {
			return nil, fmt.Errorf("store: %w", err)
		}
		out = append(out, pt)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: read %q's history: %w", name, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("store: %w: no player %q", ErrNotFound, name)
	}
	return out, nil
}
