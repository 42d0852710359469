package config

import "github.com/alice-trading/alice/core"

// DuplicateKey finds the first object key given twice in the same object
// anywhere in data; see core.DuplicateKey, which tool arguments share.
func DuplicateKey(data []byte) (path string, ok bool) { return core.DuplicateKey(data) }

// duplicateKeyError describes a key DuplicateKey found.
func duplicateKeyError(path string) error {
	return &keyError{Key: path, Msg: "duplicate key: given more than once in the same object (JSON would silently keep the last); keep one"}
}
