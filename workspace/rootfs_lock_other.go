//go:build !unix

package workspace

import "os"

func lockFile(*os.File) error   { return nil }
func unlockFile(*os.File) error { return nil }

const openNonblock = 0
