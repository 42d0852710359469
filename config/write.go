package config

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"reflect"
)

// Version identifies the bytes of a config file as they were read, so a
// later write can tell whether someone else changed the file meanwhile.
// The zero Version means "the file did not exist".
type Version string

// ErrConflict is returned (wrapped in *ConflictError) when a config file
// changed on disk after the editor read it.
var ErrConflict = errors.New("config file changed on disk")

// ConflictError names the file an edit was refused for.
type ConflictError struct{ File string }

func (e *ConflictError) Error() string {
	return fmt.Sprintf("config %s: changed on disk since it was loaded; reload and edit again (nothing was written)", e.File)
}

func (e *ConflictError) Unwrap() error { return ErrConflict }

// FileVersion returns the current version of a config file ("" if absent).
func (s *Store) FileVersion(name string) (Version, error) {
	data, err := os.ReadFile(s.Path(name))
	if errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", &Error{File: s.Path(name), Msg: err.Error()}
	}
	return versionOf(data), nil
}

func versionOf(data []byte) Version {
	sum := sha256.Sum256(data)
	return Version(hex.EncodeToString(sum[:12]))
}

// LoadVersioned is Load plus the version of the bytes it decoded, for
// editors that write back later with Edit.
func LoadVersioned[T any](s *Store, name string, defaults func() T) (T, Version, error) {
	v, err := Load(s, name, defaults)
	if err != nil {
		return v, "", err
	}
	ver, verr := s.FileVersion(name)
	if verr != nil {
		return v, "", verr
	}
	// Re-load if the file changed between the two reads, so value and
	// version always describe the same bytes.
	for range 3 {
		v2, err := Load(s, name, defaults)
		if err != nil {
			return v2, "", err
		}
		ver2, err := s.FileVersion(name)
		if err != nil {
			return v2, "", err
		}
		if ver2 == ver {
			return v2, ver, nil
		}
		v, ver = v2, ver2
	}
	return v, ver, nil
}

// Edit applies fn to the current value of a config file and writes it back
// atomically. It is how every in-app editor writes config:
//
//   - base is the Version the editor showed the user; if the file has
//     changed since (another process, the user's text editor), the edit is
//     refused with a *ConflictError and nothing is written. An empty base
//     skips the check (callers that apply a self-contained change such as
//     "enable account x" re-read the file anyway).
//
//   - the result is validated with the same Validate method `alice check`
//     runs; an invalid result is refused with an *Error naming the key.
//
//   - only what fn changed is written: the change between the typed value
//     before and after fn is applied to the file's raw JSON, so keys the
//     typed struct does not know survive (keys are written sorted).
//
//   - edits through one Store are serialised, so two in-process editors
//     never drop each other's change (other processes are kept out by the
//     data-dir lock, or caught by base).
//
// It returns the new value and its version.
func Edit[T any](s *Store, name string, base Version, defaults func() T, fn func(*T) error) (T, Version, error) {
	path := s.Path(name)
	if s.readOnly {
		var zero T
		return zero, "", &Error{File: path, Msg: "not saved: the config store is read-only"}
	}
	s.editMu.Lock()
	defer s.editMu.Unlock()
	raw, err := os.ReadFile(path)
	exists := err == nil
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		var zero T
		return zero, "", &Error{File: path, Msg: err.Error()}
	}
	cur := Version("")
	if exists {
		cur = versionOf(raw)
	}
	if base != "" && base != cur {
		var zero T
		return zero, cur, &ConflictError{File: path}
	}
	v := defaults()
	if exists {
		if err := decodeLoose(raw, &v); err != nil {
			return v, cur, describeDecodeError(path, raw, err, reflect.TypeOf(v))
		}
	}
	before, err := json.Marshal(v)
	if err != nil {
		return v, cur, &Error{File: path, Msg: err.Error()}
	}
	if err := fn(&v); err != nil {
		return v, cur, err
	}
	if err := validate(path, &v); err != nil {
		return v, cur, err
	}
	after, err := json.Marshal(v)
	if err != nil {
		return v, cur, &Error{File: path, Msg: err.Error()}
	}
	out, err := mergeChange(raw, exists, before, after)
	if err != nil {
		return v, cur, &Error{File: path, Msg: err.Error()}
	}
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return v, cur, &Error{File: path, Msg: err.Error()}
	}
	if err := WriteFileAtomic(path, out, 0o600); err != nil {
		return v, cur, &Error{File: path, Msg: err.Error()}
	}
	return v, versionOf(out), nil
}

// decodeLoose decodes over defaults but tolerates unknown keys: they are
// carried through by the raw merge, not dropped. A key that is a known
// key in another case ("EscapeTimeMs") is unknown too, so it is left out
// of the typed decode instead of being taken for the known one, as
// encoding/json alone would do.
func decodeLoose(data []byte, v any) error {
	if len(bytes.TrimSpace(data)) == 0 {
		return errors.New("file is empty")
	}
	if _, _, inexact := unknownKey(data, reflect.TypeOf(v)); inexact {
		tree, err := decodeAny(data)
		if err != nil {
			return json.Unmarshal(data, v) // the decoder names the syntax error
		}
		if data, err = json.Marshal(pruneUnknown(tree, reflect.TypeOf(v))); err != nil {
			return err
		}
	}
	return json.Unmarshal(data, v)
}

