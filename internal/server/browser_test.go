package server_test

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// chromium returns the path of Debian's chromium. It is skipped where
// chromium is missing, except when CI is set, where that fails.
func chromium(t *testing.T) string {
	t.Helper()
	for _, p := range []string{"/usr/bin/chromium", "/usr/bin/chromium-browser"} {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	if p, err := exec.LookPath("chromium"); err == nil {
		return p
	}
	if os.Getenv("CI") != "" {
		t.Fatal("chromium is missing: CI runs the browser test (apt-get install chromium)")
	}
	t.Skip("chromium is missing (apt-get install chromium)")
	return ""
}

// TestBrowser logs in, enters matches through the form in headless
// Chromium, and reads the leaderboard and a player's plot as rendered.
func TestBrowser(t *testing.T) {
	exe := chromium(t)
	l := newLeague(t)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.Flag("headless", true),
		chromedp.NoSandbox, // tests run as root in CI
		chromedp.DisableGPU,
	)
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, cancel = context.WithTimeout(ctx, 90*time.Second)
	defer cancel()

	css := func(sel string) chromedp.CSS { return chromedp.CSS(sel) }
	do := func(what string, steps ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(ctx, steps...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	text := func(sel string) string {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.Text(css(sel)))
		if err != nil {
			t.Fatalf("text of %s: %v", sel, err)
		}
		return s
	}
	enter := func(time, team1, rank1, team2, rank2 string) {
		t.Helper()
		do("enter a match",
			chromedp.Navigate(l.srv.URL+"/matches/new"),
			chromedp.WaitVisible(css(`#match-form`)),
			chromedp.SetValue(css(`input[name=time]`), time),
			chromedp.SendKeys(css(`input[name=team1]`), team1),
			chromedp.SetValue(css(`input[name=rank1]`), rank1),
			chromedp.SendKeys(css(`input[name=team2]`), team2),
			chromedp.SetValue(css(`input[name=rank2]`), rank2),
			chromedp.Click(css(`#match-form button[type=submit]`)),
			chromedp.WaitVisible(css(`#leaderboard`)),
		)
	}
	// Not logged in: the form sends the browser to log in first.
	do("log in",
		chromedp.Navigate(l.srv.URL+"/matches/new"),
		chromedp.WaitVisible(css(`input[name=token]`)),
		chromedp.SendKeys(css(`input[name=token]`), token),
		chromedp.Submit(css(`input[name=token]`)),
		chromedp.WaitVisible(css(`#match-form`)),
	)
	url, err := chromedp.Run(ctx, chromedp.Location())
	if err != nil {
		t.Fatal(err)
	}
	const top = `#leaderboard tbody tr:first-child td:nth-child(2)`
	enter("2025-03-01T18:00", "Ada", "1", "Bo", "2")
	first := text(top)
	enter("2025-03-02T18:00", "Ada", "2", "Bo, Cy", "1")
	enter("2025-03-03T18:00", "Bo", "1", "Ada", "2")
	second := text(top)
	do("open Ada's page",
		chromedp.Navigate(l.srv.URL+"/players/Ada"),
		chromedp.WaitVisible(css(`svg#history`)),
	)
	// The rating's line is the plot's one unfilled path with more than
	// one segment; count its vertices as the browser parsed them.
	points, err := chromedp.Run(ctx, chromedp.Evaluate[int](`Math.max(...Array.from(
		document.querySelectorAll("svg#history path"),
		p => p.style.fill === "none" ? p.pathSegList ? p.pathSegList.numberOfItems : (p.getAttribute("d").match(/[ML]/g) || []).length : 0))`))
	if err != nil {
		t.Fatal(err)
	}
	width, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`document.querySelector("svg#history").getBoundingClientRect().width`))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(url, "/matches/new") {
		t.Fatalf("after logging in the browser is at %s, want the form", url)
	}
	if first != "Ada" || second != "Bo" {
		t.Fatalf("top of the leaderboard: %q after Ada beat Bo, %q after Bo won twice more; want Ada, Bo", first, second)
	}
	// Three matches and the start, in a plot drawn on the page.
	if points != 4 || width < 400 {
		t.Fatalf("Ada's plot: %d points, %.0f px wide; want 4 points in a plot drawn at its width", points, width)
	}
	// The record holds what the browser entered, rated as a replay.
	if got := l.csv(); strings.Count(got, "\n") != 8 || !strings.Contains(got, ",2025-03-02T18:00:00Z,Bo+Cy,Cy,1\n") {
		t.Fatalf("stored:\n%s", got)
	}
	l.checkReplay()
}
