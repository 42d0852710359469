package config

import (
	"bytes"
	"encoding"
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"strconv"
)

var (
	jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
	configPkg       = reflect.TypeFor[Error]().PkgPath()
	indexRe         = regexp.MustCompile(`\[\d+\]`)
)

// typeErrorPath finds the full path, with array indices ("guards[1].type"),
// of the value encoding/json reported as the wrong type; goField is the
// decoder's path without indices ("guards.type"). It returns goField when
// the walk finds nothing that matches it.
func typeErrorPath(data []byte, typ reflect.Type, goField string) string {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return goField
	}
	var found string
	walkTypes(v, typ, "", func(path string) bool {
		if withoutIndices(path) == goField {
			found = path
			return true
		}
		return false
	})
	if found == "" {
		return goField
	}
	return found
}

func withoutIndices(path string) string {
	p := indexRe.ReplaceAllString(path, "")
	if len(p) > 0 && p[0] == '.' {
		p = p[1:]
	}
	return p
}

// walkTypes calls hit with the path of each JSON value whose kind cannot
// decode into typ, stopping when hit returns true. Types that decode
// themselves are opaque, except config's own structs (strict wrappers).
func walkTypes(v any, typ reflect.Type, prefix string, hit func(string) bool) bool {
	for typ.Kind() == reflect.Pointer {
		typ = typ.Elem()
	}
	if v == nil || typ.Kind() == reflect.Interface {
		return false
	}
	custom := typ.Implements(jsonUnmarshaler) || reflect.PointerTo(typ).Implements(jsonUnmarshaler) ||
		typ.Implements(textUnmarshaler) || reflect.PointerTo(typ).Implements(textUnmarshaler)
	if custom && !(typ.Kind() == reflect.Struct && typ.PkgPath() == configPkg) {
		return false
	}
	join := func(k string) string {
		if prefix == "" {
			return k
		}
		return prefix + "." + k
	}
	switch typ.Kind() {
	case reflect.Struct:
		obj, ok := v.(map[string]any)
		if !ok {
			return hit(prefix)
		}
		fields := jsonFields(typ)
		for _, k := range sortedKeys(obj) {
			if ft, known := fields[k]; known && walkTypes(obj[k], ft, join(k), hit) {
				return true
			}
		}
	case reflect.Map:
		obj, ok := v.(map[string]any)
		if !ok {
			return hit(prefix)
		}
		for _, k := range sortedKeys(obj) {
			if walkTypes(obj[k], typ.Elem(), join(k), hit) {
				return true
			}
		}
	case reflect.Slice, reflect.Array:
		if typ.Elem().Kind() == reflect.Uint8 {
			if _, ok := v.(string); ok {
				return false
			}
		}
		arr, ok := v.([]any)
		if !ok {
			return hit(prefix)
		}
		for i, e := range arr {
			if walkTypes(e, typ.Elem(), fmt.Sprintf("%s[%d]", prefix, i), hit) {
				return true
			}
		}
	case reflect.String:
		if _, ok := v.(string); !ok {
			return hit(prefix)
		}
	case reflect.Bool:
		if _, ok := v.(bool); !ok {
			return hit(prefix)
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, ok := v.(json.Number)
		if !ok {
			return hit(prefix)
		}
		if _, err := strconv.ParseInt(n.String(), 10, typ.Bits()); err != nil {
			return hit(prefix) // 10.5, 1e3 or out of range: "chatIds[1]", not "chatIds"
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		n, ok := v.(json.Number)
		if !ok {
			return hit(prefix)
		}
		if _, err := strconv.ParseUint(n.String(), 10, typ.Bits()); err != nil {
			return hit(prefix)
		}
	case reflect.Float32, reflect.Float64:
		if _, ok := v.(json.Number); !ok {
			return hit(prefix)
		}
	}
	return false
}