// pruneUnknown deletes from the decoded JSON tree v every key typ does not
// declare exactly (types that decode themselves are left whole).
func pruneUnknown(v any, typ reflect.Type) any {
	for typ.Kind() == reflect.Pointer {
		typ = typ.Elem()
	}
	if decodesItself(typ) {
		return v
	}
	switch typ.Kind() {
	case reflect.Struct:
		if obj, ok := v.(map[string]any); ok {
			fields := jsonFields(typ)
			for k, e := range obj {
				if ft, known := fields[k]; known {
					obj[k] = pruneUnknown(e, ft)
				} else {
					delete(obj, k)
				}
			}
		}
	case reflect.Map:
		if obj, ok := v.(map[string]any); ok {
			for k, e := range obj {
				obj[k] = pruneUnknown(e, typ.Elem())
			}
		}
	case reflect.Slice, reflect.Array:
		if arr, ok := v.([]any); ok {
			for i, e := range arr {
				arr[i] = pruneUnknown(e, typ.Elem())
			}
		}
	}
	return v
}

// mergeChange applies the difference between before and after (both
// typed-value JSON) to the raw file and returns the bytes to write.
func mergeChange(raw []byte, exists bool, before, after []byte) ([]byte, error) {
	b, err := decodeAny(before)
	if err != nil {
		return nil, err
	}
	a, err := decodeAny(after)
	if err != nil {
		return nil, err
	}
	var base any
	if exists {
		if base, err = decodeAny(raw); err != nil {
			return nil, err
		}
	} else {
		base = b
	}
	merged := applyDiff(base, b, a)
	out, err := json.MarshalIndent(merged, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(out, '\n'), nil
}

// applyDiff returns raw with the change before→after applied. Objects
// merge key by key (keys absent from both typed values are untouched);
// arrays of objects with an "id" merge element by id; anything else that
// changed is replaced whole.
func applyDiff(raw, before, after any) any {
	if reflect.DeepEqual(before, after) {
		return raw
	}
	ro, rok := raw.(map[string]any)
	bo, bok := before.(map[string]any)
	ao, aok := after.(map[string]any)
	if rok && bok && aok {
		out := make(map[string]any, len(ro))
		for k, v := range ro {
			out[k] = v
		}
		for k, av := range ao {
			bv, inBefore := bo[k]
			rv, inRaw := ro[k]
			switch {
			case !inBefore || !inRaw:
				out[k] = av
			default:
				out[k] = applyDiff(rv, bv, av)
			}
		}
		for k := range bo {
			if _, still := ao[k]; !still {
				delete(out, k)
			}
		}
		return out
	}
	ra, rok := raw.([]any)
	ba, bok := before.([]any)
	aa, aok := after.([]any)
	if rok && bok && aok {
		if merged, ok := mergeByID(ra, ba, aa); ok {
			return merged
		}
	}
	return after
}

// mergeByID merges arrays whose elements are objects with a string "id".
func mergeByID(raw, before, after []any) ([]any, bool) {
	index := func(xs []any) (map[string]any, bool) {
		m := map[string]any{}
		for _, x := range xs {
			o, ok := x.(map[string]any)
			if !ok {
				return nil, false
			}
			id, ok := o["id"].(string)
			if !ok {
				return nil, false
			}
			m[id] = o
		}
		return m, true
	}
	rm, ok1 := index(raw)
	bm, ok2 := index(before)
	if !ok1 || !ok2 {
		return nil, false
	}
	if _, ok := index(after); !ok {
		return nil, false
	}
	out := make([]any, 0, len(after))
	for _, x := range after {
		id := x.(map[string]any)["id"].(string)
		rv, inRaw := rm[id]
		bv, inBefore := bm[id]
		if inRaw && inBefore {
			out = append(out, applyDiff(rv, bv, x))
		} else {
			out = append(out, x)
		}
	}
	return out, true
}

// decodeAny decodes JSON keeping numbers exact (int64 chat ids, decimals).
func decodeAny(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	return v, err
}

// Replace writes data as the whole of config file name, atomically, for
// editors that change the raw text (`alice config edit`, a settings
// service's raw write). Like Edit it is serialised with every other edit
// through this Store and refused with a *ConflictError when the file is no
// longer at base (an empty base skips that check). check runs under the
// same lock, before anything is written, and gets data; an error from it
// refuses the write and is returned as is.
func (s *Store) Replace(name string, base Version, data []byte, check func(data []byte) error) (Version, error) {
	path := s.Path(name)
	if s.readOnly {
		return "", &Error{File: path, Msg: "not saved: the config store is read-only"}
	}
	s.editMu.Lock()
	defer s.editMu.Unlock()
	cur, err := s.FileVersion(name)
	if err != nil {
		return "", err
	}
	if base != "" && base != cur {
		return cur, &ConflictError{File: path}
	}
	if check != nil {
		if err := check(data); err != nil {
			return cur, err
		}
	}
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return cur, &Error{File: path, Msg: err.Error()}
	}
	if err := WriteFileAtomic(path, data, 0o600); err != nil {
		return cur, &Error{File: path, Msg: err.Error()}
	}
	return versionOf(data), nil
}

// ReadRaw returns a config file's bytes and their version; a missing file
// returns nil data and the zero version.
func (s *Store) ReadRaw(name string) ([]byte, Version, error) {
	data, err := os.ReadFile(s.Path(name))
	if errors.Is(err, os.ErrNotExist) {
		return nil, "", nil
	}
	if err != nil {
		return nil, "", &Error{File: s.Path(name), Msg: err.Error()}
	}
	return data, versionOf(data), nil
}
