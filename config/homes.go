package config

import (
	"bufio"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Several alice instances of one user (the default home and ALICE_HOME
// ones) must not see each other's files from their workspace sessions
// either: an agent in one would read the other's operator key, or attach
// to its TUI and approve there. Each core registers its directories in
// homesFile, in the attach sockets' fallback directory (0700, hidden from
// every session); a sandbox hides every registered home's directories
// and the default XDG ones, besides its own.

const homesFile = "homes"

// RegisterHome records p's directories for OtherHomes and creates the
// attach sockets' fallback directory, so that it exists (and is hidden)
// before any session starts. Homes whose directories are gone are
// dropped as the list is rewritten (atomically), so it stays short.
func RegisterHome(p Paths) error {
	dir := SocketFallbackDir()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	path := filepath.Join(dir, homesFile)
	var keep []string
	for _, d := range append(readHomes(path), p.Config, p.Data, p.Logs) {
		if d == "" || slices.Contains(keep, d) {
			continue
		}
		if _, err := os.Stat(d); err == nil || d == p.Config || d == p.Data || d == p.Logs {
			keep = append(keep, d)
		}
	}
	tmp, err := os.CreateTemp(dir, homesFile+".*")
	if err != nil {
		return err
	}
	_, err = tmp.WriteString(strings.Join(keep, "\n") + "\n")
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		_ = os.Remove(tmp.Name())
	}
	return err
}

// OtherHomes are the directories of every alice home this user's cores
// registered, and the default (XDG) home's, that still exist: what a
// workspace sandbox hides besides its own home.
func OtherHomes() []string {
	out := readHomes(filepath.Join(SocketFallbackDir(), homesFile))
	if def, err := resolvePaths("", func(k string) string {
		if k == "ALICE_HOME" {
			return ""
		}
		return os.Getenv(k)
	}); err == nil {
		out = append(out, def.Config, def.Data, def.Logs)
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
