package core

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// DuplicateKey finds the first object key given twice in the same object
// anywhere in data (encoding/json would silently keep the last one) and
// returns its path, e.g. "[0].readOnly" or "takeProfit.price". ok is false
// when there is none or data is not valid JSON (the decoder reports that).
// Config files and tool arguments both refuse what it finds.
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

// CheckDuplicateKeys refuses tool arguments that give a key twice in one
// object, naming it: JSON decoding would keep the last silently, so what
// a person or log reads first ("totalQuantity":"1") need not be what runs.
func CheckDuplicateKeys(args json.RawMessage) error {
	if p, dup := DuplicateKey(args); dup {
		return fmt.Errorf("invalid arguments: duplicate key %q: given more than once in the same object (JSON would silently keep the last); send it once", ClipText(p, 80))
	}
	return nil
}
