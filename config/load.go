package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"

	"github.com/alice-trading/alice/core"
)

// Error is a configuration problem that names the file and the key so the
// user can fix it without guessing.
type Error struct {
	File string // absolute path of the config file
	Key  string // dotted JSON path, e.g. "mcpAsk.port"; empty for whole-file errors
	Msg  string
}

func (e *Error) Error() string {
	if e.Key == "" {
		return fmt.Sprintf("config %s: %s", e.File, e.Msg)
	}
	return fmt.Sprintf("config %s: key %q: %s", e.File, e.Key, e.Msg)
}

// Validator is implemented by config types that check their own values.
// It returns the offending key and a message, or "" and nil.
type Validator interface {
	Validate() (key string, err error)
}

// Store reads and writes the JSON config files in one directory. Each read
// goes to disk so that files the spec says are "read on each call" pick up
// edits without a restart.
type Store struct {
	dir      string
	readOnly bool

	// editMu serialises Edit's read-modify-write: several in-process
	// editors (Settings pane, Telegram /settings, the account manager)
	// share one Store, and base "" edits would otherwise drop each other.
	editMu sync.Mutex
}

// NewStore returns a store over dir.
func NewStore(dir string) *Store { return &Store{dir: dir} }

// NewReadOnlyStore returns a store that never writes: a missing file is
// validated as its defaults but not created (`alice check`, which may run
// beside the process that owns the config).
func NewReadOnlyStore(dir string) *Store { return &Store{dir: dir, readOnly: true} }

// ReadOnly reports whether the store refuses to write.
func (s *Store) ReadOnly() bool { return s.readOnly }

// Dir is the directory the store reads.
func (s *Store) Dir() string { return s.dir }

// Path returns the absolute path of a config file.
func (s *Store) Path(name string) string { return filepath.Join(s.dir, name) }

// Load reads name into a value of type T. A missing file is created with
// the defaults; a present file is decoded over the defaults (so keys the
// user omits keep their default), unknown keys and wrong types are errors
// naming the key, and Validate runs last.
func Load[T any](s *Store, name string, defaults func() T) (T, error) {
	path := s.Path(name)
	v := defaults()
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		if !s.readOnly {
			if err := Save(s, name, v); err != nil {
				return v, err
			}
		}
		return v, validate(path, &v)
	}
	if err != nil {
		return v, &Error{File: path, Msg: err.Error()}
	}
	if err := decodeStrict(stripSchemaKey(data), &v); err != nil {
		derr := describeDecodeError(path, data, err, reflect.TypeOf(v))
		if strings.HasPrefix(err.Error(), "json: unknown field ") {
			derr = unknownKeyError(path, data, reflect.TypeOf(v), derr)
		}
		return v, derr
	}
	return v, validate(path, &v)
}

// validate runs the type's own Validate, then the field rules every file
// shares (CheckFields: environment variable names, URLs). Load and Edit
// both call it, so `alice check`, start-up and the settings forms refuse
// the same values.
func validate(path string, v any) error {
	if val, ok := v.(Validator); ok {
		if key, err := val.Validate(); err != nil {
			return &Error{File: path, Key: key, Msg: err.Error()}
		}
	}
	if key, err := CheckFields(v); err != nil {
		return &Error{File: path, Key: key, Msg: err.Error()}
	}
	return nil
}

func decodeStrict(data []byte, v any) error {
	if len(bytes.TrimSpace(data)) == 0 {
		return errors.New("file is empty")
	}
	if path, dup := core.DuplicateKey(data); dup {
		return duplicateKeyError(path)
	}
	// encoding/json matches keys case-insensitively ("EscapeTimeMs" would
	// set escapeTimeMs); only the exact key is known.
	if key, known, ok := unknownKey(data, reflect.TypeOf(v)); ok {
		return &keyError{Key: key, Msg: unknownKeyMsg(key, known)}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("unexpected data after the top-level value")
	}
	return nil
}

