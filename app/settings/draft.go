package settings

import (
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/alice-trading/alice/config"
)

// ValidateDraft checks what the configuration would be with data as the
// whole of file name, without touching the real folder: the config files
// are copied into a temporary folder with the draft in place and the one
// check (Options.Check) runs there, read-only. Problems name the real
// file paths. Only the draft's own problems (and any that name no file)
// refuse it: a broken neighbour must not stop the user from fixing this
// file first, and it is still reported by Validate.
func (s *Service) ValidateDraft(name string, data []byte) error {
	if _, err := FileName(name); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "alice-config-draft-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	for _, f := range config.Files() {
		body := data
		if f != name {
			b, v, err := s.store.ReadRaw(f)
			if err != nil {
				return err
			}
			if v == "" {
				continue // missing: validated as its defaults
			}
			body = b
		}
		if err := os.WriteFile(filepath.Join(tmp, f), body, 0o600); err != nil {
			return err
		}
	}
	return only(relocate(s.o.Check(config.NewReadOnlyStore(tmp)), tmp, s.store.Dir()), s.store.Path(name))
}

// only keeps the problems of err that concern file: a *config.Error
// naming it, or anything that names no file.
func only(err error, file string) error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			if e = only(e, file); e != nil {
				out = append(out, e)
			}
		}
		return errors.Join(out...)
	}
	var ce *config.Error
	if errors.As(err, &ce) && ce.File != file {
		return nil
	}
	return err
}

// Write replaces file name with data after ValidateDraft passes. base is
// the version the caller read (Read); if the file changed since, nothing
// is written and a *config.ConflictError says so.
func (s *Service) Write(name string, base config.Version, data []byte) (config.Version, error) {
	if _, err := FileName(name); err != nil {
		return "", err
	}
	v, err := s.store.Replace(name, base, data, func(d []byte) error { return s.ValidateDraft(name, d) })
	if err == nil {
		s.changed(name)
	}
	return v, err
}

// relocate rewrites the temporary folder in err's file paths to the real
// config folder, keeping *config.Error values (and joins of them) typed.
func relocate(err error, from, to string) error {
	if err == nil {
		return nil
	}
	if ce, ok := err.(*config.Error); ok {
		c := *ce
		c.File = strings.Replace(c.File, from, to, 1)
		return &c
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, relocate(e, from, to))
		}
		return errors.Join(out...)
	}
	if !strings.Contains(err.Error(), from) {
		return err
	}
	return errors.New(strings.ReplaceAll(err.Error(), from, to))
}
