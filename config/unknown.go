package config

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
)

// Unknown describes an unknown name: `unknown key (did you mean
// "readOnly"? known: …)`.
func Unknown(what, name string, known []string) string {
	k := append([]string(nil), known...)
	sort.Strings(k)
	s := fmt.Sprintf("unknown %s %q", what, name)
	if n := Nearest(name, k); n != "" {
		s += fmt.Sprintf(" (did you mean %q?)", n)
	}
	return s + "; known: " + strings.Join(k, ", ")
}

// JSONKeys lists the JSON keys of a struct type (or pointer to one).
func JSONKeys(v any) []string {
	t := reflect.TypeOf(v)
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || t.Kind() != reflect.Struct {
		return nil
	}
	var out []string
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case name == "-":
			continue
		case name == "" && f.Anonymous:
			out = append(out, JSONKeys(reflect.New(f.Type).Interface())...)
			continue
		case name == "":
			name = f.Name
		}
		out = append(out, name)
	}
	return out
}

// keyError is an unknown or malformed key found while decoding, with its
// path; describeDecodeError turns it into an *Error for the file.
type keyError struct {
	Key string
	Msg string
}

func (e *keyError) Error() string { return fmt.Sprintf("key %q: %s", e.Key, e.Msg) }
