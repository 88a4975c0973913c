package store_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	"github.com/skillgraph/skillgraph/internal/store"
)

// A league in an SQLite file: two matches, the second played earlier
// than the first and so rated before it.
func ExampleOpen() {
	dir, err := os.MkdirTemp("", "league")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(dir, "league.db"))
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	day := time.Date(2025, 3, 1, 18, 0, 0, 0, time.UTC)
	for _, m := range []store.Match{
		{ID: "final", Time: day.Add(24 * time.Hour), Teams: [][]string{{"Ada", "Bo"}, {"Cy", "Dee"}}, Ranks: []int{1, 2}},
		{ID: "heat", Time: day, Teams: [][]string{{"Ada"}, {"Cy"}, {"Dee"}}, Ranks: []int{2, 1, 2}},
	} {
		if _, _, err := db.Add(ctx, m); err != nil {
			log.Fatal(err)
		}
	}
	ms, _ := db.Matches(ctx)
	for _, m := range ms {
		fmt.Println(m.ID, m.Time.Format(time.DateOnly))
	}
	players, _ := db.Players(ctx)
	for _, p := range players {
		fmt.Printf("%s %d games, display rating %.0f\n", p.Name, p.Games, p.Rating.DisplayRating())
	}
	// Output:
	// heat 2025-03-01
	// final 2025-03-02
	// Ada 2 games, display rating 919
	// Bo 1 games, display rating 1061
	// Cy 2 games, display rating 999
	// Dee 2 games, display rating 692
}