// describeDecodeError turns encoding/json errors into an Error naming the
// key and, for syntax errors, the line.
func describeDecodeError(path string, data []byte, err error, typ reflect.Type) error {
	var typeErr *json.UnmarshalTypeError
	var syntaxErr *json.SyntaxError
	var keyErr *keyError
	switch {
	case errors.As(err, &typeErr):
		key := typeErr.Field
		if typ != nil && key != "" {
			key = typeErrorPath(data, typ, key)
		}
		return &Error{File: path, Key: key, Msg: TypeMismatch(typeErr)}
	case errors.As(err, &syntaxErr):
		line := 1 + bytes.Count(data[:min(int(syntaxErr.Offset), len(data))], []byte("\n"))
		return &Error{File: path, Msg: fmt.Sprintf("invalid JSON at line %d: %v", line, syntaxErr)}
	case errors.As(err, &keyErr):
		return &Error{File: path, Key: keyErr.Key, Msg: keyErr.Msg}
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		key := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
		return &Error{File: path, Key: key, Msg: "unknown key (misspelt?)"}
	default:
		return &Error{File: path, Msg: err.Error()}
	}
}

// TypeMismatch describes a JSON value of the wrong type for a key as the
// person wrote it: "expected a whole number, got 10.5" for an integer
// key, "expected a string, got JSON number" otherwise. encoding/json's
// own "cannot unmarshal number 10.5 into … int" (or "expected a number,
// got JSON number 10.5") leaves the reader to work out that a fraction is
// the problem.
func TypeMismatch(te *json.UnmarshalTypeError) string {
	t := te.Type
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil {
		return "wrong type: JSON " + te.Value
	}
	if lit, isNum := strings.CutPrefix(te.Value, "number "); isNum {
		switch {
		case isIntKind(t.Kind()):
			return wholeNumberMismatch(t, lit)
		case t.Kind() == reflect.Float32 || t.Kind() == reflect.Float64:
			return fmt.Sprintf("expected a number in the range of a %s, got %s", t.Kind(), lit)
		}
	}
	return fmt.Sprintf("expected %s, got JSON %s", typeName(t), te.Value)
}

// wholeNumberMismatch explains why the number lit does not fit the
// integer type t: a fraction, an exponent or the range.
func wholeNumberMismatch(t reflect.Type, lit string) string {
	if strings.ContainsAny(lit, ".eE") {
		if f, ok := new(big.Float).SetString(lit); ok && f.IsInt() {
			return fmt.Sprintf("expected a whole number written in digits only (no fraction or exponent), got %s", lit)
		}
		return fmt.Sprintf("expected a whole number, got %s", lit)
	}
	lo, hi := intRange(t)
	return fmt.Sprintf("expected a whole number from %s to %s, got %s", lo, hi, lit)
}

func isIntKind(k reflect.Kind) bool {
	switch k {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return true
	}
	return false
}

// intRange is the smallest and largest value of the integer type t.
func intRange(t reflect.Type) (lo, hi string) {
	bits := uint(t.Bits())
	switch t.Kind() {
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return "0", new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), bits), big.NewInt(1)).String()
	}
	top := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), bits-1), big.NewInt(1))
	return new(big.Int).Neg(new(big.Int).Add(top, big.NewInt(1))).String(), top.String()
}

// typeName says what a value of type t looks like in JSON.
func typeName(t reflect.Type) string {
	switch {
	case isIntKind(t.Kind()):
		return "a whole number"
	case t.Kind() == reflect.Float32 || t.Kind() == reflect.Float64:
		return "a number"
	case t.Kind() == reflect.String:
		return "a string"
	case t.Kind() == reflect.Bool:
		return "true or false"
	case t.Kind() == reflect.Slice || t.Kind() == reflect.Array:
		return "an array"
	case t.Kind() == reflect.Map:
		return "an object"
	default:
		return "an object (" + t.String() + ")"
	}
}

// Save writes v atomically (temp file + rename) with owner-only permissions.
func Save[T any](s *Store, name string, v T) error {
	path := s.Path(name)
	if s.readOnly {
		return &Error{File: path, Msg: "not saved: the config store is read-only"}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return &Error{File: path, Msg: err.Error()}
	}
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return &Error{File: path, Msg: err.Error()}
	}
	if _, ok := schemaFiles()[name]; ok {
		data = withSchemaKey(name, data)
	}
	return WriteFileAtomic(path, append(data, '\n'), 0o600)
}

// WriteFileAtomic writes data to a temp file in the same directory and
// renames it over path, so readers never see a half-written file.
func WriteFileAtomic(path string, data []byte, perm os.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(perm); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
