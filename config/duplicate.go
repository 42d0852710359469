package config

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// DuplicateKey finds the first object key given twice in the same object
// anywhere in data (encoding/json would silently keep the last one) and
// returns its path, e.g. "[0].readOnly". ok is false when there is none
// or data is not valid JSON (the decoder reports that).
func DuplicateKey(data []byte) (path string, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	p, found, err := walkDuplicates(dec, "")
	if err != nil {
		return "", false
	}
	return p, found
}

// walkDuplicates reads one JSON value from dec.
func walkDuplicates(dec *json.Decoder, prefix string) (string, bool, error) {
	tok, err := dec.Token()
	if err != nil {
		return "", false, err
	}
	d, isDelim := tok.(json.Delim)
	if !isDelim {
		return "", false, nil
	}
	switch d {
	case '{':
		seen := map[string]bool{}
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return "", false, err
			}
			k, _ := kt.(string)
			path := k
			if prefix != "" {
				path = prefix + "." + k
			}
			if seen[k] {
				return path, true, nil
			}
			seen[k] = true
			if p, found, err := walkDuplicates(dec, path); err != nil || found {
				return p, found, err
			}
		}
	case '[':
		for i := 0; dec.More(); i++ {
			if p, found, err := walkDuplicates(dec, fmt.Sprintf("%s[%d]", prefix, i)); err != nil || found {
				return p, found, err
			}
		}
	}
	_, err = dec.Token() // the closing delimiter
	return "", false, err
}

// duplicateKeyError describes a key DuplicateKey found.
func duplicateKeyError(path string) error {
	return &keyError{Key: path, Msg: "duplicate key: given more than once in the same object (JSON would silently keep the last); keep one"}
}
