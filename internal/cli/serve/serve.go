package serve

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"slices"
	"syscall"
	"time"

	"github.com/skillgraph/skillgraph/internal/cli"
	"github.com/skillgraph/skillgraph/internal/server"
	"github.com/skillgraph/skillgraph/internal/store"
)

// Summary is the subcommand's one-line description.
const Summary = "serve a league's rating page (leaderboard, histories, match entry) on SQLite or PostgreSQL"

const synopsis = "skillgraph serve [-db FILE|postgres://…] [-addr 127.0.0.1:8080] [-token TOKEN] [-import CSV] [-draw p]"

// Run runs `skillgraph serve` with args (without the command's name) and
// returns its exit status. It serves until SIGINT or SIGTERM.
func Run(args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return run(ctx, args, stdout, stderr)
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("skillgraph serve", flag.ContinueOnError)
	dsn := fs.String("db", "league.db", "the league: an SQLite `file` (created if missing) or a postgres:// URL")
	addr := fs.String("addr", "127.0.0.1:8080", "the `address` to listen on")
	token := fs.String("token", "", "the `token` writes need (default $SKILLGRAPH_TOKEN, else a random one printed on stderr)")
	imp := fs.String("import", "", "add the matches of this CSV `file` (match_id,time,team,player,rank) before serving")
	draw := cli.ProbabilityFlag(fs, "draw", "set the league's draw `probability` in [0, 1), re-rating every match")
	if status, done := cli.Parse(fs, args, synopsis, stderr); done {
		return status
	}
	prog := fs.Name()
	if *token == "" {
		*token = os.Getenv("SKILLGRAPH_TOKEN")
	}
	if *token == "" {
		var b [16]byte
		rand.Read(b[:])
		*token = hex.EncodeToString(b[:])
		fmt.Fprintf(stderr, "%s: no -token or SKILLGRAPH_TOKEN: writes need this token: %s\n", prog, *token)
	}
	db, err := store.Open(ctx, *dsn)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", prog, err)
		return cli.Error
	}
	defer db.Close()
	if *draw != nil {
		if err := db.SetDrawProbability(ctx, **draw); err != nil {
			fmt.Fprintf(stderr, "%s: -draw: %v\n", prog, err)
			return cli.Error
		}
	}
	if *imp != "" {
		if err := importCSV(ctx, db, *imp, stdout); err != nil {
			fmt.Fprintf(stderr, "%s: -import %s: %v\n", prog, *imp, err)
			return cli.Error
		}
	}
	h, err := server.New(server.Config{Store: db, Token: *token, ErrorLog: log.New(stderr, "", log.LstdFlags)})
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", prog, err)
		return cli.Error
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", prog, err)
		return cli.Error
	}
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    16 << 10,
		ErrorLog:          log.New(stderr, "", log.LstdFlags),
	}
	fmt.Fprintf(stdout, "serving the league in %s on http://%s/\n", store.Redact(*dsn), ln.Addr())
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		fmt.Fprintf(stderr, "%s: %v\n", prog, err)
		return cli.Error
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintf(stderr, "%s: shut down: %v\n", prog, err)
		return cli.Error
	}
	return cli.OK
}

// importCSV adds the matches of the CSV file at path to db, all or none.
// An error about one match names the line of its first row.
func importCSV(ctx context.Context, db store.Store, path string, stdout io.Writer) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	ms, rep, err := server.ReadCSV(path, bytes.NewReader(data))
	if err != nil {
		return err
	}
	added, err := db.AddAll(ctx, ms)
	var me *store.MatchError
	if errors.As(err, &me) {
		if i := slices.IndexFunc(ms, func(m store.Match) bool { return m.ID == me.ID }); i >= 0 {
			return fmt.Errorf("%s:%d: %w; nothing was imported", path, rep.Lines[i], me)
		}
		return fmt.Errorf("%s: %w; nothing was imported", path, me)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "imported %s: %d matches, %d new\n", path, len(ms), added)
	return nil
}
