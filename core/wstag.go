package core

import (
	"fmt"
	"regexp"

	"github.com/google/uuid"
)

// workspaceTagPattern is the rule for a workspace's tag (the reference's).
var workspaceTagPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,32}$`)

// ValidateWorkspaceTag checks a workspace tag's syntax: 1-33 characters
// a-z, 0-9, '-' or '_', starting with a letter or digit. The workspace
// manager applies it when it creates a workspace; anything that names a
// workspace ahead of time (a cron job's or webhook's target) applies it too.
func ValidateWorkspaceTag(tag string) error {
	if !workspaceTagPattern.MatchString(tag) {
		return fmt.Errorf("invalid tag %q: use 1-33 characters a-z, 0-9, '-' or '_', starting with a letter or digit", tag)
	}
	return nil
}

// ValidateWorkspaceRef checks a reference to a workspace: its id (a UUID)
// or a valid tag.
func ValidateWorkspaceRef(ref string) error {
	if _, err := uuid.Parse(ref); err == nil && len(ref) == 36 {
		return nil
	}
	if err := ValidateWorkspaceTag(ref); err != nil {
		return fmt.Errorf("%q is neither a workspace id nor a valid workspace tag (1-33 characters a-z, 0-9, '-' or '_', starting with a letter or digit)", ref)
	}
	return nil
}
