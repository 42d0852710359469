package core

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestValidateWorkspaceRef(t *testing.T) {
	t.Parallel()
	for ref, ok := range map[string]bool{
		"research":                             true,
		"q4_rebalance-2":                       true,
		"0f8fad5b-d9cb-469f-a165-70867728950e": true,
		"":                                     false,
		"..":                                   false,
		"../../etc":                            false,
		"a/b":                                  false,
		"Upper":                                false,
		"-dash":                                false,
		"0f8fad5b-d9cb-469f-a165-70867728950e/..": false,
		"abcdefghijklmnopqrstuvwxyz0123456789":    false, // 36 characters, not a UUID
	} {
		err := ValidateWorkspaceRef(ref)
		if ok {
			require.NoError(t, err, ref)
		} else {
			require.Error(t, err, ref)
		}
	}
}
