package record

import (
	"fmt"
	"strings"
)

// readScores reads the rows of a scores-format file, one match each.
func (r *reader) readScores() ([]Match, error) {
	var out []Match
	ids := map[string]int{}     // line of each match ID
	repeats := map[string]int{} // how many matches a made-up ID's base has named
	for {
		ok, err := r.next()
		if err != nil || !ok {
			return out, err
		}
		m, err := r.scoresRow()
		if err != nil {
			return nil, err
		}
		if r.has(colMatchID) {
			if m.ID, err = r.name(colMatchID, MaxID); err != nil {
				return nil, err
			}
			if at, dup := ids[m.ID]; dup {
				return nil, r.errIn(colMatchID, fmt.Errorf("match %s is also on line %d: %w", m.ID, at, ErrInput))
			}
		} else {
			m.ID = madeUpID(m, ids, repeats)
		}
		ids[m.ID] = r.line()
		out = append(out, m)
		r.rep.Lines = append(r.rep.Lines, r.line())
	}
}

// madeUpID names a match of a file without match IDs: "TIME HOME v AWAY",
// with " #2", " #3", … added to later matches of the same name, skipping
// any already taken.
func madeUpID(m Match, taken, repeats map[string]int) string {
	base := FormatTime(m.Time) + " " + m.Teams[0].Name + " v " + m.Teams[1].Name
	id := base
	for n := repeats[base]; ; n++ {
		if n > 0 {
			id = fmt.Sprintf("%s #%d", base, n+1)
		}
		if _, dup := taken[id]; !dup {
			repeats[base] = n + 1
			return id
		}
	}
}

// scoresRow reads the current row of a scores-format file, all but its
// ID.
func (r *reader) scoresRow() (Match, error) {
	var m Match
	var err error
	var text string
	if m.Time, text, err = r.time(); err != nil {
		return m, err
	}
	if err := r.inOrder(m.Time, text); err != nil {
		return m, err
	}
	if m.Season, err = r.season(); err != nil {
		return m, err
	}
	home, away, err := r.namePair(colHome, colAway)
	if err != nil {
		return m, err
	}
	if home == away {
		return m, r.errIn(colAway, fmt.Errorf("home and away are both %q: a team cannot play itself: %w", home, ErrInput))
	}
	hs, err := r.score(colHomeScore, "home ")
	if err != nil {
		return m, err
	}
	as, err := r.score(colAwayScore, "away ")
	if err != nil {
		return m, err
	}
	m.Venue.HomeAway = true
	if m.Venue.Neutral, err = r.flag(); err != nil {
		return m, err
	}
	hr, ar := 1, 2
	switch {
	case hs == as:
		ar = 1
	case hs < as:
		hr, ar = 2, 1
	}
	m.HasScores = true
	m.Teams = []Team{
		{Name: home, Players: []string{home}, Rank: hr, Score: hs},
		{Name: away, Players: []string{away}, Rank: ar, Score: as},
	}
	return m, nil
}

// pending is a long-format match whose rows are still being read.
type pending struct {
	m        Match
	line     int    // of its first row
	timeText string // of its first row
	teams    map[string]int
	players  map[string]int // line of each player
	weighted []bool         // per team: a row gave a weight
	venue    []string       // per team: "", "home" or "away"
	neutral  bool
}

// readLong reads the rows of a long-format file and gathers them into
// matches, in order of each match's first row.
func (r *reader) readLong() ([]Match, error) {
	var order []*pending
	byID := map[string]*pending{}
	for {
		ok, err := r.next()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		id, err := r.name(colMatchID, MaxID)
		if err != nil {
			return nil, err
		}
		p := byID[id]
		if p == nil {
			if p, err = r.newMatch(id); err != nil {
				return nil, err
			}
			byID[id] = p
			order = append(order, p)
		} else if err := r.sameMatch(p, len(order) > 0 && order[len(order)-1] == p); err != nil {
			return nil, err
		}
		if err := r.addRow(p); err != nil {
			return nil, err
		}
	}
	var out []Match
	if len(order) > 0 {
		out = make([]Match, len(order))
	}
	for i, p := range order {
		if err := r.finish(p); err != nil {
			return nil, err
		}
		out[i] = p.m
		r.rep.Lines = append(r.rep.Lines, p.line)
		order[i] = nil // let the maps go
	}
	return out, nil
}

// newMatch starts a match at its first row.
func (r *reader) newMatch(id string) (*pending, error) {
	p := &pending{m: Match{ID: id}, line: r.line(), teams: map[string]int{}, players: map[string]int{}}
	var err error
	if p.m.Time, p.timeText, err = r.time(); err != nil {
		return nil, err
	}
	if err := r.inOrder(p.m.Time, p.timeText); err != nil {
		return nil, err
	}
	if p.m.Season, err = r.season(); err != nil {
		return nil, err
	}
	if p.neutral, err = r.flag(); err != nil {
		return nil, err
	}
	return p, nil
}

