package config

// duplicateKeyError describes a key core.DuplicateKey found (the finder
// config files and tool arguments share).
func duplicateKeyError(path string) error {
	return &keyError{Key: path, Msg: "duplicate key: given more than once in the same object (JSON would silently keep the last); keep one"}
}
