package config

import (
	"bufio"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gofrs/flock"
)

// Several alice instances of one user (the default home and ALICE_HOME
// ones) must not see each other's files from their workspace sessions
// either: an agent in one would read the other's operator key, or attach
// to its TUI and approve there. Each core registers its directories in
// the register of homes as it starts; a sandbox hides every registered
// home and the default (XDG) one, besides its own.
//
// The register is kept for good (a home leaves it when its directories are
// gone), so a session started before another instance's start still has
// it hidden — unless that instance had never run before. It lives in the
// user's alice state directory (<XDG state>/alice/homes; the attach
// sockets' fallback directory where there is none), an owner-only
// directory (PrivateDir) that every sandbox hides; it is rewritten under
// a lock, so cores starting together all register.

const homesFile = "homes"

// Homes is this user's register of homes, its place resolved once (the
// XDG lookup reloads a library's globals: not something to do from every
// session start at once).
type Homes struct {
	dir string // where the register lives
	def *Paths // the default (XDG) home, nil when there is none
}

// OpenHomes finds the register: <XDG state>/alice, or the attach sockets'
// fallback directory where there is no XDG home.
func OpenHomes() Homes {
	def, err := resolvePaths("", func(k string) string {
		if k == "ALICE_HOME" {
			return ""
		}
		return os.Getenv(k)
	})
	if err != nil {
		return Homes{dir: SocketFallbackDir()}
	}
	return Homes{dir: filepath.Dir(def.Logs), def: &def}
}

// HomesAt is a register kept in dir, with no default home (tests).
func HomesAt(dir string) Homes { return Homes{dir: dir} }

// Register records p's directories in the register, and creates the
// attach sockets' fallback directory, so that both exist (and are hidden)
// before any session starts. Homes whose directories are gone are dropped
// as the register is rewritten, under a lock.
func (h Homes) Register(p Paths) error {
	uid := os.Getuid()
	if err := PrivateDir(SocketFallbackDir(), uid); err != nil {
		return err
	}
	if err := PrivateDir(h.dir, uid); err != nil {
		return err
	}
	// The default home's directories exist, so a sandbox hides them: a
	// session cannot write a config (an AI profile's command) that a
	// later plain `alice` would read.
	if h.def != nil {
		for _, d := range []string{h.def.Config, h.def.Data, h.def.Logs} {
			if err := os.MkdirAll(d, 0o700); err != nil {
				return err
			}
		}
	}
	unlock, err := lockFile(filepath.Join(h.dir, homesFile+".lock"))
	if err != nil {
		return err
	}
	defer unlock()
	path := filepath.Join(h.dir, homesFile)
	var keep []string
	for _, d := range append(readHomes(path), p.Config, p.Data, p.Logs) {
		if d == "" || slices.Contains(keep, d) {
			continue
		}
		if _, err := os.Stat(d); err == nil || d == p.Config || d == p.Data || d == p.Logs {
			keep = append(keep, d)
		}
	}
	return WriteFileAtomic(path, []byte(strings.Join(keep, "\n")+"\n"), 0o600)
}

// Others are what a workspace sandbox hides besides its own home: every
// registered home's config, data and logs directories that still exist,
// the default home's, the register's own directory and the sockets'
// fallback one.
func (h Homes) Others() []string {
	out := []string{h.dir, SocketFallbackDir()}
	out = append(out, readHomes(filepath.Join(h.dir, homesFile))...)
	if h.def != nil {
		out = append(out, h.def.Config, h.def.Data, h.def.Logs)
	}
	var kept []string
	for _, d := range out {
		if fi, err := os.Stat(d); err == nil && fi.IsDir() && !slices.Contains(kept, d) {
			kept = append(kept, d)
		}
	}
	return kept
}

func readHomes(path string) []string {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); filepath.IsAbs(l) {
			out = append(out, filepath.Clean(l))
		}
	}
	return out
}

// lockFile takes an exclusive lock on path (created) until unlock.
func lockFile(path string) (unlock func(), err error) {
	fl := flock.New(path)
	if err := fl.Lock(); err != nil {
		return nil, err
	}
	return func() { _ = fl.Unlock() }, nil
}