// sameMatch checks a further row of match p against its first row; last
// reports whether p is the match of the row above.
func (r *reader) sameMatch(p *pending, last bool) error {
	if r.cfg.inFileOrder && !last {
		return r.errIn(colMatchID, fmt.Errorf("match %s also starts on line %d, and its rows are not together: %w", p.m.ID, p.line, ErrInput))
	}
	differs := func(c column, s, first string) error {
		return r.errIn(c, fmt.Errorf("%s %q differs from the match's first row (%s): %w", r.label(c), s, first, ErrInput))
	}
	if text := r.field(colTime); text != p.timeText {
		t, _, err := r.time()
		if err != nil {
			return err
		}
		if !t.Equal(p.m.Time) {
			return differs(colTime, text, p.timeText)
		}
	}
	season, err := r.season()
	if err != nil {
		return err
	}
	if season != p.m.Season {
		return differs(colSeason, season, p.m.Season)
	}
	neutral, err := r.flag()
	if err != nil {
		return err
	}
	if neutral != p.neutral {
		return differs(colNeutral, r.field(colNeutral), fmt.Sprint(p.neutral))
	}
	return nil
}

// addRow adds the current row's player to match p.
func (r *reader) addRow(p *pending) error {
	m := &p.m
	team, player, err := r.namePair(colTeam, colPlayer)
	if err != nil {
		return err
	}
	if at, dup := p.players[player]; dup {
		return r.errIn(colPlayer, fmt.Errorf("%q is also on line %d of match %s: player appears twice in one match: %w", player, at, m.ID, ErrInput))
	}
	if len(p.players) >= MaxPlayers {
		return r.errIn(colPlayer, fmt.Errorf("match %s has more than %d players: %w", m.ID, MaxPlayers, ErrInput))
	}
	p.players[player] = r.line()
	rank, err := r.integer(colRank)
	if err != nil {
		return err
	}
	score, scored := 0, r.field(colScore) != ""
	if scored {
		if score, err = r.score(colScore, ""); err != nil {
			return err
		}
	}
	w, weighted, err := r.weight()
	if err != nil {
		return err
	}
	venue := strings.ToLower(r.field(colVenue))
	if venue != "" && venue != "home" && venue != "away" {
		return r.errIn(colVenue, fmt.Errorf("%s %q is not home, away or empty: %w", r.label(colVenue), r.field(colVenue), ErrInput))
	}
	first := len(p.players) == 1
	if first {
		m.HasScores = scored
	} else if scored != m.HasScores {
		return r.errIn(colScore, fmt.Errorf("match %s has a %s in some rows and not in others: %w", m.ID, r.label(colScore), ErrInput))
	}
	j, ok := p.teams[team]
	if !ok {
		j = len(m.Teams)
		p.teams[team] = j
		m.Teams = append(m.Teams, Team{Name: team, Rank: rank, Score: score})
		p.weighted = append(p.weighted, false)
		p.venue = append(p.venue, venue)
	}
	t := &m.Teams[j]
	if ok {
		if score != t.Score {
			return r.errIn(colScore, fmt.Errorf("%s %d differs from team %q's first row (%d): %w", r.label(colScore), score, team, t.Score, ErrInput))
		}
		if venue != p.venue[j] {
			return r.errIn(colVenue, fmt.Errorf("%s %q differs from team %q's first row (%q): %w", r.label(colVenue), venue, team, p.venue[j], ErrInput))
		}
	}
	t.Rank = min(t.Rank, rank)
	t.Players = append(t.Players, player)
	t.Weights = append(t.Weights, w)
	p.weighted[j] = p.weighted[j] || weighted
	return nil
}

// finish completes match p once all its rows are read, blaming its first
// line for what is wrong with the whole.
func (r *reader) finish(p *pending) error {
	m := &p.m
	fail := func(format string, a ...any) error {
		return r.fileErr(p.line, 0, fmt.Errorf("match %s "+format, append([]any{m.ID}, a...)...))
	}
	if len(m.Teams) < 2 {
		return fail("has %d team, need at least 2: %w", len(m.Teams), ErrInput)
	}
	for j := range m.Teams {
		if !p.weighted[j] {
			m.Teams[j].Weights = nil
		}
	}
	home, away := -1, -1
	for j, v := range p.venue {
		switch {
		case v == "home" && home < 0:
			home = j
		case v == "away" && away < 0:
			away = j
		case v != "":
			return fail("has two %s teams: %w", v, ErrInput)
		}
	}
	switch {
	case home >= 0 && away >= 0 && len(m.Teams) == 2:
		m.Venue.HomeAway = true
		if home == 1 {
			m.Teams[0], m.Teams[1] = m.Teams[1], m.Teams[0]
		}
	case home >= 0 || away >= 0:
		return fail("has a venue, but not as one home and one away team of two: %w", ErrInput)
	}
	if p.neutral && !m.Venue.HomeAway {
		return fail("is on neutral ground, but has no home and away team: %w", ErrInput)
	}
	m.Venue.Neutral = p.neutral
	return nil
}
