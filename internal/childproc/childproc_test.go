package childproc

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestMain lets the test binary act as a child: CHILDPROC_ROLE=echo says
// hello, then echoes each stdin line until stdin closes; =deaf says hello
// and ignores stdin's end; =fail writes to stderr and exits 3.
func TestMain(m *testing.M) {
	switch os.Getenv("CHILDPROC_ROLE") {
	case "echo":
		fmt.Println("hello")
		sc := bufio.NewScanner(os.Stdin)
		for sc.Scan() {
			fmt.Println("echo " + sc.Text())
		}
		os.Exit(0)
	case "deaf":
		fmt.Println("hello")
		time.Sleep(time.Minute)
		os.Exit(0)
	case "fail":
		fmt.Fprintln(os.Stderr, "first\nbad flag --nope")
		os.Exit(3)
	}
	os.Exit(m.Run())
}

func start(t *testing.T, role string) *Proc {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "CHILDPROC_ROLE="+role)
	p, err := Start(cmd, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Stop(time.Second) })
	return p
}

// TestLines: the child's lines arrive in order, what is sent reaches it,
// and closing its stdin ends it cleanly.
func TestLines(t *testing.T) {
	p := start(t, "echo")
	ctx := context.Background()
	if line, err := p.Next(ctx, 10*time.Second); err != nil || line != "hello" {
		t.Fatalf("first line %q, %v", line, err)
	}
	for i := range 3 {
		if err := p.Send([]byte(fmt.Sprint(i))); err != nil {
			t.Fatal(err)
		}
		if line, err := p.Next(ctx, 10*time.Second); err != nil || line != fmt.Sprint("echo ", i) {
			t.Fatalf("answer %d: %q, %v", i, line, err)
		}
	}
	p.Stop(10 * time.Second)
	if st := p.State(); st != "exit status 0" {
		t.Errorf("after Stop: %s, want exit status 0 (it exits when stdin closes)", st)
	}
}

// TestStopKillsTheDeaf: a child that does not exit when its stdin closes
// is killed once the grace period is over.
func TestStopKillsTheDeaf(t *testing.T) {
	p := start(t, "deaf")
	if _, err := p.Next(context.Background(), 10*time.Second); err != nil {
		t.Fatal(err)
	}
	p.Stop(100 * time.Millisecond)
	if st := p.State(); st != "signal: killed" {
		t.Errorf("after Stop: %s, want killed", st)
	}
	select {
	case <-p.Exited():
	default:
		t.Error("Exited not closed after Stop")
	}
}

// TestNextSaysWhyItDied: a child that exits before its line says so, with
// its status and its last line on stderr; a silent one times out; a
// cancelled context ends the wait.
func TestNextSaysWhyItDied(t *testing.T) {
	p := start(t, "fail")
	_, err := p.Next(context.Background(), 10*time.Second)
	if err == nil || !strings.Contains(err.Error(), "exit status 3") || !strings.Contains(err.Error(), "bad flag --nope") {
		t.Errorf("error %v: want its status and last stderr line", err)
	}
	deaf := start(t, "deaf")
	if _, err := deaf.Next(context.Background(), 10*time.Second); err != nil {
		t.Fatal(err)
	}
	if _, err := deaf.Next(context.Background(), 50*time.Millisecond); err == nil || !strings.Contains(err.Error(), "no answer after 50ms") {
		t.Errorf("silent child: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := deaf.Next(ctx, time.Minute); err != context.Canceled {
		t.Errorf("cancelled: %v", err)
	}
}
