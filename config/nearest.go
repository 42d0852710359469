package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
)

// Nearest returns the candidate closest to s by edit distance (case
// folded), or "" when none is close enough to be a likely misspelling.
func Nearest(s string, candidates []string) string {
	best, bestD := "", -1
	ls := strings.ToLower(s)
	for _, c := range candidates {
		d := editDistance(ls, strings.ToLower(c))
		if bestD < 0 || d < bestD || (d == bestD && c < best) {
			best, bestD = c, d
		}
	}
	limit := max(2, len([]rune(s))/3)
	if bestD < 0 || bestD > limit {
		return ""
	}
	return best
}

// editDistance is the Levenshtein distance over runes.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// unknownKey finds the first key in data that typ does not have and
// returns its dotted path and the known keys beside it. ok is false when
// every key is known (the decoder failed for another reason).
func unknownKey(data []byte, typ reflect.Type) (path string, known []string, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return "", nil, false
	}
	if m, isObj := v.(map[string]any); isObj {
		delete(m, SchemaKey)
	}
	return walkUnknown(v, typ, "")
}

func walkUnknown(v any, typ reflect.Type, prefix string) (string, []string, bool) {
	for typ.Kind() == reflect.Pointer {
		typ = typ.Elem()
	}
	if decodesItself(typ) {
		// Its UnmarshalJSON checks its own keys (Account and Guard refuse
		// any key that is not exactly theirs; presetConfig is the broker
		// preset's, checked by broker.DecodePreset).
		return "", nil, false
	}
	join := func(k string) string {
		if prefix == "" {
			return k
		}
		return prefix + "." + k
	}
	switch typ.Kind() {
	case reflect.Struct:
		obj, isObj := v.(map[string]any)
		if !isObj {
			return "", nil, false
		}
		fields := jsonFields(typ)
		names := make([]string, 0, len(fields))
		for n := range fields {
			names = append(names, n)
		}
		sort.Strings(names)
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			// Only the exact key is known: encoding/json would also take
			// "EscapeTimeMs" or "ESCAPETIMEMS" for "escapeTimeMs" (and
			// let the last of them win), so any other spelling is an
			// unknown key here.
			ft, found := fields[k]
			if !found {
				return join(k), names, true
			}
			if p, known, ok := walkUnknown(obj[k], ft, join(k)); ok {
				return p, known, true
			}
		}
	case reflect.Map:
		obj, isObj := v.(map[string]any)
		if !isObj {
			return "", nil, false
		}
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if p, known, ok := walkUnknown(obj[k], typ.Elem(), join(k)); ok {
				return p, known, true
			}
		}
	case reflect.Slice, reflect.Array:
		arr, isArr := v.([]any)
		if !isArr {
			return "", nil, false
		}
		for i, e := range arr {
			if p, known, ok := walkUnknown(e, typ.Elem(), fmt.Sprintf("%s[%d]", prefix, i)); ok {
				return p, known, true
			}
		}
	}
	return "", nil, false
}

// decodesItself reports whether typ has its own JSON (or text) decoding.
func decodesItself(typ reflect.Type) bool {
	return typ.Implements(jsonUnmarshaler) || reflect.PointerTo(typ).Implements(jsonUnmarshaler) ||
		typ.Implements(textUnmarshaler) || reflect.PointerTo(typ).Implements(textUnmarshaler)
}

// UnknownKey finds the first key of the JSON data that v's type (a struct,
// or a pointer, slice or map of them) does not declare exactly, with its
// path ("feeds[1].URL") and the keys known beside it. ok is false when
// every key is known or data is not valid JSON. Keys are compared exactly:
// encoding/json alone would accept "APIKEYENV" for "apiKeyEnv".
func UnknownKey(data []byte, v any) (path string, known []string, ok bool) {
	return unknownKey(data, reflect.TypeOf(v))
}

// jsonFields maps a struct's JSON keys to their types (embedded structs
// flattened, "-" skipped).
func jsonFields(typ reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for i := 0; i < typ.NumField(); i++ {
		f := typ.Field(i)
		if !f.IsExported() {
			continue
		}
		tag := f.Tag.Get("json")
		name, _, _ := strings.Cut(tag, ",")
		if name == "-" {
			continue
		}
		if f.Anonymous && name == "" {
			ft := f.Type
			for ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				for k, t := range jsonFields(ft) {
					out[k] = t
				}
				continue
			}
		}
		if name == "" {
			name = f.Name
		}
		out[name] = f.Type
	}
	return out
}

// unknownKeyError names the misspelt key with its full path and the
// nearest known key, e.g. `key "channels[1].disabledTool": unknown key
// (did you mean "disabledTools"?)`.
func unknownKeyError(path string, data []byte, typ reflect.Type, fallback error) error {
	key, known, ok := unknownKey(data, typ)
	if !ok {
		return fallback
	}
	return &Error{File: path, Key: key, Msg: unknownKeyMsg(key, known)}
}

// unknownKeyMsg is "unknown key (did you mean …?)" for the last segment
// of key, or the known keys beside it when none is near.
func unknownKeyMsg(key string, known []string) string {
	last := key
	if i := strings.LastIndexAny(key, ".]"); i >= 0 {
		last = key[i+1:]
	}
	msg := "unknown key"
	if near := Nearest(last, known); near != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", near)
	} else if len(known) > 0 {
		msg += " (known keys here: " + strings.Join(known, ", ") + ")"
	}
	return msg
}
