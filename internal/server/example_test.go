package server_test

import (
	"context"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"

	"github.com/skillgraph/skillgraph/internal/server"
	"github.com/skillgraph/skillgraph/internal/store"
)

// The league's page on an SQLite league: a match posted to the API with
// the token, then the leaderboard read back.
func ExampleNew() {
	dir, err := os.MkdirTemp("", "league")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	db, err := store.Open(context.Background(), filepath.Join(dir, "league.db"))
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	h, err := server.New(server.Config{Store: db, Token: "secret"})
	if err != nil {
		log.Fatal(err)
	}
	srv := httptest.NewServer(h) // on 127.0.0.1
	defer srv.Close()

	req, _ := http.NewRequest("POST", srv.URL+"/api/matches", strings.NewReader(
		`{"id":"g1","time":"2025-03-01T18:00:00Z","teams":[["Ada","Bo"],["Cy"]],"ranks":[1,2]}`))
	req.Header.Set("Authorization", "Bearer secret")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		log.Fatal(err)
	}
	res.Body.Close()
	fmt.Println(res.Status)

	res, err = http.Get(srv.URL + "/api/matches.csv")
	if err != nil {
		log.Fatal(err)
	}
	defer res.Body.Close()
	io.Copy(os.Stdout, res.Body)
	// Output:
	// 201 Created
	// match_id,time,team,player,rank
	// g1,2025-03-01T18:00:00Z,Ada+Bo,Ada,1
	// g1,2025-03-01T18:00:00Z,Ada+Bo,Bo,1
	// g1,2025-03-01T18:00:00Z,Cy,Cy,2
}
