package mcp

import (
	"encoding"
	"encoding/json"
	"reflect"
	"strings"
)

// maxListDepth bounds the walk (and so any cycle through pointers).
const maxListDepth = 32

var (
	jsonMarshaler = reflect.TypeFor[json.Marshaler]()
	textMarshaler = reflect.TypeFor[encoding.TextMarshaler]()
)

// emptyLists returns v with every nil slice replaced by an empty one, so a
// tool result never says `null` where a client expects a list (`[]`). Go
// encodes a nil slice as null, and handlers build lists with append from
// nil all the time; fixing it here covers every tool at once. v itself is
// never modified: changed parts are copied.
func emptyLists(v any) any {
	if v == nil {
		return nil
	}
	rv, changed := normalizeLists(reflect.ValueOf(v), 0)
	if !changed {
		return v
	}
	return rv.Interface()
}

func ownMarshaler(t reflect.Type) bool {
	return t.Implements(jsonMarshaler) || t.Implements(textMarshaler) ||
		(t.Kind() != reflect.Pointer && (reflect.PointerTo(t).Implements(jsonMarshaler) || reflect.PointerTo(t).Implements(textMarshaler)))
}

func normalizeLists(v reflect.Value, depth int) (reflect.Value, bool) {
	if !v.IsValid() || depth > maxListDepth || ownMarshaler(v.Type()) {
		return v, false
	}
	switch v.Kind() {
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return v, false // []byte encodes as a base64 string
		}
		if v.IsNil() {
			return reflect.MakeSlice(v.Type(), 0, 0), true
		}
		return normalizeElems(v, depth, func() reflect.Value {
			c := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
			reflect.Copy(c, v)
			return c
		})
	case reflect.Array:
		return normalizeElems(v, depth, func() reflect.Value {
			c := reflect.New(v.Type()).Elem()
			c.Set(v)
			return c
		})
	case reflect.Map:
		if v.IsNil() {
			return v, false
		}
		var out reflect.Value
		iter := v.MapRange()
		for iter.Next() {
			nv, ch := normalizeLists(iter.Value(), depth+1)
			if !ch {
				continue
			}
			if !out.IsValid() {
				out = reflect.MakeMapWithSize(v.Type(), v.Len())
				for _, k := range v.MapKeys() {
					out.SetMapIndex(k, v.MapIndex(k))
				}
			}
			out.SetMapIndex(iter.Key(), nv)
		}
		if out.IsValid() {
			return out, true
		}
		return v, false
	case reflect.Pointer:
		if v.IsNil() {
			return v, false
		}
		nv, ch := normalizeLists(v.Elem(), depth+1)
		if !ch {
			return v, false
		}
		p := reflect.New(v.Type().Elem())
		p.Elem().Set(nv)
		return p, true
	case reflect.Interface:
		if v.IsNil() {
			return v, false
		}
		nv, ch := normalizeLists(v.Elem(), depth+1)
		if !ch {
			return v, false
		}
		out := reflect.New(v.Type()).Elem()
		out.Set(nv)
		return out, true
	case reflect.Struct:
		var out reflect.Value
		t := v.Type()
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() || strings.HasPrefix(f.Tag.Get("json"), "-") {
				continue
			}
			nv, ch := normalizeLists(v.Field(i), depth+1)
			if !ch {
				continue
			}
			if !out.IsValid() {
				out = reflect.New(t).Elem()
				out.Set(v)
			}
			out.Field(i).Set(nv)
		}
		if out.IsValid() {
			return out, true
		}
	}
	return v, false
}

// normalizeElems rewrites the elements of a slice or array, copying it
// (with clone) only when an element changed.
func normalizeElems(v reflect.Value, depth int, clone func() reflect.Value) (reflect.Value, bool) {
	var out reflect.Value
	for i := range v.Len() {
		nv, ch := normalizeLists(v.Index(i), depth+1)
		if !ch {
			continue
		}
		if !out.IsValid() {
			out = clone()
		}
		out.Index(i).Set(nv)
	}
	if out.IsValid() {
		return out, true
	}
	return v, false
}
