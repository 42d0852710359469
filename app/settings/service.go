// Package settings is the one settings use case every surface shares: list
// the config files, read them (secrets masked for display), validate the
// whole configuration exactly as `alice check` and start-up do, write a
// file's raw text or apply a typed edit atomically, and mint or revoke the
// MCP and webhook tokens. The TUI's Settings pane, Telegram's /settings
// and `alice config` all go through a Service, so an edit is checked and
// written the same way whichever surface makes it.
//
// Writes go through config.Edit / Store.Replace (temp file + fsync +
// rename, refused with config.ErrConflict when the file changed since the
// caller read it). Validation that needs the domain packages (broker
// presets, guards) is not imported here: the composition root passes it in
// as Options.Check, so this package knows only config.
package settings

import (
	"fmt"
	"os"
	"strings"

	"github.com/alice-trading/alice/config"
)

// Options wire a Service.
type Options struct {
	// Check validates the whole configuration in a store: every file's own
	// validation plus the domain checks (app.Validate). Nil means
	// Store.CheckAll only.
	Check func(*config.Store) error
	// Changed is told the name of every file the service wrote, after the
	// write (the heartbeat wakes on heartbeat.json). Optional.
	Changed func(file string)
	// MainURL returns the main MCP listener's URL (…/mcp), used for the
	// webhook curl line. Optional.
	MainURL func() string
	// PersonaPath is the persona file and DefaultPersona the text it is
	// created with (PersonaFile). Optional.
	PersonaPath    string
	DefaultPersona string
	// Persona reads the persona in use (a missing or empty file means the
	// default). Optional; nil reads PersonaPath.
	Persona func() string
}

// Service is the settings use case over one config store.
type Service struct {
	store *config.Store
	o     Options
}

// New returns the service over store.
func New(store *config.Store, o Options) *Service {
	if o.Check == nil {
		o.Check = func(s *config.Store) error { return s.CheckAll() }
	}
	return &Service{store: store, o: o}
}

// File describes one config file.
type File struct {
	Name   string // e.g. "mcp.json"
	Path   string // absolute
	Exists bool   // false: its defaults apply
	Schema string // the JSON Schema file beside it (written by WriteSchemas)
}

// Dir is the config folder.
func (s *Service) Dir() string { return s.store.Dir() }

// Path is the absolute path of a config file.
func (s *Service) Path(name string) string { return s.store.Path(name) }

// Files lists every config file, sorted by name.
func (s *Service) Files() []File {
	var out []File
	for _, name := range config.Files() {
		_, err := os.Stat(s.store.Path(name))
		out = append(out, File{Name: name, Path: s.store.Path(name), Exists: err == nil,
			Schema: s.store.Path(config.SchemaFileName(name))})
	}
	return out
}

// FileName accepts "mcp" or "mcp.json" and refuses anything that is not
// one of alice's config files, so no caller-supplied name escapes the
// config folder.
func FileName(arg string) (string, error) {
	name := strings.TrimSpace(arg)
	if !strings.HasSuffix(name, ".json") {
		name += ".json"
	}
	for _, f := range config.Files() {
		if f == name {
			return name, nil
		}
	}
	return "", fmt.Errorf("unknown config file %q (one of: %s)", arg, strings.Join(config.Files(), ", "))
}

// Read returns a config file's bytes and version; a missing file returns
// nil data and the zero version.
func (s *Service) Read(name string) ([]byte, config.Version, error) {
	if _, err := FileName(name); err != nil {
		return nil, "", err
	}
	return s.store.ReadRaw(name)
}

// Ensure creates a missing config file with its defaults (nothing when it
// exists) and checks it on its own.
func (s *Service) Ensure(name string) error {
	if _, err := FileName(name); err != nil {
		return err
	}
	return s.store.Check(name)
}

// Validate runs the one configuration check — what `alice check` and
// start-up run — over the files as they are.
func (s *Service) Validate() error { return s.o.Check(s.store) }

// WriteSchemas writes each file's JSON Schema beside it and adds a
// "$schema" key to existing files that lack one; it returns the files it
// changed.
func (s *Service) WriteSchemas() ([]string, error) {
	if err := os.MkdirAll(s.store.Dir(), 0o700); err != nil {
		return nil, err
	}
	if err := s.store.WriteSchemas(); err != nil {
		return nil, err
	}
	return s.store.AddSchemaKeys()
}

func (s *Service) changed(file string) {
	if s.o.Changed != nil {
		s.o.Changed(file)
	}
}
