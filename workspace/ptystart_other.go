//go:build !linux

package workspace

import "os"

// utf8Input does nothing here: IUTF8 is a Linux line-discipline flag.
func utf8Input(*os.File) {}
